/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/**
 * SECTION:gstvmafhipmemory
 *
 * HIP device memory as GstMemory (allocator name "HIPMemory", caps feature
 * "memory:HIPMemory"), mappable on both sides: GST_MAP_VMAF_HIP gives the
 * device pointer, a plain mapping a page-locked host copy. Whichever side
 * was written last is copied over when the other side is mapped, once.
 */

#include "gstvmafhipmemory.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_vmaf_hip_memory_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_memory_debug

/* Rows start on this many bytes at least (and the device's own pitch
 * alignment when larger): whole cache lines. Not more, so that frames in
 * GStreamer's own layout (rows of 1920 or 3840 bytes) keep it on the
 * device, and go there in one copy (see upload_frame). */
#define GST_VMAF_HIP_MIN_PITCH_ALIGN 64

struct _GstVmafHipMemoryPrivate
{
  GMutex lock;
  gpointer device_ptr;
  gpointer staging;             /* page-locked host copy, made on demand */
  gboolean staging_pageable;    /* page-locked memory was refused */
  VhHipEvent *event;            /* end of the last asynchronous transfer */
  gboolean pending;             /* event recorded and not waited for */
  gboolean pending_up;          /* it copies the staging to the device */
  /* A transfer that left no good copy failed (the device did): the
   * contents are unknown, so neither a mapping nor a copy (which GStreamer
   * makes when a mapping fails) may read them. */
  gchar *failed;
};

struct _GstVmafHipAllocator
{
  GstAllocator parent;
};

G_DEFINE_TYPE (GstVmafHipAllocator, gst_vmaf_hip_allocator, GST_TYPE_ALLOCATOR);

#define FLAG_IS_SET(mem, f) GST_MEMORY_FLAG_IS_SET (mem, f)
#define NEED_DOWNLOAD GST_VMAF_HIP_MEMORY_TRANSFER_NEED_DOWNLOAD
#define NEED_UPLOAD GST_VMAF_HIP_MEMORY_TRANSFER_NEED_UPLOAD

static VhHipDevice *
mem_handle (GstVmafHipMemory * mem)
{
  return gst_vmaf_hip_device_get_handle (mem->device);
}

static VhHipStream *
mem_stream (GstVmafHipMemory * mem)
{
  return gst_vmaf_hip_device_get_stream (mem->device);
}

/* Waits for the last asynchronous transfer; called with the lock. */
static gboolean
wait_pending (GstVmafHipMemory * mem, GError ** error)
{
  GstVmafHipMemoryPrivate *priv = mem->priv;
  GError *err = NULL;

  if (priv->failed) {
    g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_CALL, "its contents are "
        "lost: %s", priv->failed);
    return FALSE;
  }
  if (!priv->pending)
    return TRUE;
  priv->pending = FALSE;
  if (vh_hip_event_synchronize (priv->event, &err))
    return TRUE;
  /* An upload from the staging leaves the staging good: the device copy
   * is stale again. Otherwise nothing is left. */
  if (priv->pending_up)
    GST_MINI_OBJECT_FLAG_SET (mem, NEED_UPLOAD);
  else
    priv->failed = g_strdup (err->message);
  g_propagate_error (error, err);
  return FALSE;
}

static gboolean
ensure_staging (GstVmafHipMemory * mem, GError ** error)
{
  GstVmafHipMemoryPrivate *priv = mem->priv;
  GError *err = NULL;

  if (priv->staging)
    return TRUE;
  if (vh_hip_host_alloc (mem_handle (mem), mem->mem.maxsize, &priv->staging,
          &err))
    return TRUE;
  /* A device lost for good refuses page-locked memory too: a frame that
   * upstream is about to write (a pool buffer made before) still gets a
   * host copy, in ordinary memory, which the driver can copy from as
   * well. */
  GST_INFO ("%p: page-locked memory refused, the host copy is pageable: %s",
      mem, err->message);
  g_error_free (err);
  priv->staging = g_aligned_alloc (mem->mem.maxsize, 1, 64);
  priv->staging_pageable = TRUE;
  return TRUE;
}

/* Marks the copies queued on the transfer stream as pending, behind the
 * memory's event; @from_staging: an upload from the staging, which stays
 * good if it fails. */
static gboolean
record_pending (GstVmafHipMemory * mem, gboolean from_staging,
    GError ** error)
{
  GstVmafHipMemoryPrivate *priv = mem->priv;

  if (!priv->event) {
    priv->event = vh_hip_event_new (mem_handle (mem), FALSE, error);
    if (!priv->event)
      return FALSE;
  }
  if (!vh_hip_event_record (priv->event, mem_stream (mem), error))
    return FALSE;
  priv->pending = TRUE;
  priv->pending_up = from_staging;
  return TRUE;
}

