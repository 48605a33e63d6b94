/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* Models against libvmaf's own predictions: exactly on the feature values
 * it was given (libvmaf-predict.tsv), and within 1e-4 on every frame of
 * the golden logs. Registered by test-model.c. */

#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "errors.h"
#include "feature-extractor.h"
#include "golden.h"
#include "model.h"
#include "model-test.h"
#include "test-data.h"

/* ------------------------------------------------------------------ */
/* Exactness: tests/data/model/libvmaf-predict.tsv holds feature values
 * and the scores libvmaf 3.2 predicts from exactly those values (its
 * vmaf_import_feature_score() then vmaf_score_at_index() and
 * vmaf_score_at_index_model_collection(), printed with "%.17g"), for a few
 * frames of the golden set and every built-in model and flag. Lines:
 *   frame <label>
 *   in <feature> <value>
 *   out <version> <name> <enable_transform> <disable_clip> <score> <value>
 * Same inputs, same arithmetic: the scores must agree to the last bits. */

typedef struct
{
  gchar *label;
  GPtrArray *in;                /* "feature\tvalue" */
  GPtrArray *out;               /* split "out" lines */
} ExactFrame;

static void
exact_frame_free (ExactFrame * f)
{
  g_free (f->label);
  g_ptr_array_unref (f->in);
  g_ptr_array_unref (f->out);
  g_free (f);
}

static GPtrArray *
load_exact (void)
{
  g_autofree gchar *path = vh_test_data_path ("model/libvmaf-predict.tsv");
  g_autofree gchar *text = NULL;
  g_auto (GStrv) lines = NULL;
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      exact_frame_free);
  ExactFrame *cur = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++) {
    gchar **f;
    if (!lines[i][0])
      continue;
    f = g_strsplit (lines[i], "\t", -1);
    if (!strcmp (f[0], "frame")) {
      cur = g_new0 (ExactFrame, 1);
      cur->label = g_strdup (f[1]);
      cur->in = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
      cur->out = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
      g_ptr_array_add (frames, cur);
    }
    g_assert_nonnull (cur);
    if (!strcmp (f[0], "in"))
      g_ptr_array_add (cur->in, f);
    else if (!strcmp (f[0], "out"))
      g_ptr_array_add (cur->out, f);
    else
      g_strfreev (f);
  }
  return frames;
}

void
test_exact (void)
{
  g_autoptr (GPtrArray) frames = load_exact ();
  guint n_checked = 0;

  g_assert_cmpuint (frames->len, >, 0);
  for (guint fi = 0; fi < frames->len; fi++) {
    ExactFrame *fr = g_ptr_array_index (frames, fi);
    g_autoptr (GHashTable) done = g_hash_table_new_full (g_str_hash,
        g_str_equal, g_free, NULL);

    for (guint o = 0; o < fr->out->len; o++) {
      gchar **ol = g_ptr_array_index (fr->out, o);
      g_autofree gchar *key = g_strjoin (":", ol[1], ol[2], ol[3], ol[4],
          NULL);
      VhModelConfig cfg = { ol[2], atoi (ol[3]), atoi (ol[4]) };
      g_autoptr (VhModel) m = NULL;
      g_autoptr (VhFeatureCollector) fc = NULL;
      g_autoptr (GError) err = NULL;

      if (!g_hash_table_add (done, g_strdup (key)))
        continue;
      m = vh_model_new_builtin (ol[1], &cfg, &err);
      g_assert_no_error (err);
      fc = vh_feature_collector_new ();
      for (guint i = 0; i < fr->in->len; i++) {
        gchar **il = g_ptr_array_index (fr->in, i);
        vh_feature_collector_append (fc, il[1], 0, g_ascii_strtod (il[2],
                NULL), &err);
        g_assert_no_error (err);
      }
      g_assert_true (vh_model_predict (m, fc, 0, &err));
      g_assert_no_error (err);

      /* Every expected score of this model and flags. */
      for (guint k = 0; k < fr->out->len; k++) {
        gchar **kl = g_ptr_array_index (fr->out, k);
        gdouble want = g_ascii_strtod (kl[6], NULL), got;
        if (strcmp (kl[1], ol[1]) || strcmp (kl[2], ol[2]) ||
            strcmp (kl[3], ol[3]) || strcmp (kl[4], ol[4]))
          continue;
        g_assert_true (vh_feature_collector_get (fc, kl[5], 0, &got));
        if (fabs (got - want) > 1e-9 * MAX (1.0, fabs (want)))
          g_error ("%s %s %s: %.17g, libvmaf %.17g", fr->label, key, kl[5],
              got, want);
        n_checked++;
      }
    }
  }
  g_test_message ("%u scores equal libvmaf's", n_checked);
  g_assert_cmpuint (n_checked, >, 100);
}

