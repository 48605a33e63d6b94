/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The shared part of the HIP twins: stream, result slots, pipeline. */

#include "hip-fex-common.h"
#include "errors.h"

#include <string.h>

#define SLOT_ALIGN 256

gboolean
vh_hip_fex_init (VhHipFex * h, VhFeatureExtractor * fex, gsize slot_size,
    VhHipFexCollectFunc collect, GError ** error)
{
  gsize total;

  memset (h, 0, sizeof (*h));
  h->fex = fex;
  h->collect = collect;
  if (!fex->device) {
    g_set_error (error, VH_ERROR, VH_ERROR_BACKEND,
        "feature '%s' runs on HIP but the context has no HIP device",
        fex->klass->name);
    return FALSE;
  }
  h->device = vh_hip_device_ref (fex->device);
  h->slot_size = MAX ((slot_size + SLOT_ALIGN - 1) & ~(gsize) (SLOT_ALIGN - 1),
      SLOT_ALIGN);
  total = h->slot_size * VH_HIP_FEX_DEPTH;
  h->stream = vh_hip_stream_new (h->device, error);
  if (!h->stream)
    goto fail;
  if (!vh_hip_malloc (h->device, total, (gpointer *) & h->d_results, error) ||
      !vh_hip_host_alloc (h->device, total, (gpointer *) & h->h_results,
          error))
    goto fail;
  for (guint i = 0; i < VH_HIP_FEX_DEPTH; i++) {
    h->slots[i].done = vh_hip_event_new (h->device, FALSE, error);
    if (!h->slots[i].done)
      goto fail;
  }
  return TRUE;

fail:
  g_prefix_error (error, "feature '%s': ", fex->klass->name);
  vh_hip_fex_close (h);
  return FALSE;
}

static void
slot_release (VhHipFexSlot * slot)
{
  g_clear_pointer (&slot->ref, vh_picture_unref);
  g_clear_pointer (&slot->dist, vh_picture_unref);
  slot->busy = FALSE;
}

void
vh_hip_fex_close (VhHipFex * h)
{
  if (!h->device)
    return;
  if (h->stream) {
    vh_hip_stream_synchronize (h->stream, NULL);
    vh_hip_stream_free (h->stream);
  }
  for (guint i = 0; i < VH_HIP_FEX_DEPTH; i++) {
    slot_release (&h->slots[i]);
    g_clear_pointer (&h->slots[i].done, vh_hip_event_free);
  }
  if (h->d_results)
    vh_hip_free (h->device, h->d_results);
  if (h->h_results)
    vh_hip_host_free (h->device, h->h_results);
  vh_hip_device_unref (h->device);
  memset (h, 0, sizeof (*h));
}

/* Waits for the oldest frame in flight and hands its values over. */
static gboolean
collect_oldest (VhHipFex * h, VhFeatureCollector * fc, GError ** error)
{
  guint oldest = G_MAXUINT, s = 0;
  VhHipFexSlot *slot;
  gboolean ok = TRUE;

  for (guint i = 0; i < VH_HIP_FEX_DEPTH; i++) {
    if (h->slots[i].busy && h->slots[i].index < oldest) {
      oldest = h->slots[i].index;
      s = i;
    }
  }
  if (oldest == G_MAXUINT)
    return TRUE;
  slot = &h->slots[s];
  if (!vh_hip_event_synchronize (slot->done, error))
    ok = FALSE;
  else if (h->collect)
    ok = h->collect (h->fex, h->h_results + s * h->slot_size, slot->index,
        fc, error);
  slot_release (slot);
  return ok;
}

static guint
n_busy_before (VhHipFex * h, guint limit)
{
  guint n = 0;

  for (guint i = 0; i < VH_HIP_FEX_DEPTH; i++)
    n += h->slots[i].busy && h->slots[i].index < limit;
  return n;
}

/* Work queued on @h's stream from now on runs after @pic's upload. */
static gboolean
wait_for_upload (VhHipFex * h, const VhPicture * pic, GError ** error)
{
  if (!pic || !pic->ready)
    return TRUE;
  return vh_hip_stream_wait_event (h->stream, pic->ready, error);
}

