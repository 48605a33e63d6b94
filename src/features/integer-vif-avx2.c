/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* AVX2 row kernels of the integer VIF, bit-exact with the portable ones.
 *
 * Filters take two taps per multiply-add (vpmaddwd) on biased 16-bit
 * samples. Vertical passes interleave two input rows; horizontal passes
 * load the stream at two consecutive samples per 32-bit lane, which yields
 * the even output columns, and again one sample further for the odd ones.
 * The statistic runs on 8 lanes in integers and on 4 lanes in doubles; the
 * logarithms find the leading bit through a float or double exponent and
 * read the shared table with gathers. Only the instructions of AVX2 are
 * used (no FMA, so no fused rounding differs from the scalar code). */

#include "integer-vif-private.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)

#include <immintrin.h>

#define VH_AVX2 __attribute__ ((target ("avx2")))
#define VH_AVX2_INLINE static inline __attribute__ ((target ("avx2"), always_inline))

/* The filter as pairs of adjacent taps (tap[p], tap[p] + 1) with their
 * coefficients as a 32-bit broadcast. vpmaddwd multiplies signed 16-bit
 * values, so a coefficient of 2^15 or more is split in two halves that
 * pair with either neighbour; a missing last partner gets coefficient 0. */
typedef struct
{
  guint n;
  guint tap[VH_VIF_MAX_TAPS];
  __m256i c[VH_VIF_MAX_TAPS];
} TapPairs;

VH_AVX2_INLINE void
load_pairs (guint scale, TapPairs * tp)
{
  const guint16 *filt = vh_vif_filter[scale];
  const guint taps = vh_vif_filter_taps[scale];
  guint unit_tap[2 * VH_VIF_MAX_TAPS + 1];
  guint32 unit_c[2 * VH_VIF_MAX_TAPS + 1];
  guint n = 0;

  for (guint k = 0; k < taps; k++) {
    if (filt[k] < 0x8000) {
      unit_tap[n] = k;
      unit_c[n++] = filt[k];
    } else {
      unit_tap[n] = k;
      unit_c[n++] = filt[k] / 2;
      unit_tap[n] = k;
      unit_c[n++] = filt[k] - filt[k] / 2;
    }
  }
  tp->n = 0;
  for (guint u = 0; u < n; u += 2) {
    guint32 second = 0;

    if (u + 1 < n) {
      g_assert (unit_tap[u + 1] == unit_tap[u] + 1);
      second = unit_c[u + 1];
    }
    tp->tap[tp->n] = unit_tap[u];
    tp->c[tp->n++] = _mm256_set1_epi32 ((gint32) (unit_c[u] | second << 16));
  }
}

VH_AVX2_INLINE __m256i
load_u8 (const guint8 * row, guint j)
{
  return _mm256_cvtepu8_epi16 (_mm_loadu_si128 ((const __m128i *) (row + j)));
}

VH_AVX2_INLINE __m256i
load_u16 (const guint16 * row, guint j)
{
  return _mm256_loadu_si256 ((const __m256i *) (row + j));
}

/* acc_lo/acc_hi += the two rows @a, @b of 16 columns times the tap pair. */
VH_AVX2_INLINE void
madd_rows (__m256i a, __m256i b, __m256i cp, __m256i * lo, __m256i * hi)
{
  *lo = _mm256_add_epi32 (*lo, _mm256_madd_epi16 (_mm256_unpacklo_epi16 (a,
              b), cp));
  *hi = _mm256_add_epi32 (*hi, _mm256_madd_epi16 (_mm256_unpackhi_epi16 (a,
              b), cp));
}

/* Stores 16 columns held as 32-bit values (0..65535) in unpack order,
 * biased, at column @j of @dst. */
VH_AVX2_INLINE void
store_stream (guint16 * dst, guint j, __m256i lo, __m256i hi)
{
  const __m256i bias = _mm256_set1_epi16 ((gint16) VH_VIF_BIAS);
  __m256i v = _mm256_xor_si256 (_mm256_packus_epi32 (lo, hi), bias);

  _mm256_storeu_si256 ((__m256i *) (dst + VH_VIF_PAD + j), v);
}

