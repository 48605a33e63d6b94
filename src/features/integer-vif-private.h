/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Shared between the integer VIF extractor and its row kernels (portable C,
 * AVX2 and AVX-512). All kernel sets must produce bit-identical results.
 *
 * Data layout: every filtered row is kept as 16-bit "streams". The 32-bit
 * second moments are split into a high and a low half so that every
 * multiply-accumulate is 16 x 16 -> 32 bits, which is exact modulo 2^32.
 * Stream samples are stored XOR 0x8000 (that is, minus 32768 as a signed
 * 16-bit value) so that signed multiply-add instructions can take them; as
 * every filter sums to 65536, the bias costs exactly 2^31 per sum, which is
 * added back modulo 2^32. */

#ifndef __VH_INTEGER_VIF_PRIVATE_H__
#define __VH_INTEGER_VIF_PRIVATE_H__

#include <glib.h>

G_BEGIN_DECLS

#define VH_VIF_N_SCALES 4
#define VH_VIF_MAX_TAPS 17
/* Samples left of column 0 in a stream row: half the widest filter. */
#define VH_VIF_PAD 8
/* Extra samples right of a stream row, so that vector loads of the last
 * block stay inside the allocation. */
#define VH_VIF_TAIL 64
#define VH_VIF_BIAS 0x8000
/* Noise variance in the fixed-point units of the statistics. */
#define VH_VIF_SIGMA_NSQ (65536 << 1)
#define VH_VIF_LOG2_TABLE_SIZE (65536 + 16)

typedef enum
{
  VH_VIF_MU1 = 0,
  VH_VIF_MU2,
  VH_VIF_XX_HI,
  VH_VIF_XX_LO,
  VH_VIF_YY_HI,
  VH_VIF_YY_LO,
  VH_VIF_XY_HI,
  VH_VIF_XY_LO,
  VH_VIF_N_STREAMS
} VhVifStream;

/* Gaussian filters of the four scales: 16-bit fixed point, each sums to
 * 65536; a zero follows the last tap so that taps can be taken in pairs. */
extern const guint16 vh_vif_filter[VH_VIF_N_SCALES][VH_VIF_MAX_TAPS + 1];
extern const guint vh_vif_filter_taps[VH_VIF_N_SCALES];

/* Integer sums of one scale; turned into num/den at the end. */
typedef struct
{
  gint64 num_log;
  gint64 den_log;
  gint64 num_non_log;
  gint64 den_non_log;
} VhVifAccum;

/* Per-instance row buffers the kernels work in. */
typedef struct
{
  /* Biased stream rows: column c of stream q is s[q][VH_VIF_PAD + c]. */
  guint16 *s[VH_VIF_N_STREAMS];
  /* Scratch for the portable kernels: one 32-bit value per column. */
  guint32 *acc[VH_VIF_N_STREAMS + 2];
} VhVifRows;

/* Row kernels. @ref and @dis hold one row pointer per filter tap, already
 * reflected at the picture edges. Vertical kernels fill columns [j0, j1) of
 * the stream rows; horizontal ones read the streams after the caller has
 * mirrored their edges. */
typedef struct
{
  /* 8-bit input, scale 0: all streams. */
  void (*vert_stats_8) (const guint8 * const *ref, const guint8 * const *dis,
      guint scale, guint j0, guint j1, VhVifRows * rows);
  /* 16-bit input: all streams; mu rounded by @shift_mu, moments by
   * @shift_sq (both 1..16). */
  void (*vert_stats_16) (const guint16 * const *ref,
      const guint16 * const *dis, guint scale, guint shift_mu,
      guint shift_sq, guint j0, guint j1, VhVifRows * rows);
  /* Horizontal filter of all streams and the VIF statistic of @w columns. */
  void (*horiz_stats) (VhVifRows * rows, guint scale, guint w,
      gdouble gain_limit, const guint16 * log2_table, VhVifAccum * acc);
  /* Downsampling: mu streams only. */
  void (*vert_mu_8) (const guint8 * const *ref, const guint8 * const *dis,
      guint scale, guint j0, guint j1, VhVifRows * rows);
  void (*vert_mu_16) (const guint16 * const *ref, const guint16 * const *dis,
      guint scale, guint shift, guint j0, guint j1, VhVifRows * rows);
  /* Horizontal filter of the mu streams at even columns: @w_out samples of
   * the next scale's reference and distorted rows. */
  void (*horiz_decimate) (VhVifRows * rows, guint scale, guint w_out,
      guint16 * ref_out, guint16 * dis_out);
} VhVifKernels;

extern const VhVifKernels vh_vif_kernels_c;

/* NULL when the CPU or the compiler lacks AVX2. */
const VhVifKernels *vh_vif_kernels_avx2 (void);

/* NULL when the CPU or the compiler lacks AVX-512 (F, CD, BW, DQ, VL). */
const VhVifKernels *vh_vif_kernels_avx512 (void);

/* log2 (i) * 2048 rounded, for i in [32767, 65535]; VH_VIF_LOG2_TABLE_SIZE
 * entries, shared and read-only once built. */
const guint16 *vh_vif_log2_table (void);

G_END_DECLS

#endif /* __VH_INTEGER_VIF_PRIVATE_H__ */
