/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __VH_FAKE_CUDA_COUNTERS_H__
#define __VH_FAKE_CUDA_COUNTERS_H__

/* What the fake CUDA driver (tests/hip/fake-cuda.c) or the fake AMD HIP
 * runtime (fake-hip-amd.c, the same counters) counts, read from the copy
 * the HIP layer loaded. Header-only: a test that links no HIP code
 * (only the plugin file) uses it too, and so do the HIP layer's own. */

#include <glib.h>

#include <dlfcn.h>

/* The stand-in the HIP layer loaded, or NULL (a real GPU). The
 * reference dlopen() takes is kept on purpose: the counters must outlive
 * the HIP layer's own reference. */
static inline gpointer
vh_fake_cuda_library (void)
{
  static const gchar *const vars[] = { "VH_HIP_NVIDIA_RUNTIME",
    "VH_HIP_AMD_RUNTIME"
  };

  for (guint i = 0; i < G_N_ELEMENTS (vars); i++) {
    const gchar *path = g_getenv (vars[i]);
    gpointer lib = path ? dlopen (path, RTLD_NOW | RTLD_NOLOAD) : NULL;

    if (lib && dlsym (lib, "vh_fake_cuda_n_allocations"))
      return lib;
  }
  return NULL;
}

typedef struct
{
  guint n_allocations;          /* device and page-locked, alive */
  gint primary_refs;            /* primary-context references held */
  guint n_lost;                 /* allocations lost with their context */
} VhFakeCudaCounters;

/* Reads the counters; FALSE when the fake driver is not the one loaded
 * (a real GPU). */
static inline gboolean
vh_fake_cuda_counters (VhFakeCudaCounters * c)
{
  gpointer lib = vh_fake_cuda_library ();
  guint (*n_allocations) (void);
  gint (*primary_refs) (void);
  guint (*n_lost) (void);

  if (!lib)
    return FALSE;
  n_allocations = dlsym (lib, "vh_fake_cuda_n_allocations");
  primary_refs = dlsym (lib, "vh_fake_cuda_primary_refs");
  n_lost = dlsym (lib, "vh_fake_cuda_n_lost");
  if (!n_allocations || !primary_refs || !n_lost)
    return FALSE;
  c->n_allocations = n_allocations ();
  c->primary_refs = primary_refs ();
  c->n_lost = n_lost ();
  return TRUE;
}

/* After every pipeline is disposed nothing of the GPU is held: no device
 * or page-locked memory, no context (checked on the fake driver; nothing
 * on a real GPU). */
static inline void
vh_fake_cuda_assert_all_freed (const gchar * what)
{
  VhFakeCudaCounters c;

  if (!vh_fake_cuda_counters (&c))
    return;
  if (c.n_allocations != 0 || c.primary_refs != 0 || c.n_lost != 0)
    g_error ("%s: %u allocations and %d context references left, %u "
        "allocations lost with their context", what, c.n_allocations,
        c.primary_refs, c.n_lost);
}

typedef struct
{
  guint host_allocs;            /* page-locked allocations made, ever */
  guint device_allocs;          /* device allocations made, ever */
  guint host_waits;             /* stream and event synchronisations */
  guint device_waits;           /* streams made to wait for an event */
  guint uploads;                /* host-to-device copy calls */
} VhFakeCudaCalls;

/* Reads how often the code called those; FALSE on a real GPU. */
static inline gboolean
vh_fake_cuda_calls (VhFakeCudaCalls * c)
{
  gpointer lib = vh_fake_cuda_library ();
  void (*counts) (guint *, guint *, guint *);
  guint (*uploads) (void);
  guint (*device_waits) (void);

  if (!lib)
    return FALSE;
  counts = dlsym (lib, "vh_fake_cuda_call_counts");
  uploads = dlsym (lib, "vh_fake_cuda_n_uploads");
  device_waits = dlsym (lib, "vh_fake_cuda_n_device_waits");
  if (!counts || !uploads || !device_waits)
    return FALSE;
  counts (&c->host_allocs, &c->device_allocs, &c->host_waits);
  c->device_waits = device_waits ();
  c->uploads = uploads ();
  return TRUE;
}

/* Kernel modules loaded so far (@n); FALSE on a real GPU. */
static inline gboolean
vh_fake_cuda_module_loads (guint * n)
{
  gpointer lib = vh_fake_cuda_library ();
  guint (*module_loads) (void);

  if (!lib || !(module_loads = dlsym (lib, "vh_fake_cuda_n_module_loads")))
    return FALSE;
  *n = module_loads ();
  return TRUE;
}

/* Device allocations made so far in the context of each of the first
 * @n_devices devices, and device memory made or touched outside its own
 * device's context (@n_foreign); FALSE on a real GPU. */
static inline gboolean
vh_fake_cuda_devices (guint n_devices, guint * n_allocs, guint * n_foreign)
{
  gpointer lib = vh_fake_cuda_library ();
  void (*device_counts) (gint, guint *, gsize *);
  guint (*foreign) (void);
  gsize copied;

  if (!lib)
    return FALSE;
  device_counts = dlsym (lib, "vh_fake_cuda_device_counts");
  foreign = dlsym (lib, "vh_fake_cuda_n_foreign");
  if (!device_counts || !foreign)
    return FALSE;
  for (guint d = 0; d < n_devices; d++)
    device_counts ((gint) d, &n_allocs[d], &copied);
  *n_foreign = foreign ();
  return TRUE;
}

#endif /* __VH_FAKE_CUDA_COUNTERS_H__ */
