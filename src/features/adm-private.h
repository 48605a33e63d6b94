/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Private to the integer ADM extractor: the fixed-point constants of each
 * scale and the row kernels, in a portable C flavour, an AVX2 one and an
 * AVX-512 one that must give the very same integers. */

#ifndef __VH_ADM_PRIVATE_H__
#define __VH_ADM_PRIVATE_H__

#include <glib.h>

G_BEGIN_DECLS

#define VH_ADM_N_SCALES 4

/* Contrast sensitivity functions, as numbered by the adm_csf_mode option. */
typedef enum
{
  VH_ADM_CSF_WATSON = 0,
  VH_ADM_CSF_BARTEN = 1,
  VH_ADM_CSF_BLEND = 2,
  VH_ADM_CSF_BLEND_MAE = 3,
} VhAdmCsfMode;

typedef struct
{
  VhAdmCsfMode mode;
  gdouble view_dist;            /* normalised viewing distance */
  gint display_height;          /* reference display height, pixels */
  gdouble csf_scale;            /* Barten only: h/v and diagonal gains */
  gdouble csf_diag_scale;
} VhAdmCsfParams;

/* Fills @factor[0] (horizontal and vertical bands) and @factor[1]
 * (diagonal band) for @scale. FALSE when the mode has no table for the
 * viewing condition. */
gboolean     vh_adm_csf_factors         (const VhAdmCsfParams * p, gint scale,
                                         gfloat factor[2]);

/* Barten's CSF at wavelet level @scale (0 finest), times @gain. */
gfloat       vh_adm_csf_barten          (gint scale, gdouble view_dist,
                                         gint display_height, gdouble gain);

/* The CSF of the DLM paper (Li, Zhang, Ma, Ngan, IEEE TMM 13(5), 2011),
 * float ADM's adm_csf_mode 2; @diagonal applies the oblique effect. */
gfloat       vh_adm_csf_native          (gint scale, gdouble view_dist,
                                         gint display_height,
                                         gboolean diagonal);

/* Per-scale geometry and fixed-point constants, computed once in init. */
typedef struct
{
  gint wi, hi;                  /* input size of the scale */
  gint wb, hb;                  /* size of its four bands */

  /* Scored region, band coordinates, [left, right) x [top, bottom). */
  gint left, top, right, bottom;
  /* Where decoupling and masking values are needed: one more band sample
   * around the scored region (two more on the right/bottom). */
  gint eleft, etop, eright, ebottom;

  gfloat rfactor[3];            /* CSF gain of the h, v and d bands */

  /* Columns where libvmaf's AVX-512 code (which produced the reference
   * scores) departs from its portable code: the enhancement gain product
   * is rounded to nearest instead of truncated, and (scale 0) the centre
   * term of the masking threshold is kept in 32 bits instead of wrapping
   * to 16. */
  gint round_x0, round_x1;
  gint wide_x0, wide_x1;
  /* Scales 1-3: the block where the AVX-512 masking code multiplies by the
   * 32-bit gains as signed numbers (as its CSF code does on round_x*). */
  gint signed_x0, signed_x1, signed_y0, signed_y1;
  /* Some 32-bit gain reaches 2^28: the variants above can then differ. */
  gboolean wide_gains;

  /* Scale 0: 16-bit gains; csf values get (gain * x + add) >> shift. */
  gint32 gain16[3];
  gint32 csf_add16[3];
  gint csf_shift16[3];
  /* Scales 1-3: 32.32 gains. */
  guint32 gain32[3];

  /* Masking sums, per band. */
  gint cm_sub[3];               /* threshold alignment (left shift) */
  gint cm_sq_shift[3];
  gint64 cm_sq_add[3];
  gint cm_cub_shift[3];
  gint64 cm_cub_add[3];
  gint cm_row_shift;
  gint64 cm_row_add;
  gdouble cm_norm;              /* scale 0: double divisor, h and v */
  gdouble cm_norm_d;            /* scale 0: double divisor, d */
  gfloat cm_norm_f;             /* scales 1-3: float divisor */

  /* Denominator (reference energy) sums. */
  gint den_sq_shift;            /* scales 1-3 */
  guint64 den_sq_add;
  gint den_cub_shift;
  guint64 den_cub_add;
  gint den_row_shift;
  guint64 den_row_add;
  gdouble den_norm;

  gfloat noise_term;            /* (area * noise weight)^(1/3) */
} VhAdmScale;

/* Everything the decoupling stage needs besides the pixels. */
typedef struct
{
  gdouble gain_limit;           /* adm_enhn_gain_limit */
  gfloat cos1_sq;               /* cos(1 degree)^2 as libvmaf rounds it */
  const gint32 *div_lut;        /* 2^30 / i for i in [-32768, 32768] */
} VhAdmDecouple;

