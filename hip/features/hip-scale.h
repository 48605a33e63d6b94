/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* The GPU twin of the resampler (src/scale.h): the CPU twin's filters
 * uploaded once, pictures resampled in device memory by the kernels of
 * hip/features/kernels/scale.hip, equal to the CPU twin bit for bit. */
#ifndef __VH_HIP_SCALE_H__
#define __VH_HIP_SCALE_H__

#include "scale.h"
#include "vhhip.h"

G_BEGIN_DECLS

/* The kernel module (hip/features/kernels/scale.hip), made by the build. */
extern const VhHipKernelSource vh_hip_kernel_scale;

/* Threads of a block of either pass; any grid works, the threads stride
 * over the plane. */
#define VH_HIP_SCALE_BLOCK_X 32
#define VH_HIP_SCALE_BLOCK_Y 8

typedef struct _VhHipScaler VhHipScaler;

/* @scaler's filters on @device (@scaler may be freed afterwards). */
VhHipScaler *vh_hip_scaler_new           (VhHipDevice * device,
                                          const VhScaler * scaler,
                                          GError ** error);

/* Queues on @stream the resampling of device picture @src (the scaler's
 * input geometry) into device picture @dst (its output geometry, planar).
 * @src's memory must stay until the stream has run it. */
gboolean     vh_hip_scaler_scale_async   (VhHipScaler * scaler,
                                          VhHipStream * stream,
                                          const VhPicture * src,
                                          VhPicture * dst, GError ** error);

void         vh_hip_scaler_free          (VhHipScaler * scaler);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VhHipScaler, vh_hip_scaler_free)

G_END_DECLS

#endif /* __VH_HIP_SCALE_H__ */
