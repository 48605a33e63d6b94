/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The kernels of the float_motion, float_vif, float_adm and psnr_hvs
 * twins (hip/features/kernels/float-*.hip, psnr-hvs.hip) on the host
 * through kernel-emu.h, launched by name for test-twins-emulated
 * (hip-fex-emu.c). */

#include <math.h>
#include <string.h>

#include "kernel-emu.h"


#include "float-motion.hip"
#include "float-scale.hip"
#include "float-vif.hip"
#include "float-adm.hip"
#include "psnr-hvs.hip"

/* Argument @i of a launch, as type @T. */
#define ARG(T, i) (*(T *) args[i])

typedef void (*ScaleKernel) (const float *, vh_u64, unsigned int,
    unsigned int, float *, vh_u64, unsigned int, unsigned int);

static int
float_motion_launch (const char *name, dim3 g, dim3 b, void **args)
{
  if (!strcmp (name, "vh_fmotion_vblur_u8")) {
    const struct vh_fmotion_blur_args a = ARG (struct vh_fmotion_blur_args, 0);
    vh_emu_launch (g, b, [&] { vh_fmotion_vblur_u8 (a); });
  } else if (!strcmp (name, "vh_fmotion_vblur_u16")) {
    const struct vh_fmotion_blur_args a = ARG (struct vh_fmotion_blur_args, 0);
    vh_emu_launch (g, b, [&] { vh_fmotion_vblur_u16 (a); });
  } else if (!strcmp (name, "vh_fmotion_hblur")) {
    const struct vh_fmotion_blur_args a = ARG (struct vh_fmotion_blur_args, 0);
    vh_emu_launch (g, b, [&] { vh_fmotion_hblur (a); });
  } else if (!strcmp (name, "vh_fmotion_sad_rows")) {
    vh_emu_launch (g, b, [&] {
          vh_fmotion_sad_rows (ARG (const float *, 0), ARG (const float *, 1),
              ARG (vh_u64, 2), ARG (unsigned int, 3), ARG (unsigned int, 4),
              ARG (float *, 5));
        });
  } else if (!strcmp (name, "vh_fmotion_sad_total")) {
    vh_emu_launch (g, b, [&] {
          vh_fmotion_sad_total (ARG (const float *, 0), ARG (unsigned int, 1),
              ARG (float *, 2));
        });
  } else {
    return 0;
  }
  return 1;
}

static int
float_scale_launch (const char *name, dim3 g, dim3 b, void **args)
{
  ScaleKernel k = NULL;

  if (!strcmp (name, "vh_fscale_lanczos4")) {
    vh_emu_launch (g, b, [&] {
          vh_fscale_lanczos4 (ARG (const float *, 0), ARG (vh_u64, 1),
              ARG (unsigned int, 2), ARG (unsigned int, 3), ARG (float *, 4),
              ARG (vh_u64, 5), ARG (unsigned int, 6), ARG (unsigned int, 7),
              ARG (const int *, 8), ARG (const float *, 9),
              ARG (const int *, 10), ARG (const float *, 11));
        });
    return 1;
  }
  if (!strcmp (name, "vh_fscale_nearest"))
    k = vh_fscale_nearest;
  else if (!strcmp (name, "vh_fscale_bilinear"))
    k = vh_fscale_bilinear;
  else if (!strcmp (name, "vh_fscale_bicubic"))
    k = vh_fscale_bicubic;
  else
    return 0;
  vh_emu_launch (g, b, [&] {
        k (ARG (const float *, 0), ARG (vh_u64, 1), ARG (unsigned int, 2),
            ARG (unsigned int, 3), ARG (float *, 4), ARG (vh_u64, 5),
            ARG (unsigned int, 6), ARG (unsigned int, 7));
      });
  return 1;
}

