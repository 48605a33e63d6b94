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
 *
 * FRAMES defaults to 3000; a MODEL is a model property value, or
 * A/B for model A at 1080p and model B at 2160p.
 *
 * Exits 77 where the element cannot open a GPU. */

#include "bench-feed.h"

#include <stdio.h>
#include <stdlib.h>

#define N_DISTINCT 16

/* N_DISTINCT moving frames at w x h (distorted: made at a third of the
 * size and scaled up), in system or HIP memory; NULL if that fails. */
static GPtrArray *
make_frames (guint w, guint h, gboolean distorted, gboolean hip,
    GstCaps ** caps)
{
  g_autofree gchar *chain = g_strdup_printf ("videoscale ! "
      "video/x-raw,width=%u,height=%u%s", w, h, hip ? " ! vmafhipupload" : "");

  return bench_make_frames (N_DISTINCT, distorted ? w / 3 : w,
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

/* Frames per second, or a negative value if the pipeline failed. */
static gdouble
run (guint w, guint h, guint n, gboolean hip_memory, const gchar * backend,
    const gchar * model, gchar ** dispatch)
{
  GstCaps *caps[2] = { NULL };
  GPtrArray *frames[2] = {
    make_frames (w, h, FALSE, hip_memory, &caps[0]),
    make_frames (w, h, TRUE, hip_memory, &caps[1]),
  };
  g_autofree gchar *desc = g_strdup_printf ("appsrc name=in0 format=time ! "
      "c.ref_sink appsrc name=in1 format=time ! c.dist_sink "
      "vmafhipcompare name=c backend=%s model=\"%s\" ! fakesink sync=false",
      backend, model);
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
  msg = bench_feed_wait (feed, &seconds);
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

int
main (int argc, char **argv)
{
  static const guint sizes[][2] = { {1920, 1080}, {3840, 2160} };
  static const gchar *default_models[] = { "vmaf_v0.6.1",
    "vmaf_v1.0.16_3d0h/vmaf_v1.0.16_3d0h_2160", NULL
  };
  guint n = argc > 1 ? atoi (argv[1]) : 3000;
  const gchar **models = argc > 2 ? (const gchar **) argv + 2 :
      default_models;

  gst_init (&argc, &argv);
  if (run (320, 240, 8, FALSE, "hip", "vmaf_v0.6.1", NULL) < 0) {
    printf ("SKIP: vmafhipcompare backend=hip cannot run here (no GPU)\n");
    return 77;
  }
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
