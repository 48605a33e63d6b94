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

typedef struct
{
  VhHipDevice *device;
  gpointer planes[3];
} DevicePlanes;

static void
device_planes_free (gpointer data)
{
  DevicePlanes *dp = data;

  for (guint p = 0; p < 3; p++)
    vh_hip_free (dp->device, dp->planes[p]);
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

VhPicture *
vh_hip_picture_upload (VhHipDevice * device, const VhPicture * pic,
    GError ** error)
{
  DevicePlanes *dp = g_new0 (DevicePlanes, 1);
  gpointer data[3] = { NULL, NULL, NULL };
  gsize stride[3] = { 0, 0, 0 };

  g_return_val_if_fail (pic->mem_type == VH_MEMORY_HOST, NULL);
  dp->device = vh_hip_device_ref (device);
  for (guint p = 0; p < pic->n_planes; p++) {
    gsize span = row_span (pic, p);
    if (!vh_hip_malloc_pitch (device, span, pic->height[p], &dp->planes[p],
            &stride[p], error) ||
        !vh_hip_memcpy_2d (device, VH_HIP_COPY_HOST_TO_DEVICE, dp->planes[p],
            stride[p], pic->data[p], pic->stride[p], span, pic->height[p],
            error)) {
      device_planes_free (dp);
      return NULL;
    }
    data[p] = dp->planes[p];
  }
  return vh_picture_new_wrapped (&pic->info, data, stride, pic->step,
      VH_MEMORY_HIP_DEVICE, dp, device_planes_free);
}

VhPicture *
vh_hip_picture_download (VhHipDevice * device, const VhPicture * pic,
    GError ** error)
{
  gpointer data[3] = { NULL, NULL, NULL };
  gsize stride[3] = { 0, 0, 0 }, offset[3], total = 0;
  guint8 *host;

  g_return_val_if_fail (pic->mem_type == VH_MEMORY_HIP_DEVICE, NULL);
  for (guint p = 0; p < pic->n_planes; p++) {
    stride[p] = (row_span (pic, p) + 63) & ~(gsize) 63;
    offset[p] = total;
    total += stride[p] * pic->height[p];
  }
  host = g_malloc (total);
  for (guint p = 0; p < pic->n_planes; p++) {
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
  return vh_hip_picture_download (user_data, pic, error);
}

static VhPicture *
transfer_upload (const VhPicture * pic, gpointer user_data, GError ** error)
{
  return vh_hip_picture_upload (user_data, pic, error);
}

void
vh_hip_picture_install_transfer (VhHipDevice * device)
{
  static const VhPictureTransferFuncs funcs = {
    transfer_download,
    transfer_upload,
  };

  if (device)
    vh_picture_set_transfer_funcs (&funcs, vh_hip_device_ref (device),
        (GDestroyNotify) vh_hip_device_unref);
  else
    vh_picture_set_transfer_funcs (NULL, NULL, NULL);
}
