/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Devices: counting, opening by index, properties, making one current. */

#include "hip-backend-private.h"

/* Resolves @vendor (automatic when UNKNOWN) to a loaded backend. */
static const VhHipBackend *
backend_for (VhHipVendor vendor, GError ** error)
{
  if (vendor == VH_HIP_VENDOR_UNKNOWN) {
    vendor = vh_hip_load (VH_HIP_VENDOR_UNKNOWN, error);
    if (vendor == VH_HIP_VENDOR_UNKNOWN)
      return NULL;
  }
  return vh_hip_backend_get (vendor, error);
}

static gboolean
backend_device_count (const VhHipBackend * backend, guint * count,
    GError ** error)
{
  gint n = 0;
  gint code = backend->get_device_count (&n);

  if (code == backend->no_device_code)
    n = 0;
  else if (!vh_hip_backend_check (backend, code, "hipGetDeviceCount", error))
    return FALSE;
  *count = MAX (n, 0);
  return TRUE;
}

gboolean
vh_hip_get_device_count (VhHipVendor vendor, guint * count, GError ** error)
{
  const VhHipBackend *backend = backend_for (vendor, error);

  *count = 0;
  return backend && backend_device_count (backend, count, error);
}

VhHipDevice *
vh_hip_device_open (VhHipVendor vendor, guint index, GError ** error)
{
  const VhHipBackend *backend = backend_for (vendor, error);
  VhHipDevice *device;
  guint count;
  gint code;

  if (!backend || !backend_device_count (backend, &count, error))
    return NULL;
  if (count == 0) {
    g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_NO_DEVICE,
        "%s reports no device", backend->description);
    return NULL;
  }
  if (index >= count) {
    g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_INVALID_DEVICE,
        "device index %u is out of range: %s has %u device%s (0 to %u)",
        index, backend->description, count, count == 1 ? "" : "s",
        count - 1);
    return NULL;
  }

  device = g_new0 (VhHipDevice, 1);
  device->ref_count = 1;
  device->backend = backend;
  device->ordinal = index;
  device->info.vendor = backend->vendor;
  device->info.index = index;
  device->info.pitch_alignment = 256;
  code = backend->get_device_info (index, &device->info);
  if (!vh_hip_backend_check (backend, code, "hipGetDeviceProperties", error)) {
    g_free (device);
    return NULL;
  }
  code = backend->device_open (index, &device->handle);
  if (!vh_hip_backend_check (backend, code, "opening the device", error)) {
    g_free (device);
    return NULL;
  }
  return device;
}

VhHipDevice *
vh_hip_device_ref (VhHipDevice * device)
{
  g_return_val_if_fail (device != NULL, NULL);
  g_atomic_int_inc (&device->ref_count);
  return device;
}

void
vh_hip_device_unref (VhHipDevice * device)
{
  if (!device || !g_atomic_int_dec_and_test (&device->ref_count))
    return;
  device->backend->device_close (device->ordinal, device->handle);
  g_free (device);
}

const VhHipDeviceInfo *
vh_hip_device_get_info (VhHipDevice * device)
{
  return &device->info;
}

VhHipVendor
vh_hip_device_get_vendor (VhHipDevice * device)
{
  return device->backend->vendor;
}

guint
vh_hip_device_get_index (VhHipDevice * device)
{
  return device->ordinal;
}

gpointer
vh_hip_device_get_native_context (VhHipDevice * device)
{
  return device->info.vendor == VH_HIP_VENDOR_NVIDIA ? device->handle : NULL;
}

gboolean
vh_hip_device_push (VhHipDevice * device, GError ** error)
{
  gint code = device->backend->push (device->ordinal, device->handle);

  return vh_hip_backend_check (device->backend, code,
      "making the device current", error);
}

void
vh_hip_device_pop (VhHipDevice * device)
{
  device->backend->pop (device->ordinal, device->handle);
}
