/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The GPU side: the device, its frames and the pool offered upstream. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipcompareprivate.h"
#include "gstvmafhipconfig.h"
#include "gstvmafhippicture.h"

#include "errors.h"

#ifdef VH_HAVE_HIP
#include "gstvmafhipbufferpool.h"
#include "gstvmafhipcuda.h"
#include "gstvmafhipmemory.h"
#include "gstvmafhiputils.h"
#include "hip-features.h"
#endif

/* backend auto or hip: the device the pipeline shares (asked of the
 * neighbours and the application, else opened and announced). auto
 * without one goes on with the CPU, saying why; hip without one fails. */
gboolean
gst_vmaf_hip_compare_open_hip_device (GstVmafHipCompare * self)
{
  GError *err = NULL;

  self->backends = VH_BACKEND_CPU;
  if (self->run.backend == GST_VMAF_HIP_BACKEND_CPU)
    return TRUE;
#ifdef VH_HAVE_HIP
  {
    /* The element's own field: a neighbour's or the application's answer
     * arrives through set_context, on this thread, while it asks. */
    if (gst_vmaf_hip_ensure_element_device (GST_ELEMENT (self),
            GST_VMAF_HIP_VENDOR_UNKNOWN, self->run.device_id,
            (GstVmafHipDevice **) & self->hip_device, &err) &&
        vh_hip_use_device (gst_vmaf_hip_device_get_handle (GST_VMAF_HIP_DEVICE
                (self->hip_device)), &self->backends, &self->transfer, &err))
      return TRUE;
    gst_vmaf_hip_compare_close_hip_device (self);
  }
#else
  g_set_error (&err, VH_ERROR, VH_ERROR_BACKEND,
      "this build has no HIP layer");
#endif
  if (self->run.backend == GST_VMAF_HIP_BACKEND_HIP) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("The HIP backend is not available: %s", err->message), (NULL));
    g_error_free (err);
    return FALSE;
  }
  GST_INFO_OBJECT (self, "backend auto: no usable GPU, features run on the "
      "CPU: %s", err->message);
  g_error_free (err);
  return TRUE;
}

void
gst_vmaf_hip_compare_close_hip_device (GstVmafHipCompare * self)
{
  GST_OBJECT_LOCK (self);
  gst_clear_object (&self->hip_device);
  GST_OBJECT_UNLOCK (self);
  g_clear_pointer (&self->transfer, vh_picture_transfer_unref);
  self->backends = VH_BACKEND_CPU;
  self->hip_input = FALSE;
}

#ifdef VH_HAVE_HIP
/* Whether @buf is one frame in HIP memory of our device. */
static gboolean
buffer_is_hip (GstVmafHipCompare * self, GstBuffer * buf)
{
  GstMemory *mem;

  if (!self->hip_input || gst_buffer_n_memory (buf) != 1)
    return FALSE;
  mem = gst_buffer_peek_memory (buf, 0);
  return gst_is_vmaf_hip_memory (mem) &&
      gst_vmaf_hip_device_is_equal (GST_VMAF_HIP_MEMORY_CAST (mem)->device,
      GST_VMAF_HIP_DEVICE (self->hip_device));
}

/* A frame written on the CPU into HIP memory (our pool, offered upstream)
 * starts its copy to the device now, from page-locked memory, without
 * waiting. */
void
gst_vmaf_hip_compare_start_upload (GstVmafHipCompare * self, GstBuffer * buf)
{
  GError *err = NULL;

  if (buffer_is_hip (self, buf) &&
      !gst_vmaf_hip_memory_upload_async (GST_VMAF_HIP_MEMORY_CAST
          (gst_buffer_peek_memory (buf, 0)), &err)) {
    GST_WARNING_OBJECT (self, "upload failed, reading on the CPU: %s",
        err->message);
    g_error_free (err);
  }
}
#endif

#ifdef VH_HAVE_HIP
static GstVmafHipDevice *
hip_device (GstVmafHipCompare * self)
{
  return self->hip_device ? GST_VMAF_HIP_DEVICE (self->hip_device) : NULL;
}