/* One copy of the whole allocation (padding included: a single transfer
 * is faster than one per row), on the device's transfer stream; with
 * @wait, returns once it is done, else records the event. */
static gboolean
transfer (GstVmafHipMemory * mem, VhHipCopyKind kind, gboolean wait,
    GError ** error)
{
  GstVmafHipMemoryPrivate *priv = mem->priv;
  gsize size = mem->mem.maxsize;
  gboolean up = kind == VH_HIP_COPY_HOST_TO_DEVICE;

  if (!ensure_staging (mem, error))
    return FALSE;
  if (!vh_hip_memcpy_2d_async (mem_stream (mem), kind,
          up ? priv->device_ptr : priv->staging, size,
          up ? priv->staging : priv->device_ptr, size, size, 1, error))
    return FALSE;
  if (!record_pending (mem, up, error))
    return FALSE;
  return wait ? wait_pending (mem, error) : TRUE;
}

gboolean
gst_vmaf_hip_memory_host_is_current (GstVmafHipMemory * mem)
{
  GstVmafHipMemoryPrivate *priv = mem->priv;
  gboolean current;

  g_mutex_lock (&priv->lock);
  current = priv->staging && !priv->failed &&
      !FLAG_IS_SET (mem, NEED_DOWNLOAD);
  g_mutex_unlock (&priv->lock);
  return current;
}

static gpointer
gst_vmaf_hip_memory_map (GstMemory * gmem, gsize maxsize, GstMapFlags flags)
{
  GstVmafHipMemory *mem = (GstVmafHipMemory *) gmem;
  GstVmafHipMemoryPrivate *priv = mem->priv;
  GError *error = NULL;
  gpointer ret = NULL;

  g_mutex_lock (&priv->lock);
  /* An unordered reader waits on the device, but not for a lost copy. */
  if ((priv->failed || !(flags & GST_MAP_VMAF_HIP_UNORDERED) ||
          (flags & GST_MAP_WRITE)) && !wait_pending (mem, &error)) {
    /* An upload from the staging that failed (the device lost) leaves
     * the staging good: the CPU reads or writes it all the same. */
    if ((flags & GST_MAP_VMAF_HIP) || priv->failed ||
        !FLAG_IS_SET (mem, NEED_UPLOAD))
      goto out;
    GST_DEBUG ("%p: its upload failed, the CPU maps its host copy: %s", mem,
        error->message);
    g_clear_error (&error);
  }
  if (flags & GST_MAP_VMAF_HIP) {
    if (FLAG_IS_SET (mem, NEED_UPLOAD)) {
      GST_TRACE ("%p: uploading for a device mapping", mem);
      if (!transfer (mem, VH_HIP_COPY_HOST_TO_DEVICE, TRUE, &error))
        goto out;
      GST_MEMORY_FLAG_UNSET (mem, NEED_UPLOAD);
    }
    if (flags & GST_MAP_WRITE)
      GST_MINI_OBJECT_FLAG_SET (mem, NEED_DOWNLOAD);
    ret = priv->device_ptr;
  } else {
    if (!ensure_staging (mem, &error))
      goto out;
    if (FLAG_IS_SET (mem, NEED_DOWNLOAD)) {
      GST_TRACE ("%p: downloading for a CPU mapping", mem);
      if (!transfer (mem, VH_HIP_COPY_DEVICE_TO_HOST, TRUE, &error))
        goto out;
      GST_MEMORY_FLAG_UNSET (mem, NEED_DOWNLOAD);
    }
    if (flags & GST_MAP_WRITE)
      GST_MINI_OBJECT_FLAG_SET (mem, NEED_UPLOAD);
    ret = priv->staging;
  }
out:
  g_mutex_unlock (&priv->lock);
  if (error) {
    GST_ERROR ("cannot map HIP memory %p for %s: %s", mem,
        (flags & GST_MAP_VMAF_HIP) ? "the device" : "the CPU", error->message);
    g_error_free (error);
  }
  return ret;
}

static void
gst_vmaf_hip_memory_unmap (GstMemory * gmem)
{
}

gboolean
gst_vmaf_hip_memory_upload_async (GstVmafHipMemory * mem, GError ** error)
{
  GstVmafHipMemoryPrivate *priv = mem->priv;
  gboolean ok = TRUE;

  g_mutex_lock (&priv->lock);
  if (FLAG_IS_SET (mem, NEED_UPLOAD)) {
    ok = wait_pending (mem, error) &&
        transfer (mem, VH_HIP_COPY_HOST_TO_DEVICE, FALSE, error);
    if (ok)
      GST_MEMORY_FLAG_UNSET (mem, NEED_UPLOAD);
  }
  g_mutex_unlock (&priv->lock);
  return ok;
}

