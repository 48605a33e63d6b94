/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Behaviour of the vmafhipcompare element: messages, timestamps, summary,
 * results files, tags, negotiation, early EOS, seeking, state changes,
 * live operation, settings. Golden pairs come through rawvideoparse;
 * synthetic frames through GstHarness. */

#include <gst/check/gstharness.h>
#include <math.h>
#include <string.h>

#include "vh-gst-check.h"

#define TOL 1e-4
#define SMALL_PAIR "golden_src01_q160x90_8bit_48f"
#define W 176
#define H 144

/* ---------------------------------------------------------------------- */
/* Two harnesses on one element                                            */

typedef struct
{
  GstElement *e;
  GstHarness *ref;
  GstHarness *dist;
  GstBus *bus;
} Pads;

/* @props: NULL-terminated property, value (string) pairs. */
static void
pads_setup (Pads * t, const gchar * const *props)
{
  t->e = gst_element_factory_make ("vmafhipcompare", NULL);
  fail_unless (t->e != NULL);
  for (guint i = 0; props && props[i]; i += 2)
    gst_util_set_object_arg (G_OBJECT (t->e), props[i], props[i + 1]);
  t->bus = gst_bus_new ();
  gst_element_set_bus (t->e, t->bus);
  t->ref = gst_harness_new_with_element (t->e, "ref_sink", "src");
  t->dist = gst_harness_new_with_element (t->e, "dist_sink", NULL);
}

static void
pads_caps (Pads * t, GstVideoFormat format, guint width, guint height)
{
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%u,height=%u,"
      "framerate=25/1", gst_video_format_to_string (format), width, height);

  gst_harness_set_src_caps_str (t->ref, caps);
  gst_harness_set_src_caps_str (t->dist, caps);
  g_free (caps);
}

static void
pads_push_synth (Pads * t, GstVideoFormat format, guint width, guint height,
    guint frame, guint pts_frame)
{
  GstBuffer *r = vh_gst_synth_buffer (format, width, height, frame, FALSE);
  GstBuffer *d = vh_gst_synth_buffer (format, width, height, frame, TRUE);

  GST_BUFFER_PTS (r) = GST_BUFFER_PTS (d) = pts_frame * 40 * GST_MSECOND;
  fail_unless_equals_int (gst_harness_push (t->ref, r), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (t->dist, d), GST_FLOW_OK);
}

/* Sends EOS on both sinks, waits for it on the src pad and returns every
 * message the element posted. */
static GList *
pads_finish (Pads * t)
{
  GQueue q = G_QUEUE_INIT;
  GstMessage *msg;

  fail_unless (gst_harness_push_event (t->ref, gst_event_new_eos ()));
  fail_unless (gst_harness_push_event (t->dist, gst_event_new_eos ()));
  for (;;) {
    GstEvent *ev = gst_harness_pull_event (t->ref);
    gboolean eos;

    fail_unless (ev != NULL, "no EOS on the src pad");
    eos = GST_EVENT_TYPE (ev) == GST_EVENT_EOS;
    gst_event_unref (ev);
    if (eos)
      break;
  }
  while ((msg = gst_bus_pop (t->bus)))
    g_queue_push_tail (&q, msg);
  return q.head;
}

static void
pads_teardown (Pads * t)
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
static void
assert_summary_counts (const GstStructure * sum, guint64 scored,
    guint64 unpaired_ref, guint64 unpaired_dist, guint64 dropped_ref,
    guint64 dropped_dist)
{
  fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, "scored"), scored);
  fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, "unpaired-reference"),
      unpaired_ref);
  fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, "unpaired-distorted"),
      unpaired_dist);
  fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, "dropped-reference"),
      dropped_ref);
  fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, "dropped-distorted"),
      dropped_dist);
}

static void
free_messages (GList * msgs)
{
  g_list_free_full (msgs, (GDestroyNotify) gst_message_unref);
}

#define SKIP_WITHOUT(pair)                                                  \
  G_STMT_START {                                                            \
    if (!(pair)) {                                                          \
      GST_INFO ("golden pair missing: skipped");                            \
      return;                                                               \
    }                                                                       \
  } G_STMT_END

/* ---------------------------------------------------------------------- */

GST_START_TEST (test_element_details)
{
  GstElementFactory *f = gst_element_factory_find ("vmafhipcompare");
  GstElement *e;
  gchar *model;
  guint tag_interval;
  gboolean frame_message;

  fail_unless (f != NULL);
  fail_unless_equals_string (gst_element_factory_get_metadata (f,
          GST_ELEMENT_METADATA_KLASS), "Filter/Analyzer/Video");
  e = gst_element_factory_create (f, NULL);
  fail_unless (GST_IS_VIDEO_AGGREGATOR (e));
  for (guint i = 0; i < 3; i++) {
    static const gchar *pads[] = { "ref_sink", "dist_sink", "src" };
    GstPad *pad = gst_element_get_static_pad (e, pads[i]);
    fail_unless (pad != NULL, "no pad %s", pads[i]);
    gst_object_unref (pad);
  }
  g_object_get (e, "model", &model, "tag-interval", &tag_interval,
      "frame-message", &frame_message, NULL);
  fail_unless_equals_string (model, "vmaf_v0.6.1");
  fail_unless (frame_message);
  fail_unless_equals_int (tag_interval, 30);
  for (guint i = 0; i < 13; i++) {
    static const gchar *names[] = { "model", "features", "enable-transform",
      "disable-clip", "pool-method", "subsample", "threads", "frame-message",
      "results-filename", "results-format", "tag-interval", "passthrough",
      "backend"
    };
    GParamSpec *p = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        names[i]);
    fail_unless (p != NULL, "no property %s", names[i]);
    fail_unless (g_param_spec_get_blurb (p) && *g_param_spec_get_blurb (p));
  }
  g_free (model);
  gst_object_unref (e);
  gst_object_unref (f);
}

GST_END_TEST;

/* log-level (GStreamer's vmaf element's name) belongs to its instance: it
 * is read back, and neither changes the debug threshold every instance
 * in the process shares nor another instance's value. */
GST_START_TEST (test_log_level_per_instance)
{
  GstElement *a = gst_element_factory_make ("vmafhipcompare", NULL);
  GstElement *b = gst_element_factory_make ("vmafhipcompare", NULL);
  GstDebugLevel before, level_a = GST_LEVEL_NONE, level_b = GST_LEVEL_NONE;
  GstDebugCategory *cat;

  /* registered by the element's class */
  GST_DEBUG_CATEGORY_GET (cat, "vmafhipcompare");
  fail_unless (cat != NULL);
  before = gst_debug_category_get_threshold (cat);
  gst_util_set_object_arg (G_OBJECT (a), "log-level", "debug");
  g_object_get (a, "log-level", &level_a, NULL);
  g_object_get (b, "log-level", &level_b, NULL);
  fail_unless_equals_int (level_a, GST_LEVEL_DEBUG);
  fail_unless_equals_int (level_b, GST_LEVEL_NONE);
  fail_unless_equals_int (gst_debug_category_get_threshold (cat), before);
  gst_util_set_object_arg (G_OBJECT (b), "log-level", "error");
  fail_unless_equals_int (gst_debug_category_get_threshold (cat), before);
  gst_object_unref (a);
  gst_object_unref (b);
}

GST_END_TEST;

/* Every frame gets one message, in order, with its values, as soon as
 * they are final; the summary follows the last one and precedes EOS. */
