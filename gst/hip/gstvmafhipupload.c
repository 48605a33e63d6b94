/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-vmafhipupload
 * @title: vmafhipupload
 *
 * Moves video frames from system memory into HIP device memory
 * (memory:HIPMemory), so that the elements after it work on the GPU.
 *
 * Upstream is offered a pool of HIP memory: an element that takes it writes
 * its frames straight into the memory's page-locked host copy, and
 * vmafhipupload only starts the transfer. Other frames are copied into that
 * host copy first. Transfers are asynchronous: the next element to map the
 * frame waits for it, so the copy overlaps the rest of the pipeline.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! vmafhipupload ! vmafhipdownload ! autovideosink
 * ]|
 */

#include "gstvmafhipupload.h"
#include "gstvmafhipbufferpool.h"
#include "gstvmafhipmemory.h"


GST_DEBUG_CATEGORY_STATIC (gst_vmaf_hip_upload_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_upload_debug

struct _GstVmafHipUpload
{
  GstVmafHipMemoryCopy parent;
};

G_DEFINE_TYPE (GstVmafHipUpload, gst_vmaf_hip_upload,
    GST_TYPE_VMAF_HIP_MEMORY_COPY);

GST_ELEMENT_REGISTER_DEFINE (vmafhipupload, "vmafhipupload", GST_RANK_NONE,
    GST_TYPE_VMAF_HIP_UPLOAD);

/* The frame's one memory when it is HIP memory of @device with the layout
 * the device gives it, else NULL. */
static GstVmafHipMemory *
own_hip_memory (GstBuffer * buf, GstVmafHipDevice * device,
    const GstVideoInfo * info)
{
  GstMemory *mem;

  if (gst_buffer_n_memory (buf) != 1)
    return NULL;
  mem = gst_buffer_peek_memory (buf, 0);
  if (!gst_is_vmaf_hip_memory (mem) ||
      !gst_vmaf_hip_device_is_equal (GST_VMAF_HIP_MEMORY_CAST (mem)->device,
          device)
      || !gst_vmaf_hip_memory_holds (GST_VMAF_HIP_MEMORY_CAST (mem), info))
    return NULL;
  return GST_VMAF_HIP_MEMORY_CAST (mem);
}

/* Upstream gets a pool of HIP memory whatever its caps: with system-memory
 * caps it writes into the host copy through CPU mappings. */
static gboolean
gst_vmaf_hip_upload_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstVmafHipMemoryCopy *base = GST_VMAF_HIP_MEMORY_COPY (trans);
  GstBufferPool *pool;
  GstCaps *caps;
  guint size;

  /* passthrough: the parent asks downstream */
  if (!GST_BASE_TRANSFORM_CLASS (gst_vmaf_hip_upload_parent_class)
      ->propose_allocation (trans, decide_query, query))
    return FALSE;
  if (!decide_query)
    return TRUE;
  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_vmaf_hip_memory_copy_get_device (base))
    return TRUE;
  pool = gst_vmaf_hip_memory_copy_new_pool (base, caps, 0, 0, &size);
  if (!pool)
    return TRUE;
  gst_query_add_allocation_pool (query, pool, size, 0, 0);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_object_unref (pool);
  return TRUE;
}

