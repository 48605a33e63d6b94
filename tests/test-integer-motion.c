/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "errors.h"
#include "extractor-check.h"
#include "libvmaf-reference.h"

#include <stdlib.h>
#include <string.h>

#define SAD "VMAF_integer_feature_motion_sad_score"
#define M2 "integer_motion2"
#define M3 "integer_motion3"
#define TOLERANCE 1e-4

static const gchar *const motion_metrics[] = { SAD, M2, M3, NULL };

static VhFeatureExtractor *
motion_new (void)
{
  VhFeatureExtractor *fex = vh_check_extractor_new ("motion", NULL);

  g_assert_true (fex->klass->flags & VH_EXTRACTOR_FLAG_TEMPORAL);
  return fex;
}

static gboolean
has_value (VhFeatureCollector * fc, const gchar * name, guint index)
{
  gdouble v;
  return vh_feature_collector_get (fc, name, index, &v);
}

/* Runs the extractor over a golden pair, checking that frame i - 1 is final
 * once frame i is in. */
static VhFeatureCollector *
score_pair (const VhGoldenPair * pair, gpointer portable)
{
  GError *error = NULL;
  g_autoptr (VhFeatureExtractor) fex = motion_new ();
  VhFeatureCollector *fc = vh_feature_collector_new ();

  for (guint i = 0; i < pair->n_frames; i++) {
    g_autoptr (VhPicture) ref = vh_golden_read_frame (pair, TRUE, i, &error);
    g_autoptr (VhPicture) dist = vh_golden_read_frame (pair, FALSE, i, &error);

    g_assert_no_error (error);
    if (i == 0)
      vh_check_extractor_init (fex, &ref->info, GPOINTER_TO_INT (portable));
    g_assert_true (vh_feature_extractor_extract (fex, ref, dist, i, fc,
            &error));
    g_assert_no_error (error);
    g_assert_true (has_value (fc, SAD, i));
    /* Frame i - 1 is final, frame i waits for its successor. */
    if (i > 0) {
      g_assert_true (has_value (fc, M2, i - 1));
      g_assert_true (has_value (fc, M3, i - 1));
    }
    g_assert_false (has_value (fc, M2, i));
    g_assert_false (has_value (fc, M3, i));
  }
  g_assert_true (vh_feature_extractor_flush (fex, fc, &error));
  g_assert_no_error (error);
  g_assert_true (has_value (fc, M2, pair->n_frames - 1));
  /* A second flush adds nothing and does not fail. */
  g_assert_true (vh_feature_extractor_flush (fex, fc, &error));
  return fc;
}

/* Both the SIMD and the plain C kernels, on every pair and frame. */
static void
test_golden (void)
{
  for (guint simd = 0; simd < 2; simd++) {
    const VhGoldenCheck check = {
      .label = simd ? "motion SIMD" : "motion C",
      .file = "feat_motion.json",
      .metrics = motion_metrics,
      .tolerance = TOLERANCE,
      .score = score_pair,
      .user_data = GINT_TO_POINTER (!simd),
    };

    vh_check_golden (&check);
  }
}

/* A direct reading of libvmaf's pipeline: 64-bit sums, mirrored edges. */
static gint
ref_mirror (gint i, gint n)
{
  return i < 0 ? -i : i >= n ? 2 * n - i - 2 : i;
}

static gdouble
reference_sad (const VhPicture * prev, const VhPicture * cur)
{
  static const gint64 taps[5] = { 3571, 16004, 26386, 16004, 3571 };
  const gint w = cur->info.width, h = cur->info.height;
  const guint bpc = cur->info.bpc;
  gint32 *row = g_new (gint32, w);
  guint64 sad = 0;

  for (gint i = 0; i < h; i++) {
    for (gint j = 0; j < w; j++) {
      gint64 acc = 0;
      for (gint k = 0; k < 5; k++) {
        gint r = ref_mirror (i - 2 + k, h);
        gint64 a, b;
        if (bpc == 8) {
          a = ((guint8 *) vh_picture_row (prev, 0, r))[j];
          b = ((guint8 *) vh_picture_row (cur, 0, r))[j];
        } else {
          a = ((guint16 *) vh_picture_row (prev, 0, r))[j];
          b = ((guint16 *) vh_picture_row (cur, 0, r))[j];
        }
        acc += taps[k] * (a - b);
      }
      row[j] = (gint32) ((acc + ((gint64) 1 << (bpc - 1))) >> bpc);
    }
    guint32 row_sad = 0;
    for (gint j = 0; j < w; j++) {
      gint64 acc = 0;
      for (gint k = 0; k < 5; k++)
        acc += taps[k] * row[ref_mirror (j - 2 + k, w)];
      row_sad += (guint32) llabs ((acc + 32768) >> 16);
    }
    sad += row_sad;
  }
  g_free (row);
  return MIN ((gdouble) sad / 256. / (w * h), 10000.0);
}

