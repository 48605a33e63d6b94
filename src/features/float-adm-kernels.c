/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* float_adm's per-band stages after the wavelet, with libvmaf's precision
 * at every step: decoupling (with its reciprocal estimate on x86),
 * contrast sensitivity weights, contrast masking and the p-norm sums.
 * Sums run row by row in single precision, each row on its own first. */

#include "float-adm-private.h"

#include <math.h>
#include <string.h>
#ifdef __SSE__
#include <xmmintrin.h>
#endif

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

/* These loops select between values by conditions. GCC computes each
 * value only on the path that uses it and, while it assumes that float
 * operations may trap, cannot then vectorise the branches. Assuming they
 * do not changes no result: no reassociation, contraction or shortcut. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize ("no-trapping-math")
#endif

/* libvmaf's 1/30 and 1/15, double constants with float-like digits. */
#define ONE_BY_30 0.0333333351
#define ONE_BY_15 0.0666666701

void
vh_fadm_score_rect (guint w, guint h, VhFadmRect * r)
{
  r->left = (gint) (w * VH_FADM_BORDER_FACTOR - 0.5);
  r->top = (gint) (h * VH_FADM_BORDER_FACTOR - 0.5);
  r->right = (gint) w - r->left;
  r->bottom = (gint) h - r->top;
}

void
vh_fadm_filter_rect (guint w, guint h, VhFadmRect * r)
{
  /* One more sample on each side for the masking neighbourhood. */
  r->left = (gint) (w * VH_FADM_BORDER_FACTOR - 0.5 - 1);
  r->top = (gint) (h * VH_FADM_BORDER_FACTOR - 0.5 - 1);
  r->right = (gint) w - r->left + 2;
  r->bottom = (gint) h - r->top + 2;
  r->left = MAX (r->left, 0);
  r->top = MAX (r->top, 0);
  r->right = MIN (r->right, (gint) w);
  r->bottom = MIN (r->bottom, (gint) h);
}

/* out = n / d as libvmaf divides on x86: by a reciprocal estimate refined
 * with one Newton step. The estimate is the reference processor's
 * (vh_fadm_rcp_table): rcpps where this processor gives the same, else
 * looked up, so that the values are the same on every machine. */
static void
adm_div_row (const gfloat * n, const gfloat * d, gfloat eps, gfloat * out,
    gint count)
{
  gint j = 0;

#ifdef __SSE__
  if (vh_fadm_rcp_native ()) {
    const __m128 one = _mm_set1_ps (1.0f), e4 = _mm_set1_ps (eps);

    for (; j + 4 <= count; j += 4) {
      __m128 x = _mm_add_ps (_mm_loadu_ps (d + j), e4);
      __m128 r = _mm_rcp_ps (x);

      r = _mm_add_ps (r, _mm_mul_ps (r, _mm_sub_ps (one, _mm_mul_ps (x,
                      r))));
      _mm_storeu_ps (out + j, _mm_mul_ps (_mm_loadu_ps (n + j), r));
    }
    for (; j < count; j++) {
      gfloat x = d[j] + eps;
      gfloat r = _mm_cvtss_f32 (_mm_rcp_ss (_mm_set_ss (x)));

      out[j] = n[j] * (r + r * (1.0f - x * r));
    }
    return;
  }
#endif
  {
    guint bits;
    const guint32 *table = vh_fadm_rcp_table (&bits);
    const guint shift = 23 - bits;

    for (; j < count; j++) {
      gfloat x = d[j] + eps, r;
      guint32 xb, rb;

      memcpy (&xb, &x, sizeof (xb));
      rb = vh_fadm_rcp_lookup (table, shift, xb);
      memcpy (&r, &rb, sizeof (r));
      out[j] = n[j] * (r + r * (1.0f - x * r));
    }
  }
}

gfloat
vh_fadm_cos_1deg_sq (void)
{
  return cos (1.0 * G_PI / 180.0) * cos (1.0 * G_PI / 180.0);
}

