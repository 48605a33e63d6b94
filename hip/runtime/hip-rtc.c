/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Run-time kernel compilation: hiprtc (AMD; part of libamdhip64 before
 * ROCm 6, libhiprtc since) and nvrtc (NVIDIA; part of the CUDA toolkit,
 * not of the driver). Both have the same shape, so one table serves. */

#include "hip-backend-private.h"
#include "hip-rtc.h"

#include <string.h>

typedef struct
{
  gint (*version) (gint * major, gint * minor);
  const gchar *(*error_string) (gint code);
  gint (*create) (gpointer * prog, const gchar * src, const gchar * name,
      gint n_headers, const gchar * const *headers,
      const gchar * const *include_names);
  gint (*compile) (gpointer prog, gint n_options,
      const gchar * const *options);
  gint (*log_size) (gpointer prog, gsize * size);
  gint (*log) (gpointer prog, gchar * log);
  gint (*code_size) (gpointer prog, gsize * size);
  gint (*code) (gpointer prog, gchar * code);
  gint (*binary_size) (gpointer prog, gsize * size);   /* nvrtc cubin */
  gint (*binary) (gpointer prog, gchar * code);
  gint (*destroy) (gpointer * prog);
} RtcApi;

#define RTC_N_FUNCS (sizeof (RtcApi) / sizeof (gpointer))

typedef struct
{
  gboolean tried;
  gboolean ok;
  RtcApi api;
  gchar *library;
  gchar *name;                  /* "nvrtc 13.0" */
  GError *error;
} RtcState;

static GMutex rtc_lock;
static RtcState rtc_states[3];

static const gchar *const nvrtc_symbols[RTC_N_FUNCS] = {
  "nvrtcVersion", "nvrtcGetErrorString", "nvrtcCreateProgram",
  "nvrtcCompileProgram", "nvrtcGetProgramLogSize", "nvrtcGetProgramLog",
  "nvrtcGetPTXSize", "nvrtcGetPTX", "nvrtcGetCUBINSize", "nvrtcGetCUBIN",
  "nvrtcDestroyProgram",
};

static const gchar *const hiprtc_symbols[RTC_N_FUNCS] = {
  "hiprtcVersion", "hiprtcGetErrorString", "hiprtcCreateProgram",
  "hiprtcCompileProgram", "hiprtcGetProgramLogSize", "hiprtcGetProgramLog",
  "hiprtcGetCodeSize", "hiprtcGetCode", "hiprtcGetBitcodeSize__unused",
  "hiprtcGetBitcode__unused", "hiprtcDestroyProgram",
};

static const gchar *const rtc_optional[] = {
  "nvrtcGetCUBINSize", "nvrtcGetCUBIN", "hiprtcGetBitcodeSize__unused",
  "hiprtcGetBitcode__unused", NULL
};

/* Library names, with $root/lib64 and $root/lib variants for the usual
 * toolkit variables in front. */
static gchar **
rtc_library_names (VhHipVendor vendor)
{
  static const gchar *const nv[] = { "libnvrtc.so.13", "libnvrtc.so.12",
    "libnvrtc.so.11.2", "libnvrtc.so", NULL
  };
  /* Before ROCm 6 hiprtc lives in the runtime itself. */
  static const gchar *const amd[] = { "libhiprtc.so.7", "libhiprtc.so.6",
    "libhiprtc.so", "libamdhip64.so.5", NULL
  };
  static const gchar *const nv_roots[] = { "CUDA_PATH", "CUDA_HOME", NULL };
  static const gchar *const amd_roots[] = { "ROCM_PATH", "HIP_PATH", NULL };
  const gchar *const *names = vendor == VH_HIP_VENDOR_NVIDIA ? nv : amd;
  const gchar *const *roots = vendor == VH_HIP_VENDOR_NVIDIA ? nv_roots :
      amd_roots;
  GPtrArray *out = g_ptr_array_new ();

  for (guint r = 0; roots[r]; r++) {
    const gchar *root = g_getenv (roots[r]);
    if (!root || !*root)
      continue;
    for (guint i = 0; names[i]; i++) {
      g_ptr_array_add (out, g_build_filename (root, "lib64", names[i],
              NULL));
      g_ptr_array_add (out, g_build_filename (root, "lib", names[i], NULL));
    }
  }
  for (guint i = 0; names[i]; i++)
    g_ptr_array_add (out, g_strdup (names[i]));
  g_ptr_array_add (out, NULL);
  return (gchar **) g_ptr_array_free (out, FALSE);
}

