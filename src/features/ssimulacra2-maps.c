/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* SSIMULACRA 2's per-frame work on the CPU: linear light, the scales,
 * XYB, the recursive blur and the sums of the SSIM and edge maps, in the
 * order ssimulacra2.h describes. */

#include "ssimulacra2-private.h"
#include "simd.h"

#include <math.h>

#define SSIMU2_C2 0.0009f

/* The work is compiled twice, as portable code and for CPUs with FMA
 * (fmaf is then one instruction instead of a call), with no contraction
 * in either: both give the same bits. */
#define VH_SSIMU2_INLINE __attribute__ ((always_inline))
#define VH_SSIMU2_FMA(a, b, c) __builtin_fmaf ((a), (b), (c))

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

void
vh_ssimu2_planes_init (VhSsimu2Planes * p, guint width, guint height)
{
  const gsize full = (gsize) width * height;
  const gsize half = (gsize) ((width + 1) / 2) * ((height + 1) / 2);

  p->width = width;
  p->height = height;
  for (guint s = 0; s < 2; s++)
    for (guint c = 0; c < 3; c++) {
      p->lin[s][0][c] = g_new (gfloat, full);
      p->lin[s][1][c] = g_new (gfloat, half);
      p->xyb[s][c] = g_new (gfloat, full);
    }
  for (guint i = 0; i < G_N_ELEMENTS (p->tmp); i++)
    p->tmp[i] = g_new (gfloat, full);
  p->state = g_new (gfloat, (gsize) 6 * width);
  p->row16 = g_new (guint16, (gsize) 3 * width);
}

void
vh_ssimu2_planes_clear (VhSsimu2Planes * p)
{
  for (guint s = 0; s < 2; s++)
    for (guint c = 0; c < 3; c++) {
      g_clear_pointer (&p->lin[s][0][c], g_free);
      g_clear_pointer (&p->lin[s][1][c], g_free);
      g_clear_pointer (&p->xyb[s][c], g_free);
    }
  for (guint i = 0; i < G_N_ELEMENTS (p->tmp); i++)
    g_clear_pointer (&p->tmp[i], g_free);
  g_clear_pointer (&p->state, g_free);
  g_clear_pointer (&p->row16, g_free);
}

static inline VH_SSIMU2_INLINE void
ssimu2_linear (const VhSsimu2 * s, const VhSsimu2Yuv * yuv,
    VhSsimu2Planes * p, const VhPicture * pic, gfloat * const out[3])
{
  const guint w = pic->info.width, h = pic->info.height;
  guint16 *r = p->row16, *g = r + w, *b = g + w;

  for (guint y = 0; y < h; y++) {
    gfloat *o0 = out[0] + (gsize) y * w, *o1 = out[1] + (gsize) y * w;
    gfloat *o2 = out[2] + (gsize) y * w;

    vh_ssimu2_rgb16_row (yuv, pic, y, r, g, b);
    for (guint x = 0; x < w; x++) {
      o0[x] = s->to_linear[r[x]];
      o1[x] = s->to_linear[g[x]];
      o2[x] = s->to_linear[b[x]];
    }
  }
}

/* 2x2 box average, the last row and column repeated past the edge. */
static inline VH_SSIMU2_INLINE void
ssimu2_downsample (const gfloat * in, guint w, guint h, gfloat * out)
{
  const guint ow = (w + 1) / 2, oh = (h + 1) / 2;

  for (guint oy = 0; oy < oh; oy++) {
    const gfloat *r0 = in + (gsize) (2 * oy) * w;
    const gfloat *r1 = in + (gsize) MIN (2 * oy + 1, h - 1) * w;

    for (guint ox = 0; ox < ow; ox++) {
      const guint x0 = 2 * ox, x1 = MIN (2 * ox + 1, w - 1);

      out[(gsize) oy * ow + ox] = (((r0[x0] + r0[x1]) + r1[x0]) + r1[x1]) *
          0.25f;
    }
  }
}

