/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* float_ssim and float_ms_ssim against libvmaf's scores of every golden
 * pair, plus their options and size limits. */

#include "errors.h"
#include "extractor-check.h"

#include <math.h>
#include <string.h>

#define TOLERANCE 1e-4

/* Compares @feature over every pair that has scores in @file. */
static void
check_golden (const gchar * feature, const gchar * file)
{
  const gchar *const metrics[] = { feature, NULL };
  const VhGoldenCheck check = {
    .label = feature,
    .file = file,
    .metrics = metrics,
    .tolerance = TOLERANCE,
    .may_refuse = TRUE,
    .extractor = feature,
  };

  vh_check_golden (&check);
}

static void
test_float_ssim_golden (void)
{
  check_golden ("float_ssim", "feat_float_ssim.json");
}

static void
test_float_ms_ssim_golden (void)
{
  check_golden ("float_ms_ssim", "feat_float_ms_ssim.json");
}

static void
test_too_small (void)
{
  const gchar *const big_scale[] = { "scale", "10", NULL };
  GError *error = NULL;

  /* MS-SSIM refuses either side under 176, naming itself and the limit. */
  g_assert_false (vh_check_init_size ("float_ms_ssim", NULL, 8, 160, 90,
          &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
  g_assert_nonnull (strstr (error->message, "float_ms_ssim"));
  g_assert_nonnull (strstr (error->message, "176"));
  g_clear_error (&error);
  g_assert_false (vh_check_init_size ("float_ms_ssim", NULL, 8, 176, 175,
          &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
  g_clear_error (&error);
  g_assert_true (vh_check_init_size ("float_ms_ssim", NULL, 8, 176, 176,
          &error));
  g_assert_no_error (error);

  /* SSIM runs from 8x8 as libvmaf's (below its window it gives libvmaf's
   * fixed values, see the log-diff NaN cases); smaller is refused. */
  g_assert_true (vh_check_init_size ("float_ssim", NULL, 8, 160, 90, &error));
  g_assert_no_error (error);
  g_assert_true (vh_check_init_size ("float_ssim", NULL, 8, 10, 64, &error));
  g_assert_no_error (error);
  g_assert_false (vh_check_init_size ("float_ssim", NULL, 8, 7, 64, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
  g_clear_error (&error);
  /* Scaled below the window: accepted too (libvmaf's fixed values). */
  g_assert_true (vh_check_init_size ("float_ssim", big_scale, 8, 100, 100,
          &error));
  g_assert_no_error (error);
}

/* Pictures that do not match the initialised geometry are refused. */
static void
test_mismatch (void)
{
  const gchar *const names[] = { "float_ssim", "float_ms_ssim" };
  VhPictureInfo info, other;

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, 320, 240,
          NULL));
  g_assert_true (vh_picture_info_init (&other, VH_PIX_FMT_YUV420, 10, 320,
          240, NULL));
  g_autoptr (VhPicture) good = vh_picture_new (&info);
  g_autoptr (VhPicture) deep = vh_picture_new (&other);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++) {
    g_autoptr (VhFeatureExtractor) fex = vh_check_extractor_new (names[i],
        NULL);
    g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
    GError *error = NULL;

    g_assert_true (vh_feature_extractor_init (fex, &info, &error));
    g_assert_false (vh_feature_extractor_extract (fex, good, deep, 0, fc,
            &error));
    g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, names[i]));
    g_clear_error (&error);
  }
}

static const VhGoldenPair *
find_pair (GPtrArray * pairs, const gchar * name)
{
  const VhGoldenPair *pair = vh_golden_pair_find (pairs, name);

  if (!pair)
    g_test_skip ("golden pair missing");
  return pair;
}

/* The l, c and s means, and the dB forms, of the same run. */
static void
test_options (void)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  const VhGoldenPair *pair = find_pair (pairs, "d_321x241_8bit_noise");
  const VhGoldenPair *same = find_pair (pairs, "d_321x241_8bit_ref");
  const gchar *const lcs[] = { "enable_lcs", "true", NULL };
  const gchar *const db[] = { "enable_db", "true", NULL };
  const gchar *const clip[] = { "enable_db", "true", "clip_db", "true", NULL };
  gdouble v, l, c, s, d;

  if (!pair || !same)
    return;

  g_autoptr (VhFeatureCollector) plain =
      vh_check_score_pair (pair, "float_ssim", NULL, FALSE);
  g_autoptr (VhFeatureCollector) with_lcs =
      vh_check_score_pair (pair, "float_ssim", lcs, FALSE);
  g_autoptr (VhFeatureCollector) with_db =
      vh_check_score_pair (pair, "float_ssim", db, FALSE);
  g_autoptr (VhFeatureCollector) ms_plain =
      vh_check_score_pair (pair, "float_ms_ssim", NULL, FALSE);
  g_autoptr (VhFeatureCollector) ms_lcs =
      vh_check_score_pair (pair, "float_ms_ssim", lcs, FALSE);
  g_autoptr (VhFeatureCollector) ms_db =
      vh_check_score_pair (pair, "float_ms_ssim", db, FALSE);

  for (guint i = 0; i < pair->n_frames; i++) {
    g_assert_true (vh_feature_collector_get (plain, "float_ssim", i, &v));
    g_assert_true (vh_feature_collector_get (with_lcs, "float_ssim", i, &d));
    g_assert_cmpfloat (v, ==, d);
    g_assert_true (vh_feature_collector_get (with_lcs, "float_ssim_l", i, &l));
    g_assert_true (vh_feature_collector_get (with_lcs, "float_ssim_c", i, &c));
    g_assert_true (vh_feature_collector_get (with_lcs, "float_ssim_s", i, &s));
    /* Noise lowers contrast and structure far more than luminance. */
    g_assert_cmpfloat (l, >, c);
    g_assert_cmpfloat (c, <, 1.0);
    g_assert_cmpfloat (s, <, 1.0);
    g_assert_true (vh_feature_collector_get (with_db, "float_ssim", i, &d));
    g_assert_cmpfloat_with_epsilon (d, -10.0 * log10 (1.0 - v), 1e-9);

    /* MS-SSIM is the weighted product of its per-scale terms. */
    static const gdouble w[5] = { 0.0448, 0.2856, 0.3001, 0.2363, 0.1333 };
    gdouble prod = 1.0;
    g_assert_true (vh_feature_collector_get (ms_plain, "float_ms_ssim", i, &v));
    for (guint k = 0; k < 5; k++) {
      gchar name[32];

      g_snprintf (name, sizeof (name), "float_ms_ssim_l_scale%u", k);
      g_assert_true (vh_feature_collector_get (ms_lcs, name, i, &l));
      g_snprintf (name, sizeof (name), "float_ms_ssim_c_scale%u", k);
      g_assert_true (vh_feature_collector_get (ms_lcs, name, i, &c));
      g_snprintf (name, sizeof (name), "float_ms_ssim_s_scale%u", k);
      g_assert_true (vh_feature_collector_get (ms_lcs, name, i, &s));
      prod *= (k == 4 ? pow (l, w[k]) : 1.0) * pow (c, w[k]) * pow (s, w[k]);
    }
    g_assert_cmpfloat_with_epsilon (prod, v, 1e-6);
    g_assert_true (vh_feature_collector_get (ms_db, "float_ms_ssim", i, &d));
    g_assert_cmpfloat_with_epsilon (d, -10.0 * log10 (1.0 - v), 1e-9);
  }

  /* Identical frames: SSIM is 1, so dB is infinite unless clipped at the
   * level of half a code value of error over the frame. */
  g_autoptr (VhFeatureCollector) same_db =
      vh_check_score_pair (same, "float_ssim", db, FALSE);
  g_autoptr (VhFeatureCollector) same_clip =
      vh_check_score_pair (same, "float_ssim", clip, FALSE);
  g_assert_true (vh_feature_collector_get (same_db, "float_ssim", 0, &d));
  g_assert_true (isinf (d) && d > 0);
  g_assert_true (vh_feature_collector_get (same_clip, "float_ssim", 0, &d));
  g_assert_cmpfloat (d, ==, ceil (10.0 * log10 (255.0 * 255.0 * 2.0 * 321 *
              241)));
}

