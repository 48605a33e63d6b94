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
 * GPU path, its uploads and its plane pool, runs as on a GPU); then it
 * also stands in for nvrtc (VH_HIP_NVRTC), so that no toolkit is needed.
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
 * Faults, for the tests of what the engine does when the GPU fails:
 * VH_FAKE_CUDA_FAIL="KIND:N[,KIND:N...]" makes the Nth call (from 1,
 * counted over the process) of a kind fail, once:
 *   alloc    cuMemAlloc_v2 / cuMemAllocPitch_v2: CUDA_ERROR_OUT_OF_MEMORY
 *   launch   cuLaunchKernel: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
 *   sync     cuStreamSynchronize / cuEventSynchronize: CUDA_ERROR_LAUNCH_FAILED
 *   illegal  the same synchronisations: CUDA_ERROR_ILLEGAL_ADDRESS, which is
 *            sticky as a real context's: every later call that works on
 *            the context fails with it too (launches, copies, memsets,
 *            synchronisations, event queries and records, device and
 *            page-locked allocations, stream, event and module creation);
 *            frees and destructions still work, so that the exit check
 *            still sees what was never freed
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
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <execinfo.h>

#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_OUT_OF_MEMORY 2
#define CUDA_ERROR_NO_DEVICE 100
#define CUDA_ERROR_INVALID_DEVICE 101
#define CUDA_ERROR_INVALID_IMAGE 200
#define CUDA_ERROR_INVALID_CONTEXT 201
#define CUDA_ERROR_NOT_READY 600
#define CUDA_ERROR_ILLEGAL_ADDRESS 700
#define CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES 701
#define CUDA_ERROR_LAUNCH_FAILED 719

#define MAX_DEVICES 16

/* Far from anything malloc returns, and non-canonical once added. */
#define DEVICE_OFFSET (G_GUINT64_CONSTANT (1) << 62)

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

typedef struct
{
  guint8 *base;
  gsize size;
  gboolean device;
  gint ctx;                     /* device of the current context, or -1 */
} Allocation;

static GMutex lock;
static GList *allocations;
static gint n_devices = -1;
static __thread gint ctx_depth;
static __thread gint ctx_stack[64];
static gint primary_refs[MAX_DEVICES];
static guint n_lost;
static guint n_foreign;
static guint device_allocs[MAX_DEVICES];
static guint n_host_allocs_made;        /* page-locked, ever */
static guint n_device_allocs_made;      /* ever */
static guint n_host_waits;              /* stream and event synchronisations */
static guint n_device_waits;            /* streams made to wait for events */
static guint n_uploads;                 /* host-to-device copy calls */
static guint n_module_loads;            /* modules loaded */
static gsize device_copied[MAX_DEVICES];
static gsize device_bytes;              /* device memory alive */
static guint n_faults;                  /* faults injected */
static gint sticky_error;               /* the context is lost */
static guint n_refused;                 /* calls refused since */

typedef enum
{
  FAULT_ALLOC,
  FAULT_LAUNCH,
  FAULT_SYNC,
  FAULT_ILLEGAL,
  N_FAULT_KINDS
} FaultKind;

static const gchar *const fault_names[N_FAULT_KINDS] = {
  "alloc", "launch", "sync", "illegal"
};

static guint fault_at[N_FAULT_KINDS];   /* call number that fails; 0: none */
static guint fault_calls[N_FAULT_KINDS];

#define EXPORT __attribute__ ((visibility ("default")))

static void
parse_faults (void)
{
  static gsize once;

  if (g_once_init_enter (&once)) {
    gchar **specs = g_strsplit (g_getenv ("VH_FAKE_CUDA_FAIL") ?
        g_getenv ("VH_FAKE_CUDA_FAIL") : "", ",", -1);
    for (guint i = 0; specs[i]; i++) {
      gchar **kv = g_strsplit (specs[i], ":", 2);
      for (guint k = 0; kv[0] && kv[1] && k < N_FAULT_KINDS; k++) {
        if (!strcmp (kv[0], fault_names[k]))
          fault_at[k] = (guint) atoi (kv[1]);
      }
      g_strfreev (kv);
    }
    g_strfreev (specs);
    g_once_init_leave (&once, 1);
  }
}

