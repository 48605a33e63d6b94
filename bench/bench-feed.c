/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "bench-feed.h"

#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>

typedef struct
{
  GstAppSrc *src;
  GPtrArray *frames;            /* GstBuffer*, cycled; borrowed */
  guint n;
  GstClockTime duration;
  GThread *thread;
} Feeder;

struct _BenchFeed
{
  GstElement *pipe;             /* borrowed */
  GstBus *bus;
  guint n_inputs;
  Feeder *feeders;
  gint64 t0;                    /* monotonic, at PLAYING */
};

GPtrArray *
bench_make_frames (const gchar * source, guint count, guint w, guint h,
    const gchar * chain, GstCaps ** caps)
{
  g_autofree gchar *desc = g_strdup_printf ("%s ! "
      "video/x-raw,format=I420,width=%u,height=%u,framerate=30/1 ! %s ! "
      "appsink name=sink sync=false", source, w, h, chain);
  GstElement *pipe = gst_parse_launch (desc, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *error = NULL;

  /* Without a GPU the upload fails: an error on the bus, no end of
   * stream, so the sink is polled and the bus looked at in between. */
  if (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE) {
    while (frames->len < count && !gst_app_sink_is_eos (GST_APP_SINK (sink))) {
      GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
          100 * GST_MSECOND);

      if (sample) {
        if (!*caps)
          *caps = gst_caps_ref (gst_sample_get_caps (sample));
        g_ptr_array_add (frames,
            gst_buffer_ref (gst_sample_get_buffer (sample)));
        gst_sample_unref (sample);
      } else if ((error = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR))) {
        break;
      }
    }
  }
  g_clear_pointer (&error, gst_message_unref);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  if (frames->len < count) {
    g_ptr_array_unref (frames);
    g_clear_pointer (caps, gst_caps_unref);
    return NULL;
  }
  return frames;
}

static gpointer
push_frames (gpointer data)
{
  Feeder *f = data;

  for (guint i = 0; i < f->n; i++) {
    GstBuffer *buf = gst_buffer_copy (g_ptr_array_index (f->frames,
            i % f->frames->len));
    GST_BUFFER_PTS (buf) = i * f->duration;
    GST_BUFFER_DURATION (buf) = f->duration;
    if (gst_app_src_push_buffer (f->src, buf) != GST_FLOW_OK)
      break;
  }
  gst_app_src_end_of_stream (f->src);
  return NULL;
}

BenchFeed *
bench_feed_start (GstElement * pipe, guint n_inputs, GPtrArray ** frames,
    GstCaps ** caps, guint n)
{
  BenchFeed *feed = g_new0 (BenchFeed, 1);

  feed->pipe = pipe;
  feed->bus = gst_element_get_bus (pipe);
  feed->n_inputs = n_inputs;
  feed->feeders = g_new0 (Feeder, n_inputs);
  for (guint k = 0; k < n_inputs; k++) {
    Feeder *f = &feed->feeders[k];
    g_autofree gchar *name = g_strdup_printf ("in%u", k);

    f->src = GST_APP_SRC (gst_bin_get_by_name (GST_BIN (pipe), name));
    f->frames = frames[k];
    f->n = n;
    f->duration = GST_SECOND / 30;
    gst_app_src_set_caps (f->src, caps[k]);
  }
  feed->t0 = g_get_monotonic_time ();
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (guint k = 0; k < n_inputs; k++)
    feed->feeders[k].thread = g_thread_new ("feed", push_frames,
        &feed->feeders[k]);
  return feed;
}

GstMessage *
bench_feed_wait (BenchFeed * feed, gdouble * seconds, guint * scored)
{
  GstMessage *msg;

  for (;;) {
    msg = gst_bus_timed_pop_filtered (feed->bus, GST_CLOCK_TIME_NONE,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT);
    if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ELEMENT)
      break;
    if (scored && gst_message_has_name (msg, "vmaf"))
      (*scored)++;
    gst_message_unref (msg);
  }
  *seconds = (g_get_monotonic_time () - feed->t0) / 1e6;
  return msg;
}

void
bench_feed_stop (BenchFeed * feed)
{
  gst_element_set_state (feed->pipe, GST_STATE_NULL);
  for (guint k = 0; k < feed->n_inputs; k++) {
    g_thread_join (feed->feeders[k].thread);
    gst_object_unref (feed->feeders[k].src);
  }
  gst_object_unref (feed->bus);
  g_free (feed->feeders);
  g_free (feed);
}
