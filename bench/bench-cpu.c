/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* CPU throughput of vmaf_v0.6.1 (VIF, ADM, motion) on 1 and 2 threads at
 * 576x324 and 1920x1080, from frames already in memory. Prints a table.
 * Usage: bench-cpu [N_FRAMES]   (golden data as for the tests) */

#include "context.h"
#include "golden.h"
#include "model.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct
{
  const gchar *label;
  const gchar *pairs[2];        /* frames alternate between the pairs */
} Clip;

static gboolean
load_frames (GPtrArray * pairs, const Clip * clip, GPtrArray * refs,
    GPtrArray * dists)
{
  for (guint k = 0; k < 2 && clip->pairs[k]; k++) {
    VhGoldenPair *pair = vh_golden_pair_find (pairs, clip->pairs[k]);
    if (!pair)
      return FALSE;
    for (guint f = 0; f < MIN (pair->n_frames, 24); f++) {
      g_ptr_array_add (refs, vh_golden_read_frame (pair, TRUE, f, NULL));
      g_ptr_array_add (dists, vh_golden_read_frame (pair, FALSE, f, NULL));
    }
  }
  return refs->len > 0;
}

static gdouble
run_once (GPtrArray * refs, GPtrArray * dists, guint n_frames,
    guint n_threads)
{
  VhContextConfig cfg = { n_threads, 1, VH_BACKEND_CPU, 0 };
  VhContext *ctx = vh_context_new (&cfg);
  VhPicture *first = g_ptr_array_index (refs, 0);
  GError *error = NULL;
  gint64 t0;
  gdouble secs;

  if (!vh_context_add_model (ctx, vh_model_new_builtin ("vmaf_v0.6.1", NULL,
              &error), &error) || !vh_context_start (ctx, &first->info,
          &error))
    g_error ("setup failed: %s", error->message);
  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < n_frames; i++) {
    if (!vh_context_submit (ctx, g_ptr_array_index (refs, i % refs->len),
            g_ptr_array_index (dists, i % dists->len), NULL, &error))
      g_error ("submit failed: %s", error->message);
  }
  if (!vh_context_finish (ctx, &error))
    g_error ("finish failed: %s", error->message);
  secs = (g_get_monotonic_time () - t0) / 1e6;
  vh_context_free (ctx);
  return n_frames / secs;
}

int
main (int argc, char **argv)
{
  static const Clip clips[] = {
    {"576x324 8-bit", {"a_576x324_8bit_x264", NULL}},
    {"1920x1080 8-bit", {"golden_archer_1920x1080_8bit_1f",
            "golden_darkscene_1920x1080_8bit_1f"}},
  };
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  guint n_frames = argc > 1 ? atoi (argv[1]) : 48;

  printf ("%-18s %10s %10s %8s\n", "clip", "1 thread", "2 threads",
      "speedup");
  for (guint c = 0; c < G_N_ELEMENTS (clips); c++) {
    g_autoptr (GPtrArray) refs =
        g_ptr_array_new_with_free_func ((GDestroyNotify) vh_picture_unref);
    g_autoptr (GPtrArray) dists =
        g_ptr_array_new_with_free_func ((GDestroyNotify) vh_picture_unref);
    gdouble fps1, fps2;

    if (!load_frames (pairs, &clips[c], refs, dists)) {
      printf ("%-18s (golden clip not found)\n", clips[c].label);
      continue;
    }
    run_once (refs, dists, MIN (n_frames, 8), 1);     /* warm-up */
    fps1 = run_once (refs, dists, n_frames, 1);
    fps2 = run_once (refs, dists, n_frames, 2);
    printf ("%-18s %8.1f/s %8.1f/s %7.2fx\n", clips[c].label, fps1, fps2,
        fps2 / fps1);
  }
  return 0;
}
