/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* SSIMULACRA 2's SIMD kernels, written once for AVX2 and AVX-512: the
 * including file defines VS2_TARGET (its target attribute), VS2_LANES
 * (floats a vector), the types VF (floats) and VD (half as many doubles)
 * and the vf_* and vd_* operations below, each one instruction of the
 * scalar code's kind. Each lane does exactly what the portable code
 * (ssimulacra2-maps-body.h) does for its sample, in the same order, so
 * the bits are the same:
 * - downsampling, XYB, the column blur and the sums: a lane per column;
 * - the row blur, serial along a row: a lane per row, VS2_LANES rows at
 *   once, transposed through @p->tile in blocks of 8 x 8 (the product of
 *   the two planes taken on the way in: no plane of its own);
 * - a channel (vs2_channel()): its five blurs and its sums in one sweep
 *   down the planes, so that the blurred rows stay in cache. */

#include "ssimulacra2-maps-body.h"

#include <immintrin.h>
#include <string.h>

/* 8 x 8 floats transposed in registers. */
static inline VS2_TARGET void
vs2_transpose8 (__m256 r[8])
{
  const __m256 t0 = _mm256_unpacklo_ps (r[0], r[1]);
  const __m256 t1 = _mm256_unpackhi_ps (r[0], r[1]);
  const __m256 t2 = _mm256_unpacklo_ps (r[2], r[3]);
  const __m256 t3 = _mm256_unpackhi_ps (r[2], r[3]);
  const __m256 t4 = _mm256_unpacklo_ps (r[4], r[5]);
  const __m256 t5 = _mm256_unpackhi_ps (r[4], r[5]);
  const __m256 t6 = _mm256_unpacklo_ps (r[6], r[7]);
  const __m256 t7 = _mm256_unpackhi_ps (r[6], r[7]);
  const __m256 s0 = _mm256_shuffle_ps (t0, t2, _MM_SHUFFLE (1, 0, 1, 0));
  const __m256 s1 = _mm256_shuffle_ps (t0, t2, _MM_SHUFFLE (3, 2, 3, 2));
  const __m256 s2 = _mm256_shuffle_ps (t1, t3, _MM_SHUFFLE (1, 0, 1, 0));
  const __m256 s3 = _mm256_shuffle_ps (t1, t3, _MM_SHUFFLE (3, 2, 3, 2));
  const __m256 s4 = _mm256_shuffle_ps (t4, t6, _MM_SHUFFLE (1, 0, 1, 0));
  const __m256 s5 = _mm256_shuffle_ps (t4, t6, _MM_SHUFFLE (3, 2, 3, 2));
  const __m256 s6 = _mm256_shuffle_ps (t5, t7, _MM_SHUFFLE (1, 0, 1, 0));
  const __m256 s7 = _mm256_shuffle_ps (t5, t7, _MM_SHUFFLE (3, 2, 3, 2));

  r[0] = _mm256_permute2f128_ps (s0, s4, 0x20);
  r[1] = _mm256_permute2f128_ps (s1, s5, 0x20);
  r[2] = _mm256_permute2f128_ps (s2, s6, 0x20);
  r[3] = _mm256_permute2f128_ps (s3, s7, 0x20);
  r[4] = _mm256_permute2f128_ps (s0, s4, 0x31);
  r[5] = _mm256_permute2f128_ps (s1, s5, 0x31);
  r[6] = _mm256_permute2f128_ps (s2, s6, 0x31);
  r[7] = _mm256_permute2f128_ps (s3, s7, 0x31);
}

/* ------------------------------------------------------------------ */
/* Downsampling, 8 outputs at once                                     */

