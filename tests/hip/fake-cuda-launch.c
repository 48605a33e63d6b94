/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The fake CUDA driver's streams, events, modules and launches, and its
 * stand-in for nvrtc (see fake-cuda.c). */

#include "fake-cuda-private.h"

EXPORT gint
cuStreamCreate (gpointer * s, guint flags)
{
  RETURN_IF_LOST ();
  *s = g_malloc (1);
  return 0;
}

EXPORT gint
cuStreamDestroy_v2 (gpointer s)
{
  g_free (s);
  return 0;
}

EXPORT gint
cuStreamSynchronize (gpointer s)
{
  g_atomic_int_inc (&n_host_waits);
  return sync_result ();
}

EXPORT gint
cuStreamWaitEvent (gpointer s, gpointer e, guint flags)
{
  g_atomic_int_inc (&n_device_waits);
  return sticky ();
}

EXPORT gint
cuEventCreate (gpointer * e, guint flags)
{
  RETURN_IF_LOST ();
  /* its one byte: recorded and not yet waited for (VH_FAKE_CUDA_EVENTS) */
  *e = g_malloc0 (1);
  return 0;
}

EXPORT gint
cuEventDestroy_v2 (gpointer e)
{
  g_free (e);
  return 0;
}

EXPORT gint
cuEventRecord (gpointer e, gpointer s)
{
  RETURN_IF_LOST ();
  *(guint8 *) e = g_strcmp0 (g_getenv ("VH_FAKE_CUDA_EVENTS"), "pending") == 0;
  return 0;
}

EXPORT gint
cuEventSynchronize (gpointer e)
{
  g_atomic_int_inc (&n_host_waits);
  *(guint8 *) e = 0;
  return sync_result ();
}

EXPORT gint
cuEventQuery (gpointer e)
{
  RETURN_IF_LOST ();
  return *(guint8 *) e ? CUDA_ERROR_NOT_READY : 0;
}

EXPORT gint
cuEventElapsedTime (gfloat * ms, gpointer a, gpointer b)
{
  *ms = 1.0f;
  return 0;
}

gboolean
noop_kernels (void)
{
  return g_strcmp0 (g_getenv ("VH_FAKE_CUDA_KERNELS"), "noop") == 0;
}

EXPORT gint
cuModuleLoadData (gpointer * m, gconstpointer image)
{
  static gint module;

  RETURN_IF_LOST ();
  if (!noop_kernels ())
    return CUDA_ERROR_INVALID_IMAGE;
  *m = &module;
  g_atomic_int_inc (&n_module_loads);
  return 0;
}

EXPORT gint
cuModuleUnload (gpointer m)
{
  return 0;
}

EXPORT gint
cuModuleGetFunction (gpointer * f, gpointer m, const gchar * name)
{
  static gint function;

  if (!noop_kernels ())
    return CUDA_ERROR_INVALID_VALUE;
  *f = &function;
  return 0;
}

EXPORT gint
cuLaunchKernel (gpointer f, guint gx, guint gy, guint gz, guint bx,
    guint by, guint bz, guint shared, gpointer s, gpointer * args,
    gpointer * extra)
{
  if (!noop_kernels ())
    return CUDA_ERROR_INVALID_VALUE;
  RETURN_IF_LOST ();
  return fault_now (FAULT_LAUNCH) ? CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES : 0;
}

/* With noop kernels the library is also a stand-in for nvrtc
 * (VH_HIP_NVRTC may name it), so that kernels "compile" where no CUDA
 * toolkit is installed: every program gives the same placeholder PTX. */
static const gchar fake_ptx[] = "// fake PTX: kernels run nothing\n";

EXPORT gint
nvrtcVersion (gint * major, gint * minor)
{
  *major = 12;
  *minor = 0;
  return 0;
}

EXPORT const gchar *
nvrtcGetErrorString (gint code)
{
  return code ? "fake nvrtc: only with VH_FAKE_CUDA_KERNELS=noop" : "ok";
}

EXPORT gint
nvrtcCreateProgram (gpointer * prog, const gchar * src, const gchar * name,
    gint n_headers, const gchar * const *headers,
    const gchar * const *include_names)
{
  static gint program;

  if (!noop_kernels ())
    return 1;
  *prog = &program;
  return 0;
}

EXPORT gint
nvrtcCompileProgram (gpointer prog, gint n_options,
    const gchar * const *options)
{
  return 0;
}

EXPORT gint
nvrtcGetProgramLogSize (gpointer prog, gsize * size)
{
  *size = 1;
  return 0;
}

EXPORT gint
nvrtcGetProgramLog (gpointer prog, gchar * log)
{
  log[0] = '\0';
  return 0;
}

EXPORT gint
nvrtcGetPTXSize (gpointer prog, gsize * size)
{
  *size = sizeof (fake_ptx);
  return 0;
}

EXPORT gint
nvrtcGetPTX (gpointer prog, gchar * code)
{
  memcpy (code, fake_ptx, sizeof (fake_ptx));
  return 0;
}

EXPORT gint
nvrtcDestroyProgram (gpointer * prog)
{
  *prog = NULL;
  return 0;
}
