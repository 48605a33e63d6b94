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

#include "errors.h"
#include "extractor-check.h"

#include <string.h>

#define TOLERANCE 1e-4

static const gchar *const scale_names[] = {
  "integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2",
  "integer_vif_scale3", NULL
};

/* The four scales named with @suffix against @file's values. */
static void
check_golden (const gchar * file, const gchar * suffix,
    const gchar * const *opts, gboolean portable)
{
  g_autofree gchar *label = g_strdup_printf ("vif %s",
      portable ? "portable" : "default");
  const VhGoldenCheck check = {
    .label = label,
    .file = file,
    .metrics = scale_names,
    .suffix = suffix,
    .tolerance = TOLERANCE,
    .may_refuse = TRUE,
    .extractor = "vif",
    .opts = opts,
    .portable = portable,
  };

  vh_check_golden (&check);
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

static void
test_too_small (void)
{
  GError *error = NULL;

  g_assert_false (vh_check_init_size ("vif", NULL, 8, 15, 64, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
  g_assert_nonnull (strstr (error->message, "vif"));
  g_clear_error (&error);
  g_assert_false (vh_check_init_size ("vif", NULL, 10, 64, 15, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
  g_clear_error (&error);
  g_assert_true (vh_check_init_size ("vif", NULL, 8, 16, 16, &error));
  g_assert_no_error (error);
}

static void
test_bad_options (void)
{
  g_autoptr (VhFeatureExtractor) fex = vh_check_extractor_new ("vif", NULL);
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
  g_autoptr (VhFeatureExtractor) fex = vh_check_extractor_new_for ("vif", NULL,
      &info, FALSE);
  g_autoptr (VhPicture) ref = vh_picture_new (&info);
  g_autoptr (VhPicture) dist = vh_picture_new (&other);

  g_assert_false (vh_feature_extractor_extract (fex, ref, dist, 0, fc, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
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
        g_autoptr (VhFeatureExtractor) fast =
            vh_check_extractor_new_for ("vif", o, &info, FALSE);
        g_autoptr (VhFeatureExtractor) slow =
            vh_check_extractor_new_for ("vif", o, &info, TRUE);
        g_autoptr (VhFeatureCollector) fc_fast = vh_feature_collector_new ();
        g_autoptr (VhFeatureCollector) fc_slow = vh_feature_collector_new ();
        g_autoptr (GError) error = NULL;

        for (guint frame = 0; frame < 6; frame++) {
          g_autoptr (VhPicture) ref = vh_picture_new (&info);
          g_autoptr (VhPicture) dist = vh_picture_new (&info);

          vh_check_fill_luma (ref, rand, frame % 4);
          vh_check_fill_luma (dist, rand, (frame + frame / 4) % 4);
          g_assert_true (vh_feature_extractor_extract (fast, ref, dist,
                  frame, fc_fast, &error));
          g_assert_true (vh_feature_extractor_extract (slow, ref, dist,
                  frame, fc_slow, &error));
          g_assert_no_error (error);
        }
        g_autofree gchar *what =
            g_strdup_printf ("%ux%u %u-bit, options %u, SIMD and portable",
            info.width, info.height, info.bpc, oi);

        n_values += vh_check_collectors_identical (fc_fast, fc_slow, 6, FALSE,
            what);
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
