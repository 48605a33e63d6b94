/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of "psnr_hvs" (src/features/psnr-hvs.c): every 8x8 block's
 * DCT, masking and weighted squared errors on the GPU, one thread a block,
 * then each plane's float sum of them in libvmaf's order by one thread a
 * plane (hip/features/kernels/psnr-hvs.hip); three floats back per frame
 * and the scores by the CPU twin's code (psnr-hvs.h). Equal to the CPU
 * twin bit for bit. The serial sum is the price of that: libvmaf adds
 * every term of a plane to one float. */

#include "hip-fex-common.h"
#include "errors.h"
#include "features/psnr-hvs.h"

#include <string.h>

extern const VhHipKernelSource vh_hip_kernel_psnr_hvs;

/* Must match struct vh_hvs_plane_args in the kernel. */
typedef struct
{
  gconstpointer ref;
  gconstpointer dis;
  guint64 ref_pitch;
  guint64 dis_pitch;
  guint32 ref_step;
  guint32 dis_step;
  guint32 n_across;
  guint32 n_down;
  const gfloat *csf;
  const gfloat *mask;
  gfloat *terms;
} HvsPlaneArgs;

G_STATIC_ASSERT (sizeof (HvsPlaneArgs) == 72);

/* Must match struct vh_hvs_sum_args in the kernel. */
typedef struct
{
  const gfloat *terms[3];
  guint32 n_blocks[3];
  guint32 pad;
} HvsSumArgs;

G_STATIC_ASSERT (sizeof (HvsSumArgs) == 40);

#define HVS_BLOCK_X 16
#define HVS_BLOCK_Y 4
#define HVS_SUM_THREADS 128     /* VH_HVS_SUM_THREADS in the kernel */

typedef struct
{
  VhHipFex hip;
  VhPsnrHvs hvs;
  guint n_across[3], n_down[3];

  /* Device: the three planes' tables, and their blocks' terms. */
  VhPsnrHvsTables *tables;
  gfloat *terms[3];
  VhHipFunction *blocks_fn;
  VhHipFunction *sum_fn;
} HipPsnrHvs;

VH_HIP_FEX_FIRST (HipPsnrHvs, hip);

static gboolean
hip_psnr_hvs_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  HipPsnrHvs *s = fex->priv;
  const gfloat *sums = results;
  gdouble score[3];

  for (guint p = 0; p < 3; p++)
    score[p] = vh_psnr_hvs_plane_score (sums[p],
        (gint) (64 * s->n_across[p] * s->n_down[p]), fex->info.bpc);
  return vh_psnr_hvs_append (fex, score, index, fc, error);
}

static void
hip_psnr_hvs_close (VhFeatureExtractor * fex)
{
  HipPsnrHvs *s = fex->priv;
  VhHipDevice *device = s->hip.device;

  if (!device)
    return;
  vh_hip_device_ref (device);
  /* Waits for the stream before anything is freed. */
  vh_hip_fex_close (&s->hip);
  if (s->tables)
    vh_hip_free (device, s->tables);
  s->tables = NULL;
  for (guint p = 0; p < 3; p++) {
    if (s->terms[p])
      vh_hip_free (device, s->terms[p]);
    s->terms[p] = NULL;
  }
  vh_hip_device_unref (device);
}

static gboolean
hip_psnr_hvs_alloc (HipPsnrHvs * s, GError ** error)
{
  const gsize tables = sizeof (s->hvs.tables);

  for (guint p = 0; p < 3; p++) {
    const gsize n = vh_psnr_hvs_n_blocks (s->hvs.width[p], s->hvs.height[p],
        &s->n_across[p], &s->n_down[p]);
    if (!vh_hip_malloc (s->hip.device, MAX (n, 1) * 64 * sizeof (gfloat),
            (gpointer *) & s->terms[p], error))
      return FALSE;
  }
  return vh_hip_malloc (s->hip.device, tables, (gpointer *) & s->tables,
      error) &&
      vh_hip_memcpy_2d (s->hip.device, VH_HIP_COPY_HOST_TO_DEVICE,
      s->tables, tables, s->hvs.tables, tables, tables, 1, error);
}