/* The element's device for neighbours that ask for a CUDA context before
 * it started (they open when they go to READY, after us): opened now
 * unless backend=cpu. */
GstVmafHipDevice *
gst_vmaf_hip_compare_device_for_cuda (GstVmafHipCompare * self)
{
  GstVmafHipDevice *device = NULL;
  GError *err = NULL;
  gboolean cpu;

  GST_OBJECT_LOCK (self);
  if (self->hip_device)
    device = GST_VMAF_HIP_DEVICE (gst_object_ref (self->hip_device));
  cpu = self->settings.backend == GST_VMAF_HIP_BACKEND_CPU;
  GST_OBJECT_UNLOCK (self);
  if (device || cpu)
    return device;
  if (!gst_vmaf_hip_ensure_element_device (GST_ELEMENT (self),
          GST_VMAF_HIP_VENDOR_UNKNOWN, -1, &device, &err)) {
    GST_INFO_OBJECT (self, "no GPU to offer a CUDA context: %s",
        err->message);
    g_error_free (err);
    return NULL;
  }
  GST_OBJECT_LOCK (self);
  if (!self->hip_device)
    self->hip_device = gst_object_ref (GST_OBJECT (device));
  GST_OBJECT_UNLOCK (self);
  return device;
}
#endif

/* The engine's picture of @buf: in device memory when it is HIP memory
 * and some feature runs on the GPU, else in host memory. */
VhPicture *
gst_vmaf_hip_compare_wrap_input (GstVmafHipCompare * self,
    const GstVideoInfo * vinfo, GstBuffer * buf, GError ** error)
{
#ifdef VH_HAVE_HIP
  /* After a fall-back to the CPU, frames are read on the CPU. */
  if (buffer_is_hip (self, buf) && !vh_context_on_cpu (self->ctx)) {
    GError *err = NULL;
    VhHipEvent *ready = NULL;
    VhPicture *pic = gst_vmaf_hip_memory_prepare_device
        (GST_VMAF_HIP_MEMORY_CAST (gst_buffer_peek_memory (buf, 0)), &ready,
        &err) ? gst_vmaf_hip_picture_wrap_device (vinfo, buf, ready, &err) :
        NULL;

    if (pic)
      return pic;
    /* Its upload failed: with backend=auto the frame is read on the CPU
     * (from the page-locked copy it was uploaded from), said once; else
     * the error names the device and the call. */
    if (err && self->run.backend != GST_VMAF_HIP_BACKEND_AUTO) {
      g_prefix_error (&err, "its upload to the GPU: ");
      g_propagate_error (error, err);
      return NULL;
    }
    if (err) {
      if (!self->warned_upload)
        GST_ELEMENT_WARNING (self, RESOURCE, FAILED, ("A frame's upload to "
                "the GPU failed: it is read on the CPU: %s.", err->message),
            ("backend=auto"));
      self->warned_upload = TRUE;
      g_error_free (err);
      return gst_vmaf_hip_picture_wrap (vinfo, buf, error);
    }
  }
  /* CUDA memory: its device address, never a copy in system memory. */
  if (gst_vmaf_hip_cuda_buffer_is_ours (buf, hip_device (self), error)) {
    VhPicture *pic = gst_vmaf_hip_picture_wrap_device_mapped (vinfo, buf,
        gst_vmaf_hip_cuda_map_flags (), error);

    /* Our streams are not ordered after the producer's; after the
     * mapping, which may itself queue an upload on the producer's. */
    if (pic)
      gst_vmaf_hip_cuda_buffer_sync (buf);
    if (!pic && error && !*error)
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "a frame in CUDA memory with a layout the GPU features cannot "
          "read in place: put cudadownload before the element");
    return pic;
  }
  if (error && *error)
    return NULL;
#endif
  return gst_vmaf_hip_picture_wrap (vinfo, buf, error);
}

