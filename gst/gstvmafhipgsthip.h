/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __GST_VMAF_HIP_GSTHIP_H__
#define __GST_VMAF_HIP_GSTHIP_H__

#include <gst/gst.h>

#include "hip/gstvmafhipdevice.h"

G_BEGIN_DECLS

/* Frames in GStreamer's own HIP memory (GstHipMemory of libgsthip,
 * GStreamer 1.28 and later: hipupload, hipconvert, hipscale,
 * hipcompositor) read by the GPU features by device address, when they
 * live on the element's device. libgsthip is never linked: its functions
 * are looked up in the process at run time (it is there whenever such
 * memory is), so vmafhip builds and runs with GStreamer 1.22. */

/* libgsthip's memory type ("HIPMemory"; vmafhip's own is another). */
#define GST_VMAF_HIP_GSTHIP_MEMORY_TYPE "HIPMemory"

/* Whether @buffer is one GstHipMemory of libgsthip (1.28's HIP memory). */
gboolean     gst_vmaf_hip_gsthip_buffer_is_gsthip (GstBuffer * buffer);

/* TRUE when @buffer is one GstHipMemory on @device (same vendor and
 * device number), whose device address the GPU features can read; FALSE
 * otherwise, with *@why_not (static) saying why when it is GstHipMemory
 * but cannot be read so (no device, another GPU, libgsthip's functions
 * not found): such frames are read through their CPU mapping. */
gboolean     gst_vmaf_hip_gsthip_buffer_is_ours (GstBuffer * buffer,
                                           GstVmafHipDevice * device,
                                           const gchar ** why_not);

/* How to map a GstHipMemory for its device address (GST_MAP_HIP). */
GstMapFlags  gst_vmaf_hip_gsthip_map_flags (void);

/* Waits for what @buffer's producer still does to it on its HIP stream
 * (gst_hip_memory_sync(), as libgsthip asks of readers). */
void         gst_vmaf_hip_gsthip_buffer_sync (GstBuffer * buffer);

/* Makes @buffer (one GstHipMemory on the element's device) ready to be
 * read by device address, ahead of its scoring, on the thread that calls
 * it: mapping it for its device address copies what the CPU wrote into it
 * (hipupload's frames) to the device and waits for that copy, and
 * gst_hip_memory_sync() waits for what a producer on the device left
 * (its event). Both are then quick when the frame is scored. FALSE when it
 * could not be mapped (the scoring then says so). */
gboolean     gst_vmaf_hip_gsthip_buffer_make_ready (GstBuffer * buffer);

G_END_DECLS

#endif /* __GST_VMAF_HIP_GSTHIP_H__ */