GST_START_TEST (test_messages)
{
  const VhGoldenPair *pair = vh_gst_golden_pair (SMALL_PAIR);
  gchar *desc;
  GList *msgs;
  GPtrArray *frames, *summaries;
  const GstStructure *sum, *pooled;
  VhGoldenScores *gs;
  gint last_frame = -1, i = 0;
  gdouble want;

  SKIP_WITHOUT (pair);
  desc = vh_gst_pair_pipeline (pair, "features=psnr threads=2", NULL);
  msgs = vh_gst_run_launch (desc, 120 * GST_SECOND);
  fail_unless (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);

  frames = vh_gst_structures (msgs, "vmaf");
  fail_unless_equals_int (frames->len, 48);
  for (guint f = 0; f < frames->len; f++) {
    const GstStructure *s = g_ptr_array_index (frames, f);
    fail_unless_equals_uint64 (vh_gst_get_uint64 (s, "index"), f);
    fail_unless_equals_uint64 (vh_gst_get_uint64 (s, "timestamp"),
        f * 40 * GST_MSECOND);
    fail_unless_equals_uint64 (vh_gst_get_uint64 (s, "duration"),
        40 * GST_MSECOND);
    fail_unless_equals_uint64 (vh_gst_get_uint64 (s, "stream-time"),
        f * 40 * GST_MSECOND);
    fail_unless_equals_uint64 (vh_gst_get_uint64 (s, "running-time"),
        f * 40 * GST_MSECOND);
    fail_unless_equals_float (vh_gst_get_double (s, "score"),
        vh_gst_get_double (s, "vmaf"));
  }
  fail_unless (vh_gst_compare_frames (pair, "vmaf_v0.6.1+psnr.json", frames,
          TOL, NULL) >= 48 * 18);

  /* Order: frames, then the summary, then EOS. */
  for (GList * l = msgs; l; l = l->next, i++) {
    const GstStructure *s = gst_message_get_structure (l->data);
    if (s && gst_structure_has_name (s, "vmaf"))
      last_frame = i;
  }
  fail_unless (last_frame < vh_gst_find_element_message (msgs, "vmaf-summary"));
  fail_unless (vh_gst_find_element_message (msgs, "vmaf-summary") <
      vh_gst_find_type (msgs, GST_MESSAGE_EOS));

  summaries = vh_gst_structures (msgs, "vmaf-summary");
  fail_unless_equals_int (summaries->len, 1);
  sum = g_ptr_array_index (summaries, 0);
  assert_summary_counts (sum, 48, 0, 0, 0, 0);
  fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, "skipped"), 0);
  fail_unless_equals_string (gst_structure_get_string (sum, "pool-method"),
      "mean");
  fail_unless (gst_structure_get (sum, "vmaf", GST_TYPE_STRUCTURE, &pooled,
          NULL));
  gs = vh_golden_scores_load (pair, "vmaf_v0.6.1+psnr.json", NULL);
  fail_unless (gs != NULL);
  fail_unless (vh_golden_scores_get_pooled (gs, "vmaf", "mean", &want));
  fail_unless (fabs (vh_gst_get_double (pooled, "mean") - want) <= TOL);
  fail_unless (fabs (vh_gst_get_double (sum, "score") - want) <= TOL);
  fail_unless (vh_golden_scores_get_pooled (gs, "vmaf", "harmonic_mean",
          &want));
  fail_unless (fabs (vh_gst_get_double (pooled, "harmonic-mean") - want) <=
      TOL);
  fail_unless (vh_golden_scores_get_pooled (gs, "vmaf", "min", &want));
  fail_unless (fabs (vh_gst_get_double (pooled, "min") - want) <= TOL);
  fail_unless (vh_golden_scores_get_pooled (gs, "vmaf", "max", &want));
  fail_unless (fabs (vh_gst_get_double (pooled, "max") - want) <= TOL);
  fail_unless_equals_uint64 (vh_gst_get_uint64 (pooled, "frames"), 48);
  fail_unless (vh_golden_scores_get_pooled (gs, "psnr_y", "mean", &want));
  gst_structure_free ((GstStructure *) pooled);
  fail_unless (gst_structure_get (sum, "psnr_y", GST_TYPE_STRUCTURE, &pooled,
          NULL));
  fail_unless (fabs (vh_gst_get_double (pooled, "mean") - want) <= TOL);
  gst_structure_free ((GstStructure *) pooled);

  vh_golden_scores_free (gs);
  g_ptr_array_unref (summaries);
  g_ptr_array_unref (frames);
  free_messages (msgs);
  g_free (desc);
}

GST_END_TEST;

/* A message carries its own frame's timestamps even though it is posted
 * one frame later (motion look-ahead), with the segment applied. */
GST_START_TEST (test_timestamps)
{
  static const gchar *props[] = { "threads", "2", NULL };
  static const guint durations_ms[] = { 40, 35, 45, 40, 50, 30, 40, 40 };
  GstClockTime pts = 3 * GST_SECOND;
  GstSegment seg;
  Pads t;
  GList *msgs;
  GPtrArray *frames;

  pads_setup (&t, props);
  pads_caps (&t, GST_VIDEO_FORMAT_I420, W, H);
  gst_segment_init (&seg, GST_FORMAT_TIME);
  seg.start = 2 * GST_SECOND;
  seg.time = 100 * GST_SECOND;
  seg.base = 7 * GST_SECOND;
  fail_unless (gst_harness_push_event (t.ref, gst_event_new_segment (&seg)));
  fail_unless (gst_harness_push_event (t.dist, gst_event_new_segment (&seg)));

  for (guint f = 0; f < G_N_ELEMENTS (durations_ms); f++) {
    GstBuffer *r = vh_gst_synth_buffer (GST_VIDEO_FORMAT_I420, W, H, f, 0);
    GstBuffer *d = vh_gst_synth_buffer (GST_VIDEO_FORMAT_I420, W, H, f, 1);

    GST_BUFFER_PTS (r) = GST_BUFFER_PTS (d) = pts;
    GST_BUFFER_DURATION (r) = GST_BUFFER_DURATION (d) =
        durations_ms[f] * GST_MSECOND;
    fail_unless_equals_int (gst_harness_push (t.ref, r), GST_FLOW_OK);
    fail_unless_equals_int (gst_harness_push (t.dist, d), GST_FLOW_OK);
    pts += durations_ms[f] * GST_MSECOND;
  }
  msgs = pads_finish (&t);

  frames = vh_gst_structures (msgs, "vmaf");
  fail_unless_equals_int (frames->len, G_N_ELEMENTS (durations_ms));
  pts = 3 * GST_SECOND;
  for (guint f = 0; f < frames->len; f++) {
    const GstStructure *s = g_ptr_array_index (frames, f);

    fail_unless_equals_uint64 (vh_gst_get_uint64 (s, "index"), f);
    fail_unless_equals_uint64 (vh_gst_get_uint64 (s, "timestamp"), pts);
    fail_unless_equals_uint64 (vh_gst_get_uint64 (s, "duration"),
        durations_ms[f] * GST_MSECOND);
    fail_unless_equals_uint64 (vh_gst_get_uint64 (s, "running-time"),
        pts - 2 * GST_SECOND + 7 * GST_SECOND);
    fail_unless_equals_uint64 (vh_gst_get_uint64 (s, "stream-time"),
        pts - 2 * GST_SECOND + 100 * GST_SECOND);
    pts += durations_ms[f] * GST_MSECOND;
  }
  g_ptr_array_unref (frames);
  free_messages (msgs);
  pads_teardown (&t);
}

GST_END_TEST;

