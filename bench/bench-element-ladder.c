/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* An encoding ladder through one vmafhipcompare, frames already in HIP
 * memory: the element's own rate, with no decoder or file reading in
 * front of it. A source (default 1920x1080) and four renditions at 1,
 * 2/3, 1/2 and 1/3 of its size (1080p, 720p, 540p, 360p), DISTINCT
 * distinct moving frames each, made beforehand by videotestsrc, videoscale
 * and vmafhipupload, cycled by five appsrc into ref_sink, dist_sink and
 * dist_sink_1..3. Timed from PLAYING to EOS, per-frame messages on.
 *
 * Two runs: the renditions at their own sizes (the element scales them,
 * scale=bicubic), then the same renditions scaled back to the source's
 * size beforehand (scale=none): the difference in time is the share of the
 * element's time spent scaling. The stats property's reference-frames
 * says how often the reference was prepared: once per source frame, or
 * the run fails.
 *
 *   GST_PLUGIN_PATH=gst bench/bench-element-ladder [FRAMES [DISTINCT
 *       [WIDTH HEIGHT]]]
 *
 * FRAMES (source frames, default 3000) and DISTINCT (default 60).
 * Exits 77 where the element cannot open a GPU, 1 if a run fails. */

#include "bench-feed.h"

#include <stdio.h>
#include <stdlib.h>

#define N_INPUTS 5              /* the reference and four renditions */

/* Each rung's size as a fraction of the source's. */
static const guint rung_num[N_INPUTS - 1] = { 1, 2, 1, 1 };
static const guint rung_den[N_INPUTS - 1] = { 1, 3, 2, 3 };

typedef struct
{
  gdouble seconds;
  guint64 reference_frames;
  gchar *scaler;
  gchar *dispatch;
} RunResult;

/* Rounded down to an even number (4:2:0). */
static guint
even (guint v)
{
  return MAX (v & ~1u, 2);
}

/* DISTINCT frames of a moving ball at w x h, scaled to rung_w x rung_h,
 * then (when back) to w x h again, uploaded to HIP memory. NULL if the
 * pipeline fails (no GPU). */
static GPtrArray *
make_frames (guint w, guint h, guint rung_w, guint rung_h, gboolean back,
    guint distinct, GstCaps ** caps)
{
  g_autofree gchar *back_to_source = back ?
      g_strdup_printf ("! videoscale ! video/x-raw,width=%u,height=%u ", w,
      h) : g_strdup ("");
  g_autofree gchar *chain = g_strdup_printf ("videoscale ! "
      "video/x-raw,width=%u,height=%u %s! vmafhipupload", rung_w, rung_h,
      back_to_source);

  return bench_make_frames ("videotestsrc pattern=ball", distinct, w, h, chain, caps);
}

/* "pad: scaler, ..." for each distorted pad the element resamples. */
static gchar *
renditions_scalers (const GstStructure * st)
{
  const GValue *list = gst_structure_get_value (st, "renditions");
  GString *out = g_string_new (NULL);

  for (guint i = 0; list && i < gst_value_array_get_size (list); i++) {
    const GstStructure *one =
        gst_value_get_structure (gst_value_array_get_value (list, i));
    const gchar *scaler = gst_structure_get_string (one, "scaler");

    if (scaler)
      g_string_append_printf (out, "%s%s: %s", out->len ? ", " : "",
          gst_structure_get_string (one, "pad"), scaler);
  }
  return g_string_free (out, out->len == 0);
}

static void
read_stats (GstElement * pipe, RunResult * result)
{
  GstElement *c = gst_bin_get_by_name (GST_BIN (pipe), "c");
  GstStructure *st = NULL;

  /* the stats are kept until the element stops */
  g_object_get (c, "stats", &st, NULL);
  if (st) {
    gst_structure_get_uint64 (st, "reference-frames",
        &result->reference_frames);
    result->scaler = renditions_scalers (st);
    result->dispatch = g_strdup (gst_structure_get_string (st, "dispatch"));
    gst_structure_free (st);
  }
  gst_object_unref (c);
}

/* One ladder run of n source frames; FALSE (said on stderr) if it fails. */
static gboolean
run (GPtrArray ** frames, GstCaps ** caps, guint n, gboolean scaled,
    RunResult * result)
{
  g_autofree gchar *desc = g_strdup_printf ("appsrc name=in0 format=time ! "
      "c.ref_sink appsrc name=in1 format=time ! c.dist_sink "
      "appsrc name=in2 format=time ! c.dist_sink_1 "
      "appsrc name=in3 format=time ! c.dist_sink_2 "
      "appsrc name=in4 format=time ! c.dist_sink_3 "
      "vmafhipcompare name=c backend=hip scale=%s ! fakesink sync=false",
      scaled ? "bicubic" : "none");
  GError *error = NULL;
  GstElement *pipe = gst_parse_launch (desc, &error);
  BenchFeed *feed;
  GstMessage *msg;
  gdouble seconds;
  gboolean ok;

  if (!pipe) {
    fprintf (stderr, "ladder pipeline: %s\n", error->message);
    g_error_free (error);
    return FALSE;
  }
  feed = bench_feed_start (pipe, N_INPUTS, frames, caps, n);
  msg = bench_feed_wait (feed, &seconds, NULL);
  ok = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
  if (ok) {
    result->seconds = seconds;
    read_stats (pipe, result);
  } else {
    gst_message_parse_error (msg, &error, NULL);
    fprintf (stderr, "ladder (%s): %s\n", scaled ? "scaled" : "prescaled",
        error->message);
    g_error_free (error);
  }
  gst_message_unref (msg);
  bench_feed_stop (feed);
  gst_object_unref (pipe);
  return ok;
}

