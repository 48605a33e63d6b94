/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Properties and messages of the vmafhipcompare element: its details, the
 * per-frame and summary messages, backend and settings, passthrough,
 * subsampling, several models, statistics. */

#include <gst/check/gstharness.h>
#include <math.h>
#include <string.h>

#include "vh-gst-check.h"
#include "vh-gst-pads.h"

#define TOL 1e-4
#define SMALL_PAIR "golden_src01_q160x90_8bit_48f"
#define W 176
#define H 144

static void
test_element_details (void)
{
  GstElementFactory *f = gst_element_factory_find ("vmafhipcompare");
  GstElement *e;
  gchar *model;
  guint tag_interval;
  gboolean frame_message;

  g_assert_true (f != NULL);
  g_assert_cmpstr (gst_element_factory_get_metadata (f,
      GST_ELEMENT_METADATA_KLASS), ==, "Filter/Analyzer/Video");
  e = gst_element_factory_create (f, NULL);
  g_assert_true (GST_IS_VIDEO_AGGREGATOR (e));
  for (guint i = 0; i < 3; i++) {
    static const gchar *pads[] = { "ref_sink", "dist_sink", "src" };
    GstPad *pad = gst_element_get_static_pad (e, pads[i]);
    vh_assert_msg (pad != NULL, "no pad %s", pads[i]);
    gst_object_unref (pad);
  }
  g_object_get (e, "model", &model, "tag-interval", &tag_interval,
      "frame-message", &frame_message, NULL);
  g_assert_cmpstr (model, ==, "vmaf_v0.6.1");
  g_assert_true (frame_message);
  g_assert_cmpint (tag_interval, ==, 30);
  for (guint i = 0; i < 13; i++) {
    static const gchar *names[] = { "model", "features", "enable-transform",
      "disable-clip", "pool-method", "subsample", "threads", "frame-message",
      "results-filename", "results-format", "tag-interval", "passthrough",
      "backend"
    };
    GParamSpec *p = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        names[i]);
    vh_assert_msg (p != NULL, "no property %s", names[i]);
    g_assert_true (g_param_spec_get_blurb (p) && *g_param_spec_get_blurb (p));
  }
  g_free (model);
  gst_object_unref (e);
  gst_object_unref (f);
}


/* log-level (GStreamer's vmaf element's name) belongs to its instance: it
 * is read back, and neither changes the debug threshold every instance
 * in the process shares nor another instance's value. */
static void
test_log_level_per_instance (void)
{
  GstElement *a = gst_element_factory_make ("vmafhipcompare", NULL);
  GstElement *b = gst_element_factory_make ("vmafhipcompare", NULL);
  GstDebugLevel before, level_a = GST_LEVEL_NONE, level_b = GST_LEVEL_NONE;
  GstDebugCategory *cat;

  /* registered by the element's class */
  GST_DEBUG_CATEGORY_GET (cat, "vmafhipcompare");
  g_assert_true (cat != NULL);
  before = gst_debug_category_get_threshold (cat);
  gst_util_set_object_arg (G_OBJECT (a), "log-level", "debug");
  g_object_get (a, "log-level", &level_a, NULL);
  g_object_get (b, "log-level", &level_b, NULL);
  g_assert_cmpint (level_a, ==, GST_LEVEL_DEBUG);
  g_assert_cmpint (level_b, ==, GST_LEVEL_NONE);
  g_assert_cmpint (gst_debug_category_get_threshold (cat), ==, before);
  gst_util_set_object_arg (G_OBJECT (b), "log-level", "error");
  g_assert_cmpint (gst_debug_category_get_threshold (cat), ==, before);
  gst_object_unref (a);
  gst_object_unref (b);
}


/* Every frame gets one message, in order, with its values, as soon as
 * they are final; the summary follows the last one and precedes EOS. */