/* The results file in each format; JSON equals libvmaf's log. */
GST_START_TEST (test_results_file)
{
  const VhGoldenPair *pair = vh_gst_golden_pair (SMALL_PAIR);
  static const gchar *formats[] = { "json", "xml", "csv" };

  SKIP_WITHOUT (pair);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    gchar *name = g_strdup_printf ("results.%s", formats[i]);
    gchar *path = vh_gst_tmp_path (name);
    gchar *props = g_strdup_printf ("features=psnr frame-message=false "
        "results-filename=\"%s\" results-format=%s", path, formats[i]);
    gchar *desc = vh_gst_pair_pipeline (pair, props, NULL);
    GList *msgs = vh_gst_run_launch (desc, 120 * GST_SECOND);
    GPtrArray *sums = vh_gst_structures (msgs, "vmaf-summary");
    gchar *text = NULL;

    fail_unless (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
    fail_unless_equals_int (sums->len, 1);
    fail_unless_equals_string (gst_structure_get_string (g_ptr_array_index
            (sums, 0), "results-filename"), path);
    fail_unless (vh_gst_count (msgs, "vmaf") == 0);
    fail_unless (g_file_get_contents (path, &text, NULL, NULL));
    if (i == 0) {
      fail_unless (vh_gst_compare_results_json (pair,
              "vmaf_v0.6.1+psnr.json", path, TOL, NULL) > 48 * 18);
    } else if (i == 1) {
      gchar **parts = g_strsplit (text, "<frame ", -1);
      fail_unless_equals_int (g_strv_length (parts) - 1, 48);
      fail_unless (strstr (text, "vmaf=\"") != NULL);
      fail_unless (strstr (text, "psnr_y") != NULL);
      g_strfreev (parts);
    } else {
      gchar **lines = g_strsplit (g_strstrip (text), "\n", -1);
      fail_unless_equals_int (g_strv_length (lines), 49);
      fail_unless (strstr (lines[0], "vmaf") != NULL);
      fail_unless (strstr (lines[0], "psnr_y") != NULL);
      g_strfreev (lines);
    }
    g_free (text);
    g_ptr_array_unref (sums);
    free_messages (msgs);
    g_free (desc);
    g_free (props);
    g_free (path);
    g_free (name);
  }
}

GST_END_TEST;

GST_START_TEST (test_results_unwritable)
{
  gchar *dir = vh_gst_tmp_path ("missing-dir");
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=3 ! "
      "video/x-raw,format=I420,width=%d,height=%d ! c.ref_sink "
      "videotestsrc num-buffers=3 pattern=snow ! "
      "video/x-raw,format=I420,width=%d,height=%d ! c.dist_sink "
      "vmafhipcompare name=c results-filename=\"%s/out.json\" ! fakesink",
      W, H, W, H, dir);
  GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
  GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);

  fail_unless (err != NULL);
  fail_unless (strstr (err->message, "out.json") != NULL, "%s", err->message);
  g_error_free (err);
  free_messages (msgs);
  g_free (desc);
  g_free (dir);
}

GST_END_TEST;

/* Tags go downstream every tag-interval frames and at EOS, and on the
 * bus. */
static GstPadProbeReturn
collect_tags (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstEvent *ev = GST_PAD_PROBE_INFO_EVENT (info);
  GPtrArray *tags = user_data;

  if (GST_EVENT_TYPE (ev) == GST_EVENT_TAG) {
    GstTagList *list;
    gst_event_parse_tag (ev, &list);
    g_ptr_array_add (tags, gst_tag_list_copy (list));
  } else if (GST_EVENT_TYPE (ev) == GST_EVENT_EOS) {
    g_ptr_array_add (tags, NULL);
  }
  return GST_PAD_PROBE_OK;
}

GST_START_TEST (test_tags)
{
  const VhGoldenPair *pair = vh_gst_golden_pair (SMALL_PAIR);
  GPtrArray *events = g_ptr_array_new ();
  GstElement *pipeline, *sink;
  GstPad *pad;
  gchar *desc;
  GstElement *c;
  GList *msgs;
  GPtrArray *sums;
  guint n_bus = 0, expect_bus[] = { 10, 20, 30, 40, 48 };
  guint last_frames = 0, n_events = 0;
  gdouble score, summary_score;

  SKIP_WITHOUT (pair);
  desc = vh_gst_pair_pipeline (pair, "features=psnr tag-interval=10",
      "fakesink name=out");
  pipeline = gst_parse_launch (desc, NULL);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  c = gst_bin_get_by_name (GST_BIN (pipeline), "c");
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, collect_tags,
      events, NULL);
  msgs = vh_gst_run (pipeline, 120 * GST_SECOND);
  sums = vh_gst_structures (msgs, "vmaf-summary");
  summary_score = vh_gst_get_double (g_ptr_array_index (sums, 0), "score");

  /* Downstream: pooled tags with growing frame counts, the last one (all
   * 48 frames, the summary's score) right before EOS. */
  for (guint i = 0; i < events->len; i++) {
    GstTagList *list = g_ptr_array_index (events, i);
    guint frames;

    if (!list) {
      fail_unless (i > 0 && g_ptr_array_index (events, i - 1) != NULL);
      fail_unless_equals_int (last_frames, 48);
      fail_unless (gst_tag_list_get_double (g_ptr_array_index (events, i - 1),
              "vmafhip-score", &score));
      fail_unless_equals_float (score, summary_score);
      continue;
    }
    if (!gst_tag_list_get_uint (list, "vmafhip-frames", &frames))
      continue;
    fail_unless (frames > last_frames);
    fail_unless (frames % 10 == 0 || frames == 48);
    fail_unless (gst_tag_list_get_double (list, "vmafhip-score", &score));
    fail_unless (gst_tag_list_get_double (list, "vmafhip-psnr-y", &score));
    last_frames = frames;
    n_events++;
  }
  fail_unless (n_events >= 3, "only %u tag events", n_events);

  /* On the bus, from the element: every 10 frames and at EOS. */
  for (GList * l = msgs; l; l = l->next) {
    GstTagList *list;
    guint frames;

    if (GST_MESSAGE_TYPE (l->data) != GST_MESSAGE_TAG ||
        GST_MESSAGE_SRC (l->data) != GST_OBJECT (c))
      continue;
    gst_message_parse_tag (l->data, &list);
    fail_unless (gst_tag_list_get_uint (list, "vmafhip-frames", &frames));
    fail_unless (n_bus < G_N_ELEMENTS (expect_bus));
    fail_unless_equals_int (frames, expect_bus[n_bus]);
    n_bus++;
    gst_tag_list_unref (list);
  }
  fail_unless_equals_int (n_bus, G_N_ELEMENTS (expect_bus));

  for (guint i = 0; i < events->len; i++) {
    if (g_ptr_array_index (events, i))
      gst_tag_list_unref (g_ptr_array_index (events, i));
  }
  g_ptr_array_unref (events);
  g_ptr_array_unref (sums);
  free_messages (msgs);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (c);
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_END_TEST;

/* Sinks that disagree are refused with both sides named; sinks that only
 * differ in layout are fine. */
static gchar *
two_test_sources (const gchar * ref_caps, const gchar * dist_caps,
    guint ref_n, guint dist_n, const gchar * props)
{
  return g_strdup_printf ("videotestsrc num-buffers=%u ! %s ! c.ref_sink "
      "videotestsrc num-buffers=%u pattern=ball ! %s ! c.dist_sink "
      "vmafhipcompare name=c %s ! fakesink", ref_n, ref_caps, dist_n,
      dist_caps, props ? props : "");
}

