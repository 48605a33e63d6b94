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
 * scaled and turned into decibels on the host by the CPU twin's own code
 * (float-psnr.h). */

#include "hip-fex-common.h"
#include "hip-psnr-sse.h"
#include "features/float-psnr.h"

typedef struct
{
  VhHipFex hip;
  VhFloatPsnr fp;
} HipFloatPsnr;

VH_HIP_FEX_FIRST (HipFloatPsnr, hip);

static gboolean
hip_float_psnr_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  HipFloatPsnr *s = fex->priv;

  return vh_float_psnr_append (fex, &s->fp, *(const guint64 *) results,
      index, fc, error);
}

static gboolean
hip_float_psnr_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipFloatPsnr *s = fex->priv;

  return vh_float_psnr_setup (&s->fp, info, error) &&
      vh_hip_fex_init (&s->hip, fex, sizeof (guint64),
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

  if (!vh_feature_extractor_check_luma (fex, ref, dist, index, error))
    return FALSE;
  sum = vh_hip_fex_begin (&s->hip, index, ref, dist, error);
  return sum && vh_hip_psnr_sse_async (&s->hip, ref, dist, 1, w, h,
      fex->info.bpc > 12, sum, error) &&
      vh_hip_fex_end (&s->hip, ref, dist, fc, error);
}

const VhFeatureExtractorClass vh_hip_fex_float_psnr = {
  .name = "float_psnr",
  .provides = vh_float_psnr_provides,
  .options = NULL,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .flags = VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = 1,
  .min_height = 1,
  .priv_size = sizeof (HipFloatPsnr),
  .init = hip_float_psnr_init,
  .extract = hip_float_psnr_extract,
  .flush = vh_hip_fex_class_flush,
  .close = vh_hip_fex_class_close,
};