/* Splits exact 32-bit moments into the high and low streams. */
VH_AVX2_INLINE void
store_moment (VhVifRows * rows, guint q_hi, guint j, __m256i lo, __m256i hi)
{
  const __m256i mask = _mm256_set1_epi32 (0xffff);

  store_stream (rows->s[q_hi], j, _mm256_srli_epi32 (lo, 16),
      _mm256_srli_epi32 (hi, 16));
  store_stream (rows->s[q_hi + 1], j, _mm256_and_si256 (lo, mask),
      _mm256_and_si256 (hi, mask));
}

static VH_AVX2 void
vert_stats_8_avx2 (const guint8 * const *ref, const guint8 * const *dis,
    guint scale, guint j0, guint j1, VhVifRows * rows)
{
  const guint taps = vh_vif_filter_taps[scale];
  const __m256i bias = _mm256_set1_epi16 ((gint16) VH_VIF_BIAS);
  const __m256i corr = _mm256_set1_epi32 ((gint32) 0x80000000u);
  const __m256i round = _mm256_set1_epi32 (128);
  TapPairs tp;
  guint j = j0;

  load_pairs (scale, &tp);
  for (; j + 16 <= j1; j += 16) {
    __m256i m1l = _mm256_setzero_si256 (), m1h = m1l, m2l = m1l, m2h = m1l;
    __m256i xxl = m1l, xxh = m1l, yyl = m1l, yyh = m1l, xyl = m1l, xyh = m1l;

    for (guint p = 0; p < tp.n; p++) {
      /* An odd last tap pairs with a zero coefficient on any valid row. */
      const guint ka = tp.tap[p], kb = MIN (ka + 1, taps - 1);
      const __m256i a = load_u8 (ref[ka], j), b = load_u8 (ref[kb], j);
      const __m256i c = load_u8 (dis[ka], j), d = load_u8 (dis[kb], j);
      const __m256i cp = tp.c[p];

      /* Interleaved (row a, row b) samples serve the means directly and,
       * squared in place, the second moments: squares of 8-bit samples
       * fit 16 bits, biased for the signed multiply-add. */
#define MOMENTS(u, v, m1, m2, xx, yy, xy) do { \
        m1 = _mm256_add_epi32 (m1, _mm256_madd_epi16 (u, cp)); \
        m2 = _mm256_add_epi32 (m2, _mm256_madd_epi16 (v, cp)); \
        xx = _mm256_add_epi32 (xx, _mm256_madd_epi16 (_mm256_xor_si256 ( \
                    _mm256_mullo_epi16 (u, u), bias), cp)); \
        yy = _mm256_add_epi32 (yy, _mm256_madd_epi16 (_mm256_xor_si256 ( \
                    _mm256_mullo_epi16 (v, v), bias), cp)); \
        xy = _mm256_add_epi32 (xy, _mm256_madd_epi16 (_mm256_xor_si256 ( \
                    _mm256_mullo_epi16 (u, v), bias), cp)); \
      } while (0)
      {
        const __m256i u = _mm256_unpacklo_epi16 (a, b);
        const __m256i v = _mm256_unpacklo_epi16 (c, d);

        MOMENTS (u, v, m1l, m2l, xxl, yyl, xyl);
      }
      {
        const __m256i u = _mm256_unpackhi_epi16 (a, b);
        const __m256i v = _mm256_unpackhi_epi16 (c, d);

        MOMENTS (u, v, m1h, m2h, xxh, yyh, xyh);
      }
#undef MOMENTS
    }
    store_stream (rows->s[VH_VIF_MU1], j,
        _mm256_srli_epi32 (_mm256_add_epi32 (m1l, round), 8),
        _mm256_srli_epi32 (_mm256_add_epi32 (m1h, round), 8));
    store_stream (rows->s[VH_VIF_MU2], j,
        _mm256_srli_epi32 (_mm256_add_epi32 (m2l, round), 8),
        _mm256_srli_epi32 (_mm256_add_epi32 (m2h, round), 8));
    store_moment (rows, VH_VIF_XX_HI, j, _mm256_add_epi32 (xxl, corr),
        _mm256_add_epi32 (xxh, corr));
    store_moment (rows, VH_VIF_YY_HI, j, _mm256_add_epi32 (yyl, corr),
        _mm256_add_epi32 (yyh, corr));
    store_moment (rows, VH_VIF_XY_HI, j, _mm256_add_epi32 (xyl, corr),
        _mm256_add_epi32 (xyh, corr));
  }
  if (j < j1)
    vh_vif_kernels_c.vert_stats_8 (ref, dis, scale, j, j1, rows);
}

