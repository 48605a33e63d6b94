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
  guint max_buffers;

  /* Buffers returned while another buffer still shares their memory (the
   * compare element passes each frame on in a new header; sinks keep the
   * last one): reused once the memory is theirs alone again. */
  GMutex parked_lock;
  GQueue parked;
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
  self->max_buffers = max;
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
    /* Device memory is short (other streams hold it): a frame in system
     * memory of the same layout does as well, read or uploaded by its
     * user; a pool that fails here only stops upstream with "internal
     * data stream error". */
    GST_WARNING_OBJECT (self, "cannot allocate a frame in device memory, "
        "using system memory: %s", error->message);
    g_error_free (error);
    mem = gst_allocator_alloc (NULL, l->size, NULL);
    if (!mem)
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

/* The base class frees a buffer whose memory is shared when it comes
 * back: for HIP memory a device and a page-locked free (both wait for the
 * whole device) and a new allocation for the next frame, every frame.
 * Without a buffer limit nothing waits for a returned buffer, so a shared
 * one can wait here until its memory is free. */
static void
gst_vmaf_hip_buffer_pool_release_buffer (GstBufferPool * pool,
    GstBuffer * buffer)
{
  GstVmafHipBufferPool *self = GST_VMAF_HIP_BUFFER_POOL (pool);

  if (self->max_buffers == 0 &&
      !GST_BUFFER_FLAG_IS_SET (buffer, GST_BUFFER_FLAG_TAG_MEMORY) &&
      !gst_buffer_is_all_memory_writable (buffer)) {
    GST_LOG_OBJECT (self, "parking %p until its memory is no longer shared",
        buffer);
    g_mutex_lock (&self->parked_lock);
    g_queue_push_tail (&self->parked, buffer);
    g_mutex_unlock (&self->parked_lock);
    return;
  }
  GST_BUFFER_POOL_CLASS (gst_vmaf_hip_buffer_pool_parent_class)->
      release_buffer (pool, buffer);
}

/* Hands parked buffers back to the base class: those whose memory nobody
 * else holds any more, or all of them. */
static void
unpark (GstVmafHipBufferPool * self, gboolean all)
{
  GstBufferPoolClass *parent =
      GST_BUFFER_POOL_CLASS (gst_vmaf_hip_buffer_pool_parent_class);
  GList *l, *next;

  g_mutex_lock (&self->parked_lock);
  for (l = self->parked.head; l; l = next) {
    GstBuffer *buffer = l->data;

    next = l->next;
    if (all || gst_buffer_is_all_memory_writable (buffer)) {
      g_queue_delete_link (&self->parked, l);
      parent->release_buffer (GST_BUFFER_POOL_CAST (self), buffer);
    }
  }
  g_mutex_unlock (&self->parked_lock);
}

static GstFlowReturn
gst_vmaf_hip_buffer_pool_acquire_buffer (GstBufferPool * pool,
    GstBuffer ** buffer, GstBufferPoolAcquireParams * params)
{
  unpark (GST_VMAF_HIP_BUFFER_POOL (pool), FALSE);
  return GST_BUFFER_POOL_CLASS (gst_vmaf_hip_buffer_pool_parent_class)->
      acquire_buffer (pool, buffer, params);
}

static gboolean
gst_vmaf_hip_buffer_pool_stop (GstBufferPool * pool)
{
  /* freed with the others; a sharer keeps its memory alive */
  unpark (GST_VMAF_HIP_BUFFER_POOL (pool), TRUE);
  return GST_BUFFER_POOL_CLASS (gst_vmaf_hip_buffer_pool_parent_class)->
      stop (pool);
}

static void
gst_vmaf_hip_buffer_pool_finalize (GObject * object)
{
  GstVmafHipBufferPool *self = GST_VMAF_HIP_BUFFER_POOL (object);

  g_queue_clear_full (&self->parked, (GDestroyNotify) gst_buffer_unref);
  g_mutex_clear (&self->parked_lock);
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
  pool_class->acquire_buffer = gst_vmaf_hip_buffer_pool_acquire_buffer;
  pool_class->release_buffer = gst_vmaf_hip_buffer_pool_release_buffer;
  pool_class->stop = gst_vmaf_hip_buffer_pool_stop;
  GST_DEBUG_CATEGORY_INIT (gst_vmaf_hip_buffer_pool_debug, "vmafhipbufferpool",
      0, "HIP buffer pool");
}

static void
gst_vmaf_hip_buffer_pool_init (GstVmafHipBufferPool * self)
{
  g_mutex_init (&self->parked_lock);
  g_queue_init (&self->parked);
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
