/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The frame-probe kernels (hip/features/kernels/frame-probe.hip) on the
 * host through kernel-emu.h, launched by name by the GPU stand-ins
 * (fake-gpu.c, VH_FAKE_CUDA_KERNELS=emulate): the element's alignment
 * signatures and black and freeze sums of frames in device memory. */

#include <cstring>

#include "kernel-emu.h"
#include "frame-probe.hip"

extern "C" int
vh_emu_probe_launch (const char *name, const unsigned int g[3],
    const unsigned int b[3], void **args)
{
  const dim3 grid = { g[0], g[1], g[2] }, block = { b[0], b[1], b[2] };
  const struct vh_probe_plane plane = *(const struct vh_probe_plane *)
      args[0];

  if (!strcmp (name, "vh_probe_signature_u8") ||
      !strcmp (name, "vh_probe_signature_u16")) {
    vh_u64 *cells = *(vh_u64 **) args[1];

    if (!strcmp (name, "vh_probe_signature_u8"))
      vh_emu_launch (grid, block, [&] { vh_probe_signature_u8 (plane,
                cells); });
    else
      vh_emu_launch (grid, block, [&] { vh_probe_signature_u16 (plane,
                cells); });
    return 1;
  }
  if (!strcmp (name, "vh_probe_samples_u8") ||
      !strcmp (name, "vh_probe_samples_u16")) {
    const struct vh_probe_grid sg = *(const struct vh_probe_grid *) args[1];
    unsigned short *cur = *(unsigned short **) args[2];
    const unsigned short *prev = *(const unsigned short **) args[3];
    vh_u64 *sums = *(vh_u64 **) args[4];

    if (!strcmp (name, "vh_probe_samples_u8"))
      vh_emu_launch (grid, block, [&] { vh_probe_samples_u8 (plane, sg,
                cur, prev, sums); });
    else
      vh_emu_launch (grid, block, [&] { vh_probe_samples_u16 (plane, sg,
                cur, prev, sums); });
    return 1;
  }
  return 0;
}
