/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* float_vif, float_adm and float_motion against libvmaf's float features
 * in every golden pair's models_extra.json, frame by frame; the motion
 * look-ahead, a sequence that starts at a later index, debug outputs,
 * options and size limits. */

#include "errors.h"
#include "extractor-check.h"
#include "features/float-adm-private.h"

#include <math.h>
#include <string.h>

#define TOLERANCE 1e-4
#define GOLDEN_FILE "models_extra.json"

static const gchar *const extractors[] = {
  "float_vif", "float_adm", "float_motion", NULL
};

static const gchar *const metrics[] = {
  "vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3",
  "adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2",
  "adm_scale3", "motion", "motion2", "motion3", NULL
};

/* @v as libvmaf's JSON log prints it: 6 decimals, or 16 when the first
 * significant digit comes later. */
static gdouble
as_logged (gdouble v)
{
  gdouble frac = fabs (v) - (gint) fabs (v);
  guint zeros = 0;
  gchar buf[64];

  while (frac < 1.0 && frac != 0.0) {
    frac *= 10;
    zeros++;
  }
  g_snprintf (buf, sizeof (buf), zeros <= 6 ? "%.6f" : "%.16f", v);
  return g_ascii_strtod (buf, NULL);
}

/* Scores frames @first .. of @pair with every extractor, numbering them
 * from @base, and flushes. */
static VhFeatureCollector *
run_pair (const VhGoldenPair * pair, guint first, guint base)
{
  VhFeatureCollector *fc = vh_feature_collector_new ();
  g_autoptr (GError) error = NULL;
  VhFeatureExtractor *fex[G_N_ELEMENTS (extractors)] = { NULL };
  VhPictureInfo info;

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, pair->bpc,
          pair->width, pair->height, &error));
  for (guint e = 0; extractors[e]; e++)
    fex[e] = vh_check_extractor_new_for (extractors[e], NULL, &info, FALSE);

  for (guint i = first; i < pair->n_frames; i++) {
    g_autoptr (VhPicture) ref = vh_golden_read_frame (pair, TRUE, i, &error);
    g_assert_no_error (error);
    g_autoptr (VhPicture) dist = vh_golden_read_frame (pair, FALSE, i, &error);
    g_assert_no_error (error);

    for (guint e = 0; extractors[e]; e++) {
      g_assert_true (vh_feature_extractor_extract (fex[e], ref, dist,
              base + i - first, fc, &error));
      g_assert_no_error (error);
    }
    /* The look-ahead is one frame: the frame before is final now. */
    if (i > first) {
      gdouble v;
      g_assert_true (vh_feature_collector_get (fc, "motion2",
              base + i - first - 1, &v));
      g_assert_true (vh_feature_collector_get (fc, "motion3",
              base + i - first - 1, &v));
    }
  }
  for (guint e = 0; extractors[e]; e++) {
    g_assert_true (vh_feature_extractor_flush (fex[e], fc, &error));
    g_assert_no_error (error);
    vh_feature_extractor_free (fex[e]);
  }
  return fc;
}

static VhFeatureCollector *
score_pair (const VhGoldenPair * pair, gpointer user_data)
{
  return run_pair (pair, 0, 0);
}

typedef struct
{
  guint n_values, n_inexact;
} Printed;

/* Counts the values that differ from libvmaf's as its log prints them. */
static void
count_printed (const gchar * metric, gdouble got, gdouble want,
    gpointer user_data)
{
  Printed *printed = user_data;

  printed->n_values++;
  if (as_logged (got) != want)
    printed->n_inexact++;
}

static void
test_golden (void)
{
  Printed printed = { 0 };
  const VhGoldenCheck check = {
    .label = "float",
    .file = GOLDEN_FILE,
    .metrics = metrics,
    .tolerance = TOLERANCE,
    .may_refuse = TRUE,
    .score = score_pair,
    .value = count_printed,
    .user_data = &printed,
  };

  vh_check_golden (&check);
  /* Reported, not required: the reciprocal estimate in ADM may differ in
   * its last bits between CPU makers. */
  g_print ("# %u of %u values differ from libvmaf's log as printed\n",
      printed.n_inexact, printed.n_values);
}

/* float_adm divides by the reference processor's reciprocal estimates on
 * every machine: looked up from the table, its values are those of rcpps
 * wherever rcpps gives that estimate, bit for bit (on a processor of
 * another maker the table is what runs, and the parity tests check it). */
