/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_PICTURE_H__
#define __GST_VMAF_HIP_PICTURE_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "picture.h"

#ifdef VH_HAVE_HIP
#include "vhhip.h"
#endif

G_BEGIN_DECLS

/* The raw formats the element accepts on both sink pads. */
/* In order of preference: a source free to choose (videotestsrc without
 * caps) gives 8-bit 4:2:0, what most encoders take and libvmaf is usually
 * fed, rather than a wider format it would have to convert to. */
#define GST_VMAF_HIP_FORMATS "{ I420, YV12, NV12, NV21, Y42B, Y444, GRAY8, " \
  "I420_10LE, P010_10LE, I422_10LE, Y444_10LE, I420_12LE, I422_12LE, "     \
  "Y444_12LE, P016_LE, Y444_16LE, GRAY16_LE }"

/* The engine's view of @vinfo (chroma layout, bit depth, size). FALSE for a
 * format it cannot read. */
gboolean     gst_vmaf_hip_picture_info_from_video (const GstVideoInfo * vinfo,
                                                   VhPictureInfo * info);

/* "640x360 I420 (4:2:0, 8-bit)", for messages (caller frees). */
gchar       *gst_vmaf_hip_describe_video          (const GstVideoInfo * vinfo);

/* Whether all of @buffer's memory is system memory (at least one). */
gboolean     gst_vmaf_hip_buffer_is_system_memory (GstBuffer * buffer);

/* A picture of @buffer laid out as @vinfo says. The buffer is mapped
 * read-only and read in place (YV12's swapped planes and NV12-style
 * interleaved chroma included); the mapping and a reference to the buffer
 * live until the engine drops the picture. Formats whose samples the engine
 * cannot read directly (P010's high-bit alignment) are copied. */
VhPicture   *gst_vmaf_hip_picture_wrap            (const GstVideoInfo * vinfo,
                                                   GstBuffer * buffer,
                                                   GError ** error);

#ifdef VH_HAVE_HIP
/* The same for a frame in HIP memory, read in place on the device: a
 * device picture (VH_MEMORY_HIP_DEVICE) holding the buffer mapped with
 * GST_MAP_READ_VMAF_HIP without waiting for a transfer started on the
 * memory: @ready (from gst_vmaf_hip_memory_prepare_device()) becomes the
 * picture's, for the GPU work that reads it to wait on. NULL
 * without @error for a layout the engine cannot read in place (samples
 * not aligned to bit 0): wrap it for the CPU then. */
VhPicture   *gst_vmaf_hip_picture_wrap_device     (const GstVideoInfo * vinfo,
                                                   GstBuffer * buffer,
                                                   VhHipEvent * ready,
                                                   GError ** error);

/* A host picture of the page-locked host copy of @buffer, one frame of
 * our HIP memory (gst_vmaf_hip_memory_host_is_current()), mapped for the
 * CPU without waiting for a transfer; NULL if it cannot be. */
VhPicture   *gst_vmaf_hip_picture_wrap_host_copy  (const GstVideoInfo * vinfo,
                                                   GstBuffer * buffer);

/* The same for other device memory that maps to its device address with
 * @flags (CUDA memory: GST_MAP_READ | GST_MAP_CUDA). */
VhPicture   *gst_vmaf_hip_picture_wrap_device_mapped (const GstVideoInfo * vinfo,
                                                   GstBuffer * buffer,
                                                   GstMapFlags flags,
                                                   GError ** error);
#endif

G_END_DECLS

#endif /* __GST_VMAF_HIP_PICTURE_H__ */