static gboolean
hip_psnr_hvs_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipPsnrHvs *s = fex->priv;
  const VhHipKernelSource *k = &vh_hip_kernel_psnr_hvs;

  if (!vh_psnr_hvs_setup (&s->hvs, info, error))
    return FALSE;
  if (!vh_hip_fex_init (&s->hip, fex, 3 * sizeof (gfloat),
          hip_psnr_hvs_collect, error))
    return FALSE;
  if ((s->blocks_fn = vh_hip_fex_function (&s->hip, k, info->bpc == 8 ?
              "vh_hvs_blocks_u8" : "vh_hvs_blocks_u16", error)) &&
      (s->sum_fn = vh_hip_fex_function (&s->hip, k, "vh_hvs_sum", error)) &&
      hip_psnr_hvs_alloc (s, error))
    return TRUE;
  hip_psnr_hvs_close (fex);
  return FALSE;
}

static gboolean
hip_psnr_hvs_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  HipPsnrHvs *s = fex->priv;
  HvsSumArgs sa;
  gfloat *sums;
  gpointer sum_args[] = { &sa, &sums };

  if (ref->mem_type != VH_MEMORY_HIP_DEVICE ||
      dist->mem_type != VH_MEMORY_HIP_DEVICE ||
      !vh_picture_info_equal (&ref->info, &fex->info) ||
      !vh_picture_info_equal (&dist->info, &fex->info)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "psnr_hvs: frame %u does not match the stream's %ux%u %u-bit "
        "pictures in HIP device memory", index, fex->info.width,
        fex->info.height, fex->info.bpc);
    return FALSE;
  }
  sums = vh_hip_fex_begin (&s->hip, index, ref, dist, error);
  if (!sums)
    return FALSE;
  memset (&sa, 0, sizeof (sa));
  for (guint p = 0; p < 3; p++) {
    HvsPlaneArgs a;
    gpointer args[] = { &a };

    sa.terms[p] = s->terms[p];
    sa.n_blocks[p] = s->n_across[p] * s->n_down[p];
    if (!sa.n_blocks[p])
      continue;
    memset (&a, 0, sizeof (a));
    a.ref = ref->data[p];
    a.dis = dist->data[p];
    a.ref_pitch = ref->stride[p];
    a.dis_pitch = dist->stride[p];
    a.ref_step = MAX (ref->step[p], 1);
    a.dis_step = MAX (dist->step[p], 1);
    a.n_across = s->n_across[p];
    a.n_down = s->n_down[p];
    a.csf = s->tables[p].csf;
    a.mask = s->tables[p].mask;
    a.terms = s->terms[p];
    if (!vh_hip_fex_launch (&s->hip, s->blocks_fn,
            vh_hip_div_up (a.n_across, HVS_BLOCK_X),
            vh_hip_div_up (a.n_down, HVS_BLOCK_Y), HVS_BLOCK_X, HVS_BLOCK_Y,
            0, args, error))
      return FALSE;
  }
  return vh_hip_fex_launch (&s->hip, s->sum_fn, 3, 1, HVS_SUM_THREADS, 1, 0,
      sum_args, error) && vh_hip_fex_end (&s->hip, ref, dist, fc, error);
}

const VhFeatureExtractorClass vh_hip_fex_psnr_hvs = {
  .name = "psnr_hvs",
  .provides = vh_psnr_hvs_provides,
  .options = NULL,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .flags = 0,
  .min_width = 1,
  .min_height = 1,
  .priv_size = sizeof (HipPsnrHvs),
  .init = hip_psnr_hvs_init,
  .extract = hip_psnr_hvs_extract,
  .flush = vh_hip_fex_class_flush,
  .close = hip_psnr_hvs_close,
};
