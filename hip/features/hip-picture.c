/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Moving the engine's pictures between host and HIP device memory. */

#include "hip-picture.h"
#include "picture-transfer.h"

#include <string.h>

/* The engine's uploads (a scoring context's transfer, made by
 * vh_hip_picture_transfer_new()) take their planes from the transfer's own
 * pool: allocating device memory is slow, and freeing it waits for the
 * whole device, which would stall every stream at each frame. Pictures may
 * outlive their transfer: they hold the pool, which keeps nothing once the
 * transfer is gone. */
typedef struct
{
  gsize span;
  guint height;
  gpointer ptr;
  gsize pitch;
} PooledPlane;

#define POOL_MAX 192

/* Uploads whose copies may be in flight at once, per transfer: a worker
 * queues its frame's two and waits only at the end of its frame, so a few
 * workers' worth; past this, the next upload waits for the oldest. */
#define UPLOADERS_MAX 6

typedef struct
{
  gint ref_count;
  VhHipDevice *device;
  GMutex lock;
  gboolean open;                /* the transfer is alive: keep what comes back */
  GQueue planes;                /* PooledPlane */
  GQueue idle_uploaders;        /* Uploader, oldest first */
  guint n_uploaders;            /* made for the pool, idle or not */
  GQueue idle_events;           /* VhHipEvent, for uploads' ready events */
} PlanePool;

typedef struct
{
  VhHipDevice *device;
  PlanePool *pool;              /* NULL: planes are freed, not pooled */
  gpointer planes[3];
  gsize span[3];
  gsize pitch[3];
  guint height[3];
  VhHipEvent *ready;            /* recorded after the upload's copies */
} DevicePlanes;

/* A stream and a page-locked staging buffer, one per upload in progress
 * (kept in the pool for the next), so that the engine's workers upload side
 * by side. The copies from the staging are not waited for: the GPU work
 * that reads the planes waits for them on the device, and the staging is
 * written again only once its event says that they are done. */
typedef struct
{
  VhHipDevice *device;
  VhHipStream *stream;
  VhHipEvent *copied;           /* recorded after the last copy */
  gboolean in_flight;           /* @copied not yet seen done */
  guint8 *staging;
  gsize size;
} Uploader;

static void
uploader_free (Uploader * u)
{
  /* the copy engine may still read the staging */
  if (u->in_flight)
    vh_hip_event_synchronize (u->copied, NULL);
  g_clear_pointer (&u->copied, vh_hip_event_free);
  if (u->staging)
    vh_hip_host_free (u->device, u->staging);
  if (u->stream)
    vh_hip_stream_free (u->stream);
  vh_hip_device_unref (u->device);
  g_free (u);
}

static PlanePool *
plane_pool_new (VhHipDevice * device)
{
  PlanePool *pool = g_new0 (PlanePool, 1);

  pool->ref_count = 1;
  pool->device = vh_hip_device_ref (device);
  pool->open = TRUE;
  g_mutex_init (&pool->lock);
  g_queue_init (&pool->planes);
  g_queue_init (&pool->idle_uploaders);
  g_queue_init (&pool->idle_events);
  return pool;
}

static PlanePool *
plane_pool_ref (PlanePool * pool)
{
  g_atomic_int_inc (&pool->ref_count);
  return pool;
}

/* Frees what the pool keeps and keeps nothing more. */
static void
plane_pool_close (PlanePool * pool)
{
  GQueue planes, uploaders, events;
  PooledPlane *pp;
  Uploader *u;

  g_mutex_lock (&pool->lock);
  pool->open = FALSE;
  planes = pool->planes;
  uploaders = pool->idle_uploaders;
  events = pool->idle_events;
  g_queue_init (&pool->planes);
  g_queue_init (&pool->idle_uploaders);
  g_queue_init (&pool->idle_events);
  g_mutex_unlock (&pool->lock);
  g_queue_clear_full (&events, (GDestroyNotify) vh_hip_event_free);
  while ((pp = g_queue_pop_head (&planes))) {
    vh_hip_free (pool->device, pp->ptr);
    g_free (pp);
  }
  while ((u = g_queue_pop_head (&uploaders)))
    uploader_free (u);
}

static void
plane_pool_unref (PlanePool * pool)
{
  if (!pool || !g_atomic_int_dec_and_test (&pool->ref_count))
    return;
  plane_pool_close (pool);
  vh_hip_device_unref (pool->device);
  g_mutex_clear (&pool->lock);
  g_free (pool);
}

