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

typedef struct
{
  VhCambiParams params;

  VhCambiPlanes planes;
  gfloat *c_values;
  guint16 *work;                /* histograms of vh_cambi_c_values */
  guint16 *mode_rows;
  guint8 *mask_scratch;
  VhCambiHeatmaps heatmaps;
  gboolean write_heatmaps;
} VhCambi;

static gboolean
cambi_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  VhCambi *s = fex->priv;
  const VhCambiParams *p = &s->params;
  guint alloc_w, alloc_h;
  gsize stride, work_size;
  const gchar *heatmaps;

  if (!vh_cambi_params_init (&s->params, fex, info, error))
    return FALSE;
  alloc_w = p->full_ref ? MAX (p->enc_w, p->src_w) : p->enc_w;
  alloc_h = p->full_ref ? MAX (p->enc_h, p->src_h) : p->enc_h;
  stride = (alloc_w + 31) & ~31u;
  s->planes.stride = stride;
  s->planes.image = g_new (guint16, stride * alloc_h);
  s->planes.mask = g_new (guint8, stride * alloc_h);
  s->c_values = g_new (gfloat, (gsize) alloc_w * alloc_h);
  work_size = vh_cambi_c_values_work_size (&p->contrast, alloc_w,
      MAX (p->window, p->src_window));
  s->work = g_new (guint16, work_size);
  s->mode_rows = g_new (guint16, 3 * (gsize) alloc_w);
  s->mask_scratch = g_new (guint8, vh_cambi_mask_scratch_size (alloc_w));
  heatmaps = vh_feature_extractor_get_string_option (fex, "heatmaps_path");
  if (heatmaps && !vh_cambi_heatmaps_open (&s->heatmaps, heatmaps, p->enc_w,
          p->enc_h, error))
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
  const VhCambiParams *par = &s->params;
  gdouble per_scale[VH_CAMBI_NUM_SCALES];

  if (!vh_cambi_load_luma (pic, p, w, h, error))
    return FALSE;
  if (par->enc_bitdepth < 10)
    vh_cambi_anti_dither (p, w, h);
  vh_cambi_spatial_mask (p, w, h, s->mask_scratch);

  for (guint scale = 0; scale < VH_CAMBI_NUM_SCALES; scale++) {
    if (scale > 0 || par->speedup) {
      w = (w + 1) >> 1;
      h = (h + 1) >> 1;
      vh_cambi_decimate (p, w, h);
    }
    vh_cambi_mode_filter (p, w, h, s->mode_rows);
    vh_cambi_c_values (p, &par->contrast, w, h, window, s->work,
        s->c_values);
    if (heatmap_frame >= 0 && !vh_cambi_heatmaps_write (&s->heatmaps,
            &par->contrast, scale, window, s->c_values, w, h, heatmap_frame,
            error))
      return FALSE;
    per_scale[scale] = vh_cambi_topk_mean (s->c_values, (gsize) w * h,
        par->topk);
  }
  *score = vh_cambi_combine_scales (per_scale, window);
  return TRUE;
}

static gboolean
cambi_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  VhCambi *s = fex->priv;
  const VhCambiParams *p = &s->params;
  gdouble dist_score, src_score = 0.0;

  if (dist->step[0] != 1 || ref->step[0] != 1) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature 'cambi' needs planar luma");
    return FALSE;
  }
  if (!cambi_score (s, dist, p->enc_w, p->enc_h, p->window,
          s->write_heatmaps ? (gint) index : -1, &dist_score, error))
    return FALSE;
  if (p->full_ref && !cambi_score (s, ref, p->src_w, p->src_h, p->src_window,
          -1, &src_score, error))
    return FALSE;
  return vh_cambi_append (fex, p, fc, index, dist_score, src_score, error);
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
  .provides = vh_cambi_provides,
  .options = vh_cambi_options,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = VH_EXTRACTOR_FLAG_LUMA_ONLY,
  /* At least one side must reach 216: checked in init. */
  .min_width = 1,
  .min_height = 1,
  .priv_size = sizeof (VhCambi),
  .init = cambi_init,
  .extract = cambi_extract,
  .close = cambi_close,
  .is_temporal = cambi_is_temporal,
};
