/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* PSNR-HVS-M ("psnr_hvs"): psnr_hvs_y, psnr_hvs_cb, psnr_hvs_cr and their
 * 0.8 / 0.1 / 0.1 blend, as libvmaf 3.2 computes them with Xiph's method
 * (Ponomarenko et al.): 8x8 blocks every 7 samples, Daala's integer DCT,
 * errors below a contrast-masking threshold dropped and the rest weighted
 * by a contrast sensitivity table. libvmaf accepts 8 to 12 bits and needs
 * chroma; its float sums are kept in the same order here so the values
 * are equal. */

#include "psnr-hvs.h"
#include "errors.h"
#include "simd.h"

#include <math.h>

const gchar *const vh_psnr_hvs_provides[] = {
  "psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs", NULL
};

typedef struct
{
  VhPsnrHvs hvs;
  gboolean use_avx2;
} VhPsnrHvsState;

gboolean
vh_psnr_hvs_setup (VhPsnrHvs * s, const VhPictureInfo * info, GError ** error)
{
  guint ssx, ssy;

  if (info->bpc > 12) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "psnr_hvs: unsupported bit depth %u: libvmaf's PSNR-HVS takes 8 to "
        "12 bits", info->bpc);
    return FALSE;
  }
  if (info->pix_fmt == VH_PIX_FMT_YUV400) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "psnr_hvs: needs chroma planes; 4:0:0 (luma only) is not supported");
    return FALSE;
  }

  vh_pix_fmt_subsampling (info->pix_fmt, &ssx, &ssy);
  for (guint p = 0; p < 3; p++) {
    s->width[p] = p ? info->width >> ssx : info->width;
    s->height[p] = p ? info->height >> ssy : info->height;
    /* libvmaf weighs both chroma planes with its 4:2:0 tables whatever the
     * subsampling. */
    vh_psnr_hvs_tables_init (&s->tables[p], p);
  }
  return TRUE;
}

guint
vh_psnr_hvs_n_blocks (guint width, guint height, guint * n_across,
    guint * n_down)
{
  *n_across = width >= 8 ? (width - 8) / 7 + 1 : 0;
  *n_down = height >= 8 ? (height - 8) / 7 + 1 : 0;
  return *n_across * *n_down;
}

gboolean
vh_psnr_hvs_append (VhFeatureExtractor * fex, const gdouble score[3],
    guint index, VhFeatureCollector * fc, GError ** error)
{
  static const gchar *const names[3] = {
    "psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr"
  };
  gdouble blend;

  for (guint p = 0; p < 3; p++) {
    if (!vh_feature_extractor_append (fex, fc, names[p], index,
            -10 * log10 (score[p]), error))
      return FALSE;
  }
  blend = score[0] * .8 + .1 * (score[1] + score[2]);
  return vh_feature_extractor_append (fex, fc, "psnr_hvs", index,
      -10 * log10 (blend), error);
}

static gboolean
psnr_hvs_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  VhPsnrHvsState *s = fex->priv;

  s->use_avx2 = vh_simd_use_avx2 (fex->cpu_mask);
  return vh_psnr_hvs_setup (&s->hvs, info, error);
}

static gboolean
psnr_hvs_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  VhPsnrHvsState *s = fex->priv;
  const VhPsnrHvs *h = &s->hvs;
  gdouble score[3];

  if (ref->mem_type != VH_MEMORY_HOST || dist->mem_type != VH_MEMORY_HOST ||
      !vh_picture_info_equal (&ref->info, &fex->info) ||
      !vh_picture_info_equal (&dist->info, &fex->info)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "psnr_hvs: frame %u does not match the stream's %ux%u %u-bit "
        "pictures in host memory", index, fex->info.width, fex->info.height,
        fex->info.bpc);
    return FALSE;
  }

  for (guint p = 0; p < 3; p++) {
    VhPsnrHvsPlane rp = {
      ref->data[p], ref->stride[p], ref->step[p] ? ref->step[p] : 1
    };
    VhPsnrHvsPlane dp = {
      dist->data[p], dist->stride[p], dist->step[p] ? dist->step[p] : 1
    };

#ifdef VH_PSNR_HVS_HAVE_AVX2
    if (s->use_avx2)
      score[p] = vh_psnr_hvs_plane_avx2 (&rp, &dp, h->width[p], h->height[p],
          fex->info.bpc, &h->tables[p]);
    else
#endif
      score[p] = vh_psnr_hvs_plane_c (&rp, &dp, h->width[p], h->height[p],
          fex->info.bpc, &h->tables[p]);
  }
  return vh_psnr_hvs_append (fex, score, index, fc, error);
}

/* One 8x8 block of every plane; smaller planes give libvmaf's NaN. */
const VhFeatureExtractorClass vh_fex_psnr_hvs = {
  .name = "psnr_hvs",
  .provides = vh_psnr_hvs_provides,
  .options = NULL,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = 0,
  .min_width = 1,
  .min_height = 1,
  .priv_size = sizeof (VhPsnrHvsState),
  .init = psnr_hvs_init,
  .extract = psnr_hvs_extract,
};
