/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* The scoring context with fake extractors: frame order of callbacks,
 * temporal look-ahead and flush, subsampling, errors from workers, and
 * restart after finish. */

#include "context.h"
#include "errors.h"

#include <string.h>

/* A parallel extractor: value = first luma sample + index, slowed down on
 * even frames so that workers finish out of order. */
static const gchar *fake_provides[] = { "fake_value", NULL };

static gboolean
fake_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  guint8 v = *(guint8 *) ref->data[0];

  if (v == 255) {
    g_set_error (error, VH_ERROR, VH_ERROR_FAILED, "fake failure at %u",
        index);
    return FALSE;
  }
  if (index % 2 == 0)
    g_usleep (2000);
  return vh_feature_extractor_append (fex, fc, "fake_value", index,
      v + index, error);
}

static const VhFeatureExtractorClass fake_class = {
  .name = "fake",
  .provides = fake_provides,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .min_width = 4,
  .min_height = 4,
  .extract = fake_extract,
};

/* Writes the cpu_mask its instance was made with. */
static const gchar *mask_provides[] = { "mask_value", NULL };

static gboolean
mask_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  return vh_feature_extractor_append (fex, fc, "mask_value", index,
      fex->cpu_mask, error);
}

static const VhFeatureExtractorClass mask_class = {
  .name = "mask",
  .provides = mask_provides,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .extract = mask_extract,
};

/* A temporal extractor with one frame of look-ahead: frame i's value is
 * the sum of the first samples of frames i and i+1; the last frame gets its
 * own value at flush. */
typedef struct
{
  gboolean have_prev;
  guint prev_index;
  gdouble prev_value;
} LagPriv;

static const gchar *lag_provides[] = { "lag_value", NULL };

static gboolean
lag_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  LagPriv *p = fex->priv;
  gdouble v = *(guint8 *) ref->data[0];

  if (p->have_prev && !vh_feature_extractor_append (fex, fc, "lag_value",
          p->prev_index, p->prev_value + v, error))
    return FALSE;
  p->have_prev = TRUE;
  p->prev_index = index;
  p->prev_value = v;
  return TRUE;
}

static gboolean
lag_flush (VhFeatureExtractor * fex, VhFeatureCollector * fc, GError ** error)
{
  LagPriv *p = fex->priv;

  if (!p->have_prev)
    return TRUE;
  p->have_prev = FALSE;
  return vh_feature_extractor_append (fex, fc, "lag_value", p->prev_index,
      p->prev_value, error);
}

static const VhFeatureExtractorClass lag_class = {
  .name = "lag",
  .provides = lag_provides,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = VH_EXTRACTOR_FLAG_TEMPORAL,
  .lookahead = 1,
  .priv_size = sizeof (LagPriv),
  .extract = lag_extract,
  .flush = lag_flush,
};

typedef struct
{
  GMutex lock;
  GArray *order;
  VhFeatureCollector *fc;
  gboolean all_final;
} Seen;

static void
on_ready (VhContext * ctx, guint index, gboolean scored, gpointer data)
{
  Seen *seen = data;
  gdouble v;

  g_mutex_lock (&seen->lock);
  g_array_append_val (seen->order, index);
  /* Every value of a reported frame must already be there. */
  if (scored && !vh_feature_collector_get (seen->fc, "fake_value", index, &v))
    seen->all_final = FALSE;
  if (!vh_feature_collector_get (seen->fc, "lag_value", index, &v))
    seen->all_final = FALSE;
  g_mutex_unlock (&seen->lock);
}

static VhPicture *
make_picture (guint8 value)
{
  VhPictureInfo info;
  VhPicture *pic;

  vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, 16, 16, NULL);
  pic = vh_picture_new (&info);
  memset (pic->data[0], value, pic->stride[0] * pic->height[0]);
  return pic;
}

/* A picture of the test geometry, kept for the whole run. */
static VhPicture *
geometry (void)
{
  static VhPicture *pic;

  if (!pic)
    pic = make_picture (0);
  return pic;
}

/* The built-in classes and the fakes above: what every context here runs
 * (a set of its own, nothing registered for the whole process). */
static VhExtractorSet *
fake_set (void)
{
  static VhExtractorSet *set;

  if (g_once_init_enter (&set)) {
    VhExtractorSet *s = vh_extractor_set_new_builtin ();
    vh_extractor_set_add (s, &fake_class);
    vh_extractor_set_add (s, &lag_class);
    vh_extractor_set_add (s, &mask_class);
    g_once_init_leave (&set, s);
  }
  return set;
}

/* @n_threads, @subsample: 0 for the defaults. */
static VhContext *
fake_context_new (guint n_threads, guint subsample)
{
  VhContextConfig cfg = { n_threads, subsample, VH_BACKEND_CPU, 0 };

  cfg.extractors = fake_set ();
  return vh_context_new (&cfg);
}

