/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of integer ADM ("adm"): the same outputs, options and
 * values as the CPU twin (src/features/integer-adm.c), bit for bit. The
 * GPU computes each scale's integer sums (hip-adm-launch.c, kernels in
 * kernels/adm.hip); one copy brings them back, and the host finishes the
 * scores with the CPU twin's own code (integer-adm.h), as it sets up the
 * options and constants. */

#include "hip-integer-adm-private.h"
#include "errors.h"

/* What the GPU sends back a frame. */
typedef VhAdmSums AdmResults[VH_ADM_N_SCALES];

static gboolean
adm_collect (VhFeatureExtractor * fex, gconstpointer results, guint index,
    VhFeatureCollector * fc, GError ** error)
{
  VhHipAdmPriv *p = fex->priv;

  return vh_integer_adm_append (fex, &p->adm, results, index, fc, error);
}

static gboolean
adm_init (VhFeatureExtractor * fex, const VhPictureInfo * info, GError ** error)
{
  VhHipAdmPriv *p = fex->priv;

  if (!vh_integer_adm_setup (&p->adm, fex, info, error))
    return FALSE;
  if (!vh_hip_fex_init (&p->hip, fex, sizeof (AdmResults), adm_collect, error))
    return FALSE;
  if (!vh_hip_adm_device_init (p, info->bpc, error)) {
    g_prefix_error (error, "adm: ");
    vh_hip_adm_device_close (p);
    vh_hip_fex_close (&p->hip);
    return FALSE;
  }
  return TRUE;
}

static void
adm_close (VhFeatureExtractor * fex)
{
  VhHipAdmPriv *p = fex->priv;

  vh_hip_adm_device_close (p);
  vh_hip_fex_close (&p->hip);
}

static gboolean
check_picture (const VhFeatureExtractor * fex, const VhPicture * pic,
    GError ** error)
{
  if (!vh_integer_adm_check_format (fex, pic, error))
    return FALSE;
  if (pic->mem_type != VH_MEMORY_HIP_DEVICE) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "adm: the HIP twin takes pictures in device memory");
    return FALSE;
  }
  return vh_integer_adm_check_planar (pic, error);
}

static gboolean
adm_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  VhHipAdmPriv *p = fex->priv;
  gpointer slot;

  if (!check_picture (fex, ref, error) || !check_picture (fex, dist, error))
    return FALSE;
  slot = vh_hip_fex_begin (&p->hip, index, ref, dist, error);
  if (!slot || !vh_hip_adm_enqueue (fex, ref, dist, slot, error))
    return FALSE;
  return vh_hip_fex_end (&p->hip, ref, dist, fc, error);
}

const VhFeatureExtractorClass vh_hip_fex_integer_adm = {
  .name = "adm",
  .provides = vh_integer_adm_provides,
  .options = vh_integer_adm_options,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .flags = VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = VH_ADM_MIN_SIZE,
  .min_height = VH_ADM_MIN_SIZE,
  .priv_size = sizeof (VhHipAdmPriv),
  .init = adm_init,
  .extract = adm_extract,
  .close = adm_close,
};