/* Output: downstream's HIP pool when it is on our device, else our own. */
static gboolean
gst_vmaf_hip_upload_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstVmafHipMemoryCopy *base = GST_VMAF_HIP_MEMORY_COPY (trans);
  GstBufferPool *pool = NULL;
  GstCaps *caps;
  guint size = 0, min = 0, max = 0;
  gboolean out_hip;

  gst_vmaf_hip_memory_copy_get_info (base, GST_PAD_SRC, &out_hip);
  gst_query_parse_allocation (query, &caps, NULL);
  if (!out_hip || !caps)
    return GST_BASE_TRANSFORM_CLASS (gst_vmaf_hip_upload_parent_class)
        ->decide_allocation (trans, query);

  if (gst_query_get_n_allocation_pools (query) > 0) {
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
    if (pool && (!GST_IS_VMAF_HIP_BUFFER_POOL (pool) ||
            !gst_vmaf_hip_device_is_equal (gst_vmaf_hip_buffer_pool_get_device
                (GST_VMAF_HIP_BUFFER_POOL (pool)),
                gst_vmaf_hip_memory_copy_get_device (base))))
      gst_clear_object (&pool);
  }
  if (pool) {
    GstStructure *config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_set_params (config, caps, size, min, max);
    if (!gst_buffer_pool_set_config (pool, config))
      gst_clear_object (&pool);
    else
      GST_DEBUG_OBJECT (trans, "using downstream's HIP pool");
  }
  if (!pool)
    pool = gst_vmaf_hip_memory_copy_new_pool (base, caps, min, max, &size);
  if (!pool)
    return FALSE;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return GST_BASE_TRANSFORM_CLASS (gst_vmaf_hip_upload_parent_class)
      ->decide_allocation (trans, query);
}

/* A frame already in HIP memory of our device goes on as it is. The base
 * class hands on our reference to @inbuf when it gets it back as output
 * (and unrefs the input only when the output differs): taking another
 * reference here would keep every such frame, its device memory and its
 * pool alive for ever. */
static GstFlowReturn
gst_vmaf_hip_upload_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer ** outbuf)
{
  GstVmafHipMemoryCopy *base = GST_VMAF_HIP_MEMORY_COPY (trans);

  if (!gst_base_transform_is_passthrough (trans) &&
      own_hip_memory (inbuf, gst_vmaf_hip_memory_copy_get_device (base),
          gst_vmaf_hip_memory_copy_get_info (base, GST_PAD_SINK, NULL))) {
    *outbuf = inbuf;
    return GST_FLOW_OK;
  }
  return GST_BASE_TRANSFORM_CLASS (gst_vmaf_hip_upload_parent_class)
      ->prepare_output_buffer (trans, inbuf, outbuf);
}

/* Copies @frame into the host copy of @mem, row by row. */
static gboolean
gst_vmaf_hip_upload_copy (GstVmafHipMemoryCopy * base, GstBuffer * inbuf,
    GstBuffer * outbuf, GError ** error)
{
  GstVmafHipDevice *device = gst_vmaf_hip_memory_copy_get_device (base);
  const GstVideoInfo *in_info =
      gst_vmaf_hip_memory_copy_get_info (base, GST_PAD_SINK, NULL);
  GstVmafHipMemory *out;
  GstVideoFrame frame;
  gboolean ok;

  if (inbuf == outbuf)
    return gst_vmaf_hip_memory_upload_async ((GstVmafHipMemory *)
        gst_buffer_peek_memory (outbuf, 0), error);
  out = own_hip_memory (outbuf, device, in_info);
  if (!out) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "the output buffer is not HIP memory of this element's device");
    return FALSE;
  }
  if (!gst_video_frame_map (&frame, in_info, inbuf, GST_MAP_READ)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
        "cannot map the input frame");
    return FALSE;
  }
  ok = gst_vmaf_hip_memory_upload_frame (out, &frame, error);
  gst_video_frame_unmap (&frame);
  return ok;
}

static void
gst_vmaf_hip_upload_class_init (GstVmafHipUploadClass * klass)
{
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gst_vmaf_hip_memory_copy_class_setup (GST_VMAF_HIP_MEMORY_COPY_CLASS (klass),
      TRUE, "HIP uploader (vmafhip)",
      "Moves video frames from system memory into vmafhip's HIP device "
      "memory");
  GST_VMAF_HIP_MEMORY_COPY_CLASS (klass)->copy =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_upload_copy);

  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_upload_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_upload_decide_allocation);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_upload_prepare_output_buffer);

  GST_DEBUG_CATEGORY_INIT (gst_vmaf_hip_upload_debug, "vmafhipupload", 0,
      "HIP uploader");
}

static void
gst_vmaf_hip_upload_init (GstVmafHipUpload * self)
{
}