static void
test_adm_reciprocal (void)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  const gchar *const names[] = { "adm2", "aim", "adm3", "adm_scale0",
    "adm_scale3", NULL
  };
  guint n_values = 0;

  if (!vh_fadm_rcp_native ()) {
    g_test_skip ("this processor's rcpss is not the reference's");
    return;
  }
  for (guint p = 0; pairs && p < pairs->len && p < 4; p++) {
    VhGoldenPair *pair = g_ptr_array_index (pairs, p);
    g_autoptr (VhFeatureCollector) native = run_pair (pair, 0, 0);
    g_autoptr (VhFeatureCollector) looked_up = NULL;

    vh_fadm_rcp_set_native_allowed (FALSE);
    g_assert_false (vh_fadm_rcp_native ());
    looked_up = run_pair (pair, 0, 0);
    vh_fadm_rcp_set_native_allowed (TRUE);
    for (guint i = 0; i < pair->n_frames; i++) {
      for (guint k = 0; names[k]; k++) {
        gdouble a, b;
        g_assert_true (vh_feature_collector_get (native, names[k], i, &a));
        g_assert_true (vh_feature_collector_get (looked_up, names[k], i, &b));
        if (a != b)
          g_error ("%s frame %u %s: %a with rcpps, %a from the table",
              pair->name, i, names[k], a, b);
        n_values++;
      }
    }
  }
  if (!n_values)
    g_test_skip ("no golden data");
  g_test_message ("%u values equal bit for bit", n_values);
}

/* A temporal extractor restarted after a seek sees a first index above
 * 0: it must treat that frame as the first of a sequence. */
static void
test_motion_late_start (void)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  const VhGoldenPair *pair = NULL;
  const guint base = 7, first = 2;
  const gchar *const names[] = { "motion", "motion2", "motion3" };

  for (guint p = 0; p < pairs->len && !pair; p++) {
    const VhGoldenPair *cand = g_ptr_array_index (pairs, p);
    if (cand->n_frames >= 6)
      pair = cand;
  }
  if (!pair) {
    g_test_skip ("no golden pair with enough frames");
    return;
  }

  g_autoptr (VhFeatureCollector) a = run_pair (pair, first, 0);
  g_autoptr (VhFeatureCollector) b = run_pair (pair, first, base);
  for (guint i = 0; i + first < pair->n_frames; i++) {
    for (guint n = 0; n < G_N_ELEMENTS (names); n++) {
      gdouble va, vb;

      g_assert_true (vh_feature_collector_get (a, names[n], i, &va));
      g_assert_true (vh_feature_collector_get (b, names[n], base + i, &vb));
      g_assert_cmpfloat (va, ==, vb);
    }
  }
  {
    gdouble v;
    /* The sequence restarts: the first frame has no motion. */
    g_assert_true (vh_feature_collector_get (b, "motion2", base, &v));
    g_assert_cmpfloat (v, ==, 0.0);
    g_assert_true (vh_feature_collector_get (b, "motion", base, &v));
    g_assert_cmpfloat (v, ==, 0.0);
  }
}

/* One frame, one extractor: motion of a single frame is all zero, and
 * identical pictures give libvmaf's fixed points. */
static void
test_identical_and_single (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (11);
  g_autoptr (GError) error = NULL;
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  g_autoptr (VhPicture) pic = vh_test_noise_picture (VH_PIX_FMT_YUV420, 10,
      64, 48, rand);
  gdouble v;

  for (guint e = 0; extractors[e]; e++) {
    g_autoptr (VhFeatureExtractor) fex =
        vh_check_extractor_new_for (extractors[e], NULL, &pic->info, FALSE);
    g_assert_true (vh_feature_extractor_extract (fex, pic, pic, 0, fc, &error));
    g_assert_true (vh_feature_extractor_flush (fex, fc, &error));
    g_assert_no_error (error);
  }
  for (guint s = 0; s < 4; s++) {
    g_autofree gchar *name = g_strdup_printf ("vif_scale%u", s);
    g_assert_true (vh_feature_collector_get (fc, name, 0, &v));
    g_assert_cmpfloat (fabs (v - 1.0), <, 1e-6);
  }
  g_assert_true (vh_feature_collector_get (fc, "adm2", 0, &v));
  g_assert_cmpfloat (fabs (v - 1.0), <, 1e-5);
  g_assert_true (vh_feature_collector_get (fc, "aim", 0, &v));
  g_assert_cmpfloat (v, ==, 0.0);
  g_assert_true (vh_feature_collector_get (fc, "motion", 0, &v));
  g_assert_cmpfloat (v, ==, 0.0);
  g_assert_true (vh_feature_collector_get (fc, "motion2", 0, &v));
  g_assert_cmpfloat (v, ==, 0.0);
  g_assert_true (vh_feature_collector_get (fc, "motion3", 0, &v));
  g_assert_cmpfloat (v, ==, 0.0);
}

