/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* Pictures without chroma: every CPU extractor flagged as reading the
 * luma only gives bit-identical values on them (one that read chroma
 * would crash on the absent planes), the context says whether its
 * features read chroma, refuses such pictures when one does, and scores
 * a model on them exactly as on whole pictures. */

#include "context.h"
#include "errors.h"
#include "extractor-check.h"
#include "vh-test.h"

#include <string.h>

#define N_FRAMES 4

/* A view of @pic without its chroma (sharing its samples). */
static VhPicture *
luma_view (VhPicture * pic)
{
  VhPicture *view = vh_picture_new_wrapped (&pic->info, pic->data,
      pic->stride, pic->step, VH_MEMORY_HOST, vh_picture_ref (pic),
      (GDestroyNotify) vh_picture_unref);

  vh_picture_drop_chroma (view);
  return view;
}

/* Pairs of noise pictures, chroma included. */
static GPtrArray *
noise_frames (guint bpc, guint w, guint h, guint32 seed)
{
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      vh_picture_unref);
  GRand *rand = g_rand_new_with_seed (seed);

  for (guint i = 0; i < 2 * N_FRAMES; i++)
    g_ptr_array_add (frames, vh_test_noise_picture (VH_PIX_FMT_YUV420, bpc,
            w, h, rand));
  g_rand_free (rand);
  return frames;
}

/* @klass's values for @frames, whole or as luma views. */
static VhFeatureCollector *
score_frames (const VhFeatureExtractorClass * klass, GPtrArray * frames,
    gboolean luma_only)
{
  g_autoptr (VhFeatureExtractor) fex = vh_feature_extractor_new (klass);
  VhFeatureCollector *fc = vh_feature_collector_new ();
  const VhPicture *first = g_ptr_array_index (frames, 0);
  GError *error = NULL;

  vh_check_extractor_init (fex, &first->info, FALSE);
  for (guint i = 0; i < N_FRAMES; i++) {
    g_autoptr (VhPicture) ref = vh_picture_ref (g_ptr_array_index (frames,
            2 * i));
    g_autoptr (VhPicture) dist = vh_picture_ref (g_ptr_array_index (frames,
            2 * i + 1));
    if (luma_only) {
      g_autoptr (VhPicture) r = luma_view (ref);
      g_autoptr (VhPicture) d = luma_view (dist);
      g_assert_true (vh_feature_extractor_extract (fex, r, d, i, fc,
              &error));
    } else {
      g_assert_true (vh_feature_extractor_extract (fex, ref, dist, i, fc,
              &error));
    }
    g_assert_no_error (error);
  }
  g_assert_true (vh_feature_extractor_flush (fex, fc, &error));
  g_assert_no_error (error);
  return fc;
}

static void
test_flagged_extractors (void)
{
  static const gchar *const chroma_readers[] = {
    "psnr", "ciede", "psnr_hvs", "speed_chroma", "float_motion", NULL
  };
  const VhFeatureExtractorClass *const *list =
      vh_extractor_set_list (vh_extractor_set_get_builtin (), NULL);
  guint n_checked = 0;

  for (guint b = 0; b < 2; b++) {
    g_autoptr (GPtrArray) frames = noise_frames (b ? 10 : 8, 256, 192, b);

    for (guint i = 0; list[i]; i++) {
      VhFeatureCollector *whole, *luma;
      if (list[i]->backend != VH_BACKEND_CPU ||
          !(list[i]->flags & VH_EXTRACTOR_FLAG_LUMA_ONLY))
        continue;
      whole = score_frames (list[i], frames, FALSE);
      luma = score_frames (list[i], frames, TRUE);
      g_assert_cmpuint (vh_check_collectors_identical (whole, luma,
              N_FRAMES, TRUE, list[i]->name), >, 0);
      vh_feature_collector_free (whole);
      vh_feature_collector_free (luma);
      n_checked++;
    }
  }
  /* vif, adm, motion, cambi, speed_temporal and the float features. */
  g_assert_cmpuint (n_checked, >=, 2 * 12);
  /* Those that read chroma (float_motion with motion_add_uv) must not
   * claim otherwise. */
  for (guint i = 0; chroma_readers[i]; i++) {
    const VhFeatureExtractorClass *klass =
        vh_feature_extractor_find (chroma_readers[i], VH_BACKEND_CPU);
    g_assert_nonnull (klass);
    g_assert_false (klass->flags & VH_EXTRACTOR_FLAG_LUMA_ONLY);
  }
}