/* ------------------------------------------------------------------ */
/* Golden logs: predictions from libvmaf's logged features against its
 * logged scores, every frame of every pair. */

typedef struct
{
  const gchar *version;
  const gchar *name;            /* score name in the golden logs */
  const gchar *file;
  gboolean enable_transform;
} GoldenModel;

static const GoldenModel golden_models[] = {
  {"vmaf_v0.6.1", "vmaf", "vmaf_v0.6.1+psnr.json", FALSE},
  {"vmaf_v0.6.1neg", "vmaf_neg", "models_extra.json", FALSE},
  {"vmaf_4k_v0.6.1", "vmaf_4k", "models_extra.json", FALSE},
  {"vmaf_v0.6.1", "vmaf_transform", "models_extra.json", TRUE},
  {"vmaf_b_v0.6.3", "vmaf_b", "models_extra.json", FALSE},
};

#define GOLDEN_TOLERANCE 1e-4
#define LOG_ROUNDING 5e-7       /* the logs print 6 decimals */

/* A fresh collector holding one frame's features (perturbed by @delta at
 * feature @bump, if any) and the model's scores for it. */
static VhFeatureCollector *
predict_one (const VhModel * m, const gdouble * feat, gint bump, gdouble delta)
{
  VhFeatureCollector *fc = vh_feature_collector_new ();
  g_autoptr (GError) err = NULL;

  for (guint i = 0; i < vh_model_n_features (m); i++)
    vh_feature_collector_append (fc, vh_model_feature_output_name (m, i), 0,
        feat[i] + ((gint) i == bump ? delta : 0.0), NULL);
  g_assert_true (vh_model_predict (m, fc, 0, &err));
  g_assert_no_error (err);
  return fc;
}

/* How far @score can move when each logged feature moves within its
 * rounding interval, plus the rounding of the logged score itself: the
 * sum over features of the larger change at +-half a unit of the sixth
 * decimal. Linear in the small steps, which the model is at this scale
 * except exactly at a clip or kink, where one side's change bounds it. */
static gdouble
rounding_bound (const VhModel * m, const gdouble * feat, const gchar * score)
{
  gdouble base, bound = LOG_ROUNDING;
  g_autoptr (VhFeatureCollector) fc0 = predict_one (m, feat, -1, 0.0);

  g_assert_true (vh_feature_collector_get (fc0, score, 0, &base));
  for (guint i = 0; i < vh_model_n_features (m); i++) {
    gdouble worst = 0.0;
    for (gint s = -1; s <= 1; s += 2) {
      g_autoptr (VhFeatureCollector) fc = predict_one (m, feat, i,
          s * LOG_ROUNDING);
      gdouble v;
      g_assert_true (vh_feature_collector_get (fc, score, 0, &v));
      worst = MAX (worst, fabs (v - base));
    }
    bound += worst;
  }
  return bound;
}

typedef struct
{
  gdouble max_diff;
  gdouble max_over_bound;       /* worst diff / rounding bound, where > 1e-4 */
  guint n_values;
  guint n_over_tolerance;       /* explained by rounding */
} Stat;

static void
stat_add (GHashTable * stats, const gchar * name, gdouble diff)
{
  Stat *s = g_hash_table_lookup (stats, name);

  if (!s) {
    s = g_new0 (Stat, 1);
    g_hash_table_insert (stats, g_strdup (name), s);
  }
  s->max_diff = MAX (s->max_diff, diff);
  s->n_values++;
}

