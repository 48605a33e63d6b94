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
 * GPU; the options and the values from the frame means are the CPU twin's
 * own code (float-ssim.h). Only the order of the frame sums differs (per
 * block, then per frame), which moves the results by about one unit in the
 * last place of a float. */

#include "hip-ssim-common.h"
#include "features/float-ssim.h"

typedef struct
{
  VhHipSsim ssim;               /* first: see vh_hip_ssim_from_extractor() */
  VhHipFex hip;
  VhFloatSsim fs;
} HipFloatSsim;

static gboolean
hip_float_ssim_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  HipFloatSsim *s = fex->priv;
  VhSsimResult res;

  vh_hip_ssim_result (&s->ssim, results, 0, &res);
  return vh_float_ssim_append (fex, &s->fs, &res, index, fc, error);
}

static gboolean
hip_float_ssim_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipFloatSsim *s = fex->priv;

  if (!vh_float_ssim_setup (&s->fs, fex, info, error))
    return FALSE;
  /* No window fits: libvmaf's fixed values, nothing for the GPU to do. */
  if (s->fs.no_window)
    return TRUE;
  /* Scaled down, SSIM reads the planes the box filter writes. */
  return vh_hip_ssim_open (&s->ssim, &s->hip, fex, hip_float_ssim_collect, 1,
      &s->fs.width, &s->fs.height, s->fs.scale > 1 ? 0 : 1, error);
}

static gboolean
hip_float_ssim_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  HipFloatSsim *s = fex->priv;
  gpointer slot;

  if (s->fs.no_window) {
    VhSsimResult res;
    vh_float_ssim_no_window (&s->fs, &res);
    return vh_float_ssim_append (fex, &s->fs, &res, index, fc, error);
  }
  slot = vh_hip_ssim_begin (&s->ssim, fex, ref, dist, index, error);
  if (!slot)
    return FALSE;
  if (s->fs.scale > 1) {
    if (!vh_hip_ssim_box (&s->ssim, ref, dist, s->fs.scale, error) ||
        !vh_hip_ssim_tile (&s->ssim, 0, NULL, NULL, error))
      return FALSE;
  } else if (!vh_hip_ssim_tile (&s->ssim, 0, ref, dist, error)) {
    return FALSE;
  }
  return vh_hip_ssim_end (&s->ssim, slot, ref, dist, fc, error);
}

static void
hip_float_ssim_close (VhFeatureExtractor * fex)
{
  HipFloatSsim *s = fex->priv;

  if (!s->fs.no_window)
    vh_hip_ssim_close (&s->ssim, &s->hip);
}

const VhFeatureExtractorClass vh_hip_fex_float_ssim = {
  .name = "float_ssim",
  .provides = vh_float_ssim_provides,
  .options = vh_float_ssim_options,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .flags = VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = VH_FLOAT_SSIM_MIN_SIZE,
  .min_height = VH_FLOAT_SSIM_MIN_SIZE,
  .priv_size = sizeof (HipFloatSsim),
  .init = hip_float_ssim_init,
  .extract = hip_float_ssim_extract,
  .close = hip_float_ssim_close,
};