GST_START_TEST (test_caps_mismatch)
{
  static const gchar *cases[][4] = {
    {"video/x-raw,format=I420,width=320,height=240",
        "video/x-raw,format=I420,width=176,height=144", "320x240", "176x144"},
    {"video/x-raw,format=I420,width=176,height=144",
          "video/x-raw,format=I420_10LE,width=176,height=144", "8-bit",
        "10-bit"},
    {"video/x-raw,format=I420,width=176,height=144",
        "video/x-raw,format=Y444,width=176,height=144", "4:2:0", "4:4:4"},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *desc = two_test_sources (cases[i][0], cases[i][1], 3, 3, NULL);
    GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
    GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);

    fail_unless (err != NULL, "case %u: no error", i);
    fail_unless (g_error_matches (err, GST_CORE_ERROR,
            GST_CORE_ERROR_NEGOTIATION), "case %u: %s", i, err->message);
    fail_unless (strstr (err->message, "ref_sink") &&
        strstr (err->message, "dist_sink") &&
        strstr (err->message, cases[i][2]) &&
        strstr (err->message, cases[i][3]), "case %u: %s", i, err->message);
    g_error_free (err);
    free_messages (msgs);
    g_free (desc);
  }
}

GST_END_TEST;

/* Caps the element cannot pair or score: refused at once with the pad
 * named, never a spin (variable rate) or a "differ" for identical caps. */
GST_START_TEST (test_caps_refused)
{
  static const gchar *cases[][4] = {
    {"video/x-raw,format=I420,width=176,height=144,framerate=25/1",
          "video/x-raw,format=I420,width=176,height=144,framerate=0/1",
        "dist_sink", "variable frame rate"},
    {"video/x-raw,format=I420,width=176,height=144,framerate=25/1,"
          "interlace-mode=progressive",
          "video/x-raw,format=I420,width=176,height=144,framerate=25/1,"
          "interlace-mode=interleaved", "interlace-mode", "interleaved"},
    {"video/x-raw,format=GRAY8,width=40000,height=8,framerate=25/1",
          "video/x-raw,format=GRAY8,width=40000,height=8,framerate=25/1",
        "40000x8", "cannot be scored"},
  };

  /* One frame a side: the refusal comes with the caps, before any frame
   * (the base class queues frames behind the refused caps event). */
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *desc = two_test_sources (cases[i][0], cases[i][1], 1, 1, NULL);
    GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
    GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);

    fail_unless (err != NULL, "case %u: no error", i);
    fail_unless (g_error_matches (err, GST_CORE_ERROR,
            GST_CORE_ERROR_NEGOTIATION), "case %u: %s", i, err->message);
    fail_unless (strstr (err->message, cases[i][2]) &&
        strstr (err->message, cases[i][3]) &&
        !strstr (err->message, "differ"), "case %u: %s", i, err->message);
    g_error_free (err);
    free_messages (msgs);
    g_free (desc);
  }
}

GST_END_TEST;

GST_START_TEST (test_mixed_layouts)
{
  gchar *desc = two_test_sources ("video/x-raw,format=I420,width=176,"
      "height=144", "video/x-raw,format=NV21,width=176,height=144", 4, 4,
      NULL);
  GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
  GPtrArray *frames = vh_gst_structures (msgs, "vmaf");

  fail_unless (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  fail_unless_equals_int (frames->len, 4);
  g_ptr_array_unref (frames);
  free_messages (msgs);
  g_free (desc);
}

GST_END_TEST;

/* One side ends first: the pairs are scored, the rest counted and
 * reported, and the pipeline still reaches EOS. */
GST_START_TEST (test_pad_ends_early)
{
  const gchar *caps = "video/x-raw,format=I420,width=176,height=144,"
      "framerate=25/1";

  for (guint longer_ref = 0; longer_ref < 2; longer_ref++) {
    gchar *desc = two_test_sources (caps, caps, longer_ref ? 10 : 6,
        longer_ref ? 6 : 10, "threads=2");
    GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
    GPtrArray *frames = vh_gst_structures (msgs, "vmaf");
    GPtrArray *sums = vh_gst_structures (msgs, "vmaf-summary");
    const GstStructure *sum, *details = NULL;
    GstMessage *warning = NULL;
    GError *err;

    fail_unless (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
    fail_unless (vh_gst_find_type (msgs, GST_MESSAGE_EOS) >= 0);
    fail_unless_equals_int (frames->len, 6);
    /* The last pair's motion was flushed, not lost. */
    fail_unless_equals_uint64 (vh_gst_get_uint64 (g_ptr_array_index (frames,
                5), "index"), 5);
    fail_unless_equals_int (sums->len, 1);
    sum = g_ptr_array_index (sums, 0);
    fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, "scored"), 6);
    fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, longer_ref ?
            "unpaired-reference" : "unpaired-distorted"), 4);
    fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, longer_ref ?
            "unpaired-distorted" : "unpaired-reference"), 0);

    for (GList * l = msgs; l; l = l->next) {
      if (GST_MESSAGE_TYPE (l->data) == GST_MESSAGE_WARNING)
        warning = l->data;
    }
    fail_unless (warning != NULL);
    gst_message_parse_warning (warning, &err, NULL);
    fail_unless (strstr (err->message, "4 ") != NULL, "%s", err->message);
    fail_unless (strstr (err->message, longer_ref ?
            "dist_sink ended before ref_sink" :
            "ref_sink ended before dist_sink") != NULL, "%s", err->message);
    gst_message_parse_warning_details (warning, &details);
    fail_unless (details != NULL);
    fail_unless_equals_uint64 (vh_gst_get_uint64 (details, longer_ref ?
            "unpaired-reference" : "unpaired-distorted"), 4);
    g_error_free (err);
    g_ptr_array_unref (sums);
    g_ptr_array_unref (frames);
    free_messages (msgs);
    g_free (desc);
  }
}

GST_END_TEST;

/* A flushing seek: frames before it are still reported, temporal features
 * start over after it, and every later frame matches libvmaf. */
static gboolean
is_temporal (const gchar * metric)
{
  return strstr (metric, "motion") != NULL || !strcmp (metric, "vmaf");
}

