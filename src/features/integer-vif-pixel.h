/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The scalar per-pixel VIF statistic, in the reference's fixed point. The
 * vector kernels reproduce it lane by lane. */

#ifndef __VH_INTEGER_VIF_PIXEL_H__
#define __VH_INTEGER_VIF_PIXEL_H__

#include "integer-vif-private.h"

G_BEGIN_DECLS

/* 2048 * log2 (@v) from the 16 leading bits of @v (@v >= 2^17). */
static inline gint32
vh_vif_log2_32 (const guint16 * table, guint32 v)
{
  const gint k = 16 - __builtin_clz (v);

  return table[v >> k] + 2048 * k;
}

static inline gint32
vh_vif_log2_64 (const guint16 * table, guint64 v)
{
  const gint k = 48 - __builtin_clzll (v);

  return table[v >> k] + 2048 * k;
}

/* (a * b + 2^31) >> 32 */
static inline guint32
vh_vif_mul_hi (guint32 a, guint32 b)
{
  return (guint32) (((guint64) a * b + 0x80000000u) >> 32);
}

/* Adds one pixel: @mu1, @mu2 are the filtered means (2^16 scaled), @xx, @yy,
 * @xy the filtered second moments. */
static inline void
vh_vif_pixel (guint32 mu1, guint32 mu2, guint32 xx, guint32 yy, guint32 xy,
    gdouble gain_limit, const guint16 * table, VhVifAccum * acc)
{
  const gint32 sigma1_sq = (gint32) (xx - vh_vif_mul_hi (mu1, mu1));
  const gint32 sigma12 = (gint32) (xy - vh_vif_mul_hi (mu1, mu2));
  gint32 sigma2_sq = (gint32) (yy - vh_vif_mul_hi (mu2, mu2));

  sigma2_sq = MAX (sigma2_sq, 0);
  if (sigma1_sq < VH_VIF_SIGMA_NSQ) {
    acc->num_non_log += sigma2_sq;
    acc->den_non_log++;
    return;
  }

  acc->den_log += vh_vif_log2_32 (table,
      (guint32) VH_VIF_SIGMA_NSQ + (guint32) sigma1_sq) - 2048 * 17;
  if (sigma12 > 0 && sigma2_sq > 0) {
    const gdouble eps = 65536 * 1.0e-10;
    gdouble g = sigma12 / (sigma1_sq + eps);
    const gdouble sv = sigma2_sq - g * sigma12;
    /* Truncation then clamping at zero, without the undefined conversion
     * of out-of-range values. */
    const guint32 sv_sq = sv > 0 ? (guint32) (gint32) sv : 0;
    guint32 numer1;
    gint64 numer1_tmp;

    g = MIN (g, gain_limit);
    numer1 = sv_sq + VH_VIF_SIGMA_NSQ;
    numer1_tmp = (gint64) (g * g * sigma1_sq) + numer1;
    acc->num_log += vh_vif_log2_64 (table, numer1_tmp) -
        vh_vif_log2_64 (table, numer1);
  }
}

G_END_DECLS

#endif /* __VH_INTEGER_VIF_PIXEL_H__ */
