/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Float VIF ("float_vif"): visual information fidelity at four scales in
 * single precision, as libvmaf 3.2's float extractor computes it. Each
 * scale filters both lumas with a Gaussian (17, 9, 5 and 3 taps), turns
 * the local moments into a log-ratio statistic and sums it over the whole
 * plane; the next scale is the plane filtered with that scale's Gaussian
 * and taken at even rows and columns. */

#include "float-vif.h"
#include "errors.h"
#include "float-picture.h"
#include "vif-options.h"

#include <math.h>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#define FVIF_MIN_SIZE VH_FLOAT_VIF_MIN_SIZE

typedef struct
{
  VhFloatVif v;
  gsize stride[VH_FVIF_N_SCALES];
  gfloat *plane[VH_FVIF_N_SCALES][2];   /* reference, distorted */
  VhFvifWork work;
  gfloat *input[2];             /* vif_prescale: luma at the input size */
} FvifState;

const VhOptionSpec vh_float_vif_options[] = {
  VH_VIF_OPTION_DEBUG,
  VH_VIF_OPTION_ENHN_GAIN_LIMIT,
  {"vif_kernelscale", "ks",
        "scaling factor for the Gaussian kernels (2.0 doubles their standard "
        "deviation and widens them accordingly); one of libvmaf's listed "
        "values",
      VH_OPTION_DOUBLE, 1.0, 0.1, 4.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"vif_prescale", "ps",
        "resample both pictures by this factor first (2.0 doubles each side)",
      VH_OPTION_DOUBLE, 1.0, 0.1, 4.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"vif_scale1_min_val", "s1miv",
        "minimum value allowed; smaller values will be set to this value",
      VH_OPTION_DOUBLE, 0.0, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"vif_scale2_min_val", "s2miv",
        "minimum value allowed; smaller values will be set to this value",
      VH_OPTION_DOUBLE, 0.0, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"vif_scale3_min_val", "s3miv",
        "minimum value allowed; smaller values will be set to this value",
      VH_OPTION_DOUBLE, 0.0, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"vif_prescale_method", "pm",
        "resampling of vif_prescale: nearest, bilinear, bicubic or lanczos4",
        VH_OPTION_CHOICE, VH_FLOAT_SCALE_NEAREST, 0, 0,
      VH_OPTION_FLAG_FEATURE_PARAM, vh_float_scale_method_names},
  {"vif_sigma_nsq", "snsq", "neural noise variance",
      VH_OPTION_DOUBLE, 2.0, 0.0, 5.0, VH_OPTION_FLAG_FEATURE_PARAM},
  VH_VIF_OPTION_SKIP_SCALE0,
  {NULL}
};

const gchar *const vh_float_vif_provides[] = {
  "vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3", NULL
};

