/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Kernel modules: the precompiled code that matches the device when the
 * build embedded one (NVIDIA: machine code, else PTX), run-time compilation
 * otherwise; one module per
 * (kernel source, device) for the life of the process. */

#include "hip-backend-private.h"
#include "hip-rtc.h"

#include <string.h>
#ifdef VH_HIP_HAVE_ZLIB
#include <zlib.h>
#endif

struct _VhHipModule
{
  VhHipDevice *device;
  gpointer handle;
  gchar *description;
  GHashTable *functions;        /* name -> VhHipFunction */
};

struct _VhHipFunction
{
  VhHipModule *module;
  gpointer handle;
};

static GMutex module_lock;
/* "source/vendor/ordinal/forced/ptx-only" -> VhHipModule */
static GHashTable *modules;

static gboolean
module_load_image (VhHipDevice * device, gconstpointer image,
    gpointer * handle, GError ** error)
{
  gint code;

  VH_HIP_PUSH_OR_RETURN (device, error, FALSE);
  code = device->backend->module_load (handle, image);
  return vh_hip_device_call_done (device, code, "hipModuleLoadData", error);
}

/* The machine code embedded for an NVIDIA device: its architecture's, or
 * the newest of the same major version below it (machine code runs on
 * later minor versions of its major). NULL when there is none. */
static const VhHipCodeObject *
find_cubin (const VhHipKernelSource * source, const VhHipDeviceInfo * info)
{
  const VhHipCodeObject *best = NULL;
  gint best_minor = -1;

  for (guint i = 0; i < source->n_cubins; i++) {
    /* "sm_75", "sm_120": the last digit is the minor version */
    guint number = g_ascii_strtoull (source->cubins[i].arch + 3, NULL, 10);
    gint major = number / 10, minor = number % 10;

    if (major == info->major && minor <= info->minor && minor > best_minor) {
      best = &source->cubins[i];
      best_minor = minor;
    }
  }
  return best;
}

/* The bytes of @co, inflated into @unpacked (the caller frees it) when
 * they are stored compressed; NULL when they do not inflate. */
static gconstpointer
code_object_image (const VhHipCodeObject * co, guint8 ** unpacked)
{
  *unpacked = NULL;
  if (!co->unpacked_size)
    return co->data;
#ifdef VH_HIP_HAVE_ZLIB
  {
    uLongf size = co->unpacked_size;
    *unpacked = g_malloc (size);
    if (uncompress (*unpacked, &size, co->data, co->size) != Z_OK ||
        size != co->unpacked_size)
      g_clear_pointer (unpacked, g_free);
  }
#endif
  return *unpacked;
}

/* The embedded code for an NVIDIA device: its machine code, else the PTX
 * (compiled by the driver). */
static gboolean
module_load_precompiled_nvidia (VhHipDevice * device,
    const VhHipKernelSource * source, gpointer * handle,
    gchar ** description, GError ** error)
{
  g_autoptr (GError) cubin_error = NULL;
  const VhHipCodeObject *cubin = NULL;

  if (g_strcmp0 (g_getenv ("VH_HIP_CODE"), "ptx") != 0)
    cubin = find_cubin (source, &device->info);
  if (cubin) {
    g_autofree guint8 *unpacked = NULL;
    gconstpointer image = code_object_image (cubin, &unpacked);

    if (!image)
      g_set_error (&cubin_error, VH_HIP_ERROR, VH_HIP_ERROR_COMPILE,
          "the embedded %s machine code does not inflate", cubin->arch);
    else if (module_load_image (device, image, handle, &cubin_error)) {
      *description = g_strdup_printf ("precompiled %s machine code",
          cubin->arch);
      return TRUE;
    }
    /* A driver too old for this machine code still takes the PTX. */
  }
  if (!source->ptx) {
    g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_COMPILE,
        "this build has no precompiled PTX%s%s",
        cubin_error ? ", and its machine code did not load: " : "",
        cubin_error ? cubin_error->message : "");
    return FALSE;
  }
  if (!module_load_image (device, source->ptx, handle, error))
    return FALSE;
  *description = g_strdup ("precompiled PTX");
  return TRUE;
}

/* The embedded code for @device: an AMD code object for its architecture,
 * or NVIDIA machine code or PTX. */
static gboolean
module_load_precompiled (VhHipDevice * device,
    const VhHipKernelSource * source, gpointer * handle,
    gchar ** description, GError ** error)
{
  const gchar *arch = device->info.arch;

  if (device->info.vendor == VH_HIP_VENDOR_NVIDIA)
    return module_load_precompiled_nvidia (device, source, handle,
        description, error);
  for (guint i = 0; i < source->n_amd; i++) {
    g_autofree guint8 *unpacked = NULL;
    gconstpointer image;

    if (strcmp (source->amd[i].arch, arch) != 0)
      continue;
    image = code_object_image (&source->amd[i], &unpacked);
    if (!image) {
      g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_COMPILE,
          "the embedded %s code object does not inflate", arch);
      return FALSE;
    }
    if (!module_load_image (device, image, handle, error))
      return FALSE;
    *description = g_strdup_printf ("precompiled %s code object", arch);
    return TRUE;
  }
  g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_COMPILE,
      "this build has no precompiled code object for %s", arch);
  return FALSE;
}

