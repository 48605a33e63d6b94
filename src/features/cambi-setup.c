/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What both CAMBI twins (cambi.c and its HIP twin) share around the pixel
 * work: the options, their resolution for a picture size, and the scores
 * from the per-scale pooled values. */

#include "cambi-private.h"
#include "../errors.h"

#define DEFAULT_TOPK 0.6
#define DEFAULT_WINDOW 65

static const gint scale_weights[VH_CAMBI_NUM_SCALES] = { 16, 8, 4, 2, 1 };

const gchar *const vh_cambi_provides[] = { "cambi", NULL };

/* Indexed by VhCambiEotf. */
static const gchar *const cambi_eotf_names[] = { "bt1886", "pq", NULL };

const VhOptionSpec vh_cambi_options[] = {
  {"cambi_max_val", "cmxv", "Largest value reported; larger ones are clipped",
      VH_OPTION_DOUBLE, 1000.0, 0.0, 1000.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"enc_width", "encw", "Encoding width (0: the picture width)",
      VH_OPTION_INT, 0, 180, 7680, VH_OPTION_FLAG_FEATURE_PARAM},
  {"enc_height", "ench", "Encoding height (0: the picture height)",
      VH_OPTION_INT, 0, 150, 7680, VH_OPTION_FLAG_FEATURE_PARAM},
  {"enc_bitdepth", "encbd", "Encoding bit depth (0: the picture's)",
      VH_OPTION_INT, 0, 6, 16, VH_OPTION_FLAG_FEATURE_PARAM},
  {"src_width", "srcw", "Source width, used with full_ref",
      VH_OPTION_INT, 0, 320, 7680, VH_OPTION_FLAG_FEATURE_PARAM},
  {"src_height", "srch", "Source height, used with full_ref",
      VH_OPTION_INT, 0, 200, 4320, VH_OPTION_FLAG_FEATURE_PARAM},
  {"window_size", "ws", "Window size at 4K (65 is about one degree)",
      VH_OPTION_INT, DEFAULT_WINDOW, 15, 127, VH_OPTION_FLAG_FEATURE_PARAM},
  {"topk", NULL, "Share of pixels pooled, 0 < topk <= 1", VH_OPTION_DOUBLE,
      DEFAULT_TOPK, 0.0001, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"cambi_topk", "ctpk", "Share pooled (topk wins if set)", VH_OPTION_DOUBLE,
      DEFAULT_TOPK, 0.0001, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"tvi_threshold", "tvit", "Visibility threshold: dL < tvi_threshold * L",
      VH_OPTION_DOUBLE, 0.019, 0.0001, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"cambi_vis_lum_threshold", "vlt",
        "Luminance (cd/m2) below which banding is invisible",
      VH_OPTION_DOUBLE, 0.0, 0.0, 300.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"max_log_contrast", "mlc", "Largest contrast, log2 of 10-bit levels",
      VH_OPTION_INT, 2, 0, 5, VH_OPTION_FLAG_FEATURE_PARAM},
  {"full_ref", NULL, "Also score the reference and report the difference",
      VH_OPTION_BOOL, 0, 0, 1, 0},
  {"heatmaps_path", NULL,
        "Folder (created) where the c values of every scale are written "
        "as raw 16-bit grey frames",
      VH_OPTION_STRING, 0, 0, 0, 0},
  {"eotf", NULL, "EOTF of the visibility thresholds: bt1886 or pq",
        VH_OPTION_CHOICE, VH_CAMBI_EOTF_BT1886, 0, 0,
      VH_OPTION_FLAG_FEATURE_PARAM, cambi_eotf_names},
  {"cambi_eotf", "ceot", "EOTF: bt1886 or pq (wins over eotf when set)",
        VH_OPTION_CHOICE, VH_CAMBI_EOTF_BT1886, 0, 0,
      VH_OPTION_FLAG_FEATURE_PARAM, cambi_eotf_names},
  {"cambi_high_res_speedup", "hrs",
        "Halve the work from this height up: 1080, 1440, 2160 or 0 (off)",
      VH_OPTION_INT, 0, 0, 2160, VH_OPTION_FLAG_FEATURE_PARAM},
  {NULL},
};

static guint
option_uint (VhFeatureExtractor * fex, const gchar * name)
{
  return (guint) vh_feature_extractor_get_option (fex, name);
}

/* The window scales with the picture: @window is meant for 3840 + 2160. */
static guint
scaled_window (guint window, guint w, guint h, gboolean speedup)
{
  window = ((window * (w + h)) / 375) >> 4;
  if (speedup)
    window = (window + 1) >> 1;
  return window | 1;
}

static gboolean
speedup_applies (guint from_height, guint w, guint h)
{
  guint64 pixels = (guint64) w * h;

  switch (from_height) {
    case 1080:
      return pixels >= 1920 * 1080;
    case 1440:
      return pixels >= 2560 * 1440;
    case 2160:
      return pixels >= 3840 * 2160;
    default:
      return FALSE;
  }
}

