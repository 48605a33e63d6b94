/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_HIP_PSNR_SSE_H__
#define __VH_HIP_PSNR_SSE_H__

#include "hip-fex-common.h"

G_BEGIN_DECLS

/* The kernel module (hip/features/kernels/psnr.hip), made by the build. */
extern const VhHipKernelSource vh_hip_kernel_psnr;

/* Queues on @h's stream the sums of squared errors between the first
 * @n_planes planes of device pictures @ref and @dist, each over its top-left
 * @width[p] x @height[p] samples, added to the guint64 counters @sse[0 ..
 * n_planes - 1] in device memory (zero them first). @f32_round: round each
 * square to single precision before adding (float_psnr at 16 bits). One
 * launch for every plane. */
gboolean     vh_hip_psnr_sse_async       (VhHipFex * h, const VhPicture * ref,
                                          const VhPicture * dist,
                                          guint n_planes,
                                          const guint width[3],
                                          const guint height[3],
                                          gboolean f32_round, gpointer sse,
                                          GError ** error);

G_END_DECLS

#endif /* __VH_HIP_PSNR_SSE_H__ */
