/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Faults injected on a real GPU, for the tests of what happens when one
 * fails (tests/hip/test-gpu-faults.py in its gpu mode, under
 * compute-sanitizer): VH_HIP_FAULT="KIND:N[,KIND:N...]" makes the Nth call
 * of a kind (from 1, over the process) fail once, with the code a driver
 * gives (the same number in HIP and CUDA):
 *   alloc   device allocations, not made: out of memory (2)
 *   launch  kernel launches, not made: too many resources requested (701)
 *   sync    stream and event synchronisations, made: launch failure (719);
 *           only those whose caller takes the error (a clean-up's wait has
 *           nothing to report it to, and on a GPU whether it waits at all
 *           depends on timing, which would make the Nth call a matter of
 *           chance)
 * The fake CUDA driver (tests/hip/fake-cuda.c) injects the same faults
 * below this layer, where there is no GPU. */

#include "hip-backend-private.h"

#include <stdlib.h>
#include <string.h>

static const struct
{
  const gchar *name;
  gint code;
} kinds[VH_HIP_N_FAULTS] = {
  {"alloc", 2},
  {"launch", 701},
  {"sync", 719},
};

static guint fault_at[VH_HIP_N_FAULTS];
static gint n_calls[VH_HIP_N_FAULTS];

static void
parse_faults (void)
{
  static gsize once;

  if (g_once_init_enter (&once)) {
    const gchar *env = g_getenv ("VH_HIP_FAULT");
    gchar **specs = g_strsplit (env ? env : "", ",", -1);

    for (guint i = 0; specs[i]; i++) {
      gchar **kv = g_strsplit (specs[i], ":", 2);
      for (guint k = 0; kv[0] && kv[1] && k < VH_HIP_N_FAULTS; k++) {
        if (!strcmp (g_strstrip (kv[0]), kinds[k].name))
          fault_at[k] = (guint) atoi (kv[1]);
      }
      g_strfreev (kv);
    }
    g_strfreev (specs);
    g_once_init_leave (&once, 1);
  }
}

gint
vh_hip_fault_code (VhHipFaultKind kind)
{
  parse_faults ();
  if (!fault_at[kind])
    return 0;
  if ((guint) g_atomic_int_add (&n_calls[kind], 1) + 1 != fault_at[kind])
    return 0;
  g_printerr ("vmafhip: VH_HIP_FAULT: %s call %u fails\n", kinds[kind].name,
      fault_at[kind]);
  return kinds[kind].code;
}