/* (hi * 2^16 + lo + round) >> shift modulo 2^32, from biased sums. */
VH_AVX2_INLINE __m256i
combine_moment (__m256i hi, __m256i lo, __m128i up, __m128i down, __m256i round)
{
  const __m256i corr = _mm256_set1_epi32 ((gint32) 0x80000000u);

  hi = _mm256_add_epi32 (hi, corr);
  lo = _mm256_add_epi32 (_mm256_add_epi32 (lo, corr), round);
  return _mm256_add_epi32 (_mm256_sll_epi32 (hi, up),
      _mm256_srl_epi32 (lo, down));
}

/* hi/lo += the high and low 16-bit halves of the products of the
 * interleaved row pairs @u and @v, biased, times the tap pair. */
VH_AVX2_INLINE void
madd_products (__m256i u, __m256i v, __m256i cp, __m256i * hi, __m256i * lo)
{
  const __m256i bias = _mm256_set1_epi16 ((gint16) VH_VIF_BIAS);

  *hi = _mm256_add_epi32 (*hi, _mm256_madd_epi16 (_mm256_xor_si256
          (_mm256_mulhi_epu16 (u, v), bias), cp));
  *lo = _mm256_add_epi32 (*lo, _mm256_madd_epi16 (_mm256_xor_si256
          (_mm256_mullo_epi16 (u, v), bias), cp));
}

VH_AVX2_INLINE __m256i
interleave (__m256i a, __m256i b, guint group)
{
  return group ? _mm256_unpackhi_epi16 (a, b) : _mm256_unpacklo_epi16 (a, b);
}

static VH_AVX2 void
vert_stats_16_avx2 (const guint16 * const *ref, const guint16 * const *dis,
    guint scale, guint shift_mu, guint shift_sq, guint j0, guint j1,
    VhVifRows * rows)
{
  const guint taps = vh_vif_filter_taps[scale];
  const __m256i bias = _mm256_set1_epi16 ((gint16) VH_VIF_BIAS);
  const __m256i corr = _mm256_set1_epi32 ((gint32) 0x80000000u);
  const __m256i mask = _mm256_set1_epi32 (0xffff);
  const __m256i round_mu = _mm256_set1_epi32 (1 << (shift_mu - 1));
  const __m256i round_sq = _mm256_set1_epi32 (1 << (shift_sq - 1));
  const __m128i sh_mu = _mm_cvtsi32_si128 (shift_mu);
  const __m128i up = _mm_cvtsi32_si128 (16 - shift_sq);
  const __m128i down = _mm_cvtsi32_si128 (shift_sq);
  TapPairs tp;
  guint j = j0;

  load_pairs (scale, &tp);
  for (; j + 16 <= j1; j += 16) {
    /* Three passes over the taps keep the accumulators in registers:
     * reference (mu1, xx), distorted (mu2, yy), then the cross moment.
     * Index g is the column group of the interleaved pairs. */
    for (guint side = 0; side < 2; side++) {
      const guint16 *const *in = side ? dis : ref;
      __m256i mu[2], hi[2], lo[2];

      mu[0] = mu[1] = hi[0] = hi[1] = lo[0] = lo[1] = _mm256_setzero_si256 ();
      for (guint p = 0; p < tp.n; p++) {
        const guint ka = tp.tap[p], kb = MIN (ka + 1, taps - 1);
        const __m256i a = load_u16 (in[ka], j), b = load_u16 (in[kb], j);

        for (guint g = 0; g < 2; g++) {
          const __m256i u = interleave (a, b, g);

          mu[g] = _mm256_add_epi32 (mu[g], _mm256_madd_epi16
              (_mm256_xor_si256 (u, bias), tp.c[p]));
          madd_products (u, u, tp.c[p], &hi[g], &lo[g]);
        }
      }
      for (guint g = 0; g < 2; g++)
        mu[g] = _mm256_and_si256 (_mm256_srl_epi32 (_mm256_add_epi32
                (_mm256_add_epi32 (mu[g], corr), round_mu), sh_mu), mask);
      store_stream (rows->s[side ? VH_VIF_MU2 : VH_VIF_MU1], j, mu[0], mu[1]);
      store_moment (rows, side ? VH_VIF_YY_HI : VH_VIF_XX_HI, j,
          combine_moment (hi[0], lo[0], up, down, round_sq),
          combine_moment (hi[1], lo[1], up, down, round_sq));
    }
    {
      __m256i hi[2], lo[2];

      hi[0] = hi[1] = lo[0] = lo[1] = _mm256_setzero_si256 ();
      for (guint p = 0; p < tp.n; p++) {
        const guint ka = tp.tap[p], kb = MIN (ka + 1, taps - 1);
        const __m256i a = load_u16 (ref[ka], j), b = load_u16 (ref[kb], j);
        const __m256i c = load_u16 (dis[ka], j), d = load_u16 (dis[kb], j);

        for (guint g = 0; g < 2; g++)
          madd_products (interleave (a, b, g), interleave (c, d, g), tp.c[p],
              &hi[g], &lo[g]);
      }
      store_moment (rows, VH_VIF_XY_HI, j,
          combine_moment (hi[0], lo[0], up, down, round_sq),
          combine_moment (hi[1], lo[1], up, down, round_sq));
    }
  }
  if (j < j1)
    vh_vif_kernels_c.vert_stats_16 (ref, dis, scale, shift_mu, shift_sq, j,
        j1, rows);
}

