/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __VH_KERNEL_EMU_LAUNCH_H__
#define __VH_KERNEL_EMU_LAUNCH_H__

/* The kernels on the host (*-kernels-emu.cpp, through kernel-emu.h), as C
 * sees them: each launcher runs the kernel @name of its module over @grid
 * and returns 1, or returns 0 for a name it does not know. Used by
 * test-twins-emulated (hip-fex-emu.c) and by the GPU stand-ins
 * (fake-gpu.c, VH_FAKE_CUDA_KERNELS=emulate). */

typedef int (*VhEmuLauncher) (const char *name, const unsigned int grid[3],
    const unsigned int block[3], void **args);

int          vh_emu_speed_launch        (const char *name,
                                         const unsigned int grid[3],
                                         const unsigned int block[3],
                                         void **args);
int          vh_emu_adm_launch          (const char *name,
                                         const unsigned int grid[3],
                                         const unsigned int block[3],
                                         void **args);
int          vh_emu_motion_launch       (const char *name,
                                         const unsigned int grid[3],
                                         const unsigned int block[3],
                                         void **args);
int          vh_emu_float_launch        (const char *name,
                                         const unsigned int grid[3],
                                         const unsigned int block[3],
                                         void **args);
int          vh_emu_ssimu2_launch       (const char *name,
                                         const unsigned int grid[3],
                                         const unsigned int block[3],
                                         void **args);
int          vh_emu_psnr_launch         (const char *name,
                                         const unsigned int grid[3],
                                         const unsigned int block[3],
                                         void **args);
int          vh_emu_probe_launch        (const char *name,
                                         const unsigned int grid[3],
                                         const unsigned int block[3],
                                         void **args);

#endif /* __VH_KERNEL_EMU_LAUNCH_H__ */
