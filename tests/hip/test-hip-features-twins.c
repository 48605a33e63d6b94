/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* On a GPU: every twin against its CPU twin on every clip and option
 * variant, the vmaf_v1.0.16 models, and the motion twins' flush (see
 * test-hip-features.c). */

#include "hip-features-test.h"

#include "errors.h"
#include "hip-test-gpu.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

typedef struct
{
  const gchar *feature;
  const gchar *opts[15];
} Variant;

/* Option settings tried besides the defaults, for the twins that have
 * them. */
static const Variant variants[] = {
  {"psnr", {"enable_mse", "1", "min_sse", "0.5", NULL}},
  {"psnr", {"reduced_hbd_peak", "1", "enable_chroma", "0", NULL}},
  {"motion", {"motion_five_frame_window", "1", "debug", "1", NULL}},
  {"motion", {"motion_moving_average", "1", "motion_blend_factor", "0.5",
          "motion_blend_offset", "2", "motion_fps_weight", "2", NULL}},
  {"motion", {"motion_force_zero", "1", NULL}},
  {"float_motion", {"motion_add_uv", "1", "motion_filter_size", "3",
          "debug", "1", NULL}},
  {"float_motion", {"motion_add_scale1", "1", "motion_add_uv", "1", NULL}},
  {"float_motion", {"motion_filter_size", "1", "motion_blend_factor", "0.5",
          "motion_blend_offset", "2", "motion_fps_weight", "2", NULL}},
  {"float_motion", {"motion_force_zero", "1", NULL}},
  {"float_vif", {"vif_kernelscale", "0.5", "vif_enhn_gain_limit", "1.0",
          "debug", "1", NULL}},
  {"float_vif", {"vif_skip_scale0", "1", "vif_sigma_nsq", "1.5",
          "vif_scale2_min_val", "0.9", NULL}},
  {"float_vif", {"vif_kernelscale", "3", NULL}},
  {"float_vif", {"vif_prescale", "0.5", "vif_prescale_method", "bilinear",
          NULL}},
  {"float_vif", {"vif_prescale", "1.5", "vif_prescale_method", "bicubic",
          NULL}},
  {"float_vif", {"vif_prescale", "2", "vif_prescale_method", "nearest",
          NULL}},
  {"float_vif", {"vif_prescale", "0.75", "vif_prescale_method", "lanczos4",
          NULL}},
  /* As the vmaf_v1.0.16 models pass them. */
  {"cambi", {"cambi_high_res_speedup", "1080", "cambi_vis_lum_threshold",
          "0.06", "cambi_max_val", "17", NULL}},
  {"cambi", {"cambi_high_res_speedup", "1080", "cambi_vis_lum_threshold",
          "1", "cambi_max_val", "5", NULL}},
  {"cambi", {"window_size", "33", "topk", "0.2", "tvi_threshold", "0.012",
          "max_log_contrast", "4", NULL}},
  {"cambi", {"enc_width", "220", "enc_height", "160", "enc_bitdepth", "8",
          "eotf", "pq", NULL}},
  {"cambi", {"full_ref", "1", "src_width", "320", "src_height", "240",
          "max_log_contrast", "5", "window_size", "127", NULL}},
  {"cambi", {"full_ref", "1", "cambi_topk", "1", "max_log_contrast", "0",
          "cambi_vis_lum_threshold", "300", NULL}},
  {"float_adm", {"adm_csf_mode", "1", "adm_enhn_gain_limit", "1.2",
          "debug", "1", NULL}},
  {"float_adm", {"adm_csf_mode", "2", "adm_skip_scale0", "1",
          "adm_adm3_apply_hm", "1", NULL}},
  {"float_adm", {"adm_p_norm", "2.5", "adm_skip_aim_scale", "1",
          "adm_noise_weight", "0.5", "adm_min_val", "0.3", NULL}},
  {"float_adm", {"adm_bypass_cm", "1", "adm_f1s0", "0.5", "adm_f2s3", "2",
          "adm_norm_view_dist", "1.5", NULL}},
  /* vmaf_v1.0.16's options (1080p and 2160p), then other CSF modes. */
  {"adm", {"adm_dlm_weight", "0.7", "adm_enhn_gain_limit", "1.0",
          "adm_noise_weight", "0.02", "adm_norm_view_dist", "3.0",
          "adm_ref_display_height", "1080", "adm_min_val", "0.5",
          "adm_csf_mode", "2", NULL}},
  {"adm", {"adm_dlm_weight", "0.7", "adm_enhn_gain_limit", "1.0",
          "adm_noise_weight", "0.02", "adm_norm_view_dist", "1.5",
          "adm_ref_display_height", "2160", "adm_min_val", "0.5",
          "adm_csf_mode", "2", NULL}},
  {"adm", {"adm_csf_mode", "1", "adm_csf_scale", "1.2",
          "adm_csf_diag_scale", "0.8", NULL}},
  {"adm", {"adm_csf_mode", "3", NULL}},
  {"adm", {"adm_skip_scale0", "1", "adm_skip_aim", "1", NULL}},
  {"motion", {"motion_max_val", "18.0", "motion_five_frame_window", "1",
          "motion_moving_average", "1", NULL}},
  /* SpEED: the v1.0.16 settings, each resampler, kernel scale and
   * weighting mode. */
  {"speed_chroma", {"speed_kernelscale", "1.0", "speed_nn_floor", "0.1",
          "speed_sigma_nn", "0.19", "speed_weight_var_mode", "5",
          "speed_max_val", "45.0", NULL}},
  {"speed_chroma", {"speed_nn_floor", "0.1", "speed_sigma_nn", "0.19",
          "speed_weight_var_mode", "5", "speed_prescale", "0.5",
          "speed_prescale_method", "bilinear", "speed_max_val", "45.0",
          NULL}},
  {"speed_chroma", {"speed_prescale", "1.5", "speed_prescale_method",
          "bicubic", "speed_weight_var_mode", "3", NULL}},
  {"speed_chroma", {"speed_prescale", "0.8", "speed_prescale_method",
          "lanczos4", "speed_kernelscale", "0.5", "speed_weight_var_mode",
          "4", NULL}},
  {"speed_chroma", {"speed_prescale", "0.9", "speed_prescale_method",
          "nearest", "speed_weight_var_mode", "6", NULL}},
  {"speed_chroma", {"speed_kernelscale", "2", "speed_weight_var_mode", "1",
          "speed_max_val", "0.5", NULL}},
  {"speed_chroma", {"speed_kernelscale", "0.711111", "speed_weight_var_mode",
          "2", NULL}},
  {"speed_temporal", {"speed_use_ref_diff", "1", "speed_kernelscale", "1.5",
          NULL}},
  {"speed_temporal", {"speed_prescale", "0.6", "speed_prescale_method",
          "bilinear", "speed_sigma_nn", "0.5", "speed_nn_floor", "0.2",
          NULL}},
};