/* Horizontal filter of stream @s at 8 output columns: lane i is column
 * j + 2i of the parity the caller chose through @s. Biased sum of the
 * first @n tap pairs (a constant where it matters, so that it unrolls). */
VH_AVX2_INLINE __m256i
hfilter (const guint16 * s, const TapPairs * tp, guint n)
{
  __m256i acc = _mm256_madd_epi16 (_mm256_loadu_si256 ((const __m256i *) (s +
              tp->tap[0])), tp->c[0]);

  for (guint p = 1; p < n; p++)
    acc = _mm256_add_epi32 (acc, _mm256_madd_epi16 (_mm256_loadu_si256
            ((const __m256i *) (s + tp->tap[p])), tp->c[p]));
  return acc;
}

/* A filtered 32-bit moment from its high and low streams:
 * hi + ((lo + 2^15) >> 16), both sums unbiased first. */
VH_AVX2_INLINE __m256i
hmoment (const guint16 * hi, const guint16 * lo, const TapPairs * tp, guint n)
{
  const __m256i corr = _mm256_set1_epi32 ((gint32) 0x80000000u);
  const __m256i round = _mm256_set1_epi32 ((gint32) (0x80000000u + 32768));

  return _mm256_add_epi32 (_mm256_add_epi32 (hfilter (hi, tp, n), corr),
      _mm256_srli_epi32 (_mm256_add_epi32 (hfilter (lo, tp, n), round), 16));
}

/* (a * b + 2^31) >> 32 per 32-bit lane. */
VH_AVX2_INLINE __m256i
mul_hi_round (__m256i a, __m256i b)
{
  const __m256i half = _mm256_set1_epi64x (0x80000000ll);
  __m256i even = _mm256_add_epi64 (_mm256_mul_epu32 (a, b), half);
  __m256i odd = _mm256_add_epi64 (_mm256_mul_epu32 (_mm256_srli_epi64 (a,
              32), _mm256_srli_epi64 (b, 32)), half);

  return _mm256_blend_epi32 (_mm256_srli_epi64 (even, 32), odd, 0xaa);
}

/* 2048 * log2 (v) from the table, for v in [2^17, 2^32). */
VH_AVX2_INLINE __m256i
log2_32 (const guint16 * table, __m256i v)
{
  /* v >> 8 is below 2^24: its float exponent is exact. */
  const __m256 f = _mm256_cvtepi32_ps (_mm256_srli_epi32 (v, 8));
  const __m256i k = _mm256_sub_epi32 (_mm256_srli_epi32 (_mm256_castps_si256
          (f), 23), _mm256_set1_epi32 (127 + 15 - 8));
  const __m256i idx = _mm256_srlv_epi32 (v, k);
  const __m256i val = _mm256_and_si256 (_mm256_i32gather_epi32 ((const int *)
          table, idx, 2), _mm256_set1_epi32 (0xffff));

  return _mm256_add_epi32 (val, _mm256_slli_epi32 (k, 11));
}

