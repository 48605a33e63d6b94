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

/* What the fake CUDA driver (tests/hip/fake-cuda.c) counts, read from the
 * copy the HIP layer loaded. Header-only: a test that links no HIP code
 * (only the plugin file) uses it too. */

#include <glib.h>

#include <dlfcn.h>

typedef struct
{
  guint n_allocations;          /* device and page-locked, alive */
  gint primary_refs;            /* primary-context references held */
  guint n_lost;                 /* allocations lost with their context */
} VhFakeCudaCounters;

/* Reads the counters; FALSE when the fake driver is not the one loaded
 * (a real GPU). The reference dlopen() takes is kept on purpose: the
 * counters must outlive the HIP layer's own reference. */
static inline gboolean
vh_fake_cuda_counters (VhFakeCudaCounters * c)
{
  const gchar *path = g_getenv ("VH_HIP_NVIDIA_RUNTIME");
  gpointer lib = path ? dlopen (path, RTLD_NOW | RTLD_NOLOAD) : NULL;
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

typedef struct
{
  guint host_allocs;            /* page-locked allocations made, ever */
  guint device_allocs;          /* device allocations made, ever */
  guint host_waits;             /* stream and event synchronisations */
  guint uploads;                /* host-to-device copy calls */
} VhFakeCudaCalls;

/* Reads how often the code called those; FALSE on a real GPU. */
static inline gboolean
vh_fake_cuda_calls (VhFakeCudaCalls * c)
{
  const gchar *path = g_getenv ("VH_HIP_NVIDIA_RUNTIME");
  gpointer lib = path ? dlopen (path, RTLD_NOW | RTLD_NOLOAD) : NULL;
  void (*counts) (guint *, guint *, guint *);
  guint (*uploads) (void);

  if (!lib)
    return FALSE;
  counts = dlsym (lib, "vh_fake_cuda_call_counts");
  uploads = dlsym (lib, "vh_fake_cuda_n_uploads");
  if (!counts || !uploads)
    return FALSE;
  counts (&c->host_allocs, &c->device_allocs, &c->host_waits);
  c->uploads = uploads ();
  return TRUE;
}

#endif /* __VH_FAKE_CUDA_COUNTERS_H__ */