/* Outputs of the decoupling + CSF stage for one band row. For each band
 * (h, v, d), xr/xa hold the magnitudes that get masked (restored and
 * additive impairment); fr/fa the sum over bands of the contrast-masking
 * filter input and kr/ka the (centre - filter) correction, so that the
 * masking threshold is box3x3(f) + k. */
typedef struct
{
  gint32 *xr[3];
  gint32 *xa[3];
  gint32 *fr, *kr;
  gint32 *fa, *ka;
} VhAdmRows;

/* The same at scales 1-3, in 64 bits: libvmaf's vector code keeps these
 * sums and magnitudes unwrapped where its portable code wraps them. */
typedef struct
{
  gint64 *xr[3];
  gint64 *xa[3];
  gint64 *fr, *kr;
  gint64 *fa, *ka;
} VhAdmRows64;

/* The kernels one instance uses; the AVX2 and AVX-512 tables replace them
 * all. */
typedef struct
{
  /* Scale 0 vertical pass: 4 input rows (8 or 16 bit) to the low and high
   * pass rows, @w samples. */
  void (*dwt0_vert_8) (const guint8 * r0, const guint8 * r1,
      const guint8 * r2, const guint8 * r3, gint16 * lo, gint16 * hi, gint w);
  void (*dwt0_vert_16) (const guint16 * r0, const guint16 * r1,
      const guint16 * r2, const guint16 * r3, gint16 * lo, gint16 * hi,
      gint w, gint bpc);
  /* Scale 0 horizontal pass of one 16-bit row to the low and high halves,
   * @wi input samples. */
  void (*dwt0_horz) (const gint16 * src, gint16 * lo, gint16 * hi, gint wi);
  /* Scale 0 denominator row: sum of |b|^3 over [x0, x1). */
  guint64 (*den0_row) (const gint16 * b, gint x0, gint x1);
  /* Scale 0 decouple + CSF on [x0, x1). */
  void (*decouple0_row) (const VhAdmScale * sc, const VhAdmDecouple * dc,
      const gint16 * const ref[3], const gint16 * const dis[3],
      const VhAdmRows * out, gint x0, gint x1);
  /* Scale 0 masking sum of one band row on [x0, x1): thr is the
   * per-sample threshold row, x the magnitudes, @band selects the
   * constants. */
  gint64 (*cm_row) (const VhAdmScale * sc, gint band, const gint32 * x,
      const gint32 * thr, gint x0, gint x1);

  /* The same at scales 1-3 (@narrow: 16-bit input samples). */
  void (*dwt_vert_s123) (const gint32 * r0, const gint32 * r1,
      const gint32 * r2, const gint32 * r3, gint32 * lo, gint32 * hi, gint w,
      gint64 add, gint shift, gboolean narrow);
  void (*dwt_horz_s123) (const gint32 * src, gint32 * lo, gint32 * hi,
      gint wi, gint64 add, gint shift);
  guint64 (*den_row_s123) (const VhAdmScale * sc, const gint32 * b, gint x0,
      gint x1);
  void (*decouple_s123_row) (const VhAdmScale * sc,
      const VhAdmDecouple * dc, const gint32 * const ref[3],
      const gint32 * const dis[3], const VhAdmRows64 * out, gint y, gint x0,
      gint x1);
  gint64 (*cm_row_s123) (const VhAdmScale * sc, const gint64 * x,
      const gint64 * thr, gint y, gint x0, gint x1);
} VhAdmKernels;

void         vh_adm_kernels_init_c      (VhAdmKernels * k);

/* Replaces the table with AVX2 versions when the CPU has AVX2; FALSE if
 * it did not. */
gboolean     vh_adm_kernels_init_avx2   (VhAdmKernels * k);

/* Replaces the table with AVX-512 versions when the CPU has AVX-512 (F,
 * CD, BW, DQ, VL); FALSE if it did not. */
gboolean     vh_adm_kernels_init_avx512 (VhAdmKernels * k);

/* Row index of tap @k (0..3) of output @i, mirrored as libvmaf does: -1
 * reflects to 1, n reflects to n - 1. */
static inline gint
vh_adm_tap (gint i, gint k, gint n)
{
  gint idx = 2 * i - 1 + k;

  if (idx < 0)
    return -idx;
  if (idx >= n)
    return 2 * n - idx - 1;
  return idx;
}

/* The filter taps: Daubechies-2 in Q15 (low and high pass). */
#define VH_ADM_LO0 15826
#define VH_ADM_LO1 27411
#define VH_ADM_LO2 7345
#define VH_ADM_LO3 (-4240)
#define VH_ADM_HI0 (-4240)
#define VH_ADM_HI1 (-7345)
#define VH_ADM_HI2 27411
#define VH_ADM_HI3 (-15826)

G_END_DECLS

#endif /* __VH_ADM_PRIVATE_H__ */
