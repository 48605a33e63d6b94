/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Integer ADM: every value of every frame of every golden pair against
 * libvmaf (default options, and the gain limit of 1 the neg model uses),
 * the size limit, option errors, and bit-for-bit agreement of the SIMD and
 * portable kernels. */

#include "errors.h"
#include "extractor-check.h"

#include <string.h>

#define TOLERANCE 1e-4

static const gchar *const outputs[] = {
  "integer_adm2", "integer_aim", "integer_adm3", "integer_adm_scale0",
  "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3", NULL
};

static void
extract_ok (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc)
{
  GError *error = NULL;
  gboolean ok = vh_feature_extractor_extract (fex, ref, dist, index, fc,
      &error);

  g_assert_no_error (error);
  g_assert_true (ok);
}

/* Scores @pair with the SIMD and the portable kernels and checks that they
 * agree exactly (NaN, as libvmaf gives for some CSF settings, reads as
 * unset). */
static VhFeatureCollector *
score_pair (const VhGoldenPair * pair, gpointer opts)
{
  VhFeatureCollector *fc = vh_check_score_pair (pair, "adm", opts, FALSE);
  g_autoptr (VhFeatureCollector) fc_slow = vh_check_score_pair (pair, "adm",
      opts, TRUE);

  vh_check_collectors_identical (fc, fc_slow, pair->n_frames, TRUE, pair->name);
  return fc;
}

/* Both kernels over every pair against libvmaf's @file. */
static void
check_golden (const gchar * file, const gchar * suffix,
    const gchar * const *opts)
{
  const VhGoldenCheck check = {
    .label = "adm",
    .file = file,
    .metrics = outputs,
    .suffix = suffix,
    .tolerance = TOLERANCE,
    .may_refuse = TRUE,
    .score = score_pair,
    .user_data = (gpointer) opts,
  };

  vh_check_golden (&check);
}

static void
test_golden (void)
{
  check_golden ("feat_adm.json", "", NULL);
}

static void
test_golden_egl1 (void)
{
  const gchar *const opts[] = { "adm_enhn_gain_limit", "1.0", NULL };

  check_golden ("models_extra.json", "_egl_1", opts);
}

