/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Pairing and timestamps in the vmafhipcompare element: output timestamps,
 * a pad ending early, frame accounting, QoS, and input without usable
 * time refused with a reason. */

#include <gst/check/gstharness.h>
#include <string.h>

#include "vh-gst-check.h"
#include "vh-gst-pads.h"

#define W 176
#define H 144

/* A message carries its own frame's timestamps even though it is posted
 * one frame later (motion look-ahead), with the segment applied. */
static void
test_timestamps (void)
{
  static const gchar *props[] = { "threads", "2", NULL };
  static const guint durations_ms[] = { 40, 35, 45, 40, 50, 30, 40, 40 };
  GstClockTime pts = 3 * GST_SECOND;
  GstSegment seg;
  VhGstPads t;
  GList *msgs;
  GPtrArray *frames;

  vh_gst_pads_setup (&t, props);
  vh_gst_pads_caps (&t, GST_VIDEO_FORMAT_I420, W, H);
  gst_segment_init (&seg, GST_FORMAT_TIME);
  seg.start = 2 * GST_SECOND;
  seg.time = 100 * GST_SECOND;
  seg.base = 7 * GST_SECOND;
  g_assert_true (gst_harness_push_event (t.ref, gst_event_new_segment (&seg)));
  g_assert_true (gst_harness_push_event (t.dist, gst_event_new_segment (&seg)));

  for (guint f = 0; f < G_N_ELEMENTS (durations_ms); f++) {
    GstBuffer *r = vh_gst_synth_buffer (GST_VIDEO_FORMAT_I420, W, H, f, 0);
    GstBuffer *d = vh_gst_synth_buffer (GST_VIDEO_FORMAT_I420, W, H, f, 1);

    GST_BUFFER_PTS (r) = GST_BUFFER_PTS (d) = pts;
    GST_BUFFER_DURATION (r) = GST_BUFFER_DURATION (d) =
        durations_ms[f] * GST_MSECOND;
    g_assert_cmpint (gst_harness_push (t.ref, r), ==, GST_FLOW_OK);
    g_assert_cmpint (gst_harness_push (t.dist, d), ==, GST_FLOW_OK);
    pts += durations_ms[f] * GST_MSECOND;
  }
  msgs = vh_gst_pads_finish (&t);

  frames = vh_gst_structures (msgs, "vmaf");
  g_assert_cmpint (frames->len, ==, G_N_ELEMENTS (durations_ms));
  pts = 3 * GST_SECOND;
  for (guint f = 0; f < frames->len; f++) {
    const GstStructure *s = g_ptr_array_index (frames, f);

    g_assert_cmpuint (vh_gst_get_uint64 (s, "index"), ==, f);
    g_assert_cmpuint (vh_gst_get_uint64 (s, "timestamp"), ==, pts);
    g_assert_cmpuint (vh_gst_get_uint64 (s, "duration"), ==,
        durations_ms[f] * GST_MSECOND);
    g_assert_cmpuint (vh_gst_get_uint64 (s, "running-time"), ==,
        pts - 2 * GST_SECOND + 7 * GST_SECOND);
    g_assert_cmpuint (vh_gst_get_uint64 (s, "stream-time"), ==,
        pts - 2 * GST_SECOND + 100 * GST_SECOND);
    pts += durations_ms[f] * GST_MSECOND;
  }
  g_ptr_array_unref (frames);
  vh_gst_free_messages (msgs);
  vh_gst_pads_teardown (&t);
}


/* One side ends first: the pairs are scored, the rest counted and
 * reported, and the pipeline still reaches EOS. */
