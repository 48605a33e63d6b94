/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The psnr and float_psnr kernels (hip/features/kernels/psnr.hip) on the
 * host through kernel-emu.h, launched by name by the GPU stand-ins
 * (fake-gpu.c, VH_FAKE_CUDA_KERNELS=emulate): the HIP layer's own probe
 * of a device launches one, and the psnr twins run on it. */

#include <cstring>

#include "kernel-emu.h"
#include "psnr.hip"

extern "C" int
vh_emu_psnr_launch (const char *name, const unsigned int g[3],
    const unsigned int b[3], void **args)
{
  const dim3 grid = { g[0], g[1], g[2] }, block = { b[0], b[1], b[2] };
  const struct vh_psnr_planes planes = *(const struct vh_psnr_planes *)
      args[0];
  vh_u64 *sse = *(vh_u64 **) args[1];

  if (!strcmp (name, "vh_psnr_sse_u8"))
    vh_emu_launch (grid, block, [&] { vh_psnr_sse_u8 (planes, sse); });
  else if (!strcmp (name, "vh_psnr_sse_u16"))
    vh_emu_launch (grid, block, [&] { vh_psnr_sse_u16 (planes, sse); });
  else if (!strcmp (name, "vh_psnr_sse_u16_f32"))
    vh_emu_launch (grid, block, [&] { vh_psnr_sse_u16_f32 (planes, sse); });
  else
    return 0;
  return 1;
}
