/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Every HIP twin class, one line each: VH_HIP_TWIN (symbol). Included by
 * hip-features.c with VH_HIP_TWIN defined (no include guard on purpose).
 * A twin lives in hip/features/hip-<cpu file name>.c, listed in
 * hip/features/meson.build with its kernel module. */

VH_HIP_TWIN (vh_hip_fex_psnr)
VH_HIP_TWIN (vh_hip_fex_float_psnr)
VH_HIP_TWIN (vh_hip_fex_integer_motion)
VH_HIP_TWIN (vh_hip_fex_integer_vif)
VH_HIP_TWIN (vh_hip_fex_float_ssim)
VH_HIP_TWIN (vh_hip_fex_float_ms_ssim)
VH_HIP_TWIN (vh_hip_fex_integer_adm)
VH_HIP_TWIN (vh_hip_fex_float_moment)
VH_HIP_TWIN (vh_hip_fex_float_ansnr)
VH_HIP_TWIN (vh_hip_fex_ciede)
VH_HIP_TWIN (vh_hip_fex_float_motion)
VH_HIP_TWIN (vh_hip_fex_float_vif)
VH_HIP_TWIN (vh_hip_fex_cambi)
VH_HIP_TWIN (vh_hip_fex_float_adm)
VH_HIP_TWIN (vh_hip_fex_psnr_hvs)
VH_HIP_TWIN (vh_hip_fex_speed_chroma)
VH_HIP_TWIN (vh_hip_fex_speed_temporal)
