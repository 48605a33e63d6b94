/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of integer PSNR ("psnr", src/features/psnr.c): the exact
 * sums of squared errors on the GPU, one launch for the three planes, the
 * rest on the host by the CPU twin's own code (psnr.h). The only
 * difference: 8-bit rows are summed in 64 bits here, where the
 * CPU twin (like libvmaf) wraps a row total at 32 bits, which only a row
 * of more than 66052 samples reaches. */

#include "hip-fex-common.h"
#include "hip-psnr-sse.h"
#include "features/psnr.h"

typedef struct
{
  VhHipFex hip;
  VhPsnr psnr;
} HipPsnr;

VH_HIP_FEX_FIRST (HipPsnr, hip);

static gboolean
hip_psnr_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  HipPsnr *s = fex->priv;

  return vh_psnr_append (fex, &s->psnr, results, index, fc, error);
}

static gboolean
hip_psnr_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipPsnr *s = fex->priv;

  return vh_psnr_setup (&s->psnr, fex, info, error) &&
      vh_hip_fex_init (&s->hip, fex, 3 * sizeof (guint64), hip_psnr_collect,
      error);
}

static gboolean
hip_psnr_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  HipPsnr *s = fex->priv;
  gpointer sse;

  if (!vh_psnr_check_frame (fex, ref, dist, index, error))
    return FALSE;
  sse = vh_hip_fex_begin (&s->hip, index, ref, dist, error);
  return sse && vh_hip_psnr_sse_async (&s->hip, ref, dist, s->psnr.n_planes,
      s->psnr.width, s->psnr.height, FALSE, sse, error) &&
      vh_hip_fex_end (&s->hip, ref, dist, fc, error);
}

static gboolean
hip_psnr_flush (VhFeatureExtractor * fex, VhFeatureCollector * fc,
    GError ** error)
{
  HipPsnr *s = fex->priv;

  if (!vh_hip_fex_drain (&s->hip, fc, error))
    return FALSE;
  vh_psnr_flush_aggregates (&s->psnr, fc);
  return TRUE;
}

const VhFeatureExtractorClass vh_hip_fex_psnr = {
  .name = "psnr",
  .provides = vh_psnr_provides,
  .options = vh_psnr_options,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .flags = 0,
  .min_width = 1,
  .min_height = 1,
  .priv_size = sizeof (HipPsnr),
  .init = hip_psnr_init,
  .extract = hip_psnr_extract,
  .flush = hip_psnr_flush,
  .close = vh_hip_fex_class_close,
  .is_temporal = vh_psnr_is_temporal,
};
