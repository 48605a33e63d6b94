/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Device memory, page-locked host memory, copies and memset. */

#include "hip-backend-private.h"

gboolean
vh_hip_malloc_pitch (VhHipDevice * device, gsize width_bytes, gsize height,
    gpointer * ptr, gsize * pitch, GError ** error)
{
  gint code;

  *ptr = NULL;
  *pitch = 0;
  if (width_bytes == 0 || height == 0) {
    g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_INVALID_ARGUMENT,
        "cannot allocate an empty %" G_GSIZE_FORMAT "x%" G_GSIZE_FORMAT
        " plane", width_bytes, height);
    return FALSE;
  }
  VH_HIP_PUSH_OR_RETURN (device, error, FALSE);
  code = vh_hip_fault_code (VH_HIP_FAULT_ALLOC);
  if (!code)
    code = device->backend->malloc_pitch (ptr, pitch, width_bytes, height);
  return vh_hip_device_call_done (device, code, "hipMallocPitch", error);
}

gboolean
vh_hip_malloc (VhHipDevice * device, gsize size, gpointer * ptr,
    GError ** error)
{
  gint code;

  *ptr = NULL;
  VH_HIP_PUSH_OR_RETURN (device, error, FALSE);
  code = vh_hip_fault_code (VH_HIP_FAULT_ALLOC);
  if (!code)
    code = device->backend->malloc (ptr, MAX (size, 1));
  return vh_hip_device_call_done (device, code, "hipMalloc", error);
}

void
vh_hip_free (VhHipDevice * device, gpointer ptr)
{
  if (!ptr || !vh_hip_device_push (device, NULL))
    return;
  device->backend->free (ptr);
  vh_hip_device_pop (device);
}

gboolean
vh_hip_host_alloc (VhHipDevice * device, gsize size, gpointer * ptr,
    GError ** error)
{
  gint code;

  *ptr = NULL;
  VH_HIP_PUSH_OR_RETURN (device, error, FALSE);
  code = device->backend->host_alloc (ptr, MAX (size, 1));
  return vh_hip_device_call_done (device, code, "hipHostMalloc", error);
}

void
vh_hip_host_free (VhHipDevice * device, gpointer ptr)
{
  if (!ptr || !vh_hip_device_push (device, NULL))
    return;
  device->backend->host_free (ptr);
  vh_hip_device_pop (device);
}

static gboolean
copy_on (VhHipDevice * device, gpointer stream, VhHipCopyKind kind,
    gpointer dst, gsize dst_pitch, gconstpointer src, gsize src_pitch,
    gsize width_bytes, gsize height, GError ** error)
{
  gint code;

  if (width_bytes == 0 || height == 0)
    return TRUE;
  if (width_bytes > dst_pitch || width_bytes > src_pitch) {
    g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_INVALID_ARGUMENT,
        "copy of %" G_GSIZE_FORMAT " bytes per row exceeds a pitch (%"
        G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT ")", width_bytes, dst_pitch,
        src_pitch);
    return FALSE;
  }
  VH_HIP_PUSH_OR_RETURN (device, error, FALSE);
  code = device->backend->memcpy_2d_async (kind, dst, dst_pitch, src,
      src_pitch, width_bytes, height, stream);
  return vh_hip_device_call_done (device, code, "hipMemcpy2DAsync", error);
}

gboolean
vh_hip_memcpy_2d_async (VhHipStream * stream, VhHipCopyKind kind,
    gpointer dst, gsize dst_pitch, gconstpointer src, gsize src_pitch,
    gsize width_bytes, gsize height, GError ** error)
{
  return copy_on (stream->device, stream->handle, kind, dst, dst_pitch, src,
      src_pitch, width_bytes, height, error);
}

gboolean
vh_hip_memcpy_2d (VhHipDevice * device, VhHipCopyKind kind, gpointer dst,
    gsize dst_pitch, gconstpointer src, gsize src_pitch, gsize width_bytes,
    gsize height, GError ** error)
{
  gint code;

  if (!copy_on (device, NULL, kind, dst, dst_pitch, src, src_pitch,
          width_bytes, height, error))
    return FALSE;
  VH_HIP_PUSH_OR_RETURN (device, error, FALSE);
  code = device->backend->stream_synchronize (NULL);
  if (!code && error)
    code = vh_hip_fault_code (VH_HIP_FAULT_SYNC);
  return vh_hip_device_call_done (device, code, "hipStreamSynchronize",
      error);
}

gboolean
vh_hip_memset_2d_async (VhHipStream * stream, gpointer ptr, gsize pitch,
    guint8 value, gsize width_bytes, gsize height, GError ** error)
{
  VhHipDevice *device = stream->device;
  gint code;

  if (width_bytes == 0 || height == 0)
    return TRUE;
  VH_HIP_PUSH_OR_RETURN (device, error, FALSE);
  code = device->backend->memset_2d_async (ptr, pitch, value, width_bytes,
      height, stream->handle);
  return vh_hip_device_call_done (device, code, "hipMemset2DAsync", error);
}
