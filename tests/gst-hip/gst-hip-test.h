/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __VH_GST_HIP_TEST_H__
#define __VH_GST_HIP_TEST_H__

/* What the HIP element tests share. Header-only and on GStreamer alone,
 * so that the tests which load only the plugin file can use it too. */

#include <gst/gst.h>

/* Whether @launch (a pipeline that ends by itself) reaches PAUSED: the
 * HIP elements start only where a device (or the fake driver) is. */
static inline gboolean
vh_gst_test_pipeline_starts (const gchar * launch)
{
  GstElement *probe = gst_parse_launch (launch, NULL);
  GstStateChangeReturn ret;

  g_assert_nonnull (probe);
  ret = gst_element_set_state (probe, GST_STATE_PAUSED);
  if (ret == GST_STATE_CHANGE_ASYNC)
    ret = gst_element_get_state (probe, NULL, NULL, 10 * GST_SECOND);
  gst_element_set_state (probe, GST_STATE_NULL);
  gst_object_unref (probe);
  return ret != GST_STATE_CHANGE_FAILURE;
}

/* Plays @pipeline to its end of stream (an error fails the test) and
 * stops it. */
static inline void
vh_gst_test_play_to_eos (GstElement * pipeline, GstClockTime timeout)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;

  g_assert_cmpint (gst_element_set_state (pipeline, GST_STATE_PLAYING), !=,
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (bus, timeout,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  g_assert_nonnull (msg);
  g_assert_cmpint (GST_MESSAGE_TYPE (msg), ==, GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
}

/* Every number of @a's per-frame "vmaf" structures equals @b's, frame by
 * frame, NaN matching NaN (@a_name and @b_name say which run is which,
 * @what the case); returns how many values were compared. */
static inline guint
vh_gst_test_assert_same_values (GPtrArray * a, const gchar * a_name,
    GPtrArray * b, const gchar * b_name, const gchar * what)
{
  guint n_values = 0;

  g_assert_cmpuint (b->len, ==, a->len);
  for (guint i = 0; i < a->len; i++) {
    GstStructure *sa = g_ptr_array_index (a, i);
    GstStructure *sb = g_ptr_array_index (b, i);
    for (gint f = 0; f < gst_structure_n_fields (sa); f++) {
      const gchar *name = gst_structure_nth_field_name (sa, f);
      gdouble va, vb;
      if (!gst_structure_get_double (sa, name, &va))
        continue;
      g_assert_true (gst_structure_get_double (sb, name, &vb));
      if (va != vb && !(va != va && vb != vb))
        g_error ("%s, frame %u, %s: %s %.17g, %s %.17g", what, i, name,
            a_name, va, b_name, vb);
      n_values++;
    }
  }
  return n_values;
}

#endif /* __VH_GST_HIP_TEST_H__ */
