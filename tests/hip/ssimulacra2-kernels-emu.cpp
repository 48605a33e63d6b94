/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The ssimulacra2 kernels (hip/features/kernels/ssimulacra2.hip) on the
 * host through kernel-emu.h, launched by name for test-twins-emulated
 * (hip-fex-emu.c) and the GPU stand-ins (fake-gpu.c). Every kernel takes
 * the same two arguments. */

#include <math.h>
#include <string.h>

#include "kernel-emu.h"
#include "ssimulacra2.hip"

typedef void (*Ssimu2Kernel) (struct vh_ssimu2_args, double *);

static const struct
{
  const char *name;
  Ssimu2Kernel kernel;
} ssimu2_kernels[] = {
  {"vh_ssimu2_pyramid", vh_ssimu2_pyramid},
  {"vh_ssimu2_blur_rows", vh_ssimu2_blur_rows},
  {"vh_ssimu2_blur_cols", vh_ssimu2_blur_cols},
  {"vh_ssimu2_rows", vh_ssimu2_rows},
  {"vh_ssimu2_total", vh_ssimu2_total},
};

extern "C" int
vh_emu_ssimu2_launch (const char *name, const unsigned int g[3],
    const unsigned int b[3], void **args)
{
  const dim3 grid = { g[0], g[1], g[2] }, block = { b[0], b[1], b[2] };

  for (const auto &k : ssimu2_kernels) {
    if (strcmp (name, k.name) == 0) {
      const struct vh_ssimu2_args a = *(const struct vh_ssimu2_args *) args[0];
      double *out = *(double **) args[1];
      Ssimu2Kernel kernel = k.kernel;

      vh_emu_launch (grid, block, [&] { kernel (a, out); });
      return 1;
    }
  }
  return 0;
}
