/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The integer motion kernels (hip/features/kernels/motion.hip) on the
 * host through kernel-emu.h, launched by name for test-twins-emulated
 * (hip-fex-emu.c). */

#include <cstring>

#include "kernel-emu.h"
#include "motion.hip"

extern "C" int
vh_emu_motion_launch (const char *name, const unsigned int grid[3],
    const unsigned int block[3], void **args)
{
  const dim3 g = { grid[0], grid[1], grid[2] };
  const dim3 b = { block[0], block[1], block[2] };

  if (!strcmp (name, "vh_motion_rows_u8") ||
      !strcmp (name, "vh_motion_rows_u16")) {
    const unsigned char *prev = *(const unsigned char **) args[0];
    const unsigned char *cur = *(const unsigned char **) args[1];
    const vh_u64 pitch = *(const vh_u64 *) args[2];
    const int w = *(const int *) args[3], h = *(const int *) args[4];
    const unsigned int bpc = *(const unsigned int *) args[5];
    unsigned int *row_sad = *(unsigned int **) args[6];
    if (!strcmp (name, "vh_motion_rows_u8"))
      vh_emu_launch (g, b, [&] {
            vh_motion_rows_u8 (prev, cur, pitch, w, h, bpc, row_sad);
          });
    else
      vh_emu_launch (g, b, [&] {
            vh_motion_rows_u16 (prev, cur, pitch, w, h, bpc, row_sad);
          });
  } else if (!strcmp (name, "vh_motion_total")) {
    const unsigned int *row_sad = *(const unsigned int **) args[0];
    const int h = *(const int *) args[1];
    vh_u64 *total = *(vh_u64 **) args[2];
    vh_emu_launch (g, b, [&] { vh_motion_total (row_sad, h, total); });
  } else {
    return 0;
  }
  return 1;
}
