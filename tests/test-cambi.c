/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* CAMBI against libvmaf's scores of every golden pair, plus its size rule,
 * full-reference outputs and odd shapes. */

#include "errors.h"
#include "extractor-check.h"

#include <math.h>
#include <string.h>

#define TOLERANCE 1e-4

static void
test_golden (void)
{
  const gchar *const metrics[] = { "cambi", NULL };
  const VhGoldenCheck check = {
    .label = "cambi",
    .file = "feat_cambi.json",
    .metrics = metrics,
    .tolerance = TOLERANCE,
    .may_refuse = TRUE,
    .extractor = "cambi",
  };

  vh_check_golden (&check);
}

/* One side of 216 is enough; below that on both sides init fails. */
static void
test_too_small (void)
{
  const gchar *const small_enc[] = { "enc_width", "200", "enc_height", "200",
    NULL
  };
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  GError *error = NULL;

  g_assert_false (vh_check_init_size ("cambi", NULL, 8, 215, 215, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
  g_assert_nonnull (strstr (error->message, "cambi"));
  g_assert_nonnull (strstr (error->message, "216"));
  g_clear_error (&error);

  g_assert_true (vh_check_init_size ("cambi", NULL, 8, 216, 16, &error));
  g_assert_true (vh_check_init_size ("cambi", NULL, 10, 16, 216, &error));

  /* The encoding size is what counts. */
  g_assert_false (vh_check_init_size ("cambi", small_enc, 8, 640, 360, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
  g_clear_error (&error);

  /* The golden pair libvmaf refused. */
  for (guint p = 0; pairs && p < pairs->len; p++) {
    const VhGoldenPair *pair = g_ptr_array_index (pairs, p);

    if (pair->width >= 216 || pair->height >= 216)
      continue;
    g_assert_false (vh_check_init_size ("cambi", NULL, pair->bpc,
            pair->width, pair->height, &error));
    g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
    g_clear_error (&error);
  }
}

/* Extreme shapes must not read outside the picture. */
static void
test_thin (void)
{
  static const guint shapes[][2] = {
    {216, 1}, {1, 216}, {300, 7}, {217, 33},
  };

  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++) {
    g_autoptr (VhFeatureExtractor) fex = vh_check_extractor_new ("cambi", NULL);
    g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
    g_autoptr (GError) error = NULL;
    g_autoptr (GRand) rand = g_rand_new_with_seed (s);
    VhPictureInfo info;
    gdouble v;

    g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8,
            shapes[s][0], shapes[s][1], NULL));
    g_autoptr (VhPicture) pic = vh_picture_new (&info);
    for (guint i = 0; i < pic->height[0]; i++) {
      guint8 *row = vh_picture_row (pic, 0, i);

      /* Wide flat steps: bands a few levels apart. */
      for (guint j = 0; j < pic->width[0]; j++)
        row[j] = 60 + j / 40 + (g_rand_int_range (rand, 0, 50) == 0);
    }
    g_assert_true (vh_feature_extractor_init (fex, &info, &error));
    g_assert_true (vh_feature_extractor_extract (fex, pic, pic, 0, fc, &error));
    g_assert_no_error (error);
    g_assert_true (vh_feature_collector_get (fc, "cambi", 0, &v));
    g_assert_true (isfinite (v) && v >= 0.0);
  }
}

/* full_ref scores the reference too; a changed option renames only the
 * main score, as in libvmaf. */
static void
test_options (void)
{
  const gchar *const full_ref[] = { "full_ref", "true", NULL };
  const gchar *const topk[] = { "topk", "0.2", "full_ref", "1", NULL };
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  VhGoldenPair *pair;
  gdouble cambi, src, full, narrow, narrow_src;

  pair = pairs ? vh_golden_pair_find (pairs, "a_576x324_8bit_x264") : NULL;
  if (!pair) {
    g_test_skip ("golden pair a_576x324_8bit_x264 missing");
    return;
  }
  pair->n_frames = MIN (pair->n_frames, 2);

  g_autoptr (VhFeatureCollector) fc = vh_check_score_pair (pair, "cambi",
      full_ref, FALSE);
  g_autoptr (VhFeatureCollector) fc_topk = vh_check_score_pair (pair,
      "cambi", topk, FALSE);
  for (guint i = 0; i < pair->n_frames; i++) {
    g_assert_true (vh_feature_collector_get (fc, "cambi", i, &cambi));
    g_assert_true (vh_feature_collector_get (fc, "cambi_source", i, &src));
    g_assert_true (vh_feature_collector_get (fc, "cambi_full_reference", i,
            &full));
    g_assert_cmpfloat_with_epsilon (full, MAX (cambi - src, 0.0), 1e-12);
    /* x264 adds banding. */
    g_assert_cmpfloat (cambi, >, src);

    g_assert_true (vh_feature_collector_get (fc_topk, "cambi_topk_0.2", i,
            &narrow));
    g_assert_true (vh_feature_collector_get (fc_topk, "cambi_source", i,
            &narrow_src));
    g_assert_true (vh_feature_collector_get (fc_topk,
            "cambi_full_reference", i, &full));
    g_assert_false (vh_feature_collector_get (fc_topk, "cambi", i, &full));
    /* Pooling fewer pixels keeps the worst ones. */
    g_assert_cmpfloat (narrow, >=, cambi);
    g_assert_cmpfloat (narrow_src, >=, src);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cambi/golden", test_golden);
  g_test_add_func ("/cambi/too-small", test_too_small);
  g_test_add_func ("/cambi/thin", test_thin);
  g_test_add_func ("/cambi/options", test_options);
  return g_test_run ();
}