GST_START_TEST (test_flushing_seek)
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

  SKIP_WITHOUT (pair);
  desc = vh_gst_pair_pipeline (pair, "features=psnr threads=2",
      "fakesink sync=false");
  pipeline = gst_parse_launch (desc, NULL);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_PAUSED),
      GST_STATE_CHANGE_ASYNC);
  fail_unless_equals_int (gst_element_get_state (pipeline, NULL, NULL,
          GST_CLOCK_TIME_NONE), GST_STATE_CHANGE_SUCCESS);
  fail_unless (gst_element_seek_simple (pipeline, GST_FORMAT_TIME,
          GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE, seek_to));
  fail_unless_equals_int (gst_element_get_state (pipeline, NULL, NULL,
          GST_CLOCK_TIME_NONE), GST_STATE_CHANGE_SUCCESS);
  msgs = vh_gst_run (pipeline, 120 * GST_SECOND);
  fail_unless (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  /* Frames flushed by the seek were not dropped for lateness. */
  {
    GError *warn = vh_gst_first_error (msgs, GST_MESSAGE_WARNING);
    fail_unless (warn == NULL || !strstr (warn->message, "too late"),
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
      fail_unless (vh_gst_get_uint64 (s, "index") >
          vh_gst_get_uint64 (g_ptr_array_index (frames, i - 1), "index"));
    if (ts < seek_to)
      continue;
    /* New segment: running time starts again from 0. */
    fail_unless_equals_uint64 (vh_gst_get_uint64 (s, "running-time"),
        ts - seek_to);
    for (guint m = 0; metrics[m]; m++) {
      gdouble want, got = vh_gst_get_double (s, metrics[m]);

      fail_unless (vh_golden_scores_get (gs, n, metrics[m], &want));
      if (first_after && !strcmp (metrics[m], "integer_motion2")) {
        fail_unless_equals_float (got, 0.0);
        continue;
      }
      if (first_after && is_temporal (metrics[m]))
        continue;
      fail_unless (fabs (got - want) <= TOL, "frame %u %s: %f, libvmaf %f",
          n, metrics[m], got, want);
    }
    first_after = FALSE;
    after++;
  }
  fail_unless_equals_int (after, 48 - 25);
  fail_unless (vh_gst_find_element_message (msgs, "vmaf-summary") >= 0);
  vh_golden_scores_free (gs);
  g_ptr_array_unref (frames);
  free_messages (msgs);
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_END_TEST;

/* NULL -> PLAYING -> NULL, repeatedly, to the end and half-way. */
GST_START_TEST (test_state_cycling)
{
  const VhGoldenPair *pair = vh_gst_golden_pair (SMALL_PAIR);
  GstElement *pipeline;
  gchar *desc;
  gdouble first_score = -1;

  SKIP_WITHOUT (pair);
  desc = vh_gst_pair_pipeline (pair, "threads=2", "fakesink sync=false");
  pipeline = gst_parse_launch (desc, NULL);
  for (guint run = 0; run < 3; run++) {
    GList *msgs = vh_gst_run (pipeline, 120 * GST_SECOND);
    GPtrArray *frames = vh_gst_structures (msgs, "vmaf");
    GPtrArray *sums = vh_gst_structures (msgs, "vmaf-summary");
    gdouble score;

    fail_unless (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
    fail_unless_equals_int (frames->len, 48);
    fail_unless_equals_uint64 (vh_gst_get_uint64 (g_ptr_array_index (frames,
                0), "index"), 0);
    fail_unless_equals_int (sums->len, 1);
    score = vh_gst_get_double (g_ptr_array_index (sums, 0), "score");
    if (run == 0)
      first_score = score;
    fail_unless_equals_float (score, first_score);
    g_ptr_array_unref (sums);
    g_ptr_array_unref (frames);
    free_messages (msgs);
  }
  /* Stop in the middle of the stream. */
  for (guint run = 0; run < 3; run++) {
    GstBus *bus = gst_element_get_bus (pipeline);
    guint n = 0;

    gst_element_set_state (pipeline, GST_STATE_PLAYING);
    while (n < 5 + run * 7) {
      GstMessage *msg = gst_bus_timed_pop (bus, 30 * GST_SECOND);
      const GstStructure *s;

      fail_unless (msg != NULL);
      fail_unless (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ERROR);
      s = gst_message_get_structure (msg);
      if (s && gst_structure_has_name (s, "vmaf"))
        n++;
      gst_message_unref (msg);
    }
    fail_unless_equals_int (gst_element_set_state (pipeline,
            GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
    gst_bus_set_flushing (bus, TRUE);
    gst_bus_set_flushing (bus, FALSE);
    gst_object_unref (bus);
  }
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_END_TEST;

/* A live pipeline keeps running, every source frame is accounted for, and
 * the element adds one frame of latency. (Whether it keeps real time is a
 * matter of machine load: bench/bench-live measures that.) */
static GstPadProbeReturn
count_buffers (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  g_atomic_int_inc ((gint *) user_data);
  return GST_PAD_PROBE_OK;
}

GST_START_TEST (test_live)
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

  pipeline = gst_parse_launch ("videotestsrc name=v is-live=true "
      "pattern=ball ! "
      "video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! "
      "tee name=t t. ! queue ! c.ref_sink "
      "t. ! queue ! videoscale ! video/x-raw,width=160,height=120 ! "
      "videoscale ! video/x-raw,width=320,height=240 ! c.dist_sink "
      "vmafhipcompare name=c features=psnr ! fakesink sync=true", NULL);
  fail_unless (pipeline != NULL);
  c = gst_bin_get_by_name (GST_BIN (pipeline), "c");
  vsrc = gst_bin_get_by_name (GST_BIN (pipeline), "v");
  vsrc_pad = gst_element_get_static_pad (vsrc, "src");
  gst_pad_add_probe (vsrc_pad, GST_PAD_PROBE_TYPE_BUFFER, count_buffers,
      &produced, NULL);
  bus = gst_element_get_bus (pipeline);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless_equals_int (gst_element_get_state (pipeline, NULL, NULL,
          10 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
  g_usleep (2 * G_USEC_PER_SEC);

  /* Latency: upstream's plus one frame. */
  src = gst_element_get_static_pad (c, "src");
  q = gst_query_new_latency ();
  fail_unless (gst_pad_query (src, q));
  gst_query_parse_latency (q, &live, &min, &max);
  fail_unless (live);
  gst_query_unref (q);
  ref_sink = gst_element_get_static_pad (c, "ref_sink");
  peer = gst_pad_get_peer (ref_sink);
  q = gst_query_new_latency ();
  fail_unless (gst_pad_query (peer, q));
  gst_query_parse_latency (q, NULL, &up_min, &up_max);
  gst_query_unref (q);
  fail_unless_equals_uint64 (min, up_min + gst_util_uint64_scale (GST_SECOND,
          1, 30));

  g_usleep (1 * G_USEC_PER_SEC);
  fail_unless (gst_element_send_event (pipeline, gst_event_new_eos ()));
  {
    GQueue qq = G_QUEUE_INIT;
    for (;;) {
      GstMessage *msg = gst_bus_timed_pop (bus, 30 * GST_SECOND);
      fail_unless (msg != NULL);
      g_queue_push_tail (&qq, msg);
      fail_unless (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ERROR);
      if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS)
        break;
    }
    msgs = qq.head;
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);

  frames = vh_gst_structures (msgs, "vmaf");
  fail_unless (frames->len >= 10, "only %u frames in 3 s", frames->len);
  for (guint i = 1; i < frames->len; i++)
    fail_unless (vh_gst_get_uint64 (g_ptr_array_index (frames, i), "index") >
        vh_gst_get_uint64 (g_ptr_array_index (frames, i - 1), "index"));
  sums = vh_gst_structures (msgs, "vmaf-summary");
  fail_unless_equals_int (sums->len, 1);
  sum = g_ptr_array_index (sums, 0);
  fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, "scored"), frames->len);
  /* Each side: every frame the source made is scored, unpaired or
   * dropped, and the summary says which. */
  fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, "scored") +
      vh_gst_get_uint64 (sum, "unpaired-reference") +
      vh_gst_get_uint64 (sum, "dropped-reference"), produced);
  fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, "scored") +
      vh_gst_get_uint64 (sum, "unpaired-distorted") +
      vh_gst_get_uint64 (sum, "dropped-distorted"), produced);
  /* Down- and upscaled video is visibly worse than its source. */
  fail_unless (vh_gst_get_double (sum, "score") < 99.0);

  g_ptr_array_unref (sums);
  g_ptr_array_unref (frames);
  free_messages (msgs);
  gst_object_unref (peer);
  gst_object_unref (ref_sink);
  gst_object_unref (src);
  gst_object_unref (bus);
  gst_object_unref (vsrc_pad);
  gst_object_unref (vsrc);
  gst_object_unref (c);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* backend=hip fails clearly until the HIP path exists; cpu works. */
GST_START_TEST (test_backend)
{
  gchar *desc = two_test_sources ("video/x-raw,format=I420,width=176,"
      "height=144", "video/x-raw,format=I420,width=176,height=144", 3, 3,
      "backend=hip");
  GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
  GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);

  fail_unless (err != NULL);
  fail_unless (strstr (err->message, "HIP") != NULL, "%s", err->message);
  fail_unless (vh_gst_count (msgs, "vmaf") == 0);
  g_error_free (err);
  free_messages (msgs);
  g_free (desc);

  desc = two_test_sources ("video/x-raw,format=I420,width=176,height=144",
      "video/x-raw,format=I420,width=176,height=144", 3, 3, "backend=cpu");
  msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
  fail_unless (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  fail_unless_equals_int (vh_gst_count (msgs, "vmaf"), 3);
  free_messages (msgs);
  g_free (desc);
}

GST_END_TEST;

/* Bad settings fail the state change, naming what is wrong; so does a
 * frame too small for a feature. */
GST_START_TEST (test_bad_settings)
{
  static const gchar *cases[][3] = {
    {"model=no_such_model", "no_such_model", "176"},
    {"features=no_such_feature", "no_such_feature", "176"},
    {"model=\"vmaf_v0.6.1,version=vmaf_v0.6.1neg:name=vmaf\"", "'vmaf'",
        "176"},
    {"model=\"\" features=\"\"", "nothing to compute", "176"},
    {"features=ms-ssim", "float_ms_ssim", "64"},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *caps = g_strdup_printf ("video/x-raw,format=I420,width=%s,"
        "height=%s", cases[i][2], cases[i][2]);
    gchar *desc = two_test_sources (caps, caps, 3, 3, cases[i][0]);
    GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
    GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);

    fail_unless (err != NULL, "case %u: no error", i);
    fail_unless (strstr (err->message, cases[i][1]) != NULL, "case %u: %s",
        i, err->message);
    fail_unless (vh_gst_count (msgs, "vmaf") == 0);
    g_error_free (err);
    free_messages (msgs);
    g_free (desc);
    g_free (caps);
  }
}