/* The even and the odd samples of 16 from @p. */
static inline VS2_TARGET void
vs2_deinterleave (const gfloat * p, __m256 * even, __m256 * odd)
{
  const __m256 a = _mm256_loadu_ps (p), b = _mm256_loadu_ps (p + 8);

  /* per 128-bit half: a0 a2 b0 b2 | a4 a6 b4 b6, then the halves' pairs
   * in order */
  *even = _mm256_castpd_ps (_mm256_permute4x64_pd (_mm256_castps_pd
          (_mm256_shuffle_ps (a, b, _MM_SHUFFLE (2, 0, 2, 0))),
          _MM_SHUFFLE (3, 1, 2, 0)));
  *odd = _mm256_castpd_ps (_mm256_permute4x64_pd (_mm256_castps_pd
          (_mm256_shuffle_ps (a, b, _MM_SHUFFLE (3, 1, 3, 1))),
          _MM_SHUFFLE (3, 1, 2, 0)));
}

static VS2_TARGET void
vs2_downsample (const gfloat * in, guint w, guint h, gfloat * out)
{
  const guint ow = (w + 1) / 2, oh = (h + 1) / 2;
  const __m256 quarter = _mm256_set1_ps (0.25f);

  for (guint oy = 0; oy < oh; oy++) {
    const gfloat *r0 = in + (gsize) (2 * oy) * w;
    const gfloat *r1 = in + (gsize) MIN (2 * oy + 1, h - 1) * w;
    gfloat *o = out + (gsize) oy * ow;
    guint ox = 0;

    /* while both columns of each output are inside the row */
    for (; ox + 8 <= w / 2; ox += 8) {
      __m256 e0, o0, e1, o1;

      vs2_deinterleave (r0 + 2 * ox, &e0, &o0);
      vs2_deinterleave (r1 + 2 * ox, &e1, &o1);
      _mm256_storeu_ps (o + ox, _mm256_mul_ps (_mm256_add_ps (_mm256_add_ps
                  (_mm256_add_ps (e0, o0), e1), o1), quarter));
    }
    ssimu2_downsample_row (r0, r1, w, ox, o);
  }
}

/* ------------------------------------------------------------------ */
/* XYB                                                                 */

static inline VS2_TARGET VF
vs2_cbrt_add (VF x, VF add)
{
  const VF third = vf_set1 (1.0f / 3), four_thirds = vf_set1 (4.0f / 3);
  const VF x_3 = vf_mul (third, x);
  VF r = vf_cbrt_guess (x), r2;

  for (guint i = 0; i < 3; i++) {
    r2 = vf_mul (r, r);
    r = vf_fma (vf_neg (x_3), vf_mul (r2, r2), vf_mul (four_thirds, r));
  }
  r2 = vf_mul (r, r);
  r = vf_fma (third, vf_fma (vf_neg (x), vf_mul (r2, r2), r), r);
  r2 = vf_mul (r, r);
  return vf_fma (r2, x, add);
}

static VS2_TARGET void
vs2_xyb (const VhSsimu2 * s, gfloat * const lin[3], gfloat * const xyb[3],
    gsize n)
{
  const gfloat *m = s->mix;
  const VF bias = vf_set1 (s->bias), neg_bias_cbrt =
      vf_set1 (s->neg_bias_cbrt);
  gsize i = 0;

  for (; i + VS2_LANES <= n; i += VS2_LANES) {
    const VF r = vf_load (lin[0] + i), g = vf_load (lin[1] + i);
    const VF b = vf_load (lin[2] + i);
    VF mixed[3], xv, yv;

    for (guint k = 0; k < 3; k++) {
      const VF v = vf_fma (vf_set1 (m[3 * k]), r,
          vf_fma (vf_set1 (m[3 * k + 1]), g,
              vf_fma (vf_set1 (m[3 * k + 2]), b, bias)));

      mixed[k] = vs2_cbrt_add (vf_zero_if_negative (v), neg_bias_cbrt);
    }
    xv = vf_mul (vf_set1 (0.5f), vf_sub (mixed[0], mixed[1]));
    yv = vf_mul (vf_set1 (0.5f), vf_add (mixed[0], mixed[1]));
    vf_store (xyb[2] + i, vf_add (vf_sub (mixed[2], yv), vf_set1 (0.55f)));
    vf_store (xyb[0] + i, vf_add (vf_mul (xv, vf_set1 (14.0f)),
            vf_set1 (0.42f)));
    vf_store (xyb[1] + i, vf_add (yv, vf_set1 (0.01f)));
  }
  ssimu2_xyb_range (s, lin, xyb, i, n);
}