static void
test_messages (void)
{
  const VhGoldenPair *pair = vh_gst_golden_pair (SMALL_PAIR);
  gchar *desc;
  GList *msgs;
  GPtrArray *frames, *summaries;
  const GstStructure *sum, *pooled;
  VhGoldenScores *gs;
  gint last_frame = -1, i = 0;
  gdouble want;

  VH_SKIP_WITHOUT (pair);
  desc = vh_gst_pair_pipeline (pair, "features=psnr threads=2", NULL);
  msgs = vh_gst_run_launch (desc, 120 * GST_SECOND);
  g_assert_true (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);

  frames = vh_gst_structures (msgs, "vmaf");
  g_assert_cmpint (frames->len, ==, 48);
  for (guint f = 0; f < frames->len; f++) {
    const GstStructure *s = g_ptr_array_index (frames, f);
    g_assert_cmpuint (vh_gst_get_uint64 (s, "index"), ==, f);
    g_assert_cmpuint (vh_gst_get_uint64 (s, "timestamp"), ==,
        f * 40 * GST_MSECOND);
    g_assert_cmpuint (vh_gst_get_uint64 (s, "duration"), ==, 40 * GST_MSECOND);
    g_assert_cmpuint (vh_gst_get_uint64 (s, "stream-time"), ==,
        f * 40 * GST_MSECOND);
    g_assert_cmpuint (vh_gst_get_uint64 (s, "running-time"), ==,
        f * 40 * GST_MSECOND);
    g_assert_cmpfloat (vh_gst_get_double (s, "score"), ==,
        vh_gst_get_double (s, "vmaf"));
  }
  g_assert_true (vh_gst_compare_frames (pair, "vmaf_v0.6.1+psnr.json", frames,
      TOL, NULL) >= 48 * 18);

  /* Order: frames, then the summary, then EOS. */
  for (GList * l = msgs; l; l = l->next, i++) {
    const GstStructure *s = gst_message_get_structure (l->data);
    if (s && gst_structure_has_name (s, "vmaf"))
      last_frame = i;
  }
  g_assert_true (last_frame < vh_gst_find_element_message (msgs,
      "vmaf-summary"));
  g_assert_true (vh_gst_find_element_message (msgs, "vmaf-summary") <
      vh_gst_find_type (msgs, GST_MESSAGE_EOS));

  summaries = vh_gst_structures (msgs, "vmaf-summary");
  g_assert_cmpint (summaries->len, ==, 1);
  sum = g_ptr_array_index (summaries, 0);
  vh_gst_assert_summary_counts (sum, 48, 0, 0, 0, 0);
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "skipped"), ==, 0);
  g_assert_cmpstr (gst_structure_get_string (sum, "pool-method"), ==, "mean");
  g_assert_true (gst_structure_get (sum, "vmaf", GST_TYPE_STRUCTURE, &pooled,
      NULL));
  gs = vh_golden_scores_load (pair, "vmaf_v0.6.1+psnr.json", NULL);
  g_assert_true (gs != NULL);
  g_assert_true (vh_golden_scores_get_pooled (gs, "vmaf", "mean", &want));
  g_assert_true (fabs (vh_gst_get_double (pooled, "mean") - want) <= TOL);
  g_assert_true (fabs (vh_gst_get_double (sum, "score") - want) <= TOL);
  g_assert_true (vh_golden_scores_get_pooled (gs, "vmaf", "harmonic_mean",
      &want));
  g_assert_true (fabs (vh_gst_get_double (pooled, "harmonic-mean") - want) <=
      TOL);
  g_assert_true (vh_golden_scores_get_pooled (gs, "vmaf", "min", &want));
  g_assert_true (fabs (vh_gst_get_double (pooled, "min") - want) <= TOL);
  g_assert_true (vh_golden_scores_get_pooled (gs, "vmaf", "max", &want));
  g_assert_true (fabs (vh_gst_get_double (pooled, "max") - want) <= TOL);
  g_assert_cmpuint (vh_gst_get_uint64 (pooled, "frames"), ==, 48);
  g_assert_true (vh_golden_scores_get_pooled (gs, "psnr_y", "mean", &want));
  gst_structure_free ((GstStructure *) pooled);
  g_assert_true (gst_structure_get (sum, "psnr_y", GST_TYPE_STRUCTURE, &pooled,
      NULL));
  g_assert_true (fabs (vh_gst_get_double (pooled, "mean") - want) <= TOL);
  gst_structure_free ((GstStructure *) pooled);

  vh_golden_scores_free (gs);
  g_ptr_array_unref (summaries);
  g_ptr_array_unref (frames);
  vh_gst_free_messages (msgs);
  g_free (desc);
}


