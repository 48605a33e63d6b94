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
 * where the numbers mean nothing anyway.
 *
 * This file holds the state, the faults and the bookkeeping, and the
 * counters tests read; the driver's calls are in fake-cuda-memory.c
 * (devices, contexts, memory, copies) and fake-cuda-launch.c (streams,
 * events, modules, launches, nvrtc). */

#include "fake-cuda-private.h"

GMutex lock;
GList *allocations;
gint n_devices = -1;
__thread gint ctx_depth;
__thread gint ctx_stack[64];
gint primary_refs[MAX_DEVICES];
guint n_lost;
guint n_foreign;
guint device_allocs[MAX_DEVICES];
guint n_host_allocs_made;        /* page-locked, ever */
guint n_device_allocs_made;      /* ever */
guint n_host_waits;              /* stream and event synchronisations */
guint n_device_waits;            /* streams made to wait for events */
guint n_uploads;                 /* host-to-device copy calls */
guint n_module_loads;            /* modules loaded */
gsize device_copied[MAX_DEVICES];
gsize device_bytes;              /* device memory alive */
guint n_faults;                  /* faults injected */
gint sticky_error;               /* the context is lost */
guint n_refused;                 /* calls refused since */

static const gchar *const fault_names[N_FAULT_KINDS] = {
  "alloc", "launch", "sync", "illegal"
};

static guint fault_at[N_FAULT_KINDS];   /* call number that fails; 0: none */
static guint fault_calls[N_FAULT_KINDS];

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
gboolean
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
gint
sticky (void)
{
  gint error = g_atomic_int_get (&sticky_error);

  if (error)
    g_atomic_int_inc (&n_refused);
  return error;
}

/* A synchronisation: LAUNCH_FAILED or a sticky ILLEGAL_ADDRESS when one is
 * due. */
gint
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
gboolean
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

gint
devices (void)
{
  if (n_devices < 0) {
    const gchar *env = g_getenv ("VH_FAKE_CUDA_DEVICES");
    n_devices = CLAMP (env ? atoi (env) : 1, 0, MAX_DEVICES);
  }
  return n_devices;
}

/* The device of the calling thread's current context, or -1. */
gint
current_device (void)
{
  return ctx_depth > 0 && ctx_depth <= (gint) G_N_ELEMENTS (ctx_stack) ?
      ctx_stack[ctx_depth - 1] : -1;
}

Allocation *
find_allocation (const guint8 * p, gsize len, gboolean device)
{
  for (GList * l = allocations; l; l = l->next) {
    Allocation *a = l->data;
    if (a->device == device && p >= a->base && p + len <= a->base + a->size)
      return a;
  }
  return NULL;
}

gpointer
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

gint
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

guint8 *
to_host (CUdeviceptr p)
{
  return (guint8 *) (guintptr) (p - DEVICE_OFFSET);
}

CUdeviceptr
to_device (gpointer p)
{
  return (CUdeviceptr) (guintptr) p + DEVICE_OFFSET;
}

/* A 2D region of device memory must lie in one allocation. */
gboolean
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
