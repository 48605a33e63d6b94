/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* Model throughput through the vmafhipcompare element on a GPU: frames
 * already in HIP memory (made by vmafhipupload beforehand), frames in
 * system memory (the element uploads them), and the CPU path, at 1080p and
 * 2160p, for each model in turn (default vmaf_v0.6.1, then
 * vmaf_v1.0.16_3d0h at 1080p with vmaf_v1.0.16_3d0h_2160 at 2160p). Two
 * appsrc elements feed the element as fast as it takes frames; the time
 * runs from PLAYING to EOS, per-frame messages on. The dispatch line says
 * where each feature ran.
 *
 *   GST_PLUGIN_PATH=gst bench/bench-element-gpu [FRAMES [MODEL...]]
 *   GST_PLUGIN_PATH=gst bench/bench-element-gpu --align [FRAMES [ROUNDS
 *                           [WINDOW_MS [RAW_1080P_I420 [MODE]]]]]
 *
 * FRAMES defaults to 3000; a MODEL is a model property value, or
 * A/B for model A at 1080p and model B at 2160p.
 *
 * --align: the cost of align=content (issue 29): 1080p frames in HIP
 * memory, vmaf_v0.6.1, align=timestamps and align=content, each with
 * black and freeze detection (the default) and without, in turn for
 * ROUNDS rounds (default 5), align-window WINDOW_MS (default 500: until
 * the first lock frames wait a window, a delay at the start that a long
 * run makes small; below 2000, so that only one offset fits the 60
 * distinct frames that are cycled); each run's rate and frames scored,
 * then the means and bests and content's cost against timestamps (MODE,
 * one of timestamps, content, timestamps-nbf and content-nbf: only that
 * one, for a profiler; "-" for no RAW file). The 60
 * frames are the first of RAW_1080P_I420 (natural frames: every pair is
 * matched), else of a scrolling test pattern, whose frames look alike
 * after the distortion, so that content alignment locks only now and
 * then and fewer pairs are scored.
 *
 * Exits 77 where the element cannot open a GPU. */

#include "bench-feed.h"

#include <stdio.h>
#include <stdlib.h>

#define N_DISTINCT 16

/* The frames of the alignment comparison: more than the window's. */
#define N_DISTINCT_ALIGN 60
#define ALIGN_PATTERN "videotestsrc pattern=smpte horizontal-speed=4"

/* @n moving frames of @source (a launch line fragment) at w x h (distorted: made
 * at a third of the size and scaled up), in system or HIP memory; NULL if
 * that fails. */
static GPtrArray *
make_frames (guint w, guint h, gboolean distorted, gboolean hip,
    const gchar * source, guint n, GstCaps ** caps)
{
  g_autofree gchar *chain = g_strdup_printf ("videoscale ! "
      "video/x-raw,width=%u,height=%u%s", w, h, hip ? " ! vmafhipupload" : "");

  return bench_make_frames (source, n, distorted ? w / 3 : w,
      distorted ? h / 3 : h, chain, caps);
}

/* The element's feature dispatch (its stats hold it until it stops). */
static gchar *
read_dispatch (GstElement * pipe)
{
  GstElement *c = gst_bin_get_by_name (GST_BIN (pipe), "c");
  GstStructure *st = NULL;
  gchar *dispatch = NULL;

  g_object_get (c, "stats", &st, NULL);
  if (st)
    dispatch = g_strdup (gst_structure_get_string (st, "dispatch"));
  g_clear_pointer (&st, gst_structure_free);
  gst_object_unref (c);
  return dispatch;
}

/* Frames per second, or a negative value if the pipeline failed; @props:
 * more element properties; @source, @n_distinct: the frames cycled;
 * @scored: where to count the pairs scored, or NULL. */
static gdouble
run_with (guint w, guint h, guint n, gboolean hip_memory,
    const gchar * backend, const gchar * model, const gchar * props,
    const gchar * source, guint n_distinct, gchar ** dispatch,
    guint * scored)
{
  GstCaps *caps[2] = { NULL };
  GPtrArray *frames[2] = {
    make_frames (w, h, FALSE, hip_memory, source, n_distinct, &caps[0]),
    make_frames (w, h, TRUE, hip_memory, source, n_distinct, &caps[1]),
  };
  g_autofree gchar *desc = g_strdup_printf ("appsrc name=in0 format=time ! "
      "c.ref_sink appsrc name=in1 format=time ! c.dist_sink "
      "vmafhipcompare name=c backend=%s model=\"%s\" %s ! fakesink "
      "sync=false", backend, model, props);
  GstElement *pipe;
  BenchFeed *feed;
  GstMessage *msg;
  gdouble seconds, fps = -1;

  if (!frames[0] || !frames[1]) {
    fprintf (stderr, "%s %ux%u: the frames could not be made\n", backend, w,
        h);
    goto out;
  }
  pipe = gst_parse_launch (desc, NULL);
  feed = bench_feed_start (pipe, 2, frames, caps, n);
  msg = bench_feed_wait (feed, &seconds, scored);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS && dispatch)
    *dispatch = read_dispatch (pipe);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS) {
    fps = n / seconds;
  } else {
    GError *err = NULL;
    gst_message_parse_error (msg, &err, NULL);
    fprintf (stderr, "%s %ux%u: %s\n", backend, w, h, err->message);
    g_error_free (err);
  }
  gst_message_unref (msg);
  bench_feed_stop (feed);
  gst_object_unref (pipe);
out:
  for (guint k = 0; k < 2; k++) {
    g_clear_pointer (&frames[k], g_ptr_array_unref);
    g_clear_pointer (&caps[k], gst_caps_unref);
  }
  return fps;
}

