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

#include "feature-extractor.h"
#include "errors.h"
#include "golden.h"

#include <math.h>
#include <string.h>

#define TOLERANCE 1e-4
#define N_OUTPUTS 7

static const gchar *const outputs[N_OUTPUTS] = {
  "integer_adm2", "integer_aim", "integer_adm3", "integer_adm_scale0",
  "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3",
};

static VhFeatureExtractor *
adm_new (const gchar * const *opts)
{
  const VhFeatureExtractorClass *klass =
      vh_feature_extractor_find ("adm", VH_BACKEND_CPU);
  VhFeatureExtractor *fex;

  g_assert_nonnull (klass);
  fex = vh_feature_extractor_new (klass);
  for (guint i = 0; opts && opts[i]; i += 2) {
    GError *error = NULL;

    if (!vh_feature_extractor_set_option (fex, opts[i], opts[i + 1], &error))
      g_error ("option %s=%s: %s", opts[i], opts[i + 1], error->message);
  }
  return fex;
}

/* Initialised instance; @portable forces the portable kernels, which the
 * extractor decides at init time. */
static VhFeatureExtractor *
adm_new_for (const VhPictureInfo * info, const gchar * const *opts,
    gboolean portable)
{
  VhFeatureExtractor *fex = adm_new (opts);
  GError *error = NULL;
  gboolean ok;

  if (portable)
    g_setenv ("VH_DISABLE_SIMD", "1", TRUE);
  ok = vh_feature_extractor_init (fex, info, &error);
  if (portable)
    g_unsetenv ("VH_DISABLE_SIMD");
  g_assert_no_error (error);
  g_assert_true (ok);
  return fex;
}

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

/* Exact equality of every value two collectors hold. */
static guint
assert_identical (VhFeatureCollector * a, VhFeatureCollector * b,
    guint n_frames, const gchar * what)
{
  guint n = 0;

  g_assert_cmpuint (vh_feature_collector_n_features (a), ==,
      vh_feature_collector_n_features (b));
  for (guint f = 0; f < vh_feature_collector_n_features (a); f++) {
    const gchar *name = vh_feature_collector_feature_name (a, f);

    for (guint i = 0; i < n_frames; i++) {
      gdouble va = 0.0, vb = 0.0;
      /* NaN (as libvmaf gives for some CSF settings) reads as unset. */
      gboolean has_a = vh_feature_collector_get (a, name, i, &va);
      gboolean has_b = vh_feature_collector_get (b, name, i, &vb);

      if (has_a != has_b || memcmp (&va, &vb, sizeof (va)) != 0)
        g_error ("%s: %s frame %u: SIMD %.17g, portable %.17g", what, name,
            i, va, vb);
      n++;
    }
  }
  return n;
}

typedef struct
{
  const gchar *file;            /* golden log */
  const gchar *suffix;          /* output name suffix */
  const gchar *const *opts;
  gdouble worst[N_OUTPUTS];
  guint n_pairs;
} GoldenRun;

/* Scores @pair with the SIMD and the portable kernels, checks that they
 * agree exactly and that they match libvmaf's log. */
static void
check_pair (const VhGoldenPair * pair, GoldenRun * run)
{
  GError *error = NULL;
  VhGoldenScores *gs = vh_golden_scores_load (pair, run->file, &error);
  VhPictureInfo info;
  gdouble pair_worst = 0.0;

  g_assert_no_error (error);
  if (!gs || vh_golden_scores_n_frames (gs) == 0) {
    vh_golden_scores_free (gs);
    return;
  }
  g_assert_cmpuint (vh_golden_scores_n_frames (gs), ==, pair->n_frames);
  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, pair->bpc,
          pair->width, pair->height, &error));

  g_autoptr (VhFeatureExtractor) fast = adm_new_for (&info, run->opts, FALSE);
  g_autoptr (VhFeatureExtractor) slow = adm_new_for (&info, run->opts, TRUE);
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  g_autoptr (VhFeatureCollector) fc_slow = vh_feature_collector_new ();

  for (guint i = 0; i < pair->n_frames; i++) {
    g_autoptr (VhPicture) ref = vh_golden_read_frame (pair, TRUE, i, &error);
    g_assert_no_error (error);
    g_autoptr (VhPicture) dist = vh_golden_read_frame (pair, FALSE, i, &error);
    g_assert_no_error (error);
    extract_ok (fast, ref, dist, i, fc);
    extract_ok (slow, ref, dist, i, fc_slow);
  }
  assert_identical (fc, fc_slow, pair->n_frames, pair->name);

  for (guint o = 0; o < N_OUTPUTS; o++) {
    g_autofree gchar *name = g_strconcat (outputs[o], run->suffix, NULL);

    for (guint i = 0; i < pair->n_frames; i++) {
      gdouble want, got, diff;

      if (!vh_golden_scores_get (gs, i, name, &want))
        g_error ("%s: golden %s has no %s", pair->name, run->file, name);
      g_assert_true (vh_feature_collector_get (fc, name, i, &got));
      diff = fabs (got - want);
      if (!(diff <= TOLERANCE))
        g_error ("%s %s frame %u: got %.6f, libvmaf %.6f", pair->name, name,
            i, got, want);
      run->worst[o] = MAX (run->worst[o], diff);
      pair_worst = MAX (pair_worst, diff);
    }
  }
  g_print ("# %-36s %3u frames, max |diff| %.3g\n", pair->name,
      pair->n_frames, pair_worst);
  run->n_pairs++;
  vh_golden_scores_free (gs);
}

