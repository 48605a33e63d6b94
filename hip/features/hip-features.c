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

VhExtractorSet *
vh_hip_extractor_set_without (const gchar * const *twins)
{
  VhExtractorSet *s = vh_extractor_set_new_builtin ();

  for (guint i = 0; vh_hip_twins[i].klass; i++) {
    if (!twins || !g_strv_contains (twins, vh_hip_twins[i].cpu_name))
      vh_extractor_set_add (s, vh_hip_twins[i].klass);
  }
  return s;
}

gboolean
vh_hip_select_backend (VhBackendChoice choice, VhHipVendor vendor,
    guint index, VhContextConfig * config, gchar ** reason, GError ** error)
{
  GError *gpu_error = NULL;
  VhPictureTransfer *transfer = NULL;

  config->extractors = vh_hip_extractor_set ();
  if (vh_backend_choice_wants_gpu (choice)) {
    VhHipDevice *dev = vh_hip_device_open (vendor, index, &gpu_error);
    VhBackend backends;

    if (dev)
      vh_hip_use_device (dev, &backends, &transfer, &gpu_error);
    /* The transfer holds the device now. */
    g_clear_pointer (&dev, vh_hip_device_unref);
    /* One line, whatever the loader said for each vendor. */
    if (gpu_error)
      g_strdelimit (gpu_error->message, "\r\n", ' ');
  }
  config->transfer = transfer;
  if (!vh_backend_choice_resolve (choice, gpu_error, &config->backends,
          &config->gpu_fallback, reason, error)) {
    g_clear_pointer (&config->transfer, vh_picture_transfer_unref);
    g_clear_error (&gpu_error);
    return FALSE;
  }
  g_clear_error (&gpu_error);
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