static void
check_golden_model (const VhGoldenPair * pair, const GoldenModel * gm,
    GHashTable * stats)
{
  VhModelConfig cfg = { gm->name, gm->enable_transform, FALSE };
  g_autoptr (GError) err = NULL;
  g_autoptr (VhModel) m = vh_model_new_builtin (gm->version, &cfg, &err);
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  VhGoldenScores *gs[2];
  const gchar *const *outs;
  guint n_frames, n_feat;

  g_assert_no_error (err);
  gs[0] = vh_golden_scores_load (pair, "vmaf_v0.6.1+psnr.json", &err);
  g_assert_no_error (err);
  gs[1] = vh_golden_scores_load (pair, gm->file, &err);
  g_assert_no_error (err);
  if (!gs[0] || !gs[1]) {
    vh_golden_scores_free (gs[0]);
    vh_golden_scores_free (gs[1]);
    return;
  }
  n_frames = vh_golden_scores_n_frames (gs[1]);
  n_feat = vh_model_n_features (m);
  outs = vh_model_output_names (m);

  for (guint f = 0; f < n_frames; f++) {
    gdouble feat[64];

    for (guint i = 0; i < n_feat; i++) {
      const gchar *name = vh_model_feature_output_name (m, i);
      g_assert_true (vh_golden_scores_get (gs[1], f, name, &feat[i]) ||
          vh_golden_scores_get (gs[0], f, name, &feat[i]));
      vh_feature_collector_append (fc, name, f, feat[i], &err);
      g_assert_no_error (err);
    }
    g_assert_true (vh_model_predict (m, fc, f, &err));
    g_assert_no_error (err);

    for (guint k = 0; outs[k]; k++) {
      gdouble want, got, diff;
      Stat *st;

      g_assert_true (vh_golden_scores_get (gs[1], f, outs[k], &want));
      g_assert_true (vh_feature_collector_get (fc, outs[k], f, &got));
      diff = fabs (got - want);
      /* Members vmaf_b_0001.. pooled into one row. */
      stat_add (stats, g_str_has_prefix (outs[k], "vmaf_b_0") ?
          "vmaf_b_00NN" : outs[k], diff);
      if (diff <= GOLDEN_TOLERANCE)
        continue;
      /* libvmaf scored unrounded features; we only have its six logged
       * decimals. Above 1e-4 the difference must be one that rounding
       * the inputs explains (test_exact shows the arithmetic itself is
       * libvmaf's). */
      {
        gdouble bound = rounding_bound (m, feat, outs[k]);
        st = g_hash_table_lookup (stats, g_str_has_prefix (outs[k],
                "vmaf_b_0") ? "vmaf_b_00NN" : outs[k]);
        st->n_over_tolerance++;
        st->max_over_bound = MAX (st->max_over_bound, diff / bound);
        if (diff > bound)
          g_error ("%s frame %u %s: %.6f, libvmaf %.6f (diff %.3g, rounding "
              "explains %.3g)", pair->name, f, outs[k], got, want, diff, bound);
      }
    }
  }
  vh_golden_scores_free (gs[0]);
  vh_golden_scores_free (gs[1]);
}

void
test_golden (void)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  g_autoptr (GHashTable) stats = g_hash_table_new_full (g_str_hash,
      g_str_equal, g_free, g_free);
  g_autoptr (GList) keys = NULL;

  if (!pairs || !pairs->len) {
    g_test_skip ("no golden data");
    return;
  }
  for (guint p = 0; p < pairs->len; p++) {
    for (guint g = 0; g < G_N_ELEMENTS (golden_models); g++)
      check_golden_model (g_ptr_array_index (pairs, p), &golden_models[g],
          stats);
  }
  keys = g_list_sort (g_hash_table_get_keys (stats), (GCompareFunc) strcmp);
  g_test_message ("%u pairs; score: max |diff| over every frame (frames "
      "above 1e-4, worst diff / rounding bound)", pairs->len);
  for (GList * l = keys; l; l = l->next) {
    Stat *s = g_hash_table_lookup (stats, l->data);
    g_test_message ("  %-18s %.3g (%u of %u, %.2f)", (gchar *) l->data,
        s->max_diff, s->n_over_tolerance, s->n_values, s->max_over_bound);
  }
  g_assert_cmpuint (g_hash_table_size (stats), ==, 10);
}

/* The enhancement-gain clip: without clipping vmaf_v0.6.1 says 132.733. */
void
test_golden_no_clip (void)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  VhGoldenPair *pair = pairs ?
      vh_golden_pair_find (pairs, "golden_akiyo_multiply_cif_8bit_1f") : NULL;
  VhModelConfig cfg = { NULL, FALSE, TRUE };
  g_autoptr (GError) err = NULL;
  g_autoptr (VhModel) m = NULL;
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  VhGoldenScores *gs;
  gdouble v;

  if (!pair) {
    g_test_skip ("akiyo pair not in this golden set");
    return;
  }
  gs = vh_golden_scores_load (pair, "vmaf_v0.6.1+psnr.json", &err);
  g_assert_no_error (err);
  m = vh_model_new_builtin ("vmaf_v0.6.1", &cfg, &err);
  g_assert_no_error (err);
  for (guint i = 0; i < vh_model_n_features (m); i++) {
    const gchar *name = vh_model_feature_output_name (m, i);
    g_assert_true (vh_golden_scores_get (gs, 0, name, &v));
    vh_feature_collector_append (fc, name, 0, v, NULL);
  }
  vh_golden_scores_free (gs);
  g_assert_true (vh_model_predict (m, fc, 0, &err));
  g_assert_true (vh_feature_collector_get (fc, "vmaf", 0, &v));
  g_test_message ("akiyo without clip: %.6f", v);
  /* The README gives three decimals. */
  g_assert_cmpfloat (fabs (v - 132.733), <, 5e-4);
}
