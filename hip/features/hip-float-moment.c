/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of "float_moment" (src/features/float-moment.c): the luma
 * sums of both pictures on the GPU (hip/features/kernels/moment.hip), the
 * moments from them on the host by the CPU twin's own code
 * (float-moment.h). Equal to the CPU twin bit for bit at every depth. */

#include "hip-fex-common.h"
#include "errors.h"
#include "features/float-moment.h"

#include <string.h>

extern const VhHipKernelSource vh_hip_kernel_moment;

/* Must match struct vh_moment_planes in the kernel. */
typedef struct
{
  gconstpointer data;
  guint64 pitch;
  guint32 step;
  guint32 pad;
} MomentPlane;

typedef struct
{
  MomentPlane p[2];
  guint32 width;
  guint32 height;
} MomentPlanes;

G_STATIC_ASSERT (sizeof (MomentPlane) == 24);
G_STATIC_ASSERT (sizeof (VhMomentSums) == 24);

#define MOMENT_BLOCK_X 32
#define MOMENT_BLOCK_Y 8
/* Enough blocks to fill a large GPU; each strides over its plane. */
#define MOMENT_MAX_GRID_X 16
#define MOMENT_MAX_GRID_Y 64

typedef struct
{
  VhHipFex hip;
  VhHipFunction *sums;
  VhHipFunction *sum16;         /* 16 bits only */
} HipFloatMoment;

VH_HIP_FEX_FIRST (HipFloatMoment, hip);

static gboolean
hip_float_moment_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  const VhMomentSums *s = results;

  return vh_float_moment_append (fex, &s[0], &s[1], index, fc, error);
}

static gboolean
hip_float_moment_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipFloatMoment *s = fex->priv;

  if (!vh_hip_fex_init (&s->hip, fex, 2 * sizeof (VhMomentSums),
          hip_float_moment_collect, error))
    return FALSE;
  s->sums = vh_hip_fex_function (&s->hip, &vh_hip_kernel_moment,
      info->bpc == 8 ? "vh_moment_sums_u8" : "vh_moment_sums_u16", error);
  if (s->sums && info->bpc == 16)
    s->sum16 = vh_hip_fex_function (&s->hip, &vh_hip_kernel_moment,
        "vh_moment_sum16", error);
  if (s->sums && (info->bpc != 16 || s->sum16))
    return TRUE;
  vh_hip_fex_close (&s->hip);
  return FALSE;
}

static gboolean
hip_float_moment_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  HipFloatMoment *s = fex->priv;
  const VhPicture *pics[2] = { ref, dist };
  MomentPlanes planes;
  gpointer out;
  gpointer args[] = { &planes, &out };

  if (!vh_hip_fex_check_luma_on_device (fex, ref, dist, index, error))
    return FALSE;
  memset (&planes, 0, sizeof (planes));
  for (guint i = 0; i < 2; i++) {
    planes.p[i].data = pics[i]->data[0];
    planes.p[i].pitch = pics[i]->stride[0];
    planes.p[i].step = MAX (pics[i]->step[0], 1);
  }
  planes.width = fex->info.width;
  planes.height = fex->info.height;

  out = vh_hip_fex_begin (&s->hip, index, ref, dist, error);
  if (!out)
    return FALSE;
  {
    /* Both pictures in one launch: blockIdx.z. */
    const guint grid[3] = {
      MIN (vh_hip_div_up (planes.width, MOMENT_BLOCK_X), MOMENT_MAX_GRID_X),
      MIN (vh_hip_div_up (planes.height, MOMENT_BLOCK_Y), MOMENT_MAX_GRID_Y),
      2
    };
    const guint block[3] = { MOMENT_BLOCK_X, MOMENT_BLOCK_Y, 1 };
    if (!vh_hip_launch (s->sums, s->hip.stream, grid, block, 0, args, error))
      return FALSE;
  }
  /* One thread per picture: blockIdx.x. */
  if (s->sum16 && !vh_hip_fex_launch (&s->hip, s->sum16, 2, 1, 1, 1, 0, args,
          error))
    return FALSE;
  return vh_hip_fex_end (&s->hip, ref, dist, fc, error);
}

const VhFeatureExtractorClass vh_hip_fex_float_moment = {
  .name = "float_moment",
  .provides = vh_float_moment_provides,
  .options = NULL,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .flags = VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = 1,
  .min_height = 1,
  .priv_size = sizeof (HipFloatMoment),
  .init = hip_float_moment_init,
  .extract = hip_float_moment_extract,
  .flush = vh_hip_fex_class_flush,
  .close = vh_hip_fex_class_close,
};
