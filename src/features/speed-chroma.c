/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* SpEED on the chroma planes ("speed_chroma"), as libvmaf 3.2: U and V
 * each scored by the SpEED core, uv their mean, or the other plane's score
 * where one plane's covariance cannot be inverted (a flat plane); all
 * three clipped to speed_max_val. libvmaf sizes the chroma planes
 * floor(W / 2) (and floor(H / 2) for 4:2:0). */

#include "speed-options.h"
#include "errors.h"

typedef struct
{
  VhSpeed *speed;
  guint cw, ch;
  gfloat *ref, *dis;
  gdouble max_val;
} SpeedChromaState;

static gboolean
speed_chroma_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  SpeedChromaState *s = fex->priv;
  VhSpeedParams params;
  g_autofree gchar *what = NULL;
  guint ssx, ssy;

  if (info->pix_fmt == VH_PIX_FMT_YUV400) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "speed_chroma needs chroma planes; the input is luma only (4:0:0)");
    return FALSE;
  }
  vh_pix_fmt_subsampling (info->pix_fmt, &ssx, &ssy);
  s->cw = info->width >> ssx;
  s->ch = info->height >> ssy;
  vh_speed_params_from_options (fex, &params);
  params.weight_var_mode = (gint)
      vh_feature_extractor_get_option (fex, "speed_weight_var_mode");
  s->max_val = vh_feature_extractor_get_option (fex, "speed_max_val");

  what = g_strdup_printf ("speed_chroma: the %ux%u U and V planes", s->cw,
      s->ch);
  s->speed = vh_speed_new (&params, s->cw, s->ch, what, error);
  if (!s->speed)
    return FALSE;
  s->ref = g_new0 (gfloat, (gsize) s->cw * s->ch);
  s->dis = g_new0 (gfloat, (gsize) s->cw * s->ch);
  return TRUE;
}

static void
speed_chroma_close (VhFeatureExtractor * fex)
{
  SpeedChromaState *s = fex->priv;

  g_clear_pointer (&s->speed, vh_speed_free);
  g_clear_pointer (&s->ref, g_free);
  g_clear_pointer (&s->dis, g_free);
}

static gboolean
score_plane (SpeedChromaState * s, const VhPicture * ref,
    const VhPicture * dist, guint p, gfloat * score)
{
  guint n_rows;
  const guint *rows = vh_speed_input_rows (s->speed, &n_rows);

  vh_speed_load_rows (ref, p, s->cw, rows, n_rows, s->ref, s->cw);
  vh_speed_load_rows (dist, p, s->cw, rows, n_rows, s->dis, s->cw);
  return vh_speed_score (s->speed, s->ref, s->dis, s->cw, score);
}

static gboolean
speed_chroma_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  SpeedChromaState *s = fex->priv;
  gfloat u, v;
  gboolean bad_u, bad_v;

  if (ref->mem_type != VH_MEMORY_HOST || dist->mem_type != VH_MEMORY_HOST ||
      !vh_picture_info_equal (&ref->info, &fex->info) ||
      !vh_picture_info_equal (&dist->info, &fex->info)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "speed_chroma: pictures differ from the %ux%u %u-bit stream it was "
        "set up for, or are not in host memory", fex->info.width,
        fex->info.height, fex->info.bpc);
    return FALSE;
  }

  bad_u = score_plane (s, ref, dist, 1, &u);
  bad_v = score_plane (s, ref, dist, 2, &v);
  return vh_speed_chroma_append (fex, fc, index, u, bad_u, v, bad_v,
      s->max_val, error);
}

const VhFeatureExtractorClass vh_fex_speed_chroma = {
  .name = "speed_chroma",
  .provides = vh_speed_chroma_provides,
  .options = vh_speed_chroma_options,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .min_width = 1,
  .min_height = 1,
  .priv_size = sizeof (SpeedChromaState),
  .init = speed_chroma_init,
  .extract = speed_chroma_extract,
  .close = speed_chroma_close,
};
