/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* vmafhipcompare's "vmaf-window" messages and the summary's percentiles:
 * every statistic of every window equals what the test computes from the
 * per-frame messages, from files and from a live source; bad lists are
 * refused with a reason. */

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "vh-gst-check.h"
#include "vh-gst-pads.h"
#include "vh-gst-windows.h"

#define SMALL_PAIR "golden_src01_q160x90_8bit_48f"

static const gdouble percentiles[] = { 1, 5, 50, 99.5 };
static const gchar *const pnames[] = { "p1", "p5", "p50", "p99_5" };
static const gchar *const models[] = { "vmaf", NULL };

/* Frames in windows of @window_frames (the last one partial). */
static void
test_frame_windows (void)
{
  const VhGoldenPair *pair = vh_gst_golden_pair (SMALL_PAIR);
  const guint window_frames = 7;
  gdouble thresholds[3];
  const gchar *tnames[] = { "below-a", "below-b", "below-c" };
  gchar *desc, *props;
  GList *msgs;
  GPtrArray *frames, *windows, *sums;
  gdouble lo, mid, hi;

  VH_SKIP_WITHOUT (pair);
  /* A first run tells where the clip's scores lie, so that the threshold
   * counts are neither all nor nothing. */
  desc = vh_gst_pair_pipeline (pair, "threads=2", "fakesink");
  msgs = vh_gst_run_launch (desc, 120 * GST_SECOND);
  g_free (desc);
  frames = vh_gst_structures (msgs, "vmaf");
  g_assert_cmpuint (frames->len, ==, 48);
  {
    gdouble *v = g_new (gdouble, frames->len);
    for (guint i = 0; i < frames->len; i++)
      v[i] = vh_gst_get_double (g_ptr_array_index (frames, i), "vmaf");
    lo = vh_gst_percentile (v, frames->len, 20);
    mid = vh_gst_percentile (v, frames->len, 50);
    hi = vh_gst_percentile (v, frames->len, 80);
    g_free (v);
  }
  g_ptr_array_unref (frames);
  vh_gst_free_messages (msgs);
  /* whole numbers, as a user writes them, in 0..100 */
  thresholds[0] = CLAMP (floor (lo), 0, 100);
  thresholds[1] = CLAMP (floor (mid), 0, 100);
  thresholds[2] = CLAMP (ceil (hi), 0, 100);
  tnames[0] = g_strdup_printf ("below-%g", thresholds[0]);
  tnames[1] = g_strdup_printf ("below-%g", thresholds[1]);
  tnames[2] = g_strdup_printf ("below-%g", thresholds[2]);

  props = g_strdup_printf ("threads=2 features=psnr window-frames=%u "
      "percentiles=1,5,50,99.5 thresholds=%g,%g,%g", window_frames,
      thresholds[0], thresholds[1], thresholds[2]);
  desc = vh_gst_pair_pipeline (pair, props, "fakesink");
  msgs = vh_gst_run_launch (desc, 120 * GST_SECOND);
  g_assert_true (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  frames = vh_gst_structures (msgs, "vmaf");
  windows = vh_gst_structures (msgs, "vmaf-window");
  g_assert_cmpuint (frames->len, ==, 48);
  g_assert_cmpuint (windows->len, ==, 7);       /* 6 x 7 and 6 at EOS */
  for (guint w = 0; w < windows->len; w++) {
    guint first = w * window_frames;
    guint n = MIN (window_frames, frames->len - first);

    vh_gst_check_window (g_ptr_array_index (windows, w), frames, first, n,
        percentiles, pnames, G_N_ELEMENTS (percentiles), thresholds, tnames,
        3, models);
  }
  /* Each window is posted after its last frame's message and before the
   * next frame's, the last one before the summary. */
  {
    guint frame = 0, window = 0;

    for (GList * l = msgs; l; l = l->next) {
      const GstStructure *s = GST_MESSAGE_TYPE (l->data) ==
          GST_MESSAGE_ELEMENT ? gst_message_get_structure (l->data) : NULL;

      if (s && gst_structure_has_name (s, "vmaf")) {
        frame++;
      } else if (s && gst_structure_has_name (s, "vmaf-window")) {
        window++;
        g_assert_cmpuint (frame, ==, MIN (window * window_frames, 48));
      } else if (s && gst_structure_has_name (s, "vmaf-summary")) {
        g_assert_cmpuint (window, ==, 7);
      }
    }
  }

  /* The summary: the same statistics over the whole run. */
  sums = vh_gst_structures (msgs, "vmaf-summary");
  g_assert_cmpuint (sums->len, ==, 1);
  {
    const GstStructure *sum = g_ptr_array_index (sums, 0);
    const GstStructure *f0 = g_ptr_array_index (frames, 0);

    for (gint i = 0; i < gst_structure_n_fields (f0); i++) {
      const gchar *name = gst_structure_nth_field_name (f0, i);
      const GstStructure *pooled = NULL;
      gdouble *v;

      if (G_VALUE_TYPE (gst_structure_get_value (f0, name)) != G_TYPE_DOUBLE
          || !strcmp (name, "score"))
        continue;
      g_assert_true (gst_structure_get (sum, name, GST_TYPE_STRUCTURE,
              &pooled, NULL));
      v = g_new (gdouble, frames->len);
      for (guint f = 0; f < frames->len; f++)
        v[f] = vh_gst_get_double (g_ptr_array_index (frames, f), name);
      for (guint p = 0; p < G_N_ELEMENTS (percentiles); p++)
        vh_assert_msg (vh_gst_get_double (pooled, pnames[p]) ==
            vh_gst_percentile (v, frames->len, percentiles[p]), "%s %s",
            name, pnames[p]);
      for (guint t = 0; t < 3; t++) {
        guint64 below = 0;
        for (guint f = 0; f < frames->len; f++)
          below += v[f] < thresholds[t];
        if (!strcmp (name, "vmaf")) {
          g_assert_cmpuint (vh_gst_get_uint64 (pooled, tnames[t]), ==, below);
          /* the thresholds were chosen to split the clip */
          if (t == 2)
            g_assert_cmpuint (below, >, 0);
          if (t == 0)
            g_assert_cmpuint (below, <, frames->len);
        } else {
          g_assert_false (gst_structure_has_field (pooled, tnames[t]));
        }
      }
      g_free (v);
      gst_structure_free ((GstStructure *) pooled);
    }
    /* not live: no lag */
    g_assert_false (gst_structure_has_field (sum, "max-lag"));
    g_assert_false (gst_structure_has_field (f0, "lag"));
  }
  g_ptr_array_unref (sums);
  g_ptr_array_unref (windows);
  g_ptr_array_unref (frames);
  vh_gst_free_messages (msgs);
  g_free (desc);
  g_free (props);
  for (guint t = 0; t < 3; t++)
    g_free ((gchar *) tnames[t]);
}

/* A live source, windows of 1 s of stream time: frames grouped by their
 * second since the first frame. */
static void
test_live_duration_windows (void)
{
  const guint64 span = GST_SECOND;
  GList *msgs;
  GPtrArray *frames, *windows, *sums;
  guint first = 0;
  const gdouble thresholds[] = { 40, 60, 80 };
  const gchar *const tnames[] = { "below-40", "below-60", "below-80" };

  if (vh_gst_skip_live ())
    return;
  msgs = vh_gst_run_launch ("videotestsrc is-live=true pattern=ball "
      "num-buffers=35 ! video/x-raw,format=I420,width=96,height=64,"
      "framerate=10/1 ! tee name=t t. ! queue ! c.ref_sink t. ! queue ! "
      "videobalance brightness=0.05 ! c.dist_sink vmafhipcompare name=c "
      "threads=2 window-duration=1000000000 percentiles=1,5,50,99.5 ! "
      "fakesink sync=true", 60 * GST_SECOND);
  g_assert_true (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  frames = vh_gst_structures (msgs, "vmaf");
  windows = vh_gst_structures (msgs, "vmaf-window");
  g_assert_cmpuint (frames->len, ==, 35);
  g_assert_cmpuint (windows->len, ==, 4);       /* 3 x 1 s, 0.5 s at EOS */
  for (guint w = 0; w < windows->len; w++) {
    guint64 t0 = vh_gst_get_uint64 (g_ptr_array_index (frames, 0),
        "stream-time");
    guint n = 0;

    while (first + n < frames->len &&
        (vh_gst_get_uint64 (g_ptr_array_index (frames, first + n),
                "stream-time") - t0) / span == w)
      n++;
    g_assert_cmpuint (n, >, 0);
    vh_gst_check_window (g_ptr_array_index (windows, w), frames, first, n,
        percentiles, pnames, G_N_ELEMENTS (percentiles), thresholds, tnames,
        3, models);
    first += n;
  }
  g_assert_cmpuint (first, ==, frames->len);
  /* live: every frame says how far behind real time it was scored */
  for (guint f = 0; f < frames->len; f++)
    g_assert_true (gst_structure_has_field (g_ptr_array_index (frames, f),
            "lag"));
  sums = vh_gst_structures (msgs, "vmaf-summary");
  g_assert_cmpuint (sums->len, ==, 1);
  g_assert_true (gst_structure_has_field (g_ptr_array_index (sums, 0),
          "max-lag"));
  /* live: the summary counts, but keeps no values for percentiles */
  {
    const GstStructure *pooled = NULL;
    guint64 below = 0, want = 0;

    g_assert_true (gst_structure_get (g_ptr_array_index (sums, 0), "vmaf",
            GST_TYPE_STRUCTURE, &pooled, NULL));
    g_assert_false (gst_structure_has_field (pooled, "p1"));
    g_assert_true (gst_structure_get_uint64 (pooled, "below-80", &below));
    for (guint f = 0; f < frames->len; f++)
      want += vh_gst_get_double (g_ptr_array_index (frames, f), "vmaf") < 80;
    g_assert_cmpuint (below, ==, want);
    gst_structure_free ((GstStructure *) pooled);
  }
  g_ptr_array_unref (sums);
  g_ptr_array_unref (windows);
  g_ptr_array_unref (frames);
  vh_gst_free_messages (msgs);
}

/* Time windows lie on a grid from the first frame: a gap in the stream
 * leaves no empty window, and the next window starts on the grid. */
static void
test_duration_windows_with_gap (void)
{
  static const gchar *props[] = { "threads", "2", "window-duration",
    "1000000000", NULL
  };
  const gdouble thresholds[] = { 40, 60, 80 };
  const gchar *const tnames[] = { "below-40", "below-60", "below-80" };
  /* frames at 25 fps: 0..1.16 s, then 3.2..4.16 s */
  const guint expect[] = { 25, 5, 20, 5 };
  VhGstPads t;
  GList *msgs;
  GPtrArray *frames, *windows;
  guint first = 0;

  vh_gst_pads_setup (&t, props);
  vh_gst_pads_caps (&t, GST_VIDEO_FORMAT_I420, 64, 48);
  for (guint f = 0; f < 30; f++)
    vh_gst_pads_push_synth (&t, GST_VIDEO_FORMAT_I420, 64, 48, f, f);
  for (guint f = 80; f < 105; f++)
    vh_gst_pads_push_synth (&t, GST_VIDEO_FORMAT_I420, 64, 48, f, f);
  msgs = vh_gst_pads_finish (&t);
  frames = vh_gst_structures (msgs, "vmaf");
  windows = vh_gst_structures (msgs, "vmaf-window");
  g_assert_cmpuint (frames->len, ==, 55);
  g_assert_cmpuint (windows->len, ==, G_N_ELEMENTS (expect));
  for (guint w = 0; w < windows->len; w++) {
    vh_gst_check_window (g_ptr_array_index (windows, w), frames, first,
        expect[w], percentiles, pnames, 3, thresholds, tnames, 3, models);
    first += expect[w];
  }
  g_ptr_array_unref (windows);
  g_ptr_array_unref (frames);
  vh_gst_free_messages (msgs);
  vh_gst_pads_teardown (&t);
}

/* Bad lists fail the start, naming the property and the item. */
static void
test_bad_lists (void)
{
  static const struct
  {
    const gchar *props;
    const gchar *says;
  } cases[] = {
    {"percentiles=1,,5", "item 2 is empty"},
    {"percentiles=nan", "\"nan\" is not a number"},
    {"percentiles=1,101", "101 is outside 0..100"},
    {"thresholds=40,x", "\"x\" is not a number"},
    {"thresholds=-1", "-1 is outside 0..100"},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=2 ! "
        "video/x-raw,format=I420,width=64,height=64 ! tee name=t "
        "t. ! queue ! c.ref_sink t. ! queue ! c.dist_sink "
        "vmafhipcompare name=c %s ! fakesink", cases[i].props);
    GList *msgs = vh_gst_run_launch (desc, 30 * GST_SECOND);
    GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);

    vh_assert_msg (err != NULL, "%s: no error", cases[i].props);
    vh_assert_msg (strstr (err->message, cases[i].says) != NULL &&
        strstr (err->message, cases[i].props[0] == 'p' ? "percentiles" :
            "thresholds") != NULL, "%s: %s", cases[i].props, err->message);
    g_error_free (err);
    vh_gst_free_messages (msgs);
    g_free (desc);
  }
}