static void
run_sequence (guint n_threads, guint subsample, guint n, Seen * seen,
    VhContext ** out_ctx)
{
  VhContext *ctx = fake_context_new (n_threads, subsample);
  GError *error = NULL;

  g_assert_true (vh_context_add_feature (ctx, "fake", NULL, &error));
  g_assert_true (vh_context_add_feature (ctx, "lag_value", NULL, &error));
  g_mutex_init (&seen->lock);
  seen->order = g_array_new (FALSE, FALSE, sizeof (guint));
  seen->fc = vh_context_get_collector (ctx);
  seen->all_final = TRUE;
  vh_context_set_frame_ready_func (ctx, on_ready, seen, NULL);
  g_assert_true (vh_context_start (ctx, &geometry ()->info, &error));
  for (guint i = 0; i < n; i++) {
    g_autoptr (VhPicture) ref = make_picture (i % 7);
    g_autoptr (VhPicture) dist = make_picture (0);
    guint index;
    g_assert_true (vh_context_submit (ctx, ref, dist, &index, &error));
    g_assert_cmpuint (index, ==, i);
  }
  g_assert_true (vh_context_finish (ctx, &error));
  g_assert_no_error (error);
  *out_ctx = ctx;
}

static void
test_order_and_lookahead (void)
{
  Seen seen = { 0 };
  VhContext *ctx;
  VhFeatureCollector *fc;
  gdouble v;

  run_sequence (3, 1, 20, &seen, &ctx);
  fc = vh_context_get_collector (ctx);
  g_assert_cmpuint (seen.order->len, ==, 20);
  for (guint i = 0; i < 20; i++)
    g_assert_cmpuint (g_array_index (seen.order, guint, i), ==, i);
  g_assert_true (seen.all_final);
  /* Look-ahead values, the last one from flush. */
  g_assert_true (vh_feature_collector_get (fc, "lag_value", 3, &v));
  g_assert_cmpfloat (v, ==, 3 % 7 + 4 % 7);
  g_assert_true (vh_feature_collector_get (fc, "lag_value", 19, &v));
  g_assert_cmpfloat (v, ==, 19 % 7);
  g_assert_true (vh_feature_collector_get (fc, "fake_value", 10, &v));
  g_assert_cmpfloat (v, ==, 10 % 7 + 10);
  g_array_unref (seen.order);
  g_mutex_clear (&seen.lock);
  vh_context_free (ctx);
}

static void
test_subsample (void)
{
  Seen seen = { 0 };
  VhContext *ctx;
  VhFeatureCollector *fc;
  gdouble v;

  run_sequence (2, 3, 10, &seen, &ctx);
  fc = vh_context_get_collector (ctx);
  g_assert_cmpuint (seen.order->len, ==, 10);
  g_assert_true (vh_feature_collector_get (fc, "fake_value", 3, &v));
  g_assert_false (vh_feature_collector_get (fc, "fake_value", 4, &v));
  /* Temporal extractors see every frame. */
  g_assert_true (vh_feature_collector_get (fc, "lag_value", 4, &v));
  g_array_unref (seen.order);
  g_mutex_clear (&seen.lock);
  vh_context_free (ctx);
}

static void
test_worker_error (void)
{
  VhContext *ctx = fake_context_new (2, 1);
  GError *error = NULL;
  gboolean ok = TRUE;

  g_assert_true (vh_context_add_feature (ctx, "fake", NULL, &error));
  g_assert_true (vh_context_start (ctx, &geometry ()->info, &error));
  for (guint i = 0; i < 40 && ok; i++) {
    g_autoptr (VhPicture) ref = make_picture (i == 5 ? 255 : 1);
    ok = vh_context_submit (ctx, ref, ref, NULL, &error);
  }
  if (ok)
    ok = vh_context_finish (ctx, &error);
  g_assert_false (ok);
  g_assert_error (error, VH_ERROR, VH_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "fake failure at 5"));
  g_clear_error (&error);
  vh_context_free (ctx);
}