static gdouble
run (guint w, guint h, guint n, gboolean hip_memory, const gchar * backend,
    const gchar * model, gchar ** dispatch)
{
  return run_with (w, h, n, hip_memory, backend, model, "", "videotestsrc pattern=ball",
      N_DISTINCT, dispatch, NULL);
}

/* --align: timestamps against content, frames in HIP memory, with black
 * and freeze detection (on by default) and without it. */
static int
compare_align (guint n, guint rounds, guint window_ms, const gchar * raw,
    const gchar * only)
{
  /* a test pattern locks only now and then (its frames look alike after
   * the distortion); natural frames from a raw file lock at once */
  g_autofree gchar *source = raw ? g_strdup_printf ("filesrc location=\"%s\" "
      "! rawvideoparse width=1920 height=1080 format=i420 framerate=30/1 ! "
      "videoscale", raw) : g_strdup (ALIGN_PATTERN);
  static const struct
  {
    const gchar *key;
    const gchar *name;
    const gchar *props;
  } modes[] = {
    {"timestamps", "timestamps", "align=timestamps"},
    {"content", "content", "align=content"},
    {"timestamps-nbf", "timestamps, no black/freeze",
        "align=timestamps black-threshold=0 freeze-threshold=0"},
    {"content-nbf", "content, no black/freeze",
        "align=content black-threshold=0 freeze-threshold=0"},
  };
  gdouble sum[G_N_ELEMENTS (modes)] = { 0 };
  gdouble best[G_N_ELEMENTS (modes)] = { 0 };

  printf ("align=timestamps against align=content, 1920x1080, frames in "
      "HIP memory, vmaf_v0.6.1, %u frames, %u rounds, align-window %u ms, "
      "%u distinct frames of %s\n", n, rounds, window_ms, N_DISTINCT_ALIGN,
      raw ? raw : ALIGN_PATTERN);
  for (guint r = 0; r < rounds; r++) {
    for (guint m = 0; m < G_N_ELEMENTS (modes); m++) {
      g_autofree gchar *props = NULL;
      guint scored = 0;
      gdouble fps;

      if (only && g_strcmp0 (only, modes[m].key))
        continue;
      props = g_strdup_printf ("%s align-window=%" G_GUINT64_FORMAT,
          modes[m].props, window_ms * GST_MSECOND);
      fps = run_with (1920, 1080, n, TRUE, "hip", "vmaf_v0.6.1",
          props, source, N_DISTINCT_ALIGN, NULL, &scored);

      if (fps < 0)
        return 1;
      printf ("round %u  %-28s %8.1f fps  %u pairs scored\n", r + 1,
          modes[m].name, fps, scored);
      sum[m] += fps;
      best[m] = MAX (best[m], fps);
    }
  }
  for (guint k = 0; k < 2 && !only; k++) {
    guint t = 2 * k, c = 2 * k + 1;

    printf ("%s: mean timestamps %.1f, content %.1f fps (content costs "
        "%.1f%%); best %.1f, %.1f (%.1f%%)\n",
        k ? "no black/freeze" : "defaults", sum[t] / rounds, sum[c] / rounds,
        100.0 * (1.0 - sum[c] / sum[t]), best[t], best[c],
        100.0 * (1.0 - best[c] / best[t]));
  }
  return 0;
}

int
main (int argc, char **argv)
{
  static const guint sizes[][2] = { {1920, 1080}, {3840, 2160} };
  static const gchar *default_models[] = { "vmaf_v0.6.1",
    "vmaf_v1.0.16_3d0h/vmaf_v1.0.16_3d0h_2160", NULL
  };
  gboolean align = argc > 1 && !g_strcmp0 (argv[1], "--align");
  gint first = align ? 2 : 1;
  guint n = argc > first ? atoi (argv[first]) : 3000;
  const gchar **models = argc > 2 ? (const gchar **) argv + 2 :
      default_models;

  gst_init (&argc, &argv);
  if (run (320, 240, 8, FALSE, "hip", "vmaf_v0.6.1", NULL) < 0) {
    printf ("SKIP: vmafhipcompare backend=hip cannot run here (no GPU)\n");
    return 77;
  }
  if (align)
    return compare_align (n, argc > first + 1 ? atoi (argv[first + 1]) : 5,
        argc > first + 2 ? atoi (argv[first + 2]) : 500,
        argc > first + 3 && g_strcmp0 (argv[first + 3], "-") ?
        argv[first + 3] : NULL, argc > first + 4 ? argv[first + 4] : NULL);
  printf ("through vmafhipcompare, %u frames (CPU: %u), per-frame messages "
      "on\n%-10s %-26s %14s %14s %12s\n", n, MAX (n / 20, 30), "size",
      "model", "HIP (HIP mem)", "HIP (sys mem)", "CPU");
  for (guint m = 0; models[m]; m++) {
    g_auto (GStrv) per_size = g_strsplit (models[m], "/", 2);

    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
      guint w = sizes[s][0], h = sizes[s][1];
      const gchar *model = s && per_size[1] ? per_size[1] : per_size[0];
      g_autofree gchar *dispatch = NULL;
      gdouble dev = run (w, h, n, TRUE, "hip", model, &dispatch);
      gdouble sys = run (w, h, n, FALSE, "hip", model, NULL);
      gdouble cpu = run (w, h, MAX (n / 20, 30), FALSE, "cpu", model, NULL);

      printf ("%ux%-5u %-26s %14.1f %14.1f %12.1f\n", w, h, model, dev, sys,
          cpu);
      printf ("  dispatch (HIP memory): %s\n", dispatch ? dispatch : "?");
    }
  }
  return 0;
}