static inline gfloat
clamp01 (gfloat k)
{
  return k < 0.0f ? 0.0f : (k > 1.0f ? 1.0f : k);
}

/* Within a degree of the reference direction, the gain may exceed one up
 * to @limit, multiplied in double as libvmaf does: first for a positive
 * value, then for a negative one. Written as selects so that it
 * vectorises. */
static inline gfloat
enhance (gfloat rst, gfloat t, gint aligned, gdouble limit)
{
  gdouble up = rst * limit, down;
  gfloat r1, r2;

  r1 = (aligned & (rst > 0.0)) ? (gfloat) (up < t ? up : t) : rst;
  down = r1 * limit;
  r2 = (aligned & (r1 < 0.0)) ? (gfloat) (down > t ? down : t) : r1;
  return r2;
}

/* One band pair of a row, given t / o in @k. */
VH_FLOAT_MULTIVERSION static void
decouple_row (const gfloat * restrict oh, const gfloat * restrict ov,
    const gfloat * restrict od, const gfloat * restrict th,
    const gfloat * restrict tv, const gfloat * restrict td,
    const gfloat * restrict kh, const gfloat * restrict kv,
    const gfloat * restrict kd, gfloat * restrict rh, gfloat * restrict rv,
    gfloat * restrict rd, gfloat * restrict ah, gfloat * restrict av,
    gfloat * restrict ad, gint n, gdouble limit)
{
  const gfloat cos_1deg_sq = vh_fadm_cos_1deg_sq ();

  for (gint j = 0; j < n; j++) {
    gfloat h = clamp01 (kh[j]) * oh[j];
    gfloat v = clamp01 (kv[j]) * ov[j];
    gfloat d = clamp01 (kd[j]) * od[j];
    /* Angle test without trigonometry: cos^2 of the angle between
     * (oh, ov) and (th, tv) against cos^2 (1 degree). */
    gfloat dot = oh[j] * th[j] + ov[j] * tv[j];
    gfloat o_sq = oh[j] * oh[j] + ov[j] * ov[j];
    gfloat t_sq = th[j] * th[j] + tv[j] * tv[j];
    gint aligned = (dot >= 0.0f) & (dot * dot >= cos_1deg_sq * o_sq * t_sq);

    h = enhance (h, th[j], aligned, limit);
    v = enhance (v, tv[j], aligned, limit);
    d = enhance (d, td[j], aligned, limit);
    rh[j] = h;
    rv[j] = v;
    rd[j] = d;
    ah[j] = th[j] - h;
    av[j] = tv[j] - v;
    ad[j] = td[j] - d;
  }
}

void
vh_fadm_decouple (const VhFadmBands * ref, const VhFadmBands * dis,
    const VhFadmBands * r, const VhFadmBands * a, gsize stride, guint w,
    guint h, gdouble gain_limit, gfloat * scratch)
{
  const gfloat eps = 1e-30;
  gfloat *kh = scratch, *kv = scratch + w, *kd = scratch + 2 * w;
  VhFadmRect rc;
  gint n;

  vh_fadm_filter_rect (w, h, &rc);
  n = rc.right - rc.left;
  for (gint i = rc.top; i < rc.bottom; i++) {
    const gsize o = (gsize) i * stride + rc.left;

    adm_div_row (dis->h + o, ref->h + o, eps, kh, n);
    adm_div_row (dis->v + o, ref->v + o, eps, kv, n);
    adm_div_row (dis->d + o, ref->d + o, eps, kd, n);
    decouple_row (ref->h + o, ref->v + o, ref->d + o, dis->h + o,
        dis->v + o, dis->d + o, kh, kv, kd, r->h + o, r->v + o, r->d + o,
        a->h + o, a->v + o, a->d + o, n, gain_limit);
  }
}

