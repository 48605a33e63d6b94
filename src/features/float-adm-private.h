/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_FLOAT_ADM_PRIVATE_H__
#define __VH_FLOAT_ADM_PRIVATE_H__

#include <glib.h>

#include "float-conv.h"

G_BEGIN_DECLS

#define VH_FADM_N_SCALES 4

/* Share of each side that ADM leaves out of its sums. */
#define VH_FADM_BORDER_FACTOR 0.1

/* Sub-bands of one wavelet level, all with the same row stride. */
typedef struct
{
  gfloat *a;                    /* low-pass both ways */
  gfloat *v;                    /* low-pass vertically, high-pass across */
  gfloat *h;                    /* high-pass vertically, low-pass across */
  gfloat *d;                    /* high-pass both ways */
} VhFadmBands;

/* Columns [left, right) and rows [top, bottom) of a band. */
typedef struct
{
  gint left, top, right, bottom;
} VhFadmRect;

/* Options of the masking and pooling stages. */
typedef struct
{
  gdouble p_norm;
  gdouble noise_weight;
  gboolean bypass_cm;
} VhFadmPool;

/* The region that is scored, and the one a pixel wider on each side that
 * the earlier stages fill, for a @w x @h band. */
void         vh_fadm_score_rect         (guint w, guint h, VhFadmRect * r);

void         vh_fadm_filter_rect        (guint w, guint h, VhFadmRect * r);

/* One level of the Daubechies-2 wavelet: (@w + 1) / 2 x (@h + 1) / 2
 * samples per band. @dst->a may be @src (each output row is written
 * after the input rows it needs are read). @lo_only computes @dst->a
 * alone. @tmp holds 2 @w floats. */
void         vh_fadm_dwt2               (const gfloat * src, gsize src_stride,
                                         guint w, guint h,
                                         const VhFadmBands * dst,
                                         gsize dst_stride, gboolean lo_only,
                                         gfloat * tmp);

/* Splits the distorted bands into what the reference explains (@r) and
 * the rest (@a), over the filter region. @scratch holds 3 @w floats. */
void         vh_fadm_decouple           (const VhFadmBands * ref,
                                         const VhFadmBands * dis,
                                         const VhFadmBands * r,
                                         const VhFadmBands * a, gsize stride,
                                         guint w, guint h,
                                         gdouble gain_limit,
                                         gfloat * scratch);

/* @dst = @src weighted by the contrast sensitivity @rf (h, v, d) and
 * @flt = |@dst| / 30, over the filter region. */
void         vh_fadm_csf                (const VhFadmBands * src,
                                         const VhFadmBands * dst,
                                         const VhFadmBands * flt,
                                         gsize stride, guint w, guint h,
                                         const gfloat rf[3]);

/* Denominator of one scale: the p-norm of the weighted reference bands.
 * @scratch holds 2 @w floats. */
gfloat       vh_fadm_den_scale          (const VhFadmBands * src, gsize stride,
                                         guint w, guint h, const gfloat rf[3],
                                         const VhFadmPool * pool,
                                         gfloat * scratch);

/* Numerator of one scale: the p-norm of the weighted @src bands after
 * contrast masking by @csf (centre) and @flt (neighbours). @scratch holds
 * 4 @w floats. */
gfloat       vh_fadm_cm                 (const VhFadmBands * src,
                                         const VhFadmBands * flt,
                                         const VhFadmBands * csf,
                                         gsize stride, guint w, guint h,
                                         const gfloat rf[3],
                                         const VhFadmPool * pool,
                                         gfloat * scratch);

/* A scale's value from its three bands' sums of p-th powers over an
 * @n x @n_rows region: each band's p-th root plus the noise floor. */
gfloat       vh_fadm_pool_bands         (const gfloat acc[3], gint n,
                                         gint n_rows,
                                         const VhFadmPool * pool);

/* The decoupling divides by a reciprocal estimate refined by one Newton
 * step, as libvmaf does with x86's rcpss. The estimate's last bits differ
 * between processor makers, so float_adm always takes the estimates of
 * the reference processor (float-adm-rcp-reference.c): the estimate of
 * 1.m as float bits, indexed by the leading VH_FADM_RCP_REFERENCE_BITS
 * bits of m. */
#define VH_FADM_RCP_REFERENCE_BITS 12
extern const guint32 vh_fadm_rcp_reference[];

/* That table and its index bits, for a GPU to divide as the CPU does. */
const guint32 *vh_fadm_rcp_table         (guint * mantissa_bits);

/* TRUE where this processor's rcpss gives the reference estimates for
 * every float (checked once per process): the CPU then divides with
 * rcpps, faster than looking the table up. */
gboolean     vh_fadm_rcp_native         (void);

/* For tests: FALSE makes the CPU look the table up even where rcpss would
 * do (the values must not change). */
void         vh_fadm_rcp_set_native_allowed (gboolean allowed);

/* The estimate of the float with bits @x from @table (mantissa shifted
 * right by @shift = 23 - mantissa_bits): zero and denormals give
 * infinity, infinity zero, results below the normal range zero. */
guint32      vh_fadm_rcp_lookup         (const guint32 * table, guint shift,
                                         guint32 x);

/* cos^2 (1 degree), as libvmaf rounds it: decoupling's angle test. */
gfloat       vh_fadm_cos_1deg_sq        (void);

G_END_DECLS

#endif /* __VH_FLOAT_ADM_PRIVATE_H__ */