/* Counts a call of @kind; TRUE when this one is to fail. */
static gboolean
fault_now (FaultKind kind)
{
  gboolean fail;

  parse_faults ();
  g_mutex_lock (&lock);
  fail = fault_at[kind] && ++fault_calls[kind] == fault_at[kind];
  if (fail)
    n_faults++;
  g_mutex_unlock (&lock);
  if (fail && g_getenv ("VH_FAKE_CUDA_TRACE")) {
    gpointer frames[32];
    backtrace_symbols_fd (frames, backtrace (frames, 32), 2);
  }
  return fail;
}

/* The error of a lost context, or 0. */
static gint
sticky (void)
{
  gint error = g_atomic_int_get (&sticky_error);

  if (error)
    g_atomic_int_inc (&n_refused);
  return error;
}

/* Every call on a lost context fails with its error. */
#define RETURN_IF_LOST() \
  G_STMT_START { \
    gint lost_error = sticky (); \
    if (lost_error) \
      return lost_error; \
  } G_STMT_END

/* A synchronisation: LAUNCH_FAILED or a sticky ILLEGAL_ADDRESS when one is
 * due. */
static gint
sync_result (void)
{
  RETURN_IF_LOST ();
  if (fault_now (FAULT_SYNC))
    return CUDA_ERROR_LAUNCH_FAILED;
  if (fault_now (FAULT_ILLEGAL)) {
    g_atomic_int_set (&sticky_error, CUDA_ERROR_ILLEGAL_ADDRESS);
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  }
  return 0;
}

/* Whether @size more bytes of device memory fit (VH_FAKE_CUDA_MEMORY), and
 * the allocation fault. */
static gboolean
device_alloc_ok (gsize size)
{
  static gsize limit;
  static gsize once;
  gboolean ok;

  if (g_once_init_enter (&once)) {
    const gchar *env = g_getenv ("VH_FAKE_CUDA_MEMORY");
    limit = env ? (gsize) g_ascii_strtoull (env, NULL, 10) : 0;
    g_once_init_leave (&once, 1);
  }
  if (fault_now (FAULT_ALLOC))
    return FALSE;
  g_mutex_lock (&lock);
  ok = limit == 0 || device_bytes + size <= limit;
  if (!ok)
    n_faults++;
  g_mutex_unlock (&lock);
  return ok;
}

static gint
devices (void)
{
  if (n_devices < 0) {
    const gchar *env = g_getenv ("VH_FAKE_CUDA_DEVICES");
    n_devices = CLAMP (env ? atoi (env) : 1, 0, MAX_DEVICES);
  }
  return n_devices;
}

/* The device of the calling thread's current context, or -1. */
static gint
current_device (void)
{
  return ctx_depth > 0 && ctx_depth <= (gint) G_N_ELEMENTS (ctx_stack) ?
      ctx_stack[ctx_depth - 1] : -1;
}

static Allocation *
find_allocation (const guint8 * p, gsize len, gboolean device)
{
  for (GList * l = allocations; l; l = l->next) {
    Allocation *a = l->data;
    if (a->device == device && p >= a->base && p + len <= a->base + a->size)
      return a;
  }
  return NULL;
}

static gpointer
alloc (gsize size, gboolean device)
{
  Allocation *a = g_new0 (Allocation, 1);

  a->base = g_malloc0 (size);
  /* poison: fresh device memory is not zero on a GPU either */
  memset (a->base, 0xa5, size);
  a->size = size;
  a->device = device;
  a->ctx = current_device ();
  g_mutex_lock (&lock);
  if (device && a->ctx < 0)
    n_foreign++;
  else if (device)
    device_allocs[a->ctx]++;
  if (device)
    device_bytes += size;
  allocations = g_list_prepend (allocations, a);
  g_mutex_unlock (&lock);
  return a->base;
}

static gint
release (gpointer p, gboolean device)
{
  gint ret = CUDA_ERROR_INVALID_VALUE;

  g_mutex_lock (&lock);
  for (GList * l = allocations; l; l = l->next) {
    Allocation *a = l->data;
    if (a->base == p && a->device == device) {
      allocations = g_list_delete_link (allocations, l);
      if (device)
        device_bytes -= a->size;
      g_free (a->base);
      g_free (a);
      ret = CUDA_SUCCESS;
      break;
    }
  }
  g_mutex_unlock (&lock);
  return ret;
}

