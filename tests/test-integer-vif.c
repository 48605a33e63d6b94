/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Integer VIF against libvmaf's scores of every golden pair (default gain
 * limit and the neg model's limit of 1), its size limit, and the agreement
 * of the SIMD and portable kernels. */

#include "feature-extractor.h"
#include "errors.h"
#include "golden.h"

#include <math.h>
#include <string.h>

#define TOLERANCE 1e-4
#define N_SCALES 4

static const gchar *const scale_names[N_SCALES] = {
  "integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2",
  "integer_vif_scale3",
};

static VhFeatureExtractor *
new_vif (const gchar * const *opts)
{
  const VhFeatureExtractorClass *klass =
      vh_feature_extractor_find ("vif", VH_BACKEND_CPU);
  VhFeatureExtractor *fex;

  g_assert_nonnull (klass);
  fex = vh_feature_extractor_new (klass);
  for (guint i = 0; opts && opts[i]; i += 2) {
    g_autoptr (GError) error = NULL;

    g_assert_true (vh_feature_extractor_set_option (fex, opts[i],
            opts[i + 1], &error));
    g_assert_no_error (error);
  }
  return fex;
}

/* An initialised instance; @portable forces the portable kernels. */
static VhFeatureExtractor *
new_vif_for (const VhPictureInfo * info, const gchar * const *opts,
    gboolean portable)
{
  VhFeatureExtractor *fex = new_vif (opts);
  g_autoptr (GError) error = NULL;

  if (portable)
    g_setenv ("VH_DISABLE_SIMD", "1", TRUE);
  g_assert_true (vh_feature_extractor_init (fex, info, &error));
  g_assert_no_error (error);
  if (portable)
    g_unsetenv ("VH_DISABLE_SIMD");
  return fex;
}

static VhFeatureCollector *
run_pair (const VhGoldenPair * pair, const gchar * const *opts,
    gboolean portable)
{
  VhFeatureCollector *fc = vh_feature_collector_new ();
  g_autoptr (GError) error = NULL;
  VhPictureInfo info;

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, pair->bpc,
          pair->width, pair->height, &error));
  g_autoptr (VhFeatureExtractor) fex = new_vif_for (&info, opts, portable);

  for (guint i = 0; i < pair->n_frames; i++) {
    g_autoptr (VhPicture) ref = vh_golden_read_frame (pair, TRUE, i, &error);
    g_assert_no_error (error);
    g_autoptr (VhPicture) dist = vh_golden_read_frame (pair, FALSE, i, &error);
    g_assert_no_error (error);
    g_assert_true (vh_feature_extractor_extract (fex, ref, dist, i, fc,
            &error));
    g_assert_no_error (error);
  }
  return fc;
}

/* Compares the four scales named with @suffix against @file's values and
 * folds the largest difference of each scale into @worst. */
static gboolean
compare_golden (const VhGoldenPair * pair, const gchar * file,
    const gchar * suffix, const gchar * const *opts, gboolean portable,
    gdouble * worst)
{
  g_autoptr (GError) error = NULL;
  VhGoldenScores *gs = vh_golden_scores_load (pair, file, &error);
  gdouble max_diff = 0.0;

  g_assert_no_error (error);
  if (!gs || vh_golden_scores_n_frames (gs) == 0) {
    vh_golden_scores_free (gs);
    return FALSE;
  }
  g_assert_cmpuint (vh_golden_scores_n_frames (gs), ==, pair->n_frames);

  g_autoptr (VhFeatureCollector) fc = run_pair (pair, opts, portable);
  for (guint s = 0; s < N_SCALES; s++) {
    g_autofree gchar *name = g_strconcat (scale_names[s], suffix, NULL);

    for (guint i = 0; i < pair->n_frames; i++) {
      gdouble want, got, diff;

      g_assert_true (vh_golden_scores_get (gs, i, name, &want));
      g_assert_true (vh_feature_collector_get (fc, name, i, &got));
      diff = fabs (got - want);
      if (diff > TOLERANCE)
        g_error ("%s %s frame %u: got %.6f, libvmaf %.6f", name, pair->name,
            i, got, want);
      worst[s] = MAX (worst[s], diff);
      max_diff = MAX (max_diff, diff);
    }
  }
  g_print ("# vif%-6s %-8s %-38s max |diff| %.3g\n", suffix,
      portable ? "portable" : "default", pair->name, max_diff);
  vh_golden_scores_free (gs);
  return TRUE;
}