GST_END_TEST;

/* The src pad carries the chosen input's frames: the same memory, no
 * copy. */
GST_START_TEST (test_passthrough)
{
  for (guint which = 0; which < 2; which++) {
    const gchar *props[] = { "passthrough", which ? "reference" : "distorted",
      NULL
    };
    Pads t;

    pads_setup (&t, props);
    pads_caps (&t, GST_VIDEO_FORMAT_I420, W, H);
    for (guint f = 0; f < 3; f++) {
      GstBuffer *r = vh_gst_synth_buffer (GST_VIDEO_FORMAT_I420, W, H, f, 0);
      GstBuffer *d = vh_gst_synth_buffer (GST_VIDEO_FORMAT_I420, W, H, f, 1);
      GstMemory *want = gst_buffer_peek_memory (which ? r : d, 0);
      GstBuffer *out;

      fail_unless_equals_int (gst_harness_push (t.ref, r), GST_FLOW_OK);
      fail_unless_equals_int (gst_harness_push (t.dist, d), GST_FLOW_OK);
      out = gst_harness_pull (t.ref);
      fail_unless (out != NULL);
      fail_unless (gst_buffer_peek_memory (out, 0) == want);
      fail_unless_equals_uint64 (GST_BUFFER_PTS (out), f * 40 * GST_MSECOND);
      gst_buffer_unref (out);
    }
    free_messages (pads_finish (&t));
    pads_teardown (&t);
  }
}

GST_END_TEST;

/* subsample=3: frames 0, 3, 6, 9 are scored (and equal a full run's); the
 * others are counted as skipped. */
GST_START_TEST (test_subsample)
{
  const gchar *caps = "video/x-raw,format=I420,width=176,height=144";
  gchar *full = two_test_sources (caps, caps, 10, 10, NULL);
  gchar *sub = two_test_sources (caps, caps, 10, 10, "subsample=3");
  GList *m_full = vh_gst_run_launch (full, 60 * GST_SECOND);
  GList *m_sub = vh_gst_run_launch (sub, 60 * GST_SECOND);
  GPtrArray *f_full = vh_gst_structures (m_full, "vmaf");
  GPtrArray *f_sub = vh_gst_structures (m_sub, "vmaf");
  GPtrArray *sums = vh_gst_structures (m_sub, "vmaf-summary");
  const GstStructure *sum = g_ptr_array_index (sums, 0);

  fail_unless_equals_int (f_full->len, 10);
  fail_unless_equals_int (f_sub->len, 4);
  for (guint i = 0; i < 4; i++) {
    const GstStructure *s = g_ptr_array_index (f_sub, i);
    const GstStructure *r = g_ptr_array_index (f_full, 3 * i);

    fail_unless_equals_uint64 (vh_gst_get_uint64 (s, "index"), 3 * i);
    fail_unless_equals_float (vh_gst_get_double (s, "vmaf"),
        vh_gst_get_double (r, "vmaf"));
    fail_unless_equals_float (vh_gst_get_double (s, "integer_motion2"),
        vh_gst_get_double (r, "integer_motion2"));
  }
  fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, "scored"), 4);
  fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, "skipped"), 6);

  g_ptr_array_unref (sums);
  g_ptr_array_unref (f_sub);
  g_ptr_array_unref (f_full);
  free_messages (m_sub);
  free_messages (m_full);
  g_free (sub);
  g_free (full);
}

GST_END_TEST;

/* Several models at once, each under its name; "score" is the first. */
static gboolean
not_neg (const gchar * metric)
{
  return strcmp (metric, "vmaf_neg") != 0 && !g_str_has_suffix (metric,
      "_egl_1");
}

