/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The vmafhipcompare element in a running pipeline: seeking, state
 * changes, live operation and latency. */

#include <math.h>
#include <string.h>

#include "vh-gst-check.h"
#include "vh-gst-pads.h"

#define TOL 1e-4
#define SMALL_PAIR "golden_src01_q160x90_8bit_48f"
#define W 176
#define H 144

/* A flushing seek: frames before it are still reported, temporal features
 * start over after it, and every later frame matches libvmaf. */
static gboolean
is_temporal (const gchar * metric)
{
  return strstr (metric, "motion") != NULL || !strcmp (metric, "vmaf");
}

static void
test_flushing_seek (void)
{
  const VhGoldenPair *pair = vh_gst_golden_pair (SMALL_PAIR);
  GstElement *pipeline;
  gchar *desc;
  GList *msgs;
  GPtrArray *frames;
  VhGoldenScores *gs;
  GstClockTime seek_to = 1 * GST_SECOND;        /* frame 25 */
  guint after = 0;
  gboolean first_after = TRUE;

  VH_SKIP_WITHOUT (pair);
  desc = vh_gst_pair_pipeline (pair, "features=psnr threads=2",
      "fakesink sync=false");
  pipeline = gst_parse_launch (desc, NULL);
  g_assert_cmpint (gst_element_set_state (pipeline, GST_STATE_PAUSED), ==,
      GST_STATE_CHANGE_ASYNC);
  g_assert_cmpint (gst_element_get_state (pipeline, NULL, NULL,
      GST_CLOCK_TIME_NONE), ==, GST_STATE_CHANGE_SUCCESS);
  g_assert_true (gst_element_seek_simple (pipeline, GST_FORMAT_TIME,
      GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE, seek_to));
  g_assert_cmpint (gst_element_get_state (pipeline, NULL, NULL,
      GST_CLOCK_TIME_NONE), ==, GST_STATE_CHANGE_SUCCESS);
  msgs = vh_gst_run (pipeline, 120 * GST_SECOND);
  g_assert_true (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  /* Frames flushed by the seek were not dropped for lateness. */
  {
    GError *warn = vh_gst_first_error (msgs, GST_MESSAGE_WARNING);
    vh_assert_msg (warn == NULL || !strstr (warn->message, "too late"),
        "after a flushing seek: %s", warn ? warn->message : "");
    g_clear_error (&warn);
  }

  gs = vh_golden_scores_load (pair, "vmaf_v0.6.1+psnr.json", NULL);
  frames = vh_gst_structures (msgs, "vmaf");
  for (guint i = 0; i < frames->len; i++) {
    const GstStructure *s = g_ptr_array_index (frames, i);
    GstClockTime ts = vh_gst_get_uint64 (s, "timestamp");
    const gchar *const *metrics = vh_golden_scores_metrics (gs);
    guint n = ts / (40 * GST_MSECOND);

    if (i > 0)
      g_assert_true (vh_gst_get_uint64 (s, "index") > vh_gst_get_uint64
          (g_ptr_array_index (frames, i - 1), "index"));
    if (ts < seek_to)
      continue;
    /* New segment: running time starts again from 0. */
    g_assert_cmpuint (vh_gst_get_uint64 (s, "running-time"), ==, ts - seek_to);
    for (guint m = 0; metrics[m]; m++) {
      gdouble want, got = vh_gst_get_double (s, metrics[m]);

      g_assert_true (vh_golden_scores_get (gs, n, metrics[m], &want));
      if (first_after && !strcmp (metrics[m], "integer_motion2")) {
        g_assert_cmpfloat (got, ==, 0.0);
        continue;
      }
      if (first_after && is_temporal (metrics[m]))
        continue;
      vh_assert_msg (fabs (got - want) <= TOL, "frame %u %s: %f, libvmaf %f",
          n, metrics[m], got, want);
    }
    first_after = FALSE;
    after++;
  }
  g_assert_cmpint (after, ==, 48 - 25);
  g_assert_true (vh_gst_find_element_message (msgs, "vmaf-summary") >= 0);
  vh_golden_scores_free (gs);
  g_ptr_array_unref (frames);
  vh_gst_free_messages (msgs);
  gst_object_unref (pipeline);
  g_free (desc);
}


/* A seek backwards is refused before it reaches the sources, said on the
 * bus, and the run goes on forwards to its end. */
static void
test_seek_reverse (void)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=10 ! "
      "video/x-raw,format=I420,width=%d,height=%d,framerate=25/1 ! c.ref_sink "
      "videotestsrc num-buffers=10 ! "
      "video/x-raw,format=I420,width=%d,height=%d,framerate=25/1 ! c.dist_sink "
      "vmafhipcompare name=c backend=cpu features=psnr ! fakesink", W, H, W, H);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  const GstStructure *sum;
  GError *warn;
  GList *msgs;
  gint i;

  g_assert_true (pipeline != NULL);
  gst_element_set_state (pipeline, GST_STATE_PAUSED);
  g_assert_cmpint (gst_element_get_state (pipeline, NULL, NULL,
      GST_CLOCK_TIME_NONE), ==, GST_STATE_CHANGE_SUCCESS);
  g_assert_false (gst_element_seek (pipeline, -1.0, GST_FORMAT_TIME,
      GST_SEEK_FLAG_FLUSH, GST_SEEK_TYPE_SET, 0, GST_SEEK_TYPE_SET, 200 *
      GST_MSECOND));
  msgs = vh_gst_run (pipeline, 60 * GST_SECOND);
  g_assert_true (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  warn = vh_gst_first_error (msgs, GST_MESSAGE_WARNING);
  g_assert_true (warn != NULL);
  vh_assert_msg (g_error_matches (warn, GST_CORE_ERROR, GST_CORE_ERROR_SEEK),
      "%s", warn->message);
  vh_assert_msg (strstr (warn->message, "backwards") != NULL, "%s",
      warn->message);
  g_error_free (warn);
  i = vh_gst_find_element_message (msgs, "vmaf-summary");
  g_assert_true (i >= 0);
  sum = gst_message_get_structure (g_list_nth_data (msgs, i));
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "scored"), ==, 10);
  vh_gst_free_messages (msgs);
  gst_object_unref (pipeline);
  g_free (desc);
}


