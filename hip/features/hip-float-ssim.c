/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of float_ssim (src/features/float-ssim.c): the box
 * downscaling, when the frame is large, and the Gaussian-window SSIM on the
 * GPU; the frame means finished on the host as the CPU twin does. Only the
 * order of the frame sums differs (per block, then per frame), which moves
 * the results by about one unit in the last place of a float. */

#include "hip-ssim-common.h"
#include "errors.h"

typedef struct
{
  VhHipSsim ssim;               /* first: see vh_hip_ssim_from_extractor() */
  VhHipFex hip;
  guint scale;
  gboolean enable_lcs;
  gboolean enable_db;
  gdouble max_db;
} HipFloatSsim;

/* The CPU twin's options: same names, defaults and ranges. */
static const VhOptionSpec hip_float_ssim_options[] = {
  {"enable_lcs", NULL,
        "also output the luminance, contrast and structure means",
      VH_OPTION_BOOL, 0, 0, 1, 0},
  {"enable_db", NULL, "output SSIM as dB", VH_OPTION_BOOL, 0, 0, 1, 0},
  {"clip_db", NULL, "cap dB values at the frame's resolution limit",
      VH_OPTION_BOOL, 0, 0, 1, 0},
  {"scale", NULL,
        "downscaling factor: 0 picks one from the frame size, 1 keeps it",
      VH_OPTION_INT, 0, 0, 10, 0},
  {NULL}
};

static const gchar *const hip_float_ssim_provides[] = { "float_ssim", NULL };

/* The CPU twin's automatic factor (libvmaf's): the shorter side over 256,
 * rounded half up in single precision, at least 1. */
static guint
auto_scale (guint width, guint height)
{
  const gfloat f = (gfloat) MIN (width, height) / 256.0f;
  const gint i = (gint) f;
  const gint r = (f - (gfloat) i >= 0.5) ? i + 1 : i;

  return MAX (1, r);
}

static gboolean
hip_float_ssim_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  HipFloatSsim *s = fex->priv;
  VhSsimResult res;
  gdouble score;

  vh_hip_ssim_result (&s->ssim, results, 0, &res);
  score = res.ssim;
  if (s->enable_db)
    score = vh_ssim_to_db (score, s->max_db);

  if (!vh_feature_extractor_append (fex, fc, "float_ssim", index, score, error))
    return FALSE;
  if (!s->enable_lcs)
    return TRUE;
  return vh_feature_extractor_append (fex, fc, "float_ssim_l", index, res.l,
      error)
      && vh_feature_extractor_append (fex, fc, "float_ssim_c", index, res.c,
      error)
      && vh_feature_extractor_append (fex, fc, "float_ssim_s", index, res.s,
      error);
}

static gboolean
hip_float_ssim_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipFloatSsim *s = fex->priv;
  guint width = info->width, height = info->height;

  s->scale = (guint) vh_feature_extractor_get_option (fex, "scale");
  if (s->scale == 0)
    s->scale = auto_scale (info->width, info->height);
  s->enable_lcs = vh_feature_extractor_get_option (fex, "enable_lcs") != 0;
  s->enable_db = vh_feature_extractor_get_option (fex, "enable_db") != 0;
  s->max_db = vh_ssim_max_db (vh_feature_extractor_get_option (fex,
          "clip_db") != 0, info->bpc, info->width, info->height);
  if (s->scale > 1) {
    width = vh_ssim_decimated_size (info->width, s->scale);
    height = vh_ssim_decimated_size (info->height, s->scale);
  }
  if (width < VH_SSIM_WINDOW || height < VH_SSIM_WINDOW) {
    g_set_error (error, VH_ERROR, VH_ERROR_TOO_SMALL,
        "feature 'float_ssim': %ux%u scaled down by %u is %ux%u, smaller "
        "than its %ux%u window", info->width, info->height, s->scale,
        width, height, VH_SSIM_WINDOW, VH_SSIM_WINDOW);
    return FALSE;
  }

  if (!vh_hip_fex_init (&s->hip, fex, 4 * sizeof (gdouble),
          hip_float_ssim_collect, error))
    return FALSE;
  /* Scaled down, SSIM reads the planes the box filter writes. */
  if (!vh_hip_ssim_init (&s->ssim, &s->hip, info->bpc, 1, &width, &height,
          s->scale > 1 ? 0 : 1, error)) {
    g_prefix_error (error, "feature 'float_ssim': ");
    vh_hip_fex_close (&s->hip);
    return FALSE;
  }
  return TRUE;
}

static gboolean
hip_float_ssim_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  HipFloatSsim *s = fex->priv;
  gpointer slot;

  if (!vh_hip_ssim_check_pictures (fex->klass->name, &fex->info, ref, dist,
          error))
    return FALSE;
  slot = vh_hip_fex_begin (&s->hip, index, error);
  if (!slot || !vh_hip_ssim_mark (&s->ssim, FALSE, error))
    return FALSE;
  if (s->scale > 1) {
    if (!vh_hip_ssim_box (&s->ssim, ref, dist, s->scale, error) ||
        !vh_hip_ssim_tile (&s->ssim, 0, NULL, NULL, error))
      return FALSE;
  } else if (!vh_hip_ssim_tile (&s->ssim, 0, ref, dist, error)) {
    return FALSE;
  }
  return vh_hip_ssim_reduce (&s->ssim, slot, error) &&
      vh_hip_ssim_mark (&s->ssim, TRUE, error) &&
      vh_hip_fex_end (&s->hip, ref, dist, fc, error);
}

static void
hip_float_ssim_close (VhFeatureExtractor * fex)
{
  HipFloatSsim *s = fex->priv;

  vh_hip_ssim_clear (&s->ssim);
  vh_hip_fex_close (&s->hip);
}

const VhFeatureExtractorClass vh_hip_fex_float_ssim = {
  .name = "float_ssim",
  .provides = hip_float_ssim_provides,
  .options = hip_float_ssim_options,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .min_width = VH_SSIM_WINDOW,
  .min_height = VH_SSIM_WINDOW,
  .priv_size = sizeof (HipFloatSsim),
  .init = hip_float_ssim_init,
  .extract = hip_float_ssim_extract,
  .close = hip_float_ssim_close,
};