static gboolean
plane_alloc (VhHipDevice * device, PlanePool * pool, gsize span,
    guint height, gpointer * ptr, gsize * pitch, GError ** error)
{
  if (pool) {
    g_mutex_lock (&pool->lock);
    for (GList * l = pool->planes.head; l; l = l->next) {
      PooledPlane *pp = l->data;
      if (pp->span == span && pp->height == height) {
        g_queue_delete_link (&pool->planes, l);
        g_mutex_unlock (&pool->lock);
        *ptr = pp->ptr;
        *pitch = pp->pitch;
        g_free (pp);
        return TRUE;
      }
    }
    g_mutex_unlock (&pool->lock);
  }
  return vh_hip_malloc_pitch (device, span, height, ptr, pitch, error);
}

static void
plane_free (VhHipDevice * device, PlanePool * pool, gsize span,
    guint height, gpointer ptr, gsize pitch)
{
  if (!ptr)
    return;
  if (pool) {
    g_mutex_lock (&pool->lock);
    if (pool->open && pool->planes.length < POOL_MAX) {
      PooledPlane *pp = g_new0 (PooledPlane, 1);
      pp->span = span;
      pp->height = height;
      pp->ptr = ptr;
      pp->pitch = pitch;
      g_queue_push_tail (&pool->planes, pp);
      g_mutex_unlock (&pool->lock);
      return;
    }
    g_mutex_unlock (&pool->lock);
  }
  vh_hip_free (device, ptr);
}

static VhHipEvent *
event_take (PlanePool * pool, GError ** error)
{
  VhHipEvent *event;

  g_mutex_lock (&pool->lock);
  event = g_queue_pop_head (&pool->idle_events);
  g_mutex_unlock (&pool->lock);
  return event ? event : vh_hip_event_new (pool->device, FALSE, error);
}

/* Keeps @item in @idle (one of @pool's queues) while the transfer is
 * alive; frees it otherwise. */
static void
pool_keep (PlanePool * pool, GQueue * idle, gpointer item,
    GDestroyNotify free_item)
{
  g_mutex_lock (&pool->lock);
  if (pool->open) {
    g_queue_push_tail (idle, item);
    item = NULL;
  }
  g_mutex_unlock (&pool->lock);
  if (item)
    free_item (item);
}

/* @event's work must be done. */
static void
event_give (PlanePool * pool, VhHipEvent * event)
{
  pool_keep (pool, &pool->idle_events, event,
      (GDestroyNotify) vh_hip_event_free);
}

static void
device_planes_free (gpointer data)
{
  DevicePlanes *dp = data;

  if (dp->ready) {
    /* Long done when GPU work read the planes (it waited for the copies
     * and was waited for); a picture nobody read may still be filling. */
    if (!vh_hip_event_query (dp->ready, NULL))
      vh_hip_event_synchronize (dp->ready, NULL);
    event_give (dp->pool, dp->ready);
  }
  for (guint p = 0; p < 3; p++)
    plane_free (dp->device, dp->pool, dp->span[p], dp->height[p],
        dp->planes[p], dp->pitch[p]);
  plane_pool_unref (dp->pool);
  vh_hip_device_unref (dp->device);
  g_free (dp);
}

/* Bytes of one row of plane @p that hold samples: with a step, the last
 * sample ends the row. */
static gsize
row_span (const VhPicture * pic, guint p)
{
  gsize bps = vh_picture_bytes_per_sample (pic);

  return ((gsize) (pic->width[p] - 1) * pic->step[p] + 1) * bps;
}

/* Whether @u's last copies are done, without waiting (an error counts as
 * not done: the wait that follows reports it). */
static gboolean
uploader_idle (Uploader * u)
{
  if (u->in_flight && vh_hip_event_query (u->copied, NULL))
    u->in_flight = FALSE;
  return !u->in_flight;
}

static Uploader *
uploader_new (VhHipDevice * device, GError ** error)
{
  Uploader *u = g_new0 (Uploader, 1);

  u->device = vh_hip_device_ref (device);
  u->stream = vh_hip_stream_new (device, error);
  if (u->stream)
    u->copied = vh_hip_event_new (device, FALSE, error);
  if (!u->copied) {
    uploader_free (u);
    return NULL;
  }
  return u;
}