static void
test_too_small (void)
{
  GError *error = NULL;

  g_assert_false (vh_check_init_size ("adm", NULL, 8, 32, 200, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
  g_assert_nonnull (strstr (error->message, "adm"));
  g_clear_error (&error);
  g_assert_false (vh_check_init_size ("adm", NULL, 8, 200, 32, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
  g_clear_error (&error);
  g_assert_true (vh_check_init_size ("adm", NULL, 8, 33, 33, &error));
  g_assert_no_error (error);
}

static void
test_bad_options (void)
{
  g_autoptr (VhFeatureExtractor) fex = vh_check_extractor_new ("adm", NULL);
  g_autoptr (VhFeatureExtractor) near = NULL;
  g_autoptr (VhFeatureExtractor) blend = NULL;
  GError *error = NULL;
  VhPictureInfo info;

  g_assert_false (vh_feature_extractor_set_option (fex,
          "adm_enhn_gain_limit", "0.9", &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (vh_feature_extractor_set_option (fex, "adm_csf_mode", "4",
          &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* Viewing conditions finer than 3 x 1080 are refused at init. */
  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, 64, 64,
          NULL));
  const gchar *const close_view[] = { "adm_norm_view_dist", "2.0", NULL };
  near = vh_check_extractor_new ("adm", close_view);
  g_assert_false (vh_feature_extractor_init (near, &info, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* The blended CSFs exist for a few viewing conditions only. */
  const gchar *const odd_blend[] = { "adm_csf_mode", "2",
    "adm_norm_view_dist", "4.0", NULL
  };
  blend = vh_check_extractor_new ("adm", odd_blend);
  g_assert_false (vh_feature_extractor_init (blend, &info, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
}

static void
test_picture_mismatch (void)
{
  VhPictureInfo info, other;
  GError *error = NULL;
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 10, 64, 48,
          NULL));
  g_assert_true (vh_picture_info_init (&other, VH_PIX_FMT_YUV420, 10, 48, 64,
          NULL));
  g_autoptr (VhFeatureExtractor) fex = vh_check_extractor_new_for ("adm", NULL,
      &info, FALSE);
  g_autoptr (VhPicture) ref = vh_picture_new (&info);
  g_autoptr (VhPicture) dist = vh_picture_new (&other);

  g_assert_false (vh_feature_extractor_extract (fex, ref, dist, 0, fc, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
}

/* Luma patterns meant to reach the corners of the fixed-point ranges:
 * full-range noise, a full-swing checkerboard, flat, and a noisy ramp. */
static void
fill_luma (VhPicture * pic, GRand * rand, guint pattern)
{
  const guint max = (1u << pic->info.bpc) - 1;

  for (guint y = 0; y < pic->height[0]; y++) {
    for (guint x = 0; x < pic->width[0]; x++) {
      guint v;

      if (pattern == 0)
        v = g_rand_int_range (rand, 0, max + 1);
      else if (pattern == 1)
        v = ((x ^ y) & 1) ? max : 0;
      else if (pattern == 2)
        v = max / 3;
      else
        v = MIN (max, ((x * 5 + y * 3) << (pic->info.bpc - 8)) % (max + 1) +
            (guint) g_rand_int_range (rand, 0, 4));
      vh_check_set_sample (pic, 0, x, y, v);
    }
  }
}

/* SIMD against portable kernels on synthetic content, sizes around the
 * vector widths, every bit depth and the options that change the code
 * paths. */
static void
test_simd_matches_portable (void)
{
  static const guint sizes[][2] = {
    {33, 33}, {47, 35}, {64, 48}, {97, 71}, {130, 66}, {257, 129},
  };
  static const guint depths[] = { 8, 10, 12, 16 };
  static const gchar *const opt_sets[][9] = {
    {NULL},
    {"adm_enhn_gain_limit", "1.0", NULL},
    {"adm_enhn_gain_limit", "1.7", "adm_noise_weight", "0", NULL},
    {"adm_csf_mode", "1", "adm_norm_view_dist", "5", "adm_csf_scale", "2",
        NULL},
    {"adm_csf_mode", "3", "adm_ref_display_height", "2160", NULL},
    {"adm_skip_scale0", "true", "adm_skip_aim", "true", "adm_min_val", "0.9",
        NULL},
  };
  g_autoptr (GRand) rand = g_rand_new_with_seed (2026);
  guint n_values = 0;

  for (guint si = 0; si < G_N_ELEMENTS (sizes); si++) {
    for (guint di = 0; di < G_N_ELEMENTS (depths); di++) {
      const guint oi = (si * G_N_ELEMENTS (depths) + di) %
          G_N_ELEMENTS (opt_sets);
      VhPictureInfo info;

      g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420,
              depths[di], sizes[si][0], sizes[si][1], NULL));
      g_autoptr (VhFeatureExtractor) fast =
          vh_check_extractor_new_for ("adm", opt_sets[oi], &info, FALSE);
      g_autoptr (VhFeatureExtractor) slow =
          vh_check_extractor_new_for ("adm", opt_sets[oi], &info, TRUE);
      g_autoptr (VhFeatureCollector) fc_fast = vh_feature_collector_new ();
      g_autoptr (VhFeatureCollector) fc_slow = vh_feature_collector_new ();
      g_autofree gchar *what = g_strdup_printf ("%ux%u %u-bit, options %u, "
          "SIMD and portable", info.width, info.height, info.bpc, oi);

      for (guint frame = 0; frame < 8; frame++) {
        g_autoptr (VhPicture) ref = vh_picture_new (&info);
        g_autoptr (VhPicture) dist = vh_picture_new (&info);

        fill_luma (ref, rand, frame % 4);
        fill_luma (dist, rand, (frame + frame / 4) % 4);
        extract_ok (fast, ref, dist, frame, fc_fast);
        extract_ok (slow, ref, dist, frame, fc_slow);
      }
      n_values += vh_check_collectors_identical (fc_fast, fc_slow, 8, TRUE,
          what);
    }
  }
  g_print ("# SIMD and portable kernels agree on %u values\n", n_values);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integer-adm/golden", test_golden);
  g_test_add_func ("/integer-adm/golden-egl1", test_golden_egl1);
  g_test_add_func ("/integer-adm/too-small", test_too_small);
  g_test_add_func ("/integer-adm/bad-options", test_bad_options);
  g_test_add_func ("/integer-adm/picture-mismatch", test_picture_mismatch);
  g_test_add_func ("/integer-adm/simd-matches-portable",
      test_simd_matches_portable);
  return g_test_run ();
}
