/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "picture-transfer.h"
#include "errors.h"

#include <string.h>

struct _VhPictureTransfer
{
  gint ref_count;
  VhPictureTransferFuncs funcs;
  gpointer device;
  gpointer user_data;
  GDestroyNotify notify;
};

VhPictureTransfer *
vh_picture_transfer_new (const VhPictureTransferFuncs * funcs,
    gpointer device, gpointer user_data, GDestroyNotify notify)
{
  VhPictureTransfer *t = g_new0 (VhPictureTransfer, 1);

  t->ref_count = 1;
  t->funcs = *funcs;
  t->device = device;
  t->user_data = user_data;
  t->notify = notify;
  return t;
}

VhPictureTransfer *
vh_picture_transfer_ref (VhPictureTransfer * transfer)
{
  g_atomic_int_inc (&transfer->ref_count);
  return transfer;
}

void
vh_picture_transfer_unref (VhPictureTransfer * transfer)
{
  if (!transfer || !g_atomic_int_dec_and_test (&transfer->ref_count))
    return;
  if (transfer->notify)
    transfer->notify (transfer->user_data);
  g_free (transfer);
}

gpointer
vh_picture_transfer_get_device (const VhPictureTransfer * transfer)
{
  return transfer ? transfer->device : NULL;
}

static const gchar *
memory_name (VhMemoryType mem_type)
{
  return mem_type == VH_MEMORY_HIP_DEVICE ? "HIP device" : "host";
}

static VhPicture *
transfer (VhPicture * pic, VhMemoryType to, guint n_planes,
    const VhPictureTransfer * t, GError ** error)
{
  VhPicture *out;

  if (pic->mem_type == to)
    return vh_picture_ref (pic);
  if (!t) {
    g_set_error (error, VH_ERROR, VH_ERROR_BACKEND,
        "a picture in %s memory is needed in %s memory, but no HIP device "
        "is set up to move it", memory_name (pic->mem_type),
        memory_name (to));
    return NULL;
  }
  out = to == VH_MEMORY_HOST ? t->funcs.download (pic, t->user_data, error)
      : t->funcs.upload (pic, MIN (n_planes, pic->n_planes), t->user_data,
      error);
  if (out) {
    g_assert (out->mem_type == to);
    g_assert (vh_picture_info_equal (&out->info, &pic->info));
  }
  return out;
}

const VhPicture *
vh_picture_get_in_memory (VhPicture * pic, VhMemoryType mem_type,
    const VhPictureTransfer * t, GError ** error)
{
  return vh_picture_get_planes_in_memory (pic, mem_type, pic->n_planes, t,
      error);
}

const VhPicture *
vh_picture_get_planes_in_memory (VhPicture * pic, VhMemoryType mem_type,
    guint n_planes, const VhPictureTransfer * t, GError ** error)
{
  VhPicture *twin;

  if (pic->mem_type == mem_type)
    return pic;
  n_planes = CLAMP (n_planes, 1, pic->n_planes);
  g_bit_lock (&pic->twin_lock, 0);
  if (!pic->twin) {
    pic->twin = transfer (pic, mem_type, n_planes, t, error);
    pic->twin_transfer = t;
  }
  twin = pic->twin;
  if (twin && pic->twin_transfer != t) {
    /* Its copy is on another context's device. */
    g_set_error (error, VH_ERROR, VH_ERROR_BACKEND,
        "a picture in %s memory was already moved to %s memory by another "
        "scoring context's device", memory_name (pic->mem_type),
        memory_name (mem_type));
    twin = NULL;
  } else if (twin && !twin->data[n_planes - 1]) {
    g_set_error (error, VH_ERROR, VH_ERROR_BACKEND,
        "a picture moved to %s memory without its chroma is needed with it",
        memory_name (mem_type));
    twin = NULL;
  }
  g_bit_unlock (&pic->twin_lock, 0);
  return twin;
}

gboolean
vh_picture_release_host_memory (VhPicture * pic)
{
  GDestroyNotify notify = NULL;
  gpointer user_data = NULL, allocation = NULL;
  gboolean released = FALSE;

  if (pic->mem_type != VH_MEMORY_HOST)
    return FALSE;
  g_bit_lock (&pic->twin_lock, 0);
  /* A copy made straight from this memory may still be reading it. */
  if (pic->twin && !pic->twin->wait_source_read && pic->data[0]) {
    notify = pic->notify;
    user_data = pic->user_data;
    allocation = pic->allocation;
    pic->notify = NULL;
    pic->user_data = NULL;
    pic->allocation = NULL;
    for (guint p = 0; p < 3; p++)
      pic->data[p] = NULL;
    released = TRUE;
  }
  g_bit_unlock (&pic->twin_lock, 0);
  if (notify)
    notify (user_data);
  g_aligned_free (allocation);
  return released;
}
