/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_BUFFER_POOL_H__
#define __GST_VMAF_HIP_BUFFER_POOL_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "gstvmafhipdevice.h"

G_BEGIN_DECLS

#define GST_TYPE_VMAF_HIP_BUFFER_POOL (gst_vmaf_hip_buffer_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstVmafHipBufferPool, gst_vmaf_hip_buffer_pool, GST,
    VMAF_HIP_BUFFER_POOL, GstBufferPool)

/* A pool of video frames in HIP memory of @device, one GstVmafHipMemory and
 * one GstVideoMeta (the device-aligned strides) per buffer. Needs caps in
 * its config; adds GST_BUFFER_POOL_OPTION_VIDEO_META itself. */
GstBufferPool *gst_vmaf_hip_buffer_pool_new   (GstVmafHipDevice * device);

GstVmafHipDevice *gst_vmaf_hip_buffer_pool_get_device
                                       (GstVmafHipBufferPool * pool);

G_END_DECLS

#endif /* __GST_VMAF_HIP_BUFFER_POOL_H__ */