static void
compare_one (const Clip * clip, const VhFeatureExtractorClass * klass,
    const gchar * const *opts, GHashTable * max_diffs)
{
  g_autoptr (GError) cpu_err = NULL;
  g_autoptr (GError) hip_err = NULL;
  g_autofree gchar *opt_text = opts ? g_strjoinv ("=", (gchar **) opts) :
      g_strdup ("");
  g_autofree gchar *what = g_strdup_printf ("%s%s%s on %s", klass->name,
      opts ? " " : "", opt_text, clip->label);
  const VhPicture *first = g_ptr_array_index (clip->refs, 0);
  VhContext *cpu, *hip;
  gdouble diff, *slot;

  if (first->info.width < klass->min_width ||
      first->info.height < klass->min_height)
    return;
  cpu = score (clip, klass->name, opts, VH_BACKEND_CPU, 2, &cpu_err);
  /* Two workers: parallel twins run two instances, two streams. */
  hip = score (clip, klass->name, opts, VH_BACKEND_HIP | VH_BACKEND_CPU, 2,
      &hip_err);
  if (!cpu) {
    /* The feature refuses this input (size, depth): the twin must too. */
    VH_TEST_CHECK (!hip, "%s: the CPU twin refuses (%s) but the HIP twin scores",
        what, cpu_err->message);
    if (hip)
      vh_context_free (hip);
    return;
  }
  VH_TEST_CHECK (hip != NULL, "%s: %s", what, hip_err ? hip_err->message : "?");
  if (hip) {
    g_autofree gchar *dispatch = vh_context_describe_dispatch (hip);
    VH_TEST_CHECK (strstr (dispatch, ": hip") != NULL, "%s: ran as %s", what,
        dispatch);
    diff = compare_runs (what, cpu, hip, tolerance_key (klass->name, opts));
    slot = g_hash_table_lookup (max_diffs, klass->name);
    if (!slot) {
      slot = g_new0 (gdouble, 1);
      g_hash_table_insert (max_diffs, (gpointer) klass->name, slot);
    }
    *slot = MAX (*slot, diff);
    vh_context_free (hip);
  }
  vh_context_free (cpu);
}