/* NULL -> PLAYING -> NULL, repeatedly, to the end and half-way. */
static void
test_state_cycling (void)
{
  const VhGoldenPair *pair = vh_gst_golden_pair (SMALL_PAIR);
  GstElement *pipeline;
  gchar *desc;
  gdouble first_score = -1;

  VH_SKIP_WITHOUT (pair);
  desc = vh_gst_pair_pipeline (pair, "threads=2", "fakesink sync=false");
  pipeline = gst_parse_launch (desc, NULL);
  for (guint run = 0; run < 3; run++) {
    GList *msgs = vh_gst_run (pipeline, 120 * GST_SECOND);
    GPtrArray *frames = vh_gst_structures (msgs, "vmaf");
    GPtrArray *sums = vh_gst_structures (msgs, "vmaf-summary");
    gdouble score;

    g_assert_true (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
    g_assert_cmpint (frames->len, ==, 48);
    g_assert_cmpuint (vh_gst_get_uint64 (g_ptr_array_index (frames, 0),
        "index"), ==, 0);
    g_assert_cmpint (sums->len, ==, 1);
    score = vh_gst_get_double (g_ptr_array_index (sums, 0), "score");
    if (run == 0)
      first_score = score;
    g_assert_cmpfloat (score, ==, first_score);
    g_ptr_array_unref (sums);
    g_ptr_array_unref (frames);
    vh_gst_free_messages (msgs);
  }
  /* Stop in the middle of the stream. */
  for (guint run = 0; run < 3; run++) {
    GstBus *bus = gst_element_get_bus (pipeline);
    guint n = 0;

    gst_element_set_state (pipeline, GST_STATE_PLAYING);
    while (n < 5 + run * 7) {
      GstMessage *msg = gst_bus_timed_pop (bus, 30 * GST_SECOND);
      const GstStructure *s;

      g_assert_true (msg != NULL);
      g_assert_true (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ERROR);
      s = gst_message_get_structure (msg);
      if (s && gst_structure_has_name (s, "vmaf"))
        n++;
      gst_message_unref (msg);
    }
    g_assert_cmpint (gst_element_set_state (pipeline, GST_STATE_NULL), ==,
        GST_STATE_CHANGE_SUCCESS);
    gst_bus_set_flushing (bus, TRUE);
    gst_bus_set_flushing (bus, FALSE);
    gst_object_unref (bus);
  }
  gst_object_unref (pipeline);
  g_free (desc);
}


/* A live pipeline keeps running, every source frame is accounted for, and
 * the element adds one frame of latency. (Whether it keeps real time is a
 * matter of machine load: bench/bench-live measures that.) */
static GstPadProbeReturn
count_buffers (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  g_atomic_int_inc ((gint *) user_data);
  return GST_PAD_PROBE_OK;
}

static void
test_live (void)
{
  GstElement *pipeline, *c, *vsrc;
  GstPad *src, *peer, *ref_sink, *vsrc_pad;
  gint produced = 0;
  GstQuery *q;
  GstBus *bus;
  gboolean live;
  GstClockTime min, max, up_min, up_max;
  GList *msgs;
  GPtrArray *frames, *sums;
  const GstStructure *sum;

  if (vh_gst_skip_live ())
    return;
  pipeline = gst_parse_launch ("videotestsrc name=v is-live=true "
      "pattern=ball ! "
      "video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! "
      "tee name=t t. ! queue ! c.ref_sink "
      "t. ! queue ! videoscale ! video/x-raw,width=160,height=120 ! "
      "videoscale ! video/x-raw,width=320,height=240 ! c.dist_sink "
      "vmafhipcompare name=c features=psnr ! fakesink sync=true", NULL);
  g_assert_true (pipeline != NULL);
  c = gst_bin_get_by_name (GST_BIN (pipeline), "c");
  vsrc = gst_bin_get_by_name (GST_BIN (pipeline), "v");
  vsrc_pad = gst_element_get_static_pad (vsrc, "src");
  gst_pad_add_probe (vsrc_pad, GST_PAD_PROBE_TYPE_BUFFER, count_buffers,
      &produced, NULL);
  bus = gst_element_get_bus (pipeline);
  g_assert_true (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  g_assert_cmpint (gst_element_get_state (pipeline, NULL, NULL, 10 *
      GST_SECOND), ==, GST_STATE_CHANGE_SUCCESS);
  g_usleep (2 * G_USEC_PER_SEC);

  /* Latency: upstream's plus one frame. */
  src = gst_element_get_static_pad (c, "src");
  q = gst_query_new_latency ();
  g_assert_true (gst_pad_query (src, q));
  gst_query_parse_latency (q, &live, &min, &max);
  g_assert_true (live);
  gst_query_unref (q);
  ref_sink = gst_element_get_static_pad (c, "ref_sink");
  peer = gst_pad_get_peer (ref_sink);
  q = gst_query_new_latency ();
  g_assert_true (gst_pad_query (peer, q));
  gst_query_parse_latency (q, NULL, &up_min, &up_max);
  gst_query_unref (q);
  g_assert_cmpuint (min, ==,
      up_min + gst_util_uint64_scale (GST_SECOND, 1, 30));

  g_usleep (1 * G_USEC_PER_SEC);
  g_assert_true (gst_element_send_event (pipeline, gst_event_new_eos ()));
  {
    GQueue qq = G_QUEUE_INIT;
    for (;;) {
      GstMessage *msg = gst_bus_timed_pop (bus, 30 * GST_SECOND);
      g_assert_true (msg != NULL);
      g_queue_push_tail (&qq, msg);
      g_assert_true (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ERROR);
      if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS)
        break;
    }
    msgs = qq.head;
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);

  frames = vh_gst_structures (msgs, "vmaf");
  vh_assert_msg (frames->len >= 10, "only %u frames in 3 s", frames->len);
  for (guint i = 1; i < frames->len; i++)
    g_assert_true (vh_gst_get_uint64 (g_ptr_array_index (frames, i), "index") >
        vh_gst_get_uint64 (g_ptr_array_index (frames, i - 1), "index"));
  sums = vh_gst_structures (msgs, "vmaf-summary");
  g_assert_cmpint (sums->len, ==, 1);
  sum = g_ptr_array_index (sums, 0);
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "scored"), ==, frames->len);
  /* Each side: every frame the source made is scored, unpaired or
   * dropped, and the summary says which. */
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "scored") + vh_gst_get_uint64 (sum,
      "unpaired-reference") + vh_gst_get_uint64 (sum, "dropped-reference"), ==,
      produced);
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "scored") + vh_gst_get_uint64 (sum,
      "unpaired-distorted") + vh_gst_get_uint64 (sum, "dropped-distorted"), ==,
      produced);
  /* Down- and upscaled video is visibly worse than its source. */
  g_assert_true (vh_gst_get_double (sum, "score") < 99.0);

  g_ptr_array_unref (sums);
  g_ptr_array_unref (frames);
  vh_gst_free_messages (msgs);
  gst_object_unref (peer);
  gst_object_unref (ref_sink);
  gst_object_unref (src);
  gst_object_unref (bus);
  gst_object_unref (vsrc_pad);
  gst_object_unref (vsrc);
  gst_object_unref (c);
  gst_object_unref (pipeline);
}


