/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The distorted frames resampled to the reference's size (scale
 * property). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipscale.h"
#include "errors.h"

#ifdef VH_HAVE_HIP
#include "hip-scale.h"
#endif

struct _GstVmafHipScale
{
  VhScaleMethod method;
  /* The CPU twin for the geometry last seen (its filters are the GPU
   * twin's too). */
  VhScaler *cpu;
  VhPictureInfo in, out;
  gchar *description;           /* "bicubic from 1280x720", NULL: none */
  const gchar *where;           /* "gpu", "cpu" */
#ifdef VH_HAVE_HIP
  VhHipScaler *gpu;             /* for cpu's geometry, on device */
  VhHipStream *stream;
  VhHipDevice *device;
  struct _OutputPool *outputs;  /* resampled pictures' planes */
#endif
};

GstVmafHipScale *
gst_vmaf_hip_scale_new (void)
{
  return g_new0 (GstVmafHipScale, 1);
}

#ifdef VH_HAVE_HIP
static void output_pool_close (struct _OutputPool *pool);
#endif

static void
drop_gpu (GstVmafHipScale * scale)
{
#ifdef VH_HAVE_HIP
  /* the last frames may still be in flight on the stream */
  if (scale->stream)
    vh_hip_stream_synchronize (scale->stream, NULL);
  g_clear_pointer (&scale->gpu, vh_hip_scaler_free);
  g_clear_pointer (&scale->stream, vh_hip_stream_free);
  g_clear_pointer (&scale->device, vh_hip_device_unref);
  g_clear_pointer (&scale->outputs, output_pool_close);
#endif
}

void
gst_vmaf_hip_scale_stop (GstVmafHipScale * scale)
{
  drop_gpu (scale);
  g_clear_pointer (&scale->cpu, vh_scaler_free);
  g_clear_pointer (&scale->description, g_free);
  scale->where = NULL;
}

void
gst_vmaf_hip_scale_free (GstVmafHipScale * scale)
{
  if (!scale)
    return;
  gst_vmaf_hip_scale_stop (scale);
  g_free (scale);
}

void
gst_vmaf_hip_scale_start (GstVmafHipScale * scale, VhScaleMethod method)
{
  gst_vmaf_hip_scale_stop (scale);
  scale->method = method;
}

VhScaleMethod
gst_vmaf_hip_scale_method (GstVmafHipScale * scale)
{
  return scale->method;
}

gboolean
gst_vmaf_hip_scale_applies (GstVmafHipScale * scale,
    const VhPictureInfo * ref, const VhPictureInfo * dist)
{
  return scale->method != VH_SCALE_NONE && ref->pix_fmt == dist->pix_fmt &&
      ref->bpc == dist->bpc && (ref->width != dist->width ||
      ref->height != dist->height);
}

/* The CPU twin for @dist to @ref's size, made again when either changes. */
static gboolean
prepare (GstVmafHipScale * scale, const VhPictureInfo * ref,
    const VhPictureInfo * dist, GError ** error)
{
  VhPictureInfo out = *dist;

  out.width = ref->width;
  out.height = ref->height;
  if (scale->cpu && vh_picture_info_equal (&scale->in, dist) &&
      vh_picture_info_equal (&scale->out, &out))
    return TRUE;
  drop_gpu (scale);
  g_clear_pointer (&scale->cpu, vh_scaler_free);
  scale->cpu = vh_scaler_new (scale->method, dist, &out, error);
  if (!scale->cpu)
    return FALSE;
  scale->in = *dist;
  scale->out = out;
  g_free (scale->description);
  scale->description = g_strdup_printf ("%s from %ux%u",
      vh_scale_method_to_string (scale->method), dist->width, dist->height);
  return TRUE;
}

#ifdef VH_HAVE_HIP
/* Resampled device pictures are recycled: allocating device memory is
 * slow and freeing it waits for the whole device, at every frame. The
 * pool goes with its scaler's geometry; pictures still out then free
 * their planes when released. */
typedef struct _OutputPool
{
  gint ref_count;
  VhHipDevice *device;
  GMutex lock;
  gboolean open;
  GQueue idle;                  /* DeviceOutput */
} OutputPool;

#define OUTPUT_POOL_MAX 16

/* A resampled device picture's memory: its planes, the event its samples
 * are ready at (the engine's GPU work waits on it), and the input, which
 * the kernels read until then. */
typedef struct
{
  OutputPool *pool;
  gpointer planes[3];
  gsize stride[3];
  VhHipEvent *ready;
  VhPicture *src;
} DeviceOutput;

static OutputPool *
output_pool_new (VhHipDevice * device)
{
  OutputPool *pool = g_new0 (OutputPool, 1);

  pool->ref_count = 1;
  pool->device = vh_hip_device_ref (device);
  pool->open = TRUE;
  g_mutex_init (&pool->lock);
  g_queue_init (&pool->idle);
  return pool;
}

static void
output_pool_unref (OutputPool * pool)
{
  if (!g_atomic_int_dec_and_test (&pool->ref_count))
    return;
  vh_hip_device_unref (pool->device);
  g_mutex_clear (&pool->lock);
  g_free (pool);
}

static void
device_output_destroy (DeviceOutput * o)
{
  if (o->ready)
    vh_hip_event_free (o->ready);
  for (guint p = 0; p < 3; p++)
    if (o->planes[p])
      vh_hip_free (o->pool->device, o->planes[p]);
  output_pool_unref (o->pool);
  g_free (o);
}

