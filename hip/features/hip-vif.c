/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of integer VIF ("vif", src/features/integer-vif.c): the
 * four scales' exact integer sums on the GPU (hip-vif-launch.c), one copy
 * of them back per frame, and the CPU twin's final arithmetic on the host,
 * so that every value is bit for bit the CPU twin's. */

#include "hip-fex-common.h"
#include "hip-vif-launch.h"
#include "errors.h"

/* As the CPU twin (see VIF_MIN_SIZE there). */
#define HIP_VIF_MIN_SIZE 16

typedef struct
{
  VhHipFex hip;
  VhHipVifLaunch launch;
  gdouble gain_limit;
  gboolean skip_scale0;
  gboolean debug;
} HipVif;

/* The CPU twin's options, same names, defaults and ranges. */
static const VhOptionSpec hip_vif_options[] = {
  {"debug", NULL,
        "also output the pooled VIF and the numerator and denominator of "
        "every scale",
      VH_OPTION_BOOL, 0.0, 0.0, 1.0, 0},
  {"vif_enhn_gain_limit", "egl",
        "enhancement gain imposed on vif, must be >= 1.0, where 1.0 means "
        "the gain is completely disabled",
      VH_OPTION_DOUBLE, 100.0, 1.0, 100.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"vif_skip_scale0", "ssclz", "when set, skip scale 0 calculations",
      VH_OPTION_BOOL, 0.0, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {NULL}
};

static const gchar *const hip_vif_provides[] = {
  "integer_vif_scale0",
  "integer_vif_scale1",
  "integer_vif_scale2",
  "integer_vif_scale3",
  NULL
};

static gboolean
emit (VhFeatureExtractor * fex, VhFeatureCollector * fc, const gchar * name,
    guint index, gdouble value, GError ** error)
{
  return vh_feature_extractor_append (fex, fc, name, index, value, error);
}

/* The CPU twin's write_scores(): single-precision ratios per scale, the
 * debug values in double. */
static gboolean
write_scores (VhFeatureExtractor * fex, VhFeatureCollector * fc, guint index,
    const gfloat * num, const gfloat * den, GError ** error)
{
  HipVif *s = fex->priv;
  gdouble sum_num = 0.0, sum_den = 0.0;

  for (guint i = 0; i < VH_VIF_N_SCALES; i++) {
    gfloat score = (i == 0 && s->skip_scale0) ? 0.0f : num[i] / den[i];

    if (!emit (fex, fc, hip_vif_provides[i], index, score, error))
      return FALSE;
  }
  if (!s->debug)
    return TRUE;

  for (guint i = s->skip_scale0 ? 1 : 0; i < VH_VIF_N_SCALES; i++) {
    sum_num += num[i];
    sum_den += den[i];
  }
  if (!emit (fex, fc, "integer_vif", index,
          sum_den == 0.0 ? 1.0 : sum_num / sum_den, error) ||
      !emit (fex, fc, "integer_vif_num", index, sum_num, error) ||
      !emit (fex, fc, "integer_vif_den", index, sum_den, error))
    return FALSE;
  for (guint i = 0; i < VH_VIF_N_SCALES; i++) {
    gchar name_num[32], name_den[32];
    gboolean skipped = i == 0 && s->skip_scale0;

    g_snprintf (name_num, sizeof (name_num), "integer_vif_num_scale%u", i);
    g_snprintf (name_den, sizeof (name_den), "integer_vif_den_scale%u", i);
    if (!emit (fex, fc, name_num, index, skipped ? 0.0 : num[i], error) ||
        !emit (fex, fc, name_den, index, skipped ? -1.0 : den[i], error))
      return FALSE;
  }
  return TRUE;
}

static gboolean
hip_vif_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  HipVif *s = fex->priv;
  const VhVifAccum *acc = results;
  gfloat num[VH_VIF_N_SCALES] = { 0 }, den[VH_VIF_N_SCALES] = { 0 };

  for (guint i = s->skip_scale0 ? 1 : 0; i < VH_VIF_N_SCALES; i++) {
    num[i] = acc[i].num_log / 2048.0 +
        (acc[i].den_non_log - (acc[i].num_non_log / 16384.0) / 65025.0);
    den[i] = acc[i].den_log / 2048.0 + acc[i].den_non_log;
  }
  return write_scores (fex, fc, index, num, den, error);
}