static guint8 *
to_host (CUdeviceptr p)
{
  return (guint8 *) (guintptr) (p - DEVICE_OFFSET);
}

static CUdeviceptr
to_device (gpointer p)
{
  return (CUdeviceptr) (guintptr) p + DEVICE_OFFSET;
}

/* A 2D region of device memory must lie in one allocation. */
static gboolean
device_region_ok (const guint8 * p, gsize pitch, gsize width, gsize height)
{
  Allocation *a;

  if (height == 0 || width == 0)
    return TRUE;
  g_mutex_lock (&lock);
  a = find_allocation (p, (height - 1) * pitch + width, TRUE);
  if (a && (a->ctx < 0 || a->ctx != current_device ()))
    n_foreign++;
  g_mutex_unlock (&lock);
  return a != NULL;
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
      return CUDA_ERROR_INVALID_VALUE;
    }
  }
  return devices () > 0 ? CUDA_SUCCESS : CUDA_ERROR_NO_DEVICE;
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
  *s = code == CUDA_ERROR_INVALID_VALUE ? "invalid argument" :
      code == CUDA_ERROR_INVALID_IMAGE ? "device kernel image is invalid" :
      code == CUDA_ERROR_OUT_OF_MEMORY ? "out of memory" :
      code == CUDA_ERROR_ILLEGAL_ADDRESS ?
      "an illegal memory access was encountered" :
      code == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES ?
      "too many resources requested for launch" :
      code == CUDA_ERROR_LAUNCH_FAILED ?
      "unspecified launch failure" : "fake error";
  return 0;
}

EXPORT gint
cuGetErrorName (gint code, const gchar ** s)
{
  *s = code == CUDA_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE" :
      code == CUDA_ERROR_OUT_OF_MEMORY ? "CUDA_ERROR_OUT_OF_MEMORY" :
      code == CUDA_ERROR_ILLEGAL_ADDRESS ? "CUDA_ERROR_ILLEGAL_ADDRESS" :
      code == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES ?
      "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES" :
      code == CUDA_ERROR_LAUNCH_FAILED ? "CUDA_ERROR_LAUNCH_FAILED" :
      "CUDA_ERROR_FAKE";
  return 0;
}

EXPORT gint
cuDeviceGetCount (gint * n)
{
  *n = devices ();
  return 0;
}

EXPORT gint
cuDeviceGet (gint * dev, gint ordinal)
{
  if (ordinal < 0 || ordinal >= devices ())
    return CUDA_ERROR_INVALID_DEVICE;
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
      return CUDA_ERROR_INVALID_VALUE;
  }
  return 0;
}

EXPORT gint
cuDevicePrimaryCtxRetain (gpointer * ctx, gint dev)
{
  if (dev < 0 || dev >= devices ())
    return CUDA_ERROR_INVALID_DEVICE;
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

  if (dev < 0 || dev >= devices ())
    return CUDA_ERROR_INVALID_DEVICE;
  g_mutex_lock (&lock);
  if (primary_refs[dev] == 0) {
    ret = CUDA_ERROR_INVALID_CONTEXT;
  } else if (--primary_refs[dev] == 0) {
    /* the context goes, with whatever was still allocated in it */
    for (GList * l = allocations; l; l = l->next) {
      Allocation *a = l->data;
      if (a->ctx == dev) {
        a->ctx = -1;
        n_lost++;
      }
    }
  }
  g_mutex_unlock (&lock);
  return ret;
}

EXPORT gint
cuCtxPushCurrent_v2 (gpointer ctx)
{
  gint dev = GPOINTER_TO_INT (ctx) - 1;
  gboolean alive;

  if (dev < 0 || dev >= MAX_DEVICES)
    return CUDA_ERROR_INVALID_VALUE;
  g_mutex_lock (&lock);
  alive = primary_refs[dev] > 0;
  g_mutex_unlock (&lock);
  if (!alive)
    return CUDA_ERROR_INVALID_CONTEXT;
  if (ctx_depth < (gint) G_N_ELEMENTS (ctx_stack))
    ctx_stack[ctx_depth] = dev;
  ctx_depth++;
  return 0;
}

EXPORT gint
cuCtxPopCurrent_v2 (gpointer * ctx)
{
  ctx_depth--;
  return 0;
}

