/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The row kernels of integer motion's SAD up to 12 bits, where the
 * differences, the tap pair sums and the split blurred rows all fit 16-bit
 * lanes: portable C, AVX2 and AVX-512 flavours that must give the very same
 * integers. */

#ifndef __VH_INTEGER_MOTION_PRIVATE_H__
#define __VH_INTEGER_MOTION_PRIVATE_H__

#include <glib.h>

G_BEGIN_DECLS

/* Blur taps (they sum to 65536): outer, inner, centre. */
#define VH_MOTION_TAP0 3571
#define VH_MOTION_TAP1 16004
#define VH_MOTION_TAP2 26386

/* Two 16-bit multipliers in one 32-bit lane, for the madd instructions. */
#define VH_MOTION_PAIR(lo, hi) \
  ((gint32) (((guint32) (hi) << 16) | (guint16) (lo)))

typedef struct
{
  /* prev - cur of @w samples (16-bit ones when @deep). */
  void (*diff_row) (gint16 * d, const guint8 * prev, const guint8 * cur,
      guint w, gboolean deep);
  /* Vertical blur of five difference rows, rounded by @shift (the bit
   * depth) and split into y >> 8 and y & 255; non-zero if any y is. */
  gint32 (*vblur_row) (gint16 * hi, gint16 * lo, const gint16 * d0,
      const gint16 * d1, const gint16 * d2, const gint16 * d3,
      const gint16 * d4, guint w, guint shift);
  /* Horizontal blur of @w columns and the sum of |x|, modulo 2^32; @hi and
   * @lo start at sample -2 (two samples of padding at each end). */
  guint32 (*hblur_row_sad) (const gint16 * hi, const gint16 * lo, guint w);
} VhMotionKernels16;

extern const VhMotionKernels16 vh_motion_kernels16_c;

/* NULL when the CPU or the compiler lacks AVX2. */
const VhMotionKernels16 *vh_motion_kernels16_avx2 (void);

/* NULL when the CPU or the compiler lacks AVX-512 (F, CD, BW, DQ, VL). */
const VhMotionKernels16 *vh_motion_kernels16_avx512 (void);

G_END_DECLS

#endif /* __VH_INTEGER_MOTION_PRIVATE_H__ */
