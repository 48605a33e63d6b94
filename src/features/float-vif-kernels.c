/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* float_vif's kernels, in libvmaf's single-precision order: the filtered
 * means, squares and cross product of each row, the per-pixel statistic
 * with libvmaf's polynomial log2, and row-by-row sums. Rows are summed
 * eight at a time, each in its own accumulator, which keeps libvmaf's
 * order while the adds of different rows overlap. */

#include "float-vif-private.h"

#include <math.h>
#include <string.h>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#define N_STATS 5               /* mu1, mu2, xx, yy, xy */

guint
vh_fvif_filter (guint scale, gfloat kernel_scale, gfloat * out)
{
  const gint n = (1 << (4 - scale)) + 1;
  gint width = (gint) ceil (n * kernel_scale);
  gfloat sum = 0.0f, stdev;

  /* Odd, at least 3 taps; sigma is a fifth of the width. */
  if (width % 2 == 0)
    width++;
  width = MAX (width, 3);
  g_assert (width <= VH_FCONV_MAX_TAPS);
  stdev = width / 5.0f;

  /* The Gaussian density, with libvmaf's mix of float and double. */
  for (gint i = 0; i < width; i++) {
    gfloat x = (gfloat) (i - (width - 1) / 2);
    gfloat d = x - 0.0f;
    gfloat num = (gfloat) exp (-0.5 * d / stdev * d / stdev);
    gfloat den = (gfloat) (1 / (stdev * sqrt (2 * G_PI)));

    out[i] = num / den;
    sum += out[i];
  }
  for (gint i = 0; i < width; i++)
    out[i] /= sum;
  return (guint) width;
}

gboolean
vh_fvif_kernel_scale_valid (gfloat kernel_scale)
{
  static const gfloat valid[] = {
    1.0f, 1.0f / 2.0f, 3.0f / 2.0f, 2.0f, 2.0f / 3.0f, 24.0f / 10.0f,
    360.0f / 97.0f, 4.0f / 3.0f, 3.5f / 3.0f, 3.75f / 3.0f, 4.25f / 3.0f,
    5.0f / 3.0f, 3.0f, 1.0f / 2.25f, 1.4746f, 1.54f, 1.6f, 1.06667f,
    0.711111f, 0.740740f, 1.111111f,
  };

  for (guint i = 0; i < G_N_ELEMENTS (valid); i++) {
    if (fabsf (kernel_scale - valid[i]) < 1e-3)
      return TRUE;
  }
  return FALSE;
}

void
vh_fvif_work_init (VhFvifWork * ws, guint max_w)
{
  ws->max_w = max_w;
  ws->pad_stride = max_w + VH_FCONV_MAX_TAPS - 1;
  ws->vert = g_new0 (gfloat, N_STATS * ws->pad_stride);
  ws->horiz = g_new0 (gfloat, N_STATS * (gsize) max_w);
  ws->num = g_new0 (gfloat, VH_FVIF_GROUP * (gsize) max_w);
  ws->den = g_new0 (gfloat, VH_FVIF_GROUP * (gsize) max_w);
}

void
vh_fvif_work_clear (VhFvifWork * ws)
{
  g_clear_pointer (&ws->vert, g_free);
  g_clear_pointer (&ws->horiz, g_free);
  g_clear_pointer (&ws->num, g_free);
  g_clear_pointer (&ws->den, g_free);
}

void
vh_fvif_decimate (VhFvifWork * ws, const gfloat * f, guint fw,
    const gfloat * src, gsize src_stride, guint w, guint h, gfloat * dst,
    gsize dst_stride)
{
  const guint r = fw / 2;
  gfloat *vrow = ws->vert + VH_FCONV_MAX_TAPS / 2;
  gfloat *hrow = ws->horiz;
  const gfloat *rows[VH_FCONV_MAX_TAPS];

  /* Only even rows and columns of the filtered plane are kept. */
  for (guint i = 0; i < h / 2; i++) {
    gfloat *out = dst + i * dst_stride;

    for (guint k = 0; k < fw; k++)
      rows[k] = src + vh_fconv_mirror ((gint) (2 * i + k) - (gint) r, h) *
          src_stride;
    vh_fconv_vrow (f, fw, rows, vrow, w);
    vh_fconv_hrow (f, fw, vrow, hrow, w);
    for (guint j = 0; j < w / 2; j++)
      out[j] = hrow[2 * j];
  }
}

