/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* SSIMULACRA 2's per-pixel steps in portable C, in the order
 * ssimulacra2.h describes: the whole work of the portable kernels
 * (ssimulacra2-maps.c) and the column and row tails of the SIMD ones
 * (ssimulacra2-kernels-body.h), which must give the same bits. Every
 * function is inlined into its caller, so that it is compiled for the
 * caller's target (fmaf is one instruction where FMA is there); no
 * contraction anywhere (C11 mode, or the callers' fp-contract=off). */

#ifndef __VH_SSIMULACRA2_MAPS_BODY_H__
#define __VH_SSIMULACRA2_MAPS_BODY_H__

#include "ssimulacra2-private.h"

#include <math.h>

#define VH_SSIMU2_INLINE __attribute__ ((always_inline))
#define VH_SSIMU2_FMA(a, b, c) __builtin_fmaf ((a), (b), (c))
#define VH_SSIMU2_C2 0.0009f

/* cbrt (@x) + @add for @x >= 0 in libjxl's steps: an inverse cube root
 * guessed from the exponent (times -1/3), three Newton steps on it, a
 * fourth on the root, then x r^2 + add, fused where libjxl fuses. */
static inline VH_SSIMU2_INLINE gfloat
ssimu2_cbrt_add (gfloat x, gfloat add)
{
  const gfloat third = 1.0f / 3, four_thirds = 4.0f / 3;
  const gfloat x_3 = third * x;
  union
  {
    gfloat f;
    gint32 i;
  } v;
  gfloat r, r2;

  v.f = x;
  v.i = v.i == 0 ? 0 : (gint32) (0x54800000u - (guint32) (v.i >> 23) *
      0x002AAAAAu);
  r = v.f;
  for (guint i = 0; i < 3; i++) {
    r2 = r * r;
    r = VH_SSIMU2_FMA (-x_3, r2 * r2, four_thirds * r);
  }
  r2 = r * r;
  r = VH_SSIMU2_FMA (third, VH_SSIMU2_FMA (-x, r2 * r2, r), r);
  r2 = r * r;
  return VH_SSIMU2_FMA (r2, x, add);
}

/* Outputs [@from, (@w + 1) / 2) of a row of the 2x2 box average of the
 * rows @r0 and @r1, @w wide, the last column repeated past the edge. */
static inline VH_SSIMU2_INLINE void
ssimu2_downsample_row (const gfloat * r0, const gfloat * r1, guint w,
    guint from, gfloat * out)
{
  for (guint ox = from; ox < (w + 1) / 2; ox++) {
    const guint x0 = 2 * ox, x1 = MIN (2 * ox + 1, w - 1);

    out[ox] = (((r0[x0] + r0[x1]) + r1[x0]) + r1[x1]) * 0.25f;
  }
}

/* XYB of samples [@from, @to) of the linear planes @lin. */
static inline VH_SSIMU2_INLINE void
ssimu2_xyb_range (const VhSsimu2 * s, gfloat * const lin[3],
    gfloat * const xyb[3], gsize from, gsize to)
{
  const gfloat *m = s->mix;

  for (gsize i = from; i < to; i++) {
    const gfloat r = lin[0][i], g = lin[1][i], b = lin[2][i];
    gfloat mixed[3], xv, yv, bv;

    for (guint k = 0; k < 3; k++) {
      gfloat v = VH_SSIMU2_FMA (m[3 * k], r, VH_SSIMU2_FMA (m[3 * k + 1], g,
              VH_SSIMU2_FMA (m[3 * k + 2], b, s->bias)));
      mixed[k] = ssimu2_cbrt_add (v < 0.0f ? 0.0f : v, s->neg_bias_cbrt);
    }
    xv = 0.5f * (mixed[0] - mixed[1]);
    yv = 0.5f * (mixed[0] + mixed[1]);
    bv = mixed[2];
    xyb[2][i] = (bv - yv) + 0.55f;
    xyb[0][i] = xv * 14.0f + 0.42f;
    xyb[1][i] = yv + 0.01f;
  }
}

/* One output of the row recursion with bounds checks: the scalar start
 * and end of libjxl's row pass. */
static inline VH_SSIMU2_INLINE void
ssimu2_blur_step (const VhSsimu2Gauss * g, const gfloat * row, gint width,
    gint n, gfloat prev[3], gfloat prev2[3], gfloat * out)
{
  const gint N = g->radius, left = n - N - 1, right = n + N - 1;
  const gfloat sum = (left >= 0 ? row[left] : 0.0f) +
      (right < width ? row[right] : 0.0f);
  gfloat o[3];

  for (guint k = 0; k < 3; k++) {
    o[k] = sum * g->mul_in[k][0];
    o[k] = VH_SSIMU2_FMA (g->mul_prev2[k][0], prev2[k], o[k]);
    o[k] = VH_SSIMU2_FMA (g->mul_prev[k][0], prev[k], o[k]);
    prev2[k] = prev[k];
    prev[k] = o[k];
  }
  if (n >= 0)
    out[n] = o[0] + (o[1] + o[2]);
}

/* libjxl's row pass: outputs one by one up to column 7 (the first
 * multiple of four past the radius), then four at a time from the four
 * inputs and the last two outputs, then one by one where the window
 * leaves the row. */
static inline VH_SSIMU2_INLINE void
ssimu2_blur_row (const VhSsimu2Gauss * g, const gfloat * row, gint width,
    gfloat * out)
{
  const gint N = g->radius, first_aligned = (N + 1 + 3) / 4 * 4;
  gfloat prev[3] = { 0 }, prev2[3] = { 0 };
  gint n = -N + 1;

  for (; n < MIN (first_aligned, width); n++)
    ssimu2_blur_step (g, row, width, n, prev, prev2, out);
  for (; n < width - N + 1 - 3; n += 4) {
    gfloat sum[4], o[3][4];

    for (guint j = 0; j < 4; j++)
      sum[j] = row[n + (gint) j - N - 1] + row[n + (gint) j + N - 1];
    for (guint k = 0; k < 3; k++) {
      for (guint j = 0; j < 4; j++) {
        gfloat v = sum[0] * g->mul_in[k][j];

        for (guint t = 1; t <= j; t++)
          v = VH_SSIMU2_FMA (g->mul_in[k][j - t], sum[t], v);
        v = VH_SSIMU2_FMA (g->mul_prev2[k][j], prev2[k], v);
        o[k][j] = VH_SSIMU2_FMA (g->mul_prev[k][j], prev[k], v);
      }
      prev2[k] = o[k][2];
      prev[k] = o[k][3];
    }
    for (guint j = 0; j < 4; j++)
      out[n + j] = o[0][j] + (o[1][j] + o[2][j]);
  }
  for (; n < width; n++)
    ssimu2_blur_step (g, row, width, n, prev, prev2, out);
}

/* Steps [@n0, @n1) of the column pass (step n: output row n, for n >= 0,
 * at @out + (n - @out_row0) @w) over columns [@x0, @x1) of the @w x @h
 * row-blurred plane, whose row y is at @rows + (y mod @ring) @w; @state
 * holds each column's poles (6 @w, zero before the first step,
 * -radius + 1). */
static inline VH_SSIMU2_INLINE void
ssimu2_blur_column_steps (const VhSsimu2Gauss * g, gfloat * state,
    const gfloat * rows, guint ring, guint w, guint h, guint x0, guint x1,
    gint n0, gint n1, gfloat * out, gint out_row0)
{
  const gint N = g->radius, height = (gint) h;
  gfloat *prev[3], *prev2[3];

  for (guint k = 0; k < 3; k++) {
    prev[k] = state + (gsize) (2 * k) * w;
    prev2[k] = state + (gsize) (2 * k + 1) * w;
  }
  for (gint n = n0; n < n1; n++) {
    const gint top = n - N - 1, bottom = n + N - 1;
    const gfloat *rt = top >= 0 ? rows + (gsize) (top % ring) * w : NULL;
    const gfloat *rb = bottom < height ? rows + (gsize) (bottom % ring) * w :
        NULL;
    gfloat *o = n >= 0 ? out + (gsize) (n - out_row0) * w : NULL;

    for (guint x = x0; x < x1; x++) {
      const gfloat sum = (rt ? rt[x] : 0.0f) + (rb ? rb[x] : 0.0f);
      gfloat acc[3];

      for (guint k = 0; k < 3; k++) {
        acc[k] = VH_SSIMU2_FMA (g->n2[k], sum, VH_SSIMU2_FMA (-g->d1[k],
                prev[k][x], -prev2[k][x]));
        prev2[k][x] = prev[k][x];
        prev[k][x] = acc[k];
      }
      if (o)
        o[x] = acc[0] + (acc[1] + acc[2]);
    }
  }
}

/* The whole column pass of the @w x @h plane @in, one row after the
 * other. */
static inline VH_SSIMU2_INLINE void
ssimu2_blur_columns (const VhSsimu2Gauss * g, gfloat * state,
    const gfloat * in, guint w, guint h, gfloat * out)
{
  for (gsize i = 0; i < (gsize) 6 * w; i++)
    state[i] = 0.0f;
  ssimu2_blur_column_steps (g, state, in, h, w, h, 0, w, -g->radius + 1,
      (gint) h, out, 0);
}

/* Pixel @i's terms of the six sums of a channel, added to @acc. */
static inline VH_SSIMU2_INLINE void
ssimu2_sums_pixel (const gfloat * x1, const gfloat * x2,
    gfloat * const t[7], gsize i, gdouble acc[VH_SSIMU2_SUMS_PER_CHANNEL])
{
  const gfloat *s11 = t[2], *s22 = t[3], *s12 = t[4], *m1 = t[5], *m2 = t[6];
  const gfloat mu1 = m1[i], mu2 = m2[i];
  const gfloat mu11 = mu1 * mu1, mu22 = mu2 * mu2, mu12 = mu1 * mu2;
  const gfloat diff = mu1 - mu2;
  const gfloat num_m = 1.0f - diff * diff;
  const gfloat num_s = 2.0f * (s12[i] - mu12) + VH_SSIMU2_C2;
  const gfloat denom_s = (s11[i] - mu11) + (s22[i] - mu22) + VH_SSIMU2_C2;
  gdouble d = 1.0 - (gdouble) ((num_m * num_s) / denom_s);
  gdouble edge, v;

  d = d > 0.0 ? d : 0.0;
  acc[0] += d;
  d *= d;
  acc[1] += d * d;
  edge = (1.0 + (gdouble) fabsf (x2[i] - mu2)) /
      (1.0 + (gdouble) fabsf (x1[i] - mu1)) - 1.0;
  v = edge > 0.0 ? edge : 0.0;
  acc[2] += v;
  v *= v;
  acc[3] += v * v;
  v = edge < 0.0 ? -edge : 0.0;
  acc[4] += v;
  v *= v;
  acc[5] += v * v;
}

/* A row's partial sums combined pairwise (16 apart, then 8, 4, 2, 1) and
 * added to @sums: the GPU's order. */
static inline VH_SSIMU2_INLINE void
ssimu2_sums_fold (gdouble acc[VH_SSIMU2_LANES][VH_SSIMU2_SUMS_PER_CHANNEL],
    gdouble sums[VH_SSIMU2_SUMS_PER_CHANNEL])
{
  for (guint off = VH_SSIMU2_LANES / 2; off > 0; off /= 2)
    for (guint j = 0; j < off; j++)
      for (guint k = 0; k < VH_SSIMU2_SUMS_PER_CHANNEL; k++)
        acc[j][k] += acc[j + off][k];
  for (guint k = 0; k < VH_SSIMU2_SUMS_PER_CHANNEL; k++)
    sums[k] += acc[0][k];
}

#endif /* __VH_SSIMULACRA2_MAPS_BODY_H__ */
