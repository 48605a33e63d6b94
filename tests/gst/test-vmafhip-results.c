/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Results files and tags of the vmafhipcompare element. */

#include <string.h>

#include "vh-gst-check.h"
#include "vh-gst-pads.h"

#define TOL 1e-4
#define SMALL_PAIR "golden_src01_q160x90_8bit_48f"
#define W 176
#define H 144

/* The results file in each format; JSON equals libvmaf's log. */
static void
test_results_file (void)
{
  const VhGoldenPair *pair = vh_gst_golden_pair (SMALL_PAIR);
  static const gchar *formats[] = { "json", "xml", "csv" };

  VH_SKIP_WITHOUT (pair);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    gchar *name = g_strdup_printf ("results.%s", formats[i]);
    gchar *path = vh_gst_tmp_path (name);
    gchar *props = g_strdup_printf ("features=psnr frame-message=false "
        "results-filename=\"%s\" results-format=%s", path, formats[i]);
    gchar *desc = vh_gst_pair_pipeline (pair, props, NULL);
    GList *msgs = vh_gst_run_launch (desc, 120 * GST_SECOND);
    GPtrArray *sums = vh_gst_structures (msgs, "vmaf-summary");
    gchar *text = NULL;

    g_assert_true (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
    g_assert_cmpint (sums->len, ==, 1);
    g_assert_cmpstr (gst_structure_get_string (g_ptr_array_index (sums, 0),
        "results-filename"), ==, path);
    g_assert_true (vh_gst_count (msgs, "vmaf") == 0);
    g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
    if (i == 0) {
      g_assert_true (vh_gst_compare_results_json (pair,
          "vmaf_v0.6.1+psnr.json", path, TOL, NULL) > 48 * 18);
    } else if (i == 1) {
      gchar **parts = g_strsplit (text, "<frame ", -1);
      g_assert_cmpint (g_strv_length (parts) - 1, ==, 48);
      g_assert_true (strstr (text, "vmaf=\"") != NULL);
      g_assert_true (strstr (text, "psnr_y") != NULL);
      g_strfreev (parts);
    } else {
      gchar **lines = g_strsplit (g_strstrip (text), "\n", -1);
      g_assert_cmpint (g_strv_length (lines), ==, 49);
      g_assert_true (strstr (lines[0], "vmaf") != NULL);
      g_assert_true (strstr (lines[0], "psnr_y") != NULL);
      g_strfreev (lines);
    }
    g_free (text);
    g_ptr_array_unref (sums);
    vh_gst_free_messages (msgs);
    g_free (desc);
    g_free (props);
    g_free (path);
    g_free (name);
  }
}


static void
test_results_unwritable (void)
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

  g_assert_true (err != NULL);
  vh_assert_msg (strstr (err->message, "out.json") != NULL, "%s", err->message);
  g_error_free (err);
  vh_gst_free_messages (msgs);
  g_free (desc);
  g_free (dir);
}


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

static void
test_tags (void)
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

  VH_SKIP_WITHOUT (pair);
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
      g_assert_true (i > 0 && g_ptr_array_index (events, i - 1) != NULL);
      g_assert_cmpint (last_frames, ==, 48);
      g_assert_true (gst_tag_list_get_double (g_ptr_array_index (events, i -
          1), "vmafhip-score", &score));
      g_assert_cmpfloat (score, ==, summary_score);
      continue;
    }
    if (!gst_tag_list_get_uint (list, "vmafhip-frames", &frames))
      continue;
    g_assert_true (frames > last_frames);
    g_assert_true (frames % 10 == 0 || frames == 48);
    g_assert_true (gst_tag_list_get_double (list, "vmafhip-score", &score));
    g_assert_true (gst_tag_list_get_double (list, "vmafhip-psnr-y", &score));
    last_frames = frames;
    n_events++;
  }
  vh_assert_msg (n_events >= 3, "only %u tag events", n_events);

  /* On the bus, from the element: every 10 frames and at EOS. */
  for (GList * l = msgs; l; l = l->next) {
    GstTagList *list;
    guint frames;

    if (GST_MESSAGE_TYPE (l->data) != GST_MESSAGE_TAG ||
        GST_MESSAGE_SRC (l->data) != GST_OBJECT (c))
      continue;
    gst_message_parse_tag (l->data, &list);
    g_assert_true (gst_tag_list_get_uint (list, "vmafhip-frames", &frames));
    g_assert_true (n_bus < G_N_ELEMENTS (expect_bus));
    g_assert_cmpint (frames, ==, expect_bus[n_bus]);
    n_bus++;
    gst_tag_list_unref (list);
  }
  g_assert_cmpint (n_bus, ==, G_N_ELEMENTS (expect_bus));

  for (guint i = 0; i < events->len; i++) {
    if (g_ptr_array_index (events, i))
      gst_tag_list_unref (g_ptr_array_index (events, i));
  }
  g_ptr_array_unref (events);
  g_ptr_array_unref (sums);
  vh_gst_free_messages (msgs);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (c);
  gst_object_unref (pipeline);
  g_free (desc);
}

int
main (int argc, char **argv)
{
  vh_gst_test_init (&argc, &argv);
  g_test_add_func ("/vmafhipcompare/results-file", test_results_file);
  g_test_add_func ("/vmafhipcompare/results-unwritable",
      test_results_unwritable);
  g_test_add_func ("/vmafhipcompare/tags", test_tags);
  return g_test_run ();
}