/* Without live sources the latency property still lets one input run
 * ahead (the base class queues that much per pad): its frames wait for
 * their partners. They were taken as unpaired, 3 to 15 a side, when the
 * pairing waited for 4 frames whatever the latency. */
static void
test_latency_without_live_sources (void)
{
  const gchar *desc = "videotestsrc num-buffers=40 ! "
      "video/x-raw,format=I420,width=176,height=144,framerate=25/1 ! "
      "c.ref_sink videotestsrc num-buffers=40 pattern=ball ! "
      "video/x-raw,format=I420,width=176,height=144,framerate=25/1 ! "
      "identity sleep-time=4000 ! c.dist_sink vmafhipcompare name=c "
      "backend=cpu latency=1000000000 ! fakesink";
  GList *msgs = vh_gst_run_launch (desc, 120 * GST_SECOND);
  GPtrArray *sums;
  const GstStructure *sum;

  g_assert_true (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  sums = vh_gst_structures (msgs, "vmaf-summary");
  g_assert_cmpint (sums->len, ==, 1);
  sum = g_ptr_array_index (sums, 0);
  vh_gst_assert_summary_counts (sum, 40, 0, 0, 0, 0);
  g_assert_true (vh_gst_first_error (msgs, GST_MESSAGE_WARNING) == NULL);
  g_ptr_array_unref (sums);
  vh_gst_free_messages (msgs);
}

int
main (int argc, char **argv)
{
  vh_gst_test_init (&argc, &argv);
  g_test_add_func ("/vmafhipcompare/flushing-seek", test_flushing_seek);
  g_test_add_func ("/vmafhipcompare/seek-reverse", test_seek_reverse);
  g_test_add_func ("/vmafhipcompare/state-cycling", test_state_cycling);
  g_test_add_func ("/vmafhipcompare/live", test_live);
  g_test_add_func ("/vmafhipcompare/latency-without-live-sources",
      test_latency_without_live_sources);
  return g_test_run ();
}
