/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twins as an extractor set, and the backend choice. */

#include "hip-features.h"
#include "hip-picture.h"
#include "hip-psnr-sse.h"
#include "errors.h"

#include <string.h>

const VhFeatureExtractorClass *const *
vh_hip_features_list (guint * n)
{
  static const VhFeatureExtractorClass **classes;
  static guint n_classes;

  if (g_once_init_enter (&classes)) {
    const VhFeatureExtractorClass **list;
    while (vh_hip_twins[n_classes].klass)
      n_classes++;
    list = g_new0 (const VhFeatureExtractorClass *, n_classes + 1);
    for (guint i = 0; i < n_classes; i++)
      list[i] = vh_hip_twins[i].klass;
    g_once_init_leave (&classes, list);
  }
  if (n)
    *n = n_classes;
  return classes;
}

VhExtractorSet *
vh_hip_extractor_set (void)
{
  static VhExtractorSet *set;

  if (g_once_init_enter (&set)) {
    VhExtractorSet *s = vh_extractor_set_new_builtin ();
    for (guint i = 0; vh_hip_twins[i].klass; i++)
      vh_extractor_set_add (s, vh_hip_twins[i].klass);
    g_once_init_leave (&set, s);
  }
  return set;
}

gboolean
vh_hip_backend_request_from_string (const gchar * str,
    VhHipBackendRequest * request)
{
  static const gchar *const names[] = { "auto", "cpu", "hip" };

  for (guint i = 0; str && i < G_N_ELEMENTS (names); i++) {
    if (!g_ascii_strcasecmp (str, names[i])) {
      *request = (VhHipBackendRequest) i;
      return TRUE;
    }
  }
  return FALSE;
}

const gchar *
vh_hip_backend_request_to_string (VhHipBackendRequest request)
{
  switch (request) {
    case VH_HIP_BACKEND_REQUEST_AUTO:
      return "auto";
    case VH_HIP_BACKEND_REQUEST_CPU:
      return "cpu";
    case VH_HIP_BACKEND_REQUEST_HIP:
      return "hip";
  }
  return "?";
}

gboolean
vh_hip_select_backend (VhHipBackendRequest request, VhHipVendor vendor,
    guint index, VhBackend * backends, VhPictureTransfer ** transfer,
    gchar ** reason, GError ** error)
{
  GError *err = NULL;
  VhHipDevice *dev;
  gboolean usable;

  *backends = VH_BACKEND_CPU;
  *transfer = NULL;
  if (reason)
    *reason = NULL;
  if (request == VH_HIP_BACKEND_REQUEST_CPU)
    return TRUE;

  dev = vh_hip_device_open (vendor, index, &err);
  usable = dev && vh_hip_use_device (dev, backends, transfer, &err);
  /* The transfer holds the device now. */
  g_clear_pointer (&dev, vh_hip_device_unref);
  if (!usable) {
    /* One line, whatever the loader said for each vendor. */
    g_strdelimit (err->message, "\r\n", ' ');
    if (request == VH_HIP_BACKEND_REQUEST_HIP) {
      g_set_error (error, VH_ERROR, VH_ERROR_BACKEND,
          "backend hip: %s", err->message);
      g_error_free (err);
      return FALSE;
    }
    if (reason)
      *reason = g_strdup_printf ("features run on the CPU: %s",
          err->message);
    g_error_free (err);
    return TRUE;
  }
  return TRUE;
}

gboolean
vh_hip_features_preload (VhHipDevice * device, GPtrArray * classes,
    GError ** error)
{
  for (guint i = 0; i < classes->len; i++) {
    for (const VhHipTwin * t = vh_hip_twins; t->klass; t++) {
      if (t->klass != g_ptr_array_index (classes, i))
        continue;
      for (guint m = 0; m < G_N_ELEMENTS (t->modules) && t->modules[m]; m++) {
        if (!vh_hip_module_get (device, t->modules[m], error))
          return FALSE;
      }
    }
  }
  return TRUE;
}

gboolean
vh_hip_use_device (VhHipDevice * device, VhBackend * backends,
    VhPictureTransfer ** transfer, GError ** error)
{
  VhHipModule *module;

  *backends = VH_BACKEND_CPU;
  *transfer = NULL;
  /* Any of our modules will do; the twins load theirs at init. */
  module = vh_hip_module_get (device, &vh_hip_kernel_psnr, error);
  if (!module || !vh_hip_module_get_function (module, "vh_psnr_sse_u8",
          error)) {
    g_prefix_error (error, "the device cannot run vmafhip's kernels: ");
    return FALSE;
  }
  *transfer = vh_hip_picture_transfer_new (device);
  *backends = VH_BACKEND_HIP | VH_BACKEND_CPU;
  return TRUE;
}
