/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The registry of HIP twins, and the backend choice. */

#include "hip-features.h"
#include "hip-picture.h"
#include "hip-psnr-sse.h"
#include "errors.h"

#include <string.h>

/* Each twin, defined in hip/features/hip-<cpu file name>.c and listed in
 * hip/features/hip-twins.h (one line per class). */
#define VH_HIP_TWIN(sym) extern const VhFeatureExtractorClass sym;
#include "hip-twins.h"
#undef VH_HIP_TWIN

const VhFeatureExtractorClass *const *
vh_hip_features_list (guint * n)
{
#define VH_HIP_TWIN(sym) &sym,
  static const VhFeatureExtractorClass *const classes[] = {
#include "hip-twins.h"
    NULL,
  };
#undef VH_HIP_TWIN

  if (n)
    *n = G_N_ELEMENTS (classes) - 1;
  return classes;
}

void
vh_hip_features_register (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    const VhFeatureExtractorClass *const *list = vh_hip_features_list (NULL);
    for (guint i = 0; list[i]; i++)
      vh_feature_extractor_register (list[i]);
    g_once_init_leave (&once, 1);
  }
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

/* The kernel modules each twin's init loads. One left out here is loaded
 * at init, as before. */
extern const VhHipKernelSource vh_hip_kernel_adm, vh_hip_kernel_vif,
    vh_hip_kernel_motion, vh_hip_kernel_ssim, vh_hip_kernel_ssim_decimate,
    vh_hip_kernel_moment, vh_hip_kernel_ansnr, vh_hip_kernel_ciede,
    vh_hip_kernel_float_motion, vh_hip_kernel_float_scale,
    vh_hip_kernel_float_vif, vh_hip_kernel_cambi, vh_hip_kernel_float_adm,
    vh_hip_kernel_psnr_hvs, vh_hip_kernel_speed_filter,
    vh_hip_kernel_speed_solve;

static const struct
{
  const VhFeatureExtractorClass *klass;
  const VhHipKernelSource *modules[3];
} twin_modules[] = {
  {&vh_hip_fex_psnr, {&vh_hip_kernel_psnr}},
  {&vh_hip_fex_float_psnr, {&vh_hip_kernel_psnr}},
  {&vh_hip_fex_integer_motion, {&vh_hip_kernel_motion}},
  {&vh_hip_fex_integer_vif, {&vh_hip_kernel_vif}},
  {&vh_hip_fex_float_ssim, {&vh_hip_kernel_ssim, &vh_hip_kernel_ssim_decimate}},
  {&vh_hip_fex_float_ms_ssim, {&vh_hip_kernel_ssim,
          &vh_hip_kernel_ssim_decimate}},
  {&vh_hip_fex_integer_adm, {&vh_hip_kernel_adm}},
  {&vh_hip_fex_float_moment, {&vh_hip_kernel_moment}},
  {&vh_hip_fex_float_ansnr, {&vh_hip_kernel_ansnr}},
  {&vh_hip_fex_ciede, {&vh_hip_kernel_ciede}},
  {&vh_hip_fex_float_motion, {&vh_hip_kernel_float_motion,
          &vh_hip_kernel_float_scale}},
  {&vh_hip_fex_float_vif, {&vh_hip_kernel_float_vif,
          &vh_hip_kernel_float_scale}},
  {&vh_hip_fex_cambi, {&vh_hip_kernel_cambi}},
  {&vh_hip_fex_float_adm, {&vh_hip_kernel_float_adm}},
  {&vh_hip_fex_psnr_hvs, {&vh_hip_kernel_psnr_hvs}},
  {&vh_hip_fex_speed_chroma, {&vh_hip_kernel_speed_filter,
          &vh_hip_kernel_speed_solve}},
  {&vh_hip_fex_speed_temporal, {&vh_hip_kernel_speed_filter,
          &vh_hip_kernel_speed_solve}},
};

gboolean
vh_hip_features_preload (VhHipDevice * device, GPtrArray * classes,
    GError ** error)
{
  for (guint i = 0; i < classes->len; i++) {
    for (guint t = 0; t < G_N_ELEMENTS (twin_modules); t++) {
      if (twin_modules[t].klass != g_ptr_array_index (classes, i))
        continue;
      for (guint m = 0; m < G_N_ELEMENTS (twin_modules[t].modules) &&
          twin_modules[t].modules[m]; m++) {
        if (!vh_hip_module_get (device, twin_modules[t].modules[m], error))
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
  vh_hip_features_register ();
  *transfer = vh_hip_picture_transfer_new (device);
  *backends = VH_BACKEND_HIP | VH_BACKEND_CPU;
  return TRUE;
}