static void
test_pad_ends_early (void)
{
  const gchar *caps = "video/x-raw,format=I420,width=176,height=144,"
      "framerate=25/1";

  for (guint longer_ref = 0; longer_ref < 2; longer_ref++) {
    gchar *desc = vh_gst_two_test_sources (caps, caps, longer_ref ? 10 : 6,
        longer_ref ? 6 : 10, "threads=2");
    GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
    GPtrArray *frames = vh_gst_structures (msgs, "vmaf");
    GPtrArray *sums = vh_gst_structures (msgs, "vmaf-summary");
    const GstStructure *sum, *details = NULL;
    GstMessage *warning = NULL;
    GError *err;

    g_assert_true (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
    g_assert_true (vh_gst_find_type (msgs, GST_MESSAGE_EOS) >= 0);
    g_assert_cmpint (frames->len, ==, 6);
    /* The last pair's motion was flushed, not lost. */
    g_assert_cmpuint (vh_gst_get_uint64 (g_ptr_array_index (frames, 5),
        "index"), ==, 5);
    g_assert_cmpint (sums->len, ==, 1);
    sum = g_ptr_array_index (sums, 0);
    g_assert_cmpuint (vh_gst_get_uint64 (sum, "scored"), ==, 6);
    g_assert_cmpuint (vh_gst_get_uint64 (sum, longer_ref ? "unpaired-reference"
        : "unpaired-distorted"), ==, 4);
    g_assert_cmpuint (vh_gst_get_uint64 (sum, longer_ref ? "unpaired-distorted"
        : "unpaired-reference"), ==, 0);

    for (GList * l = msgs; l; l = l->next) {
      if (GST_MESSAGE_TYPE (l->data) == GST_MESSAGE_WARNING)
        warning = l->data;
    }
    g_assert_true (warning != NULL);
    gst_message_parse_warning (warning, &err, NULL);
    vh_assert_msg (strstr (err->message, "4 ") != NULL, "%s", err->message);
    vh_assert_msg (strstr (err->message, longer_ref ?
        "dist_sink ended before ref_sink" : "ref_sink ended before dist_sink")
        != NULL, "%s", err->message);
    gst_message_parse_warning_details (warning, &details);
    g_assert_true (details != NULL);
    g_assert_cmpuint (vh_gst_get_uint64 (details, longer_ref ?
        "unpaired-reference" : "unpaired-distorted"), ==, 4);
    g_error_free (err);
    g_ptr_array_unref (sums);
    g_ptr_array_unref (frames);
    vh_gst_free_messages (msgs);
    g_free (desc);
  }
}


/* Every frame that arrives is scored, unpaired or dropped, and the summary
 * and the warnings say which: here the distorted segment ends after 4
 * frames, so the base class drops the 2 frames beyond it and the last 2
 * reference frames stay alone. */
static void
test_frame_accounting (void)
{
  VhGstPads t;
  GstSegment seg;
  GList *msgs;
  GPtrArray *sums;
  const GstStructure *sum;
  gboolean warned_dropped = FALSE;

  vh_gst_pads_setup (&t, NULL);
  vh_gst_pads_caps (&t, GST_VIDEO_FORMAT_I420, W, H);
  gst_segment_init (&seg, GST_FORMAT_TIME);
  seg.stop = 4 * 40 * GST_MSECOND;
  g_assert_true (gst_harness_push_event (t.dist, gst_event_new_segment (&seg)));
  for (guint f = 0; f < 6; f++)
    vh_gst_pads_push_synth (&t, GST_VIDEO_FORMAT_I420, W, H, f, f);
  msgs = vh_gst_pads_finish (&t);

  g_assert_true (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  g_assert_cmpint (vh_gst_count (msgs, "vmaf"), ==, 4);
  sums = vh_gst_structures (msgs, "vmaf-summary");
  sum = g_ptr_array_index (sums, 0);
  vh_gst_assert_summary_counts (sum, 4, 2, 0, 0, 2);
  for (GList * l = msgs; l; l = l->next) {
    const GstStructure *details = NULL;
    guint64 n;

    if (GST_MESSAGE_TYPE (l->data) != GST_MESSAGE_WARNING)
      continue;
    gst_message_parse_warning_details (l->data, &details);
    if (details && gst_structure_get_uint64 (details, "dropped-distorted",
            &n)) {
      g_assert_cmpuint (n, ==, 2);
      warned_dropped = TRUE;
    }
  }
  g_assert_true (warned_dropped);
  g_ptr_array_unref (sums);
  vh_gst_free_messages (msgs);
  vh_gst_pads_teardown (&t);
}


/* Downstream QoS must not make the element skip pairs. */
static void
test_qos_does_not_drop (void)
{
  VhGstPads t;
  GList *msgs;
  GPtrArray *frames;

  vh_gst_pads_setup (&t, NULL);
  vh_gst_pads_caps (&t, GST_VIDEO_FORMAT_I420, W, H);
  vh_gst_pads_push_synth (&t, GST_VIDEO_FORMAT_I420, W, H, 0, 0);
  /* Once the first frame is out (and the segments with it, which reset
   * QoS), downstream says "everything before 10 s is too late". */
  gst_buffer_unref (gst_harness_pull (t.ref));
  g_assert_true (gst_harness_push_upstream_event (t.ref, gst_event_new_qos
      (GST_QOS_TYPE_UNDERFLOW, 0.5, 10 * GST_SECOND, 0)));
  for (guint f = 1; f < 5; f++)
    vh_gst_pads_push_synth (&t, GST_VIDEO_FORMAT_I420, W, H, f, f);
  msgs = vh_gst_pads_finish (&t);
  frames = vh_gst_structures (msgs, "vmaf");
  g_assert_cmpint (frames->len, ==, 5);
  g_ptr_array_unref (frames);
  vh_gst_free_messages (msgs);
  vh_gst_pads_teardown (&t);
}


/* The run ended with the element's stream-format error, which names @pad
 * and says @what, and scored nothing. */
static void
assert_input_refused (GList * msgs, const gchar * pad, const gchar * what)
{
  GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);

  g_assert_true (err != NULL);
  vh_assert_msg (g_error_matches (err, GST_STREAM_ERROR,
      GST_STREAM_ERROR_FORMAT), "%s", err->message);
  vh_assert_msg (strstr (err->message, pad) != NULL, "%s", err->message);
  vh_assert_msg (strstr (err->message, what) != NULL, "%s", err->message);
  g_assert_cmpint (vh_gst_count (msgs, "vmaf"), ==, 0);
  g_error_free (err);
}

/* filesrc straight into a pad gives a segment of bytes, on which the base
 * classes assert: the element refuses it with a message that names the
 * pad and the parser to put in between, and the pipeline stops cleanly. */
static void
test_segment_not_in_time (void)
{
  gchar *path = vh_gst_tmp_path ("raw.yuv");
  gsize frame = W * H * 3 / 2;
  gchar *data = g_malloc0 (frame * 2);
  gchar *desc;
  GList *msgs;

  g_assert_true (g_file_set_contents (path, data, frame * 2, NULL));
  desc = g_strdup_printf ("filesrc location=\"%s\" blocksize=%" G_GSIZE_FORMAT
      " ! video/x-raw,format=I420,width=%d,height=%d,framerate=25/1 ! "
      "c.ref_sink videotestsrc num-buffers=2 ! "
      "video/x-raw,format=I420,width=%d,height=%d,framerate=25/1 ! "
      "c.dist_sink vmafhipcompare name=c backend=cpu ! fakesink",
      path, frame, W, H, W, H);
  msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
  assert_input_refused (msgs, "ref_sink", "bytes");
  assert_input_refused (msgs, "ref_sink", "rawvideoparse");
  vh_gst_free_messages (msgs);
  g_free (desc);
  g_free (data);
  g_free (path);
}


/* Frames without timestamps cannot be paired: the element says so, naming
 * the pad, where the base class would fail the stream without a reason. */
static void
test_frame_without_timestamp (void)
{
  gchar *desc = g_strdup_printf ("appsrc name=r format=time "
      "caps=video/x-raw,format=I420,width=%d,height=%d,framerate=25/1 ! "
      "c.ref_sink videotestsrc num-buffers=3 ! "
      "video/x-raw,format=I420,width=%d,height=%d,framerate=25/1 ! "
      "c.dist_sink vmafhipcompare name=c backend=cpu ! fakesink", W, H, W, H);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "r");
  GstFlowReturn ret;
  GList *msgs;

  gst_element_set_state (pipeline, GST_STATE_PAUSED);
  for (guint i = 0; i < 3; i++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, W * H * 3 / 2, NULL);

    gst_buffer_memset (buf, 0, 0x40, W * H * 3 / 2);
    g_signal_emit_by_name (src, "push-buffer", buf, &ret);
    gst_buffer_unref (buf);
  }
  g_signal_emit_by_name (src, "end-of-stream", &ret);
  msgs = vh_gst_run (pipeline, 60 * GST_SECOND);
  assert_input_refused (msgs, "ref_sink", "without a timestamp");
  vh_gst_free_messages (msgs);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  g_free (desc);
}