static gboolean
hip_vif_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipVif *s = fex->priv;

  if (info->bpc < 8 || info->bpc > 16) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature 'vif' takes 8 to 16 bits per sample, got %u", info->bpc);
    return FALSE;
  }
  if (info->width < HIP_VIF_MIN_SIZE || info->height < HIP_VIF_MIN_SIZE) {
    g_set_error (error, VH_ERROR, VH_ERROR_TOO_SMALL,
        "feature 'vif' needs frames of at least %ux%u, got %ux%u",
        HIP_VIF_MIN_SIZE, HIP_VIF_MIN_SIZE, info->width, info->height);
    return FALSE;
  }
  s->gain_limit = vh_feature_extractor_get_option (fex, "vif_enhn_gain_limit");
  s->skip_scale0 = vh_feature_extractor_get_option (fex, "vif_skip_scale0");
  s->debug = vh_feature_extractor_get_option (fex, "debug");
  if (!vh_hip_fex_init (&s->hip, fex,
          VH_VIF_N_SCALES * sizeof (VhVifAccum), hip_vif_collect, error))
    return FALSE;
  if (!vh_hip_vif_launch_init (&s->launch, s->hip.device, info->width,
          info->height, info->bpc, error)) {
    g_prefix_error (error, "feature 'vif': ");
    vh_hip_fex_close (&s->hip);
    return FALSE;
  }
  return TRUE;
}

static gboolean
check_picture (VhFeatureExtractor * fex, const VhPicture * pic,
    const gchar * what, GError ** error)
{
  if (pic->info.width != fex->info.width ||
      pic->info.height != fex->info.height || pic->info.bpc != fex->info.bpc) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature 'vif': %s picture is %ux%u at %u bits, expected %ux%u at "
        "%u bits", what, pic->info.width, pic->info.height, pic->info.bpc,
        fex->info.width, fex->info.height, fex->info.bpc);
    return FALSE;
  }
  if (pic->mem_type != VH_MEMORY_HIP_DEVICE || pic->step[0] != 1) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature 'vif': the %s luma must be a planar plane in device memory",
        what);
    return FALSE;
  }
  return TRUE;
}

static gboolean
hip_vif_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  HipVif *s = fex->priv;
  gpointer sums;

  if (!check_picture (fex, ref, "reference", error) ||
      !check_picture (fex, dist, "distorted", error))
    return FALSE;
  sums = vh_hip_fex_begin (&s->hip, index, error);
  return sums && vh_hip_vif_launch_frame (&s->launch, s->hip.stream,
      ref->data[0], ref->stride[0], dist->data[0], dist->stride[0],
      s->gain_limit, s->skip_scale0, sums, error) &&
      vh_hip_fex_end (&s->hip, ref, dist, fc, error);
}

static gboolean
hip_vif_flush (VhFeatureExtractor * fex, VhFeatureCollector * fc,
    GError ** error)
{
  HipVif *s = fex->priv;

  return vh_hip_fex_drain (&s->hip, fc, error);
}

static void
hip_vif_close (VhFeatureExtractor * fex)
{
  HipVif *s = fex->priv;

  /* Waits for the stream before the buffers go. */
  vh_hip_fex_close (&s->hip);
  vh_hip_vif_launch_clear (&s->launch);
}

const VhFeatureExtractorClass vh_hip_fex_integer_vif = {
  .name = "vif",
  .provides = hip_vif_provides,
  .options = hip_vif_options,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .flags = 0,
  .min_width = HIP_VIF_MIN_SIZE,
  .min_height = HIP_VIF_MIN_SIZE,
  .priv_size = sizeof (HipVif),
  .init = hip_vif_init,
  .extract = hip_vif_extract,
  .flush = hip_vif_flush,
  .close = hip_vif_close,
};
