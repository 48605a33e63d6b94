/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Host side of the plane-sse kernels. */

#include "hip-plane-sse.h"

/* Must match VH_SSE_THREADS in the kernel. */
#define SSE_BLOCK_X 32
#define SSE_BLOCK_Y 8
#define SSE_MAX_GRID_X 32
#define SSE_MAX_GRID_Y 64

gboolean
vh_hip_plane_sse_async (VhHipStream * stream, gconstpointer a, gsize a_pitch,
    gconstpointer b, gsize b_pitch, guint width, guint height, guint step,
    guint bytes_per_sample, gpointer sse, GError ** error)
{
  VhHipDevice *device = vh_hip_stream_get_device (stream);
  VhHipModule *module;
  VhHipFunction *function;
  guint64 ap = a_pitch, bp = b_pitch;
  const guint block[3] = { SSE_BLOCK_X, SSE_BLOCK_Y, 1 };
  guint grid[3];
  gpointer args[] = { &a, &ap, &b, &bp, &width, &height, &step, &sse };

  if (bytes_per_sample != 1 && bytes_per_sample != 2) {
    g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_INVALID_ARGUMENT,
        "plane SSE takes 1 or 2 bytes per sample, not %u", bytes_per_sample);
    return FALSE;
  }
  if (width == 0 || height == 0)
    return TRUE;
  step = MAX (step, 1);
  module = vh_hip_module_get (device, &vh_hip_kernel_plane_sse, error);
  if (!module)
    return FALSE;
  function = vh_hip_module_get_function (module, bytes_per_sample == 1 ?
      "vh_plane_sse_u8" : "vh_plane_sse_u16", error);
  if (!function)
    return FALSE;
  grid[0] = MIN ((width + SSE_BLOCK_X - 1) / SSE_BLOCK_X, SSE_MAX_GRID_X);
  grid[1] = MIN ((height + SSE_BLOCK_Y - 1) / SSE_BLOCK_Y, SSE_MAX_GRID_Y);
  grid[2] = 1;
  return vh_hip_launch (function, stream, grid, block, 0, args, error);
}
