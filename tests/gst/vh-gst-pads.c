/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "vh-gst-pads.h"

/* @props: NULL-terminated property, value (string) pairs. */
void
vh_gst_pads_setup (VhGstPads * t, const gchar * const *props)
{
  t->e = gst_element_factory_make ("vmafhipcompare", NULL);
  g_assert_true (t->e != NULL);
  for (guint i = 0; props && props[i]; i += 2)
    gst_util_set_object_arg (G_OBJECT (t->e), props[i], props[i + 1]);
  t->bus = gst_bus_new ();
  gst_element_set_bus (t->e, t->bus);
  t->ref = gst_harness_new_with_element (t->e, "ref_sink", "src");
  t->dist = gst_harness_new_with_element (t->e, "dist_sink", NULL);
}

void
vh_gst_pads_caps (VhGstPads * t, GstVideoFormat format, guint width,
    guint height)
{
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%u,height=%u,"
      "framerate=25/1", gst_video_format_to_string (format), width, height);

  gst_harness_set_src_caps_str (t->ref, caps);
  gst_harness_set_src_caps_str (t->dist, caps);
  g_free (caps);
}

void
vh_gst_pads_push_synth (VhGstPads * t, GstVideoFormat format, guint width,
    guint height, guint frame, guint pts_frame)
{
  GstBuffer *r = vh_gst_synth_buffer (format, width, height, frame, FALSE);
  GstBuffer *d = vh_gst_synth_buffer (format, width, height, frame, TRUE);

  GST_BUFFER_PTS (r) = GST_BUFFER_PTS (d) = pts_frame * 40 * GST_MSECOND;
  g_assert_cmpint (gst_harness_push (t->ref, r), ==, GST_FLOW_OK);
  g_assert_cmpint (gst_harness_push (t->dist, d), ==, GST_FLOW_OK);
}

/* Sends EOS on both sinks, waits for it on the src pad and returns every
 * message the element posted. */
GList *
vh_gst_pads_finish (VhGstPads * t)
{
  GQueue q = G_QUEUE_INIT;
  GstMessage *msg;

  g_assert_true (gst_harness_push_event (t->ref, gst_event_new_eos ()));
  g_assert_true (gst_harness_push_event (t->dist, gst_event_new_eos ()));
  for (;;) {
    GstEvent *ev = gst_harness_pull_event (t->ref);
    gboolean eos;

    vh_assert_msg (ev != NULL, "no EOS on the src pad");
    eos = GST_EVENT_TYPE (ev) == GST_EVENT_EOS;
    gst_event_unref (ev);
    if (eos)
      break;
  }
  while ((msg = gst_bus_pop (t->bus)))
    g_queue_push_tail (&q, msg);
  return q.head;
}

void
vh_gst_pads_teardown (VhGstPads * t)
{
  gst_harness_teardown (t->dist);
  gst_harness_teardown (t->ref);
  gst_element_set_bus (t->e, NULL);
  gst_object_unref (t->e);
  gst_bus_set_flushing (t->bus, TRUE);
  gst_object_unref (t->bus);
}

/* The summary's frame counts: the pairs scored, and each side's frames
 * left unpaired and dropped. */
void
vh_gst_assert_summary_counts (const GstStructure * sum, guint64 scored,
    guint64 unpaired_ref, guint64 unpaired_dist, guint64 dropped_ref,
    guint64 dropped_dist)
{
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "scored"), ==, scored);
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "unpaired-reference"), ==,
      unpaired_ref);
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "unpaired-distorted"), ==,
      unpaired_dist);
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "dropped-reference"), ==,
      dropped_ref);
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "dropped-distorted"), ==,
      dropped_dist);
}

void
vh_gst_free_messages (GList * msgs)
{
  g_list_free_full (msgs, (GDestroyNotify) gst_message_unref);
}

gchar *
vh_gst_two_test_sources (const gchar * ref_caps, const gchar * dist_caps,
    guint ref_n, guint dist_n, const gchar * props)
{
  return g_strdup_printf ("videotestsrc num-buffers=%u ! %s ! c.ref_sink "
      "videotestsrc num-buffers=%u pattern=ball ! %s ! c.dist_sink "
      "vmafhipcompare name=c %s ! fakesink", ref_n, ref_caps, dist_n,
      dist_caps, props ? props : "");
}

gchar *
vh_gst_test_sources (const gchar * ref_caps, const gchar * dist_caps,
    guint frames, const gchar * props)
{
  return g_strdup_printf ("videotestsrc num-buffers=%u %s%s ! c.ref_sink "
      "videotestsrc num-buffers=%u pattern=ball %s%s ! c.dist_sink "
      "vmafhipcompare name=c %s ! fakesink", frames, ref_caps ? "! " : "",
      ref_caps ? ref_caps : "", frames, dist_caps ? "! " : "",
      dist_caps ? dist_caps : "", props ? props : "");
}

GList *
vh_gst_run_test_sources (const gchar * ref_caps, const gchar * dist_caps,
    guint frames, const gchar * props)
{
  gchar *desc = vh_gst_test_sources (ref_caps, dist_caps, frames, props);
  GList *msgs = vh_gst_run_launch (desc, 120 * GST_SECOND);

  g_free (desc);
  return msgs;
}