gpointer
vh_hip_fex_begin (VhHipFex * h, guint index, const VhPicture * ref,
    const VhPicture * dist, GError ** error)
{
  guint8 *d;

  g_return_val_if_fail (!h->in_frame, NULL);
  /* The ring is sized so that this slot was collected by the end of the
   * previous frame; a twin that skipped vh_hip_fex_end() on an error may
   * still have it busy: never reuse a slot before its values are out. */
  if (h->slots[h->next].busy) {
    g_set_error (error, VH_ERROR, VH_ERROR_FAILED,
        "feature '%s': frame %u started while frame %u is in flight in its "
        "slot", h->fex->klass->name, index, h->slots[h->next].index);
    return NULL;
  }
  if (!wait_for_upload (h, ref, error) || !wait_for_upload (h, dist, error))
    return NULL;
  h->current = h->next;
  h->current_index = index;
  d = h->d_results + h->current * h->slot_size;
  if (!vh_hip_memset_2d_async (h->stream, d, h->slot_size, 0, h->slot_size,
          1, error))
    return NULL;
  h->in_frame = TRUE;
  return d;
}

gboolean
vh_hip_fex_end (VhHipFex * h, const VhPicture * ref, const VhPicture * dist,
    VhFeatureCollector * fc, GError ** error)
{
  VhHipFexSlot *slot = &h->slots[h->current];
  gsize off = h->current * h->slot_size;

  g_return_val_if_fail (h->in_frame, FALSE);
  h->in_frame = FALSE;
  if (!vh_hip_memcpy_2d_async (h->stream, VH_HIP_COPY_DEVICE_TO_HOST,
          h->h_results + off, h->slot_size, h->d_results + off,
          h->slot_size, h->slot_size, 1, error) ||
      !vh_hip_event_record (slot->done, h->stream, error))
    return FALSE;
  slot->busy = TRUE;
  slot->index = h->current_index;
  /* The pictures are immutable and reference-counted; holding them keeps
   * their memory (a pool's buffer, a device twin) from being reused. */
  slot->ref = ref ? vh_picture_ref ((VhPicture *) ref) : NULL;
  slot->dist = dist ? vh_picture_ref ((VhPicture *) dist) : NULL;
  h->next = (h->current + 1) % VH_HIP_FEX_DEPTH;

  if (!(h->fex->klass->flags & VH_EXTRACTOR_FLAG_TEMPORAL))
    return vh_hip_fex_drain (h, fc, error);
  if (h->current_index >= VH_HIP_FEX_LOOKAHEAD) {
    guint limit = h->current_index - VH_HIP_FEX_LOOKAHEAD + 1;
    while (n_busy_before (h, limit) > 0) {
      if (!collect_oldest (h, fc, error))
        return FALSE;
    }
  }
  return TRUE;
}

gboolean
vh_hip_fex_drain (VhHipFex * h, VhFeatureCollector * fc, GError ** error)
{
  while (n_busy_before (h, G_MAXUINT) > 0) {
    if (!collect_oldest (h, fc, error))
      return FALSE;
  }
  return TRUE;
}

VhHipFunction *
vh_hip_fex_function (VhHipFex * h, const VhHipKernelSource * source,
    const gchar * name, GError ** error)
{
  VhHipModule *module = vh_hip_module_get (h->device, source, error);

  return module ? vh_hip_module_get_function (module, name, error) : NULL;
}

gboolean
vh_hip_fex_launch (VhHipFex * h, VhHipFunction * function, guint grid_x,
    guint grid_y, guint block_x, guint block_y, guint shared_bytes,
    gpointer * args, GError ** error)
{
  const guint grid[3] = { MAX (grid_x, 1), MAX (grid_y, 1), 1 };
  const guint block[3] = { block_x, block_y, 1 };

  return vh_hip_launch (function, h->stream, grid, block, shared_bytes, args,
      error);
}

gboolean
vh_hip_fex_class_flush (VhFeatureExtractor * fex, VhFeatureCollector * fc,
    GError ** error)
{
  return vh_hip_fex_drain (fex->priv, fc, error);
}

void
vh_hip_fex_class_close (VhFeatureExtractor * fex)
{
  vh_hip_fex_close (fex->priv);
}