static void
test_twins_against_cpu (void)
{
  g_autoptr (GPtrArray) clips = make_clips ();
  g_autoptr (GHashTable) max_diffs = g_hash_table_new_full (g_str_hash,
      g_str_equal, NULL, g_free);
  const VhFeatureExtractorClass *const *list = vh_extractor_set_list (vh_hip_extractor_set (), NULL);
  /* VH_TEST_TWINS=cambi,vif: only those (a quicker run on a GPU). */
  g_auto (GStrv) only = g_getenv ("VH_TEST_TWINS") ?
      g_strsplit (g_getenv ("VH_TEST_TWINS"), ",", -1) : NULL;

  for (guint i = 0; list[i]; i++) {
    const VhFeatureExtractorClass *klass = list[i];
    gint64 t0 = g_get_monotonic_time ();
    gdouble *d;
    if (!(klass->backend & VH_BACKEND_HIP) ||
        (only && !g_strv_contains ((const gchar * const *) only,
                klass->name)))
      continue;
    for (guint c = 0; c < clips->len; c++) {
      compare_one (g_ptr_array_index (clips, c), klass, NULL, max_diffs);
      /* emulated: the options' host code runs in the GPU tests */
      for (guint v = 0; !hip_features_emulated () &&
          v < G_N_ELEMENTS (variants); v++) {
        if (!strcmp (variants[v].feature, klass->name))
          compare_one (g_ptr_array_index (clips, c), klass, variants[v].opts,
              max_diffs);
      }
    }
    d = g_hash_table_lookup (max_diffs, klass->name);
    printf ("# %-14s max |HIP - CPU| over %u clips: %s%.3g (%.1f s)\n",
        klass->name, clips->len, d ? "" : "not run ", d ? *d : 0.0,
        (g_get_monotonic_time () - t0) / 1e6);
  }
}

/* ---- models ----------------------------------------------------------- */

/* Every feature of @dispatch ("name: backend, ...") that runs on the CPU
 * must be one without a HIP twin; returns how many run on the CPU. */
static guint
check_dispatch (const gchar * what, const gchar * dispatch)
{
  g_auto (GStrv) parts = g_strsplit (dispatch, ", ", -1);
  guint n_cpu = 0;

  for (guint i = 0; parts[i]; i++) {
    g_auto (GStrv) kv = g_strsplit (parts[i], ": ", 2);
    if (!kv[0] || !kv[1] || strcmp (kv[1], "cpu"))
      continue;
    n_cpu++;
    VH_TEST_CHECK (vh_extractor_set_find (vh_hip_extractor_set (), kv[0],
            VH_BACKEND_HIP) == NULL,
        "%s: %s runs on the CPU although it has a HIP twin", what, kv[0]);
  }
  return n_cpu;
}

