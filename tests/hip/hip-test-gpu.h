/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_HIP_TEST_GPU_H__
#define __VH_HIP_TEST_GPU_H__

#include "vhhip.h"

#include <stdio.h>
#include <stdlib.h>

/* Exit status that meson counts as a skipped test. */
#define VH_TEST_SKIP 77

/* Opens GPU 0, or exits with VH_TEST_SKIP saying why there is none. A
 * runtime that is there but fails otherwise is a failure. */
static inline VhHipDevice *
vh_hip_test_open_gpu_or_skip (void)
{
  GError *error = NULL;
  VhHipVendor vendor = vh_hip_load (VH_HIP_VENDOR_UNKNOWN, &error);
  VhHipDevice *device;

  if (vendor == VH_HIP_VENDOR_UNKNOWN) {
    printf ("SKIP: no GPU: %s\n", error->message);
    exit (VH_TEST_SKIP);
  }
  device = vh_hip_device_open (vendor, 0, &error);
  if (!device) {
    printf ("FAIL: %s\n", error->message);
    exit (1);
  }
  printf ("# %s: device 0 is %s (%s), %u multiprocessors, %.1f GiB\n",
      vh_hip_runtime_describe (vendor), vh_hip_device_get_info (device)->name,
      vh_hip_device_get_info (device)->arch,
      vh_hip_device_get_info (device)->multiprocessors,
      vh_hip_device_get_info (device)->total_memory / 1073741824.0);
  return device;
}

#endif /* __VH_HIP_TEST_GPU_H__ */