EXPORT gint
cuMemAllocPitch_v2 (CUdeviceptr * p, gsize * pitch, gsize width,
    gsize height, guint element)
{
  RETURN_IF_LOST ();
  /* an unusual alignment, so that nobody assumes one */
  *pitch = (width + 383) / 384 * 384;
  if (!device_alloc_ok (*pitch * height))
    return CUDA_ERROR_OUT_OF_MEMORY;
  *p = to_device (alloc (*pitch * height, TRUE));
  g_atomic_int_inc (&n_device_allocs_made);
  return 0;
}

EXPORT gint
cuMemAlloc_v2 (CUdeviceptr * p, gsize size)
{
  RETURN_IF_LOST ();
  if (!device_alloc_ok (size))
    return CUDA_ERROR_OUT_OF_MEMORY;
  *p = to_device (alloc (size, TRUE));
  g_atomic_int_inc (&n_device_allocs_made);
  return 0;
}

EXPORT gint
cuMemFree_v2 (CUdeviceptr p)
{
  return release (to_host (p), TRUE);
}

EXPORT gint
cuMemHostAlloc (gpointer * p, gsize size, guint flags)
{
  RETURN_IF_LOST ();
  *p = alloc (size, FALSE);
  g_atomic_int_inc (&n_host_allocs_made);
  return 0;
}

EXPORT gint
cuMemFreeHost (gpointer p)
{
  return release (p, FALSE);
}

static gboolean noop_kernels (void);

static gboolean
dma_mode (void)
{
  static gint dma = -1;

  if (dma < 0)
    dma = noop_kernels () &&
        g_strcmp0 (g_getenv ("VH_FAKE_CUDA_COPIES"), "dma") == 0;
  return dma;
}

/* VH_FAKE_CUDA_COPIES=dma: whether a GPU would make this copy without the
 * CPU (page-locked or device memory on both sides). */
static gboolean
copy_is_dma (const FakeMemcpy2D * c, const guint8 * src, const guint8 * dst)
{
  gboolean pinned = TRUE;

  if (!dma_mode ())
    return FALSE;
  g_mutex_lock (&lock);
  if (c->srcMemoryType != 2)
    pinned = find_allocation (src, (c->Height - 1) * c->srcPitch +
        c->WidthInBytes, FALSE) != NULL;
  if (pinned && c->dstMemoryType != 2)
    pinned = find_allocation (dst, (c->Height - 1) * c->dstPitch +
        c->WidthInBytes, FALSE) != NULL;
  g_mutex_unlock (&lock);
  return pinned;
}

EXPORT gint
cuMemcpy2DAsync_v2 (const FakeMemcpy2D * c, gpointer stream)
{
  const guint8 *src;
  guint8 *dst;

  RETURN_IF_LOST ();
  if (c->srcMemoryType == 2) {
    src = to_host (c->srcDevice);
    if (!device_region_ok (src, c->srcPitch, c->WidthInBytes, c->Height))
      return CUDA_ERROR_INVALID_VALUE;
  } else {
    src = c->srcHost;
  }
  if (c->dstMemoryType == 2) {
    dst = to_host (c->dstDevice);
    if (!device_region_ok (dst, c->dstPitch, c->WidthInBytes, c->Height))
      return CUDA_ERROR_INVALID_VALUE;
  } else {
    dst = c->dstHost;
  }
  if (c->WidthInBytes > c->srcPitch || c->WidthInBytes > c->dstPitch)
    return CUDA_ERROR_INVALID_VALUE;
  if (c->srcMemoryType != 2 && c->dstMemoryType == 2)
    g_atomic_int_inc (&n_uploads);
  if (c->Height && !copy_is_dma (c, src, dst)) {
    for (gsize y = 0; y < c->Height; y++)
      memcpy (dst + y * c->dstPitch, src + y * c->srcPitch, c->WidthInBytes);
  }
  if (current_device () >= 0) {
    g_mutex_lock (&lock);
    device_copied[current_device ()] += c->WidthInBytes * c->Height;
    g_mutex_unlock (&lock);
  }
  return 0;
}