/* For an integer t in [2^17, 2^53) held exactly in a double: the table
 * index t >> k with k = exponent - 15, and the biased exponent field, from
 * which 2048 * log2 (t) = table[index] + 2048 * (field - 1023 - 15). */
VH_AVX2_INLINE __m128i
log2_index (__m256d t, __m256i * field)
{
  __m256d scale;

  *field = _mm256_srli_epi64 (_mm256_castpd_si256 (t), 52);
  /* 2^-k, built from its exponent field: the scaling is exact. */
  scale = _mm256_castsi256_pd (_mm256_slli_epi64 (_mm256_sub_epi64
          (_mm256_set1_epi64x (2 * 1023 + 15), *field), 52));
  return _mm256_cvttpd_epi32 (_mm256_mul_pd (t, scale));
}

typedef struct
{
  __m256i den_log;              /* 32-bit lanes, flushed regularly */
  __m256i num_log;              /* table part, 32-bit lanes, flushed */
  __m256i num_log_exp;          /* exponent part, 64-bit lanes */
  __m256i den_non_log;          /* 32-bit lanes, flushed regularly */
  __m256i num_non_log;          /* 64-bit lanes */
} VifLanes;

/* The statistic of 8 pixels from their filtered means (2^16 scaled) and
 * second moments; @valid masks the lanes inside the row. */