static void
check_golden (GoldenRun * run)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();

  if (!pairs || pairs->len == 0) {
    g_test_skip ("no golden data");
    return;
  }
  for (guint i = 0; i < pairs->len; i++)
    check_pair (g_ptr_array_index (pairs, i), run);
  g_assert_cmpuint (run->n_pairs, >, 0);
  for (guint o = 0; o < N_OUTPUTS; o++)
    g_print ("# %s%s: %u pairs, max |diff| %.3g\n", outputs[o], run->suffix,
        run->n_pairs, run->worst[o]);
}

static void
test_golden (void)
{
  GoldenRun run = { "feat_adm.json", "", NULL };

  check_golden (&run);
}

static void
test_golden_egl1 (void)
{
  const gchar *const opts[] = { "adm_enhn_gain_limit", "1.0", NULL };
  GoldenRun run = { "models_extra.json", "_egl_1", opts };

  check_golden (&run);
}

static gboolean
init_size (guint w, guint h, GError ** error)
{
  g_autoptr (VhFeatureExtractor) fex = adm_new (NULL);
  VhPictureInfo info;

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, w, h,
          NULL));
  return vh_feature_extractor_init (fex, &info, error);
}

static void
test_too_small (void)
{
  GError *error = NULL;

  g_assert_false (init_size (32, 200, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
  g_assert_nonnull (strstr (error->message, "adm"));
  g_clear_error (&error);
  g_assert_false (init_size (200, 32, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
  g_clear_error (&error);
  g_assert_true (init_size (33, 33, &error));
  g_assert_no_error (error);
}

static void
test_bad_options (void)
{
  g_autoptr (VhFeatureExtractor) fex = adm_new (NULL);
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
  near = adm_new (close_view);
  g_assert_false (vh_feature_extractor_init (near, &info, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* The blended CSFs exist for a few viewing conditions only. */
  const gchar *const odd_blend[] = { "adm_csf_mode", "2",
    "adm_norm_view_dist", "4.0", NULL
  };
  blend = adm_new (odd_blend);
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
  g_autoptr (VhFeatureExtractor) fex = adm_new_for (&info, NULL, FALSE);
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
    gpointer row = vh_picture_row (pic, 0, y);

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
      if (pic->info.bpc == 8)
        ((guint8 *) row)[x] = v;
      else
        ((guint16 *) row)[x] = v;
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
      g_autoptr (VhFeatureExtractor) fast = adm_new_for (&info,
          opt_sets[oi], FALSE);
      g_autoptr (VhFeatureExtractor) slow = adm_new_for (&info,
          opt_sets[oi], TRUE);
      g_autoptr (VhFeatureCollector) fc_fast = vh_feature_collector_new ();
      g_autoptr (VhFeatureCollector) fc_slow = vh_feature_collector_new ();
      g_autofree gchar *what = g_strdup_printf ("%ux%u %u-bit, options %u",
          info.width, info.height, info.bpc, oi);

      for (guint frame = 0; frame < 8; frame++) {
        g_autoptr (VhPicture) ref = vh_picture_new (&info);
        g_autoptr (VhPicture) dist = vh_picture_new (&info);

        fill_luma (ref, rand, frame % 4);
        fill_luma (dist, rand, (frame + frame / 4) % 4);
        extract_ok (fast, ref, dist, frame, fc_fast);
        extract_ok (slow, ref, dist, frame, fc_slow);
      }
      n_values += assert_identical (fc_fast, fc_slow, 8, what);
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