/* The results file: libvmaf's layout by default, the percentiles in each
 * pooled metric with results-percentiles=true, equal to the summary's
 * (to the file's six decimals). */
static void
test_results_file (void)
{
  const VhGoldenPair *pair = vh_gst_golden_pair (SMALL_PAIR);
  gchar *path = vh_gst_tmp_path ("windows.json");

  VH_SKIP_WITHOUT (pair);
  for (guint with = 0; with < 2; with++) {
    gchar *props = g_strdup_printf ("threads=2 percentiles=1,5,50,99.5 "
        "results-filename=\"%s\" results-percentiles=%s", path,
        with ? "true" : "false");
    gchar *desc = vh_gst_pair_pipeline (pair, props, "fakesink");
    GList *msgs = vh_gst_run_launch (desc, 120 * GST_SECOND);
    GPtrArray *sums = vh_gst_structures (msgs, "vmaf-summary");
    const GstStructure *sum;
    JsonParser *parser = json_parser_new ();
    JsonObject *pooled;
    GList *names;
    guint checked = 0;

    g_assert_true (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
    g_assert_cmpuint (sums->len, ==, 1);
    sum = g_ptr_array_index (sums, 0);
    g_assert_true (json_parser_load_from_file (parser, path, NULL));
    pooled = json_object_get_object_member (json_node_get_object
        (json_parser_get_root (parser)), "pooled_metrics");
    names = json_object_get_members (pooled);
    for (GList * l = names; l; l = l->next) {
      JsonObject *m = json_object_get_object_member (pooled, l->data);
      const GstStructure *ps = NULL;

      /* libvmaf's four, then the percentiles when asked for */
      g_assert_cmpuint (json_object_get_size (m), ==,
          with ? 4 + G_N_ELEMENTS (percentiles) : 4);
      if (!with || !gst_structure_get (sum, l->data, GST_TYPE_STRUCTURE, &ps,
              NULL))
        continue;
      for (guint p = 0; p < G_N_ELEMENTS (percentiles); p++)
        vh_assert_msg (fabs (json_object_get_double_member (m, pnames[p]) -
                vh_gst_get_double (ps, pnames[p])) <= 5e-7 + 1e-12,
            "%s %s", (const gchar *) l->data, pnames[p]);
      gst_structure_free ((GstStructure *) ps);
      checked++;
    }
    if (with)
      g_assert_cmpuint (checked, >, 5);
    g_list_free (names);
    g_object_unref (parser);
    g_ptr_array_unref (sums);
    vh_gst_free_messages (msgs);
    g_free (desc);
    g_free (props);
  }
  g_free (path);
}

/* The percentile is numpy's default (linear); checked against values
 * numpy gives. */
static void
test_percentile_definition (void)
{
  const gdouble v[] = { 4, 1, 3, 2 };

  g_assert_cmpfloat (vh_gst_percentile (v, 4, 0), ==, 1.0);
  g_assert_cmpfloat (vh_gst_percentile (v, 4, 25), ==, 1.75);
  g_assert_cmpfloat (vh_gst_percentile (v, 4, 50), ==, 2.5);
  g_assert_cmpfloat_with_epsilon (vh_gst_percentile (v, 4, 90), 3.7, 1e-12);
  g_assert_cmpfloat (vh_gst_percentile (v, 4, 100), ==, 4.0);
}

int
main (int argc, char **argv)
{
  vh_gst_test_init (&argc, &argv);
  g_test_add_func ("/vmafhipcompare/windows/percentile-definition",
      test_percentile_definition);
  g_test_add_func ("/vmafhipcompare/windows/frames", test_frame_windows);
  g_test_add_func ("/vmafhipcompare/windows/live-duration",
      test_live_duration_windows);
  g_test_add_func ("/vmafhipcompare/windows/bad-lists", test_bad_lists);
  g_test_add_func ("/vmafhipcompare/windows/duration-gap",
      test_duration_windows_with_gap);
  g_test_add_func ("/vmafhipcompare/windows/results-file",
      test_results_file);
  return g_test_run ();
}