/* Debug outputs, and options that rename the features as libvmaf does. */
static void
test_options (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (5);
  g_autoptr (GError) error = NULL;
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  const gchar *const vif_opts[] = { "debug", "true", "vif_enhn_gain_limit",
    "1.0", NULL
  };
  const gchar *const adm_opts[] = { "debug", "true", "adm_enhn_gain_limit",
    "1.0", NULL
  };
  const gchar *const motion_opts[] = { "motion_force_zero", "true", NULL };
  gdouble v, num, den;
  g_autoptr (VhPicture) ref = vh_test_noise_picture (VH_PIX_FMT_YUV420, 8,
      80, 64, rand);
  g_autoptr (VhPicture) dist = vh_test_noise_picture (VH_PIX_FMT_YUV420, 8,
      80, 64, rand);
  g_autoptr (VhFeatureExtractor) vif =
      vh_check_extractor_new_for ("float_vif", vif_opts, &ref->info, FALSE);
  g_autoptr (VhFeatureExtractor) adm =
      vh_check_extractor_new_for ("float_adm", adm_opts, &ref->info, FALSE);
  g_autoptr (VhFeatureExtractor) motion =
      vh_check_extractor_new_for ("float_motion", motion_opts, &ref->info,
      FALSE);

  g_assert_true (vh_feature_extractor_extract (vif, ref, dist, 0, fc, &error));
  g_assert_true (vh_feature_extractor_extract (adm, ref, dist, 0, fc, &error));
  for (guint i = 0; i < 3; i++)
    g_assert_true (vh_feature_extractor_extract (motion, ref, i ? dist : ref,
            i, fc, &error));
  g_assert_true (vh_feature_extractor_flush (motion, fc, &error));
  g_assert_no_error (error);

  g_assert_true (vh_feature_collector_get (fc, "vif_scale1_egl_1", 0, &v));
  g_assert_true (vh_feature_collector_get (fc, "vif_num_scale1_egl_1", 0,
          &num));
  g_assert_true (vh_feature_collector_get (fc, "vif_den_scale1_egl_1", 0,
          &den));
  g_assert_cmpfloat (v, ==, num / den);
  g_assert_true (vh_feature_collector_get (fc, "adm2_egl_1", 0, &v));
  g_assert_true (vh_feature_collector_get (fc, "adm_num_egl_1", 0, &num));
  g_assert_true (vh_feature_collector_get (fc, "adm_den_egl_1", 0, &den));
  g_assert_cmpfloat (v, ==, num / den);
  for (guint i = 0; i < 3; i++) {
    g_assert_true (vh_feature_collector_get (fc, "motion2_force_0", i, &v));
    g_assert_cmpfloat (v, ==, 0.0);
    g_assert_true (vh_feature_collector_get (fc, "motion_force_0", i, &v));
    g_assert_cmpfloat (v, ==, 0.0);
  }
}

static void
test_sizes (void)
{
  const struct
  {
    const gchar *name;
    guint min;
  } limits[] = { {"float_vif", 16}, {"float_adm", 17}, {"float_motion", 3} };

  for (guint i = 0; i < G_N_ELEMENTS (limits); i++) {
    GError *error = NULL;
    guint m = limits[i].min;

    g_assert_false (vh_check_init_size (limits[i].name, NULL, 8, m - 1, 64,
            &error));
    g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
    g_clear_error (&error);
    g_assert_false (vh_check_init_size (limits[i].name, NULL, 8, 64, m - 1,
            &error));
    g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
    g_clear_error (&error);
    g_assert_true (vh_check_init_size (limits[i].name, NULL, 8, m, m, &error));
    g_assert_no_error (error);
  }
}

/* Frames out of order and mismatching pictures are refused. */
static void
test_errors (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (3);
  g_autoptr (GError) error = NULL;
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  g_autoptr (VhPicture) pic = vh_test_noise_picture (VH_PIX_FMT_YUV420, 8,
      64, 48, rand);
  g_autoptr (VhPicture) small = vh_test_noise_picture (VH_PIX_FMT_YUV420, 8,
      64, 40, rand);

  for (guint e = 0; extractors[e]; e++) {
    g_autoptr (VhFeatureExtractor) fex =
        vh_check_extractor_new_for (extractors[e], NULL, &pic->info, FALSE);
    g_assert_false (vh_feature_extractor_extract (fex, small, small, 0, fc,
            &error));
    g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
  }

  g_autoptr (VhFeatureExtractor) motion =
      vh_check_extractor_new_for ("float_motion", NULL, &pic->info, FALSE);
  g_assert_true (vh_feature_extractor_extract (motion, pic, pic, 4, fc,
          &error));
  g_assert_false (vh_feature_extractor_extract (motion, pic, pic, 6, fc,
          &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
}

gint
main (gint argc, gchar ** argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/float-features/golden", test_golden);
  g_test_add_func ("/float-features/motion-late-start", test_motion_late_start);
  g_test_add_func ("/float-features/identical-and-single",
      test_identical_and_single);
  g_test_add_func ("/float-features/options", test_options);
  g_test_add_func ("/float-features/sizes", test_sizes);
  g_test_add_func ("/float-features/errors", test_errors);
  g_test_add_func ("/float-features/adm-reciprocal", test_adm_reciprocal);
  return g_test_run ();
}
