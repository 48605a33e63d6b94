/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "errors.h"
#include "golden.h"
#include "pool.h"

#define LOG_ROUNDING 5e-7       /* golden logs print 6 decimals */

static const VhPoolMethod all_methods[] = {
  VH_POOL_MEAN, VH_POOL_HARMONIC_MEAN, VH_POOL_MIN, VH_POOL_MAX
};

static void
test_method_names (void)
{
  static const gchar *const names[] = { "mean", "harmonic_mean", "min",
    "max"
  };
  VhPoolMethod m;

  for (guint i = 0; i < G_N_ELEMENTS (all_methods); i++) {
    g_assert_cmpstr (vh_pool_method_to_string (all_methods[i]), ==, names[i]);
    g_assert_true (vh_pool_method_from_string (names[i], &m));
    g_assert_cmpint (m, ==, all_methods[i]);
  }
  g_assert_false (vh_pool_method_from_string ("median", &m));
  g_assert_false (vh_pool_method_from_string (NULL, &m));
}

static gdouble
pool (VhFeatureCollector * fc, VhPoolMethod m, guint first, guint last,
    guint subsample)
{
  g_autoptr (GError) err = NULL;
  gdouble v = NAN;

  g_assert_true (vh_pool_feature (fc, "x", m, first, last, subsample, &v,
          &err));
  g_assert_no_error (err);
  return v;
}