/* A failed upload's uploader: its stream may still hold copies. */
static void
uploader_discard (PlanePool * pool, Uploader * u)
{
  g_mutex_lock (&pool->lock);
  pool->n_uploaders--;
  g_mutex_unlock (&pool->lock);
  vh_hip_stream_synchronize (u->stream, NULL);
  uploader_free (u);
}

/* An uploader whose copies are done: an idle one, a new one while there
 * are fewer than UPLOADERS_MAX (or all are out with other workers), or
 * else the oldest, once its copies are done. */
static Uploader *
uploader_take (PlanePool * pool, gsize size, GError ** error)
{
  VhHipDevice *device = pool->device;
  Uploader *u = NULL;

  g_mutex_lock (&pool->lock);
  for (GList * l = pool->idle_uploaders.head; l; l = l->next) {
    if (uploader_idle (l->data)) {
      u = l->data;
      g_queue_delete_link (&pool->idle_uploaders, l);
      break;
    }
  }
  if (!u && pool->n_uploaders >= UPLOADERS_MAX)
    u = g_queue_pop_head (&pool->idle_uploaders);
  if (!u)
    pool->n_uploaders++;
  g_mutex_unlock (&pool->lock);
  if (!u) {
    u = uploader_new (device, error);
    if (!u) {
      g_mutex_lock (&pool->lock);
      pool->n_uploaders--;
      g_mutex_unlock (&pool->lock);
      return NULL;
    }
  }
  if (u->in_flight) {
    if (!vh_hip_event_synchronize (u->copied, error)) {
      uploader_discard (pool, u);
      return NULL;
    }
    u->in_flight = FALSE;
  }
  if (u->size < size) {
    if (u->staging)
      vh_hip_host_free (device, u->staging);
    u->staging = NULL;
    u->size = 0;
    if (!vh_hip_host_alloc (device, size, (gpointer *) & u->staging, error)) {
      uploader_discard (pool, u);
      return NULL;
    }
    u->size = size;
  }
  return u;
}

static void
uploader_give (PlanePool * pool, Uploader * u)
{
  pool_keep (pool, &pool->idle_uploaders, u, (GDestroyNotify) uploader_free);
}

/* Through page-locked memory: rows of the first @n_planes planes packed
 * into the staging buffer (or the picture's own, when it is page-locked),
 * one asynchronous copy per plane, not waited for: @dp's ready event
 * follows them. */
static gboolean
upload_staged (const VhPicture * pic, guint n_planes, DevicePlanes * dp,
    GError ** error)
{
  gsize offset[3], total = 0;
  Uploader *u;

  for (guint p = 0; p < n_planes; p++) {
    offset[p] = total;
    total += dp->span[p] * pic->height[p];
  }
  u = uploader_take (dp->pool, pic->page_locked ? 0 : total, error);
  if (!u)
    return FALSE;
  for (guint p = 0; p < n_planes; p++) {
    gconstpointer src = pic->data[p];
    gsize src_pitch = pic->stride[p];

    if (!pic->page_locked) {
      src = u->staging + offset[p];
      src_pitch = dp->span[p];
      vh_hip_copy_to_staging_2d (u->staging + offset[p], src_pitch,
          pic->data[p], pic->stride[p], dp->span[p], pic->height[p]);
    }
    if (!vh_hip_memcpy_2d_async (u->stream, VH_HIP_COPY_HOST_TO_DEVICE,
            dp->planes[p], dp->pitch[p], src, src_pitch, dp->span[p],
            pic->height[p], error))
      goto fail;
  }
  dp->ready = event_take (dp->pool, error);
  if (!dp->ready || !vh_hip_event_record (dp->ready, u->stream, error) ||
      !vh_hip_event_record (u->copied, u->stream, error))
    goto fail;
  u->in_flight = TRUE;
  uploader_give (dp->pool, u);
  return TRUE;

fail:
  uploader_discard (dp->pool, u);
  return FALSE;
}

/* A page-locked picture's memory is its owner's to reuse once the picture
 * is released: its device twin's copies must have read it by then (long
 * done, normally: the features that read the twin waited for them). */
static void
wait_source_read (VhPicture * twin)
{
  if (!vh_hip_event_query (twin->ready, NULL))
    vh_hip_event_synchronize (twin->ready, NULL);
}

/* @pic's first @n_planes planes in new device memory; the others are
 * left out (NULL). */
