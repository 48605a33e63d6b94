/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The integer ADM kernels (hip/features/kernels/adm.hip) on the host
 * through kernel-emu.h, launched by name for test-twins-emulated
 * (hip-fex-emu.c). */

#include <cmath>
#include <cstring>

#include "kernel-emu.h"

/* The device intrinsic adm.hip uses: leading zeros of a 32-bit word. */
static inline int
__clz (int x)
{
  return x ? __builtin_clz ((unsigned int) x) : 32;
}

#include "adm.hip"

extern "C" int
vh_emu_adm_launch (const char *name, const unsigned int grid[3],
    const unsigned int block[3], void **args)
{
  const dim3 g = { grid[0], grid[1], grid[2] };
  const dim3 b = { block[0], block[1], block[2] };
  const VhAdmGpuScale *sp = *(const VhAdmGpuScale **) args[0];

  if (!strcmp (name, "vh_adm_dwt0_u8") || !strcmp (name, "vh_adm_dwt0_u16")) {
    const unsigned char *ref = *(const unsigned char **) args[1];
    const vh_u64 ref_stride = *(const vh_u64 *) args[2];
    const unsigned char *dis = *(const unsigned char **) args[3];
    const vh_u64 dis_stride = *(const vh_u64 *) args[4];
    if (!strcmp (name, "vh_adm_dwt0_u8"))
      vh_emu_launch (g, b, [&] {
            vh_adm_dwt0_u8 (sp, ref, ref_stride, dis, dis_stride);
          });
    else
      vh_emu_launch (g, b, [&] {
            vh_adm_dwt0_u16 (sp, ref, ref_stride, dis, dis_stride);
          });
  } else if (!strcmp (name, "vh_adm_dwt")) {
    const int s = *(const int *) args[1];
    vh_emu_launch (g, b, [&] { vh_adm_dwt (sp, s); });
  } else if (!strcmp (name, "vh_adm_score")) {
    const int first = *(const int *) args[1];
    vh_emu_launch (g, b, [&] { vh_adm_score (sp, first); });
  } else if (!strcmp (name, "vh_adm_reduce")) {
    const int first = *(const int *) args[1];
    vh_u64 *out = *(vh_u64 **) args[2];
    vh_emu_launch (g, b, [&] { vh_adm_reduce (sp, first, out); });
  } else {
    return 0;
  }
  return 1;
}