/* Whether @frame's planes lie in one block exactly as @layout's (the
 * device memory's): same strides, same distances from the first plane,
 * and the block as long as the device's. */
static gboolean
frame_matches_layout (const GstVideoFrame * frame, const GstVideoInfo * layout)
{
  const guint8 *base = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
  GstMapInfo *map = &((GstVideoFrame *) frame)->map[0];

  if (GST_VIDEO_FRAME_N_PLANES (frame) != GST_VIDEO_INFO_N_PLANES (layout) ||
      layout->offset[0] != 0)
    return FALSE;
  /* one memory holds every plane, and the whole layout's size */
  if (gst_buffer_n_memory (frame->buffer) != 1 || map->size <
      (gsize) (base - map->data) + layout->size)
    return FALSE;
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame); p++) {
    const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    if (GST_VIDEO_FRAME_PLANE_STRIDE (frame, p) != layout->stride[p] ||
        data < base || (gsize) (data - base) != layout->offset[p])
      return FALSE;
  }
  return TRUE;
}

/* Whether the last transfer is done, without waiting; called with the
 * lock. */
static gboolean
pending_done (GstVmafHipMemory * mem)
{
  GstVmafHipMemoryPrivate *priv = mem->priv;

  if (priv->pending && vh_hip_event_query (priv->event, NULL))
    priv->pending = FALSE;
  return !priv->pending;
}

gboolean
gst_vmaf_hip_memory_prepare_device (GstVmafHipMemory * mem,
    VhHipEvent ** ready, GError ** error)
{
  GstVmafHipMemoryPrivate *priv = mem->priv;
  gboolean ok = TRUE;

  *ready = NULL;
  g_mutex_lock (&priv->lock);
  if (priv->failed)
    ok = wait_pending (mem, error);
  if (ok && FLAG_IS_SET (mem, NEED_UPLOAD)) {
    /* a transfer still in flight used the staging: rarely a wait */
    ok = (pending_done (mem) || wait_pending (mem, error)) &&
        transfer (mem, VH_HIP_COPY_HOST_TO_DEVICE, FALSE, error);
    if (ok)
      GST_MEMORY_FLAG_UNSET (mem, NEED_UPLOAD);
  }
  if (ok && !pending_done (mem))
    *ready = priv->event;
  g_mutex_unlock (&priv->lock);
  return ok;
}

/* The driver's copy from pageable memory, straight from the frame.
 * Staging the frame ourselves freed the thread sooner, but every new pool
 * buffer then page-locks a copy of its own (slow, and it synchronises the
 * device): the element fed by vmafhipupload ran 25% slower. */
static gboolean
upload_frame_pageable (GstVmafHipMemory * mem, const GstVideoFrame * frame,
    GError ** error)
{
  GstVmafHipMemoryPrivate *priv = mem->priv;
  gboolean ok = TRUE;

  /* No wait for a transfer still pending: every transfer of the memory
   * goes on its device's one stream, which orders them. */
  if (frame_matches_layout (frame, &mem->info)) {
    /* The driver stages a 2D copy from pageable memory row by row,
     * slower than one copy of the same bytes (docs/performance.md). */
    ok = vh_hip_memcpy_2d_async (mem_stream (mem),
        VH_HIP_COPY_HOST_TO_DEVICE, priv->device_ptr, mem->info.size,
        GST_VIDEO_FRAME_PLANE_DATA (frame, 0), mem->info.size,
        mem->info.size, 1, error);
  } else {
    for (guint p = 0; ok && p < GST_VIDEO_FRAME_N_PLANES (frame); p++) {
      gsize row;
      guint rows;

      gst_vmaf_hip_video_plane_size (&mem->info, p, &row, &rows);
      ok = vh_hip_memcpy_2d_async (mem_stream (mem),
          VH_HIP_COPY_HOST_TO_DEVICE,
          (guint8 *) priv->device_ptr + mem->info.offset[p],
          mem->info.stride[p], GST_VIDEO_FRAME_PLANE_DATA (frame, p),
          GST_VIDEO_FRAME_PLANE_STRIDE (frame, p), row, rows, error);
    }
  }
  if (!ok || !record_pending (mem, FALSE, error))
    return FALSE;
  /* the device holds the frame; a host copy, if any, is stale */
  GST_MEMORY_FLAG_UNSET (mem, NEED_UPLOAD);
  GST_MINI_OBJECT_FLAG_SET (mem, NEED_DOWNLOAD);
  return TRUE;
}