gboolean
vh_float_vif_setup (VhFloatVif * v, const VhFeatureExtractor * fex,
    const VhPictureInfo * info, GError ** error)
{
  gdouble nsq, prescale;
  gfloat kernel_scale;
  guint w, h;

  kernel_scale = vh_feature_extractor_get_option (fex, "vif_kernelscale");
  if (!vh_fvif_kernel_scale_valid (kernel_scale)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature 'float_vif': vif_kernelscale %g is not one of libvmaf's "
        "kernel scales (1, 0.5, 1.5, 2, 2/3, 2.4, 360/97, 4/3, 3.5/3, "
        "3.75/3, 4.25/3, 5/3, 3, 1/2.25, 1.4746, 1.54, 1.6, 1.06667, "
        "0.711111, 0.74074, 1.111111)", kernel_scale);
    return FALSE;
  }
  prescale = vh_feature_extractor_get_option (fex, "vif_prescale");
  v->prescale_method = (VhFloatScaleMethod)
      vh_feature_extractor_get_option (fex, "vif_prescale_method");
  v->in_w = info->width;
  v->in_h = info->height;
  w = (gint) (info->width * prescale + 0.5);
  h = (gint) (info->height * prescale + 0.5);
  if (v->prescale_method == VH_FLOAT_SCALE_BILINEAR &&
      w > VH_FLOAT_SCALE_BILINEAR_MAX_WIDTH) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature 'float_vif': bilinear vif_prescale to a width of %u is "
        "wider than libvmaf's limit of %u", w,
        VH_FLOAT_SCALE_BILINEAR_MAX_WIDTH);
    return FALSE;
  }
  if (w < FVIF_MIN_SIZE || h < FVIF_MIN_SIZE) {
    g_set_error (error, VH_ERROR, VH_ERROR_TOO_SMALL,
        "feature 'float_vif': vif_prescale %g makes %ux%u, below the "
        "%ux%u it needs", prescale, w, h, FVIF_MIN_SIZE, FVIF_MIN_SIZE);
    return FALSE;
  }
  v->prescale = w != info->width || h != info->height;
  v->debug = vh_feature_extractor_get_option (fex, "debug") != 0.0;
  v->skip_scale0 =
      vh_feature_extractor_get_option (fex, "vif_skip_scale0") != 0.0;
  v->min_val[1] = vh_feature_extractor_get_option (fex, "vif_scale1_min_val");
  v->min_val[2] = vh_feature_extractor_get_option (fex, "vif_scale2_min_val");
  v->min_val[3] = vh_feature_extractor_get_option (fex, "vif_scale3_min_val");
  nsq = vh_feature_extractor_get_option (fex, "vif_sigma_nsq");
  v->params.sigma_nsq = nsq;
  v->params.gain_limit =
      (gfloat) vh_feature_extractor_get_option (fex, "vif_enhn_gain_limit");
  v->params.sigma_max_inv = powf ((gfloat) nsq, 2.0f) / (255.0 * 255.0);

  for (guint i = 0; i < VH_FVIF_N_SCALES; i++) {
    v->w[i] = i ? v->w[i - 1] / 2 : w;
    v->h[i] = i ? v->h[i - 1] / 2 : h;
    v->fw[i] = vh_fvif_filter (i, kernel_scale, v->filter[i]);
    /* Mirrored edges reflect once: the plane must outreach the filter. */
    if (v->w[i] <= v->fw[i] / 2 || v->h[i] <= v->fw[i] / 2) {
      g_set_error (error, VH_ERROR, VH_ERROR_TOO_SMALL,
          "feature 'float_vif': scale %u is %ux%u, too small for its "
          "%u-tap filter (vif_kernelscale %g)", i, v->w[i], v->h[i],
          v->fw[i], kernel_scale);
      return FALSE;
    }
  }
  return TRUE;
}

static gboolean
fvif_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  FvifState *s = fex->priv;
  const VhFloatVif *v = &s->v;

  if (!vh_float_vif_setup (&s->v, fex, info, error))
    return FALSE;
  if (v->prescale) {
    for (guint p = 0; p < 2; p++)
      s->input[p] = g_new (gfloat, (gsize) v->in_w * v->in_h);
  }
  for (guint i = 0; i < VH_FVIF_N_SCALES; i++) {
    s->stride[i] = v->w[i];
    for (guint p = 0; p < 2; p++)
      s->plane[i][p] = g_new (gfloat, s->stride[i] * v->h[i]);
  }
  vh_fvif_work_init (&s->work, v->w[0]);
  return TRUE;
}

static void
fvif_close (VhFeatureExtractor * fex)
{
  FvifState *s = fex->priv;

  for (guint i = 0; i < VH_FVIF_N_SCALES; i++) {
    for (guint p = 0; p < 2; p++)
      g_clear_pointer (&s->plane[i][p], g_free);
  }
  g_clear_pointer (&s->input[0], g_free);
  g_clear_pointer (&s->input[1], g_free);
  vh_fvif_work_clear (&s->work);
}

