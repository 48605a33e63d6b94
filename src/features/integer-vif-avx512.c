/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* AVX-512 row kernels of the integer VIF, bit-exact with the portable and
 * AVX2 ones. The same scheme as the AVX2 kernels on twice the columns:
 * two taps per multiply-add on biased 16-bit samples, vertical passes on
 * interleaved row pairs (unpack and pack work per 128-bit lane, so the
 * column order comes back), horizontal passes at two samples per 32-bit
 * lane for the even and the odd columns. The statistic runs on 16 lanes
 * in integers and on 8 in doubles, with mask registers for the branches;
 * logarithms find the leading bit with a leading-zero count (AVX-512 CD)
 * or a double's exponent. No FMA is enabled, so every double rounds as in
 * the scalar code. Column tails of the vertical passes go to the AVX2
 * kernels, which the CPU has whenever it has these. */

#include "integer-vif-private.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)

#include <immintrin.h>

#define VH_AVX512_TARGET "avx512f,avx512cd,avx512bw,avx512dq,avx512vl"
#define VH_AVX512 __attribute__ ((target (VH_AVX512_TARGET)))
#define VH_AVX512_INLINE static inline \
  __attribute__ ((target (VH_AVX512_TARGET), always_inline))

/* Pairs of adjacent taps with their coefficients, as in the AVX2 kernels
 * (a coefficient of 2^15 or more is split between both neighbours). */
typedef struct
{
  guint n;
  guint tap[VH_VIF_MAX_TAPS];
  __m512i c[VH_VIF_MAX_TAPS];
} TapPairs;

VH_AVX512_INLINE void
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
    tp->c[tp->n++] = _mm512_set1_epi32 ((gint32) (unit_c[u] | second << 16));
  }
}

VH_AVX512_INLINE __m512i
load_u8 (const guint8 * row, guint j)
{
  return _mm512_cvtepu8_epi16 (_mm256_loadu_si256 ((const __m256i *) (row +
              j)));
}

VH_AVX512_INLINE __m512i
load_u16 (const guint16 * row, guint j)
{
  return _mm512_loadu_si512 ((const void *) (row + j));
}

VH_AVX512_INLINE __m512i
madd (__m512i a, __m512i c)
{
  return _mm512_madd_epi16 (a, c);
}

/* acc_lo/acc_hi += the two rows @a, @b of 32 columns times the tap pair. */
VH_AVX512_INLINE void
madd_rows (__m512i a, __m512i b, __m512i cp, __m512i * lo, __m512i * hi)
{
  *lo = _mm512_add_epi32 (*lo, madd (_mm512_unpacklo_epi16 (a, b), cp));
  *hi = _mm512_add_epi32 (*hi, madd (_mm512_unpackhi_epi16 (a, b), cp));
}

/* Stores 32 columns held as 32-bit values (0..65535) in unpack order,
 * biased, at column @j of @dst. */
VH_AVX512_INLINE void
store_stream (guint16 * dst, guint j, __m512i lo, __m512i hi)
{
  const __m512i bias = _mm512_set1_epi16 ((gint16) VH_VIF_BIAS);

  _mm512_storeu_si512 ((void *) (dst + VH_VIF_PAD + j),
      _mm512_xor_si512 (_mm512_packus_epi32 (lo, hi), bias));
}

/* Splits exact 32-bit moments into the high and low streams. */
VH_AVX512_INLINE void
store_moment (VhVifRows * rows, guint q_hi, guint j, __m512i lo, __m512i hi)
{
  const __m512i mask = _mm512_set1_epi32 (0xffff);

  store_stream (rows->s[q_hi], j, _mm512_srli_epi32 (lo, 16),
      _mm512_srli_epi32 (hi, 16));
  store_stream (rows->s[q_hi + 1], j, _mm512_and_si512 (lo, mask),
      _mm512_and_si512 (hi, mask));
}