static int
float_vif_launch (const char *name, dim3 g, dim3 b, void **args)
{
  if (!strcmp (name, "vh_fvif_load_u8") || !strcmp (name, "vh_fvif_load_u16")) {
    const bool deep = !strcmp (name, "vh_fvif_load_u16");
    vh_emu_launch (g, b, [&] {
          if (deep)
            vh_fvif_load_u16 (ARG (const unsigned char *, 0), ARG (vh_u64, 1),
                ARG (unsigned int, 2), ARG (unsigned int, 3),
                ARG (unsigned int, 4), ARG (float, 5), ARG (float *, 6));
          else
            vh_fvif_load_u8 (ARG (const unsigned char *, 0), ARG (vh_u64, 1),
                ARG (unsigned int, 2), ARG (unsigned int, 3),
                ARG (unsigned int, 4), ARG (float, 5), ARG (float *, 6));
        });
  } else if (!strcmp (name, "vh_fvif_vpass")) {
    vh_emu_launch (g, b, [&] {
          vh_fvif_vpass (ARG (const float *, 0), ARG (unsigned int, 1),
              ARG (unsigned int, 2), ARG (const float *, 3),
              ARG (unsigned int, 4), ARG (float *, 5));
        });
  } else if (!strcmp (name, "vh_fvif_hpass_even")) {
    vh_emu_launch (g, b, [&] {
          vh_fvif_hpass_even (ARG (const float *, 0), ARG (unsigned int, 1),
              ARG (unsigned int, 2), ARG (const float *, 3),
              ARG (unsigned int, 4), ARG (float *, 5));
        });
  } else if (!strcmp (name, "vh_fvif_moments")) {
    const struct vh_fvif_scale_args a = ARG (struct vh_fvif_scale_args, 0);
    vh_emu_launch (g, b, [&] { vh_fvif_moments (a); });
  } else if (!strcmp (name, "vh_fvif_stats")) {
    const struct vh_fvif_scale_args a = ARG (struct vh_fvif_scale_args, 0);
    vh_emu_launch (g, b, [&] { vh_fvif_stats (a); });
  } else if (!strcmp (name, "vh_fvif_rows")) {
    const struct vh_fvif_scale_args a = ARG (struct vh_fvif_scale_args, 0);
    vh_emu_launch (g, b, [&] { vh_fvif_rows (a); });
  } else if (!strcmp (name, "vh_fvif_total")) {
    const struct vh_fvif_scale_args a = ARG (struct vh_fvif_scale_args, 0);
    float *out = ARG (float *, 1);
    vh_emu_launch (g, b, [&] { vh_fvif_total (a, out); });
  } else {
    return 0;
  }
  return 1;
}

static int
float_adm_launch (const char *name, dim3 g, dim3 b, void **args)
{
  if (!strcmp (name, "vh_fadm_dwt")) {
    vh_emu_launch (g, b, [&] {
          vh_fadm_dwt (ARG (const float *, 0), ARG (vh_u64, 1), ARG (int, 2),
              ARG (int, 3), ARG (float *, 4), ARG (float *, 5),
              ARG (float *, 6), ARG (float *, 7), ARG (vh_u64, 8),
              ARG (int, 9));
        });
  } else if (!strcmp (name, "vh_fadm_decouple_bands")) {
    const struct vh_fadm_args a = ARG (struct vh_fadm_args, 0);
    vh_emu_launch (g, b, [&] { vh_fadm_decouple_bands (a); });
  } else if (!strcmp (name, "vh_fadm_terms")) {
    const struct vh_fadm_args a = ARG (struct vh_fadm_args, 0);
    vh_emu_launch (g, b, [&] { vh_fadm_terms (a); });
  } else if (!strcmp (name, "vh_fadm_rows")) {
    const struct vh_fadm_args a = ARG (struct vh_fadm_args, 0);
    vh_emu_launch (g, b, [&] { vh_fadm_rows (a); });
  } else if (!strcmp (name, "vh_fadm_total")) {
    const struct vh_fadm_args a = ARG (struct vh_fadm_args, 0);
    float *out = ARG (float *, 1);
    vh_emu_launch (g, b, [&] { vh_fadm_total (a, out); });
  } else {
    return 0;
  }
  return 1;
}

static int
psnr_hvs_launch (const char *name, dim3 g, dim3 b, void **args)
{
  if (!strcmp (name, "vh_hvs_blocks_u8")) {
    const struct vh_hvs_plane_args a = ARG (struct vh_hvs_plane_args, 0);
    vh_emu_launch (g, b, [&] { vh_hvs_blocks_u8 (a); });
  } else if (!strcmp (name, "vh_hvs_blocks_u16")) {
    const struct vh_hvs_plane_args a = ARG (struct vh_hvs_plane_args, 0);
    vh_emu_launch (g, b, [&] { vh_hvs_blocks_u16 (a); });
  } else if (!strcmp (name, "vh_hvs_sum")) {
    const struct vh_hvs_sum_args a = ARG (struct vh_hvs_sum_args, 0);
    float *out = ARG (float *, 1);
    vh_emu_launch (g, b, [&] { vh_hvs_sum (a, out); });
  } else {
    return 0;
  }
  return 1;
}

extern "C" int
vh_emu_float_launch (const char *name, const unsigned int grid[3],
    const unsigned int block[3], void **args)
{
  const dim3 g = { grid[0], grid[1], grid[2] };
  const dim3 b = { block[0], block[1], block[2] };

  return float_motion_launch (name, g, b, args) ||
      float_scale_launch (name, g, b, args) ||
      float_vif_launch (name, g, b, args) ||
      float_adm_launch (name, g, b, args) ||
      psnr_hvs_launch (name, g, b, args);
}
