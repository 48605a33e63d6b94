/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The bookkeeping both GPU stand-ins share (fake-gpu.h). */

#include "fake-gpu.h"
#include "kernel-emu-launch.h"

#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Far from anything malloc returns, and non-canonical once added. */
#define DEVICE_OFFSET (G_GUINT64_CONSTANT (1) << 62)

typedef struct
{
  guint8 *base;
  gsize size;
  gboolean device;
  gint dev;                     /* device current when made, or -1 */
  guint8 *map;                  /* emulating: the pages, and their size */
  gsize map_size;
} Allocation;

/* Emulated kernels (kernel-emu-launch.h). */
#ifdef FAKE_GPU_EMULATE
static const VhEmuLauncher launchers[] = {
  vh_emu_speed_launch, vh_emu_adm_launch, vh_emu_motion_launch,
  vh_emu_float_launch, vh_emu_psnr_launch, vh_emu_ssimu2_launch,
  vh_emu_probe_launch,
};
#else
static const VhEmuLauncher launchers[1];
#endif

#define PAGE 4096
/* What a kernel may run past an allocation's end unseen: sizes are
 * rounded up to it, so that the start stays aligned as a GPU's. */
#define EMU_ALIGN 256

static GMutex lock;
static GList *allocations;
static gint n_devices = -1;
static __thread gint current = -1;
static guint n_lost;
static guint n_foreign;
static guint device_allocs[FAKE_MAX_DEVICES];
static guint n_host_allocs_made;        /* page-locked, ever */
static guint n_device_allocs_made;      /* ever */
static guint n_host_waits;              /* stream and event synchronisations */
static guint n_device_waits;            /* streams made to wait for events */
static guint n_uploads;                 /* host-to-device copy calls */
static guint n_module_loads;            /* modules loaded */
static gsize device_copied[FAKE_MAX_DEVICES];
static gsize device_bytes;              /* device memory alive */
static guint n_faults;                  /* faults injected */
static gint sticky_error;               /* the device is lost */
static guint n_refused;                 /* calls refused since */

static const gchar *const fault_names[FAKE_N_FAULT_KINDS] = {
  "alloc", "launch", "sync", "illegal"
};

static guint fault_at[FAKE_N_FAULT_KINDS];      /* call that fails; 0: none */
static guint fault_calls[FAKE_N_FAULT_KINDS];

static void
parse_faults (void)
{
  static gsize once;

  if (g_once_init_enter (&once)) {
    gchar **specs = g_strsplit (g_getenv ("VH_FAKE_CUDA_FAIL") ?
        g_getenv ("VH_FAKE_CUDA_FAIL") : "", ",", -1);
    for (guint i = 0; specs[i]; i++) {
      gchar **kv = g_strsplit (specs[i], ":", 2);
      for (guint k = 0; kv[0] && kv[1] && k < FAKE_N_FAULT_KINDS; k++) {
        if (!strcmp (kv[0], fault_names[k]))
          fault_at[k] = (guint) atoi (kv[1]);
      }
      g_strfreev (kv);
    }
    g_strfreev (specs);
    g_once_init_leave (&once, 1);
  }
}

gboolean
fake_gpu_fault_now (FakeFaultKind kind)
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

gint
fake_gpu_sticky (void)
{
  gint error = g_atomic_int_get (&sticky_error);

  if (error)
    g_atomic_int_inc (&n_refused);
  return error;
}

gint
fake_gpu_sync_result (void)
{
  FAKE_GPU_RETURN_IF_LOST ();
  if (fake_gpu_fault_now (FAKE_FAULT_SYNC))
    return FAKE_ERROR_LAUNCH_FAILED;
  if (fake_gpu_fault_now (FAKE_FAULT_ILLEGAL)) {
    g_atomic_int_set (&sticky_error, FAKE_ERROR_ILLEGAL_ADDRESS);
    return FAKE_ERROR_ILLEGAL_ADDRESS;
  }
  return 0;
}

gboolean
fake_gpu_device_alloc_ok (gsize size)
{
  static gsize limit;
  static gsize once;
  gboolean ok;

  if (g_once_init_enter (&once)) {
    const gchar *env = g_getenv ("VH_FAKE_CUDA_MEMORY");
    limit = env ? (gsize) g_ascii_strtoull (env, NULL, 10) : 0;
    g_once_init_leave (&once, 1);
  }
  if (fake_gpu_fault_now (FAKE_FAULT_ALLOC))
    return FALSE;
  g_mutex_lock (&lock);
  ok = limit == 0 || device_bytes + size <= limit;
  if (!ok)
    n_faults++;
  g_mutex_unlock (&lock);
  return ok;
}

