/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of "float_psnr" (src/features/float-psnr.c): the luma sum
 * of squared errors on the GPU (each square rounded to single precision at
 * 16 bits, where libvmaf's float square rounds; below, squares are exact),
 * scaled and turned into decibels on the host as the CPU twin does. */

#include "hip-fex-common.h"
#include "hip-psnr-sse.h"
#include "errors.h"

#include <math.h>

typedef struct
{
  VhHipFex hip;
  gdouble peak;
  gdouble psnr_max;
  gdouble scale2;
} HipFloatPsnr;

static const gchar *const hip_float_psnr_provides[] = { "float_psnr", NULL };

static gboolean
hip_float_psnr_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  HipFloatPsnr *s = fex->priv;
  const guint64 *sum = results;
  gdouble noise, score;

  noise = (gdouble) sum[0] / s->scale2;
  noise /= (gint) (fex->info.width * fex->info.height);
  score = 10 * log10 (s->peak * s->peak / (noise > 1e-10 ? noise : 1e-10));
  score = score < s->psnr_max ? score : s->psnr_max;
  return vh_feature_extractor_append (fex, fc, "float_psnr", index, score,
      error);
}

static gboolean
hip_float_psnr_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipFloatPsnr *s = fex->priv;
  guint shift;

  if (info->bpc != 8 && info->bpc != 10 && info->bpc != 12 && info->bpc != 16) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "float_psnr: unsupported bit depth %u (8, 10, 12 or 16)", info->bpc);
    return FALSE;
  }
  shift = info->bpc - 8;
  s->peak = (gdouble) ((1u << info->bpc) - 1) / (1u << shift);
  s->psnr_max = 6 * info->bpc + 12;
  s->scale2 = (gdouble) (1u << shift) * (1u << shift);
  return vh_hip_fex_init (&s->hip, fex, sizeof (guint64),
      hip_float_psnr_collect, error);
}

static gboolean
hip_float_psnr_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  HipFloatPsnr *s = fex->priv;
  const guint w[3] = { fex->info.width, 0, 0 };
  const guint h[3] = { fex->info.height, 0, 0 };
  gpointer sum;

  if (ref->info.width != fex->info.width ||
      ref->info.height != fex->info.height || ref->info.bpc != fex->info.bpc
      || dist->info.width != fex->info.width
      || dist->info.height != fex->info.height
      || dist->info.bpc != fex->info.bpc) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "float_psnr: frame %u does not match the stream's %ux%u %u-bit",
        index, fex->info.width, fex->info.height, fex->info.bpc);
    return FALSE;
  }
  sum = vh_hip_fex_begin (&s->hip, index, error);
  return sum && vh_hip_psnr_sse_async (&s->hip, ref, dist, 1, w, h,
      fex->info.bpc > 12, sum, error) &&
      vh_hip_fex_end (&s->hip, ref, dist, fc, error);
}

static gboolean
hip_float_psnr_flush (VhFeatureExtractor * fex, VhFeatureCollector * fc,
    GError ** error)
{
  HipFloatPsnr *s = fex->priv;

  return vh_hip_fex_drain (&s->hip, fc, error);
}

static void
hip_float_psnr_close (VhFeatureExtractor * fex)
{
  HipFloatPsnr *s = fex->priv;

  vh_hip_fex_close (&s->hip);
}

const VhFeatureExtractorClass vh_hip_float_psnr_class = {
  .name = "float_psnr",
  .provides = hip_float_psnr_provides,
  .options = NULL,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .flags = 0,
  .min_width = 1,
  .min_height = 1,
  .priv_size = sizeof (HipFloatPsnr),
  .init = hip_float_psnr_init,
  .extract = hip_float_psnr_extract,
  .flush = hip_float_psnr_flush,
  .close = hip_float_psnr_close,
};