GST_START_TEST (test_several_models)
{
  const VhGoldenPair *pair = vh_gst_golden_pair (SMALL_PAIR);
  gchar *desc;
  GList *msgs;
  GPtrArray *frames;

  SKIP_WITHOUT (pair);
  desc = vh_gst_pair_pipeline (pair,
      "model=\"vmaf_v0.6.1,version=vmaf_v0.6.1neg:name=vmaf_neg\"", NULL);
  msgs = vh_gst_run_launch (desc, 120 * GST_SECOND);
  fail_unless (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  frames = vh_gst_structures (msgs, "vmaf");
  fail_unless (vh_gst_compare_frames (pair, "models_extra.json", frames, TOL,
          not_neg) >= 48 * 8);
  for (guint f = 0; f < frames->len; f++) {
    const GstStructure *s = g_ptr_array_index (frames, f);
    fail_unless_equals_float (vh_gst_get_double (s, "score"),
        vh_gst_get_double (s, "vmaf"));
  }
  g_ptr_array_unref (frames);
  free_messages (msgs);
  g_free (desc);
}

GST_END_TEST;

/* A caps change starts temporal features over and scoring goes on, also
 * across a change of picture size. */
GST_START_TEST (test_caps_change)
{
  static const gchar *props[] = { "features", "psnr", NULL };
  Pads t;
  GList *msgs;
  GPtrArray *frames;
  guint pts = 0;

  pads_setup (&t, props);
  pads_caps (&t, GST_VIDEO_FORMAT_I420, W, H);
  for (guint f = 0; f < 4; f++)
    pads_push_synth (&t, GST_VIDEO_FORMAT_I420, W, H, f, pts++);
  /* Same pictures, another layout. */
  pads_caps (&t, GST_VIDEO_FORMAT_NV12, W, H);
  for (guint f = 0; f < 4; f++)
    pads_push_synth (&t, GST_VIDEO_FORMAT_NV12, W, H, f, pts++);
  /* Another size. */
  pads_caps (&t, GST_VIDEO_FORMAT_I420, 160, 120);
  for (guint f = 0; f < 4; f++)
    pads_push_synth (&t, GST_VIDEO_FORMAT_I420, 160, 120, f, pts++);
  msgs = pads_finish (&t);

  fail_unless (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  frames = vh_gst_structures (msgs, "vmaf");
  fail_unless_equals_int (frames->len, 12);
  for (guint i = 0; i < 12; i++) {
    const GstStructure *s = g_ptr_array_index (frames, i);

    fail_unless_equals_uint64 (vh_gst_get_uint64 (s, "index"), i);
    fail_unless_equals_uint64 (vh_gst_get_uint64 (s, "timestamp"),
        i * 40 * GST_MSECOND);
    if (i % 4 == 0) {
      fail_unless_equals_float (vh_gst_get_double (s, "integer_motion2"), 0);
    } else {
      fail_unless (vh_gst_get_double (s, "integer_motion2") > 0);
    }
  }
  /* The restarted sequence scores exactly like the first one. */
  for (guint i = 0; i < 4; i++) {
    const GstStructure *a = g_ptr_array_index (frames, i);
    const GstStructure *b = g_ptr_array_index (frames, i + 4);
    fail_unless_equals_float (vh_gst_get_double (a, "vmaf"),
        vh_gst_get_double (b, "vmaf"));
    fail_unless_equals_float (vh_gst_get_double (a, "psnr_cb"),
        vh_gst_get_double (b, "psnr_cb"));
  }
  g_ptr_array_unref (frames);
  free_messages (msgs);
  pads_teardown (&t);
}

GST_END_TEST;

/* frame-message=false: no per-frame messages, the summary still comes. */
GST_START_TEST (test_frame_message_off)
{
  const gchar *caps = "video/x-raw,format=I420,width=176,height=144";
  gchar *desc = two_test_sources (caps, caps, 5, 5, "frame-message=false");
  GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
  GPtrArray *sums = vh_gst_structures (msgs, "vmaf-summary");

  fail_unless_equals_int (vh_gst_count (msgs, "vmaf"), 0);
  fail_unless_equals_int (sums->len, 1);
  fail_unless_equals_uint64 (vh_gst_get_uint64 (g_ptr_array_index (sums, 0),
          "scored"), 5);
  g_ptr_array_unref (sums);
  free_messages (msgs);
  g_free (desc);
}

GST_END_TEST;

/* The run ended with the element's stream-format error, which names @pad
 * and says @what, and scored nothing. */
static void
assert_input_refused (GList * msgs, const gchar * pad, const gchar * what)
{
  GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);

  fail_unless (err != NULL);
  fail_unless (g_error_matches (err, GST_STREAM_ERROR,
          GST_STREAM_ERROR_FORMAT), "%s", err->message);
  fail_unless (strstr (err->message, pad) != NULL, "%s", err->message);
  fail_unless (strstr (err->message, what) != NULL, "%s", err->message);
  fail_unless_equals_int (vh_gst_count (msgs, "vmaf"), 0);
  g_error_free (err);
}

/* filesrc straight into a pad gives a segment of bytes, on which the base
 * classes assert: the element refuses it with a message that names the
 * pad and the parser to put in between, and the pipeline stops cleanly. */
GST_START_TEST (test_segment_not_in_time)
{
  gchar *path = vh_gst_tmp_path ("raw.yuv");
  gsize frame = W * H * 3 / 2;
  gchar *data = g_malloc0 (frame * 2);
  gchar *desc;
  GList *msgs;

  fail_unless (g_file_set_contents (path, data, frame * 2, NULL));
  desc = g_strdup_printf ("filesrc location=\"%s\" blocksize=%" G_GSIZE_FORMAT
      " ! video/x-raw,format=I420,width=%d,height=%d,framerate=25/1 ! "
      "c.ref_sink videotestsrc num-buffers=2 ! "
      "video/x-raw,format=I420,width=%d,height=%d,framerate=25/1 ! "
      "c.dist_sink vmafhipcompare name=c backend=cpu ! fakesink",
      path, frame, W, H, W, H);
  msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
  assert_input_refused (msgs, "ref_sink", "bytes");
  assert_input_refused (msgs, "ref_sink", "rawvideoparse");
  free_messages (msgs);
  g_free (desc);
  g_free (data);
  g_free (path);
}

GST_END_TEST;

/* Frames without timestamps cannot be paired: the element says so, naming
 * the pad, where the base class would fail the stream without a reason. */
GST_START_TEST (test_frame_without_timestamp)
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
  free_messages (msgs);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_END_TEST;

/* A segment played backwards (rate < 0) cannot be paired or scored in
 * stream order: the element refuses it with an error that names the pad,
 * refuses its frames, and neither aborts nor hangs. */
GST_START_TEST (test_segment_reverse)
{
  Pads t;
  GstSegment seg;
  GQueue q = G_QUEUE_INIT;
  GstMessage *msg;
  GstBuffer *r, *d;

  pads_setup (&t, NULL);
  pads_caps (&t, GST_VIDEO_FORMAT_I420, W, H);
  gst_segment_init (&seg, GST_FORMAT_TIME);
  seg.rate = -1.0;
  seg.stop = 10 * GST_SECOND;
  fail_unless (gst_harness_push_event (t.ref, gst_event_new_segment (&seg)));
  fail_unless (gst_harness_push_event (t.dist, gst_event_new_segment (&seg)));
  r = vh_gst_synth_buffer (GST_VIDEO_FORMAT_I420, W, H, 0, FALSE);
  d = vh_gst_synth_buffer (GST_VIDEO_FORMAT_I420, W, H, 0, TRUE);
  GST_BUFFER_PTS (r) = GST_BUFFER_PTS (d) = 9 * GST_SECOND;
  fail_if (gst_harness_push (t.ref, r) == GST_FLOW_OK);
  fail_if (gst_harness_push (t.dist, d) == GST_FLOW_OK);
  while ((msg = gst_bus_pop (t.bus)))
    g_queue_push_tail (&q, msg);
  assert_input_refused (q.head, "ref_sink", "backwards");
  free_messages (q.head);
  pads_teardown (&t);
}

GST_END_TEST;

/* A seek backwards is refused before it reaches the sources, said on the
 * bus, and the run goes on forwards to its end. */
GST_START_TEST (test_seek_reverse)
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

  fail_unless (pipeline != NULL);
  gst_element_set_state (pipeline, GST_STATE_PAUSED);
  fail_unless_equals_int (gst_element_get_state (pipeline, NULL, NULL,
          GST_CLOCK_TIME_NONE), GST_STATE_CHANGE_SUCCESS);
  fail_if (gst_element_seek (pipeline, -1.0, GST_FORMAT_TIME,
          GST_SEEK_FLAG_FLUSH, GST_SEEK_TYPE_SET, 0, GST_SEEK_TYPE_SET,
          200 * GST_MSECOND));
  msgs = vh_gst_run (pipeline, 60 * GST_SECOND);
  fail_unless (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  warn = vh_gst_first_error (msgs, GST_MESSAGE_WARNING);
  fail_unless (warn != NULL);
  fail_unless (g_error_matches (warn, GST_CORE_ERROR, GST_CORE_ERROR_SEEK),
      "%s", warn->message);
  fail_unless (strstr (warn->message, "backwards") != NULL, "%s",
      warn->message);
  g_error_free (warn);
  i = vh_gst_find_element_message (msgs, "vmaf-summary");
  fail_unless (i >= 0);
  sum = gst_message_get_structure (g_list_nth_data (msgs, i));
  fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, "scored"), 10);
  free_messages (msgs);
  gst_object_unref (pipeline);
  g_free (desc);
}

GST_END_TEST;

/* Downstream QoS must not make the element skip pairs. */
GST_START_TEST (test_qos_does_not_drop)
{
  Pads t;
  GList *msgs;
  GPtrArray *frames;

  pads_setup (&t, NULL);
  pads_caps (&t, GST_VIDEO_FORMAT_I420, W, H);
  pads_push_synth (&t, GST_VIDEO_FORMAT_I420, W, H, 0, 0);
  /* Once the first frame is out (and the segments with it, which reset
   * QoS), downstream says "everything before 10 s is too late". */
  gst_buffer_unref (gst_harness_pull (t.ref));
  fail_unless (gst_harness_push_upstream_event (t.ref,
          gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW, 0.5, 10 * GST_SECOND, 0)));
  for (guint f = 1; f < 5; f++)
    pads_push_synth (&t, GST_VIDEO_FORMAT_I420, W, H, f, f);
  msgs = pads_finish (&t);
  frames = vh_gst_structures (msgs, "vmaf");
  fail_unless_equals_int (frames->len, 5);
  g_ptr_array_unref (frames);
  free_messages (msgs);
  pads_teardown (&t);
}