gint
fake_gpu_devices (void)
{
  if (n_devices < 0) {
    const gchar *env = g_getenv ("VH_FAKE_CUDA_DEVICES");
    n_devices = CLAMP (env ? atoi (env) : 1, 0, FAKE_MAX_DEVICES);
  }
  return n_devices;
}

gint
fake_gpu_current (void)
{
  return current;
}

void
fake_gpu_set_current (gint dev)
{
  current = dev;
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

gboolean
fake_gpu_emulating (void)
{
  static gsize once;
  static gboolean emulating;

  if (g_once_init_enter (&once)) {
    emulating = g_strcmp0 (g_getenv ("VH_FAKE_CUDA_KERNELS"), "emulate") == 0;
    if (emulating && G_N_ELEMENTS (launchers) < 2)
      g_error ("%s: VH_FAKE_CUDA_KERNELS=emulate, but built without a C++ "
          "compiler (no emulated kernels)", fake_gpu_label);
    g_once_init_leave (&once, 1);
  }
  return emulating;
}

gboolean
fake_gpu_kernels_load (void)
{
  return fake_gpu_noop_kernels () || fake_gpu_emulating ();
}

/* Emulating, device memory is pages the CPU may not touch (PROT_NONE)
 * but while the stand-in itself copies, sets or runs a kernel, ending at
 * a page that is never opened: a kernel that reads or writes past an
 * allocation's end (by more than its rounding to EMU_ALIGN) faults, as
 * host code that touches device memory does. */
static void
emu_map (Allocation * a)
{
  gsize rounded = (a->size + EMU_ALIGN - 1) / EMU_ALIGN * EMU_ALIGN;
  gsize pages = (rounded + PAGE - 1) / PAGE;

  a->map_size = (pages + 1) * PAGE;
  a->map = mmap (NULL, a->map_size, PROT_READ | PROT_WRITE,
      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (a->map == MAP_FAILED)
    g_error ("%s: mmap of %" G_GSIZE_FORMAT " bytes failed", fake_gpu_label,
        a->map_size);
  a->base = a->map + pages * PAGE - rounded;
  memset (a->base, 0xa5, a->size);
  mprotect (a->map, a->map_size, PROT_NONE);
}

gpointer
fake_gpu_alloc (gsize size, gboolean device)
{
  Allocation *a = g_new0 (Allocation, 1);

  a->size = size;
  if (device && fake_gpu_emulating ()) {
    emu_map (a);
  } else {
    a->base = g_malloc0 (size);
    /* poison: fresh device memory is not zero on a GPU either */
    memset (a->base, 0xa5, size);
  }
  a->device = device;
  a->dev = current;
  g_mutex_lock (&lock);
  if (device && a->dev < 0)
    n_foreign++;
  else if (device)
    device_allocs[a->dev]++;
  if (device) {
    device_bytes += size;
    n_device_allocs_made++;
  } else {
    n_host_allocs_made++;
  }
  allocations = g_list_prepend (allocations, a);
  g_mutex_unlock (&lock);
  return a->base;
}

gint
fake_gpu_release (gpointer p, gboolean device)
{
  gint ret = FAKE_ERROR_INVALID_VALUE;

  g_mutex_lock (&lock);
  for (GList * l = allocations; l; l = l->next) {
    Allocation *a = l->data;
    if (a->base == p && a->device == device) {
      allocations = g_list_delete_link (allocations, l);
      if (device)
        device_bytes -= a->size;
      if (a->map)
        munmap (a->map, a->map_size);
      else
        g_free (a->base);
      g_free (a);
      ret = FAKE_SUCCESS;
      break;
    }
  }
  g_mutex_unlock (&lock);
  return ret;
}

guint
fake_gpu_lose_device (gint dev)
{
  guint n = 0;

  g_mutex_lock (&lock);
  for (GList * l = allocations; l; l = l->next) {
    Allocation *a = l->data;
    if (a->dev == dev) {
      a->dev = -1;
      n++;
    }
  }
  n_lost += n;
  g_mutex_unlock (&lock);
  return n;
}

/* Emulating, kernels reach device memory by its address: it is the
 * host's, guarded by its pages' protection instead. */
static guint64
device_offset (void)
{
  return fake_gpu_emulating ()? 0 : DEVICE_OFFSET;
}

guint8 *
fake_gpu_to_host (guint64 p)
{
  return (guint8 *) (guintptr) (p - device_offset ());
}

guint64
fake_gpu_to_device (gpointer p)
{
  return (guint64) (guintptr) p + device_offset ();
}

static GRecMutex device_access;

static void
protect_all (gint prot)
{
  g_mutex_lock (&lock);
  for (GList * l = allocations; l; l = l->next) {
    Allocation *a = l->data;
    /* the last page stays closed */
    if (a->map)
      mprotect (a->map, a->map_size - PAGE, prot);
  }
  g_mutex_unlock (&lock);
}

void
fake_gpu_device_begin (void)
{
  if (!fake_gpu_emulating ())
    return;
  g_rec_mutex_lock (&device_access);
  protect_all (PROT_READ | PROT_WRITE);
}

void
fake_gpu_device_end (void)
{
  if (!fake_gpu_emulating ())
    return;
  protect_all (PROT_NONE);
  g_rec_mutex_unlock (&device_access);
}

/* A zeroed argument list for asking a launcher whether it knows a name
 * (an empty grid runs nothing). */
static gboolean
launch_emulated (const gchar * name, const guint grid[3],
    const guint block[3], gpointer * args)
{
  for (guint i = 0; i < G_N_ELEMENTS (launchers); i++) {
    if (launchers[i] && launchers[i] (name, grid, block, args))
      return TRUE;
  }
  return FALSE;
}

gboolean
fake_gpu_kernel_known (const gchar * name)
{
  static guint8 zeros[16][1024];
  gpointer args[16];
  const guint none[3] = { 0, 0, 0 }, one[3] = { 1, 1, 1 };
  gboolean known;

  if (!fake_gpu_emulating ())
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (args); i++)
    args[i] = zeros[i];
  g_rec_mutex_lock (&device_access);
  known = launch_emulated (name, none, one, args);
  g_rec_mutex_unlock (&device_access);
  return known;
}

gboolean
fake_gpu_launch (const gchar * name, const guint grid[3],
    const guint block[3], gpointer * args)
{
  gboolean known;

  if (!fake_gpu_emulating ())
    return TRUE;
  fake_gpu_device_begin ();
  known = launch_emulated (name, grid, block, args);
  fake_gpu_device_end ();
  return known;
}

gboolean
fake_gpu_device_region_ok (const guint8 * p, gsize pitch, gsize width,
    gsize height)
{
  Allocation *a;

  if (height == 0 || width == 0)
    return TRUE;
  g_mutex_lock (&lock);
  a = find_allocation (p, (height - 1) * pitch + width, TRUE);
  if (a && (a->dev < 0 || a->dev != current))
    n_foreign++;
  g_mutex_unlock (&lock);
  return a != NULL;
}

gboolean
fake_gpu_host_region_pinned (const guint8 * p, gsize pitch, gsize width,
    gsize height)
{
  gboolean pinned;

  if (height == 0 || width == 0)
    return TRUE;
  g_mutex_lock (&lock);
  pinned = find_allocation (p, (height - 1) * pitch + width, FALSE) != NULL;
  g_mutex_unlock (&lock);
  return pinned;
}

gboolean
fake_gpu_noop_kernels (void)
{
  return g_strcmp0 (g_getenv ("VH_FAKE_CUDA_KERNELS"), "noop") == 0;
}

gboolean
fake_gpu_dma_mode (void)
{
  static gint dma = -1;

  if (dma < 0)
    dma = fake_gpu_noop_kernels () &&
        g_strcmp0 (g_getenv ("VH_FAKE_CUDA_COPIES"), "dma") == 0;
  return dma;
}

/* VH_FAKE_CUDA_LAUNCH_LOG=FILE: each distinct launch shape (kernel, block,
 * dynamic shared memory) the host makes is appended to FILE as a line
 * "NAME<TAB>BX<TAB>BY<TAB>BZ<TAB>SHARED", once per process (several
 * processes may append to one file), for the check of the code objects'
 * resources against the launches (check-kernel-resources.py). */
void
fake_gpu_log_launch (const gchar * name, const guint block[3], guint shared)
{
  static GHashTable *seen;
  const gchar *path = g_getenv ("VH_FAKE_CUDA_LAUNCH_LOG");
  g_autofree gchar *line = NULL;
  gboolean fresh;

  if (!path || !*path)
    return;
  line = g_strdup_printf ("%s\t%u\t%u\t%u\t%u\n", name, block[0], block[1],
      block[2], shared);
  g_mutex_lock (&lock);
  if (!seen)
    seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  fresh = g_hash_table_add (seen, g_strdup (line));
  if (fresh) {
    FILE *f = fopen (path, "a");
    if (f) {
      fputs (line, f);
      fclose (f);
    }
  }
  g_mutex_unlock (&lock);
}

void
fake_gpu_count_upload (void)
{
  g_atomic_int_inc (&n_uploads);
}

void
fake_gpu_count_copied (gsize bytes)
{
  if (current < 0)
    return;
  g_mutex_lock (&lock);
  device_copied[current] += bytes;
  g_mutex_unlock (&lock);
}

void
fake_gpu_count_host_wait (void)
{
  g_atomic_int_inc (&n_host_waits);
}

void
fake_gpu_count_device_wait (void)
{
  g_atomic_int_inc (&n_device_waits);
}

void
fake_gpu_count_module_load (void)
{
  g_atomic_int_inc (&n_module_loads);
}

/* For tests: how often the code allocated and waited for the "GPU" from
 * the host, since the start. */
FAKE_EXPORT void
vh_fake_cuda_call_counts (guint * host_allocs, guint * device_allocs,
    guint * host_waits)
{
  g_mutex_lock (&lock);
  *host_allocs = n_host_allocs_made;
  *device_allocs = n_device_allocs_made;
  g_mutex_unlock (&lock);
  *host_waits = g_atomic_int_get (&n_host_waits);
}

/* For tests: how often a stream was made to wait for an event (a wait on
 * the device instead of the host). */
FAKE_EXPORT guint
vh_fake_cuda_n_device_waits (void)
{
  return g_atomic_int_get (&n_device_waits);
}

/* For tests: how many host-to-device copies were asked for. */
FAKE_EXPORT guint
vh_fake_cuda_n_uploads (void)
{
  return g_atomic_int_get (&n_uploads);
}

FAKE_EXPORT guint
vh_fake_cuda_n_module_loads (void)
{
  return g_atomic_int_get (&n_module_loads);
}

/* For tests: what is still allocated. */
FAKE_EXPORT guint
vh_fake_cuda_n_allocations (void)
{
  guint n;

  g_mutex_lock (&lock);
  n = g_list_length (allocations);
  g_mutex_unlock (&lock);
  return n;
}

/* Allocations still alive when their context went (what a leak checker
 * reports). */
FAKE_EXPORT guint
vh_fake_cuda_n_lost (void)
{
  guint n;

  g_mutex_lock (&lock);
  n = n_lost;
  g_mutex_unlock (&lock);
  return n;
}

/* Device memory made or touched outside its own device. */
FAKE_EXPORT guint
vh_fake_cuda_n_foreign (void)
{
  guint n;

  g_mutex_lock (&lock);
  n = n_foreign;
  g_mutex_unlock (&lock);
  return n;
}

/* Device allocations made on @dev, and bytes copied while it was
 * current, since the start. */
FAKE_EXPORT void
vh_fake_cuda_device_counts (gint dev, guint * n_allocs, gsize * n_copied)
{
  g_mutex_lock (&lock);
  *n_allocs = dev >= 0 && dev < FAKE_MAX_DEVICES ? device_allocs[dev] : 0;
  *n_copied = dev >= 0 && dev < FAKE_MAX_DEVICES ? device_copied[dev] : 0;
  g_mutex_unlock (&lock);
}

/* VH_FAKE_CUDA_EXIT_CHECK: what outlives the process is a leak. */
static void check_at_exit (void) __attribute__ ((destructor));

static void
check_at_exit (void)
{
  gsize bytes = 0;
  guint n = 0, n_handles;

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
    fprintf (stderr, "%s: %u faults injected, %u calls refused after the "
        "context was lost\n", fake_gpu_label, n_faults, n_refused);
  n_handles = fake_gpu_vendor_leaks ();
  if (n == 0 && n_lost == 0 && n_handles == 0)
    return;
  fprintf (stderr, "%s: %u allocations (%" G_GSIZE_FORMAT
      " bytes) alive at exit, %u lost with their context, %u streams and "
      "events alive\n", fake_gpu_label, n, bytes, n_lost, n_handles);
  _exit (86);
}