static gboolean
fvif_emit_debug (const VhFloatVif * v, VhFeatureExtractor * fex,
    VhFeatureCollector * fc, guint index, const gdouble * scores,
    GError ** error)
{
  gdouble sum_num = 0.0, sum_den = 0.0;

  for (guint i = v->skip_scale0 ? 1 : 0; i < VH_FVIF_N_SCALES; i++) {
    sum_num += scores[2 * i];
    sum_den += scores[2 * i + 1];
  }
  if (!vh_feature_extractor_append (fex, fc, "vif", index,
          sum_den == 0.0 ? 1.0 : sum_num / sum_den, error) ||
      !vh_feature_extractor_append (fex, fc, "vif_num", index, sum_num,
          error) ||
      !vh_feature_extractor_append (fex, fc, "vif_den", index, sum_den, error))
    return FALSE;
  for (guint i = 0; i < VH_FVIF_N_SCALES; i++) {
    gchar name_num[32], name_den[32];
    gboolean skipped = i == 0 && v->skip_scale0;

    g_snprintf (name_num, sizeof (name_num), "vif_num_scale%u", i);
    g_snprintf (name_den, sizeof (name_den), "vif_den_scale%u", i);
    if (!vh_feature_extractor_append (fex, fc, name_num, index,
            skipped ? 0.0 : scores[2 * i], error) ||
        !vh_feature_extractor_append (fex, fc, name_den, index,
            skipped ? -1.0 : scores[2 * i + 1], error))
      return FALSE;
  }
  return TRUE;
}

gboolean
vh_float_vif_append (const VhFloatVif * v, VhFeatureExtractor * fex,
    const gfloat * sums, guint index, VhFeatureCollector * fc, GError ** error)
{
  gdouble scores[2 * VH_FVIF_N_SCALES] = { 0 };

  for (guint i = v->skip_scale0 ? 1 : 0; i < VH_FVIF_N_SCALES; i++) {
    scores[2 * i] = sums[2 * i];
    scores[2 * i + 1] = sums[2 * i + 1];
  }
  for (guint i = 0; i < VH_FVIF_N_SCALES; i++) {
    gchar name[16];
    gdouble value;

    if (i == 0 && v->skip_scale0) {
      value = 0.0;
    } else {
      value = scores[2 * i] / scores[2 * i + 1];
      if (i > 0)
        value = MAX (value, v->min_val[i]);
    }
    g_snprintf (name, sizeof (name), "vif_scale%u", i);
    if (!vh_feature_extractor_append (fex, fc, name, index, value, error))
      return FALSE;
  }
  return !v->debug || fvif_emit_debug (v, fex, fc, index, scores, error);
}

static gboolean
fvif_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  FvifState *s = fex->priv;
  const VhFloatVif *v = &s->v;
  gfloat sums[2 * VH_FVIF_N_SCALES] = { 0 };

  if (!vh_float_check_picture ("float_vif", &fex->info, ref, "reference",
          error) ||
      !vh_float_check_picture ("float_vif", &fex->info, dist, "distorted",
          error))
    return FALSE;

  if (v->prescale) {
    vh_float_load_luma (ref, s->input[0], v->in_w);
    vh_float_load_luma (dist, s->input[1], v->in_w);
    for (guint p = 0; p < 2; p++)
      vh_float_scale (v->prescale_method, s->input[p], v->in_w, v->in_h,
          v->in_w, s->plane[0][p], v->w[0], v->h[0], s->stride[0]);
  } else {
    vh_float_load_luma (ref, s->plane[0][0], s->stride[0]);
    vh_float_load_luma (dist, s->plane[0][1], s->stride[0]);
  }

  for (guint i = 0; i < VH_FVIF_N_SCALES; i++) {
    if (i > 0) {
      for (guint p = 0; p < 2; p++)
        vh_fvif_decimate (&s->work, v->filter[i], v->fw[i],
            s->plane[i - 1][p], s->stride[i - 1], v->w[i - 1], v->h[i - 1],
            s->plane[i][p], s->stride[i]);
    }
    if (i == 0 && v->skip_scale0)
      continue;
    vh_fvif_scale_sums (&s->work, v->filter[i], v->fw[i], s->plane[i][0],
        s->plane[i][1], s->stride[i], v->w[i], v->h[i], &v->params,
        &sums[2 * i], &sums[2 * i + 1]);
  }
  return vh_float_vif_append (v, fex, sums, index, fc, error);
}

const VhFeatureExtractorClass vh_fex_float_vif = {
  .name = "float_vif",
  .provides = vh_float_vif_provides,
  .options = vh_float_vif_options,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = FVIF_MIN_SIZE,
  .min_height = FVIF_MIN_SIZE,
  .priv_size = sizeof (FvifState),
  .init = fvif_init,
  .extract = fvif_extract,
  .close = fvif_close,
};
