/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "extractor-check.h"

#include <math.h>
#include <string.h>

VhFeatureExtractor *
vh_check_extractor_new (const gchar * name, const gchar * const *opts)
{
  const VhFeatureExtractorClass *klass =
      vh_feature_extractor_find (name, VH_BACKEND_CPU);
  VhFeatureExtractor *fex;

  g_assert_nonnull (klass);
  g_assert_cmpstr (klass->name, ==, name);
  fex = vh_feature_extractor_new (klass);
  for (guint i = 0; opts && opts[i]; i += 2) {
    g_autoptr (GError) error = NULL;
    gboolean ok = vh_feature_extractor_set_option (fex, opts[i], opts[i + 1],
        &error);

    g_assert_no_error (error);
    g_assert_true (ok);
  }
  return fex;
}

void
vh_check_extractor_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    gboolean portable)
{
  g_autoptr (GError) error = NULL;
  gboolean ok;

  fex->cpu_mask = portable ? VH_CPU_MASK_PORTABLE : 0;
  ok = vh_feature_extractor_init (fex, info, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
}

VhFeatureExtractor *
vh_check_extractor_new_for (const gchar * name, const gchar * const *opts,
    const VhPictureInfo * info, gboolean portable)
{
  VhFeatureExtractor *fex = vh_check_extractor_new (name, opts);

  vh_check_extractor_init (fex, info, portable);
  return fex;
}

gboolean
vh_check_init_size (const gchar * name, const gchar * const *opts, guint bpc,
    guint width, guint height, GError ** error)
{
  g_autoptr (VhFeatureExtractor) fex = vh_check_extractor_new (name, opts);
  VhPictureInfo info;

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, bpc, width,
          height, NULL));
  return vh_feature_extractor_init (fex, &info, error);
}

VhFeatureCollector *
vh_check_score_pair (const VhGoldenPair * pair, const gchar * name,
    const gchar * const *opts, gboolean portable)
{
  VhFeatureCollector *fc = vh_feature_collector_new ();
  g_autoptr (GError) error = NULL;
  VhPictureInfo info;
  gboolean ok;

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, pair->bpc,
          pair->width, pair->height, &error));
  g_autoptr (VhFeatureExtractor) fex = vh_check_extractor_new_for (name, opts,
      &info, portable);

  for (guint i = 0; i < pair->n_frames; i++) {
    g_autoptr (VhPicture) ref = vh_golden_read_frame (pair, TRUE, i, &error);
    g_assert_no_error (error);
    g_autoptr (VhPicture) dist = vh_golden_read_frame (pair, FALSE, i, &error);
    g_assert_no_error (error);
    ok = vh_feature_extractor_extract (fex, ref, dist, i, fc, &error);
    g_assert_no_error (error);
    g_assert_true (ok);
  }
  ok = vh_feature_extractor_flush (fex, fc, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  return fc;
}

guint
vh_check_collectors_identical (VhFeatureCollector * a, VhFeatureCollector * b,
    guint n_frames, gboolean may_be_unset, const gchar * what)
{
  guint n = 0;

  g_assert_cmpuint (vh_feature_collector_n_features (a), ==,
      vh_feature_collector_n_features (b));
  for (guint f = 0; f < vh_feature_collector_n_features (a); f++) {
    const gchar *name = vh_feature_collector_feature_name (a, f);

    for (guint i = 0; i < n_frames; i++) {
      gdouble va = 0.0, vb = 0.0;
      gboolean has_a = vh_feature_collector_get (a, name, i, &va);
      gboolean has_b = vh_feature_collector_get (b, name, i, &vb);

      if (!has_a && !has_b && !may_be_unset)
        g_error ("%s: %s frame %u: no value", what, name, i);
      /* Compared as bits: equal values must come from equal arithmetic. */
      if (has_a != has_b || memcmp (&va, &vb, sizeof (va)) != 0)
        g_error ("%s: %s frame %u: %.17g (%s) against %.17g (%s)", what,
            name, i, va, has_a ? "set" : "unset", vb, has_b ? "set" : "unset");
      n++;
    }
  }
  return n;
}

