/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* CAMBI, Netflix's banding detector, as libvmaf computes it. It scores the
 * distorted picture alone (the reference too with full_ref), frame by frame,
 * on luma converted to 10 bit. With heatmaps_path it also writes its c
 * values per scale (cambi-heatmap.c), one instance in frame order. */

#include "cambi-private.h"
#include "../errors.h"
#include "../feature-extractor.h"

#define DEFAULT_TOPK 0.6
#define DEFAULT_WINDOW 65

static const gint scale_weights[VH_CAMBI_NUM_SCALES] = { 16, 8, 4, 2, 1 };

typedef struct
{
  guint enc_w, enc_h, enc_bitdepth;
  guint src_w, src_h;
  guint window, src_window;
  gdouble topk;
  gdouble max_val;
  gboolean full_ref;
  gboolean speedup;
  VhCambiContrast contrast;

  VhCambiPlanes planes;
  gfloat *c_values;
  guint16 *work;                /* histograms of vh_cambi_c_values */
  guint16 *mode_rows;
  guint8 *mask_scratch;
  VhCambiHeatmaps heatmaps;
  gboolean write_heatmaps;
} VhCambi;

static const gchar *const cambi_provides[] = { "cambi", NULL };

/* Indexed by VhCambiEotf. */
static const gchar *const cambi_eotf_names[] = { "bt1886", "pq", NULL };

static const VhOptionSpec cambi_options[] = {
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

static gboolean
cambi_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  VhCambi *s = fex->priv;
  guint w = info->width, h = info->height;
  guint alloc_w, alloc_h, eotf, largest;
  gsize stride, work_size;
  const gchar *heatmaps;

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

  alloc_w = s->full_ref ? MAX (s->enc_w, s->src_w) : s->enc_w;
  alloc_h = s->full_ref ? MAX (s->enc_h, s->src_h) : s->enc_h;
  stride = (alloc_w + 31) & ~31u;
  s->planes.stride = stride;
  s->planes.image = g_new (guint16, stride * alloc_h);
  s->planes.mask = g_new (guint8, stride * alloc_h);
  s->c_values = g_new (gfloat, (gsize) alloc_w * alloc_h);
  work_size = vh_cambi_c_values_work_size (&s->contrast, alloc_w,
      MAX (s->window, s->src_window));
  s->work = g_new (guint16, work_size);
  s->mode_rows = g_new (guint16, 3 * (gsize) alloc_w);
  s->mask_scratch = g_new (guint8, vh_cambi_mask_scratch_size (alloc_w));
  /* Build the shared table now rather than during the first frame. */
  vh_cambi_reciprocals ();
  heatmaps = vh_feature_extractor_get_string_option (fex, "heatmaps_path");
  if (heatmaps && !vh_cambi_heatmaps_open (&s->heatmaps, heatmaps, s->enc_w,
          s->enc_h, error))
    return FALSE;
  s->write_heatmaps = heatmaps != NULL;
  return TRUE;
}

/* Heatmaps are written at each frame's place in one set of files: one
 * instance, frames in order. */
static gboolean
cambi_is_temporal (const VhFeatureExtractor * fex)
{
  return vh_feature_extractor_get_string_option (fex, "heatmaps_path") != NULL;
}

static gboolean
cambi_score (VhCambi * s, const VhPicture * pic, guint w, guint h,
    guint window, gint heatmap_frame, gdouble * score, GError ** error)
{
  const VhCambiPlanes *p = &s->planes;
  gdouble per_scale[VH_CAMBI_NUM_SCALES];

  if (!vh_cambi_load_luma (pic, p, w, h, error))
    return FALSE;
  if (s->enc_bitdepth < 10)
    vh_cambi_anti_dither (p, w, h);
  vh_cambi_spatial_mask (p, w, h, s->mask_scratch);

  for (guint scale = 0; scale < VH_CAMBI_NUM_SCALES; scale++) {
    if (scale > 0 || s->speedup) {
      w = (w + 1) >> 1;
      h = (h + 1) >> 1;
      vh_cambi_decimate (p, w, h);
    }
    vh_cambi_mode_filter (p, w, h, s->mode_rows);
    vh_cambi_c_values (p, &s->contrast, w, h, window, s->work, s->c_values);
    if (heatmap_frame >= 0 && !vh_cambi_heatmaps_write (&s->heatmaps,
            &s->contrast, scale, window, s->c_values, w, h, heatmap_frame,
            error))
      return FALSE;
    per_scale[scale] = vh_cambi_topk_mean (s->c_values, (gsize) w * h, s->topk);
  }

  *score = 0.0;
  for (guint scale = 0; scale < VH_CAMBI_NUM_SCALES; scale++)
    *score += per_scale[scale] * scale_weights[scale];
  *score /= (gdouble) (window * window);
  return TRUE;
}

static gboolean
cambi_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  VhCambi *s = fex->priv;
  gdouble dist_score, src_score;

  if (dist->step[0] != 1 || ref->step[0] != 1) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature 'cambi' needs planar luma");
    return FALSE;
  }
  if (!cambi_score (s, dist, s->enc_w, s->enc_h, s->window,
          s->write_heatmaps ? (gint) index : -1, &dist_score, error))
    return FALSE;
  if (!vh_feature_extractor_append (fex, fc, "cambi", index,
          MIN (dist_score, s->max_val), error))
    return FALSE;
  if (!s->full_ref)
    return TRUE;

  if (!cambi_score (s, ref, s->src_w, s->src_h, s->src_window, -1,
          &src_score, error))
    return FALSE;
  /* libvmaf names only the main score after the options. */
  return vh_feature_extractor_append_unsuffixed (fex, fc, "cambi_source",
      index, MIN (src_score, s->max_val), error)
      && vh_feature_extractor_append_unsuffixed (fex, fc,
      "cambi_full_reference", index,
      MIN (MAX (dist_score - src_score, 0.0), s->max_val), error);
}

static void
cambi_close (VhFeatureExtractor * fex)
{
  VhCambi *s = fex->priv;

  g_free (s->planes.image);
  g_free (s->planes.mask);
  g_free (s->c_values);
  g_free (s->work);
  g_free (s->mode_rows);
  g_free (s->mask_scratch);
  vh_cambi_heatmaps_close (&s->heatmaps);
}

const VhFeatureExtractorClass vh_fex_cambi = {
  .name = "cambi",
  .provides = cambi_provides,
  .options = cambi_options,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = 0,
  /* At least one side must reach 216: checked in init. */
  .min_width = 1,
  .min_height = 1,
  .priv_size = sizeof (VhCambi),
  .init = cambi_init,
  .extract = cambi_extract,
  .close = cambi_close,
  .is_temporal = cambi_is_temporal,
};