VH_FLOAT_MULTIVERSION static void
csf_row (const gfloat * restrict src, gfloat * restrict dst,
    gfloat * restrict flt, gfloat rf, gint n)
{
  for (gint j = 0; j < n; j++) {
    gfloat v = rf * src[j];

    dst[j] = v;
    flt[j] = (gfloat) (ONE_BY_30 * fabsf (v));
  }
}

void
vh_fadm_csf (const VhFadmBands * src, const VhFadmBands * dst,
    const VhFadmBands * flt, gsize stride, guint w, guint h, const gfloat rf[3])
{
  const gfloat *s[3] = { src->h, src->v, src->d };
  gfloat *o[3] = { dst->h, dst->v, dst->d };
  gfloat *f[3] = { flt->h, flt->v, flt->d };
  VhFadmRect rc;

  vh_fadm_filter_rect (w, h, &rc);
  for (guint t = 0; t < 3; t++) {
    for (gint i = rc.top; i < rc.bottom; i++) {
      const gsize off = (gsize) i * stride + rc.left;

      csf_row (s[t] + off, o[t] + off, f[t] + off, rf[t], rc.right - rc.left);
    }
  }
}

/* libvmaf's noise floor of a @w x @h region. */
static gfloat
noise_floor (gint w, gint h, gdouble weight, gdouble p)
{
  return powf (w * h * weight, 1.0f / p);
}

gfloat
vh_fadm_pool_bands (const gfloat acc[3], gint n, gint n_rows,
    const VhFadmPool * pool)
{
  const gfloat noise = noise_floor (n, n_rows, pool->noise_weight,
      pool->p_norm);
  gfloat result = 0.0f;

  for (guint t = 0; t < 3; t++)
    result += powf (acc[t], 1.0f / pool->p_norm) + noise;
  return result;
}

/* Masking sum of one band at one pixel: the 3x3 neighbourhood of @f with
 * the centre replaced by |@c| / 15, added in raster order. The centre's
 * weight is a double, so that add is done in double. */
static inline gfloat
mask3x3 (const gfloat * fu, const gfloat * fm, const gfloat * fd,
    const gfloat * cm, gint jl, gint j, gint jr)
{
  gfloat sum = 0.0f;

  sum += fu[jl];
  sum += fu[j];
  sum += fu[jr];
  sum += fm[jl];
  sum = (gfloat) (sum + ONE_BY_15 * fabsf (cm[j]));
  sum += fm[jr];
  sum += fd[jl];
  sum += fd[j];
  sum += fd[jr];
  return sum;
}

typedef struct
{
  const gfloat *fu[3], *fm[3], *fd[3];  /* neighbour rows of each band */
  const gfloat *cm[3];          /* centre row of each band */
} MaskRows;

static inline gfloat
mask_thr (const MaskRows * m, gint jl, gint j, gint jr)
{
  gfloat thr = 0.0f;

  for (guint t = 0; t < 3; t++)
    thr += mask3x3 (m->fu[t], m->fm[t], m->fd[t], m->cm[t], jl, j, jr);
  return thr;
}

VH_FLOAT_MULTIVERSION static void
mask_row_inner (const MaskRows * rows, gfloat * restrict thr, gint j0, gint j1)
{
  /* A local copy: the row pointers stay in registers. */
  const MaskRows m = *rows;

  for (gint j = j0; j < j1; j++)
    thr[j] = mask_thr (&m, j - 1, j, j + 1);
}

/* Cubes (or p-th powers) of the masked, weighted values of one row. */
VH_FLOAT_MULTIVERSION static void
masked_terms (const gfloat * restrict src, const gfloat * restrict thr,
    gfloat * restrict out, gfloat rf, gdouble p, gint n)
{
  if (p == 3.0) {
    for (gint j = 0; j < n; j++) {
      gfloat x = fabsf (src[j] * rf) - thr[j];

      x = x < 0.0f ? 0.0f : x;
      out[j] = x * x * x;
    }
  } else {
    for (gint j = 0; j < n; j++) {
      gfloat x = fabsf (src[j] * rf) - thr[j];

      x = x < 0.0f ? 0.0f : x;
      out[j] = powf (x, p);
    }
  }
}