/* backend=hip fails clearly until the HIP path exists; cpu works. */
static void
test_backend (void)
{
  gchar *desc = vh_gst_two_test_sources ("video/x-raw,format=I420,width=176,"
      "height=144", "video/x-raw,format=I420,width=176,height=144", 3, 3,
      "backend=hip");
  GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
  GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);

  g_assert_true (err != NULL);
  vh_assert_msg (strstr (err->message, "HIP") != NULL, "%s", err->message);
  g_assert_true (vh_gst_count (msgs, "vmaf") == 0);
  g_error_free (err);
  vh_gst_free_messages (msgs);
  g_free (desc);

  desc = vh_gst_two_test_sources (
      "video/x-raw,format=I420,width=176,height=144",
      "video/x-raw,format=I420,width=176,height=144", 3, 3, "backend=cpu");
  msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
  g_assert_true (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  g_assert_cmpint (vh_gst_count (msgs, "vmaf"), ==, 3);
  vh_gst_free_messages (msgs);
  g_free (desc);
}


/* Bad settings fail the state change, naming what is wrong; so does a
 * frame too small for a feature. */
static void
test_bad_settings (void)
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
    gchar *desc = vh_gst_two_test_sources (caps, caps, 3, 3, cases[i][0]);
    GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
    GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);

    vh_assert_msg (err != NULL, "case %u: no error", i);
    vh_assert_msg (strstr (err->message, cases[i][1]) != NULL, "case %u: %s",
        i, err->message);
    g_assert_true (vh_gst_count (msgs, "vmaf") == 0);
    g_error_free (err);
    vh_gst_free_messages (msgs);
    g_free (desc);
    g_free (caps);
  }
}


/* The src pad carries the chosen input's frames: the same memory, no
 * copy. */
static void
test_passthrough (void)
{
  for (guint which = 0; which < 2; which++) {
    const gchar *props[] = { "passthrough", which ? "reference" : "distorted",
      NULL
    };
    VhGstPads t;

    vh_gst_pads_setup (&t, props);
    vh_gst_pads_caps (&t, GST_VIDEO_FORMAT_I420, W, H);
    for (guint f = 0; f < 3; f++) {
      GstBuffer *r = vh_gst_synth_buffer (GST_VIDEO_FORMAT_I420, W, H, f, 0);
      GstBuffer *d = vh_gst_synth_buffer (GST_VIDEO_FORMAT_I420, W, H, f, 1);
      GstMemory *want = gst_buffer_peek_memory (which ? r : d, 0);
      GstBuffer *out;

      g_assert_cmpint (gst_harness_push (t.ref, r), ==, GST_FLOW_OK);
      g_assert_cmpint (gst_harness_push (t.dist, d), ==, GST_FLOW_OK);
      out = gst_harness_pull (t.ref);
      g_assert_true (out != NULL);
      g_assert_true (gst_buffer_peek_memory (out, 0) == want);
      g_assert_cmpuint (GST_BUFFER_PTS (out), ==, f * 40 * GST_MSECOND);
      gst_buffer_unref (out);
    }
    vh_gst_free_messages (vh_gst_pads_finish (&t));
    vh_gst_pads_teardown (&t);
  }
}


/* subsample=3: frames 0, 3, 6, 9 are scored (and equal a full run's); the
 * others are counted as skipped. */
