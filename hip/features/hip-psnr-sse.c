/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Host side of the PSNR kernels (hip/features/kernels/psnr.hip). */

#include "hip-psnr-sse.h"
#include "errors.h"

#include <string.h>

/* Must match struct vh_psnr_planes in the kernel (natural alignment on
 * every 64-bit target). */
typedef struct
{
  gconstpointer a;
  gconstpointer b;
  guint64 a_pitch;
  guint64 b_pitch;
  guint32 width;
  guint32 height;
  guint32 a_step;
  guint32 b_step;
} PsnrPlane;

typedef struct
{
  PsnrPlane p[3];
} PsnrPlanes;

G_STATIC_ASSERT (sizeof (PsnrPlane) == 48);

#define PSNR_BLOCK_X 32
#define PSNR_BLOCK_Y 8
/* Enough blocks to fill a large GPU; each strides over its plane. */
#define PSNR_MAX_GRID_X 16
#define PSNR_MAX_GRID_Y 64

gboolean
vh_hip_psnr_sse_async (VhHipFex * h, const VhPicture * ref,
    const VhPicture * dist, guint n_planes, const guint width[3],
    const guint height[3], gboolean f32_round, gpointer sse, GError ** error)
{
  PsnrPlanes planes;
  VhHipFunction *fn;
  const gchar *name;
  guint max_w = 0, max_h = 0;
  gpointer args[] = { &planes, &sse };

  g_return_val_if_fail (n_planes >= 1 && n_planes <= 3, FALSE);
  if (ref->mem_type != VH_MEMORY_HIP_DEVICE ||
      dist->mem_type != VH_MEMORY_HIP_DEVICE) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "psnr kernels need pictures in HIP device memory");
    return FALSE;
  }
  memset (&planes, 0, sizeof (planes));
  for (guint p = 0; p < n_planes; p++) {
    planes.p[p].a = ref->data[p];
    planes.p[p].b = dist->data[p];
    planes.p[p].a_pitch = ref->stride[p];
    planes.p[p].b_pitch = dist->stride[p];
    planes.p[p].width = width[p];
    planes.p[p].height = height[p];
    planes.p[p].a_step = MAX (ref->step[p], 1);
    planes.p[p].b_step = MAX (dist->step[p], 1);
    max_w = MAX (max_w, width[p]);
    max_h = MAX (max_h, height[p]);
  }
  if (max_w == 0 || max_h == 0)
    return TRUE;
  name = ref->info.bpc == 8 ? "vh_psnr_sse_u8" : f32_round ?
      "vh_psnr_sse_u16_f32" : "vh_psnr_sse_u16";
  fn = vh_hip_fex_function (h, &vh_hip_kernel_psnr, name, error);
  if (!fn)
    return FALSE;
  {
    const guint grid[3] = {
      MIN (vh_hip_div_up (max_w, PSNR_BLOCK_X), PSNR_MAX_GRID_X),
      MIN (vh_hip_div_up (max_h, PSNR_BLOCK_Y), PSNR_MAX_GRID_Y),
      n_planes
    };
    const guint block[3] = { PSNR_BLOCK_X, PSNR_BLOCK_Y, 1 };
    return vh_hip_launch (fn, h->stream, grid, block, 0, args, error);
  }
}