/* An explicit scale replaces the automatic one (4 at 1080p). */
static void
test_scale (void)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  const VhGoldenPair *pair = find_pair (pairs,
      "golden_archer_1920x1080_8bit_1f");
  const gchar *const four[] = { "scale", "4", NULL };
  const gchar *const one[] = { "scale", "1", NULL };
  gdouble a, b, c;

  if (!pair)
    return;
  g_autoptr (VhFeatureCollector) fc_auto =
      vh_check_score_pair (pair, "float_ssim", NULL, FALSE);
  g_autoptr (VhFeatureCollector) fc_four =
      vh_check_score_pair (pair, "float_ssim", four, FALSE);
  g_autoptr (VhFeatureCollector) fc_one =
      vh_check_score_pair (pair, "float_ssim", one, FALSE);
  g_assert_true (vh_feature_collector_get (fc_auto, "float_ssim", 0, &a));
  g_assert_true (vh_feature_collector_get (fc_four, "float_ssim", 0, &b));
  g_assert_true (vh_feature_collector_get (fc_one, "float_ssim", 0, &c));
  g_assert_cmpfloat (a, ==, b);
  g_assert_cmpfloat (fabs (a - c), >, 1e-4);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/float-ssim/golden", test_float_ssim_golden);
  g_test_add_func ("/float-ms-ssim/golden", test_float_ms_ssim_golden);
  g_test_add_func ("/float-ssim/too-small", test_too_small);
  g_test_add_func ("/float-ssim/mismatch", test_mismatch);
  g_test_add_func ("/float-ssim/options", test_options);
  g_test_add_func ("/float-ssim/scale", test_scale);
  return g_test_run ();
}