static VH_AVX512 void
vert_stats_8_avx512 (const guint8 * const *ref, const guint8 * const *dis,
    guint scale, guint j0, guint j1, VhVifRows * rows)
{
  const guint taps = vh_vif_filter_taps[scale];
  const __m512i bias = _mm512_set1_epi16 ((gint16) VH_VIF_BIAS);
  const __m512i corr = _mm512_set1_epi32 ((gint32) 0x80000000u);
  const __m512i round = _mm512_set1_epi32 (128);
  TapPairs tp;
  guint j = j0;

  load_pairs (scale, &tp);
  for (; j + 32 <= j1; j += 32) {
    __m512i m1l = _mm512_setzero_si512 (), m1h = m1l, m2l = m1l, m2h = m1l;
    __m512i xxl = m1l, xxh = m1l, yyl = m1l, yyh = m1l, xyl = m1l, xyh = m1l;

    for (guint p = 0; p < tp.n; p++) {
      /* An odd last tap pairs with a zero coefficient on any valid row. */
      const guint ka = tp.tap[p], kb = MIN (ka + 1, taps - 1);
      const __m512i a = load_u8 (ref[ka], j), b = load_u8 (ref[kb], j);
      const __m512i c = load_u8 (dis[ka], j), d = load_u8 (dis[kb], j);
      const __m512i cp = tp.c[p];

      /* Squares and products of 8-bit samples fit 16 bits; biased for
       * the signed multiply-add. */
#define MOMENTS(u, v, m1, m2, xx, yy, xy) do { \
        m1 = _mm512_add_epi32 (m1, madd (u, cp)); \
        m2 = _mm512_add_epi32 (m2, madd (v, cp)); \
        xx = _mm512_add_epi32 (xx, madd (_mm512_xor_si512 ( \
                    _mm512_mullo_epi16 (u, u), bias), cp)); \
        yy = _mm512_add_epi32 (yy, madd (_mm512_xor_si512 ( \
                    _mm512_mullo_epi16 (v, v), bias), cp)); \
        xy = _mm512_add_epi32 (xy, madd (_mm512_xor_si512 ( \
                    _mm512_mullo_epi16 (u, v), bias), cp)); \
      } while (0)
      {
        const __m512i u = _mm512_unpacklo_epi16 (a, b);
        const __m512i v = _mm512_unpacklo_epi16 (c, d);

        MOMENTS (u, v, m1l, m2l, xxl, yyl, xyl);
      }
      {
        const __m512i u = _mm512_unpackhi_epi16 (a, b);
        const __m512i v = _mm512_unpackhi_epi16 (c, d);

        MOMENTS (u, v, m1h, m2h, xxh, yyh, xyh);
      }
#undef MOMENTS
    }
    store_stream (rows->s[VH_VIF_MU1], j,
        _mm512_srli_epi32 (_mm512_add_epi32 (m1l, round), 8),
        _mm512_srli_epi32 (_mm512_add_epi32 (m1h, round), 8));
    store_stream (rows->s[VH_VIF_MU2], j,
        _mm512_srli_epi32 (_mm512_add_epi32 (m2l, round), 8),
        _mm512_srli_epi32 (_mm512_add_epi32 (m2h, round), 8));
    store_moment (rows, VH_VIF_XX_HI, j, _mm512_add_epi32 (xxl, corr),
        _mm512_add_epi32 (xxh, corr));
    store_moment (rows, VH_VIF_YY_HI, j, _mm512_add_epi32 (yyl, corr),
        _mm512_add_epi32 (yyh, corr));
    store_moment (rows, VH_VIF_XY_HI, j, _mm512_add_epi32 (xyl, corr),
        _mm512_add_epi32 (xyh, corr));
  }
  if (j < j1)
    vh_vif_kernels_avx2 ()->vert_stats_8 (ref, dis, scale, j, j1, rows);
}