/* The picture was released: its planes go back to the pool. */
static void
device_output_release (gpointer data)
{
  DeviceOutput *o = data;
  OutputPool *pool = o->pool;
  gboolean kept = FALSE;

  if (o->ready)
    vh_hip_event_synchronize (o->ready, NULL);
  g_clear_pointer (&o->src, vh_picture_unref);
  g_mutex_lock (&pool->lock);
  if (pool->open && pool->idle.length < OUTPUT_POOL_MAX) {
    g_queue_push_tail (&pool->idle, o);
    kept = TRUE;
  }
  g_mutex_unlock (&pool->lock);
  if (!kept)
    device_output_destroy (o);
}

static void
output_pool_close (OutputPool * pool)
{
  GQueue idle;

  g_mutex_lock (&pool->lock);
  pool->open = FALSE;
  idle = pool->idle;
  g_queue_init (&pool->idle);
  g_mutex_unlock (&pool->lock);
  g_queue_clear_full (&idle, (GDestroyNotify) device_output_destroy);
  output_pool_unref (pool);
}

/* Planes for one picture of @info: recycled, or allocated. */
static DeviceOutput *
output_take (OutputPool * pool, const VhPictureInfo * info, GError ** error)
{
  DeviceOutput *o;
  guint ssx, ssy, n_planes = vh_pix_fmt_n_planes (info->pix_fmt);
  gsize bps = info->bpc > 8 ? 2 : 1;

  g_mutex_lock (&pool->lock);
  o = g_queue_pop_head (&pool->idle);
  g_mutex_unlock (&pool->lock);
  if (o)
    return o;
  o = g_new0 (DeviceOutput, 1);
  g_atomic_int_inc (&pool->ref_count);
  o->pool = pool;
  vh_pix_fmt_subsampling (info->pix_fmt, &ssx, &ssy);
  for (guint p = 0; p < n_planes; p++) {
    guint w = p ? (info->width + ssx) >> ssx : info->width;
    guint h = p ? (info->height + ssy) >> ssy : info->height;

    if (!vh_hip_malloc_pitch (pool->device, w * bps, h, &o->planes[p],
            &o->stride[p], error)) {
      device_output_destroy (o);
      return NULL;
    }
  }
  o->ready = vh_hip_event_new (pool->device, FALSE, error);
  if (!o->ready) {
    device_output_destroy (o);
    return NULL;
  }
  return o;
}

/* @dist (a device picture) resampled on @device; @keep is held until the
 * kernels have read @dist (@dist itself, or the host picture it is the
 * upload of). */
static VhPicture *
scale_on_device (GstVmafHipScale * scale, VhHipDevice * device,
    const VhPicture * dist, VhPicture * keep, GError ** error)
{
  DeviceOutput *o;
  VhPicture *out;

  if (scale->device != device)
    drop_gpu (scale);
  if (!scale->gpu) {
    scale->gpu = vh_hip_scaler_new (device, scale->cpu, error);
    scale->stream = scale->gpu ? vh_hip_stream_new (device, error) : NULL;
    if (!scale->stream) {
      drop_gpu (scale);
      return NULL;
    }
    scale->device = vh_hip_device_ref (device);
    scale->outputs = output_pool_new (device);
  }

  o = output_take (scale->outputs, &scale->out, error);
  if (!o)
    return NULL;
  out = vh_picture_new_wrapped (&scale->out, o->planes, o->stride, NULL,
      VH_MEMORY_HIP_DEVICE, o, device_output_release);
  o->src = vh_picture_ref (keep);
  if ((dist->ready && !vh_hip_stream_wait_event (scale->stream, dist->ready,
              error)) ||
      !vh_hip_scaler_scale_async (scale->gpu, scale->stream, dist, out,
          error) || !vh_hip_event_record (o->ready, scale->stream, error)) {
    vh_picture_unref (out);
    return NULL;
  }
  out->ready = o->ready;
  return out;
}
#endif

VhPicture *
gst_vmaf_hip_scale_picture (GstVmafHipScale * scale, gpointer device,
    const VhPictureTransfer * upload, const VhPictureInfo * ref,
    VhPicture * dist, GError ** error)
{
  VhPicture *out;

  if (!prepare (scale, ref, &dist->info, error))
    return NULL;
#ifdef VH_HAVE_HIP
  /* The GPU features read device memory: the smaller picture goes up,
   * and the resampling runs there, rather than on the CPU before a larger
   * upload. The upload is the context's own, kept with @dist. */
  if (device && upload && dist->mem_type == VH_MEMORY_HOST) {
    const VhPicture *on_device = vh_picture_get_in_memory (dist,
        VH_MEMORY_HIP_DEVICE, upload, error);

    out = on_device ? scale_on_device (scale, device, on_device, dist,
        error) : NULL;
    scale->where = out ? "gpu" : scale->where;
    return out;
  }
#endif
  if (dist->mem_type == VH_MEMORY_HOST) {
    out = vh_scaler_scale (scale->cpu, dist, error);
    scale->where = out ? "cpu" : scale->where;
    return out;
  }
#ifdef VH_HAVE_HIP
  if (device && dist->mem_type == VH_MEMORY_HIP_DEVICE) {
    out = scale_on_device (scale, device, dist, dist, error);
    scale->where = out ? "gpu" : scale->where;
    return out;
  }
#endif
  g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
      "a distorted frame in device memory without the GPU it lives on");
  return NULL;
}

const gchar *
gst_vmaf_hip_scale_describe (GstVmafHipScale * scale)
{
  return scale->description;
}

const gchar *
gst_vmaf_hip_scale_where (GstVmafHipScale * scale)
{
  return scale->where;
}