static inline VH_SSIMU2_INLINE void
ssimu2_xyb (const VhSsimu2 * s, gfloat * const lin[3], gfloat * const xyb[3],
    gsize n)
{
  const gfloat *m = s->mix;

  for (gsize i = 0; i < n; i++) {
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

static inline VH_SSIMU2_INLINE void
ssimu2_blur_rows (const VhSsimu2Gauss * g, const gfloat * in, guint w,
    guint h, gfloat * out)
{
  for (guint y = 0; y < h; y++)
    ssimu2_blur_row (g, in + (gsize) y * w, (gint) w, out + (gsize) y * w);
}

/* Every column at once, one row after the other. */
static inline VH_SSIMU2_INLINE void
ssimu2_blur_columns (const VhSsimu2Gauss * g, gfloat * state, const gfloat * in,
    guint w, guint h, gfloat * out)
{
  const gint N = g->radius, height = (gint) h;
  gfloat *prev[3], *prev2[3];

  for (guint k = 0; k < 3; k++) {
    prev[k] = state + (gsize) (2 * k) * w;
    prev2[k] = state + (gsize) (2 * k + 1) * w;
    for (guint x = 0; x < w; x++)
      prev[k][x] = prev2[k][x] = 0.0f;
  }
  for (gint n = -N + 1; n < height; n++) {
    const gint top = n - N - 1, bottom = n + N - 1;
    const gfloat *rt = top >= 0 ? in + (gsize) top * w : NULL;
    const gfloat *rb = bottom < height ? in + (gsize) bottom * w : NULL;
    gfloat *o = n >= 0 ? out + (gsize) n * w : NULL;

    for (guint x = 0; x < w; x++) {
      const gfloat sum = (rt ? rt[x] : 0.0f) + (rb ? rb[x] : 0.0f);
      gfloat acc[3];

      for (guint k = 0; k < 3; k++) {
        acc[k] = VH_SSIMU2_FMA (g->n2[k], sum, VH_SSIMU2_FMA (-g->d1[k], prev[k][x],
                -prev2[k][x]));
        prev2[k][x] = prev[k][x];
        prev[k][x] = acc[k];
      }
      if (o)
        o[x] = acc[0] + (acc[1] + acc[2]);
    }
  }
}

static inline VH_SSIMU2_INLINE void
ssimu2_blur (const VhSsimu2 * s, VhSsimu2Planes * p, const gfloat * in,
    guint w, guint h, gfloat * out)
{
  ssimu2_blur_rows (&s->gauss, in, w, h, p->tmp[1]);
  ssimu2_blur_columns (&s->gauss, p->state, p->tmp[1], w, h, out);
}

static inline VH_SSIMU2_INLINE void
ssimu2_multiply (const gfloat * a, const gfloat * b, gsize n, gfloat * out)
{
  for (gsize i = 0; i < n; i++)
    out[i] = a[i] * b[i];
}

/* One channel's six sums. Each row's in 32 interleaved partial sums in
 * double (column x goes to sum x mod 32, left to right), combined pairwise
 * (16 apart, then 8, 4, 2, 1), then the rows' in order: the GPU's order,
 * a warp per row. */
static inline VH_SSIMU2_INLINE void
ssimu2_channel_sums (const gfloat * x1, const gfloat * x2, gfloat * const t[7],
    guint w, guint h, gdouble sums[VH_SSIMU2_SUMS_PER_CHANNEL])
{
  const gfloat *s11 = t[2], *s22 = t[3], *s12 = t[4], *m1 = t[5], *m2 = t[6];

  for (guint k = 0; k < VH_SSIMU2_SUMS_PER_CHANNEL; k++)
    sums[k] = 0.0;
  for (guint y = 0; y < h; y++) {
    gdouble acc[VH_SSIMU2_LANES][VH_SSIMU2_SUMS_PER_CHANNEL] = { {0} };

    for (guint x = 0; x < w; x++) {
      const gsize i = (gsize) y * w + x;
      gdouble *row = acc[x % VH_SSIMU2_LANES];
      const gfloat mu1 = m1[i], mu2 = m2[i];
      const gfloat mu11 = mu1 * mu1, mu22 = mu2 * mu2, mu12 = mu1 * mu2;
      const gfloat diff = mu1 - mu2;
      const gfloat num_m = 1.0f - diff * diff;
      const gfloat num_s = 2.0f * (s12[i] - mu12) + SSIMU2_C2;
      const gfloat denom_s = (s11[i] - mu11) + (s22[i] - mu22) + SSIMU2_C2;
      gdouble d = 1.0 - (gdouble) ((num_m * num_s) / denom_s);
      gdouble edge, v;

      d = d > 0.0 ? d : 0.0;
      row[0] += d;
      d *= d;
      row[1] += d * d;
      edge = (1.0 + (gdouble) fabsf (x2[i] - mu2)) /
          (1.0 + (gdouble) fabsf (x1[i] - mu1)) - 1.0;
      v = edge > 0.0 ? edge : 0.0;
      row[2] += v;
      v *= v;
      row[3] += v * v;
      v = edge < 0.0 ? -edge : 0.0;
      row[4] += v;
      v *= v;
      row[5] += v * v;
    }
    for (guint off = VH_SSIMU2_LANES / 2; off > 0; off /= 2)
      for (guint j = 0; j < off; j++)
        for (guint k = 0; k < VH_SSIMU2_SUMS_PER_CHANNEL; k++)
          acc[j][k] += acc[j + off][k];
    for (guint k = 0; k < VH_SSIMU2_SUMS_PER_CHANNEL; k++)
      sums[k] += acc[0][k];
  }
}

static inline VH_SSIMU2_INLINE guint
ssimu2_compute (const VhSsimu2 * s, VhSsimu2Planes * p,
    const VhPicture * ref, const VhPicture * dist, gdouble * sums)
{
  const guint n_scales = vh_ssimu2_n_scales (p->width, p->height);
  guint w = p->width, h = p->height, cur = 0;

  ssimu2_linear (s, &s->yuv[0], p, ref, p->lin[0][0]);
  ssimu2_linear (s, &s->yuv[1], p, dist, p->lin[1][0]);
  for (guint scale = 0; scale < n_scales; scale++) {
    gsize n;

    if (scale > 0) {
      for (guint side = 0; side < 2; side++)
        for (guint c = 0; c < 3; c++)
          ssimu2_downsample (p->lin[side][cur][c], w, h,
              p->lin[side][cur ^ 1][c]);
      cur ^= 1;
      w = (w + 1) / 2;
      h = (h + 1) / 2;
    }
    n = (gsize) w * h;
    ssimu2_xyb (s, p->lin[0][cur], p->xyb[0], n);
    ssimu2_xyb (s, p->lin[1][cur], p->xyb[1], n);
    for (guint c = 0; c < 3; c++) {
      const gfloat *x1 = p->xyb[0][c], *x2 = p->xyb[1][c];

      ssimu2_multiply (x1, x1, n, p->tmp[0]);
      ssimu2_blur (s, p, p->tmp[0], w, h, p->tmp[2]);
      ssimu2_multiply (x2, x2, n, p->tmp[0]);
      ssimu2_blur (s, p, p->tmp[0], w, h, p->tmp[3]);
      ssimu2_multiply (x1, x2, n, p->tmp[0]);
      ssimu2_blur (s, p, p->tmp[0], w, h, p->tmp[4]);
      ssimu2_blur (s, p, x1, w, h, p->tmp[5]);
      ssimu2_blur (s, p, x2, w, h, p->tmp[6]);
      ssimu2_channel_sums (x1, x2, p->tmp, w, h,
          sums + scale * VH_SSIMU2_SUMS_PER_SCALE +
          c * VH_SSIMU2_SUMS_PER_CHANNEL);
    }
  }
  return n_scales;
}

static guint
ssimu2_compute_c (const VhSsimu2 * s, VhSsimu2Planes * p,
    const VhPicture * ref, const VhPicture * dist, gdouble * sums)
{
  return ssimu2_compute (s, p, ref, dist, sums);
}

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define VH_SSIMU2_HAVE_FMA 1
__attribute__ ((target ("avx2,fma"), optimize ("fp-contract=off")))
static guint
ssimu2_compute_fma (const VhSsimu2 * s, VhSsimu2Planes * p,
    const VhPicture * ref, const VhPicture * dist, gdouble * sums)
{
  return ssimu2_compute (s, p, ref, dist, sums);
}
#endif

gboolean
vh_ssimu2_can_use_fma (guint cpu_mask)
{
#ifdef VH_SSIMU2_HAVE_FMA
  return vh_simd_use_avx2 (cpu_mask) && __builtin_cpu_supports ("fma");
#else
  return FALSE;
#endif
}

guint
vh_ssimu2_compute (const VhSsimu2 * s, VhSsimu2Planes * p,
    const VhPicture * ref, const VhPicture * dist, gboolean use_fma,
    gdouble * sums)
{
#ifdef VH_SSIMU2_HAVE_FMA
  if (use_fma)
    return ssimu2_compute_fma (s, p, ref, dist, sums);
#endif
  return ssimu2_compute_c (s, p, ref, dist, sums);
}