/* ------------------------------------------------------------------ */
/* Row blur, a lane per row                                            */

/* Rows [@y0, @y0 + VS2_LANES) of @a (times @b) into @tile, sample x of
 * row y0 + l at x * VS2_LANES + l; rows past @h repeat the last one (their
 * lanes are computed and thrown away). */
static inline VS2_TARGET void
vs2_tile_load (const gfloat * a, const gfloat * b, guint w, guint h,
    guint y0, gfloat * tile)
{
  for (guint l0 = 0; l0 < VS2_LANES; l0 += 8) {
    const gfloat *ra[8], *rb[8];
    guint x = 0;

    for (guint l = 0; l < 8; l++) {
      const gsize y = MIN (y0 + l0 + l, h - 1);

      ra[l] = a + y * w;
      rb[l] = b ? b + y * w : NULL;
    }
    for (; x + 8 <= w; x += 8) {
      __m256 v[8];

      for (guint l = 0; l < 8; l++) {
        v[l] = _mm256_loadu_ps (ra[l] + x);
        if (b)
          v[l] = _mm256_mul_ps (v[l], _mm256_loadu_ps (rb[l] + x));
      }
      vs2_transpose8 (v);
      for (guint j = 0; j < 8; j++)
        _mm256_storeu_ps (tile + (gsize) (x + j) * VS2_LANES + l0, v[j]);
    }
    for (; x < w; x++)
      for (guint l = 0; l < 8; l++)
        tile[(gsize) x * VS2_LANES + l0 + l] = b ? ra[l][x] * rb[l][x] :
            ra[l][x];
  }
}

/* The inverse of vs2_tile_load(), row y (below @h) to @rows + (y mod
 * @ring) @w. */
static inline VS2_TARGET void
vs2_tile_store (const gfloat * tile, guint w, guint h, guint y0,
    gfloat * rows, guint ring)
{
  for (guint l0 = 0; l0 < VS2_LANES && y0 + l0 < h; l0 += 8) {
    const guint n_rows = MIN (8, h - y0 - l0);
    gfloat *ro[8];
    guint x = 0;

    for (guint l = 0; l < n_rows; l++)
      ro[l] = rows + (gsize) ((y0 + l0 + l) % ring) * w;
    for (; x + 8 <= w; x += 8) {
      __m256 v[8];

      for (guint j = 0; j < 8; j++)
        v[j] = _mm256_loadu_ps (tile + (gsize) (x + j) * VS2_LANES + l0);
      vs2_transpose8 (v);
      for (guint l = 0; l < n_rows; l++)
        _mm256_storeu_ps (ro[l] + x, v[l]);
    }
    for (; x < w; x++)
      for (guint l = 0; l < n_rows; l++)
        ro[l][x] = tile[(gsize) x * VS2_LANES + l0 + l];
  }
}

#define VS2_AT(t, x) ((t) + (gsize) (x) * VS2_LANES)

/* ssimu2_blur_step() on every lane. */
static inline VS2_TARGET void
vs2_blur_step (const VhSsimu2Gauss * g, const gfloat * in, gint width,
    gint n, VF prev[3], VF prev2[3], gfloat * out)
{
  const gint N = g->radius, left = n - N - 1, right = n + N - 1;
  const VF sum = vf_add (left >= 0 ? vf_load (VS2_AT (in, left)) :
      vf_zero (), right < width ? vf_load (VS2_AT (in, right)) : vf_zero ());
  VF o[3];

  for (guint k = 0; k < 3; k++) {
    o[k] = vf_mul (sum, vf_set1 (g->mul_in[k][0]));
    o[k] = vf_fma (vf_set1 (g->mul_prev2[k][0]), prev2[k], o[k]);
    o[k] = vf_fma (vf_set1 (g->mul_prev[k][0]), prev[k], o[k]);
    prev2[k] = prev[k];
    prev[k] = o[k];
  }
  if (n >= 0)
    vf_store (VS2_AT (out, n), vf_add (o[0], vf_add (o[1], o[2])));
}