static RtcState *
rtc_load (VhHipVendor vendor, GError ** error)
{
  RtcState *st = &rtc_states[vendor];

  g_mutex_lock (&rtc_lock);
  if (!st->tried) {
    g_auto (GStrv) names = rtc_library_names (vendor);
    g_autoptr (GString) tried = g_string_new (NULL);
    const gchar *label = vendor == VH_HIP_VENDOR_NVIDIA ? "nvrtc" : "hiprtc";
    gpointer lib;

    st->tried = TRUE;
    lib = vh_hip_dlopen_first (vendor == VH_HIP_VENDOR_NVIDIA ?
        "VH_HIP_NVRTC" : "VH_HIP_HIPRTC", (const gchar * const *) names,
        &st->library, tried);
    if (!lib) {
      g_set_error (&st->error, VH_HIP_ERROR, VH_HIP_ERROR_COMPILE,
          "%s, needed to compile kernels at run time, was not found "
          "(tried %s)", label, tried->str);
    } else if (vh_hip_dlsym_table (lib, st->library,
            vendor == VH_HIP_VENDOR_NVIDIA ? nvrtc_symbols : hiprtc_symbols,
            (gpointer *) & st->api, RTC_N_FUNCS, rtc_optional,
            &st->error)) {
      gint major = 0, minor = 0;
      st->api.version (&major, &minor);
      st->name = g_strdup_printf ("%s %d.%d", label, major, minor);
      st->ok = TRUE;
    }
  }
  if (!st->ok)
    g_propagate_error (error, g_error_copy (st->error));
  g_mutex_unlock (&rtc_lock);
  return st->ok ? st : NULL;
}

static gchar *
rtc_log (RtcState * st, gpointer prog)
{
  gsize size = 0;
  gchar *log;

  if (st->api.log_size (prog, &size) != 0 || size <= 1)
    return g_strdup ("(no log)");
  log = g_malloc0 (size + 1);
  st->api.log (prog, log);
  return log;
}

gboolean
vh_hip_rtc_compile (VhHipDevice * device, const gchar * name,
    const gchar * source, GBytes ** image, gchar ** description,
    GError ** error)
{
  const VhHipDeviceInfo *info = vh_hip_device_get_info (device);
  VhHipVendor vendor = info->vendor;
  RtcState *st = rtc_load (vendor, error);
  g_autofree gchar *arch_opt = NULL;
  const gchar *options[3];
  gboolean cubin;
  gpointer prog = NULL;
  gsize size = 0;
  gchar *code;
  gint rc;

  if (!st)
    return FALSE;
  /* NVIDIA: a cubin for the exact architecture where nvrtc can make one
   * (no driver JIT), PTX otherwise. */
  cubin = vendor == VH_HIP_VENDOR_NVIDIA && st->api.binary_size &&
      st->api.binary;
  if (vendor == VH_HIP_VENDOR_NVIDIA)
    arch_opt = g_strdup_printf ("--gpu-architecture=%s_%d%d",
        cubin ? "sm" : "compute", info->major, info->minor);
  else
    arch_opt = g_strdup_printf ("--offload-arch=%s", info->arch);
  options[0] = arch_opt;
  options[1] = "-DVH_HIP_RTC=1";
  options[2] = NULL;

  rc = st->api.create (&prog, source, name, 0, NULL, NULL);
  if (rc != 0) {
    g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_COMPILE,
        "%s could not create a program for '%s': %s", st->name, name,
        st->api.error_string (rc));
    return FALSE;
  }
  rc = st->api.compile (prog, 2, options);
  if (rc != 0) {
    g_autofree gchar *log = rtc_log (st, prog);
    g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_COMPILE,
        "%s failed to compile '%s' for %s: %s\n%s", st->name, name,
        info->arch, st->api.error_string (rc), log);
    st->api.destroy (&prog);
    return FALSE;
  }
  rc = cubin ? st->api.binary_size (prog, &size) :
      st->api.code_size (prog, &size);
  if (rc == 0 && size > 0) {
    /* PTX is text: keep it NUL-terminated for the module loader */
    code = g_malloc0 (size + 1);
    rc = cubin ? st->api.binary (prog, code) : st->api.code (prog, code);
    if (rc == 0)
      *image = g_bytes_new_take (code, size + 1);
    else
      g_free (code);
  }
  st->api.destroy (&prog);
  if (rc != 0 || size == 0) {
    g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_COMPILE,
        "%s compiled '%s' but returned no code: %s", st->name, name,
        rc ? st->api.error_string (rc) : "empty output");
    return FALSE;
  }
  *description = g_strdup_printf ("run-time compiled (%s, %s%s)", st->name,
      vendor == VH_HIP_VENDOR_NVIDIA ? (cubin ? "cubin " : "PTX ") : "",
      info->arch);
  return TRUE;
}