gfloat
vh_fadm_cm (const VhFadmBands * src, const VhFadmBands * flt,
    const VhFadmBands * csf, gsize stride, guint w, guint h,
    const gfloat rf[3], const VhFadmPool * pool, gfloat * scratch)
{
  const gdouble p = pool->p_norm;
  const gfloat *s[3] = { src->h, src->v, src->d };
  const gfloat *f[3] = { flt->h, flt->v, flt->d };
  const gfloat *c[3] = { csf->h, csf->v, csf->d };
  gfloat *thr = scratch, *terms = scratch + w;
  gfloat acc[3] = { 0.0f, 0.0f, 0.0f };
  const gint iw = (gint) w, ih = (gint) h;
  VhFadmRect rc;
  gint n, j0, j1;

  vh_fadm_score_rect (w, h, &rc);
  n = rc.right - rc.left;
  /* Columns whose neighbours need no mirroring. */
  j0 = MAX (rc.left, 1);
  j1 = MIN (rc.right, iw - 1);

  for (gint i = rc.top; i < rc.bottom; i++) {
    /* Row -1 reads row 1; row h reads row h - 1. */
    const gsize up = i == 0 ? 1 : i - 1, dn = i == ih - 1 ? ih - 1 : i + 1;
    const gsize mid = i;
    MaskRows m;

    for (guint t = 0; t < 3; t++) {
      m.fu[t] = f[t] + up * stride;
      m.fm[t] = f[t] + mid * stride;
      m.fd[t] = f[t] + dn * stride;
      m.cm[t] = c[t] + mid * stride;
    }
    if (pool->bypass_cm) {
      for (gint j = rc.left; j < rc.right; j++)
        thr[j] = 0.0f;
    } else {
      if (rc.left == 0)
        thr[0] = mask_thr (&m, 1, 0, 1);
      mask_row_inner (&m, thr, j0, j1);
      if (rc.right == iw)
        thr[iw - 1] = mask_thr (&m, iw - 2, iw - 1, iw - 1);
    }

    for (guint t = 0; t < 3; t++) {
      gfloat row = 0.0f;

      masked_terms (s[t] + (gsize) i * stride + rc.left, thr + rc.left,
          terms, rf[t], p, n);
      for (gint j = 0; j < n; j++)
        row += terms[j];
      acc[t] += row;
    }
  }

  return vh_fadm_pool_bands (acc, n, rc.bottom - rc.top, pool);
}

gfloat
vh_fadm_den_scale (const VhFadmBands * src, gsize stride, guint w, guint h,
    const gfloat rf[3], const VhFadmPool * pool, gfloat * scratch)
{
  const gfloat *s[3] = { src->h, src->v, src->d };
  gfloat *zero = scratch, *terms = scratch + w;
  gfloat acc[3] = { 0.0f, 0.0f, 0.0f };
  VhFadmRect rc;
  gint n;

  vh_fadm_score_rect (w, h, &rc);
  n = rc.right - rc.left;
  /* |x| - 0 is |x|: the unmasked terms. */
  for (gint j = 0; j < n; j++)
    zero[j] = 0.0f;
  for (gint i = rc.top; i < rc.bottom; i++) {
    for (guint t = 0; t < 3; t++) {
      gfloat row = 0.0f;

      masked_terms (s[t] + (gsize) i * stride + rc.left, zero, terms, rf[t],
          pool->p_norm, n);
      for (gint j = 0; j < n; j++)
        row += terms[j];
      acc[t] += row;
    }
  }
  return vh_fadm_pool_bands (acc, n, rc.bottom - rc.top, pool);
}
