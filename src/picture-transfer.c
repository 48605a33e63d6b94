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

static GMutex funcs_lock;
static VhPictureTransferFuncs funcs;
static gpointer funcs_data;
static GDestroyNotify funcs_notify;

void
vh_picture_set_transfer_funcs (const VhPictureTransferFuncs * new_funcs,
    gpointer user_data, GDestroyNotify notify)
{
  GDestroyNotify old_notify;
  gpointer old_data;

  g_mutex_lock (&funcs_lock);
  old_notify = funcs_notify;
  old_data = funcs_data;
  if (new_funcs)
    funcs = *new_funcs;
  else
    memset (&funcs, 0, sizeof (funcs));
  funcs_data = user_data;
  funcs_notify = notify;
  g_mutex_unlock (&funcs_lock);
  if (old_notify)
    old_notify (old_data);
}

static const gchar *
memory_name (VhMemoryType mem_type)
{
  return mem_type == VH_MEMORY_HIP_DEVICE ? "HIP device" : "host";
}

static VhPicture *
transfer (VhPicture * pic, VhMemoryType to, GError ** error)
{
  VhPicture *(*func) (const VhPicture *, gpointer, GError **);
  VhPicture *out;
  gpointer data;

  if (pic->mem_type == to)
    return vh_picture_ref (pic);
  /* The functions and their data are used outside the lock: whoever
   * replaces them must not do so while pictures are in flight. */
  g_mutex_lock (&funcs_lock);
  func = to == VH_MEMORY_HOST ? funcs.download : funcs.upload;
  data = funcs_data;
  g_mutex_unlock (&funcs_lock);
  if (!func) {
    g_set_error (error, VH_ERROR, VH_ERROR_BACKEND,
        "a picture in %s memory is needed in %s memory, but no HIP device "
        "is set up to move it", memory_name (pic->mem_type),
        memory_name (to));
    return NULL;
  }
  out = func (pic, data, error);
  if (out) {
    g_assert (out->mem_type == to);
    g_assert (vh_picture_info_equal (&out->info, &pic->info));
  }
  return out;
}

VhPicture *
vh_picture_download (VhPicture * pic, GError ** error)
{
  return transfer (pic, VH_MEMORY_HOST, error);
}

VhPicture *
vh_picture_upload (VhPicture * pic, GError ** error)
{
  return transfer (pic, VH_MEMORY_HIP_DEVICE, error);
}

const VhPicture *
vh_picture_get_in_memory (VhPicture * pic, VhMemoryType mem_type,
    GError ** error)
{
  VhPicture *twin;

  if (pic->mem_type == mem_type)
    return pic;
  g_bit_lock (&pic->twin_lock, 0);
  if (!pic->twin)
    pic->twin = transfer (pic, mem_type, error);
  twin = pic->twin;
  g_bit_unlock (&pic->twin_lock, 0);
  return twin;
}
