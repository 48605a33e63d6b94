/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The fake AMD HIP runtime's code objects, modules, launches and hiprtc
 * (see fake-hip-amd.c). */

#include "fake-hip-amd-private.h"

/* EF_AMDGPU_MACH of the architectures the build knows (read from
 * Debian's hipcc output), for code objects' e_flags. */
static const struct
{
  const gchar *arch;
  guint mach;
} machs[] = {
  {"gfx906", 0x2f}, {"gfx908", 0x30}, {"gfx90a", 0x3f}, {"gfx940", 0x40},
  {"gfx1010", 0x33}, {"gfx1030", 0x36}, {"gfx1031", 0x37}, {"gfx1032", 0x38},
  {"gfx1033", 0x39}, {"gfx1034", 0x3e}, {"gfx1035", 0x3d}, {"gfx1036", 0x45},
};

/* The device's architecture without its target features. */
static gchar *
base_arch (void)
{
  gchar *arch = g_strdup (arch_name ());

  if (strchr (arch, ':'))
    *strchr (arch, ':') = 0;
  return arch;
}

static gint
arch_mach (const gchar * arch)
{
  for (guint i = 0; i < G_N_ELEMENTS (machs); i++) {
    if (!strcmp (machs[i].arch, arch))
      return machs[i].mach;
  }
  return -1;
}

/* A code object the device can run, as a runtime checks it: an ELF whose
 * EF_AMDGPU_MACH is the device's (where this file knows the number), or a
 * clang offload bundle with an entry for the device's architecture
 * ("...-amdhsa--gfx90a", with or without target features); a compressed
 * bundle is taken on trust. */
static gint
check_code_object (gconstpointer image)
{
  g_autofree gchar *arch = base_arch ();
  const guint8 *p = image;

  if (!image)
    return FAKE_ERROR_INVALID_VALUE;
  if (memcmp (p, "\177ELF", 4) == 0) {
    guint32 flags;
    gint want = arch_mach (arch);

    memcpy (&flags, p + 0x30, 4);
    return want < 0 || (gint) (flags & 0xff) == want ? 0 :
        HIP_ERROR_NO_BINARY_FOR_GPU;
  }
  if (memcmp (p, "__CLANG_OFFLOAD_BUNDLE__", 24) == 0) {
    guint64 n, pos = 32;
    g_autofree gchar *tail = g_strconcat ("--", arch, NULL);
    g_autofree gchar *tail_features = g_strconcat ("--", arch, ":", NULL);

    memcpy (&n, p + 24, 8);
    for (guint64 i = 0; i < n && i < 64; i++) {
      guint64 tsize;
      g_autofree gchar *triple = NULL;

      memcpy (&tsize, p + pos + 16, 8);
      if (tsize > 256)
        return FAKE_ERROR_INVALID_IMAGE;
      triple = g_strndup ((const gchar *) p + pos + 24, tsize);
      pos += 24 + tsize;
      if (g_str_has_suffix (triple, tail) || strstr (triple, tail_features))
        return 0;
    }
    return HIP_ERROR_NO_BINARY_FOR_GPU;
  }
  if (memcmp (p, "CCOB", 4) == 0)
    return 0;
  return FAKE_ERROR_INVALID_IMAGE;
}

static void
function_free (gpointer data)
{
  FakeFunction *f = data;

  handle_remove (f);
  g_free (f->name);
  g_free (f);
}

EXPORT gint
hipModuleLoadData (gpointer * module, gconstpointer image)
{
  FakeModule *m;
  gint code;

  if (!module)
    return FAKE_ERROR_INVALID_VALUE;
  FAKE_GPU_RETURN_IF_LOST ();
  if (!fake_gpu_kernels_load ())
    return FAKE_ERROR_INVALID_IMAGE;
  if ((code = check_code_object (image)) != 0)
    return code;
  m = g_new0 (FakeModule, 1);
  m->kind = KIND_MODULE;
  m->device = fake_gpu_current ();
  m->functions = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
      function_free);
  handle_add (m);
  fake_gpu_count_module_load ();
  *module = m;
  return 0;
}

EXPORT gint
hipModuleUnload (gpointer module)
{
  FakeModule *m = module;

  if (!handle_alive (m, KIND_MODULE) || !handle_remove (m))
    return HIP_ERROR_INVALID_HANDLE;
  g_hash_table_unref (m->functions);
  g_free (m);
  return 0;
}

EXPORT gint
hipModuleGetFunction (gpointer * function, gpointer module,
    const gchar * name)
{
  FakeModule *m = module;
  FakeFunction *f;

  if (!function || !name)
    return FAKE_ERROR_INVALID_VALUE;
  if (!handle_alive (m, KIND_MODULE))
    return HIP_ERROR_INVALID_HANDLE;
  if (!fake_gpu_kernel_known (name))
    return FAKE_ERROR_NOT_FOUND;
  f = g_hash_table_lookup (m->functions, name);
  if (!f) {
    f = g_new0 (FakeFunction, 1);
    f->kind = KIND_FUNCTION;
    f->module = m;
    f->name = g_strdup (name);
    g_hash_table_insert (m->functions, f->name, f);
    handle_add (f);
  }
  *function = f;
  return 0;
}

