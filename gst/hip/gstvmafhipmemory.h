/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_MEMORY_H__
#define __GST_VMAF_HIP_MEMORY_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "gstvmafhipdevice.h"

G_BEGIN_DECLS

/* The memory type is our own: GStreamer's HIP library (1.28) names its
 * memory "HIPMemory", and a buffer of one must never be taken for the
 * other (gst_is_vmaf_hip_memory() checks the allocator's type). The caps
 * feature is the common one, so that either kind of HIP element links to
 * the other; frames from a foreign allocator are read through their CPU
 * mapping. */
#define GST_VMAF_HIP_MEMORY_NAME "VmafHipMemory"
#define GST_VMAF_HIP_CAPS_FEATURE_MEMORY "memory:HIPMemory"

/* Map for the device: GstMapInfo.data is the device pointer. Only for our
 * own memory: another allocator may read the flag differently. */
#define GST_MAP_VMAF_HIP ((GstMapFlags) (GST_MAP_FLAG_LAST << 1))
#define GST_MAP_READ_VMAF_HIP ((GstMapFlags) (GST_MAP_READ | GST_MAP_VMAF_HIP))
#define GST_MAP_WRITE_VMAF_HIP \
  ((GstMapFlags) (GST_MAP_WRITE | GST_MAP_VMAF_HIP))
/* With GST_MAP_READ_VMAF_HIP: do not wait for the memory's last transfer;
 * the mapper's GPU work waits for the event that
 * gst_vmaf_hip_memory_prepare_device() gave. */
#define GST_MAP_VMAF_HIP_UNORDERED ((GstMapFlags) (GST_MAP_FLAG_LAST << 2))

/**
 * GstVmafHipMemoryTransfer:
 * @GST_VMAF_HIP_MEMORY_TRANSFER_NEED_DOWNLOAD: the device copy is newer than
 *   the host staging copy (written through a GST_MAP_VMAF_HIP mapping)
 * @GST_VMAF_HIP_MEMORY_TRANSFER_NEED_UPLOAD: the host staging copy is newer
 *   (written through a CPU mapping)
 *
 * Memory flags saying which copy a mapping must refresh first.
 */
typedef enum
{
  GST_VMAF_HIP_MEMORY_TRANSFER_NEED_DOWNLOAD = (GST_MEMORY_FLAG_LAST << 0),
  GST_VMAF_HIP_MEMORY_TRANSFER_NEED_UPLOAD = (GST_MEMORY_FLAG_LAST << 1),
} GstVmafHipMemoryTransfer;

typedef struct _GstVmafHipMemoryPrivate GstVmafHipMemoryPrivate;

/**
 * GstVmafHipMemory:
 * @device: the device the memory lives on
 * @info: the video layout of the memory: plane offsets and strides (pitch
 *   aligned for the device), size
 *
 * One video frame in HIP device memory, in a single allocation. A CPU
 * mapping returns a page-locked staging copy of the same layout, made on
 * first use; each mapping first brings its copy up to date (see
 * #GstVmafHipMemoryTransfer), so writes on either side are seen on the other.
 */
typedef struct
{
  GstMemory mem;

  /*< public >*/
  GstVmafHipDevice *device;
  GstVideoInfo info;

  /*< private >*/
  GstVmafHipMemoryPrivate *priv;
} GstVmafHipMemory;

#define GST_VMAF_HIP_MEMORY_CAST(mem) ((GstVmafHipMemory *) (mem))

#define GST_TYPE_VMAF_HIP_ALLOCATOR (gst_vmaf_hip_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstVmafHipAllocator, gst_vmaf_hip_allocator, GST,
    VMAF_HIP_ALLOCATOR, GstAllocator)

gboolean     gst_is_vmaf_hip_memory           (GstMemory * mem);

/* The layout HIP memory of @device gives a frame of @info: each plane's
 * stride rounded up for the device, planes one after the other. @out gets
 * @info with those strides, offsets and size. */
void         gst_vmaf_hip_memory_layout       (GstVmafHipDevice * device,
                                          const GstVideoInfo * info,
                                          GstVideoInfo * out);

/* Whether @mem holds a frame of @info (format and size). */
gboolean     gst_vmaf_hip_memory_holds        (GstVmafHipMemory * mem,
                                          const GstVideoInfo * info);

/* The bytes of one row of plane @plane of @info that hold samples, and
 * its number of rows. */
void         gst_vmaf_hip_video_plane_size    (const GstVideoInfo * info,
                                          guint plane, gsize * row_bytes,
                                          guint * rows);

/* The allocator (one per process; transfer none). */
GstAllocator *gst_vmaf_hip_allocator_get      (void);

/* A frame of @info on @device, laid out as gst_vmaf_hip_memory_layout() says.
 * NULL with @error when the device is out of memory. */
GstMemory   *gst_vmaf_hip_allocator_alloc     (GstVmafHipDevice * device,
                                          const GstVideoInfo * info,
                                          GError ** error);

/* Makes the device copy current for GPU work that waits on the device:
 * uploads the host copy if it is newer, without waiting, and gives in
 * @ready the event that such work must wait for (NULL when no transfer is
 * pending; it belongs to @mem, which must stay mapped while it is used).
 * FALSE with @error naming the device and the call when a transfer failed
 * (a mapping only says that it failed). */
gboolean     gst_vmaf_hip_memory_prepare_device (GstVmafHipMemory * mem,
                                          VhHipEvent ** ready,
                                          GError ** error);

/* Starts bringing the device copy up to date (when the host copy is newer)
 * without waiting; the next mapping, of either kind, waits for it. */
gboolean     gst_vmaf_hip_memory_upload_async (GstVmafHipMemory * mem,
                                          GError ** error);

/* Copies @frame (system memory, any strides) plane by plane straight into
 * the device copy, one 2D copy per plane, without a host copy in between;
 * the next mapping, of either kind, waits for the copies. */
gboolean     gst_vmaf_hip_memory_upload_frame (GstVmafHipMemory * mem,
                                          const GstVideoFrame * frame,
                                          GError ** error);

/* Whether the page-locked host copy holds the frame (written through a
 * CPU mapping, not since on the device): a CPU mapping with
 * GST_MAP_VMAF_HIP_UNORDERED then reads it without any transfer or wait,
 * even after the device failed. */
gboolean     gst_vmaf_hip_memory_host_is_current (GstVmafHipMemory * mem);

/* Waits for transfers started on the memory. */
gboolean     gst_vmaf_hip_memory_sync         (GstVmafHipMemory * mem,
                                          GError ** error);

G_END_DECLS

#endif /* __GST_VMAF_HIP_MEMORY_H__ */
