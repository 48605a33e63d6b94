/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __GST_VMAF_HIP_CUDA_H__
#define __GST_VMAF_HIP_CUDA_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "hip/gstvmafhipdevice.h"

G_BEGIN_DECLS

/* Frames in NVIDIA's CUDA memory (memory:CUDAMemory, from nvh264dec,
 * nvh265dec or cudaupload, GStreamer's gst-cuda library) read in place by
 * the GPU features, when the HIP layer runs on the same NVIDIA GPU: the
 * element offers its device's CUDA context to those elements (context
 * queries), so that their frames live in the context the kernels run in.
 * gst-cuda is loaded at run time, only when such frames come. */

#define GST_VMAF_HIP_CUDA_FEATURE "memory:CUDAMemory"

/* Whether @caps carry memory:CUDAMemory. */
gboolean     gst_vmaf_hip_cuda_caps       (const GstCaps * caps);

/* TRUE when frames in CUDA memory can be read on @device (NULL: no GPU);
 * else FALSE with @error saying why (no GPU, an AMD GPU, no gst-cuda). */
gboolean     gst_vmaf_hip_cuda_usable     (GstVmafHipDevice * device,
                                           GError ** error);

/* Answers a "gst.cuda.context" context query with @device's CUDA context;
 * FALSE for other queries, or when it cannot. */
gboolean     gst_vmaf_hip_cuda_handle_context_query (GstElement * element,
                                           GstQuery * query,
                                           GstVmafHipDevice * device);

/* Posts @device's CUDA context (a have-context message) when it is an
 * NVIDIA GPU and gst-cuda loads: the pipeline keeps it and hands it to a
 * CUDA element that asks later with its pads not linked yet (a decoder
 * that decodebin plugs once the stream is typed), which would otherwise
 * make a context of its own, whose frames the element cannot read. */
void         gst_vmaf_hip_cuda_post_context (GstElement * element,
                                           GstVmafHipDevice * device);

/* TRUE when @buffer is one piece of CUDA memory in @device's context; else
 * FALSE, with @error set when it is CUDA memory of another context (another
 * GPU, or a producer that did not take our context). */
gboolean     gst_vmaf_hip_cuda_buffer_is_ours (GstBuffer * buffer,
                                           GstVmafHipDevice * device,
                                           GError ** error);

/* How to map a CUDA buffer for its device address (GST_MAP_CUDA). */
GstMapFlags  gst_vmaf_hip_cuda_map_flags  (void);

/* Waits for what @buffer's producer still writes into it on a CUDA stream
 * of its own (gst_cuda_memory_sync(), gst-cuda 1.24 and later, which let
 * producers leave that to their consumers); nothing with gst-cuda 1.22,
 * whose producers finish their copies before they push. */
void         gst_vmaf_hip_cuda_buffer_sync (GstBuffer * buffer);

G_END_DECLS

#endif /* __GST_VMAF_HIP_CUDA_H__ */