/* ssimu2_blur_row() on every lane of a tile. */
static inline VS2_TARGET void
vs2_blur_tile (const VhSsimu2Gauss * g, const gfloat * in, gint width,
    gfloat * out)
{
  const gint N = g->radius, first_aligned = (N + 1 + 3) / 4 * 4;
  VF prev[3], prev2[3];
  gint n = -N + 1;

  for (guint k = 0; k < 3; k++)
    prev[k] = prev2[k] = vf_zero ();
  for (; n < MIN (first_aligned, width); n++)
    vs2_blur_step (g, in, width, n, prev, prev2, out);
  for (; n < width - N + 1 - 3; n += 4) {
    VF sum[4], o[3][4];

    for (guint j = 0; j < 4; j++)
      sum[j] = vf_add (vf_load (VS2_AT (in, n + (gint) j - N - 1)),
          vf_load (VS2_AT (in, n + (gint) j + N - 1)));
    for (guint k = 0; k < 3; k++) {
      for (guint j = 0; j < 4; j++) {
        VF v = vf_mul (sum[0], vf_set1 (g->mul_in[k][j]));

        for (guint t = 1; t <= j; t++)
          v = vf_fma (vf_set1 (g->mul_in[k][j - t]), sum[t], v);
        v = vf_fma (vf_set1 (g->mul_prev2[k][j]), prev2[k], v);
        o[k][j] = vf_fma (vf_set1 (g->mul_prev[k][j]), prev[k], v);
      }
      prev2[k] = o[k][2];
      prev[k] = o[k][3];
    }
    for (guint j = 0; j < 4; j++)
      vf_store (VS2_AT (out, n + (gint) j), vf_add (o[0][j],
              vf_add (o[1][j], o[2][j])));
  }
  for (; n < width; n++)
    vs2_blur_step (g, in, width, n, prev, prev2, out);
}

/* ------------------------------------------------------------------ */
/* Column blur, a lane per column                                      */

/* ssimu2_blur_column_steps() on VS2_LANES columns from @x, the poles in
 * registers meanwhile. */
static inline VS2_TARGET void
vs2_blur_column_strip (const VhSsimu2Gauss * g, gfloat * state,
    const gfloat * rows, guint ring, guint w, guint h, guint x, gint n0,
    gint n1, gfloat * out, gint out_row0)
{
  const gint N = g->radius, height = (gint) h;
  VF prev[3], prev2[3], n2[3], neg_d1[3];

  for (guint k = 0; k < 3; k++) {
    prev[k] = vf_load (state + (gsize) (2 * k) * w + x);
    prev2[k] = vf_load (state + (gsize) (2 * k + 1) * w + x);
    n2[k] = vf_set1 (g->n2[k]);
    neg_d1[k] = vf_set1 (-g->d1[k]);
  }
  /* the ring slots of the window's rows, stepped without a division */
  guint top_slot = n0 - N - 1 >= 0 ? (guint) (n0 - N - 1) % ring : 0;
  guint bottom_slot = (guint) (n0 + N - 1) % ring;

  for (gint n = n0; n < n1; n++) {
    const gint top = n - N - 1, bottom = n + N - 1;
    const VF sum = vf_add (top >= 0 ? vf_load (rows + (gsize) top_slot * w +
            x) : vf_zero (), bottom < height ? vf_load (rows +
            (gsize) bottom_slot * w + x) : vf_zero ());
    VF acc[3];

    if (top >= 0 && ++top_slot == ring)
      top_slot = 0;
    if (++bottom_slot == ring)
      bottom_slot = 0;

    for (guint k = 0; k < 3; k++) {
      acc[k] = vf_fma (n2[k], sum, vf_fma (neg_d1[k], prev[k],
              vf_neg (prev2[k])));
      prev2[k] = prev[k];
      prev[k] = acc[k];
    }
    if (n >= 0)
      vf_store (out + (gsize) (n - out_row0) * w + x, vf_add (acc[0],
              vf_add (acc[1], acc[2])));
  }
  for (guint k = 0; k < 3; k++) {
    vf_store (state + (gsize) (2 * k) * w + x, prev[k]);
    vf_store (state + (gsize) (2 * k + 1) * w + x, prev2[k]);
  }
}

