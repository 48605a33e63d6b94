/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The SpEED kernels (hip/features/kernels/speed-filter.hip and
 * speed-solve.hip) on the host through kernel-emu.h, launched by name for
 * test-twins-emulated (hip-fex-emu.c). Built without contraction, as the
 * kernels' FMUL/FADD macros pin every rounding on a GPU. */

#include <cmath>
#include <cstring>

#include "kernel-emu.h"
#include "speed-filter.hip"
#include "speed-solve.hip"

extern "C" int
vh_emu_speed_launch (const char *name, const unsigned int g[3],
    const unsigned int b[3], void **args)
{
  const dim3 grid = { g[0], g[1], g[2] }, block = { b[0], b[1], b[2] };
  /* Read only once the name says which struct it is. */
  const vh_speed_filter_args &f = *(const vh_speed_filter_args *) args[0];
  const vh_speed_solve_args &s = *(const vh_speed_solve_args *) args[0];

  if (!strcmp (name, "vh_speed_vpass_u8"))
    vh_emu_launch (grid, block, [&] { vh_speed_vpass_u8 (f); });
  else if (!strcmp (name, "vh_speed_vpass_u16"))
    vh_emu_launch (grid, block, [&] { vh_speed_vpass_u16 (f); });
  else if (!strcmp (name, "vh_speed_decimate"))
    vh_emu_launch (grid, block, [&] { vh_speed_decimate (f); });
  else if (!strcmp (name, "vh_speed_cov"))
    vh_emu_launch (grid, block, [&] { vh_speed_cov (f); });
  else if (!strcmp (name, "vh_speed_estimate"))
    vh_emu_launch (grid, block, [&] { vh_speed_estimate (s); });
  else if (!strcmp (name, "vh_speed_entropy"))
    vh_emu_launch (grid, block, [&] { vh_speed_entropy (s); });
  else if (!strcmp (name, "vh_speed_pool"))
    vh_emu_launch (grid, block, [&] { vh_speed_pool (s); });
  else
    return 0;
  return 1;
}
