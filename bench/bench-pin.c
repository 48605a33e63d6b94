/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Should frames in pageable memory (rawvideoparse's, a decoder's into
 * system memory) be page-locked where they are, for the copy engine to
 * read them, instead of staged by the CPU into page-locked memory? This
 * times, on an NVIDIA GPU through its driver alone, the CPU each way costs
 * per plane: staged (memcpy into a page-locked buffer, then the copy), the
 * driver's own copy from pageable memory, and the plane page-locked,
 * copied and unlocked (cuMemHostRegister), on one buffer again and again
 * and on a freshly allocated and written frame each time, as sources
 * hand them over. The waits for the copies are left out, as the element's
 * workers queue copies and go on; the driver's pageable copy cannot be
 * waited for apart, it returns once it has staged everything.
 *
 *   bench/bench-pin [PLANE_BYTES [PLANES]]     (default: 1080p luma, 300)
 *
 * Exits 77 without an NVIDIA driver or GPU. */

#include <glib.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef gint CUresult;
typedef gpointer CUcontext;
typedef gpointer CUstream;
typedef guint64 CUdeviceptr;

/* CU_MEMHOSTREGISTER_READ_ONLY: the device only reads the frame. */
#define REGISTER_READ_ONLY 0x08

static struct
{
  CUresult (*init) (guint flags);
  CUresult (*device_get) (gint * device, gint ordinal);
  CUresult (*primary_ctx_retain) (CUcontext * ctx, gint device);
  CUresult (*ctx_set_current) (CUcontext ctx);
  CUresult (*mem_alloc) (CUdeviceptr * ptr, gsize size);
  CUresult (*mem_alloc_host) (gpointer * ptr, gsize size);
  CUresult (*host_register) (gpointer ptr, gsize size, guint flags);
  CUresult (*host_unregister) (gpointer ptr);
  CUresult (*memcpy_htod_async) (CUdeviceptr dst, gconstpointer src,
      gsize size, CUstream stream);
  CUresult (*stream_create) (CUstream * stream, guint flags);
  CUresult (*stream_synchronize) (CUstream stream);
} cu;

static gboolean
load_driver (void)
{
  static const struct
  {
    const gchar *name;
    gpointer *slot;
  } symbols[] = {
    {"cuInit", (gpointer *) & cu.init},
    {"cuDeviceGet", (gpointer *) & cu.device_get},
    {"cuDevicePrimaryCtxRetain", (gpointer *) & cu.primary_ctx_retain},
    {"cuCtxSetCurrent", (gpointer *) & cu.ctx_set_current},
    {"cuMemAlloc_v2", (gpointer *) & cu.mem_alloc},
    {"cuMemAllocHost_v2", (gpointer *) & cu.mem_alloc_host},
    {"cuMemHostRegister_v2", (gpointer *) & cu.host_register},
    {"cuMemHostUnregister", (gpointer *) & cu.host_unregister},
    {"cuMemcpyHtoDAsync_v2", (gpointer *) & cu.memcpy_htod_async},
    {"cuStreamCreate", (gpointer *) & cu.stream_create},
    {"cuStreamSynchronize", (gpointer *) & cu.stream_synchronize},
  };
  gpointer lib = dlopen ("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);

  if (!lib)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (symbols); i++) {
    *symbols[i].slot = dlsym (lib, symbols[i].name);
    if (!*symbols[i].slot)
      return FALSE;
  }
  return TRUE;
}

/* CPU time of the calling thread, in seconds. */
static gdouble
thread_cpu (void)
{
  struct timespec t;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* CPU of @n copies of @frame to @dst: staged through page-locked
 * @staging first, the copy queued and waited for outside the timing (as
 * the element does: its workers only stage and queue), or straight from
 * pageable memory where @staging is NULL (a copy the driver stages
 * itself, on the calling thread, before it returns). */
static gdouble
time_copies (const guint8 * frame, gpointer staging, gsize plane, guint n,
    CUdeviceptr dst, CUstream stream)
{
  gdouble cpu = 0;

  for (guint i = 0; i < n; i++) {
    gdouble t = thread_cpu ();

    if (staging)
      memcpy (staging, frame, plane);
    cu.memcpy_htod_async (dst, staging ? staging : frame, plane, stream);
    if (staging)
      cpu += thread_cpu () - t;
    cu.stream_synchronize (stream);
    if (!staging)
      cpu += thread_cpu () - t;
  }
  return cpu;
}

/* CPU of page-locking @buf where it is, queueing its copy to @dst and
 * unlocking it once the copy is done (the wait itself not timed); -1
 * where it cannot be page-locked. */
static gdouble
copy_pinned (guint8 * buf, gsize plane, CUdeviceptr dst, CUstream stream)
{
  gdouble t = thread_cpu (), cpu;

  if (cu.host_register (buf, plane, REGISTER_READ_ONLY))
    return -1;
  cu.memcpy_htod_async (dst, buf, plane, stream);
  cpu = thread_cpu () - t;
  cu.stream_synchronize (stream);
  t = thread_cpu ();
  cu.host_unregister (buf);
  return cpu + thread_cpu () - t;
}

static void
report (const gchar * method, gdouble cpu, guint n, guint failed)
{
  printf ("  %-38s %.3f ms cpu a plane", method, cpu * 1e3 / MAX (n, 1));
  if (failed)
    printf (" (%u of %u could not be page-locked)", failed, n);
  printf ("\n");
}

int
main (int argc, char **argv)
{
  gsize plane = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 1920 * 1080;
  guint n = argc > 2 ? (guint) atoi (argv[2]) : 300, failed = 0;
  gint device;
  CUcontext ctx;
  CUstream stream;
  CUdeviceptr dst;
  gpointer staging;
  guint8 *frame;
  gdouble cpu = 0, t;

  if (plane == 0 || n == 0) {
    g_printerr ("usage: %s [PLANE_BYTES [PLANES]]\n", argv[0]);
    return 2;
  }
  if (!load_driver () || cu.init (0) || cu.device_get (&device, 0) ||
      cu.primary_ctx_retain (&ctx, device) || cu.ctx_set_current (ctx) ||
      cu.stream_create (&stream, 1) || cu.mem_alloc (&dst, plane) ||
      cu.mem_alloc_host (&staging, plane)) {
    printf ("SKIP: no NVIDIA GPU\n");
    return 77;
  }
  frame = g_malloc (plane);
  memset (frame, 0x5a, plane);
  printf ("%" G_GSIZE_FORMAT " bytes a plane, %u planes\n", plane, n);

  report ("staged: memcpy, copy queued",
      time_copies (frame, staging, plane, n, dst, stream), n, 0);
  report ("the driver's pageable copy",
      time_copies (frame, NULL, plane, n, dst, stream), n, 0);

  for (guint i = 0; i < n; i++) {
    t = copy_pinned (frame, plane, dst, stream);
    if (t < 0)
      failed++;
    else
      cpu += t;
  }
  report ("page-locked in place, the same buffer", cpu, n - failed, failed);

  cpu = 0;
  failed = 0;
  for (guint i = 0; i < n; i++) {
    /* as a source hands frames over: a new buffer, just written */
    guint8 *fresh = g_malloc (plane);

    memcpy (fresh, frame, plane);
    t = copy_pinned (fresh, plane, dst, stream);
    if (t < 0)
      failed++;
    else
      cpu += t;
    g_free (fresh);
  }
  report ("page-locked in place, a new frame each", cpu, n - failed, failed);
  g_free (frame);
  return 0;
}
