/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_SCALE_H__
#define __GST_VMAF_HIP_SCALE_H__

#include <glib.h>

#include "picture.h"
#include "picture-transfer.h"
#include "scale.h"

G_BEGIN_DECLS

/**
 * GstVmafHipScale:
 *
 * The scale property: a distorted picture of another size than the
 * reference is resampled to the reference's size before it is scored, as
 * ffmpeg's scale filter does it (src/scale.h). A device picture is
 * resampled on its GPU by the HIP twin (hip/features/hip-scale.h) into a
 * new device picture, never leaving device memory; a host picture on the
 * CPU. The two twins are equal bit for bit. The scalers are kept while
 * the geometries stay the same. Streaming thread.
 */
typedef struct _GstVmafHipScale GstVmafHipScale;

GstVmafHipScale *gst_vmaf_hip_scale_new  (void);

void         gst_vmaf_hip_scale_free      (GstVmafHipScale * scale);

/* A new run with @method; what the last run kept goes. */
void         gst_vmaf_hip_scale_start     (GstVmafHipScale * scale,
                                           VhScaleMethod method);

/* Frees the scalers (before the GPU closes). */
void         gst_vmaf_hip_scale_stop      (GstVmafHipScale * scale);

VhScaleMethod gst_vmaf_hip_scale_method   (GstVmafHipScale * scale);

/* Whether a distorted picture of @dist is resampled to @ref's size: the
 * sizes differ, only they, and the method is not none. */
gboolean     gst_vmaf_hip_scale_applies   (GstVmafHipScale * scale,
                                           const VhPictureInfo * ref,
                                           const VhPictureInfo * dist);

/* @dist resampled to @ref's size, a new picture. @device: the
 * VhHipDevice that device pictures live on (NULL without one: device
 * pictures are refused); a device picture is resampled there. A host
 * picture is resampled on the CPU, or, with @upload (the scoring
 * context's transfer, when its features read device memory), uploaded
 * at its own size through it and resampled on the device. */
VhPicture   *gst_vmaf_hip_scale_picture   (GstVmafHipScale * scale,
                                           gpointer device,
                                           const VhPictureTransfer * upload,
                                           const VhPictureInfo * ref,
                                           VhPicture * dist,
                                           GError ** error);

/* What ran last ("bicubic from 1280x720"), or NULL when nothing was
 * resampled in this run. */
const gchar *gst_vmaf_hip_scale_describe  (GstVmafHipScale * scale);

/* Where it ran last: "gpu" or "cpu", or NULL. */
const gchar *gst_vmaf_hip_scale_where     (GstVmafHipScale * scale);

G_END_DECLS

#endif /* __GST_VMAF_HIP_SCALE_H__ */