static void
test_subsample (void)
{
  const gchar *caps = "video/x-raw,format=I420,width=176,height=144";
  gchar *full = vh_gst_two_test_sources (caps, caps, 10, 10, NULL);
  gchar *sub = vh_gst_two_test_sources (caps, caps, 10, 10, "subsample=3");
  GList *m_full = vh_gst_run_launch (full, 60 * GST_SECOND);
  GList *m_sub = vh_gst_run_launch (sub, 60 * GST_SECOND);
  GPtrArray *f_full = vh_gst_structures (m_full, "vmaf");
  GPtrArray *f_sub = vh_gst_structures (m_sub, "vmaf");
  GPtrArray *sums = vh_gst_structures (m_sub, "vmaf-summary");
  const GstStructure *sum = g_ptr_array_index (sums, 0);

  g_assert_cmpint (f_full->len, ==, 10);
  g_assert_cmpint (f_sub->len, ==, 4);
  for (guint i = 0; i < 4; i++) {
    const GstStructure *s = g_ptr_array_index (f_sub, i);
    const GstStructure *r = g_ptr_array_index (f_full, 3 * i);

    g_assert_cmpuint (vh_gst_get_uint64 (s, "index"), ==, 3 * i);
    g_assert_cmpfloat (vh_gst_get_double (s, "vmaf"), ==,
        vh_gst_get_double (r, "vmaf"));
    g_assert_cmpfloat (vh_gst_get_double (s, "integer_motion2"), ==,
        vh_gst_get_double (r, "integer_motion2"));
  }
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "scored"), ==, 4);
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "skipped"), ==, 6);

  g_ptr_array_unref (sums);
  g_ptr_array_unref (f_sub);
  g_ptr_array_unref (f_full);
  vh_gst_free_messages (m_sub);
  vh_gst_free_messages (m_full);
  g_free (sub);
  g_free (full);
}


/* Several models at once, each under its name; "score" is the first. */
static gboolean
not_neg (const gchar * metric)
{
  return strcmp (metric, "vmaf_neg") != 0 && !g_str_has_suffix (metric,
      "_egl_1");
}

