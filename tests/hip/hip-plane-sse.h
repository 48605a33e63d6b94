/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_HIP_PLANE_SSE_H__
#define __VH_HIP_PLANE_SSE_H__

#include "vhhip.h"

G_BEGIN_DECLS

/* The kernel module (tests/hip/plane-sse.hip), made by the build. */
extern const VhHipKernelSource vh_hip_kernel_plane_sse;

/* Adds the sum of squared differences between two device planes of
 * @width x @height samples (1 or 2 bytes each; @step samples apart within
 * a row, 1 for planar data) to the guint64 at @sse in device memory, on
 * @stream. Zero the counter first (vh_hip_memset_2d_async). */
gboolean     vh_hip_plane_sse_async      (VhHipStream * stream,
                                          gconstpointer a, gsize a_pitch,
                                          gconstpointer b, gsize b_pitch,
                                          guint width, guint height,
                                          guint step,
                                          guint bytes_per_sample,
                                          gpointer sse, GError ** error);

G_END_DECLS

#endif /* __VH_HIP_PLANE_SSE_H__ */