VH_AVX2_INLINE void
pixel_stats (__m256i mu1, __m256i mu2, __m256i xx, __m256i yy, __m256i xy,
    __m256i valid, __m256d gain_limit, const guint16 * table, VifLanes * acc)
{
  const __m256i nsq = _mm256_set1_epi32 (VH_VIF_SIGMA_NSQ);
  const __m256i zero = _mm256_setzero_si256 ();
  __m256i sigma1, sigma2, sigma12, is_log, non_log, num_mask;

  sigma1 = _mm256_sub_epi32 (xx, mul_hi_round (mu1, mu1));
  sigma12 = _mm256_sub_epi32 (xy, mul_hi_round (mu1, mu2));
  sigma2 = _mm256_max_epi32 (_mm256_sub_epi32 (yy, mul_hi_round (mu2, mu2)),
      zero);

  is_log = _mm256_cmpgt_epi32 (sigma1, _mm256_sub_epi32 (nsq,
          _mm256_set1_epi32 (1)));
  non_log = _mm256_andnot_si256 (is_log, valid);
  is_log = _mm256_and_si256 (is_log, valid);

  {
    const __m256i s2 = _mm256_and_si256 (sigma2, non_log);

    acc->num_non_log = _mm256_add_epi64 (acc->num_non_log,
        _mm256_add_epi64 (_mm256_srli_epi64 (s2, 32),
            _mm256_blend_epi32 (s2, zero, 0xaa)));
    /* A set mask lane is -1. */
    acc->den_non_log = _mm256_sub_epi32 (acc->den_non_log, non_log);
  }

  /* Lanes outside take 2^17, whose logarithm cancels the offset. */
  acc->den_log = _mm256_add_epi32 (acc->den_log,
      _mm256_and_si256 (_mm256_sub_epi32 (log2_32 (table,
                  _mm256_blendv_epi8 (nsq, _mm256_add_epi32 (nsq, sigma1),
                      is_log)), _mm256_set1_epi32 (2048 * 17)), is_log));

  num_mask = _mm256_and_si256 (is_log,
      _mm256_and_si256 (_mm256_cmpgt_epi32 (sigma12, zero),
          _mm256_cmpgt_epi32 (sigma2, zero)));
  if (_mm256_testz_si256 (num_mask, num_mask))
    return;

  {
    const __m256d eps = _mm256_set1_pd (65536 * 1.0e-10);
    const __m256d nsq_pd = _mm256_set1_pd (VH_VIF_SIGMA_NSQ);
    const __m256d zero_pd = _mm256_setzero_pd ();
    const __m256i one = _mm256_set1_epi32 (1);
    /* Lanes outside get values whose two logarithms are both log2 (2^17),
     * so that every lane can be summed unmasked. */
    const __m256i s1_8 = _mm256_blendv_epi8 (nsq, sigma1, num_mask);
    const __m256i s12_8 = _mm256_blendv_epi8 (one, sigma12, num_mask);
    const __m256i s2_8 = _mm256_blendv_epi8 (one, sigma2, num_mask);
    __m128i idx_t[2], idx_n[2];

    for (guint h = 0; h < 2; h++) {
      const __m256d s1 = _mm256_cvtepi32_pd (h ?
          _mm256_extracti128_si256 (s1_8, 1) : _mm256_castsi256_si128 (s1_8));
      const __m256d s12 = _mm256_cvtepi32_pd (h ?
          _mm256_extracti128_si256 (s12_8, 1) : _mm256_castsi256_si128 (s12_8));
      const __m256d s2 = _mm256_cvtepi32_pd (h ?
          _mm256_extracti128_si256 (s2_8, 1) : _mm256_castsi256_si128 (s2_8));
      __m256d g = _mm256_div_pd (s12, _mm256_add_pd (s1, eps));
      /* Truncated and clamped at zero, then offset: exact integers. */
      const __m256d numer1 = _mm256_add_pd (_mm256_max_pd (_mm256_round_pd
              (_mm256_sub_pd (s2, _mm256_mul_pd (g, s12)),
                  _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC), zero_pd), nsq_pd);
      __m256d t;
      __m256i field_t, field_n;

      g = _mm256_min_pd (g, gain_limit);
      /* Both terms are integers below 2^53: the sum is exact. */
      t = _mm256_add_pd (_mm256_round_pd (_mm256_mul_pd (_mm256_mul_pd (g, g),
                  s1), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC), numer1);
      idx_t[h] = log2_index (t, &field_t);
      idx_n[h] = log2_index (numer1, &field_n);
      acc->num_log_exp = _mm256_add_epi64 (acc->num_log_exp,
          _mm256_sub_epi64 (field_t, field_n));
    }
    {
      const __m256i lo16 = _mm256_set1_epi32 (0xffff);
      const __m256i lt = _mm256_and_si256 (_mm256_i32gather_epi32 ((const int
                  *) table, _mm256_set_m128i (idx_t[1], idx_t[0]), 2), lo16);
      const __m256i ln = _mm256_and_si256 (_mm256_i32gather_epi32 ((const int
                  *) table, _mm256_set_m128i (idx_n[1], idx_n[0]), 2), lo16);

      acc->num_log = _mm256_add_epi32 (acc->num_log, _mm256_sub_epi32 (lt, ln));
    }
  }
}

static VH_AVX2 gint64
hsum_epi32 (__m256i v)
{
  gint32 lanes[8];
  gint64 sum = 0;

  _mm256_storeu_si256 ((__m256i *) lanes, v);
  for (guint i = 0; i < 8; i++)
    sum += lanes[i];
  return sum;
}