/* (hi * 2^16 + lo + round) >> shift modulo 2^32, from biased sums. */
VH_AVX512_INLINE __m512i
combine_moment (__m512i hi, __m512i lo, __m128i up, __m128i down, __m512i round)
{
  const __m512i corr = _mm512_set1_epi32 ((gint32) 0x80000000u);

  hi = _mm512_add_epi32 (hi, corr);
  lo = _mm512_add_epi32 (_mm512_add_epi32 (lo, corr), round);
  return _mm512_add_epi32 (_mm512_sll_epi32 (hi, up),
      _mm512_srl_epi32 (lo, down));
}

/* hi/lo += the high and low 16-bit halves of the products of the
 * interleaved row pairs @u and @v, biased, times the tap pair. */
VH_AVX512_INLINE void
madd_products (__m512i u, __m512i v, __m512i cp, __m512i * hi, __m512i * lo)
{
  const __m512i bias = _mm512_set1_epi16 ((gint16) VH_VIF_BIAS);

  *hi = _mm512_add_epi32 (*hi, madd (_mm512_xor_si512 (_mm512_mulhi_epu16 (u,
                  v), bias), cp));
  *lo = _mm512_add_epi32 (*lo, madd (_mm512_xor_si512 (_mm512_mullo_epi16 (u,
                  v), bias), cp));
}

VH_AVX512_INLINE __m512i
interleave (__m512i a, __m512i b, guint group)
{
  return group ? _mm512_unpackhi_epi16 (a, b) : _mm512_unpacklo_epi16 (a, b);
}