/* A segment played backwards (rate < 0) cannot be paired or scored in
 * stream order: the element refuses it with an error that names the pad,
 * refuses its frames, and neither aborts nor hangs. */
static void
test_segment_reverse (void)
{
  VhGstPads t;
  GstSegment seg;
  GQueue q = G_QUEUE_INIT;
  GstMessage *msg;
  GstBuffer *r, *d;

  vh_gst_pads_setup (&t, NULL);
  vh_gst_pads_caps (&t, GST_VIDEO_FORMAT_I420, W, H);
  gst_segment_init (&seg, GST_FORMAT_TIME);
  seg.rate = -1.0;
  seg.stop = 10 * GST_SECOND;
  g_assert_true (gst_harness_push_event (t.ref, gst_event_new_segment (&seg)));
  g_assert_true (gst_harness_push_event (t.dist, gst_event_new_segment (&seg)));
  r = vh_gst_synth_buffer (GST_VIDEO_FORMAT_I420, W, H, 0, FALSE);
  d = vh_gst_synth_buffer (GST_VIDEO_FORMAT_I420, W, H, 0, TRUE);
  GST_BUFFER_PTS (r) = GST_BUFFER_PTS (d) = 9 * GST_SECOND;
  g_assert_false (gst_harness_push (t.ref, r) == GST_FLOW_OK);
  g_assert_false (gst_harness_push (t.dist, d) == GST_FLOW_OK);
  while ((msg = gst_bus_pop (t.bus)))
    g_queue_push_tail (&q, msg);
  assert_input_refused (q.head, "ref_sink", "backwards");
  vh_gst_free_messages (q.head);
  vh_gst_pads_teardown (&t);
}

int
main (int argc, char **argv)
{
  vh_gst_test_init (&argc, &argv);
  g_test_add_func ("/vmafhipcompare/timestamps", test_timestamps);
  g_test_add_func ("/vmafhipcompare/pad-ends-early", test_pad_ends_early);
  g_test_add_func ("/vmafhipcompare/frame-accounting", test_frame_accounting);
  g_test_add_func ("/vmafhipcompare/qos-does-not-drop", test_qos_does_not_drop);
  g_test_add_func ("/vmafhipcompare/segment-not-in-time",
      test_segment_not_in_time);
  g_test_add_func ("/vmafhipcompare/frame-without-timestamp",
      test_frame_without_timestamp);
  g_test_add_func ("/vmafhipcompare/segment-reverse", test_segment_reverse);
  return g_test_run ();
}