static VH_AVX2 gint64
hsum_epi64 (__m256i v)
{
  gint64 lanes[4];

  _mm256_storeu_si256 ((__m256i *) lanes, v);
  return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

static VH_AVX2 void
flush_lanes (VifLanes * lanes, VhVifAccum * acc)
{
  acc->den_log += hsum_epi32 (lanes->den_log);
  acc->num_log += hsum_epi32 (lanes->num_log);
  acc->den_non_log += hsum_epi32 (lanes->den_non_log);
  lanes->den_log = _mm256_setzero_si256 ();
  lanes->num_log = _mm256_setzero_si256 ();
  lanes->den_non_log = _mm256_setzero_si256 ();
}

/* One row of statistics with @n tap pairs. */
VH_AVX2_INLINE void
horiz_stats_n (VhVifRows * rows, guint off, guint w, __m256d limit,
    const guint16 * table, const TapPairs * tp, guint n, VhVifAccum * acc)
{
  const __m256i even_cols = _mm256_setr_epi32 (0, 2, 4, 6, 8, 10, 12, 14);
  const __m256i corr = _mm256_set1_epi32 ((gint32) 0x80000000u);
  guint16 *const *s = rows->s;
  VifLanes lanes;
  guint n_blocks = 0;

  lanes.den_log = lanes.num_log = lanes.den_non_log = _mm256_setzero_si256 ();
  lanes.num_log_exp = lanes.num_non_log = _mm256_setzero_si256 ();
  for (guint j = 0; j < w; j += 16) {
    const __m256i left = _mm256_set1_epi32 ((gint32) (w - j));

    for (guint parity = 0; parity < 2; parity++) {
      const guint o = off + j + parity;
      const __m256i mu1 = _mm256_add_epi32 (hfilter (s[VH_VIF_MU1] + o, tp,
              n), corr);
      const __m256i mu2 = _mm256_add_epi32 (hfilter (s[VH_VIF_MU2] + o, tp,
              n), corr);
      const __m256i xx = hmoment (s[VH_VIF_XX_HI] + o, s[VH_VIF_XX_LO] + o,
          tp, n);
      const __m256i yy = hmoment (s[VH_VIF_YY_HI] + o, s[VH_VIF_YY_LO] + o,
          tp, n);
      const __m256i xy = hmoment (s[VH_VIF_XY_HI] + o, s[VH_VIF_XY_LO] + o,
          tp, n);
      const __m256i cols = _mm256_add_epi32 (even_cols,
          _mm256_set1_epi32 (parity));

      pixel_stats (mu1, mu2, xx, yy, xy, _mm256_cmpgt_epi32 (left, cols),
          limit, table, &lanes);
    }
    /* 4096 blocks add at most 2^13 log terms below 2^16 to a lane. */
    if (++n_blocks == 4096) {
      flush_lanes (&lanes, acc);
      n_blocks = 0;
    }
  }
  flush_lanes (&lanes, acc);
  acc->num_log += 2048 * (hsum_epi64 (lanes.num_log_exp));
  acc->num_non_log += hsum_epi64 (lanes.num_non_log);
}

static VH_AVX2 void
horiz_stats_avx2 (VhVifRows * rows, guint scale, guint w, gdouble gain_limit,
    const guint16 * table, VhVifAccum * acc)
{
  const guint off = VH_VIF_PAD - vh_vif_filter_taps[scale] / 2;
  const __m256d limit = _mm256_set1_pd (gain_limit);
  TapPairs tp;

  load_pairs (scale, &tp);
  /* Constant pair counts let the filter loops unroll. */
  switch (tp.n) {
    case 9:
      horiz_stats_n (rows, off, w, limit, table, &tp, 9, acc);
      break;
    case 5:
      horiz_stats_n (rows, off, w, limit, table, &tp, 5, acc);
      break;
    case 3:
      horiz_stats_n (rows, off, w, limit, table, &tp, 3, acc);
      break;
    default:
      horiz_stats_n (rows, off, w, limit, table, &tp, tp.n, acc);
      break;
  }
}

static VH_AVX2 void
vert_mu_8_avx2 (const guint8 * const *ref, const guint8 * const *dis,
    guint scale, guint j0, guint j1, VhVifRows * rows)
{
  const guint taps = vh_vif_filter_taps[scale];
  const __m256i round = _mm256_set1_epi32 (128);
  TapPairs tp;
  guint j = j0;

  load_pairs (scale, &tp);
  for (; j + 16 <= j1; j += 16) {
    __m256i m1l = _mm256_setzero_si256 (), m1h = m1l, m2l = m1l, m2h = m1l;

    for (guint p = 0; p < tp.n; p++) {
      const guint ka = tp.tap[p], kb = MIN (ka + 1, taps - 1);

      madd_rows (load_u8 (ref[ka], j), load_u8 (ref[kb], j), tp.c[p], &m1l,
          &m1h);
      madd_rows (load_u8 (dis[ka], j), load_u8 (dis[kb], j), tp.c[p], &m2l,
          &m2h);
    }
    store_stream (rows->s[VH_VIF_MU1], j,
        _mm256_srli_epi32 (_mm256_add_epi32 (m1l, round), 8),
        _mm256_srli_epi32 (_mm256_add_epi32 (m1h, round), 8));
    store_stream (rows->s[VH_VIF_MU2], j,
        _mm256_srli_epi32 (_mm256_add_epi32 (m2l, round), 8),
        _mm256_srli_epi32 (_mm256_add_epi32 (m2h, round), 8));
  }
  if (j < j1)
    vh_vif_kernels_c.vert_mu_8 (ref, dis, scale, j, j1, rows);
}

static VH_AVX2 void
vert_mu_16_avx2 (const guint16 * const *ref, const guint16 * const *dis,
    guint scale, guint shift, guint j0, guint j1, VhVifRows * rows)
{
  const guint taps = vh_vif_filter_taps[scale];
  const __m256i bias = _mm256_set1_epi16 ((gint16) VH_VIF_BIAS);
  const __m256i round = _mm256_set1_epi32 ((gint32) (0x80000000u +
          (1u << (shift - 1))));
  const __m256i mask = _mm256_set1_epi32 (0xffff);
  const __m128i sh = _mm_cvtsi32_si128 (shift);
  TapPairs tp;
  guint j = j0;

  load_pairs (scale, &tp);
  for (; j + 16 <= j1; j += 16) {
    __m256i m1l = _mm256_setzero_si256 (), m1h = m1l, m2l = m1l, m2h = m1l;

    for (guint p = 0; p < tp.n; p++) {
      const guint ka = tp.tap[p], kb = MIN (ka + 1, taps - 1);

      madd_rows (_mm256_xor_si256 (load_u16 (ref[ka], j), bias),
          _mm256_xor_si256 (load_u16 (ref[kb], j), bias), tp.c[p], &m1l, &m1h);
      madd_rows (_mm256_xor_si256 (load_u16 (dis[ka], j), bias),
          _mm256_xor_si256 (load_u16 (dis[kb], j), bias), tp.c[p], &m2l, &m2h);
    }
#define MU(v) _mm256_and_si256 (_mm256_srl_epi32 (_mm256_add_epi32 (v, round), \
        sh), mask)
    store_stream (rows->s[VH_VIF_MU1], j, MU (m1l), MU (m1h));
    store_stream (rows->s[VH_VIF_MU2], j, MU (m2l), MU (m2h));
#undef MU
  }
  if (j < j1)
    vh_vif_kernels_c.vert_mu_16 (ref, dis, scale, shift, j, j1, rows);
}