#ifdef VH_HAVE_HIP
/* Frames of one pad the element may hold at once: waiting for their
 * partner, then in the scoring context (in flight, and kept for a GPU
 * fall-back). */
static guint
frames_held_per_pad (GstVmafHipCompare * self)
{
  guint held;

  if (self->ctx && self->ctx_started) {
    held = vh_context_n_frames_held (self->ctx);
  } else {
    /* before it starts: the context's default in flight, and two kept */
    guint workers = self->run.threads ? self->run.threads :
        GST_VMAF_HIP_GPU_THREADS;
    held = vh_context_default_in_flight (workers) + 2;
  }
  return MIN (gst_vmaf_hip_compare_frames_within_latency (self) + held, 64);
}
#endif

/* Offers upstream a pool of HIP memory when features run on the GPU:
 * frames written by the CPU land in page-locked memory and go to the
 * device asynchronously (gst_vmaf_hip_compare_start_upload), HIP
 * producers write in place.
 * Producers are told how many frames the element may hold: their pools
 * (ours, or gst-cuda's for CUDA producers) are made at the start instead
 * of growing, a device allocation at a time, while the first frames go
 * through (a live pipeline's first frames then came late, and a short
 * run lost a fifth of its rate). */
gboolean
gst_vmaf_hip_compare_propose_allocation (GstAggregator * agg,
    GstAggregatorPad * pad, GstQuery * decide_query, GstQuery * query)
{
#ifdef VH_HAVE_HIP
  GstVmafHipCompare *self = GST_VMAF_HIP_COMPARE (agg);
  GstCaps *caps = NULL;
  gboolean need_pool = FALSE;
  GstVideoInfo info, layout;

  gst_query_parse_allocation (query, &caps, &need_pool);
  /* CUDA producers use their own pools (in our CUDA context): only the
   * number of buffers. */
  if (self->hip_input && caps && gst_vmaf_hip_cuda_caps (caps) &&
      gst_video_info_from_caps (&info, caps)) {
    gst_query_add_allocation_pool (query, NULL, info.size,
        frames_held_per_pad (self), 0);
  } else if (self->hip_input && caps && need_pool &&
      gst_video_info_from_caps (&info, caps)) {
    GstVmafHipDevice *device = GST_VMAF_HIP_DEVICE (self->hip_device);
    GstBufferPool *pool = gst_vmaf_hip_buffer_pool_new (device);
    GstStructure *config = gst_buffer_pool_get_config (pool);
    guint held = frames_held_per_pad (self);

    gst_vmaf_hip_memory_layout (device, &info, &layout);
    gst_buffer_pool_config_set_params (config, caps, layout.size, held, 0);
    if (gst_buffer_pool_set_config (pool, config))
      gst_query_add_allocation_pool (query, pool, layout.size, held, 0);
    else
      GST_WARNING_OBJECT (self, "HIP pool refused %" GST_PTR_FORMAT, caps);
    gst_object_unref (pool);
  }
#endif
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return TRUE;
}

/* The GPU features' kernel modules, loaded before the first frame, which
 * for a live source comes after the clock runs: loading them on the first
 * frame took over 100 ms while 16 processes opened the GPU at once, and
 * the first frames were late. A failure here is left to the features'
 * own start, which reports it. */
void
gst_vmaf_hip_compare_preload_kernels (GstVmafHipCompare * self)
{
#ifdef VH_HAVE_HIP
  GPtrArray *classes;
  GError *err = NULL;

  if (!self->transfer)
    return;
  classes = vh_context_get_classes (self->ctx, VH_BACKEND_HIP);
  if (!vh_hip_features_preload (gst_vmaf_hip_device_get_handle
          (GST_VMAF_HIP_DEVICE (self->hip_device)), classes, &err)) {
    GST_WARNING_OBJECT (self, "kernels not loaded ahead: %s", err->message);
    g_error_free (err);
  } else {
    GST_DEBUG_OBJECT (self, "kernel modules of %u features loaded",
        classes->len);
  }
  g_ptr_array_unref (classes);
#endif
}
