/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* The frame slots: a fixed set of frame-sized buffers, each handed out
 * wrapped as a picture and idle again once the picture is released, so
 * that nothing frame-sized is allocated per frame. Shared by the
 * sequential and the parallel readers; calls neither. */

#include "video-reader-private.h"

#include <string.h>

/* Wakes a reading thread that waits for an idle slot: it stops. */
static Slot wake_up;

static void
slot_free (Slot * slot)
{
  Slots *slots = slot->slots;

  if (slot->on_heap)
    g_aligned_free (slot->mem);
  else
    slots->funcs.free (slot->mem, slots->user_data);
  g_free (slot);
}

Slots *
vh_reader_slots_new (const VhVideoReaderMemoryFuncs * funcs, gpointer user_data,
    GDestroyNotify notify)
{
  Slots *slots = g_new0 (Slots, 1);

  slots->ref_count = 1;
  slots->idle = g_async_queue_new ();
  if (funcs)
    slots->funcs = *funcs;
  slots->user_data = user_data;
  slots->notify = notify;
  return slots;
}

void
vh_reader_slots_unref (Slots * slots)
{
  Slot *slot;

  if (!g_atomic_int_dec_and_test (&slots->ref_count))
    return;
  while ((slot = g_async_queue_try_pop (slots->idle)))
    if (slot != &wake_up)
      slot_free (slot);
  g_async_queue_unref (slots->idle);
  if (slots->notify)
    slots->notify (slots->user_data);
  g_free (slots);
}

/* The picture is released: its slot is idle again. */
static void
slot_return (gpointer data)
{
  Slot *slot = data;
  Slots *slots = slot->slots;

  g_async_queue_push (slots->idle, slot);
  vh_reader_slots_unref (slots);
}

/* Rows are padded: the padding is kept defined. Only the padding is
 * written: the samples are read over the rest, so that a frame promised
 * by a header and never sent (a pipe) touches no more memory than came. */
static void
zero_padding (VhVideoReader * r, guint8 * mem)
{
  gsize bps = r->info.bpc > 8 ? 2 : 1;
  guint ssx, ssy;

  vh_pix_fmt_subsampling (r->info.pix_fmt, &ssx, &ssy);
  for (guint p = 0; p < r->n_planes_read; p++) {
    guint width = p ? (r->info.width + (1u << ssx) - 1) >> ssx :
        r->info.width;
    guint height = p ? (r->info.height + (1u << ssy) - 1) >> ssy :
        r->info.height;
    gsize row = width * bps;

    if (r->stride[p] == row)
      continue;
    for (guint y = 0; y < height; y++)
      memset (mem + r->offset[p] + y * r->stride[p] + row, 0,
          r->stride[p] - row);
  }
}

/* A slot's memory from the funcs, else the heap. Page-locked memory
 * only spares the uploads a copy: where it cannot be had (the GPU lost in
 * the middle of a run, which the engine goes on without on the CPU; its
 * page-locked memory used up) the heap does, and the slot's pictures say
 * they are not page-locked. Slots are made as reading needs them, so
 * without this whether a run survives a lost GPU would depend on how many
 * slots existed by then. */
static void
slot_alloc (VhVideoReader * r, Slot * slot)
{
  Slots *slots = r->slots;
  GError *error = NULL;

  if (slots->funcs.alloc) {
    slot->mem = slots->funcs.alloc (r->picture_bytes, slots->user_data,
        &error);
    if (slot->mem)
      return;
    g_debug ("%s: a frame slot on the heap (%s)", r->path, error ?
        error->message : "its memory refused");
    g_clear_error (&error);
  }
  slot->mem = g_aligned_alloc (1, r->picture_bytes, PICTURE_ALIGN);
  slot->on_heap = TRUE;
}

/* A new slot while fewer than max_frames exist, else NULL. */
static Slot *
reader_new_slot (VhVideoReader * r)
{
  Slot *slot;

  g_mutex_lock (&r->lock);
  if (r->n_slots >= r->max_frames) {
    g_mutex_unlock (&r->lock);
    return NULL;
  }
  slot = g_new0 (Slot, 1);
  slot->slots = r->slots;
  slot_alloc (r, slot);
  r->n_slots++;
  g_mutex_unlock (&r->lock);
  zero_padding (r, slot->mem);
  return slot;
}

Slot *
vh_reader_take_slot (VhVideoReader * r)
{
  Slot *slot = g_async_queue_try_pop (r->slots->idle);

  if (!slot)
    slot = reader_new_slot (r);
  if (!slot)
    slot = g_async_queue_pop (r->slots->idle);
  if (slot == &wake_up || g_atomic_int_get (&r->stop)) {
    if (slot != &wake_up)
      g_async_queue_push (r->slots->idle, slot);
    return NULL;
  }
  return slot;
}

void
vh_reader_give_back_slot (VhVideoReader * r, Slot * slot)
{
  g_async_queue_push (r->slots->idle, slot);
}

void
vh_reader_wake (VhVideoReader * r, guint n)
{
  for (guint i = 0; i < n; i++)
    g_async_queue_push (r->slots->idle, &wake_up);
}

void
vh_reader_drop_wake_ups (VhVideoReader * r)
{
  GQueue kept = G_QUEUE_INIT;
  Slot *slot;

  while ((slot = g_async_queue_try_pop (r->slots->idle)))
    if (slot != &wake_up)
      g_queue_push_tail (&kept, slot);
  while ((slot = g_queue_pop_head (&kept)))
    g_async_queue_push (r->slots->idle, slot);
}

VhPicture *
vh_reader_wrap_slot (VhVideoReader * r, Slot * slot)
{
  gpointer data[3] = { NULL, NULL, NULL };
  VhPicture *pic;

  for (guint p = 0; p < r->n_planes_read; p++)
    data[p] = slot->mem + r->offset[p];
  /* The picture holds a reference to the slots until it is released. */
  g_atomic_int_inc (&r->slots->ref_count);
  pic = vh_picture_new_wrapped (&r->info, data, r->stride, NULL,
      VH_MEMORY_HOST, slot, slot_return);
  pic->page_locked = r->slots->funcs.page_locked && !slot->on_heap;
  if (r->luma_only)
    vh_picture_drop_chroma (pic);
  return pic;
}

void
vh_reader_unpack (VhVideoReader * r, const VhPicture * pic, const guint8 * src)
{
  gsize bps = r->info.bpc > 8 ? 2 : 1;

  for (guint p = 0; p < pic->n_planes; p++) {
    gsize row = pic->width[p] * bps;
    for (guint y = 0; y < pic->height[p]; y++, src += row)
      memcpy (vh_picture_row (pic, p, y), src, row);
  }
}

void
vh_reader_to_host_order (const VhPicture * pic)
{
#if G_BYTE_ORDER != G_LITTLE_ENDIAN
  if (pic->info.bpc <= 8)
    return;
  for (guint p = 0; p < pic->n_planes; p++) {
    for (guint y = 0; y < pic->height[p]; y++) {
      guint16 *row = vh_picture_row (pic, p, y);
      for (guint x = 0; x < pic->width[p]; x++)
        row[x] = GUINT16_FROM_LE (row[x]);
    }
  }
#else
  (void) pic;
#endif
}

void
vh_reader_result_free (ReadResult * res)
{
  vh_picture_unref (res->pic);
  g_clear_error (&res->error);
  g_free (res);
}
