/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-vmafhipdownload
 * @title: vmafhipdownload
 *
 * Moves video frames from HIP device memory (memory:HIPMemory) back into
 * system memory. The samples are read from the device, plane by plane,
 * straight into the output frame.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! vmafhipupload ! vmafhipdownload ! autovideosink
 * ]|
 */

#include "gstvmafhipdownload.h"
#include "gstvmafhipbufferpool.h"
#include "gstvmafhipmemory.h"

GST_DEBUG_CATEGORY_STATIC (gst_vmaf_hip_download_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_download_debug

struct _GstVmafHipDownload
{
  GstVmafHipMemoryCopy parent;
};

G_DEFINE_TYPE (GstVmafHipDownload, gst_vmaf_hip_download,
    GST_TYPE_VMAF_HIP_MEMORY_COPY);

GST_ELEMENT_REGISTER_DEFINE (vmafhipdownload, "vmafhipdownload", GST_RANK_NONE,
    GST_TYPE_VMAF_HIP_DOWNLOAD);

/* Upstream producing HIP memory may allocate from our device's pool. */
static gboolean
gst_vmaf_hip_download_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstVmafHipMemoryCopy *base = GST_VMAF_HIP_MEMORY_COPY (trans);
  GstBufferPool *pool;
  GstCaps *caps;
  gboolean in_hip;
  guint size;

  if (!GST_BASE_TRANSFORM_CLASS (gst_vmaf_hip_download_parent_class)
      ->propose_allocation (trans, decide_query, query))
    return FALSE;
  if (!decide_query)
    return TRUE;
  gst_vmaf_hip_memory_copy_get_info (base, GST_PAD_SINK, &in_hip);
  gst_query_parse_allocation (query, &caps, NULL);
  if (!in_hip || !caps || !gst_vmaf_hip_memory_copy_get_device (base))
    return TRUE;
  pool = gst_vmaf_hip_memory_copy_new_pool (base, caps, 0, 0, &size);
  if (pool) {
    gst_query_add_allocation_pool (query, pool, size, 0, 0);
    gst_object_unref (pool);
  }
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return TRUE;
}

/* Output in system memory: downstream's pool, or a video pool. */
static gboolean
gst_vmaf_hip_download_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  GstBufferPool *pool = NULL;
  GstStructure *config;
  GstCaps *caps;
  GstVideoInfo info;
  guint size, min = 0, max = 0;
  gboolean update;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_video_info_from_caps (&info, caps))
    return FALSE;
  update = gst_query_get_n_allocation_pools (query) > 0;
  if (update)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  size = MAX (update ? size : 0, info.size);
  if (pool && GST_IS_VMAF_HIP_BUFFER_POOL (pool))
    gst_clear_object (&pool);
  if (!pool)
    pool = gst_video_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  if (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    /* the pool changed the config: take it as it is */
    config = gst_buffer_pool_get_config (pool);
    if (!gst_buffer_pool_config_validate_params (config, caps, size, min, max)
        || !gst_buffer_pool_set_config (pool, config)) {
      gst_object_unref (pool);
      return FALSE;
    }
  }
  if (update)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  return GST_BASE_TRANSFORM_CLASS (gst_vmaf_hip_download_parent_class)
      ->decide_allocation (trans, query);
}

/* Device to host, each plane in one 2D copy into the mapped output. */
static gboolean
download (GstVmafHipMemory * mem, GstVideoFrame * out, GError ** error)
{
  VhHipStream *stream = gst_vmaf_hip_device_get_stream (mem->device);
  GstMapInfo map;
  gboolean ok = TRUE;

  if (!gst_memory_map (GST_MEMORY_CAST (mem), &map, GST_MAP_READ_VMAF_HIP)) {
    g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_CALL,
        "cannot map the HIP memory for the device");
    return FALSE;
  }
  for (guint p = 0; ok && p < GST_VIDEO_FRAME_N_PLANES (out); p++) {
    gsize row;
    guint rows;

    gst_vmaf_hip_video_plane_size (&mem->info, p, &row, &rows);
    ok = vh_hip_memcpy_2d_async (stream, VH_HIP_COPY_DEVICE_TO_HOST,
        GST_VIDEO_FRAME_PLANE_DATA (out, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (out, p),
        map.data + mem->info.offset[p], mem->info.stride[p], row, rows, error);
  }
  if (ok)
    ok = vh_hip_stream_synchronize (stream, error);
  gst_memory_unmap (GST_MEMORY_CAST (mem), &map);
  return ok;
}

static gboolean
gst_vmaf_hip_download_copy (GstVmafHipMemoryCopy * base, GstBuffer * inbuf,
    GstBuffer * outbuf, GError ** error)
{
  const GstVideoInfo *in_info =
      gst_vmaf_hip_memory_copy_get_info (base, GST_PAD_SINK, NULL);
  const GstVideoInfo *out_info =
      gst_vmaf_hip_memory_copy_get_info (base, GST_PAD_SRC, NULL);
  GstMemory *mem = gst_buffer_peek_memory (inbuf, 0);
  GstVideoFrame in_frame, out_frame;
  gboolean ok;

  if (!gst_video_frame_map (&out_frame, out_info, outbuf, GST_MAP_WRITE)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
        "cannot map the output frame");
    return FALSE;
  }
  if (gst_buffer_n_memory (inbuf) == 1 && gst_is_vmaf_hip_memory (mem) &&
      gst_vmaf_hip_memory_holds (GST_VMAF_HIP_MEMORY_CAST (mem), in_info)) {
    ok = download ((GstVmafHipMemory *) mem, &out_frame, error);
  } else {
    /* not ours to read on the device (system memory, or another
     * allocator's HIP memory): through CPU mappings */
    ok = gst_video_frame_map (&in_frame, in_info, inbuf, GST_MAP_READ);
    if (ok) {
      ok = gst_video_frame_copy (&out_frame, &in_frame);
      gst_video_frame_unmap (&in_frame);
    }
    if (!ok)
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
          "cannot copy the input frame");
  }
  gst_video_frame_unmap (&out_frame);
  return ok;
}

static void
gst_vmaf_hip_download_class_init (GstVmafHipDownloadClass * klass)
{
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gst_vmaf_hip_memory_copy_class_setup (GST_VMAF_HIP_MEMORY_COPY_CLASS (klass),
      FALSE, "HIP downloader (vmafhip)",
      "Moves video frames from vmafhip's HIP device memory into system "
      "memory");
  GST_VMAF_HIP_MEMORY_COPY_CLASS (klass)->copy =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_download_copy);

  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_download_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_download_decide_allocation);

  GST_DEBUG_CATEGORY_INIT (gst_vmaf_hip_download_debug, "vmafhipdownload", 0,
      "HIP downloader");
}

static void
gst_vmaf_hip_download_init (GstVmafHipDownload * self)
{
}
