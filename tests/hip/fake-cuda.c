/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A stand-in for the CUDA driver (loaded through VH_HIP_NVIDIA_RUNTIME) that
 * lets the HIP layer, the memory type, the pool and the upload and download
 * elements be tested on machines without a GPU. "Device memory" is host
 * memory at an address moved far away, so that code which touches it from
 * the CPU crashes instead of passing; every copy and memset is checked to
 * stay inside one allocation. Work is done at once (streams are
 * synchronous). Kernels do not exist: loading a module fails, unless
 * VH_FAKE_CUDA_KERNELS=noop, where every module loads and every launch
 * succeeds without running (numbers are then meaningless, but the engine's
 * GPU path, its uploads and its plane pool, runs as on a GPU), or
 * VH_FAKE_CUDA_KERNELS=emulate, where the kernels that have an emulation
 * (*-kernels-emu.cpp) run their source on the host (fake-gpu.h says how
 * device memory stays out of the CPU's reach) and the others are not
 * found; then it also stands in for nvrtc (VH_HIP_NVRTC), so that no
 * toolkit is needed.
 *
 * Primary contexts are counted like the driver counts them: releasing the
 * last reference destroys the context, and memory allocated in it that is
 * still alive then is what a leak checker reports (counted here, and kept
 * so that it stays visible); a destroyed context cannot be made current.
 *
 * Each device allocation belongs to the device whose context was current
 * when it was made; device memory allocated, copied or set while no
 * context or another device's context is current is counted as foreign
 * (vh_fake_cuda_n_foreign), so that tests with several devices see any
 * crossing. Allocations and bytes copied are counted per device too.
 *
 * VH_FAKE_CUDA_DEVICES: how many devices (default 1; 0 makes cuInit fail
 * like a machine without a GPU).
 *
 * VH_FAKE_CUDA_EXIT_CHECK=1: at process exit, device or page-locked memory
 * still allocated (or lost with its context) is reported on stderr and the
 * process exits with status 86, as compute-sanitizer's leak check does in
 * scripts/gpu-tests.sh.
 *
 * The bookkeeping (memory, faults, counters, the exit check) is shared
 * with the AMD stand-in (fake-gpu.c, fake-hip-amd.c).
 *
 * Faults, for the tests of what the engine does when the GPU fails:
 * VH_FAKE_CUDA_FAIL="KIND:N[,KIND:N...]" makes the Nth call (from 1,
 * counted over the process) of a kind fail, once:
 *   alloc    cuMemAlloc_v2 / cuMemAllocPitch_v2: CUDA_ERROR_OUT_OF_MEMORY
 *   launch   cuLaunchKernel: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
 *   sync     cuStreamSynchronize / cuEventSynchronize: CUDA_ERROR_LAUNCH_FAILED
 *   illegal  the same synchronisations: CUDA_ERROR_ILLEGAL_ADDRESS, which is
 *            sticky as a real context's: every later call that works on
 *            the device fails with it too (launches, copies, memsets,
 *            synchronisations, event queries and records, device and
 *            page-locked allocations, stream, event and module creation),
 *            in the AMD stand-in as well; frees and destructions still
 *            work, so that the exit check still sees what was never freed
 * VH_FAKE_CUDA_MEMORY=BYTES: the device holds this much; an allocation that
 * would pass it fails with CUDA_ERROR_OUT_OF_MEMORY (many streams at once
 * exhaust it). Both show, with the exit check or a fault asked for, in a
 * line on stderr at exit;
 * VH_FAKE_CUDA_TRACE=1 prints the stack of each fault when it happens.
 *
 * VH_FAKE_CUDA_WANT_ENV="NAME=VALUE": cuInit fails (CUDA_ERROR_INVALID_VALUE,
 * with a line on stderr) unless the variable NAME is VALUE when it runs:
 * what a program set in its environment for the driver ("NAME=" for unset).
 *
 * VH_FAKE_CUDA_EVENTS=pending (read at each call): an event recorded from
 * then on stays "not ready" (cuEventQuery) until the host waits for it
 * (cuEventSynchronize), as if the GPU were still at work: code that makes
 * the device wait instead (cuStreamWaitEvent) is seen not to wait on the
 * host.
 *
 * VH_FAKE_CUDA_COPIES=dma: for measuring the host's own work per frame
 * (bench/bench-host-cost.sh), copies that a GPU's copy engine does
 * without the CPU (device to device, and between the device and
 * page-locked memory) are checked but not made; copies from or to
 * pageable memory, which the driver stages through its own page-locked
 * buffers on the CPU, are still made; device memsets are not made either.
 * Only with VH_FAKE_CUDA_KERNELS=noop,
 * where the numbers mean nothing anyway. */

#include <glib.h>
#include "fake-gpu.h"

#include <stdio.h>
#include <string.h>

const gchar fake_gpu_label[] = "fake CUDA driver";

typedef guint64 CUdeviceptr;

typedef struct
{
  gsize srcXInBytes, srcY;
  gint srcMemoryType;
  gconstpointer srcHost;
  CUdeviceptr srcDevice;
  gpointer srcArray;
  gsize srcPitch;
  gsize dstXInBytes, dstY;
  gint dstMemoryType;
  gpointer dstHost;
  CUdeviceptr dstDevice;
  gpointer dstArray;
  gsize dstPitch;
  gsize WidthInBytes, Height;
} FakeMemcpy2D;

static GMutex lock;
static __thread gint ctx_depth;
static __thread gint ctx_stack[64];
static gint primary_refs[FAKE_MAX_DEVICES];

#define EXPORT FAKE_EXPORT

/* The device of the calling thread's current context, or -1. */
static gint
stack_top (void)
{
  return ctx_depth > 0 && ctx_depth <= (gint) G_N_ELEMENTS (ctx_stack) ?
      ctx_stack[ctx_depth - 1] : -1;
}

EXPORT gint
cuInit (guint flags)
{
  const gchar *want = g_getenv ("VH_FAKE_CUDA_WANT_ENV");
  const gchar *eq = want ? strchr (want, '=') : NULL;

  if (eq) {
    g_autofree gchar *name = g_strndup (want, eq - want);
    const gchar *value = g_getenv (name);

    if (g_strcmp0 (value ? value : "", eq + 1) != 0) {
      fprintf (stderr, "fake CUDA driver: cuInit saw %s=%s, wanted %s\n",
          name, value ? value : "(unset)", want);
      return FAKE_ERROR_INVALID_VALUE;
    }
  }
  return fake_gpu_devices () > 0 ? FAKE_SUCCESS : FAKE_ERROR_NO_DEVICE;
}

EXPORT gint
cuDriverGetVersion (gint * v)
{
  *v = 99000;
  return 0;
}

EXPORT gint
cuGetErrorString (gint code, const gchar ** s)
{
  *s = code == FAKE_ERROR_INVALID_VALUE ? "invalid argument" :
      code == FAKE_ERROR_NOT_FOUND ? "named symbol not found" :
      code == FAKE_ERROR_INVALID_IMAGE ? "device kernel image is invalid" :
      code == FAKE_ERROR_OUT_OF_MEMORY ? "out of memory" :
      code == FAKE_ERROR_ILLEGAL_ADDRESS ?
      "an illegal memory access was encountered" :
      code == FAKE_ERROR_LAUNCH_OUT_OF_RESOURCES ?
      "too many resources requested for launch" :
      code == FAKE_ERROR_LAUNCH_FAILED ?
      "unspecified launch failure" : "fake error";
  return 0;
}

EXPORT gint
cuGetErrorName (gint code, const gchar ** s)
{
  *s = code == FAKE_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE" :
      code == FAKE_ERROR_NOT_FOUND ? "CUDA_ERROR_NOT_FOUND" :
      code == FAKE_ERROR_OUT_OF_MEMORY ? "CUDA_ERROR_OUT_OF_MEMORY" :
      code == FAKE_ERROR_ILLEGAL_ADDRESS ? "CUDA_ERROR_ILLEGAL_ADDRESS" :
      code == FAKE_ERROR_LAUNCH_OUT_OF_RESOURCES ?
      "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES" :
      code == FAKE_ERROR_LAUNCH_FAILED ? "CUDA_ERROR_LAUNCH_FAILED" :
      "CUDA_ERROR_FAKE";
  return 0;
}

EXPORT gint
cuDeviceGetCount (gint * n)
{
  *n = fake_gpu_devices ();
  return 0;
}

EXPORT gint
cuDeviceGet (gint * dev, gint ordinal)
{
  if (ordinal < 0 || ordinal >= fake_gpu_devices ())
    return FAKE_ERROR_INVALID_DEVICE;
  *dev = ordinal;
  return 0;
}

EXPORT gint
cuDeviceGetName (gchar * name, gint len, gint dev)
{
  g_snprintf (name, len, "vmafhip fake device %d", dev);
  return 0;
}

EXPORT gint
cuDeviceTotalMem_v2 (gsize * bytes, gint dev)
{
  *bytes = G_GUINT64_CONSTANT (1) << 30;
  return 0;
}

EXPORT gint
cuDeviceGetAttribute (gint * value, gint attr, gint dev)
{
  switch (attr) {
    case 1:
      *value = 1024;
      break;
    case 10:
      *value = 32;
      break;
    case 16:
      *value = 4;
      break;
    case 51:
      *value = 32;
      break;
    case 75:
      *value = 9;
      break;
    case 76:
      *value = 0;
      break;
    default:
      return FAKE_ERROR_INVALID_VALUE;
  }
  return 0;
}

EXPORT gint
cuDevicePrimaryCtxRetain (gpointer * ctx, gint dev)
{
  if (dev < 0 || dev >= fake_gpu_devices ())
    return FAKE_ERROR_INVALID_DEVICE;
  g_mutex_lock (&lock);
  primary_refs[dev]++;
  g_mutex_unlock (&lock);
  *ctx = GINT_TO_POINTER (dev + 1);
  return 0;
}

EXPORT gint
cuDevicePrimaryCtxRelease_v2 (gint dev)
{
  gint ret = 0;

  if (dev < 0 || dev >= fake_gpu_devices ())
    return FAKE_ERROR_INVALID_DEVICE;
  g_mutex_lock (&lock);
  if (primary_refs[dev] == 0) {
    ret = FAKE_ERROR_INVALID_CONTEXT;
  } else if (--primary_refs[dev] == 0) {
    /* the context goes, with whatever was still allocated in it */
    fake_gpu_lose_device (dev);
  }
  g_mutex_unlock (&lock);
  return ret;
}

EXPORT gint
cuCtxPushCurrent_v2 (gpointer ctx)
{
  gint dev = GPOINTER_TO_INT (ctx) - 1;
  gboolean alive;

  if (dev < 0 || dev >= FAKE_MAX_DEVICES)
    return FAKE_ERROR_INVALID_VALUE;
  g_mutex_lock (&lock);
  alive = primary_refs[dev] > 0;
  g_mutex_unlock (&lock);
  if (!alive)
    return FAKE_ERROR_INVALID_CONTEXT;
  if (ctx_depth < (gint) G_N_ELEMENTS (ctx_stack))
    ctx_stack[ctx_depth] = dev;
  ctx_depth++;
  fake_gpu_set_current (stack_top ());
  return 0;
}

EXPORT gint
cuCtxPopCurrent_v2 (gpointer * ctx)
{
  ctx_depth--;
  fake_gpu_set_current (stack_top ());
  return 0;
}

EXPORT gint
cuMemAllocPitch_v2 (CUdeviceptr * p, gsize * pitch, gsize width,
    gsize height, guint element)
{
  FAKE_GPU_RETURN_IF_LOST ();
  /* an unusual alignment, so that nobody assumes one */
  *pitch = (width + 383) / 384 * 384;
  if (!fake_gpu_device_alloc_ok (*pitch * height))
    return FAKE_ERROR_OUT_OF_MEMORY;
  *p = fake_gpu_to_device (fake_gpu_alloc (*pitch * height, TRUE));
  return 0;
}

EXPORT gint
cuMemAlloc_v2 (CUdeviceptr * p, gsize size)
{
  FAKE_GPU_RETURN_IF_LOST ();
  if (!fake_gpu_device_alloc_ok (size))
    return FAKE_ERROR_OUT_OF_MEMORY;
  *p = fake_gpu_to_device (fake_gpu_alloc (size, TRUE));
  return 0;
}

EXPORT gint
cuMemFree_v2 (CUdeviceptr p)
{
  return fake_gpu_release (fake_gpu_to_host (p), TRUE);
}

EXPORT gint
cuMemHostAlloc (gpointer * p, gsize size, guint flags)
{
  FAKE_GPU_RETURN_IF_LOST ();
  *p = fake_gpu_alloc (size, FALSE);
  return 0;
}

EXPORT gint
cuMemFreeHost (gpointer p)
{
  return fake_gpu_release (p, FALSE);
}

/* VH_FAKE_CUDA_COPIES=dma: whether a GPU would make this copy without the
 * CPU (page-locked or device memory on both sides). */
static gboolean
copy_is_dma (const FakeMemcpy2D * c, const guint8 * src, const guint8 * dst)
{
  if (!fake_gpu_dma_mode ())
    return FALSE;
  return (c->srcMemoryType == 2 || fake_gpu_host_region_pinned (src,
          c->srcPitch, c->WidthInBytes, c->Height)) &&
      (c->dstMemoryType == 2 || fake_gpu_host_region_pinned (dst,
          c->dstPitch, c->WidthInBytes, c->Height));
}

EXPORT gint
cuMemcpy2DAsync_v2 (const FakeMemcpy2D * c, gpointer stream)
{
  const guint8 *src;
  guint8 *dst;

  FAKE_GPU_RETURN_IF_LOST ();
  if (c->srcMemoryType == 2) {
    src = fake_gpu_to_host (c->srcDevice);
    if (!fake_gpu_device_region_ok (src, c->srcPitch, c->WidthInBytes, c->Height))
      return FAKE_ERROR_INVALID_VALUE;
  } else {
    src = c->srcHost;
  }
  if (c->dstMemoryType == 2) {
    dst = fake_gpu_to_host (c->dstDevice);
    if (!fake_gpu_device_region_ok (dst, c->dstPitch, c->WidthInBytes, c->Height))
      return FAKE_ERROR_INVALID_VALUE;
  } else {
    dst = c->dstHost;
  }
  if (c->WidthInBytes > c->srcPitch || c->WidthInBytes > c->dstPitch)
    return FAKE_ERROR_INVALID_VALUE;
  if (c->srcMemoryType != 2 && c->dstMemoryType == 2)
    fake_gpu_count_upload ();
  if (c->Height && !copy_is_dma (c, src, dst)) {
    fake_gpu_device_begin ();
    for (gsize y = 0; y < c->Height; y++)
      memcpy (dst + y * c->dstPitch, src + y * c->srcPitch, c->WidthInBytes);
    fake_gpu_device_end ();
  }
  fake_gpu_count_copied (c->WidthInBytes * c->Height);
  return 0;
}

EXPORT gint
cuMemsetD2D8Async (CUdeviceptr p, gsize pitch, guint8 value, gsize width,
    gsize height, gpointer stream)
{
  guint8 *d = fake_gpu_to_host (p);

  FAKE_GPU_RETURN_IF_LOST ();
  if (!fake_gpu_device_region_ok (d, pitch, width, height))
    return FAKE_ERROR_INVALID_VALUE;
  fake_gpu_device_begin ();
  for (gsize y = 0; y < height && !fake_gpu_dma_mode (); y++)
    memset (d + y * pitch, value, width);
  fake_gpu_device_end ();
  return 0;
}

EXPORT gint
cuStreamCreate (gpointer * s, guint flags)
{
  FAKE_GPU_RETURN_IF_LOST ();
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
  fake_gpu_count_host_wait ();
  return fake_gpu_sync_result ();
}

EXPORT gint
cuStreamWaitEvent (gpointer s, gpointer e, guint flags)
{
  fake_gpu_count_device_wait ();
  return fake_gpu_sticky ();
}

EXPORT gint
cuEventCreate (gpointer * e, guint flags)
{
  FAKE_GPU_RETURN_IF_LOST ();
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
  FAKE_GPU_RETURN_IF_LOST ();
  *(guint8 *) e = g_strcmp0 (g_getenv ("VH_FAKE_CUDA_EVENTS"), "pending") == 0;
  return 0;
}

EXPORT gint
cuEventSynchronize (gpointer e)
{
  fake_gpu_count_host_wait ();
  *(guint8 *) e = 0;
  return fake_gpu_sync_result ();
}

EXPORT gint
cuEventQuery (gpointer e)
{
  FAKE_GPU_RETURN_IF_LOST ();
  return *(guint8 *) e ? FAKE_ERROR_NOT_READY : 0;
}

EXPORT gint
cuEventElapsedTime (gfloat * ms, gpointer a, gpointer b)
{
  *ms = 1.0f;
  return 0;
}

EXPORT gint
cuModuleLoadData (gpointer * m, gconstpointer image)
{
  static gint module;

  FAKE_GPU_RETURN_IF_LOST ();
  if (!fake_gpu_kernels_load ())
    return FAKE_ERROR_INVALID_IMAGE;
  *m = &module;
  fake_gpu_count_module_load ();
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
  if (!fake_gpu_kernels_load ())
    return FAKE_ERROR_INVALID_VALUE;
  if (!fake_gpu_kernel_known (name))
    return FAKE_ERROR_NOT_FOUND;
  /* the function is its name */
  *f = (gpointer) g_intern_string (name);
  return 0;
}

EXPORT gint
cuLaunchKernel (gpointer f, guint gx, guint gy, guint gz, guint bx,
    guint by, guint bz, guint shared, gpointer s, gpointer * args,
    gpointer * extra)
{
  const guint grid[3] = { gx, gy, gz }, block[3] = { bx, by, bz };

  if (!fake_gpu_kernels_load ())
    return FAKE_ERROR_INVALID_VALUE;
  FAKE_GPU_RETURN_IF_LOST ();
  fake_gpu_log_launch (f, block, shared);
  if (fake_gpu_fault_now (FAKE_FAULT_LAUNCH))
    return FAKE_ERROR_LAUNCH_OUT_OF_RESOURCES;
  return fake_gpu_launch (f, grid, block, args) ? 0 : FAKE_ERROR_NOT_FOUND;
}

/* Streams and events are not tracked here. */
guint
fake_gpu_vendor_leaks (void)
{
  return 0;
}

/* References to the primary contexts of all devices. */
EXPORT gint
vh_fake_cuda_primary_refs (void)
{
  gint n = 0;

  g_mutex_lock (&lock);
  for (gint i = 0; i < FAKE_MAX_DEVICES; i++)
    n += primary_refs[i];
  g_mutex_unlock (&lock);
  return n;
}

/* Pushes minus pops on the calling thread: 0 when balanced. */
EXPORT gint
vh_fake_cuda_context_depth (void)
{
  return ctx_depth;
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
  return code ? "fake nvrtc: only with VH_FAKE_CUDA_KERNELS=noop or "
      "emulate" : "ok";
}

EXPORT gint
nvrtcCreateProgram (gpointer * prog, const gchar * src, const gchar * name,
    gint n_headers, const gchar * const *headers,
    const gchar * const *include_names)
{
  static gint program;

  if (!fake_gpu_kernels_load ())
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
