/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of integer VIF ("vif", src/features/integer-vif.c): the
 * four scales' exact integer sums on the GPU (hip-vif-launch.c), one copy
 * of them back per frame, and the CPU twin's own final arithmetic on the
 * host (integer-vif.h), so that every value is bit for bit the CPU
 * twin's. */

#include "hip-fex-common.h"
#include "hip-integer-vif-launch.h"
#include "features/integer-vif.h"
#include "errors.h"

typedef struct
{
  VhHipFex hip;
  VhHipVifLaunch launch;
  VhIntegerVif vif;
} HipVif;

VH_HIP_FEX_FIRST (HipVif, hip);

static gboolean
hip_vif_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  HipVif *s = fex->priv;

  return vh_integer_vif_append (fex, &s->vif, results, index, fc, error);
}

static gboolean
hip_vif_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipVif *s = fex->priv;

  if (!vh_integer_vif_setup (&s->vif, fex, info, error))
    return FALSE;
  if (!vh_hip_fex_init (&s->hip, fex,
          VH_VIF_N_SCALES * sizeof (VhVifAccum), hip_vif_collect, error))
    return FALSE;
  if (!vh_hip_vif_launch_init (&s->launch, s->hip.device, info->width,
          info->height, info->bpc, error)) {
    g_prefix_error (error, "feature 'vif': ");
    vh_hip_fex_close (&s->hip);
    return FALSE;
  }
  return TRUE;
}

static gboolean
check_picture (VhFeatureExtractor * fex, const VhPicture * pic,
    const gchar * what, GError ** error)
{
  if (!vh_integer_vif_check_picture (fex, pic, what, error))
    return FALSE;
  if (pic->mem_type != VH_MEMORY_HIP_DEVICE || pic->step[0] != 1) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature 'vif': the %s luma must be a planar plane in device memory",
        what);
    return FALSE;
  }
  return TRUE;
}

static gboolean
hip_vif_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  HipVif *s = fex->priv;
  gpointer sums;

  if (!check_picture (fex, ref, "reference", error) ||
      !check_picture (fex, dist, "distorted", error))
    return FALSE;
  sums = vh_hip_fex_begin (&s->hip, index, ref, dist, error);
  return sums && vh_hip_vif_launch_frame (&s->launch, s->hip.stream,
      ref->data[0], ref->stride[0], dist->data[0], dist->stride[0],
      s->vif.gain_limit, s->vif.skip_scale0, sums, error) &&
      vh_hip_fex_end (&s->hip, ref, dist, fc, error);
}

static void
hip_vif_close (VhFeatureExtractor * fex)
{
  HipVif *s = fex->priv;

  /* Waits for the stream before the buffers go. */
  vh_hip_fex_close (&s->hip);
  vh_hip_vif_launch_clear (&s->launch);
}

const VhFeatureExtractorClass vh_hip_fex_integer_vif = {
  .name = "vif",
  .provides = vh_integer_vif_provides,
  .options = vh_integer_vif_options,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .flags = VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = VH_VIF_MIN_SIZE,
  .min_height = VH_VIF_MIN_SIZE,
  .priv_size = sizeof (HipVif),
  .init = hip_vif_init,
  .extract = hip_vif_extract,
  .flush = vh_hip_fex_class_flush,
  .close = hip_vif_close,
};