gboolean
gst_vmaf_hip_memory_upload_frame (GstVmafHipMemory * mem,
    const GstVideoFrame * frame, GError ** error)
{
  gboolean ok;

  g_mutex_lock (&mem->priv->lock);
  ok = upload_frame_pageable (mem, frame, error);
  g_mutex_unlock (&mem->priv->lock);
  return ok;
}

gboolean
gst_vmaf_hip_memory_sync (GstVmafHipMemory * mem, GError ** error)
{
  gboolean ok;

  g_mutex_lock (&mem->priv->lock);
  ok = wait_pending (mem, error);
  g_mutex_unlock (&mem->priv->lock);
  return ok;
}

/* A whole copy stays HIP memory (device to device, or host copy to host
 * copy when that one is newer); a part becomes system memory. */
static GstMemory *
gst_vmaf_hip_memory_copy (GstMemory * gmem, gssize offset, gssize size)
{
  GstVmafHipMemory *mem = (GstVmafHipMemory *) gmem;
  GstVmafHipMemory *copy;
  GError *error = NULL;
  GstMapInfo src, dst;
  gboolean ok;

  if (size < 0)
    size = gmem->size - offset;
  if (offset != 0 || (gsize) size != gmem->size) {
    GstMemory *sys = gst_allocator_alloc (NULL, size, NULL);

    if (!gst_memory_map (gmem, &src, GST_MAP_READ))
      goto failed_sys;
    if (!gst_memory_map (sys, &dst, GST_MAP_WRITE)) {
      gst_memory_unmap (gmem, &src);
      goto failed_sys;
    }
    memcpy (dst.data, src.data + offset, size);
    gst_memory_unmap (sys, &dst);
    gst_memory_unmap (gmem, &src);
    return sys;
  failed_sys:
    gst_memory_unref (sys);
    return NULL;
  }

  copy =
      (GstVmafHipMemory *) gst_vmaf_hip_allocator_alloc (mem->device,
      &mem->info, &error);
  if (!copy)
    goto failed;
  g_mutex_lock (&mem->priv->lock);
  ok = wait_pending (mem, &error);
  if (ok && FLAG_IS_SET (mem, NEED_UPLOAD)) {
    ok = ensure_staging (copy, &error);
    if (ok) {
      memcpy (copy->priv->staging, mem->priv->staging, gmem->maxsize);
      GST_MINI_OBJECT_FLAG_SET (copy, NEED_UPLOAD);
    }
  } else if (ok) {
    ok = vh_hip_memcpy_2d_async (mem_stream (mem),
        VH_HIP_COPY_DEVICE_TO_DEVICE, copy->priv->device_ptr, gmem->maxsize,
        mem->priv->device_ptr, gmem->maxsize, gmem->maxsize, 1, &error) &&
        vh_hip_stream_synchronize (mem_stream (mem), &error);
    GST_MINI_OBJECT_FLAG_SET (copy, NEED_DOWNLOAD);
  }
  g_mutex_unlock (&mem->priv->lock);
  if (ok)
    return GST_MEMORY_CAST (copy);
  gst_memory_unref (GST_MEMORY_CAST (copy));
failed:
  GST_ERROR ("cannot copy HIP memory %p: %s", mem, error->message);
  g_error_free (error);
  return NULL;
}

static GstMemory *
gst_vmaf_hip_memory_share (GstMemory * gmem, gssize offset, gssize size)
{
  /* a part of a frame is not a frame */
  return NULL;
}

static GstMemory *
gst_vmaf_hip_allocator_dummy_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  g_critical ("HIP memory needs a video layout: use "
      "gst_vmaf_hip_allocator_alloc() or a HIP buffer pool");
  return NULL;
}

static void
gst_vmaf_hip_allocator_free (GstAllocator * allocator, GstMemory * gmem)
{
  GstVmafHipMemory *mem = (GstVmafHipMemory *) gmem;
  GstVmafHipMemoryPrivate *priv = mem->priv;
  VhHipDevice *handle = mem_handle (mem);

  wait_pending (mem, NULL);
  g_free (priv->failed);
  vh_hip_event_free (priv->event);
  vh_hip_free (handle, priv->device_ptr);
  if (priv->staging_pageable)
    g_aligned_free (priv->staging);
  else
    vh_hip_host_free (handle, priv->staging);
  g_mutex_clear (&priv->lock);
  gst_object_unref (mem->device);
  g_free (priv);
  g_free (mem);
}

