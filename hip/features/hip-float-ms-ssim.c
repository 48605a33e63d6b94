/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of float_ms_ssim (src/features/float-ms-ssim.c): the
 * wavelet pyramid and the Gaussian-window SSIM of its five scales on the
 * GPU, in one result slot per frame; the options and the weighted product
 * are the CPU twin's own code (float-ms-ssim.h). Only the order of the
 * frame sums differs. */

#include "hip-ssim-common.h"
#include "features/float-ms-ssim.h"

#define N_SCALES VH_MS_SSIM_N_SCALES

G_STATIC_ASSERT (N_SCALES <= VH_HIP_SSIM_MAX_SCALES);

typedef struct
{
  VhHipSsim ssim;               /* first: see vh_hip_ssim_from_extractor() */
  VhHipFex hip;
  VhFloatMsSsim ms;
} HipFloatMsSsim;

static gboolean
hip_float_ms_ssim_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  HipFloatMsSsim *s = fex->priv;
  VhSsimResult res[N_SCALES];

  for (guint i = 0; i < N_SCALES; i++)
    vh_hip_ssim_result (&s->ssim, results, i, &res[i]);
  return vh_float_ms_ssim_append (fex, &s->ms, res, index, fc, error);
}

static gboolean
hip_float_ms_ssim_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipFloatMsSsim *s = fex->priv;

  vh_float_ms_ssim_setup (&s->ms, fex, info);
  /* Scale 0 reads the pictures, the others the planes of the pyramid. */
  return vh_hip_ssim_open (&s->ssim, &s->hip, fex, hip_float_ms_ssim_collect,
      N_SCALES, s->ms.width, s->ms.height, 1, error);
}

static gboolean
hip_float_ms_ssim_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  HipFloatMsSsim *s = fex->priv;
  gpointer slot;

  slot = vh_hip_ssim_begin (&s->ssim, fex, ref, dist, index, error);
  if (!slot)
    return FALSE;
  for (guint i = 0; i < N_SCALES; i++) {
    const VhPicture *a = i ? NULL : ref, *b = i ? NULL : dist;

    if (!vh_hip_ssim_tile (&s->ssim, i, a, b, error))
      return FALSE;
    if (i + 1 < N_SCALES && !vh_hip_ssim_lpf (&s->ssim, i, a, b, error))
      return FALSE;
  }
  return vh_hip_ssim_end (&s->ssim, slot, ref, dist, fc, error);
}

static void
hip_float_ms_ssim_close (VhFeatureExtractor * fex)
{
  HipFloatMsSsim *s = fex->priv;

  vh_hip_ssim_close (&s->ssim, &s->hip);
}

const VhFeatureExtractorClass vh_hip_fex_float_ms_ssim = {
  .name = "float_ms_ssim",
  .provides = vh_float_ms_ssim_provides,
  .options = vh_float_ms_ssim_options,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .flags = VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = VH_MS_SSIM_MIN_SIZE,
  .min_height = VH_MS_SSIM_MIN_SIZE,
  .priv_size = sizeof (HipFloatMsSsim),
  .init = hip_float_ms_ssim_init,
  .extract = hip_float_ms_ssim_extract,
  .close = hip_float_ms_ssim_close,
};
