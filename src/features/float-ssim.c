/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* float_ssim: single-scale SSIM of the luma with an 11x11 Gaussian window,
 * on frames first scaled down by a box filter when they are large. */

#include "float-ssim.h"

#include <math.h>
#include "errors.h"

typedef struct
{
  VhFloatSsim fs;
  gfloat *ref;
  gfloat *dist;
  gfloat *ref_small;
  gfloat *dist_small;
  VhSsimWorkspace *ws;
} FloatSsim;

const gchar *const vh_float_ssim_provides[] = { "float_ssim", NULL };

const VhOptionSpec vh_float_ssim_options[] = {
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

/* libvmaf's automatic factor: the shorter side over 256, rounded half up
 * in single precision, at least 1. */
static guint
auto_scale (guint width, guint height)
{
  const gfloat f = (gfloat) MIN (width, height) / 256.0f;
  const gint i = (gint) f;
  const gint r = (f - (gfloat) i >= 0.5) ? i + 1 : i;

  return MAX (1, r);
}

gboolean
vh_float_ssim_setup (VhFloatSsim * fs, const VhFeatureExtractor * fex,
    const VhPictureInfo * info, GError ** error)
{
  fs->scale = (guint) vh_feature_extractor_get_option (fex, "scale");
  if (fs->scale == 0)
    fs->scale = auto_scale (info->width, info->height);
  fs->enable_lcs = vh_feature_extractor_get_option (fex, "enable_lcs") != 0;
  fs->enable_db = vh_feature_extractor_get_option (fex, "enable_db") != 0;
  fs->max_db = vh_ssim_max_db (vh_feature_extractor_get_option (fex,
          "clip_db") != 0, info->bpc, info->width, info->height);

  fs->width = info->width;
  fs->height = info->height;
  if (fs->scale > 1) {
    fs->width = vh_ssim_decimated_size (info->width, fs->scale);
    fs->height = vh_ssim_decimated_size (info->height, fs->scale);
  }
  if (fs->width == 0 || fs->height == 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_TOO_SMALL,
        "feature 'float_ssim': %ux%u scaled down by %u leaves no sample",
        info->width, info->height, fs->scale);
    return FALSE;
  }
  fs->no_window = fs->width < VH_SSIM_WINDOW || fs->height < VH_SSIM_WINDOW;
  return TRUE;
}

void
vh_float_ssim_no_window (const VhFloatSsim * fs, VhSsimResult * res)
{
  const gint n = ((gint) fs->width - (VH_SSIM_WINDOW - 1)) *
      ((gint) fs->height - (VH_SSIM_WINDOW - 1));
  /* 0 / 0 on x86 is the NaN with the sign bit set ("-nan"). */
  const gfloat v = n == 0 ? -NAN : (gfloat) (0.0 / n);

  res->ssim = res->l = res->c = res->s = v;
}

gboolean
vh_float_ssim_append (VhFeatureExtractor * fex, const VhFloatSsim * fs,
    const VhSsimResult * res, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  gdouble score = res->ssim;

  if (fs->enable_db)
    score = vh_ssim_to_db (score, fs->max_db);

  if (!vh_feature_extractor_append (fex, fc, "float_ssim", index, score, error))
    return FALSE;
  if (!fs->enable_lcs)
    return TRUE;
  return vh_feature_extractor_append (fex, fc, "float_ssim_l", index, res->l,
      error)
      && vh_feature_extractor_append (fex, fc, "float_ssim_c", index, res->c,
      error)
      && vh_feature_extractor_append (fex, fc, "float_ssim_s", index, res->s,
      error);
}

static void
float_ssim_close (VhFeatureExtractor * fex)
{
  FloatSsim *s = fex->priv;

  g_free (s->ref);
  g_free (s->dist);
  g_free (s->ref_small);
  g_free (s->dist_small);
  vh_ssim_workspace_free (s->ws);
}

static gboolean
float_ssim_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  FloatSsim *s = fex->priv;
  const gsize n = (gsize) info->width * info->height;

  if (!vh_float_ssim_setup (&s->fs, fex, info, error))
    return FALSE;

  s->ref = g_new (gfloat, n);
  s->dist = g_new (gfloat, n);
  if (s->fs.scale > 1) {
    s->ref_small = g_new (gfloat, (gsize) s->fs.width * s->fs.height);
    s->dist_small = g_new (gfloat, (gsize) s->fs.width * s->fs.height);
  }
  s->ws = vh_ssim_workspace_new (s->fs.width);
  return TRUE;
}

static gboolean
float_ssim_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  FloatSsim *s = fex->priv;
  const gfloat *a = s->ref, *b = s->dist;
  VhSsimResult res;

  if (!vh_ssim_check_pictures (fex, ref, dist, error))
    return FALSE;
  vh_ssim_load_luma (ref, s->ref);
  vh_ssim_load_luma (dist, s->dist);
  if (s->fs.scale > 1) {
    vh_ssim_decimate_box (s->ref, ref->width[0], ref->height[0], s->fs.scale,
        s->ref_small);
    vh_ssim_decimate_box (s->dist, dist->width[0], dist->height[0],
        s->fs.scale, s->dist_small);
    a = s->ref_small;
    b = s->dist_small;
  }
  if (s->fs.no_window)
    vh_float_ssim_no_window (&s->fs, &res);
  else
    vh_ssim_compute (s->ws, a, b, s->fs.width, s->fs.height, &res);
  return vh_float_ssim_append (fex, &s->fs, &res, index, fc, error);
}

const VhFeatureExtractorClass vh_fex_float_ssim = {
  .name = "float_ssim",
  .provides = vh_float_ssim_provides,
  .options = vh_float_ssim_options,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = VH_FLOAT_SSIM_MIN_SIZE,
  .min_height = VH_FLOAT_SSIM_MIN_SIZE,
  .priv_size = sizeof (FloatSsim),
  .init = float_ssim_init,
  .extract = float_ssim_extract,
  .close = float_ssim_close,
};