void
vh_check_fill_luma (VhPicture * pic, GRand * rand, guint mode)
{
  const guint max = (1u << pic->info.bpc) - 1;

  for (guint y = 0; y < pic->height[0]; y++) {
    for (guint x = 0; x < pic->width[0]; x++) {
      guint v;

      switch (mode % 5) {
        case 0:
          v = g_rand_int_range (rand, 0, max + 1);
          break;
        case 1:
          v = ((x ^ y) & 1) ? max : 0;
          break;
        case 2:
          v = max;
          break;
        case 3:
          v = MIN (max, (x * 3 + y * 2) % (max + 1) +
              (guint) g_rand_int_range (rand, 0, 3));
          break;
        default:
          v = max / 2 + g_rand_int_range (rand, 0, MAX (max / 64, 2));
          break;
      }
      vh_check_set_sample (pic, 0, x, y, v);
    }
  }
}

void
vh_check_golden (const VhGoldenCheck * check)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  const guint n_metrics = g_strv_length ((gchar **) check->metrics);
  g_autofree gdouble *worst = g_new0 (gdouble, n_metrics);
  guint n_checked = 0, n_frames = 0;

  if (pairs->len == 0) {
    g_test_skip ("no golden data");
    return;
  }
  for (guint p = 0; p < pairs->len; p++) {
    const VhGoldenPair *pair = g_ptr_array_index (pairs, p);
    g_autoptr (GError) error = NULL;
    VhGoldenScores *gs = vh_golden_scores_load (pair, check->file, &error);
    gdouble pair_max = 0.0;

    g_assert_no_error (error);
    if (!gs || (check->may_refuse && vh_golden_scores_n_frames (gs) == 0)) {
      g_test_message ("%s: %s has no %s scores, passed over", check->label,
          pair->name, check->file);
      vh_golden_scores_free (gs);
      continue;
    }
    g_assert_cmpuint (vh_golden_scores_n_frames (gs), ==, pair->n_frames);

    g_autoptr (VhFeatureCollector) fc = check->score ?
        check->score (pair, check->user_data) : vh_check_score_pair (pair,
        check->extractor, check->opts, check->portable);
    for (guint m = 0; m < n_metrics; m++) {
      g_autofree gchar *metric = g_strconcat (check->metrics[m],
          check->suffix, NULL);

      for (guint i = 0; i < pair->n_frames; i++) {
        gdouble want, got, diff;

        if (!vh_golden_scores_get (gs, i, metric, &want))
          g_error ("%s: %s of %s has no %s for frame %u", check->label,
              check->file, pair->name, metric, i);
        if (!vh_feature_collector_get (fc, metric, i, &got))
          g_error ("%s %s frame %u: missing", metric, pair->name, i);
        diff = fabs (got - want);
        /* Written so that NaN fails too. */
        if (!(diff <= check->tolerance))
          g_error ("%s %s frame %u: got %.6f, libvmaf %.6f", metric,
              pair->name, i, got, want);
        if (check->value)
          check->value (metric, got, want, check->user_data);
        worst[m] = MAX (worst[m], diff);
        pair_max = MAX (pair_max, diff);
      }
    }
    g_print ("# %s %-38s %3u frames, max |diff| %.3g\n", check->label,
        pair->name, pair->n_frames, pair_max);
    n_checked++;
    n_frames += pair->n_frames;
    vh_golden_scores_free (gs);
  }
  for (guint m = 0; m < n_metrics; m++)
    g_print ("# %s: %s%s: %u pairs, %u frames, max |diff| %.3g\n",
        check->label, check->metrics[m], check->suffix ? check->suffix : "",
        n_checked, n_frames, worst[m]);
  g_assert_cmpuint (n_checked, >, 0);
}