/* A model on HIP and CPU allowed against the CPU alone: the same features
 * and score, and no feature with a twin left on the CPU. */
static VhContext *
score_model (const Clip * clip, const gchar * model_name, VhBackend backends,
    GError ** error)
{
  VhContextConfig cfg = { 0 };
  VhContext *ctx;
  VhModel *model;

  cfg.n_threads = 2;
  cfg.backends = backends;
  cfg.extractors = vh_hip_extractor_set ();
  cfg.transfer = (backends & VH_BACKEND_HIP) ? transfer : NULL;
  ctx = vh_context_new (&cfg);
  model = vh_model_new_builtin (model_name, NULL, error);
  if (!model || !vh_context_add_model (ctx, model, error) ||
      !vh_test_score_clip (ctx, clip->refs, clip->dists, rewrap, error))
    g_clear_pointer (&ctx, vh_context_free);
  return ctx;
}

static void
test_models_on_hip (void)
{
  static const gchar *const models[] = {
    "vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_3d0h_2160", "vmaf_v1.0.16_hfr_3d0h",
  };
  g_autoptr (GPtrArray) clips = make_clips ();

  for (guint m = 0; m < G_N_ELEMENTS (models); m++) {
    gdouble max_diff = 0;
    guint n_run = 0;
    g_autofree gchar *dispatch = NULL;
    for (guint c = 0; c < clips->len; c++) {
      const Clip *clip = g_ptr_array_index (clips, c);
      g_autofree gchar *what = g_strdup_printf ("%s on %s", models[m],
          clip->label);
      g_autoptr (GError) cpu_err = NULL;
      g_autoptr (GError) hip_err = NULL;
      VhContext *cpu = score_model (clip, models[m], VH_BACKEND_CPU, &cpu_err);
      VhContext *hip = score_model (clip, models[m],
          VH_BACKEND_HIP | VH_BACKEND_CPU, &hip_err);
      if (!cpu) {
        /* Too small for a feature (SpEED, ADM): the twins refuse too. */
        VH_TEST_CHECK (!hip, "%s: the CPU refuses (%s) but HIP scores", what,
            cpu_err->message);
      } else {
        VH_TEST_CHECK (hip != NULL, "%s: %s", what, hip_err ? hip_err->message : "?");
      }
      if (cpu && hip) {
        g_free (dispatch);
        dispatch = vh_context_describe_dispatch (hip);
        check_dispatch (what, dispatch);
        max_diff = MAX (max_diff, compare_runs (what, cpu, hip, NULL));
        n_run++;
      }
      g_clear_pointer (&cpu, vh_context_free);
      g_clear_pointer (&hip, vh_context_free);
    }
    VH_TEST_CHECK (n_run > 0, "%s: no clip could be scored", models[m]);
    printf ("# %s on %u clips: max |HIP - CPU| %.3g; dispatch %s\n",
        models[m], n_run, max_diff, dispatch ? dispatch : "-");
  }
}

/* The motion twin alone, driven directly: frames from index 5, the last
 * frame's motion2 held back until flush. */
typedef struct
{
  const gchar *feature;
  const gchar *motion2;
  const gchar *motion3;
} MotionTwin;

static const MotionTwin motion_twins[] = {
  {"motion", "integer_motion2", "integer_motion3"},
  {"float_motion", "motion2", "motion3"},
};

static gchar *
motion_twin_name (gconstpointer row, guint index)
{
  return g_strdup (((const MotionTwin *) row)->feature);
}