static VhPicture *
upload (VhHipDevice * device, const VhPicture * pic, guint n_planes,
    PlanePool * pool, GError ** error)
{
  DevicePlanes *dp = g_new0 (DevicePlanes, 1);
  gpointer data[3] = { NULL, NULL, NULL };
  gsize stride[3] = { 0, 0, 0 };
  VhPicture *result;

  g_return_val_if_fail (pic->mem_type == VH_MEMORY_HOST, NULL);
  dp->device = vh_hip_device_ref (device);
  dp->pool = pool ? plane_pool_ref (pool) : NULL;
  n_planes = MIN (n_planes, pic->n_planes);
  for (guint p = 0; p < n_planes; p++) {
    dp->span[p] = row_span (pic, p);
    dp->height[p] = pic->height[p];
    if (!plane_alloc (device, pool, dp->span[p], pic->height[p],
            &dp->planes[p], &dp->pitch[p], error))
      goto fail;
    data[p] = dp->planes[p];
    stride[p] = dp->pitch[p];
  }
  if (pool) {
    if (!upload_staged (pic, n_planes, dp, error))
      goto fail;
  } else {
    for (guint p = 0; p < n_planes; p++) {
      if (!vh_hip_memcpy_2d (device, VH_HIP_COPY_HOST_TO_DEVICE,
              dp->planes[p], dp->pitch[p], pic->data[p], pic->stride[p],
              dp->span[p], pic->height[p], error))
        goto fail;
    }
  }
  result = vh_picture_new_wrapped (&pic->info, data, stride, pic->step,
      VH_MEMORY_HIP_DEVICE, dp, device_planes_free);
  result->ready = dp->ready;
  if (dp->ready && pic->page_locked)
    result->wait_source_read = wait_source_read;
  return result;

fail:
  device_planes_free (dp);
  return NULL;
}

VhPicture *
vh_hip_picture_upload (VhHipDevice * device, const VhPicture * pic,
    GError ** error)
{
  return upload (device, pic, pic->n_planes, NULL, error);
}

VhPicture *
vh_hip_picture_download (VhHipDevice * device, const VhPicture * pic,
    GError ** error)
{
  gpointer data[3] = { NULL, NULL, NULL };
  gsize stride[3] = { 0, 0, 0 }, offset[3], total = 0;
  guint8 *host;

  g_return_val_if_fail (pic->mem_type == VH_MEMORY_HIP_DEVICE, NULL);
  /* the copies below are not ordered after an upload's own stream */
  if (pic->ready && !vh_hip_event_synchronize (pic->ready, error))
    return NULL;
  /* Planes an upload left out (NULL) stay out. */
  for (guint p = 0; p < pic->n_planes && pic->data[p]; p++) {
    stride[p] = (row_span (pic, p) + 63) & ~(gsize) 63;
    offset[p] = total;
    total += stride[p] * pic->height[p];
  }
  host = g_malloc (total);
  for (guint p = 0; p < pic->n_planes && pic->data[p]; p++) {
    data[p] = host + offset[p];
    if (!vh_hip_memcpy_2d (device, VH_HIP_COPY_DEVICE_TO_HOST, data[p],
            stride[p], pic->data[p], pic->stride[p], row_span (pic, p),
            pic->height[p], error)) {
      g_free (host);
      return NULL;
    }
  }
  return vh_picture_new_wrapped (&pic->info, data, stride, pic->step,
      VH_MEMORY_HOST, host, g_free);
}

static VhPicture *
transfer_download (const VhPicture * pic, gpointer user_data, GError ** error)
{
  PlanePool *pool = user_data;

  return vh_hip_picture_download (pool->device, pic, error);
}

static VhPicture *
transfer_upload (const VhPicture * pic, guint n_planes, gpointer user_data,
    GError ** error)
{
  PlanePool *pool = user_data;

  return upload (pool->device, pic, n_planes, pool, error);
}

static void
transfer_free (gpointer user_data)
{
  PlanePool *pool = user_data;

  /* Pictures still out hold the pool; it keeps nothing from now on. */
  plane_pool_close (pool);
  plane_pool_unref (pool);
}

VhPictureTransfer *
vh_hip_picture_transfer_new (VhHipDevice * device)
{
  static const VhPictureTransferFuncs funcs = {
    transfer_download,
    transfer_upload,
  };
  PlanePool *pool = plane_pool_new (device);

  return vh_picture_transfer_new (&funcs, pool->device, pool, transfer_free);
}
