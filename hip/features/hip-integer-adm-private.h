/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Private to the HIP twin of integer ADM (and its GPU test). */

#ifndef __VH_HIP_INTEGER_ADM_PRIVATE_H__
#define __VH_HIP_INTEGER_ADM_PRIVATE_H__

#include "hip-fex-common.h"
#include "features/integer-adm.h"

G_BEGIN_DECLS

extern const VhHipKernelSource vh_hip_kernel_adm;

/* Tile of the scoring kernel (VH_ADM_TW x VH_ADM_TH in adm.hip). */
#define VH_HIP_ADM_TW 32
#define VH_HIP_ADM_TH 8
/* Sums a scale: den[3], detail loss num[3], AIM num[3], the CPU twin's
 * VhAdmSums. */
#define VH_HIP_ADM_N_SUMS 9

G_STATIC_ASSERT (sizeof (VhAdmSums) == VH_HIP_ADM_N_SUMS * sizeof (guint64));

/* struct VhAdmGpuScale of hip/features/kernels/adm.hip, field for field:
 * one scale's geometry, fixed-point constants and device buffers. */
typedef struct
{
  guint64 a_in[2];
  guint64 a_out[2];
  guint64 band[2][3];
  guint64 partial;
  gint64 vadd, hadd;
  gint64 cm_sq_add[3], cm_cub_add[3];
  gint64 cm_row_add;
  guint64 den_sq_add, den_cub_add, den_row_add;
  gdouble gain_limit;
  gint32 wi, hi, wb, hb;
  gint32 pitch, in_pitch;
  gint32 left, top, right, bottom;
  gint32 ncb, nrb, block0;
  gint32 vshift, hshift, fix_last;
  gint32 stale_zero[2], stale_pic[2], stale_hi[2], stale_col[2];
  gint32 round_x0, round_x1, wide_x0, wide_x1;
  gint32 signed_x0, signed_x1, signed_y0, signed_y1, wide_gains;
  gint32 gain16[3], csf_add16[3], csf_shift16[3];
  guint32 gain32[3];
  gint32 cm_sub[3], cm_sq_shift[3], cm_cub_shift[3];
  gint32 den_sq_shift, den_cub_shift, den_row_shift, cm_row_shift;
  gfloat cos1_sq;
  gint32 bpc;
} VhHipAdmGpuScale;

G_STATIC_ASSERT (sizeof (VhHipAdmGpuScale) == 432);

typedef struct
{
  VhHipFex hip;
  VhIntegerAdm adm;             /* options and host constants */
  VhHipAdmGpuScale gpu[VH_ADM_N_SCALES];

  gint first;                   /* first scored scale: 1 with skip_scale0 */
  guint score_blocks;

  gpointer d_params;            /* gpu[] on the device */
  gpointer d_buffers;           /* bands, planes and row sums */
  VhHipFunction *dwt0, *dwt, *score, *reduce;
} VhHipAdmPriv;

/* Kernel parameters and buffers, in init once p->adm is set up and the
 * shared part (p->hip) is initialised. */
gboolean     vh_hip_adm_device_init     (VhHipAdmPriv * p, guint bpc,
                                         GError ** error);

void         vh_hip_adm_device_close    (VhHipAdmPriv * p);

/* Queues one frame's kernels on the twin's stream; the 4 x 9 sums are
 * added into @d_out (device memory, zeroed beforehand). For the twin's
 * extract, and for timing. */
gboolean     vh_hip_adm_enqueue         (VhFeatureExtractor * fex,
                                         const VhPicture * ref,
                                         const VhPicture * dist,
                                         gpointer d_out, GError ** error);

G_END_DECLS

#endif /* __VH_HIP_INTEGER_ADM_PRIVATE_H__ */
