/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Every HIP twin, one row each: the CPU class it stands in for, the twin
 * (hip/features/hip-<cpu file name>.c, listed in hip/features/meson.build)
 * and the kernel modules its init loads (kernels/meson.build). */

#include "hip-features.h"
#include "hip-psnr-sse.h"

extern const VhFeatureExtractorClass vh_hip_fex_psnr, vh_hip_fex_float_psnr,
    vh_hip_fex_integer_motion, vh_hip_fex_integer_vif, vh_hip_fex_float_ssim,
    vh_hip_fex_float_ms_ssim, vh_hip_fex_integer_adm, vh_hip_fex_float_moment,
    vh_hip_fex_float_ansnr, vh_hip_fex_ciede, vh_hip_fex_float_motion,
    vh_hip_fex_float_vif, vh_hip_fex_cambi, vh_hip_fex_float_adm,
    vh_hip_fex_psnr_hvs, vh_hip_fex_speed_chroma, vh_hip_fex_speed_temporal,
    vh_hip_fex_ssimulacra2;

extern const VhHipKernelSource vh_hip_kernel_adm, vh_hip_kernel_vif,
    vh_hip_kernel_motion, vh_hip_kernel_ssim, vh_hip_kernel_ssim_decimate,
    vh_hip_kernel_moment, vh_hip_kernel_ansnr, vh_hip_kernel_ciede,
    vh_hip_kernel_float_motion, vh_hip_kernel_float_scale,
    vh_hip_kernel_float_vif, vh_hip_kernel_cambi, vh_hip_kernel_float_adm,
    vh_hip_kernel_psnr_hvs, vh_hip_kernel_speed_filter,
    vh_hip_kernel_speed_solve, vh_hip_kernel_ssimulacra2;

const VhHipTwin vh_hip_twins[] = {
  {"psnr", &vh_hip_fex_psnr, {&vh_hip_kernel_psnr}},
  {"float_psnr", &vh_hip_fex_float_psnr, {&vh_hip_kernel_psnr}},
  {"motion", &vh_hip_fex_integer_motion, {&vh_hip_kernel_motion}},
  {"vif", &vh_hip_fex_integer_vif, {&vh_hip_kernel_vif}},
  {"float_ssim", &vh_hip_fex_float_ssim,
      {&vh_hip_kernel_ssim, &vh_hip_kernel_ssim_decimate}},
  {"float_ms_ssim", &vh_hip_fex_float_ms_ssim,
      {&vh_hip_kernel_ssim, &vh_hip_kernel_ssim_decimate}},
  {"adm", &vh_hip_fex_integer_adm, {&vh_hip_kernel_adm}},
  {"float_moment", &vh_hip_fex_float_moment, {&vh_hip_kernel_moment}},
  {"float_ansnr", &vh_hip_fex_float_ansnr, {&vh_hip_kernel_ansnr}},
  {"ciede", &vh_hip_fex_ciede, {&vh_hip_kernel_ciede}},
  {"float_motion", &vh_hip_fex_float_motion,
      {&vh_hip_kernel_float_motion, &vh_hip_kernel_float_scale}},
  {"float_vif", &vh_hip_fex_float_vif,
      {&vh_hip_kernel_float_vif, &vh_hip_kernel_float_scale}},
  {"cambi", &vh_hip_fex_cambi, {&vh_hip_kernel_cambi}},
  {"float_adm", &vh_hip_fex_float_adm, {&vh_hip_kernel_float_adm}},
  {"psnr_hvs", &vh_hip_fex_psnr_hvs, {&vh_hip_kernel_psnr_hvs}},
  {"speed_chroma", &vh_hip_fex_speed_chroma,
      {&vh_hip_kernel_speed_filter, &vh_hip_kernel_speed_solve}},
  {"speed_temporal", &vh_hip_fex_speed_temporal,
      {&vh_hip_kernel_speed_filter, &vh_hip_kernel_speed_solve}},
  {"ssimulacra2", &vh_hip_fex_ssimulacra2, {&vh_hip_kernel_ssimulacra2}},
  {NULL}
};