static void
test_subsample (void)
{
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  g_autoptr (GError) err = NULL;
  gdouble v;

  for (guint i = 0; i < 6; i++)
    vh_feature_collector_append (fc, "x", i, i + 1.0, NULL);

  g_assert_cmpfloat (pool (fc, VH_POOL_MEAN, 0, 5, 1), ==, 3.5);
  g_assert_cmpfloat (pool (fc, VH_POOL_MIN, 0, 5, 1), ==, 1.0);
  g_assert_cmpfloat (pool (fc, VH_POOL_MAX, 0, 5, 1), ==, 6.0);
  /* n / sum (1 / (x + 1)) - 1 */
  g_assert_cmpfloat_with_epsilon (pool (fc, VH_POOL_HARMONIC_MEAN, 0, 5, 1),
      6.0 / (1 / 2.0 + 1 / 3.0 + 1 / 4.0 + 1 / 5.0 + 1 / 6.0 + 1 / 7.0) - 1,
      1e-12);

  /* Every second frame counts: 0, 2, 4. */
  g_assert_cmpfloat (pool (fc, VH_POOL_MEAN, 0, 5, 2), ==, 3.0);
  g_assert_cmpfloat (pool (fc, VH_POOL_MAX, 0, 5, 2), ==, 5.0);
  g_assert_cmpfloat_with_epsilon (pool (fc, VH_POOL_HARMONIC_MEAN, 0, 5, 2),
      3.0 / (1 / 2.0 + 1 / 4.0 + 1 / 6.0) - 1, 1e-12);

  /* libvmaf seeds min and max at the first frame of the range only; when
   * the subsampling skips it they start from 0. */
  g_assert_cmpfloat (pool (fc, VH_POOL_MEAN, 1, 5, 2), ==, 4.0);
  g_assert_cmpfloat (pool (fc, VH_POOL_MIN, 1, 5, 2), ==, 0.0);
  g_assert_cmpfloat (pool (fc, VH_POOL_MAX, 1, 5, 2), ==, 5.0);

  g_assert_cmpfloat (pool (fc, VH_POOL_MEAN, 3, 3, 1), ==, 4.0);

  /* Errors: a hole, an empty range, nothing counted. */
  g_assert_false (vh_pool_feature (fc, "x", VH_POOL_MEAN, 0, 6, 1, &v, &err));
  g_assert_nonnull (strstr (err->message, "'x'"));
  g_assert_nonnull (strstr (err->message, "6"));
  g_clear_error (&err);
  g_assert_false (vh_pool_feature (fc, "y", VH_POOL_MEAN, 0, 1, 1, &v, &err));
  g_assert_nonnull (strstr (err->message, "'y'"));
  g_clear_error (&err);
  g_assert_false (vh_pool_feature (fc, "x", VH_POOL_MEAN, 3, 2, 1, &v, &err));
  g_assert_error (err, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_clear_error (&err);
  g_assert_false (vh_pool_feature (fc, "x", VH_POOL_MEAN, 3, 3, 2, &v, &err));
  g_assert_error (err, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
}

/* Percentiles: numpy's default (linear interpolation between the
 * closest ranks), over the frames vh_pool_feature() counts. */
static void
test_percentile (void)
{
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  g_autoptr (GError) err = NULL;
  g_autoptr (GArray) v = g_array_new (FALSE, FALSE, sizeof (gdouble));
  const gdouble x[] = { 4, 1, 3, 2, 10, 0 };
  const gdouble *s;

  for (guint i = 0; i < G_N_ELEMENTS (x); i++)
    vh_feature_collector_append (fc, "x", i, x[i], NULL);
  /* frames 0..3: 4 1 3 2; numpy.percentile([4,1,3,2], [0,25,50,90,100]) */
  g_assert_true (vh_pool_feature_sorted (fc, "x", 0, 3, 1, v, &err));
  g_assert_cmpuint (v->len, ==, 4);
  s = (const gdouble *) v->data;
  g_assert_cmpfloat (vh_pool_percentile (s, 4, 0), ==, 1.0);
  g_assert_cmpfloat (vh_pool_percentile (s, 4, 25), ==, 1.75);
  g_assert_cmpfloat (vh_pool_percentile (s, 4, 50), ==, 2.5);
  g_assert_cmpfloat_with_epsilon (vh_pool_percentile (s, 4, 90), 3.7, 1e-12);
  g_assert_cmpfloat (vh_pool_percentile (s, 4, 100), ==, 4.0);
  /* one value: itself at every level */
  g_assert_cmpfloat (vh_pool_percentile (s + 2, 1, 37), ==, 3.0);
  /* every second frame: 4 3 10 */
  g_assert_true (vh_pool_feature_sorted (fc, "x", 0, 5, 2, v, &err));
  g_assert_cmpuint (v->len, ==, 3);
  s = (const gdouble *) v->data;
  g_assert_cmpfloat (vh_pool_percentile (s, 3, 50), ==, 4.0);
  g_assert_cmpfloat (vh_pool_percentile (s, 3, 75), ==, 7.0);
  /* errors as vh_pool_feature()'s */
  g_assert_false (vh_pool_feature_sorted (fc, "x", 0, 6, 1, v, &err));
  g_assert_nonnull (strstr (err->message, "no value for frame 6"));
  g_clear_error (&err);
  g_assert_false (vh_pool_feature_sorted (fc, "x", 3, 3, 2, v, &err));
  g_assert_error (err, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
}

/* How far a pooled value of 6-decimal inputs can be from libvmaf's, which
 * pooled the unrounded values and then rounded: half a unit of the sixth
 * decimal for the output, plus each input's rounding times the pooled
 * value's sensitivity to it (1/n for the mean; (H+1)^2 / (n (x+1)^2) for
 * the harmonic mean H; min and max are rounded inputs themselves). */
static gdouble
pooled_tolerance (VhPoolMethod m, const gdouble * x, guint n, gdouble pooled)
{
  gdouble sens = 0.0;

  switch (m) {
    case VH_POOL_MIN:
    case VH_POOL_MAX:
      return LOG_ROUNDING + 1e-12;
    case VH_POOL_MEAN:
      return 2 * LOG_ROUNDING + 1e-12;
    case VH_POOL_HARMONIC_MEAN:
      for (guint i = 0; i < n; i++)
        sens += (pooled + 1) * (pooled + 1) / (n * (x[i] + 1) * (x[i] + 1));
      return LOG_ROUNDING * (1 + sens) + 1e-12;
  }
  return 0;
}

static void
check_file (const VhGoldenPair * pair, const gchar * file, gdouble * worst)
{
  g_autoptr (GError) err = NULL;
  VhGoldenScores *gs = vh_golden_scores_load (pair, file, &err);
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  const gchar *const *metrics;
  guint n;

  g_assert_no_error (err);
  if (!gs)
    return;
  n = vh_golden_scores_n_frames (gs);
  metrics = vh_golden_scores_metrics (gs);
  if (n == 0) {
    vh_golden_scores_free (gs);
    return;
  }
  for (guint k = 0; metrics[k]; k++) {
    g_autofree gdouble *x = g_new (gdouble, n);

    for (guint f = 0; f < n; f++) {
      g_assert_true (vh_golden_scores_get (gs, f, metrics[k], &x[f]));
      vh_feature_collector_append (fc, metrics[k], f, x[f], NULL);
    }
    for (guint m = 0; m < G_N_ELEMENTS (all_methods); m++) {
      const gchar *mname = vh_pool_method_to_string (all_methods[m]);
      gdouble want, got, tol;

      g_assert_true (vh_golden_scores_get_pooled (gs, metrics[k], mname,
              &want));
      g_assert_true (vh_pool_feature (fc, metrics[k], all_methods[m], 0,
              n - 1, 1, &got, &err));
      g_assert_no_error (err);
      tol = pooled_tolerance (all_methods[m], x, n, got);
      if (fabs (got - want) > tol)
        g_error ("%s %s %s %s: %.9f, libvmaf %.6f (tolerance %.3g)",
            pair->name, file, metrics[k], mname, got, want, tol);
      worst[m] = MAX (worst[m], fabs (got - want));
    }
  }
  vh_golden_scores_free (gs);
}

/* Every pooled value of every golden log, features and model scores. */
static void
test_golden (void)
{
  static const gchar *const files[] = {
    "vmaf_v0.6.1+psnr.json", "models_extra.json", "feat_adm.json",
    "feat_vif.json", "feat_motion.json", "feat_psnr.json",
    "feat_float_ssim.json", "feat_float_ms_ssim.json", "feat_cambi.json"
  };
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  gdouble worst[G_N_ELEMENTS (all_methods)] = { 0 };

  if (!pairs || !pairs->len) {
    g_test_skip ("no golden data");
    return;
  }
  for (guint p = 0; p < pairs->len; p++) {
    for (guint f = 0; f < G_N_ELEMENTS (files); f++)
      check_file (g_ptr_array_index (pairs, p), files[f], worst);
  }
  for (guint m = 0; m < G_N_ELEMENTS (all_methods); m++)
    g_test_message ("%s: max |diff| %.3g", vh_pool_method_to_string
        (all_methods[m]), worst[m]);
}

/* The running accumulator gives what pooling the stored frames gives. */
static void
test_accumulator (void)
{
  static const gdouble values[] = { 87.5, 0.0, 93.25, 12.0, 100.0, 64.125 };
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  VhPoolAccumulator acc = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++) {
    g_assert_true (vh_feature_collector_append (fc, "x", i, values[i],
            NULL));
    vh_pool_accumulator_add (&acc, values[i]);
    for (guint m = 0; m < G_N_ELEMENTS (all_methods); m++)
      g_assert_cmpfloat (vh_pool_accumulator_get (&acc, all_methods[m]), ==,
          pool (fc, all_methods[m], 0, i, 1));
  }
  g_assert_cmpuint (acc.n, ==, G_N_ELEMENTS (values));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pool/method-names", test_method_names);
  g_test_add_func ("/pool/subsample", test_subsample);
  g_test_add_func ("/pool/accumulator", test_accumulator);
  g_test_add_func ("/pool/percentile", test_percentile);
  g_test_add_func ("/pool/golden", test_golden);
  return g_test_run ();
}