/* Fills the luma with noise, or with extremes that stress the sums. */
static VhPicture *
random_picture (guint bpc, guint w, guint h, GRand * rand, gint mode)
{
  VhPictureInfo info;
  VhPicture *pic;
  guint max = (1u << bpc) - 1;

  if (mode == 0)
    return vh_test_noise_picture (VH_PIX_FMT_YUV420, bpc, w, h, rand);
  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, bpc, w, h,
          NULL));
  pic = vh_picture_new (&info);
  for (guint p = 0; p < pic->n_planes; p++) {
    for (guint y = 0; y < pic->height[p]; y++) {
      for (guint x = 0; x < pic->width[p]; x++)
        vh_check_set_sample (pic, p, x, y, mode == 1 ?
            ((x / 3 + y / 2) % 2 ? max : 0) : mode == 2 ? max : 0u);
    }
  }
  return pic;
}

static gdouble
run_two_frames (VhPicture * a, VhPicture * b, gboolean simd)
{
  g_autoptr (VhFeatureExtractor) fex = motion_new ();
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  GError *error = NULL;
  gdouble v;

  vh_check_extractor_init (fex, &a->info, !simd);
  g_assert_true (vh_feature_extractor_extract (fex, a, a, 0, fc, &error));
  g_assert_true (vh_feature_extractor_extract (fex, b, b, 1, fc, &error));
  g_assert_no_error (error);
  g_assert_true (vh_feature_collector_get (fc, SAD, 1, &v));
  return v;
}

/* Every depth and odd sizes down to the 3x3 minimum: the SIMD build, the
 * C build and the direct 64-bit formula agree to the last bit. */
static void
test_kernels (void)
{
  static const guint depths[] = { 8, 10, 12, 16 };
  static const guint sizes[][2] = { {3, 3}, {5, 4}, {17, 9}, {67, 35},
  {128, 8}
  };
  g_autoptr (GRand) rand = g_rand_new_with_seed (42);

  for (guint d = 0; d < G_N_ELEMENTS (depths); d++) {
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
      for (gint mode = 0; mode < 3; mode++) {
        guint bpc = depths[d], w = sizes[s][0], h = sizes[s][1];
        g_autoptr (VhPicture) a = random_picture (bpc, w, h, rand, mode);
        g_autoptr (VhPicture) b = random_picture (bpc, w, h, rand,
            mode == 0 ? 0 : 3);
        gdouble want = reference_sad (a, b);
        gdouble c = run_two_frames (a, b, FALSE);
        gdouble simd = run_two_frames (a, b, TRUE);

        if (c != want || simd != want)
          g_error ("%u-bit %ux%u mode %d: C %.9f SIMD %.9f direct %.9f",
              bpc, w, h, mode, c, simd, want);
        if (mode == 2)
          g_assert_cmpfloat (want, >, 0);
      }
    }
  }
}