/* ssimu2_blur_column_steps() on every column. */
static inline VS2_TARGET void
vs2_blur_column_steps (const VhSsimu2Gauss * g, gfloat * state,
    const gfloat * rows, guint ring, guint w, guint h, gint n0, gint n1,
    gfloat * out, gint out_row0)
{
  const guint full = w / VS2_LANES * VS2_LANES;

  for (guint x = 0; x < full; x += VS2_LANES)
    vs2_blur_column_strip (g, state, rows, ring, w, h, x, n0, n1, out,
        out_row0);
  ssimu2_blur_column_steps (g, state, rows, ring, w, h, full, w, n0, n1, out,
      out_row0);
}

/* The row pass of rows [@y0, @y0 + VS2_LANES) of @a (times @b) into the
 * ring @rows. */
static inline VS2_TARGET void
vs2_blur_row_tile (const VhSsimu2Gauss * g, VhSsimu2Planes * p,
    const gfloat * a, const gfloat * b, guint w, guint h, guint y0,
    gfloat * rows, guint ring)
{
  gfloat *tile_in = p->tile;
  gfloat *tile_out = p->tile + (gsize) VH_SSIMU2_TILE_ROWS * w;

  G_STATIC_ASSERT (VS2_LANES <= VH_SSIMU2_TILE_ROWS);
  vs2_tile_load (a, b, w, h, y0, tile_in);
  vs2_blur_tile (g, tile_in, (gint) w, tile_out);
  vs2_tile_store (tile_out, w, h, y0, rows, ring);
}

/* Whether a tile and the column window (2 radius + 1 rows, one of them
 * the tile's) fit in a ring, as they do at libjxl's radius. */
static inline VS2_TARGET gboolean
vs2_ring_fits (const VhSsimu2Gauss * g)
{
  return VS2_LANES + 2 * g->radius <= VH_SSIMU2_RING_ROWS;
}

/* The column steps that the rows up to @done (of @h) complete: up to
 * the one whose window ends at row @done - 1, all when that is the
 * last. */
static inline VS2_TARGET gint
vs2_steps_end (const VhSsimu2Gauss * g, guint done, guint h)
{
  return done == h ? (gint) h : (gint) done - g->radius + 1;
}

/* Rows, then columns, in one sweep down the plane: after each tile of
 * rows, the column pass takes every step whose window it completes, so
 * the row-blurred rows are read back while still in cache, from a ring
 * of them (the whole plane at radii where the ring is too small). */
static VS2_TARGET void
vs2_blur (const VhSsimu2Gauss * g, VhSsimu2Planes * p, const gfloat * a,
    const gfloat * b, guint w, guint h, gfloat * out)
{
  const gboolean fits = vs2_ring_fits (g);
  gfloat *rows = fits ? vh_ssimu2_scratch_ring (p, 0) : p->tmp[1];
  const guint ring = fits ? VH_SSIMU2_RING_ROWS : h;
  gint n = -g->radius + 1;

  memset (p->state, 0, sizeof (gfloat) * 6 * w);
  for (guint y0 = 0; y0 < h; y0 += VS2_LANES) {
    const guint done = MIN (y0 + VS2_LANES, h);
    const gint n_end = vs2_steps_end (g, done, h);

    vs2_blur_row_tile (g, p, a, b, w, h, y0, rows, ring);
    if (n_end <= n)
      continue;
    vs2_blur_column_steps (g, p->state, rows, ring, w, h, n, n_end, out, 0);
    n = n_end;
  }
}