static void
test_several_models (void)
{
  const VhGoldenPair *pair = vh_gst_golden_pair (SMALL_PAIR);
  gchar *desc;
  GList *msgs;
  GPtrArray *frames;

  VH_SKIP_WITHOUT (pair);
  desc = vh_gst_pair_pipeline (pair,
      "model=\"vmaf_v0.6.1,version=vmaf_v0.6.1neg:name=vmaf_neg\"", NULL);
  msgs = vh_gst_run_launch (desc, 120 * GST_SECOND);
  g_assert_true (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  frames = vh_gst_structures (msgs, "vmaf");
  g_assert_true (vh_gst_compare_frames (pair, "models_extra.json", frames, TOL,
      not_neg) >= 48 * 8);
  for (guint f = 0; f < frames->len; f++) {
    const GstStructure *s = g_ptr_array_index (frames, f);
    g_assert_cmpfloat (vh_gst_get_double (s, "score"), ==,
        vh_gst_get_double (s, "vmaf"));
  }
  g_ptr_array_unref (frames);
  vh_gst_free_messages (msgs);
  g_free (desc);
}


/* frame-message=false: no per-frame messages, the summary still comes. */
static void
test_frame_message_off (void)
{
  const gchar *caps = "video/x-raw,format=I420,width=176,height=144";
  gchar *desc = vh_gst_two_test_sources (caps, caps, 5, 5,
      "frame-message=false");
  GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
  GPtrArray *sums = vh_gst_structures (msgs, "vmaf-summary");

  g_assert_cmpint (vh_gst_count (msgs, "vmaf"), ==, 0);
  g_assert_cmpint (sums->len, ==, 1);
  g_assert_cmpuint (vh_gst_get_uint64 (g_ptr_array_index (sums, 0), "scored"),
      ==, 5);
  g_ptr_array_unref (sums);
  vh_gst_free_messages (msgs);
  g_free (desc);
}


/* The stats property gives, while running, what the summary gives at the
 * end: the same counts and pooled values, and where the features run. */
static void
test_stats (void)
{
  VhGstPads t;
  GList *msgs;
  GPtrArray *sums;
  const GstStructure *sum, *pooled, *stats_pooled;
  GstStructure *stats = NULL;
  const gchar *fields[] = { "scored", "skipped", "unpaired-reference",
    "unpaired-distorted", "dropped-reference", "dropped-distorted"
  };

  vh_gst_pads_setup (&t, NULL);
  vh_gst_pads_caps (&t, GST_VIDEO_FORMAT_I420, W, H);
  for (guint f = 0; f < 5; f++) {
    vh_gst_pads_push_synth (&t, GST_VIDEO_FORMAT_I420, W, H, f, f);
    /* Frames still waiting in the pads' queues are not dropped. */
    g_object_get (t.e, "stats", &stats, NULL);
    g_assert_true (stats != NULL);
    g_assert_cmpuint (vh_gst_get_uint64 (stats, "dropped-reference"), ==, 0);
    g_assert_cmpuint (vh_gst_get_uint64 (stats, "dropped-distorted"), ==, 0);
    gst_structure_free (stats);
  }
  g_assert_cmpint (gst_harness_push (t.ref, vh_gst_synth_buffer
      (GST_VIDEO_FORMAT_I420, W, H, 5, FALSE)), ==, GST_FLOW_OK);
  msgs = vh_gst_pads_finish (&t);

  g_object_get (t.e, "stats", &stats, NULL);
  g_assert_true (stats != NULL);
  g_assert_true (gst_structure_has_name (stats, "vmaf-stats"));
  g_assert_true (strstr (gst_structure_get_string (stats, "dispatch"), "vif: ")
      != NULL);
  sums = vh_gst_structures (msgs, "vmaf-summary");
  sum = g_ptr_array_index (sums, 0);
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    g_assert_cmpuint (vh_gst_get_uint64 (stats, fields[i]), ==,
        vh_gst_get_uint64 (sum, fields[i]));
  g_assert_cmpuint (vh_gst_get_uint64 (stats, "unpaired-reference"), ==, 1);
  pooled = gst_value_get_structure (gst_structure_get_value (sum, "vmaf"));
  stats_pooled = gst_value_get_structure (gst_structure_get_value (stats,
          "vmaf"));
  g_assert_true (vh_gst_get_double (pooled, "mean") == vh_gst_get_double
      (stats_pooled, "mean"));
  gst_structure_free (stats);
  g_ptr_array_unref (sums);
  vh_gst_free_messages (msgs);
  vh_gst_pads_teardown (&t);

  /* Not running: nothing. */
  t.e = gst_element_factory_make ("vmafhipcompare", NULL);
  g_object_get (t.e, "stats", &stats, NULL);
  g_assert_true (stats == NULL);
  gst_object_unref (t.e);
}

int
main (int argc, char **argv)
{
  vh_gst_test_init (&argc, &argv);
  g_test_add_func ("/vmafhipcompare/element-details", test_element_details);
  g_test_add_func ("/vmafhipcompare/log-level-per-instance",
      test_log_level_per_instance);
  g_test_add_func ("/vmafhipcompare/messages", test_messages);
  g_test_add_func ("/vmafhipcompare/backend", test_backend);
  g_test_add_func ("/vmafhipcompare/bad-settings", test_bad_settings);
  g_test_add_func ("/vmafhipcompare/passthrough", test_passthrough);
  g_test_add_func ("/vmafhipcompare/subsample", test_subsample);
  g_test_add_func ("/vmafhipcompare/several-models", test_several_models);
  g_test_add_func ("/vmafhipcompare/frame-message-off", test_frame_message_off);
  g_test_add_func ("/vmafhipcompare/stats", test_stats);
  return g_test_run ();
}