/* A stream of n frames: motion2 of every frame, the last one in flush. */
static void
test_flush (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  g_autoptr (VhFeatureExtractor) fex = motion_new ();
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  GError *error = NULL;
  const guint n = 4;
  VhPicture *pics[4];
  gdouble sad[4], m2, m3;

  for (guint i = 0; i < n; i++)
    pics[i] = random_picture (8, 32, 16, rand, 0);
  g_assert_true (vh_feature_extractor_init (fex, &pics[0]->info, &error));
  for (guint i = 0; i < n; i++) {
    g_assert_true (vh_feature_extractor_extract (fex, pics[i], pics[i], i, fc,
            &error));
    g_assert_true (vh_feature_collector_get (fc, SAD, i, &sad[i]));
  }
  g_assert_false (has_value (fc, M2, n - 1));
  g_assert_true (vh_feature_extractor_flush (fex, fc, &error));
  g_assert_no_error (error);

  g_assert_cmpfloat (sad[0], ==, 0);
  for (guint i = 0; i < n; i++) {
    g_assert_true (vh_feature_collector_get (fc, M2, i, &m2));
    g_assert_true (vh_feature_collector_get (fc, M3, i, &m3));
    if (i == 0) {
      g_assert_cmpfloat (m2, ==, 0);
      g_assert_cmpfloat (m3, ==, sad[1]);
    } else if (i == n - 1) {
      g_assert_cmpfloat (m2, ==, sad[n - 1]);
    } else {
      g_assert_cmpfloat (m2, ==, MIN (sad[i], sad[i + 1]));
    }
  }
  for (guint i = 0; i < n; i++)
    vh_picture_unref (pics[i]);
}

/* A one-frame stream: everything is zero and comes out of flush. */
static void
test_single_frame (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (3);
  g_autoptr (VhFeatureExtractor) fex = motion_new ();
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  g_autoptr (VhPicture) pic = random_picture (10, 9, 7, rand, 0);
  GError *error = NULL;
  gdouble v;

  g_assert_true (vh_feature_extractor_init (fex, &pic->info, &error));
  g_assert_true (vh_feature_extractor_extract (fex, pic, pic, 0, fc, &error));
  g_assert_false (has_value (fc, M2, 0));
  g_assert_true (vh_feature_extractor_flush (fex, fc, &error));
  for (guint m = 0; motion_metrics[m]; m++) {
    g_assert_true (vh_feature_collector_get (fc, motion_metrics[m], 0, &v));
    g_assert_cmpfloat (v, ==, 0);
  }
}

static void
test_out_of_order (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (5);
  g_autoptr (VhPicture) pic = random_picture (8, 16, 16, rand, 0);
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  GError *error = NULL;

  {
    g_autoptr (VhFeatureExtractor) fex = motion_new ();
    g_assert_true (vh_feature_extractor_init (fex, &pic->info, &error));
    g_assert_true (vh_feature_extractor_extract (fex, pic, pic, 0, fc,
            &error));
    g_assert_false (vh_feature_extractor_extract (fex, pic, pic, 2, fc,
            &error));
    g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    /* Repeating a frame is out of order too. */
    g_assert_false (vh_feature_extractor_extract (fex, pic, pic, 0, fc,
            &error));
    g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
  }
  {
    /* A sequence may start at any index (after a seek); values keep the
     * frames' own indices and the first frame's motion2 is 0. */
    g_autoptr (VhFeatureExtractor) fex = motion_new ();
    g_autoptr (VhFeatureCollector) fc2 = vh_feature_collector_new ();
    g_autoptr (VhPicture) other = random_picture (8, 16, 16, rand, 0);
    gdouble v;
    g_assert_true (vh_feature_extractor_init (fex, &pic->info, &error));
    g_assert_true (vh_feature_extractor_extract (fex, pic, pic, 7, fc2,
            &error));
    g_assert_true (vh_feature_extractor_extract (fex, other, other, 8, fc2,
            &error));
    g_assert_false (vh_feature_extractor_extract (fex, pic, pic, 10, fc2,
            &error));
    g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    g_assert_true (vh_feature_collector_get (fc2, "integer_motion2", 7, &v));
    g_assert_cmpfloat (v, ==, 0.0);
    g_assert_true (vh_feature_collector_get (fc2,
            "VMAF_integer_feature_motion_sad_score", 8, &v));
    g_assert_cmpfloat (v, >, 0.0);
    g_assert_false (vh_feature_collector_get (fc2, "integer_motion2", 0, &v));
  }
}