/* ------------------------------------------------------------------ */
/* Sums, a lane per column                                             */

/* VS2_LANES pixels from @i into the partial sums of lanes @lane.. of
 * @acc (sum k of lane j at acc[k * VH_SSIMU2_LANES + j]). */
static inline VS2_TARGET void
vs2_sums_pixels (const gfloat * x1, const gfloat * x2, gfloat * const t[7],
    gsize i, guint lane, gdouble * acc)
{
  const VF mu1 = vf_load (t[5] + i), mu2 = vf_load (t[6] + i);
  const VF mu11 = vf_mul (mu1, mu1), mu22 = vf_mul (mu2, mu2);
  const VF mu12 = vf_mul (mu1, mu2);
  const VF diff = vf_sub (mu1, mu2);
  const VF c2 = vf_set1 (VH_SSIMU2_C2);
  const VF num_m = vf_sub (vf_set1 (1.0f), vf_mul (diff, diff));
  const VF num_s = vf_add (vf_mul (vf_set1 (2.0f),
          vf_sub (vf_load (t[4] + i), mu12)), c2);
  const VF denom_s = vf_add (vf_add (vf_sub (vf_load (t[2] + i), mu11),
          vf_sub (vf_load (t[3] + i), mu22)), c2);
  const VF ratio = vf_div (vf_mul (num_m, num_s), denom_s);
  const VF dev2 = vf_abs (vf_sub (vf_load (x2 + i), mu2));
  const VF dev1 = vf_abs (vf_sub (vf_load (x1 + i), mu1));
  const VD one = vd_set1 (1.0);

  for (guint half = 0; half < 2; half++) {
    gdouble *a = acc + lane + half * (VS2_LANES / 2);
    VD d = vd_positive_part (vd_sub (one, vf_half_to_vd (ratio, half)));
    VD edge, v;

#define VS2_ADD(k, val) vd_store (a + (k) * VH_SSIMU2_LANES, \
    vd_add (vd_load (a + (k) * VH_SSIMU2_LANES), (val)))
    VS2_ADD (0, d);
    d = vd_mul (d, d);
    VS2_ADD (1, vd_mul (d, d));
    edge = vd_sub (vd_div (vd_add (one, vf_half_to_vd (dev2, half)),
            vd_add (one, vf_half_to_vd (dev1, half))), one);
    v = vd_positive_part (edge);
    VS2_ADD (2, v);
    v = vd_mul (v, v);
    VS2_ADD (3, vd_mul (v, v));
    v = vd_negative_part (edge);
    VS2_ADD (4, v);
    v = vd_mul (v, v);
    VS2_ADD (5, vd_mul (v, v));
#undef VS2_ADD
  }
}

/* One row's sums (@x1, @x2 and @t's planes at the row) added to @sums,
 * as ssimu2_sums_pixel() and ssimu2_sums_fold() do them. */
static inline VS2_TARGET void
vs2_sums_row (const gfloat * x1, const gfloat * x2, gfloat * const t[7],
    guint w, gdouble * sums)
{
  const guint full = w / VS2_LANES * VS2_LANES;
  gdouble lanes[VH_SSIMU2_SUMS_PER_CHANNEL * VH_SSIMU2_LANES] = { 0 };
  gdouble acc[VH_SSIMU2_LANES][VH_SSIMU2_SUMS_PER_CHANNEL];
  guint x;

  G_STATIC_ASSERT (VH_SSIMU2_LANES % VS2_LANES == 0);
  for (x = 0; x < full; x += VS2_LANES)
    vs2_sums_pixels (x1, x2, t, x, x % VH_SSIMU2_LANES, lanes);
  for (guint j = 0; j < VH_SSIMU2_LANES; j++)
    for (guint k = 0; k < VH_SSIMU2_SUMS_PER_CHANNEL; k++)
      acc[j][k] = lanes[k * VH_SSIMU2_LANES + j];
  /* the columns right of the last vector, after those left of them */
  for (; x < w; x++)
    ssimu2_sums_pixel (x1, x2, t, x, acc[x % VH_SSIMU2_LANES]);
  ssimu2_sums_fold (acc, sums);
}