static VH_AVX512 void
vert_stats_16_avx512 (const guint16 * const *ref, const guint16 * const *dis,
    guint scale, guint shift_mu, guint shift_sq, guint j0, guint j1,
    VhVifRows * rows)
{
  const guint taps = vh_vif_filter_taps[scale];
  const __m512i bias = _mm512_set1_epi16 ((gint16) VH_VIF_BIAS);
  const __m512i corr = _mm512_set1_epi32 ((gint32) 0x80000000u);
  const __m512i mask = _mm512_set1_epi32 (0xffff);
  const __m512i round_mu = _mm512_set1_epi32 (1 << (shift_mu - 1));
  const __m512i round_sq = _mm512_set1_epi32 (1 << (shift_sq - 1));
  const __m128i sh_mu = _mm_cvtsi32_si128 (shift_mu);
  const __m128i up = _mm_cvtsi32_si128 (16 - shift_sq);
  const __m128i down = _mm_cvtsi32_si128 (shift_sq);
  TapPairs tp;
  guint j = j0;

  load_pairs (scale, &tp);
  for (; j + 32 <= j1; j += 32) {
    /* Reference (mu1, xx), distorted (mu2, yy), then the cross moment;
     * index g is the column group of the interleaved pairs. */
    for (guint side = 0; side < 2; side++) {
      const guint16 *const *in = side ? dis : ref;
      __m512i mu[2], hi[2], lo[2];

      mu[0] = mu[1] = hi[0] = hi[1] = lo[0] = lo[1] = _mm512_setzero_si512 ();
      for (guint p = 0; p < tp.n; p++) {
        const guint ka = tp.tap[p], kb = MIN (ka + 1, taps - 1);
        const __m512i a = load_u16 (in[ka], j), b = load_u16 (in[kb], j);

        for (guint g = 0; g < 2; g++) {
          const __m512i u = interleave (a, b, g);

          mu[g] = _mm512_add_epi32 (mu[g], madd (_mm512_xor_si512 (u, bias),
                  tp.c[p]));
          madd_products (u, u, tp.c[p], &hi[g], &lo[g]);
        }
      }
      for (guint g = 0; g < 2; g++)
        mu[g] = _mm512_and_si512 (_mm512_srl_epi32 (_mm512_add_epi32
                (_mm512_add_epi32 (mu[g], corr), round_mu), sh_mu), mask);
      store_stream (rows->s[side ? VH_VIF_MU2 : VH_VIF_MU1], j, mu[0], mu[1]);
      store_moment (rows, side ? VH_VIF_YY_HI : VH_VIF_XX_HI, j,
          combine_moment (hi[0], lo[0], up, down, round_sq),
          combine_moment (hi[1], lo[1], up, down, round_sq));
    }
    {
      __m512i hi[2], lo[2];

      hi[0] = hi[1] = lo[0] = lo[1] = _mm512_setzero_si512 ();
      for (guint p = 0; p < tp.n; p++) {
        const guint ka = tp.tap[p], kb = MIN (ka + 1, taps - 1);
        const __m512i a = load_u16 (ref[ka], j), b = load_u16 (ref[kb], j);
        const __m512i c = load_u16 (dis[ka], j), d = load_u16 (dis[kb], j);

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
    vh_vif_kernels_avx2 ()->vert_stats_16 (ref, dis, scale, shift_mu,
        shift_sq, j, j1, rows);
}

/* Horizontal filter of stream @s at 16 output columns: lane i is column
 * j + 2i of the parity the caller chose through @s. Biased sum of the
 * first @n tap pairs (a constant where it matters, so that it unrolls). */
VH_AVX512_INLINE __m512i
hfilter (const guint16 * s, const TapPairs * tp, guint n)
{
  __m512i acc = madd (_mm512_loadu_si512 ((const void *) (s + tp->tap[0])),
      tp->c[0]);

  for (guint p = 1; p < n; p++)
    acc = _mm512_add_epi32 (acc, madd (_mm512_loadu_si512 ((const void *) (s +
                    tp->tap[p])), tp->c[p]));
  return acc;
}

/* A filtered 32-bit moment from its high and low streams:
 * hi + ((lo + 2^15) >> 16), both sums unbiased first. */
VH_AVX512_INLINE __m512i
hmoment (const guint16 * hi, const guint16 * lo, const TapPairs * tp, guint n)
{
  const __m512i corr = _mm512_set1_epi32 ((gint32) 0x80000000u);
  const __m512i round = _mm512_set1_epi32 ((gint32) (0x80000000u + 32768));

  return _mm512_add_epi32 (_mm512_add_epi32 (hfilter (hi, tp, n), corr),
      _mm512_srli_epi32 (_mm512_add_epi32 (hfilter (lo, tp, n), round), 16));
}

/* (a * b + 2^31) >> 32 per 32-bit lane. */
VH_AVX512_INLINE __m512i
mul_hi_round (__m512i a, __m512i b)
{
  const __m512i half = _mm512_set1_epi64 (0x80000000ll);
  __m512i even = _mm512_add_epi64 (_mm512_mul_epu32 (a, b), half);
  __m512i odd = _mm512_add_epi64 (_mm512_mul_epu32 (_mm512_srli_epi64 (a,
              32), _mm512_srli_epi64 (b, 32)), half);

  return _mm512_mask_blend_epi32 (0xaaaa, _mm512_srli_epi64 (even, 32), odd);
}

/* 2048 * log2 (v) from the table, for v in [2^17, 2^32): the 16 leading
 * bits index it, k = 16 - clz (v) counts the dropped ones. */
VH_AVX512_INLINE __m512i
log2_32 (const guint16 * table, __m512i v)
{
  const __m512i k = _mm512_sub_epi32 (_mm512_set1_epi32 (16),
      _mm512_lzcnt_epi32 (v));
  const __m512i idx = _mm512_srlv_epi32 (v, k);
  const __m512i val = _mm512_and_si512 (_mm512_i32gather_epi32 (idx,
          (const void *) table, 2), _mm512_set1_epi32 (0xffff));

  return _mm512_add_epi32 (val, _mm512_slli_epi32 (k, 11));
}

/* For an integer t in [2^17, 2^53) held exactly in a double: the table
 * index t >> k with k = exponent - 15, and the biased exponent field, from
 * which 2048 * log2 (t) = table[index] + 2048 * (field - 1023 - 15). */
VH_AVX512_INLINE __m256i
log2_index (__m512d t, __m512i * field)
{
  __m512d scale;

  *field = _mm512_srli_epi64 (_mm512_castpd_si512 (t), 52);
  /* 2^-k, built from its exponent field: the scaling is exact. */
  scale = _mm512_castsi512_pd (_mm512_slli_epi64 (_mm512_sub_epi64
          (_mm512_set1_epi64 (2 * 1023 + 15), *field), 52));
  return _mm512_cvttpd_epi32 (_mm512_mul_pd (t, scale));
}

typedef struct
{
  __m512i den_log;              /* 32-bit lanes, flushed regularly */
  __m512i num_log;              /* table part, 32-bit lanes, flushed */
  __m512i num_log_exp;          /* exponent part, 64-bit lanes */
  __m512i den_non_log;          /* 32-bit lanes, flushed regularly */
  __m512i num_non_log;          /* 64-bit lanes */
} VifLanes;

#define TRUNC (_MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)

/* The statistic of 16 pixels from their filtered means (2^16 scaled) and
 * second moments; @valid masks the lanes inside the row. */
VH_AVX512_INLINE void
pixel_stats (__m512i mu1, __m512i mu2, __m512i xx, __m512i yy, __m512i xy,
    __mmask16 valid, __m512d gain_limit, const guint16 * table,
    VifLanes * acc)
{
  const __m512i nsq = _mm512_set1_epi32 (VH_VIF_SIGMA_NSQ);
  const __m512i zero = _mm512_setzero_si512 ();
  const __m512i one = _mm512_set1_epi32 (1);
  __m512i sigma1, sigma2, sigma12;
  __mmask16 is_log, non_log, num_mask;

  sigma1 = _mm512_sub_epi32 (xx, mul_hi_round (mu1, mu1));
  sigma12 = _mm512_sub_epi32 (xy, mul_hi_round (mu1, mu2));
  sigma2 = _mm512_max_epi32 (_mm512_sub_epi32 (yy, mul_hi_round (mu2, mu2)),
      zero);

  is_log = _mm512_mask_cmpge_epi32_mask (valid, sigma1, nsq);
  non_log = valid & ~is_log;

  {
    /* sigma2 >= 0: its 32-bit halves widen with zeros. */
    const __m512i s2 = _mm512_maskz_mov_epi32 (non_log, sigma2);

    acc->num_non_log = _mm512_add_epi64 (acc->num_non_log,
        _mm512_add_epi64 (_mm512_srli_epi64 (s2, 32),
            _mm512_maskz_mov_epi32 (0x5555, s2)));
    acc->den_non_log = _mm512_mask_add_epi32 (acc->den_non_log, non_log,
        acc->den_non_log, one);
  }
  if (!is_log)
    return;

  acc->den_log = _mm512_mask_add_epi32 (acc->den_log, is_log, acc->den_log,
      _mm512_sub_epi32 (log2_32 (table, _mm512_mask_add_epi32 (nsq, is_log,
                  nsq, sigma1)), _mm512_set1_epi32 (2048 * 17)));

  num_mask = _mm512_mask_cmpgt_epi32_mask (is_log, sigma12, zero) &
      _mm512_cmpgt_epi32_mask (sigma2, zero);
  if (!num_mask)
    return;

  {
    const __m512d eps = _mm512_set1_pd (65536 * 1.0e-10);
    const __m512d nsq_pd = _mm512_set1_pd (VH_VIF_SIGMA_NSQ);
    const __m512d zero_pd = _mm512_setzero_pd ();
    /* Lanes outside get values whose two logarithms are both log2 (2^17),
     * so that every lane can be summed unmasked. */
    const __m512i s1_16 = _mm512_mask_blend_epi32 (num_mask, nsq, sigma1);
    const __m512i s12_16 = _mm512_mask_blend_epi32 (num_mask, one, sigma12);
    const __m512i s2_16 = _mm512_mask_blend_epi32 (num_mask, one, sigma2);
    __m256i idx_t[2], idx_n[2];

    for (guint h = 0; h < 2; h++) {
      const __m512d s1 = _mm512_cvtepi32_pd (h ?
          _mm512_extracti64x4_epi64 (s1_16, 1) :
          _mm512_castsi512_si256 (s1_16));
      const __m512d s12 = _mm512_cvtepi32_pd (h ?
          _mm512_extracti64x4_epi64 (s12_16, 1) :
          _mm512_castsi512_si256 (s12_16));
      const __m512d s2 = _mm512_cvtepi32_pd (h ?
          _mm512_extracti64x4_epi64 (s2_16, 1) :
          _mm512_castsi512_si256 (s2_16));
      __m512d g = _mm512_div_pd (s12, _mm512_add_pd (s1, eps));
      /* Truncated and clamped at zero, then offset: exact integers. */
      const __m512d numer1 = _mm512_add_pd (_mm512_max_pd
          (_mm512_roundscale_pd (_mm512_sub_pd (s2, _mm512_mul_pd (g, s12)),
                  TRUNC), zero_pd), nsq_pd);
      __m512d t;
      __m512i field_t, field_n;

      g = _mm512_min_pd (g, gain_limit);
      /* Both terms are integers below 2^53: the sum is exact. */
      t = _mm512_add_pd (_mm512_roundscale_pd (_mm512_mul_pd (_mm512_mul_pd
                  (g, g), s1), TRUNC), numer1);
      idx_t[h] = log2_index (t, &field_t);
      idx_n[h] = log2_index (numer1, &field_n);
      acc->num_log_exp = _mm512_add_epi64 (acc->num_log_exp,
          _mm512_sub_epi64 (field_t, field_n));
    }
    {
      const __m512i lo16 = _mm512_set1_epi32 (0xffff);
      const __m512i it = _mm512_inserti64x4 (_mm512_castsi256_si512
          (idx_t[0]), idx_t[1], 1);
      const __m512i in = _mm512_inserti64x4 (_mm512_castsi256_si512
          (idx_n[0]), idx_n[1], 1);
      const __m512i lt = _mm512_and_si512 (_mm512_i32gather_epi32 (it,
              (const void *) table, 2), lo16);
      const __m512i ln = _mm512_and_si512 (_mm512_i32gather_epi32 (in,
              (const void *) table, 2), lo16);

      acc->num_log = _mm512_add_epi32 (acc->num_log, _mm512_sub_epi32 (lt, ln));
    }
  }
}

/* The sum of 16 signed 32-bit lanes, widened first. */
VH_AVX512_INLINE gint64
hsum512_epi32 (__m512i v)
{
  return _mm512_reduce_add_epi64 (_mm512_add_epi64 (_mm512_cvtepi32_epi64
          (_mm512_castsi512_si256 (v)), _mm512_cvtepi32_epi64
          (_mm512_extracti64x4_epi64 (v, 1))));
}

VH_AVX512_INLINE void
flush_lanes512 (VifLanes * lanes, VhVifAccum * acc)
{
  acc->den_log += hsum512_epi32 (lanes->den_log);
  acc->num_log += hsum512_epi32 (lanes->num_log);
  acc->den_non_log += hsum512_epi32 (lanes->den_non_log);
  lanes->den_log = _mm512_setzero_si512 ();
  lanes->num_log = _mm512_setzero_si512 ();
  lanes->den_non_log = _mm512_setzero_si512 ();
}

/* One row of statistics with @n tap pairs. */
VH_AVX512_INLINE void
horiz_stats_n (VhVifRows * rows, guint off, guint w, __m512d limit,
    const guint16 * table, const TapPairs * tp, guint n, VhVifAccum * acc)
{
  const __m512i corr = _mm512_set1_epi32 ((gint32) 0x80000000u);
  guint16 *const *s = rows->s;
  VifLanes lanes;
  guint n_blocks = 0;

  lanes.den_log = lanes.num_log = lanes.den_non_log = _mm512_setzero_si512 ();
  lanes.num_log_exp = lanes.num_non_log = _mm512_setzero_si512 ();
  for (guint j = 0; j < w; j += 32) {
    const guint left = w - j;

    for (guint parity = 0; parity < 2; parity++) {
      const guint o = off + j + parity;
      /* Lane i is column j + 2i + parity: inside while 2i + parity < left. */
      const guint n_in = MIN ((left - parity + 1) / 2, 16);
      const __mmask16 valid = (__mmask16) ((1u << n_in) - 1);
      const __m512i mu1 = _mm512_add_epi32 (hfilter (s[VH_VIF_MU1] + o, tp,
              n), corr);
      const __m512i mu2 = _mm512_add_epi32 (hfilter (s[VH_VIF_MU2] + o, tp,
              n), corr);
      const __m512i xx = hmoment (s[VH_VIF_XX_HI] + o, s[VH_VIF_XX_LO] + o,
          tp, n);
      const __m512i yy = hmoment (s[VH_VIF_YY_HI] + o, s[VH_VIF_YY_LO] + o,
          tp, n);
      const __m512i xy = hmoment (s[VH_VIF_XY_HI] + o, s[VH_VIF_XY_LO] + o,
          tp, n);

      pixel_stats (mu1, mu2, xx, yy, xy, valid, limit, table, &lanes);
    }
    /* 4096 blocks add at most 2^13 log terms below 2^16 to a lane. */
    if (++n_blocks == 4096) {
      flush_lanes512 (&lanes, acc);
      n_blocks = 0;
    }
  }
  flush_lanes512 (&lanes, acc);
  acc->num_log += 2048 * _mm512_reduce_add_epi64 (lanes.num_log_exp);
  acc->num_non_log += _mm512_reduce_add_epi64 (lanes.num_non_log);
}

static VH_AVX512 void
horiz_stats_avx512 (VhVifRows * rows, guint scale, guint w,
    gdouble gain_limit, const guint16 * table, VhVifAccum * acc)
{
  const guint off = VH_VIF_PAD - vh_vif_filter_taps[scale] / 2;
  const __m512d limit = _mm512_set1_pd (gain_limit);
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

static VH_AVX512 void
vert_mu_8_avx512 (const guint8 * const *ref, const guint8 * const *dis,
    guint scale, guint j0, guint j1, VhVifRows * rows)
{
  const guint taps = vh_vif_filter_taps[scale];
  const __m512i round = _mm512_set1_epi32 (128);
  TapPairs tp;
  guint j = j0;

  load_pairs (scale, &tp);
  for (; j + 32 <= j1; j += 32) {
    __m512i m1l = _mm512_setzero_si512 (), m1h = m1l, m2l = m1l, m2h = m1l;

    for (guint p = 0; p < tp.n; p++) {
      const guint ka = tp.tap[p], kb = MIN (ka + 1, taps - 1);

      madd_rows (load_u8 (ref[ka], j), load_u8 (ref[kb], j), tp.c[p], &m1l,
          &m1h);
      madd_rows (load_u8 (dis[ka], j), load_u8 (dis[kb], j), tp.c[p], &m2l,
          &m2h);
    }
    store_stream (rows->s[VH_VIF_MU1], j,
        _mm512_srli_epi32 (_mm512_add_epi32 (m1l, round), 8),
        _mm512_srli_epi32 (_mm512_add_epi32 (m1h, round), 8));
    store_stream (rows->s[VH_VIF_MU2], j,
        _mm512_srli_epi32 (_mm512_add_epi32 (m2l, round), 8),
        _mm512_srli_epi32 (_mm512_add_epi32 (m2h, round), 8));
  }
  if (j < j1)
    vh_vif_kernels_avx2 ()->vert_mu_8 (ref, dis, scale, j, j1, rows);
}

static VH_AVX512 void
vert_mu_16_avx512 (const guint16 * const *ref, const guint16 * const *dis,
    guint scale, guint shift, guint j0, guint j1, VhVifRows * rows)
{
  const guint taps = vh_vif_filter_taps[scale];
  const __m512i bias = _mm512_set1_epi16 ((gint16) VH_VIF_BIAS);
  const __m512i round = _mm512_set1_epi32 ((gint32) (0x80000000u +
          (1u << (shift - 1))));
  const __m512i mask = _mm512_set1_epi32 (0xffff);
  const __m128i sh = _mm_cvtsi32_si128 (shift);
  TapPairs tp;
  guint j = j0;

  load_pairs (scale, &tp);
  for (; j + 32 <= j1; j += 32) {
    __m512i m1l = _mm512_setzero_si512 (), m1h = m1l, m2l = m1l, m2h = m1l;

    for (guint p = 0; p < tp.n; p++) {
      const guint ka = tp.tap[p], kb = MIN (ka + 1, taps - 1);

      madd_rows (_mm512_xor_si512 (load_u16 (ref[ka], j), bias),
          _mm512_xor_si512 (load_u16 (ref[kb], j), bias), tp.c[p], &m1l, &m1h);
      madd_rows (_mm512_xor_si512 (load_u16 (dis[ka], j), bias),
          _mm512_xor_si512 (load_u16 (dis[kb], j), bias), tp.c[p], &m2l, &m2h);
    }
#define MU(v) _mm512_and_si512 (_mm512_srl_epi32 (_mm512_add_epi32 (v, round), \
        sh), mask)
    store_stream (rows->s[VH_VIF_MU1], j, MU (m1l), MU (m1h));
    store_stream (rows->s[VH_VIF_MU2], j, MU (m2l), MU (m2h));
#undef MU
  }
  if (j < j1)
    vh_vif_kernels_avx2 ()->vert_mu_16 (ref, dis, scale, shift, j, j1, rows);
}

static VH_AVX512 void
horiz_decimate_avx512 (VhVifRows * rows, guint scale, guint w_out,
    guint16 * ref_out, guint16 * dis_out)
{
  const guint off = VH_VIF_PAD - vh_vif_filter_taps[scale] / 2;
  const __m512i round = _mm512_set1_epi32 ((gint32) (0x80000000u + 32768));
  TapPairs tp;

  load_pairs (scale, &tp);
  for (guint m = 0; m < w_out; m += 16) {
    /* The last block writes only the samples inside the row. */
    const __mmask16 keep = (__mmask16) ((1u << MIN (w_out - m, 16)) - 1);

    for (guint side = 0; side < 2; side++) {
      const guint16 *s = rows->s[side ? VH_VIF_MU2 : VH_VIF_MU1] + off + 2 * m;
      const __m512i v = _mm512_srli_epi32 (_mm512_add_epi32 (hfilter (s, &tp,
                  tp.n), round), 16);

      _mm512_mask_cvtepi32_storeu_epi16 ((side ? dis_out : ref_out) + m,
          keep, v);
    }
  }
}

static const VhVifKernels kernels_avx512 = {
  .vert_stats_8 = vert_stats_8_avx512,
  .vert_stats_16 = vert_stats_16_avx512,
  .horiz_stats = horiz_stats_avx512,
  .vert_mu_8 = vert_mu_8_avx512,
  .vert_mu_16 = vert_mu_16_avx512,
  .horiz_decimate = horiz_decimate_avx512,
};

const VhVifKernels *
vh_vif_kernels_avx512 (void)
{
  if (!vh_vif_kernels_avx2 () || !__builtin_cpu_supports ("avx512f") ||
      !__builtin_cpu_supports ("avx512cd") ||
      !__builtin_cpu_supports ("avx512bw") ||
      !__builtin_cpu_supports ("avx512dq") ||
      !__builtin_cpu_supports ("avx512vl"))
    return NULL;
  return &kernels_avx512;
}

#else

const VhVifKernels *
vh_vif_kernels_avx512 (void)
{
  return NULL;
}

#endif