/* Vertical pass of the five local moments of one row. */
static inline __attribute__ ((always_inline)) void
moments_impl (const gfloat * f, guint fw, const gfloat * const *ra,
    const gfloat * const *rb, gfloat * restrict mu1, gfloat * restrict mu2,
    gfloat * restrict xx, gfloat * restrict yy, gfloat * restrict xy, guint n)
{
  gfloat c[VH_FCONV_MAX_TAPS];
  const gfloat *a[VH_FCONV_MAX_TAPS], *b[VH_FCONV_MAX_TAPS];

  for (guint k = 0; k < fw; k++) {
    c[k] = f[k];
    a[k] = ra[k];
    b[k] = rb[k];
  }
  for (gsize j = 0; j < n; j++) {
    gfloat s1 = 0.0f, s2 = 0.0f, s11 = 0.0f, s22 = 0.0f, s12 = 0.0f;

    VH_UNROLL_TAPS for (guint k = 0; k < fw; k++) {
      gfloat x = a[k][j], y = b[k][j];

      s1 += c[k] * x;
      s2 += c[k] * y;
      s11 += c[k] * (x * x);
      s22 += c[k] * (y * y);
      s12 += c[k] * (x * y);
    }
    mu1[j] = s1;
    mu2[j] = s2;
    xx[j] = s11;
    yy[j] = s22;
    xy[j] = s12;
  }
}

VH_FLOAT_MULTIVERSION static void
moments_row (const gfloat * f, guint fw, const gfloat * const *ra,
    const gfloat * const *rb, gfloat * const out[N_STATS], guint n)
{
  switch (fw) {
    case 3:
      moments_impl (f, 3, ra, rb, out[0], out[1], out[2], out[3], out[4], n);
      break;
    case 5:
      moments_impl (f, 5, ra, rb, out[0], out[1], out[2], out[3], out[4], n);
      break;
    case 9:
      moments_impl (f, 9, ra, rb, out[0], out[1], out[2], out[3], out[4], n);
      break;
    case 17:
      moments_impl (f, 17, ra, rb, out[0], out[1], out[2], out[3], out[4], n);
      break;
    default:
      moments_impl (f, fw, ra, rb, out[0], out[1], out[2], out[3], out[4], n);
      break;
  }
}

/* The statistic selects between values by conditions; GCC computes each
 * value only where it is used and then, as long as it assumes that float
 * operations may trap, cannot vectorise the branches. Assuming they do
 * not changes no result (no reassociation, contraction or shortcuts). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize ("no-trapping-math")
#endif

/* libvmaf's log2: exponent plus a degree-8 polynomial of the mantissa. */
static const gfloat log2_poly[9] = {
  -0.012671635276421, 0.064841182402670, -0.157048836463065,
  0.257167726303123, -0.353800560300520, 0.480131410397451,
  -0.721314327952201, 1.442694803896991, 0
};

static inline gfloat
fvif_log2 (gfloat x)
{
  guint32 u, m;
  gfloat mant, t, p = 0.0f;
  gint32 e;

  memcpy (&u, &x, sizeof (u));
  e = (gint32) ((u & 0x7f800000u) >> 23) - 127;
  m = (u & 0x007fffffu) | 0x3f800000u;
  memcpy (&mant, &m, sizeof (mant));
  t = mant - 1.0f;
  for (guint i = 0; i < G_N_ELEMENTS (log2_poly); i++)
    p = p * t + log2_poly[i];
  p = (gfloat) e + p;
  return x == 0.0f ? -INFINITY : (x < 0.0f ? NAN : p);
}