static VS2_TARGET void
vs2_sums (const gfloat * x1, const gfloat * x2, gfloat * const t[7], guint w,
    guint h, gdouble * sums)
{
  for (guint k = 0; k < VH_SSIMU2_SUMS_PER_CHANNEL; k++)
    sums[k] = 0.0;
  for (guint y = 0; y < h; y++) {
    const gsize row = (gsize) y * w;
    gfloat *tr[7] = { NULL, NULL, t[2] + row, t[3] + row, t[4] + row,
      t[5] + row, t[6] + row
    };

    vs2_sums_row (x1 + row, x2 + row, tr, w, sums);
  }
}

/* ------------------------------------------------------------------ */
/* A whole channel in one sweep                                        */

/* The five blurs of a channel side by side, tile by tile, each step's
 * output rows summed as soon as all five have them: the blurred planes
 * never leave the cache. The same operations as the blurs and sums one
 * after the other. */
static VS2_TARGET void
vs2_channel (const VhSsimu2Gauss * g, VhSsimu2Planes * p, const gfloat * x1,
    const gfloat * x2, guint w, guint h, gdouble * sums)
{
  const gfloat *first[VH_SSIMU2_BLURS] = { x1, x2, x1, x1, x2 };
  const gfloat *second[VH_SSIMU2_BLURS] = { x1, x2, x2, NULL, NULL };
  gint n = -g->radius + 1;

  if (!vs2_ring_fits (g)) {
    for (guint j = 0; j < VH_SSIMU2_BLURS; j++)
      vs2_blur (g, p, first[j], second[j], w, h, p->tmp[2 + j]);
    vs2_sums (x1, x2, p->tmp, w, h, sums);
    return;
  }
  for (guint k = 0; k < VH_SSIMU2_SUMS_PER_CHANNEL; k++)
    sums[k] = 0.0;
  for (guint j = 0; j < VH_SSIMU2_BLURS; j++)
    memset (vh_ssimu2_scratch_state (p, j), 0, sizeof (gfloat) * 6 * w);
  for (guint y0 = 0; y0 < h; y0 += VS2_LANES) {
    const guint done = MIN (y0 + VS2_LANES, h);
    const gint n_end = vs2_steps_end (g, done, h);
    const gint row0 = MAX (n, 0);
    gfloat *t[7] = { NULL };

    for (guint j = 0; j < VH_SSIMU2_BLURS; j++)
      vs2_blur_row_tile (g, p, first[j], second[j], w, h, y0,
          vh_ssimu2_scratch_ring (p, j), VH_SSIMU2_RING_ROWS);
    if (n_end <= n)
      continue;
    for (guint j = 0; j < VH_SSIMU2_BLURS; j++) {
      t[2 + j] = vh_ssimu2_scratch_out (p, j);
      vs2_blur_column_steps (g, vh_ssimu2_scratch_state (p, j),
          vh_ssimu2_scratch_ring (p, j), VH_SSIMU2_RING_ROWS, w, h, n, n_end,
          t[2 + j], row0);
    }
    for (gint y = row0; y < n_end; y++) {
      const gsize at = (gsize) (y - row0) * w;
      gfloat *tr[7] = { NULL, NULL, t[2] + at, t[3] + at, t[4] + at,
        t[5] + at, t[6] + at
      };

      vs2_sums_row (x1 + (gsize) y * w, x2 + (gsize) y * w, tr, w, sums);
    }
    n = n_end;
  }
}