static void
test_unknown_feature_and_geometry (void)
{
  VhContext *ctx = fake_context_new (0, 0);
  GError *error = NULL;
  g_autoptr (VhPicture) small = make_picture (1);
  VhPictureInfo other;
  g_autoptr (VhPicture) big = NULL;

  g_assert_false (vh_context_add_feature (ctx, "no_such_feature", NULL,
          &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_UNKNOWN_FEATURE);
  g_assert_nonnull (strstr (error->message, "fake"));
  g_clear_error (&error);
  g_assert_true (vh_context_add_feature (ctx, "fake", NULL, &error));
  g_assert_true (vh_context_start (ctx, &small->info, &error));
  vh_picture_info_init (&other, VH_PIX_FMT_YUV420, 8, 32, 16, NULL);
  big = vh_picture_new (&other);
  g_assert_false (vh_context_submit (ctx, big, big, NULL, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_true (vh_context_finish (ctx, &error));
  vh_context_free (ctx);
}

static void
test_too_small (void)
{
  VhContext *ctx = fake_context_new (0, 0);
  VhPictureInfo info;
  GError *error = NULL;

  g_assert_true (vh_context_add_feature (ctx, "fake", NULL, &error));
  vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, 2, 2, NULL);
  g_assert_false (vh_context_start (ctx, &info, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
  g_assert_nonnull (strstr (error->message, "'fake'"));
  g_assert_nonnull (strstr (error->message, "4x4"));
  g_clear_error (&error);
  vh_context_free (ctx);
}

/* As libvmaf: one extractor per name (extractor name plus the options that
 * rename its outputs); a later request of the same name is dropped even
 * when other options differ, one with another name is kept. */
static void
test_duplicate_names (void)
{
  VhContext *ctx = fake_context_new (0, 0);
  const gchar *no_chroma[] = { "enable_chroma", "false", NULL };
  const gchar *one_scale0[] = { "vif_skip_scale0", "true", NULL };
  GError *error = NULL;
  GPtrArray *names;

  g_assert_true (vh_context_add_feature (ctx, "psnr", NULL, &error));
  g_assert_true (vh_context_add_feature (ctx, "psnr", no_chroma, &error));
  g_assert_true (vh_context_add_feature (ctx, "vif", NULL, &error));
  g_assert_true (vh_context_add_feature (ctx, "vif", one_scale0, &error));
  names = vh_context_output_names (ctx);
  g_assert_cmpuint (names->len, ==, 3 + 4 + 4);
  g_assert_cmpstr (g_ptr_array_index (names, 2), ==, "psnr_cr");
  g_assert_cmpstr (g_ptr_array_index (names, 7), ==,
      "integer_vif_scale0_ssclz");
  g_ptr_array_unref (names);
  vh_context_free (ctx);
}

static void
test_restart_after_finish (void)
{
  Seen seen = { 0 };
  VhContext *ctx;
  GError *error = NULL;
  gdouble v;

  run_sequence (2, 1, 4, &seen, &ctx);
  /* A second sequence: the temporal extractor starts over. */
  for (guint i = 0; i < 3; i++) {
    g_autoptr (VhPicture) ref = make_picture (10 + i);
    g_assert_true (vh_context_submit (ctx, ref, ref, NULL, &error));
  }
  g_assert_true (vh_context_finish (ctx, &error));
  g_assert_cmpuint (seen.order->len, ==, 7);
  g_assert_true (vh_feature_collector_get (vh_context_get_collector (ctx),
          "lag_value", 3, &v));
  g_assert_cmpfloat (v, ==, 3);  /* flushed, not joined with frame 4 */
  g_assert_true (vh_feature_collector_get (vh_context_get_collector (ctx),
          "lag_value", 4, &v));
  g_assert_cmpfloat (v, ==, 10 + 11);
  g_array_unref (seen.order);
  g_mutex_clear (&seen.lock);
  vh_context_free (ctx);
}

/* The settings' cpu_mask reaches every worker's instance (what the
 * extractors' SIMD choice reads instead of the environment). */
static void
test_cpu_mask (void)
{
  VhContextConfig cfg = { 3, 1, VH_BACKEND_CPU, 0 };
  VhContext *ctx;
  GError *error = NULL;
  gdouble v;

  cfg.extractors = fake_set ();
  cfg.cpu_mask = VH_CPU_FLAG_AVX512;
  ctx = vh_context_new (&cfg);
  g_assert_true (vh_context_add_feature (ctx, "mask", NULL, &error));
  g_assert_true (vh_context_start (ctx, &geometry ()->info, &error));
  for (guint i = 0; i < 12; i++)
    g_assert_true (vh_context_submit (ctx, geometry (), geometry (), NULL,
            &error));
  g_assert_true (vh_context_finish (ctx, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < 12; i++) {
    g_assert_true (vh_feature_collector_get (vh_context_get_collector (ctx),
            "mask_value", i, &v));
    g_assert_cmpfloat (v, ==, VH_CPU_FLAG_AVX512);
  }
  vh_context_free (ctx);
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/context/order-and-lookahead", test_order_and_lookahead);
  g_test_add_func ("/context/subsample", test_subsample);
  g_test_add_func ("/context/worker-error", test_worker_error);
  g_test_add_func ("/context/unknown-feature-and-geometry",
      test_unknown_feature_and_geometry);
  g_test_add_func ("/context/too-small", test_too_small);
  g_test_add_func ("/context/cpu-mask", test_cpu_mask);
  g_test_add_func ("/context/duplicate-names", test_duplicate_names);
  g_test_add_func ("/context/restart-after-finish",
      test_restart_after_finish);
  ret = g_test_run ();
  vh_picture_unref (geometry ());
  return ret;
}