/* Per-pixel numerator and denominator terms of one row. */
VH_FLOAT_MULTIVERSION static void
stats_row (const gfloat * restrict mu1, const gfloat * restrict mu2,
    const gfloat * restrict xx, const gfloat * restrict yy,
    const gfloat * restrict xy, gfloat * restrict num, gfloat * restrict den,
    guint n, const VhFvifParams * p)
{
  const gfloat eps = 1.0e-10f;
  const gdouble nsq = p->sigma_nsq;
  const gfloat limit = p->gain_limit, max_inv = p->sigma_max_inv;

  for (gsize j = 0; j < n; j++) {
    gfloat m1 = mu1[j], m2 = mu2[j];
    gfloat s1 = xx[j] - m1 * m1;
    gfloat s2 = yy[j] - m2 * m2;
    gfloat s12 = xy[j] - m1 * m2;
    gfloat g, sv, vn, vd;

    s1 = s1 > 0.0f ? s1 : 0.0f;
    s2 = s2 > 0.0f ? s2 : 0.0f;
    g = s12 / (s1 + eps);
    sv = s2 - g * s12;
    if (s1 < eps) {
      g = 0.0f;
      sv = s2;
      s1 = 0.0f;
    }
    if (s2 < eps) {
      g = 0.0f;
      sv = 0.0f;
    }
    if (g < 0.0f) {
      sv = s2;
      g = 0.0f;
    }
    sv = sv > eps ? sv : eps;
    g = g < limit ? g : limit;

    /* The noise variance is a double, so these ratios are too. */
    vn = fvif_log2 ((gfloat) (1.0 + (gdouble) (g * g * s1) / (sv + nsq)));
    vd = fvif_log2 ((gfloat) (1.0 + s1 / nsq));
    if (s12 < 0.0f)
      vn = 0.0f;
    if (s1 < nsq) {
      vn = 1.0f - s2 * max_inv;
      vd = 1.0f;
    }
    num[j] = vn;
    den[j] = vd;
  }
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

/* Adds up each of @n_rows rows of @w terms on its own, in column order,
 * and the row totals in row order onto @acc. */
static void
sum_rows (const gfloat * num, const gfloat * den, gsize stride, guint w,
    guint n_rows, gfloat * acc_num, gfloat * acc_den)
{
  gfloat rn[VH_FVIF_GROUP] = { 0 }, rd[VH_FVIF_GROUP] = { 0 };

  if (n_rows == VH_FVIF_GROUP) {
    for (guint j = 0; j < w; j++) {
      for (guint g = 0; g < VH_FVIF_GROUP; g++) {
        rn[g] += num[g * stride + j];
        rd[g] += den[g * stride + j];
      }
    }
  } else {
    for (guint g = 0; g < n_rows; g++) {
      for (guint j = 0; j < w; j++) {
        rn[g] += num[g * stride + j];
        rd[g] += den[g * stride + j];
      }
    }
  }
  for (guint g = 0; g < n_rows; g++) {
    *acc_num += rn[g];
    *acc_den += rd[g];
  }
}

void
vh_fvif_scale_sums (VhFvifWork * ws, const gfloat * f, guint fw,
    const gfloat * ref, const gfloat * dist, gsize stride, guint w, guint h,
    const VhFvifParams * p, gfloat * num, gfloat * den)
{
  const guint r = fw / 2;
  const gsize ps = ws->pad_stride;
  const gfloat *ra[VH_FCONV_MAX_TAPS], *rb[VH_FCONV_MAX_TAPS];
  gfloat *vert[N_STATS], *horiz[N_STATS];
  gfloat acc_num = 0.0f, acc_den = 0.0f;

  for (guint q = 0; q < N_STATS; q++) {
    vert[q] = ws->vert + q * ps + VH_FCONV_MAX_TAPS / 2;
    horiz[q] = ws->horiz + q * (gsize) ws->max_w;
  }

  for (guint i0 = 0; i0 < h; i0 += VH_FVIF_GROUP) {
    guint n_rows = MIN (VH_FVIF_GROUP, h - i0);

    for (guint g = 0; g < n_rows; g++) {
      guint i = i0 + g;

      for (guint k = 0; k < fw; k++) {
        gsize off = vh_fconv_mirror ((gint) (i + k) - (gint) r, h) * stride;
        ra[k] = ref + off;
        rb[k] = dist + off;
      }
      moments_row (f, fw, ra, rb, vert, w);
      for (guint q = 0; q < N_STATS; q++)
        vh_fconv_hrow (f, fw, vert[q], horiz[q], w);
      stats_row (horiz[0], horiz[1], horiz[2], horiz[3], horiz[4],
          ws->num + g * (gsize) ws->max_w, ws->den + g * (gsize) ws->max_w,
          w, p);
    }
    sum_rows (ws->num, ws->den, ws->max_w, w, n_rows, &acc_num, &acc_den);
  }
  *num = acc_num;
  *den = acc_den;
}