static void
test_bad_input (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (9);
  g_autoptr (VhPicture) small = random_picture (8, 16, 16, rand, 0);
  g_autoptr (VhPicture) big = random_picture (8, 18, 16, rand, 0);
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  g_autoptr (VhFeatureExtractor) fex = motion_new ();
  g_autoptr (VhFeatureExtractor) tiny = motion_new ();
  VhPictureInfo info;
  GError *error = NULL;

  g_assert_true (vh_feature_extractor_init (fex, &small->info, &error));
  g_assert_false (vh_feature_extractor_extract (fex, big, big, 0, fc,
          &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, 2, 8,
          NULL));
  g_assert_false (vh_feature_extractor_init (tiny, &info, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
  g_clear_error (&error);
}

/* Option variants against libvmaf 3.2.0 (commit f85a8536) logs stored under
 * tests/data/motion-options: the five-frame window with moving average
 * and clipping (as the HFR models use), blending with an fps weight, and
 * force-zero; the names carry libvmaf's option suffixes. */
static void
test_options (void)
{
  static const gchar *const runs[][2] = {
    {"a_576x324_8bit_ref-hfr", "a_576x324_8bit_ref"},
    {"c_640x360_10bit_ref-hfr", "c_640x360_10bit_ref"},
    {"a_576x324_8bit_ref-blend", "a_576x324_8bit_ref"},
    {"a_576x324_8bit_ref-zero", "a_576x324_8bit_ref"},
  };

  for (guint i = 0; i < G_N_ELEMENTS (runs); i++) {
    g_autofree gchar *file = g_strdup_printf ("motion-options/%s.json",
        runs[i][0]);
    if (vh_libvmaf_reference_check (file, runs[i][1], 1e-4, 0) < 0)
      g_print ("%s: no golden pair, skipped\n", runs[i][1]);
  }
}

/* With the five-frame window frames 0 and 1 are final once frame 2 is in,
 * later frames one frame after: never more than the class look-ahead. */
static void
test_five_frame_lookahead (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (21);
  g_autoptr (VhFeatureExtractor) fex = motion_new ();
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  GError *error = NULL;
  const guint n = 6;
  g_autofree gchar *m2 = NULL;

  g_assert_true (vh_feature_extractor_set_option (fex,
          "motion_five_frame_window", "true", &error));
  m2 = vh_feature_extractor_output_name (fex, M2);
  for (guint i = 0; i < n; i++) {
    g_autoptr (VhPicture) pic = random_picture (8, 24, 12, rand, 0);
    if (i == 0)
      g_assert_true (vh_feature_extractor_init (fex, &pic->info, &error));
    g_assert_true (vh_feature_extractor_extract (fex, pic, pic, i, fc,
            &error));
    for (guint j = 0; j <= i; j++) {
      gboolean final = i >= 2 && j < i;
      g_assert_cmpint (has_value (fc, m2, j), ==, final);
      if (j + fex->klass->lookahead <= i)
        g_assert_true (final);
    }
  }
  g_assert_true (vh_feature_extractor_flush (fex, fc, &error));
  g_assert_true (has_value (fc, m2, n - 1));
}

/* debug adds integer_motion, equal to the SAD score, without renaming. */
static void
test_debug (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (27);
  g_autoptr (VhFeatureExtractor) fex = motion_new ();
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  g_autoptr (VhPicture) a = random_picture (8, 20, 10, rand, 0);
  g_autoptr (VhPicture) b = random_picture (8, 20, 10, rand, 0);
  GError *error = NULL;
  gdouble sad, dbg;

  g_assert_true (vh_feature_extractor_set_option (fex, "debug", "true",
          &error));
  g_assert_true (vh_feature_extractor_init (fex, &a->info, &error));
  g_assert_true (vh_feature_extractor_extract (fex, a, a, 0, fc, &error));
  g_assert_true (vh_feature_extractor_extract (fex, b, b, 1, fc, &error));
  g_assert_true (vh_feature_collector_get (fc, SAD, 1, &sad));
  g_assert_true (vh_feature_collector_get (fc, "integer_motion", 1, &dbg));
  g_assert_cmpfloat (sad, ==, dbg);
  g_assert_cmpfloat (sad, >, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/motion/golden", test_golden);
  g_test_add_func ("/motion/kernels", test_kernels);
  g_test_add_func ("/motion/flush", test_flush);
  g_test_add_func ("/motion/single-frame", test_single_frame);
  g_test_add_func ("/motion/out-of-order", test_out_of_order);
  g_test_add_func ("/motion/bad-input", test_bad_input);
  g_test_add_func ("/motion/options", test_options);
  g_test_add_func ("/motion/five-frame-lookahead", test_five_frame_lookahead);
  g_test_add_func ("/motion/debug", test_debug);
  return g_test_run ();
}