GST_END_TEST;

/* Every frame that arrives is scored, unpaired or dropped, and the summary
 * and the warnings say which: here the distorted segment ends after 4
 * frames, so the base class drops the 2 frames beyond it and the last 2
 * reference frames stay alone. */
GST_START_TEST (test_frame_accounting)
{
  Pads t;
  GstSegment seg;
  GList *msgs;
  GPtrArray *sums;
  const GstStructure *sum;
  gboolean warned_dropped = FALSE;

  pads_setup (&t, NULL);
  pads_caps (&t, GST_VIDEO_FORMAT_I420, W, H);
  gst_segment_init (&seg, GST_FORMAT_TIME);
  seg.stop = 4 * 40 * GST_MSECOND;
  fail_unless (gst_harness_push_event (t.dist, gst_event_new_segment (&seg)));
  for (guint f = 0; f < 6; f++)
    pads_push_synth (&t, GST_VIDEO_FORMAT_I420, W, H, f, f);
  msgs = pads_finish (&t);

  fail_unless (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  fail_unless_equals_int (vh_gst_count (msgs, "vmaf"), 4);
  sums = vh_gst_structures (msgs, "vmaf-summary");
  sum = g_ptr_array_index (sums, 0);
  assert_summary_counts (sum, 4, 2, 0, 0, 2);
  for (GList * l = msgs; l; l = l->next) {
    const GstStructure *details = NULL;
    guint64 n;

    if (GST_MESSAGE_TYPE (l->data) != GST_MESSAGE_WARNING)
      continue;
    gst_message_parse_warning_details (l->data, &details);
    if (details && gst_structure_get_uint64 (details, "dropped-distorted", &n)) {
      fail_unless_equals_uint64 (n, 2);
      warned_dropped = TRUE;
    }
  }
  fail_unless (warned_dropped);
  g_ptr_array_unref (sums);
  free_messages (msgs);
  pads_teardown (&t);
}

GST_END_TEST;

/* Without live sources the latency property still lets one input run
 * ahead (the base class queues that much per pad): its frames wait for
 * their partners. They were taken as unpaired, 3 to 15 a side, when the
 * pairing waited for 4 frames whatever the latency. */
GST_START_TEST (test_latency_without_live_sources)
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

  fail_unless (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  sums = vh_gst_structures (msgs, "vmaf-summary");
  fail_unless_equals_int (sums->len, 1);
  sum = g_ptr_array_index (sums, 0);
  assert_summary_counts (sum, 40, 0, 0, 0, 0);
  fail_unless (vh_gst_first_error (msgs, GST_MESSAGE_WARNING) == NULL);
  g_ptr_array_unref (sums);
  free_messages (msgs);
}

GST_END_TEST;

/* The stats property gives, while running, what the summary gives at the
 * end: the same counts and pooled values, and where the features run. */
GST_START_TEST (test_stats)
{
  Pads t;
  GList *msgs;
  GPtrArray *sums;
  const GstStructure *sum, *pooled, *stats_pooled;
  GstStructure *stats = NULL;
  const gchar *fields[] = { "scored", "skipped", "unpaired-reference",
    "unpaired-distorted", "dropped-reference", "dropped-distorted"
  };

  pads_setup (&t, NULL);
  pads_caps (&t, GST_VIDEO_FORMAT_I420, W, H);
  for (guint f = 0; f < 5; f++) {
    pads_push_synth (&t, GST_VIDEO_FORMAT_I420, W, H, f, f);
    /* Frames still waiting in the pads' queues are not dropped. */
    g_object_get (t.e, "stats", &stats, NULL);
    fail_unless (stats != NULL);
    fail_unless_equals_uint64 (vh_gst_get_uint64 (stats, "dropped-reference"),
        0);
    fail_unless_equals_uint64 (vh_gst_get_uint64 (stats, "dropped-distorted"),
        0);
    gst_structure_free (stats);
  }
  fail_unless_equals_int (gst_harness_push (t.ref, vh_gst_synth_buffer
          (GST_VIDEO_FORMAT_I420, W, H, 5, FALSE)), GST_FLOW_OK);
  msgs = pads_finish (&t);

  g_object_get (t.e, "stats", &stats, NULL);
  fail_unless (stats != NULL);
  fail_unless (gst_structure_has_name (stats, "vmaf-stats"));
  fail_unless (strstr (gst_structure_get_string (stats, "dispatch"),
          "vif: ") != NULL);
  sums = vh_gst_structures (msgs, "vmaf-summary");
  sum = g_ptr_array_index (sums, 0);
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    fail_unless_equals_uint64 (vh_gst_get_uint64 (stats, fields[i]),
        vh_gst_get_uint64 (sum, fields[i]));
  fail_unless_equals_uint64 (vh_gst_get_uint64 (stats, "unpaired-reference"),
      1);
  pooled = gst_value_get_structure (gst_structure_get_value (sum, "vmaf"));
  stats_pooled = gst_value_get_structure (gst_structure_get_value (stats,
          "vmaf"));
  fail_unless (vh_gst_get_double (pooled, "mean") ==
      vh_gst_get_double (stats_pooled, "mean"));
  gst_structure_free (stats);
  g_ptr_array_unref (sums);
  free_messages (msgs);
  pads_teardown (&t);

  /* Not running: nothing. */
  t.e = gst_element_factory_make ("vmafhipcompare", NULL);
  g_object_get (t.e, "stats", &stats, NULL);
  fail_unless (stats == NULL);
  gst_object_unref (t.e);
}

GST_END_TEST;

static Suite *
vmafhipcompare_suite (void)
{
  Suite *s = suite_create ("vmafhipcompare");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_element_details);
  tcase_add_test (tc, test_log_level_per_instance);
  tcase_add_test (tc, test_messages);
  tcase_add_test (tc, test_timestamps);
  tcase_add_test (tc, test_results_file);
  tcase_add_test (tc, test_results_unwritable);
  tcase_add_test (tc, test_tags);
  tcase_add_test (tc, test_caps_mismatch);
  tcase_add_test (tc, test_caps_refused);
  tcase_add_test (tc, test_mixed_layouts);
  tcase_add_test (tc, test_pad_ends_early);
  tcase_add_test (tc, test_frame_accounting);
  tcase_add_test (tc, test_stats);
  tcase_add_test (tc, test_latency_without_live_sources);
  tcase_add_test (tc, test_flushing_seek);
  tcase_add_test (tc, test_state_cycling);
  tcase_add_test (tc, test_live);
  tcase_add_test (tc, test_backend);
  tcase_add_test (tc, test_bad_settings);
  tcase_add_test (tc, test_passthrough);
  tcase_add_test (tc, test_subsample);
  tcase_add_test (tc, test_several_models);
  tcase_add_test (tc, test_caps_change);
  tcase_add_test (tc, test_frame_message_off);
  tcase_add_test (tc, test_qos_does_not_drop);
  tcase_add_test (tc, test_segment_not_in_time);
  tcase_add_test (tc, test_frame_without_timestamp);
  tcase_add_test (tc, test_segment_reverse);
  tcase_add_test (tc, test_seek_reverse);
  return s;
}

GST_CHECK_MAIN (vmafhipcompare);
