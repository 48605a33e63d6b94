/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/**
 * SECTION:gstvmafhipbufferpool
 *
 * Buffers of HIP memory for one video format. Upstream elements that are
 * offered this pool write into the memory's page-locked host copy through
 * ordinary CPU mappings, and the frame moves to the device in one transfer
 * when a HIP element maps it.
 */

#include "gstvmafhipbufferpool.h"
#include "gstvmafhipmemory.h"

GST_DEBUG_CATEGORY_STATIC (gst_vmaf_hip_buffer_pool_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_buffer_pool_debug

struct _GstVmafHipBufferPool
{
  GstBufferPool parent;

  GstVmafHipDevice *device;
  GstVideoInfo info;            /* the caps' frame */
  GstVideoInfo layout;          /* as the memory lays it out */
};

G_DEFINE_TYPE (GstVmafHipBufferPool, gst_vmaf_hip_buffer_pool,
    GST_TYPE_BUFFER_POOL);

static const gchar **
gst_vmaf_hip_buffer_pool_get_options (GstBufferPool * pool)
{
  static const gchar *options[] = { GST_BUFFER_POOL_OPTION_VIDEO_META, NULL };

  return options;
}

static gboolean
gst_vmaf_hip_buffer_pool_set_config (GstBufferPool * pool,
    GstStructure * config)
{
  GstVmafHipBufferPool *self = GST_VMAF_HIP_BUFFER_POOL (pool);
  GstCaps *caps = NULL;
  guint size, min, max;

  if (!gst_buffer_pool_config_get_params (config, &caps, &size, &min, &max)
      || !caps) {
    GST_WARNING_OBJECT (self, "config without caps");
    return FALSE;
  }
  if (!gst_video_info_from_caps (&self->info, caps)) {
    GST_WARNING_OBJECT (self, "caps are not raw video: %" GST_PTR_FORMAT, caps);
    return FALSE;
  }
  gst_vmaf_hip_memory_layout (self->device, &self->info, &self->layout);
  GST_DEBUG_OBJECT (self, "%dx%d %s: %" G_GSIZE_FORMAT " bytes, strides %d %d"
      " %d", self->info.width, self->info.height,
      GST_VIDEO_INFO_NAME (&self->info), self->layout.size,
      self->layout.stride[0], self->layout.stride[1], self->layout.stride[2]);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_config_set_params (config, caps, self->layout.size, min, max);
  gst_buffer_pool_config_set_allocator (config, gst_vmaf_hip_allocator_get (),
      NULL);
  return GST_BUFFER_POOL_CLASS (gst_vmaf_hip_buffer_pool_parent_class)->
      set_config (pool, config);
}

static GstFlowReturn
gst_vmaf_hip_buffer_pool_alloc_buffer (GstBufferPool * pool,
    GstBuffer ** buffer, GstBufferPoolAcquireParams * params)
{
  GstVmafHipBufferPool *self = GST_VMAF_HIP_BUFFER_POOL (pool);
  GstVideoInfo *l = &self->layout;
  GError *error = NULL;
  GstMemory *mem;
  GstBuffer *buf;

  mem = gst_vmaf_hip_allocator_alloc (self->device, &self->info, &error);
  if (!mem) {
    GST_ERROR_OBJECT (self, "cannot allocate a frame: %s", error->message);
    g_error_free (error);
    return GST_FLOW_ERROR;
  }
  buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, mem);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (l), GST_VIDEO_INFO_WIDTH (l),
      GST_VIDEO_INFO_HEIGHT (l), GST_VIDEO_INFO_N_PLANES (l), l->offset,
      l->stride);
  *buffer = buf;
  return GST_FLOW_OK;
}

static void
gst_vmaf_hip_buffer_pool_finalize (GObject * object)
{
  GstVmafHipBufferPool *self = GST_VMAF_HIP_BUFFER_POOL (object);

  gst_clear_object (&self->device);
  G_OBJECT_CLASS (gst_vmaf_hip_buffer_pool_parent_class)->finalize (object);
}

static void
gst_vmaf_hip_buffer_pool_class_init (GstVmafHipBufferPoolClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  gobject_class->finalize = gst_vmaf_hip_buffer_pool_finalize;
  pool_class->get_options = gst_vmaf_hip_buffer_pool_get_options;
  pool_class->set_config = gst_vmaf_hip_buffer_pool_set_config;
  pool_class->alloc_buffer = gst_vmaf_hip_buffer_pool_alloc_buffer;
  GST_DEBUG_CATEGORY_INIT (gst_vmaf_hip_buffer_pool_debug, "vmafhipbufferpool",
      0, "HIP buffer pool");
}

static void
gst_vmaf_hip_buffer_pool_init (GstVmafHipBufferPool * self)
{
}

GstBufferPool *
gst_vmaf_hip_buffer_pool_new (GstVmafHipDevice * device)
{
  GstVmafHipBufferPool *self;

  g_return_val_if_fail (GST_IS_VMAF_HIP_DEVICE (device), NULL);
  self = g_object_new (GST_TYPE_VMAF_HIP_BUFFER_POOL, NULL);
  gst_object_ref_sink (self);
  self->device = gst_object_ref (device);
  return GST_BUFFER_POOL_CAST (self);
}

GstVmafHipDevice *
gst_vmaf_hip_buffer_pool_get_device (GstVmafHipBufferPool * pool)
{
  g_return_val_if_fail (GST_IS_VMAF_HIP_BUFFER_POOL (pool), NULL);
  return pool->device;
}