static void
gst_vmaf_hip_allocator_class_init (GstVmafHipAllocatorClass * klass)
{
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  allocator_class->alloc = gst_vmaf_hip_allocator_dummy_alloc;
  allocator_class->free = gst_vmaf_hip_allocator_free;
  GST_DEBUG_CATEGORY_INIT (gst_vmaf_hip_memory_debug, "vmafhipmemory", 0,
      "HIP memory");
}

static void
gst_vmaf_hip_allocator_init (GstVmafHipAllocator * self)
{
  GstAllocator *alloc = GST_ALLOCATOR_CAST (self);

  alloc->mem_type = GST_VMAF_HIP_MEMORY_NAME;
  alloc->mem_map = gst_vmaf_hip_memory_map;
  alloc->mem_unmap = gst_vmaf_hip_memory_unmap;
  alloc->mem_copy = gst_vmaf_hip_memory_copy;
  alloc->mem_share = gst_vmaf_hip_memory_share;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

GstAllocator *
gst_vmaf_hip_allocator_get (void)
{
  static GstAllocator *allocator;

  if (g_once_init_enter (&allocator)) {
    GstAllocator *a = g_object_new (GST_TYPE_VMAF_HIP_ALLOCATOR, NULL);
    gst_object_ref_sink (a);
    GST_OBJECT_FLAG_SET (a, GST_OBJECT_FLAG_MAY_BE_LEAKED);
    g_once_init_leave (&allocator, a);
  }
  return allocator;
}

gboolean
gst_is_vmaf_hip_memory (GstMemory * mem)
{
  return mem && mem->allocator && GST_IS_VMAF_HIP_ALLOCATOR (mem->allocator);
}

gboolean
gst_vmaf_hip_memory_holds (GstVmafHipMemory * mem, const GstVideoInfo * info)
{
  return GST_VIDEO_INFO_FORMAT (&mem->info) == GST_VIDEO_INFO_FORMAT (info) &&
      GST_VIDEO_INFO_WIDTH (&mem->info) == GST_VIDEO_INFO_WIDTH (info) &&
      GST_VIDEO_INFO_HEIGHT (&mem->info) == GST_VIDEO_INFO_HEIGHT (info);
}

void
gst_vmaf_hip_video_plane_size (const GstVideoInfo * info, guint plane,
    gsize * row_bytes, guint * rows)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];

  /* every component of the plane, for packed subsampled formats (YUY2's
   * chroma ends the row) */
  gst_video_format_info_component (info->finfo, plane, comp);
  *row_bytes = 0;
  *rows = GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
  for (guint i = 0; i < GST_VIDEO_MAX_COMPONENTS && comp[i] >= 0; i++)
    *row_bytes = MAX (*row_bytes,
        (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, comp[i]) *
        GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[i]));
}

void
gst_vmaf_hip_memory_layout (GstVmafHipDevice * device,
    const GstVideoInfo * info, GstVideoInfo * out)
{
  const VhHipDeviceInfo *dinfo =
      vh_hip_device_get_info (gst_vmaf_hip_device_get_handle (device));
  gsize align = MAX (dinfo->pitch_alignment, GST_VMAF_HIP_MIN_PITCH_ALIGN);
  gsize offset = 0;

  *out = *info;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gsize row, stride;
    guint rows;

    gst_vmaf_hip_video_plane_size (info, p, &row, &rows);
    stride = (MAX (row, 1) + align - 1) / align * align;
    out->stride[p] = stride;
    out->offset[p] = offset;
    offset += stride * rows;
  }
  out->size = offset;
}

GstMemory *
gst_vmaf_hip_allocator_alloc (GstVmafHipDevice * device,
    const GstVideoInfo * info, GError ** error)
{
  GstVmafHipMemory *mem;
  GstVideoInfo layout;
  gpointer ptr = NULL;

  g_return_val_if_fail (GST_IS_VMAF_HIP_DEVICE (device), NULL);
  gst_vmaf_hip_memory_layout (device, info, &layout);
  if (!vh_hip_malloc (gst_vmaf_hip_device_get_handle (device), layout.size,
          &ptr, error))
    return NULL;
  mem = g_new0 (GstVmafHipMemory, 1);
  mem->priv = g_new0 (GstVmafHipMemoryPrivate, 1);
  g_mutex_init (&mem->priv->lock);
  mem->priv->device_ptr = ptr;
  mem->device = gst_object_ref (device);
  mem->info = layout;
  gst_memory_init (GST_MEMORY_CAST (mem), 0, gst_vmaf_hip_allocator_get (),
      NULL, layout.size, 0, 0, layout.size);
  return GST_MEMORY_CAST (mem);
}