static void
check_golden (const gchar * file, const gchar * suffix,
    const gchar * const *opts, gboolean portable)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  gdouble worst[N_SCALES] = { 0 };
  guint n_checked = 0;

  if (pairs->len == 0) {
    g_test_skip ("no golden data");
    return;
  }
  for (guint p = 0; p < pairs->len; p++) {
    if (compare_golden (g_ptr_array_index (pairs, p), file, suffix, opts,
            portable, worst))
      n_checked++;
  }
  for (guint s = 0; s < N_SCALES; s++)
    g_print ("# %s%s (%s): %u pairs, max |diff| %.3g\n", scale_names[s],
        suffix, portable ? "portable" : "default", n_checked, worst[s]);
  g_assert_cmpuint (n_checked, >, 0);
}

static void
test_golden (void)
{
  check_golden ("feat_vif.json", "", NULL, FALSE);
}

static void
test_golden_egl1 (void)
{
  const gchar *const opts[] = { "vif_enhn_gain_limit", "1.0", NULL };

  check_golden ("models_extra.json", "_egl_1", opts, FALSE);
}

static void
test_golden_portable (void)
{
  const gchar *const opts[] = { "vif_enhn_gain_limit", "1.0", NULL };

  check_golden ("feat_vif.json", "", NULL, TRUE);
  check_golden ("models_extra.json", "_egl_1", opts, TRUE);
}

static gboolean
init_size (guint w, guint h, guint bpc, GError ** error)
{
  g_autoptr (VhFeatureExtractor) fex = new_vif (NULL);
  VhPictureInfo info;

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, bpc, w, h,
          NULL));
  return vh_feature_extractor_init (fex, &info, error);
}

