/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Vendor selection: loads each runtime once (through the vendor files,
 * which use hip-library.c and never call back here) and remembers why one
 * could not be used, so that every later request gets the same clear
 * answer. */

#include "hip-backend-private.h"

#include <string.h>

typedef struct
{
  gboolean tried;
  const VhHipBackend *backend;
  GError *error;
} VendorState;

static GMutex load_lock;
static VendorState vendors[3];

const gchar *
vh_hip_vendor_to_string (VhHipVendor vendor)
{
  switch (vendor) {
    case VH_HIP_VENDOR_AMD:
      return "amd";
    case VH_HIP_VENDOR_NVIDIA:
      return "nvidia";
    case VH_HIP_VENDOR_UNKNOWN:
      break;
  }
  return "auto";
}

gboolean
vh_hip_vendor_from_string (const gchar * str, VhHipVendor * vendor)
{
  if (!str)
    return FALSE;
  if (g_ascii_strcasecmp (str, "auto") == 0)
    *vendor = VH_HIP_VENDOR_UNKNOWN;
  else if (g_ascii_strcasecmp (str, "amd") == 0)
    *vendor = VH_HIP_VENDOR_AMD;
  else if (g_ascii_strcasecmp (str, "nvidia") == 0)
    *vendor = VH_HIP_VENDOR_NVIDIA;
  else
    return FALSE;
  return TRUE;
}

static const gchar *
vendor_label (VhHipVendor vendor)
{
  return vendor == VH_HIP_VENDOR_AMD ? "AMD" : "NVIDIA";
}

gboolean
vh_hip_backend_check (const VhHipBackend * backend, gint code,
    const gchar * what, GError ** error)
{
  if (code == 0)
    return TRUE;
  g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_CALL, "%s failed: %s (%d)",
      what, backend->error_string (code), code);
  return FALSE;
}

const VhHipBackend *
vh_hip_backend_get (VhHipVendor vendor, GError ** error)
{
  VendorState *state;
  const VhHipBackend *backend;

  g_return_val_if_fail (vendor == VH_HIP_VENDOR_AMD ||
      vendor == VH_HIP_VENDOR_NVIDIA, NULL);
  state = &vendors[vendor];
  g_mutex_lock (&load_lock);
  if (!state->tried) {
    state->tried = TRUE;
    state->backend = vendor == VH_HIP_VENDOR_AMD ?
        vh_hip_backend_amd_load (&state->error) :
        vh_hip_backend_nvidia_load (&state->error);
  }
  backend = state->backend;
  if (!backend)
    g_propagate_error (error, g_error_copy (state->error));
  g_mutex_unlock (&load_lock);
  return backend;
}

static gboolean
vendor_usable (VhHipVendor vendor, GError ** error)
{
  const VhHipBackend *backend = vh_hip_backend_get (vendor, error);
  gint count = 0, code;

  if (!backend)
    return FALSE;
  code = backend->get_device_count (&count);
  if (code != 0 && code != backend->no_device_code)
    return vh_hip_backend_check (backend, code, "hipGetDeviceCount", error);
  if (count <= 0) {
    g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_NO_DEVICE,
        "%s loaded, but it reports no device", backend->library);
    return FALSE;
  }
  return TRUE;
}

VhHipVendor
vh_hip_load (VhHipVendor vendor, GError ** error)
{
  static const VhHipVendor order[] = { VH_HIP_VENDOR_AMD,
    VH_HIP_VENDOR_NVIDIA
  };
  GString *why;
  gboolean any_runtime = FALSE;

  if (vendor != VH_HIP_VENDOR_UNKNOWN)
    return vh_hip_backend_get (vendor, error) ? vendor :
        VH_HIP_VENDOR_UNKNOWN;

  why = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (order); i++) {
    GError *err = NULL;

    if (vendor_usable (order[i], &err)) {
      g_string_free (why, TRUE);
      return order[i];
    }
    if (!g_error_matches (err, VH_HIP_ERROR, VH_HIP_ERROR_NO_RUNTIME))
      any_runtime = TRUE;
    g_string_append_printf (why, "%s%s: %s", why->len ? "; " : "",
        vendor_label (order[i]), err->message);
    g_error_free (err);
  }
  g_set_error (error, VH_HIP_ERROR, any_runtime ? VH_HIP_ERROR_NO_DEVICE :
      VH_HIP_ERROR_NO_RUNTIME, "%s (%s)", any_runtime ?
      "no usable GPU" :
      "no GPU runtime found", why->str);
  g_string_free (why, TRUE);
  return VH_HIP_VENDOR_UNKNOWN;
}

const gchar *
vh_hip_runtime_describe (VhHipVendor vendor)
{
  const VhHipBackend *backend = NULL;

  if (vendor != VH_HIP_VENDOR_AMD && vendor != VH_HIP_VENDOR_NVIDIA)
    return NULL;
  g_mutex_lock (&load_lock);
  backend = vendors[vendor].backend;
  g_mutex_unlock (&load_lock);
  return backend ? backend->description : NULL;
}