static gboolean
side_large_enough (guint w, guint h, GError ** error)
{
  if (w >= VH_CAMBI_MIN_SIDE || h >= VH_CAMBI_MIN_SIDE)
    return TRUE;
  g_set_error (error, VH_ERROR, VH_ERROR_TOO_SMALL,
      "feature 'cambi' needs a width or a height of at least %u, got %ux%u",
      VH_CAMBI_MIN_SIDE, w, h);
  return FALSE;
}

gboolean
vh_cambi_params_init (VhCambiParams * s, VhFeatureExtractor * fex,
    const VhPictureInfo * info, GError ** error)
{
  guint w = info->width, h = info->height;
  guint eotf, largest;

  s->enc_bitdepth = option_uint (fex, "enc_bitdepth");
  if (!s->enc_bitdepth)
    s->enc_bitdepth = info->bpc;
  s->enc_w = option_uint (fex, "enc_width");
  s->enc_h = option_uint (fex, "enc_height");
  if (!s->enc_w || !s->enc_h || s->enc_w > w || s->enc_h > h) {
    /* Unset, or larger than the picture: score at the picture size (a
     * downscaled encode is not scaled back up). */
    s->enc_w = w;
    s->enc_h = h;
  }
  s->src_w = option_uint (fex, "src_width");
  s->src_h = option_uint (fex, "src_height");
  if (!s->src_w || !s->src_h) {
    s->src_w = w;
    s->src_h = h;
  }
  if (!side_large_enough (s->enc_w, s->enc_h, error) ||
      !side_large_enough (s->src_w, s->src_h, error))
    return FALSE;
  if ((s->src_w > s->enc_w && s->src_h < s->enc_h) ||
      (s->src_w < s->enc_w && s->src_h > s->enc_h)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature 'cambi': source size %ux%u and encoding size %ux%u are "
        "not scaled the same way", s->src_w, s->src_h, s->enc_w, s->enc_h);
    return FALSE;
  }

  s->speedup = speedup_applies (option_uint (fex, "cambi_high_res_speedup"),
      s->enc_w, s->enc_h);
  s->window = scaled_window (option_uint (fex, "window_size"), s->enc_w,
      s->enc_h, s->speedup);
  s->src_window = scaled_window (option_uint (fex, "window_size"), s->src_w,
      s->src_h, s->speedup);
  largest = MAX (s->window, s->src_window);
  if (largest * largest >= VH_CAMBI_RECIPROCALS) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature 'cambi': window_size %u at %ux%u is too large",
        option_uint (fex, "window_size"), MAX (s->enc_w, s->src_w),
        MAX (s->enc_h, s->src_h));
    return FALSE;
  }

  /* topk wins when it was changed from its default, as in libvmaf. */
  s->topk = vh_feature_extractor_get_option (fex, "topk");
  if (s->topk == DEFAULT_TOPK)
    s->topk = vh_feature_extractor_get_option (fex, "cambi_topk");
  s->max_val = vh_feature_extractor_get_option (fex, "cambi_max_val");
  s->full_ref = vh_feature_extractor_get_option (fex, "full_ref") != 0.0;
  eotf = option_uint (fex, "cambi_eotf");
  if (eotf == VH_CAMBI_EOTF_BT1886)
    eotf = option_uint (fex, "eotf");
  vh_cambi_contrast_init (&s->contrast,
      option_uint (fex, "max_log_contrast"),
      vh_feature_extractor_get_option (fex, "tvi_threshold"),
      vh_feature_extractor_get_option (fex, "cambi_vis_lum_threshold"),
      (VhCambiEotf) eotf);
  /* Build the shared table now rather than during the first frame. */
  vh_cambi_reciprocals ();
  return TRUE;
}

gdouble
vh_cambi_combine_scales (const gdouble * per_scale, guint window)
{
  gdouble score = 0.0;

  for (guint scale = 0; scale < VH_CAMBI_NUM_SCALES; scale++)
    score += per_scale[scale] * scale_weights[scale];
  return score / (gdouble) (window * window);
}

gboolean
vh_cambi_append (VhFeatureExtractor * fex, const VhCambiParams * s,
    VhFeatureCollector * fc, guint index, gdouble dist_score,
    gdouble src_score, GError ** error)
{
  if (!vh_feature_extractor_append (fex, fc, "cambi", index,
          MIN (dist_score, s->max_val), error))
    return FALSE;
  if (!s->full_ref)
    return TRUE;
  /* libvmaf names only the main score after the options. */
  return vh_feature_extractor_append_unsuffixed (fex, fc, "cambi_source",
      index, MIN (src_score, s->max_val), error)
      && vh_feature_extractor_append_unsuffixed (fex, fc,
      "cambi_full_reference", index,
      MIN (MAX (dist_score - src_score, 0.0), s->max_val), error);
}
