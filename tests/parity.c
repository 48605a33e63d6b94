/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* Parity with libvmaf: scores every golden pair through the engine with
 * every model and feature the golden logs hold, and compares each value of
 * every log it finds, per frame and pooled, within 1e-4, a test case a pair.
 * Prints the largest difference per metric. Usage: parity
 * [PAIR-SUBSTRING...] (and GLib's test options) */

#include "context.h"
#include "golden.h"
#include "model.h"
#include "model-spec.h"
#include "pool.h"
#include "vh-test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOLERANCE 1e-4

/* libvmaf's float twin model is not shipped with the golden data. */
static const gchar *unsupported[] = {
  "vmaf_float", NULL
};

/* The models of the golden logs, in libvmaf's --model syntax. */
static const gchar *models[] = {
  "version=vmaf_v0.6.1:name=vmaf",
  "version=vmaf_v0.6.1neg:name=vmaf_neg",
  "version=vmaf_4k_v0.6.1:name=vmaf_4k",
  "version=vmaf_v0.6.1:name=vmaf_transform:enable_transform",
  "version=vmaf_b_v0.6.3:name=vmaf_b",
};

/* Only where a pair has models_disable_clip.json (the enhancement-gain
 * case): unclipped scores, and per-model feature option overrides. */
static const gchar *noclip_models[] = {
  "version=vmaf_v0.6.1:name=vmaf_noclip:disable_clip",
  "version=vmaf_v0.6.1neg:name=vmaf_neg_noclip:disable_clip",
  "version=vmaf_v0.6.1:name=vmaf_egl12_noclip:disable_clip:"
      "adm.adm_enhn_gain_limit=1.2:vif.vif_enhn_gain_limit=1.1",
};

typedef struct
{
  GHashTable *max_diff;         /* metric -> gdouble* */
  GHashTable *skipped;          /* metric -> reason */
  guint compared;
  guint failed;
} Stats;

static void
record (Stats * st, const gchar * metric, gdouble diff)
{
  gdouble *d = g_hash_table_lookup (st->max_diff, metric);

  if (!d) {
    d = g_new0 (gdouble, 1);
    g_hash_table_insert (st->max_diff, g_strdup (metric), d);
  }
  *d = MAX (*d, diff);
  st->compared++;
}

static gboolean
is_unsupported (const gchar * metric)
{
  return g_strv_contains (unsupported, metric);
}

static gboolean
add_model (VhContext * ctx, const gchar * text, GError ** error)
{
  VhModelSpec spec;
  VhModel *model;

  if (!vh_model_spec_parse (&spec, text, NULL, error))
    return FALSE;
  model = vh_model_spec_load (&spec, error);
  vh_model_spec_clear (&spec);
  return model && vh_context_add_model (ctx, model, error);
}

static VhContext *
score_pair (const VhGoldenPair * pair, guint n_threads, GError ** error)
{
  VhContextConfig cfg = { n_threads, 1, VH_BACKEND_CPU, 0 };
  VhContext *ctx = vh_context_new (&cfg);
  VhPictureInfo info;
  const gchar *extra[][2] = {
    {"feat_psnr.json", "psnr"},
    {"feat_float_ssim.json", "float_ssim"},
    {"feat_float_ms_ssim.json", "float_ms_ssim"},
    {"feat_cambi.json", "cambi"},
  };
  /* libvmaf's float features: models_extra.json has them for every pair. */
  const gchar *always[] = { "float_vif", "float_adm", "float_motion" };

  for (guint i = 0; i < G_N_ELEMENTS (models); i++) {
    if (!add_model (ctx, models[i], error))
      goto fail;
  }
  if (vh_golden_scores_has_frames (pair, "models_disable_clip.json")) {
    for (guint i = 0; i < G_N_ELEMENTS (noclip_models); i++) {
      if (!add_model (ctx, noclip_models[i], error))
        goto fail;
    }
  }
  for (guint i = 0; i < G_N_ELEMENTS (extra); i++) {
    if (vh_golden_scores_has_frames (pair, extra[i][0]) &&
        !vh_context_add_feature (ctx, extra[i][1], NULL, error))
      goto fail;
  }
  for (guint i = 0; i < G_N_ELEMENTS (always); i++) {
    if (!vh_context_add_feature (ctx, always[i], NULL, error))
      goto fail;
  }
  vh_picture_info_init (&info, VH_PIX_FMT_YUV420, pair->bpc, pair->width,
      pair->height, NULL);
  if (!vh_context_start (ctx, &info, error))
    goto fail;
  for (guint f = 0; f < pair->n_frames; f++) {
    g_autoptr (VhPicture) ref = vh_golden_read_frame (pair, TRUE, f, error);
    g_autoptr (VhPicture) dist = NULL;
    if (!ref)
      goto fail;
    dist = vh_golden_read_frame (pair, FALSE, f, error);
    if (!dist || !vh_context_submit (ctx, ref, dist, NULL, error))
      goto fail;
  }
  if (!vh_context_finish (ctx, error))
    goto fail;
  return ctx;

fail:
  vh_context_free (ctx);
  return NULL;
}

static void
compare_file (Stats * st, const VhGoldenPair * pair, VhContext * ctx,
    const gchar * file)
{
  VhGoldenScores *gs = vh_golden_scores_load (pair, file, NULL);
  VhFeatureCollector *fc = vh_context_get_collector (ctx);
  static const gchar *methods[] = { "min", "max", "mean", "harmonic_mean" };

  if (!gs)
    return;
  for (guint f = 0; f < vh_golden_scores_n_frames (gs); f++) {
    const gchar *const *metrics = vh_golden_scores_metrics (gs);
    for (guint m = 0; metrics[m]; m++) {
      gdouble want, got;
      if (is_unsupported (metrics[m])) {
        g_hash_table_insert (st->skipped, g_strdup (metrics[m]),
            "model not shipped");
        continue;
      }
      if (!vh_golden_scores_get (gs, f, metrics[m], &want))
        continue;
      if (!vh_feature_collector_get (fc, metrics[m], f, &got)) {
        if (st->failed++ < 30)
          g_printerr ("FAIL %s/%s frame %u: %s missing\n", pair->name, file,
              f, metrics[m]);
        continue;
      }
      record (st, metrics[m], fabs (got - want));
      if (fabs (got - want) > TOLERANCE && st->failed++ < 30)
        g_printerr ("FAIL %s/%s frame %u: %s = %.6f, libvmaf %.6f\n",
            pair->name, file, f, metrics[m], got, want);
    }
  }
  for (guint m = 0; vh_golden_scores_metrics (gs)[m]; m++) {
    const gchar *metric = vh_golden_scores_metrics (gs)[m];
    if (is_unsupported (metric))
      continue;
    for (guint k = 0; k < G_N_ELEMENTS (methods); k++) {
      VhPoolMethod method;
      gdouble want, got;
      g_autofree gchar *key = g_strdup_printf ("%s (pooled)", metric);
      if (!vh_golden_scores_get_pooled (gs, metric, methods[k], &want))
        continue;
      vh_pool_method_from_string (methods[k], &method);
      if (!vh_pool_feature (fc, metric, method, 0, pair->n_frames - 1, 1,
              &got, NULL)) {
        if (st->failed++ < 30)
          g_printerr ("FAIL %s/%s: pooled %s of %s missing\n", pair->name,
              file, methods[k], metric);
        continue;
      }
      record (st, key, fabs (got - want));
      if (fabs (got - want) > TOLERANCE && st->failed++ < 30)
        g_printerr ("FAIL %s/%s: pooled %s of %s = %.6f, libvmaf %.6f\n",
            pair->name, file, methods[k], metric, got, want);
    }
  }
  vh_golden_scores_free (gs);
}

/* Every log of the pair: a log this harness cannot reproduce fails. */
static void
compare_pair (Stats * st, const VhGoldenPair * pair, VhContext * ctx)
{
  g_autofree gchar *dir = g_build_filename (vh_golden_dir (), "scores",
      pair->name, NULL);
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *file;

  while (d && (file = g_dir_read_name (d))) {
    if (g_str_has_suffix (file, ".json"))
      compare_file (st, pair, ctx, file);
  }
  if (d)
    g_dir_close (d);
}

static gboolean
pair_selected (const VhGoldenPair * pair, gint argc, gchar ** argv)
{
  if (argc < 2)
    return TRUE;
  for (gint i = 1; i < argc; i++) {
    if (strstr (pair->name, argv[i]))
      return TRUE;
  }
  return FALSE;
}

static Stats st;
static guint n_threads, n_pairs;

/* One golden pair scored and compared with every log it has. */
static void
test_pair (gconstpointer data)
{
  const VhGoldenPair *pair = data;
  const guint failed_before = st.failed;
  GError *error = NULL;
  VhContext *ctx = score_pair (pair, n_threads, &error);

  if (!ctx) {
    g_printerr ("FAIL %s: %s\n", pair->name, error->message);
    g_clear_error (&error);
    st.failed++;
    g_test_fail ();
    return;
  }
  compare_pair (&st, pair, ctx);
  vh_context_free (ctx);
  n_pairs++;
  if (st.failed != failed_before)
    g_test_fail ();
}

/* The largest difference per metric over the pairs run. */
static void
print_summary (void)
{
  GList *names;

  g_print ("%-48s %s\n", "metric", "max |ours - libvmaf|");
  names = g_list_sort (g_hash_table_get_keys (st.max_diff),
      (GCompareFunc) strcmp);
  for (GList * l = names; l; l = l->next)
    g_print ("%-48s %.2e\n", (gchar *) l->data,
        *(gdouble *) g_hash_table_lookup (st.max_diff, l->data));
  g_list_free (names);
  names = g_hash_table_get_keys (st.skipped);
  for (GList * l = names; l; l = l->next)
    g_print ("not compared: %s (%s)\n", (gchar *) l->data,
        (gchar *) g_hash_table_lookup (st.skipped, l->data));
  g_list_free (names);
  g_print ("%u pairs, %u values compared\n", n_pairs, st.compared);
  g_print ("%u passed, %u failed\n", st.compared - MIN (st.failed,
          st.compared), st.failed);
}

int
main (int argc, char **argv)
{
  g_autoptr (GPtrArray) pairs = NULL;
  gint ret;

  g_test_init (&argc, &argv, NULL);
  pairs = vh_golden_pairs ();
  if (!pairs->len) {
    g_print ("no golden data found: skipping\n");
    return VH_TEST_SKIP;
  }
  n_threads = g_getenv ("VH_PARITY_THREADS") ?
      atoi (g_getenv ("VH_PARITY_THREADS")) : 2;
  st.max_diff = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      g_free);
  st.skipped = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_print ("golden data: %s\n", vh_golden_dir ());
  for (guint p = 0; p < pairs->len; p++) {
    VhGoldenPair *pair = g_ptr_array_index (pairs, p);
    g_autofree gchar *path = NULL;

    if (!pair_selected (pair, argc, argv))
      continue;
    path = g_strconcat ("/parity/", pair->name, NULL);
    g_test_add_data_func (path, pair, test_pair);
  }
  ret = g_test_run ();
  print_summary ();
  g_hash_table_unref (st.max_diff);
  g_hash_table_unref (st.skipped);
  return ret;
}
