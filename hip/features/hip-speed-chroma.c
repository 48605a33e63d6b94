/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of "speed_chroma" (src/features/speed-chroma.c): the U and
 * V planes of both pictures scored by the SpEED core on the GPU
 * (hip-speed-common.h), read where they lie (planar or interleaved); the
 * two scores and error flags come back in the frame's slot, and the host
 * combines them as the CPU twin does. */

#include "hip-speed-common.h"
#include "features/speed-options.h"
#include "errors.h"

typedef struct
{
  VhHipFex hip;
  VhHipSpeed speed;
  gdouble max_val;
} HipSpeedChroma;

VH_HIP_FEX_FIRST (HipSpeedChroma, hip);

/* Slot: U score, U error flag, V score, V error flag. */
static gboolean
hip_speed_chroma_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  HipSpeedChroma *s = fex->priv;
  const gfloat *r = results;

  return vh_speed_chroma_append (fex, fc, index, r[0], r[1] != 0.0f, r[2],
      r[3] != 0.0f, s->max_val, error);
}

static void
hip_speed_chroma_close (VhFeatureExtractor * fex)
{
  HipSpeedChroma *s = fex->priv;

  if (s->hip.stream)
    vh_hip_stream_synchronize (s->hip.stream, NULL);
  vh_hip_speed_close (&s->speed, s->hip.device);
  vh_hip_fex_close (&s->hip);
}

static gboolean
hip_speed_chroma_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipSpeedChroma *s = fex->priv;
  VhSpeedParams params;
  g_autofree gchar *what = NULL;
  guint ssx, ssy, cw, ch;

  if (info->pix_fmt == VH_PIX_FMT_YUV400) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "speed_chroma needs chroma planes; the input is luma only (4:0:0)");
    return FALSE;
  }
  vh_pix_fmt_subsampling (info->pix_fmt, &ssx, &ssy);
  cw = info->width >> ssx;
  ch = info->height >> ssy;
  vh_speed_params_from_options (fex, &params);
  params.weight_var_mode = (gint)
      vh_feature_extractor_get_option (fex, "speed_weight_var_mode");
  s->max_val = vh_feature_extractor_get_option (fex, "speed_max_val");
  what = g_strdup_printf ("speed_chroma: the %ux%u U and V planes", cw, ch);

  if (vh_hip_fex_init (&s->hip, fex, 4 * sizeof (gfloat),
          hip_speed_chroma_collect, error) &&
      vh_hip_speed_init (&s->speed, &s->hip, &params, cw, ch, info->bpc, 4,
          what, error))
    return TRUE;
  hip_speed_chroma_close (fex);
  return FALSE;
}

static void
plane_of (VhHipSpeedPlane * p, const VhPicture * pic, guint plane)
{
  p->a = pic->data[plane];
  p->b = NULL;
  p->a_pitch = pic->stride[plane];
  p->b_pitch = 0;
  p->a_step = MAX (pic->step[plane], 1);
  p->b_step = 1;
}

static gboolean
hip_speed_chroma_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  HipSpeedChroma *s = fex->priv;
  VhHipSpeedPlane planes[4];
  gfloat *out;

  if (ref->mem_type != VH_MEMORY_HIP_DEVICE ||
      dist->mem_type != VH_MEMORY_HIP_DEVICE ||
      !vh_picture_info_equal (&ref->info, &fex->info) ||
      !vh_picture_info_equal (&dist->info, &fex->info)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "speed_chroma: pictures differ from the %ux%u %u-bit stream it was "
        "set up for, or are not in HIP device memory", fex->info.width,
        fex->info.height, fex->info.bpc);
    return FALSE;
  }
  plane_of (&planes[0], ref, 1);
  plane_of (&planes[1], dist, 1);
  plane_of (&planes[2], ref, 2);
  plane_of (&planes[3], dist, 2);

  out = vh_hip_fex_begin (&s->hip, index, ref, dist, error);
  return out && vh_hip_speed_enqueue (&s->speed, &s->hip, planes, out, error)
      && vh_hip_fex_end (&s->hip, ref, dist, fc, error);
}

const VhFeatureExtractorClass vh_hip_fex_speed_chroma = {
  .name = "speed_chroma",
  .provides = vh_speed_chroma_provides,
  .options = vh_speed_chroma_options,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .min_width = 1,
  .min_height = 1,
  .priv_size = sizeof (HipSpeedChroma),
  .init = hip_speed_chroma_init,
  .extract = hip_speed_chroma_extract,
  .flush = vh_hip_fex_class_flush,
  .close = hip_speed_chroma_close,
};