static VhContext *
context_with (const gchar * model, const gchar * feature)
{
  VhContextConfig config = { 0 };
  VhContext *ctx;
  GError *error = NULL;

  config.n_threads = 2;
  ctx = vh_context_new (&config);
  if (model)
    g_assert_true (vh_context_add_model (ctx, vh_model_new_builtin (model,
                NULL, &error), &error));
  if (feature)
    g_assert_true (vh_context_add_feature (ctx, feature, NULL, &error));
  g_assert_no_error (error);
  return ctx;
}

static void
test_reads_chroma (void)
{
  static const struct
  {
    const gchar *model, *feature;
    gboolean reads_chroma;
  } cases[] = {
    {"vmaf_v0.6.1", NULL, FALSE}, {"vmaf_v0.6.1neg", NULL, FALSE},
    {"vmaf_4k_v0.6.1", NULL, FALSE}, {NULL, "float_ssim", FALSE},
    {NULL, "cambi", FALSE}, {"vmaf_v0.6.1", "psnr", TRUE},
    {NULL, "ciede", TRUE}, {NULL, "psnr_hvs", TRUE},
    {NULL, "float_motion", TRUE}, {NULL, "speed_chroma", TRUE},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    VhContext *ctx = context_with (cases[i].model, cases[i].feature);
    g_assert_true (vh_context_reads_chroma (ctx) == cases[i].reads_chroma);
    vh_context_free (ctx);
  }
}

/* Pictures without chroma are refused, naming the feature, where one
 * reads it. */
static void
test_refused_where_chroma_is_read (void)
{
  VhContext *ctx = context_with ("vmaf_v0.6.1", "psnr");
  g_autoptr (GPtrArray) frames = noise_frames (8, 64, 64, 3);
  g_autoptr (VhPicture) ref = luma_view (g_ptr_array_index (frames, 0));
  GError *error = NULL;

  g_assert_true (vh_context_start (ctx, &ref->info, &error));
  g_assert_false (vh_context_submit (ctx, ref, g_ptr_array_index (frames,
              1), NULL, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "reference picture carries no "
          "chroma"));
  g_assert_nonnull (strstr (error->message, "'psnr'"));
  g_clear_error (&error);
  g_assert_true (vh_context_finish (ctx, &error));
  vh_context_free (ctx);
}

/* A context that scored @frames (whole, or as luma views); its
 * collector holds the values. */
static VhContext *
score_model (GPtrArray * frames, gboolean luma_only)
{
  VhContext *ctx = context_with ("vmaf_v0.6.1", "float_ssim");

  g_autoptr (GPtrArray) refs = g_ptr_array_new ();
  g_autoptr (GPtrArray) dists = g_ptr_array_new ();
  GError *error = NULL;

  for (guint i = 0; i < N_FRAMES; i++) {
    g_ptr_array_add (refs, g_ptr_array_index (frames, 2 * i));
    g_ptr_array_add (dists, g_ptr_array_index (frames, 2 * i + 1));
  }
  g_assert_true (vh_test_score_clip (ctx, refs, dists,
          luma_only ? luma_view : NULL, &error));
  g_assert_no_error (error);
  return ctx;
}

static void
test_model_scores_same (void)
{
  g_autoptr (GPtrArray) frames = noise_frames (8, 192, 144, 4);
  VhContext *whole = score_model (frames, FALSE);
  VhContext *luma = score_model (frames, TRUE);
  gdouble v;

  g_assert_true (vh_feature_collector_get (vh_context_get_collector (luma),
          "vmaf", N_FRAMES - 1, &v));
  g_assert_cmpuint (vh_check_collectors_identical (vh_context_get_collector
          (whole), vh_context_get_collector (luma), N_FRAMES, TRUE,
          "vmaf_v0.6.1 + float_ssim"), >, 0);
  vh_context_free (whole);
  vh_context_free (luma);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/luma-only/flagged-extractors", test_flagged_extractors);
  g_test_add_func ("/luma-only/reads-chroma", test_reads_chroma);
  g_test_add_func ("/luma-only/refused-where-chroma-is-read",
      test_refused_where_chroma_is_read);
  g_test_add_func ("/luma-only/model-scores-same", test_model_scores_same);
  return g_test_run ();
}