static void
test_motion_flush (const MotionTwin * twin)
{
  const gchar *feature = twin->feature, *motion2 = twin->motion2;
  const gchar *motion3 = twin->motion3;
  const VhFeatureExtractorClass *hip_class =
      vh_extractor_set_find (vh_hip_extractor_set (), feature,
      VH_BACKEND_HIP);
  const VhFeatureExtractorClass *cpu_class =
      vh_feature_extractor_find (feature, VH_BACKEND_CPU);
  g_autoptr (GPtrArray) clips = make_clips ();
  const Clip *clip = g_ptr_array_index (clips, clips->len - 1);
  const VhPictureInfo *info =
      &((VhPicture *) g_ptr_array_index (clip->refs, 0))->info;
  VhFeatureExtractor *hip = vh_feature_extractor_new (hip_class);
  VhFeatureExtractor *cpu = vh_feature_extractor_new (cpu_class);
  VhFeatureCollector *fh = vh_feature_collector_new ();
  VhFeatureCollector *fcpu = vh_feature_collector_new ();
  const guint base = 5, n = clip->refs->len;
  const guint last = base + n - 1;
  GError *error = NULL;
  gdouble vh = -1, vc = -2;

  hip->device = device;
  if (!vh_feature_extractor_init (hip, info, &error) ||
      !vh_feature_extractor_init (cpu, info, &error)) {
    VH_TEST_CHECK (FALSE, "%s init: %s", feature, error->message);
    g_clear_error (&error);
    goto out;
  }
  for (guint i = 0; i < n; i++) {
    VhPicture *r = g_ptr_array_index (clip->refs, i);
    VhPicture *d = g_ptr_array_index (clip->dists, i);
    g_autoptr (VhPicture) dr = vh_hip_picture_upload (device, r, &error);
    g_autoptr (VhPicture) dd = dr ? vh_hip_picture_upload (device, d,
        &error) : NULL;
    if (!dd || !vh_feature_extractor_extract (hip, dr, dd, base + i, fh,
            &error) || !vh_feature_extractor_extract (cpu, r, d, base + i,
            fcpu, &error)) {
      VH_TEST_CHECK (FALSE, "%s frame %u: %s", feature, base + i, error->message);
      g_clear_error (&error);
      goto out;
    }
  }
  VH_TEST_CHECK (!vh_feature_collector_get (fh, motion2, last, &vh),
      "the last frame's motion2 came before flush");
  if (!vh_feature_extractor_flush (hip, fh, &error) ||
      !vh_feature_extractor_flush (cpu, fcpu, &error)) {
    VH_TEST_CHECK (FALSE, "%s flush: %s", feature, error->message);
    g_clear_error (&error);
    goto out;
  }
  VH_TEST_CHECK (vh_feature_collector_get (fh, motion2, last, &vh),
      "no motion2 for the last frame after flush");
  VH_TEST_CHECK (vh_feature_collector_get (fcpu, motion2, last, &vc),
      "the CPU twin has no motion2 for the last frame");
  VH_TEST_CHECK (vh == vc, "last motion2: HIP %.17g, CPU %.17g", vh, vc);
  for (guint i = base; i <= last; i++) {
    gdouble a = 0, b = 1;
    VH_TEST_CHECK (vh_feature_collector_get (fh, motion3, i, &a) &&
        vh_feature_collector_get (fcpu, motion3, i, &b) && a == b,
        "motion3 of frame %u: HIP %.17g, CPU %.17g", i, a, b);
  }
  printf ("# %s from frame %u: last motion2 %.6f at flush, as the CPU\n",
      feature, base, vh);
out:
  vh_feature_extractor_free (hip);
  vh_feature_extractor_free (cpu);
  vh_feature_collector_free (fh);
  vh_feature_collector_free (fcpu);
}

/* The cases that need a GPU, after test_select_with_gpu() has set
 * transfer and device. */
void
hip_features_add_gpu_cases (void)
{
  VH_TEST_ADD_CASES ("/hip-features/motion-flush", motion_twins,
      motion_twin_name, test_motion_flush);
  g_test_add_func ("/hip-features/twins-against-cpu",
      test_twins_against_cpu);
  if (!hip_features_emulated ())
    g_test_add_func ("/hip-features/models-on-hip", test_models_on_hip);
}