EXPORT gint
hipModuleLaunchKernel (gpointer function, guint gx, guint gy, guint gz,
    guint bx, guint by, guint bz, guint shared, gpointer stream,
    gpointer * args, gpointer * extra)
{
  FakeFunction *f = function;
  gint device = stream_device (stream);

  if (!handle_alive (f, KIND_FUNCTION) || device == -2)
    return HIP_ERROR_INVALID_HANDLE;
  FAKE_GPU_RETURN_IF_LOST ();
  if (f->module->device != device)
    return HIP_ERROR_INVALID_HANDLE;    /* another device's module */
  {
    const guint block[3] = { bx, by, bz };
    fake_gpu_log_launch (f->name, block, shared);
  }
  if (!gx || !gy || !gz || !bx || !by || !bz ||
      (guint64) bx * by * bz > MAX_BLOCK_THREADS || shared > MAX_DYNAMIC_LDS)
    return FAKE_ERROR_INVALID_VALUE;
  if (!args && !extra)
    return FAKE_ERROR_INVALID_VALUE;
  if (fake_gpu_fault_now (FAKE_FAULT_LAUNCH))
    return FAKE_ERROR_LAUNCH_OUT_OF_RESOURCES;
  /* the HIP layer passes arguments, never the packed "extra" buffer */
  if (!args)
    return FAKE_ERROR_INVALID_VALUE;
  {
    const guint grid[3] = { gx, gy, gz }, block[3] = { bx, by, bz };
    return fake_gpu_launch (f->name, grid, block, args) ? 0 :
        FAKE_ERROR_NOT_FOUND;
  }
}

/* hiprtc, with noop or emulated kernels only: every program gives the same
 * placeholder code object, for the architecture it was asked for. */
typedef struct
{
  gchar *arch;
} FakeProgram;

/* An ELF header, 64-bit little-endian, EF_AMDGPU_MACH filled in. */
#define FAKE_CODE_SIZE 64

EXPORT gint
hiprtcVersion (gint * major, gint * minor)
{
  *major = 6;
  *minor = 2;
  return 0;
}

EXPORT const gchar *
hiprtcGetErrorString (gint code)
{
  return code == 0 ? "HIPRTC_SUCCESS" : code == 6 ?
      "HIPRTC_ERROR_COMPILATION" :
      "HIPRTC_ERROR_INVALID_INPUT (fake hiprtc: only with "
      "VH_FAKE_CUDA_KERNELS=noop or emulate)";
}

EXPORT gint
hiprtcCreateProgram (gpointer * prog, const gchar * src, const gchar * name,
    gint n_headers, const gchar * const *headers,
    const gchar * const *include_names)
{
  if (!fake_gpu_kernels_load () || !prog || !src)
    return 3;
  *prog = g_new0 (FakeProgram, 1);
  return 0;
}

/* The architecture must be the device's, without its target features. */
EXPORT gint
hiprtcCompileProgram (gpointer prog, gint n_options,
    const gchar * const *options)
{
  FakeProgram *p = prog;
  g_autofree gchar *want = g_strdup (arch_name ());

  if (strchr (want, ':'))
    *strchr (want, ':') = 0;
  for (gint i = 0; i < n_options; i++) {
    if (g_str_has_prefix (options[i], "--offload-arch="))
      p->arch = g_strdup (options[i] + strlen ("--offload-arch="));
  }
  return g_strcmp0 (p->arch, want) == 0 ? 0 : 6;
}

EXPORT gint
hiprtcGetProgramLogSize (gpointer prog, gsize * size)
{
  FakeProgram *p = prog;

  *size = 64 + (p->arch ? strlen (p->arch) : 0);
  return 0;
}

EXPORT gint
hiprtcGetProgramLog (gpointer prog, gchar * log)
{
  FakeProgram *p = prog;

  g_snprintf (log, 64 + (p->arch ? strlen (p->arch) : 0),
      "fake hiprtc: asked for %s, the device is %s", p->arch ? p->arch :
      "no --offload-arch", arch_name ());
  return 0;
}

EXPORT gint
hiprtcGetCodeSize (gpointer prog, gsize * size)
{
  *size = FAKE_CODE_SIZE;
  return 0;
}

EXPORT gint
hiprtcGetCode (gpointer prog, gchar * code)
{
  FakeProgram *p = prog;
  guint32 flags = MAX (arch_mach (p->arch ? p->arch : ""), 0);

  memset (code, 0, FAKE_CODE_SIZE);
  memcpy (code, "\177ELF\2\1\1", 7);
  memcpy (code + 0x30, &flags, 4);
  return 0;
}

EXPORT gint
hiprtcDestroyProgram (gpointer * prog)
{
  FakeProgram *p = *prog;

  if (p)
    g_free (p->arch);
  g_free (p);
  *prog = NULL;
  return 0;
}