static void
test_too_small (void)
{
  GError *error = NULL;

  g_assert_false (init_size (15, 64, 8, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
  g_assert_nonnull (strstr (error->message, "vif"));
  g_clear_error (&error);
  g_assert_false (init_size (64, 15, 10, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
  g_clear_error (&error);
  g_assert_true (init_size (16, 16, 8, &error));
  g_assert_no_error (error);
}

static void
test_bad_options (void)
{
  g_autoptr (VhFeatureExtractor) fex = new_vif (NULL);
  GError *error = NULL;

  g_assert_false (vh_feature_extractor_set_option (fex,
          "vif_enhn_gain_limit", "0.5", &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (vh_feature_extractor_set_option (fex, "vif_kernelscale",
          "1.0", &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
}

/* A mismatching picture is refused with an error, not a crash. */
static void
test_size_mismatch (void)
{
  VhPictureInfo info, other;
  g_autoptr (GError) error = NULL;
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, 64, 48,
          NULL));
  g_assert_true (vh_picture_info_init (&other, VH_PIX_FMT_YUV420, 8, 64, 40,
          NULL));
  g_autoptr (VhFeatureExtractor) fex = new_vif_for (&info, NULL, FALSE);
  g_autoptr (VhPicture) ref = vh_picture_new (&info);
  g_autoptr (VhPicture) dist = vh_picture_new (&other);

  g_assert_false (vh_feature_extractor_extract (fex, ref, dist, 0, fc, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
}

/* Fills the luma with one of several patterns, extremes included, so that
 * the overflow-prone corners of the fixed point are exercised. */
static void
fill_luma (VhPicture * pic, GRand * rand, guint mode)
{
  const guint max = (1u << pic->info.bpc) - 1;

  for (guint y = 0; y < pic->height[0]; y++) {
    gpointer row = vh_picture_row (pic, 0, y);

    for (guint x = 0; x < pic->width[0]; x++) {
      guint v;

      switch (mode) {
        case 0:
          v = g_rand_int_range (rand, 0, max + 1);
          break;
        case 1:
          v = ((x ^ y) & 1) ? max : 0;
          break;
        case 2:
          v = max;
          break;
        default:
          /* Smooth ramp plus mild noise: mostly small variances. */
          v = MIN (max, (x * 3 + y * 2) % (max + 1) +
              (guint) g_rand_int_range (rand, 0, 3));
          break;
      }
      if (pic->info.bpc == 8)
        ((guint8 *) row)[x] = v;
      else
        ((guint16 *) row)[x] = v;
    }
  }
}

/* The SIMD kernels against the portable ones, bit for bit, on every
 * output including the debug numerators and denominators. */
static void
test_simd_matches_portable (void)
{
  static const guint sizes[][2] = {
    {16, 16}, {17, 19}, {33, 64}, {95, 31}, {160, 90}, {321, 241},
  };
  static const guint depths[] = { 8, 10, 12, 16 };
  const gchar *const opts[] = { "debug", "true", NULL };
  const gchar *const egl[] = { "debug", "true", "vif_enhn_gain_limit", "1.5",
    NULL
  };
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  guint n_values = 0;

  for (guint si = 0; si < G_N_ELEMENTS (sizes); si++) {
    for (guint di = 0; di < G_N_ELEMENTS (depths); di++) {
      VhPictureInfo info;

      g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV400,
              depths[di], sizes[si][0], sizes[si][1], NULL));
      for (guint oi = 0; oi < 2; oi++) {
        const gchar *const *o = oi ? egl : opts;
        g_autoptr (VhFeatureExtractor) fast = new_vif_for (&info, o, FALSE);
        g_autoptr (VhFeatureExtractor) slow = new_vif_for (&info, o, TRUE);
        g_autoptr (VhFeatureCollector) fc_fast = vh_feature_collector_new ();
        g_autoptr (VhFeatureCollector) fc_slow = vh_feature_collector_new ();
        g_autoptr (GError) error = NULL;

        for (guint frame = 0; frame < 6; frame++) {
          g_autoptr (VhPicture) ref = vh_picture_new (&info);
          g_autoptr (VhPicture) dist = vh_picture_new (&info);

          fill_luma (ref, rand, frame % 4);
          fill_luma (dist, rand, (frame + frame / 4) % 4);
          g_assert_true (vh_feature_extractor_extract (fast, ref, dist,
                  frame, fc_fast, &error));
          g_assert_true (vh_feature_extractor_extract (slow, ref, dist,
                  frame, fc_slow, &error));
          g_assert_no_error (error);
        }
        g_assert_cmpuint (vh_feature_collector_n_features (fc_fast), ==,
            vh_feature_collector_n_features (fc_slow));
        for (guint f = 0; f < vh_feature_collector_n_features (fc_slow); f++) {
          const gchar *name = vh_feature_collector_feature_name (fc_slow, f);

          for (guint frame = 0; frame < 6; frame++) {
            gdouble a, b;

            g_assert_true (vh_feature_collector_get (fc_fast, name, frame, &a));
            g_assert_true (vh_feature_collector_get (fc_slow, name, frame, &b));
            if (memcmp (&a, &b, sizeof (a)) != 0)
              g_error ("%s %ux%u %u-bit frame %u: SIMD %.17g, portable %.17g",
                  name, info.width, info.height, info.bpc, frame, a, b);
            n_values++;
          }
        }
      }
    }
  }
  g_print ("# SIMD and portable kernels agree on %u values\n", n_values);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integer-vif/golden", test_golden);
  g_test_add_func ("/integer-vif/golden-egl1", test_golden_egl1);
  g_test_add_func ("/integer-vif/golden-portable", test_golden_portable);
  g_test_add_func ("/integer-vif/too-small", test_too_small);
  g_test_add_func ("/integer-vif/bad-options", test_bad_options);
  g_test_add_func ("/integer-vif/size-mismatch", test_size_mismatch);
  g_test_add_func ("/integer-vif/simd-matches-portable",
      test_simd_matches_portable);
  return g_test_run ();
}