static VhHipModule *
module_create (VhHipDevice * device, const VhHipKernelSource * source,
    gboolean force_rtc, GError ** error)
{
  g_autoptr (GError) pre_error = NULL;
  g_autoptr (GError) rtc_error = NULL;
  g_autoptr (GBytes) image = NULL;
  gchar *description = NULL;
  gpointer handle = NULL;
  VhHipModule *module;

  if (force_rtc)
    g_set_error (&pre_error, VH_HIP_ERROR, VH_HIP_ERROR_COMPILE,
        "precompiled code skipped (VH_HIP_FORCE_RTC=1)");
  else if (module_load_precompiled (device, source, &handle, &description,
          &pre_error))
    goto done;

  if (vh_hip_rtc_compile (device, source->name, source->source, &image,
          &description, &rtc_error) &&
      !module_load_image (device, g_bytes_get_data (image, NULL), &handle,
          &rtc_error))
    g_prefix_error (&rtc_error, "%s code did not load: ", description);
  if (rtc_error) {
    g_free (description);
    g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_COMPILE,
        "no usable code for kernel module '%s' on %s (%s): %s; %s",
        source->name, device->info.name, device->info.arch,
        pre_error->message, rtc_error->message);
    return NULL;
  }

done:
  g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "module %s loaded (%s)",
      source->name, description ? description : "precompiled");
  module = g_new0 (VhHipModule, 1);
  module->device = vh_hip_device_ref (device);
  module->handle = handle;
  module->description = description;
  module->functions = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, g_free);
  return module;
}

VhHipModule *
vh_hip_module_get (VhHipDevice * device, const VhHipKernelSource * source,
    GError ** error)
{
  gboolean force_rtc = g_strcmp0 (g_getenv ("VH_HIP_FORCE_RTC"), "1") == 0;
  gboolean ptx_only = g_strcmp0 (g_getenv ("VH_HIP_CODE"), "ptx") == 0;
  g_autofree gchar *key = NULL;
  VhHipModule *module;

  key = g_strdup_printf ("%p/%d/%d/%d/%d", (gconstpointer) source,
      device->info.vendor, device->ordinal, force_rtc, ptx_only);
  g_mutex_lock (&module_lock);
  if (!modules)
    modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  module = g_hash_table_lookup (modules, key);
  if (!module) {
    module = module_create (device, source, force_rtc, error);
    if (module)
      g_hash_table_insert (modules, g_steal_pointer (&key), module);
  }
  g_mutex_unlock (&module_lock);
  return module;
}

const gchar *
vh_hip_module_describe (VhHipModule * module)
{
  return module->description;
}

VhHipFunction *
vh_hip_module_get_function (VhHipModule * module, const gchar * name,
    GError ** error)
{
  VhHipDevice *device = module->device;
  VhHipFunction *function;
  gpointer handle = NULL;
  gint code;

  g_mutex_lock (&module_lock);
  function = g_hash_table_lookup (module->functions, name);
  if (!function) {
    if (!vh_hip_device_push (device, error)) {
      g_mutex_unlock (&module_lock);
      return NULL;
    }
    code = device->backend->module_get_function (&handle, module->handle,
        name);
    if (vh_hip_device_call_done (device, code, "hipModuleGetFunction",
            error)) {
      function = g_new0 (VhHipFunction, 1);
      function->module = module;
      function->handle = handle;
      g_hash_table_insert (module->functions, g_strdup (name), function);
    } else {
      g_prefix_error (error, "kernel %s: ", name);
    }
  }
  g_mutex_unlock (&module_lock);
  return function;
}

gboolean
vh_hip_launch (VhHipFunction * function, VhHipStream * stream,
    const guint grid[3], const guint block[3], guint shared_bytes,
    gpointer * args, GError ** error)
{
  VhHipDevice *device = function->module->device;
  gint code;

  if (stream && stream->device->backend != device->backend) {
    g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_INVALID_ARGUMENT,
        "kernel launched on a stream of another vendor's device");
    return FALSE;
  }
  VH_HIP_PUSH_OR_RETURN (device, error, FALSE);
  code = vh_hip_fault_code (VH_HIP_FAULT_LAUNCH);
  if (!code)
    code = device->backend->launch (function->handle, grid, block,
        shared_bytes, stream ? stream->handle : NULL, args);
  return vh_hip_device_call_done (device, code, "hipModuleLaunchKernel",
      error);
}