static VH_AVX2 void
horiz_decimate_avx2 (VhVifRows * rows, guint scale, guint w_out,
    guint16 * ref_out, guint16 * dis_out)
{
  const guint off = VH_VIF_PAD - vh_vif_filter_taps[scale] / 2;
  const __m256i round = _mm256_set1_epi32 ((gint32) (0x80000000u + 32768));
  TapPairs tp;

  load_pairs (scale, &tp);
  /* Whole blocks of 8: the destination rows have room past @w_out. */
  for (guint m = 0; m < w_out; m += 8) {
    for (guint side = 0; side < 2; side++) {
      const guint16 *s = rows->s[side ? VH_VIF_MU2 : VH_VIF_MU1] + off + 2 * m;
      __m256i v =
          _mm256_srli_epi32 (_mm256_add_epi32 (hfilter (s, &tp, tp.n), round),
          16);

      v = _mm256_permute4x64_epi64 (_mm256_packus_epi32 (v, v), 0x08);
      _mm_storeu_si128 ((__m128i *) ((side ? dis_out : ref_out) + m),
          _mm256_castsi256_si128 (v));
    }
  }
}

static const VhVifKernels kernels_avx2 = {
  .vert_stats_8 = vert_stats_8_avx2,
  .vert_stats_16 = vert_stats_16_avx2,
  .horiz_stats = horiz_stats_avx2,
  .vert_mu_8 = vert_mu_8_avx2,
  .vert_mu_16 = vert_mu_16_avx2,
  .horiz_decimate = horiz_decimate_avx2,
};

const VhVifKernels *
vh_vif_kernels_avx2 (void)
{
  return __builtin_cpu_supports ("avx2") ? &kernels_avx2 : NULL;
}

#else

const VhVifKernels *
vh_vif_kernels_avx2 (void)
{
  return NULL;
}

#endif