/* The reference's and the renditions' frames, at the rungs' sizes or (not
 * scaled) back at the source's; FALSE if HIP memory cannot be made. */
static gboolean
make_inputs (guint w, guint h, guint distinct, gboolean scaled,
    GPtrArray ** frames, GstCaps ** caps)
{
  frames[0] = make_frames (w, h, w, h, FALSE, distinct, &caps[0]);
  if (!frames[0])
    return FALSE;
  for (guint r = 0; r < N_INPUTS - 1; r++) {
    guint rw = even (w * rung_num[r] / rung_den[r]);
    guint rh = even (h * rung_num[r] / rung_den[r]);

    frames[r + 1] = make_frames (w, h, rw, rh, !scaled, distinct,
        &caps[r + 1]);
    if (!frames[r + 1])
      return FALSE;
  }
  return TRUE;
}

static void
free_inputs (GPtrArray ** frames, GstCaps ** caps)
{
  for (guint k = 0; k < N_INPUTS; k++) {
    g_clear_pointer (&frames[k], g_ptr_array_unref);
    g_clear_pointer (&caps[k], gst_caps_unref);
  }
}

static void
clear_result (RunResult * result)
{
  g_clear_pointer (&result->scaler, g_free);
  g_clear_pointer (&result->dispatch, g_free);
}

int
main (int argc, char **argv)
{
  guint n = argc > 1 ? atoi (argv[1]) : 3000;
  guint distinct = argc > 2 ? atoi (argv[2]) : 60;
  guint w = argc > 4 ? even (atoi (argv[3])) : 1920;
  guint h = argc > 4 ? even (atoi (argv[4])) : 1080;
  GPtrArray *frames[N_INPUTS] = { NULL };
  GstCaps *caps[N_INPUTS] = { NULL };
  RunResult runs[2] = { {0} };
  const gchar *what[2] = { "scaled by the element", "prescaled (scale=none)" };
  gboolean ok = TRUE;

  gst_init (&argc, &argv);
  if (n == 0 || distinct == 0) {
    fprintf (stderr, "usage: %s [FRAMES [DISTINCT [WIDTH HEIGHT]]] "
        "(FRAMES and DISTINCT above 0)\n", argv[0]);
    return 2;
  }
  for (guint s = 0; s < 2 && ok; s++) {
    if (!make_inputs (w, h, distinct, s == 0, frames, caps)) {
      free_inputs (frames, caps);
      if (s == 0) {
        printf ("SKIP: vmafhipupload cannot make HIP memory here (no GPU)\n");
        return 77;
      }
      fprintf (stderr, "making the prescaled renditions failed\n");
      return 1;
    }
    ok = run (frames, caps, n, s == 0, &runs[s]);
    free_inputs (frames, caps);
  }
  if (!ok) {
    clear_result (&runs[0]);
    return 1;
  }

  printf ("ladder through one vmafhipcompare, frames in HIP memory: source "
      "%ux%u, renditions", w, h);
  for (guint r = 0; r < N_INPUTS - 1; r++)
    printf (" %ux%u", even (w * rung_num[r] / rung_den[r]),
        even (h * rung_num[r] / rung_den[r]));
  printf ("\n%u source frames (%u distinct, cycled), per-frame messages on\n"
      "%-24s %12s %12s %12s %18s\n", n, distinct, "renditions",
      "seconds", "source fps", "pairs/s", "reference-frames");
  for (guint s = 0; s < 2; s++)
    printf ("%-24s %12.3f %12.1f %12.1f %18" G_GUINT64_FORMAT "\n", what[s],
        runs[s].seconds, n / runs[s].seconds,
        (N_INPUTS - 1) * n / runs[s].seconds, runs[s].reference_frames);
  printf ("scaling share of the element's time: %.1f%% (the runs' "
      "difference over the scaled run's time)\n",
      100.0 * (runs[0].seconds - runs[1].seconds) / runs[0].seconds);
  printf ("scalers: %s\ndispatch: %s\n", runs[0].scaler ? runs[0].scaler :
      "?", runs[0].dispatch ? runs[0].dispatch : "?");
  for (guint s = 0; s < 2; s++) {
    /* one reference preparation per source frame, shared by the rungs */
    if (runs[s].reference_frames != n) {
      fprintf (stderr, "FAIL (%s): the reference was prepared %"
          G_GUINT64_FORMAT " times for %u source frames\n", what[s],
          runs[s].reference_frames, n);
      ok = FALSE;
    }
    clear_result (&runs[s]);
  }
  return ok ? 0 : 1;
}