EXPORT gint
cuMemsetD2D8Async (CUdeviceptr p, gsize pitch, guint8 value, gsize width,
    gsize height, gpointer stream)
{
  guint8 *d = to_host (p);

  RETURN_IF_LOST ();
  if (!device_region_ok (d, pitch, width, height))
    return CUDA_ERROR_INVALID_VALUE;
  for (gsize y = 0; y < height && !dma_mode (); y++)
    memset (d + y * pitch, value, width);
  return 0;
}

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

static gboolean
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

/* For tests: how often the code allocated and waited for the "GPU" from
 * the host, since the start. */
EXPORT void
vh_fake_cuda_call_counts (guint * host_allocs, guint * device_allocs,
    guint * host_waits)
{
  *host_allocs = g_atomic_int_get (&n_host_allocs_made);
  *device_allocs = g_atomic_int_get (&n_device_allocs_made);
  *host_waits = g_atomic_int_get (&n_host_waits);
}

/* For tests: how often a stream was made to wait for an event (a wait on
 * the device instead of the host). */
EXPORT guint
vh_fake_cuda_n_device_waits (void)
{
  return g_atomic_int_get (&n_device_waits);
}

/* For tests: how many host-to-device copies were asked for. */
EXPORT guint
vh_fake_cuda_n_uploads (void)
{
  return g_atomic_int_get (&n_uploads);
}

EXPORT guint
vh_fake_cuda_n_module_loads (void)
{
  return g_atomic_int_get (&n_module_loads);
}

/* For tests: what is still allocated. */
EXPORT guint
vh_fake_cuda_n_allocations (void)
{
  guint n;

  g_mutex_lock (&lock);
  n = g_list_length (allocations);
  g_mutex_unlock (&lock);
  return n;
}

/* References to the primary contexts of all devices. */
EXPORT gint
vh_fake_cuda_primary_refs (void)
{
  gint n = 0;

  g_mutex_lock (&lock);
  for (gint i = 0; i < MAX_DEVICES; i++)
    n += primary_refs[i];
  g_mutex_unlock (&lock);
  return n;
}

/* Allocations still alive when the last reference to their context was
 * released (what a leak checker reports). */
EXPORT guint
vh_fake_cuda_n_lost (void)
{
  guint n;

  g_mutex_lock (&lock);
  n = n_lost;
  g_mutex_unlock (&lock);
  return n;
}

/* Pushes minus pops on the calling thread: 0 when balanced. */
EXPORT gint
vh_fake_cuda_context_depth (void)
{
  return ctx_depth;
}

/* Device memory made or touched outside its own device's context. */
EXPORT guint
vh_fake_cuda_n_foreign (void)
{
  guint n;

  g_mutex_lock (&lock);
  n = n_foreign;
  g_mutex_unlock (&lock);
  return n;
}

/* Device allocations made in @dev's context, and bytes copied while it was
 * current, since the start. */
EXPORT void
vh_fake_cuda_device_counts (gint dev, guint * n_allocs, gsize * n_copied)
{
  g_mutex_lock (&lock);
  *n_allocs = dev >= 0 && dev < MAX_DEVICES ? device_allocs[dev] : 0;
  *n_copied = dev >= 0 && dev < MAX_DEVICES ? device_copied[dev] : 0;
  g_mutex_unlock (&lock);
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

/* VH_FAKE_CUDA_EXIT_CHECK: what outlives the process is a leak. */
static void check_at_exit (void) __attribute__ ((destructor));

static void
check_at_exit (void)
{
  gsize bytes = 0;
  guint n = 0;

  if (g_strcmp0 (g_getenv ("VH_FAKE_CUDA_EXIT_CHECK"), "1") != 0)
    return;
  g_mutex_lock (&lock);
  for (GList * l = allocations; l; l = l->next) {
    Allocation *a = l->data;
    bytes += a->size;
    n++;
  }
  g_mutex_unlock (&lock);
  if (g_getenv ("VH_FAKE_CUDA_FAIL") || g_getenv ("VH_FAKE_CUDA_MEMORY"))
    fprintf (stderr, "fake CUDA driver: %u faults injected, %u calls "
        "refused after the context was lost\n", n_faults, n_refused);
  if (n == 0 && n_lost == 0)
    return;
  fprintf (stderr, "fake CUDA driver: %u allocations (%" G_GSIZE_FORMAT
      " bytes) alive at exit, %u lost with their context\n", n, bytes,
      n_lost);
  _exit (86);
}
