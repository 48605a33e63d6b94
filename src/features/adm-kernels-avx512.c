/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* AVX-512 ADM kernels, chosen at run time over the AVX2 ones. They compute
 * exactly what the portable kernels compute: the scale 0 ones with
 * intrinsics on twice the AVX2 kernels' columns (mask registers where
 * those blend), the scales 1-3 ones as AVX-512-targeted copies of the
 * portable bodies, whose 64-bit arithmetic gains most from the wider
 * multiplies and shifts. Column tails fall back to the portable bodies.
 * No FMA is enabled, so every float and double rounds as in the bodies. */

#include "adm-kernels-body.h"

#if defined(__x86_64__)

#include <immintrin.h>

#define VH_AVX512 __attribute__ ((target \
        ("avx512f,avx512cd,avx512bw,avx512dq,avx512vl")))

/* Two int16 filter taps as one madd operand: @a on the even element. */
#define TAP_PAIR(a, b) \
  _mm512_set1_epi32 ((gint32) ((guint32) (guint16) (a) | \
          ((guint32) (guint16) (b) << 16)))

/* ------------------------------------------------------------------ */
/* Scale 0 wavelet                                                     */

/* Low and high pass of 32 centred samples of four rows. */
static inline VH_AVX512 void
vert32 (__m512i s0, __m512i s1, __m512i s2, __m512i s3, __m512i round,
    __m128i shift, gint16 * lo, gint16 * hi)
{
  const __m512i l01 = TAP_PAIR (VH_ADM_LO0, VH_ADM_LO1);
  const __m512i l23 = TAP_PAIR (VH_ADM_LO2, VH_ADM_LO3);
  const __m512i h01 = TAP_PAIR (VH_ADM_HI0, VH_ADM_HI1);
  const __m512i h23 = TAP_PAIR (VH_ADM_HI2, VH_ADM_HI3);
  __m512i a_l = _mm512_unpacklo_epi16 (s0, s1);
  __m512i a_h = _mm512_unpackhi_epi16 (s0, s1);
  __m512i b_l = _mm512_unpacklo_epi16 (s2, s3);
  __m512i b_h = _mm512_unpackhi_epi16 (s2, s3);
  __m512i lo_l = _mm512_add_epi32 (_mm512_madd_epi16 (a_l, l01),
      _mm512_madd_epi16 (b_l, l23));
  __m512i lo_h = _mm512_add_epi32 (_mm512_madd_epi16 (a_h, l01),
      _mm512_madd_epi16 (b_h, l23));
  __m512i hi_l = _mm512_add_epi32 (_mm512_madd_epi16 (a_l, h01),
      _mm512_madd_epi16 (b_l, h23));
  __m512i hi_h = _mm512_add_epi32 (_mm512_madd_epi16 (a_h, h01),
      _mm512_madd_epi16 (b_h, h23));

  lo_l = _mm512_sra_epi32 (_mm512_add_epi32 (lo_l, round), shift);
  lo_h = _mm512_sra_epi32 (_mm512_add_epi32 (lo_h, round), shift);
  hi_l = _mm512_sra_epi32 (_mm512_add_epi32 (hi_l, round), shift);
  hi_h = _mm512_sra_epi32 (_mm512_add_epi32 (hi_h, round), shift);
  /* unpack and pack work per 128-bit lane, so the order comes back; the
   * values fit 16 bits, so packing does not saturate. */
  _mm512_storeu_si512 ((void *) lo, _mm512_packs_epi32 (lo_l, lo_h));
  _mm512_storeu_si512 ((void *) hi, _mm512_packs_epi32 (hi_l, hi_h));
}

static VH_AVX512 void
dwt0_vert_8_avx512 (const guint8 * r0, const guint8 * r1, const guint8 * r2,
    const guint8 * r3, gint16 * lo, gint16 * hi, gint w)
{
  const __m512i c128 = _mm512_set1_epi16 (128);
  const __m512i round = _mm512_set1_epi32 (128);
  const __m128i shift = _mm_cvtsi32_si128 (8);
  gint j = 0;

  for (; j + 32 <= w; j += 32) {
#define LOAD8(r) _mm512_sub_epi16 (_mm512_cvtepu8_epi16 (\
        _mm256_loadu_si256 ((const __m256i *) ((r) + j))), c128)
    vert32 (LOAD8 (r0), LOAD8 (r1), LOAD8 (r2), LOAD8 (r3), round, shift,
        lo + j, hi + j);
#undef LOAD8
  }
  body_dwt0_vert_8 (r0 + j, r1 + j, r2 + j, r3 + j, lo + j, hi + j, w - j);
}

static VH_AVX512 void
dwt0_vert_16_avx512 (const guint16 * r0, const guint16 * r1,
    const guint16 * r2, const guint16 * r3, gint16 * lo, gint16 * hi, gint w,
    gint bpc)
{
  const gint32 half = 1 << (bpc - 1);
  /* s - 2^(bpc-1) fits int16 for every depth up to 16 bits. */
  const __m512i centre = _mm512_set1_epi16 ((gint16) half);
  const __m512i round = _mm512_set1_epi32 (half);
  const __m128i shift = _mm_cvtsi32_si128 (bpc);
  gint j = 0;

  for (; j + 32 <= w; j += 32) {
#define LOAD16(r) _mm512_sub_epi16 (_mm512_loadu_si512 (\
        (const void *) ((r) + j)), centre)
    vert32 (LOAD16 (r0), LOAD16 (r1), LOAD16 (r2), LOAD16 (r3), round, shift,
        lo + j, hi + j);
#undef LOAD16
  }
  body_dwt0_vert_16 (r0 + j, r1 + j, r2 + j, r3 + j, lo + j, hi + j, w - j,
      bpc);
}

/* Outputs j .. j + 15 of one filter from the tap-pair loads @a (2j - 1 ..)
 * and @b (2j + 1 ..). */
static inline VH_AVX512 __m512i
horz16 (__m512i a, __m512i b, __m512i f01, __m512i f23)
{
  __m512i acc = _mm512_add_epi32 (_mm512_madd_epi16 (a, f01),
      _mm512_madd_epi16 (b, f23));

  return _mm512_srai_epi32 (_mm512_add_epi32 (acc,
          _mm512_set1_epi32 (32768)), 16);
}

/* Outputs j .. j + 31 of both filters. */
static inline VH_AVX512 void
horz_block32 (const gint16 * src, gint16 * lo, gint16 * hi, gint j)
{
  const __m512i l01 = TAP_PAIR (VH_ADM_LO0, VH_ADM_LO1);
  const __m512i l23 = TAP_PAIR (VH_ADM_LO2, VH_ADM_LO3);
  const __m512i h01 = TAP_PAIR (VH_ADM_HI0, VH_ADM_HI1);
  const __m512i h23 = TAP_PAIR (VH_ADM_HI2, VH_ADM_HI3);
  /* packs interleaves the two inputs' 128-bit lanes: this puts the 64-bit
   * groups of four outputs back in order. */
  const __m512i order = _mm512_setr_epi64 (0, 2, 4, 6, 1, 3, 5, 7);
  const gint16 *s = src + 2 * j;
  __m512i a0 = _mm512_loadu_si512 ((const void *) (s - 1));
  __m512i b0 = _mm512_loadu_si512 ((const void *) (s + 1));
  __m512i a1 = _mm512_loadu_si512 ((const void *) (s + 31));
  __m512i b1 = _mm512_loadu_si512 ((const void *) (s + 33));
  __m512i l = _mm512_packs_epi32 (horz16 (a0, b0, l01, l23),
      horz16 (a1, b1, l01, l23));
  __m512i h = _mm512_packs_epi32 (horz16 (a0, b0, h01, h23),
      horz16 (a1, b1, h01, h23));

  _mm512_storeu_si512 ((void *) (lo + j), _mm512_permutexvar_epi64 (order,
          l));
  _mm512_storeu_si512 ((void *) (hi + j), _mm512_permutexvar_epi64 (order,
          h));
}

static VH_AVX512 void
dwt0_horz_avx512 (const gint16 * src, gint16 * lo, gint16 * hi, gint wi)
{
  const gint wb = (wi + 1) / 2, end = dwt_interior_end (wi);
  gint j = 1;

  dwt0_horz_at (src, lo, hi, wi, 0);
  if (end - 1 >= 32) {
    /* The last block may overlap the one before: its outputs come out the
     * same again, and no interior column is left to the scalar loop. */
    for (;; j += 32) {
      j = MIN (j, end - 32);
      horz_block32 (src, lo, hi, j);
      if (j + 32 == end)
        break;
    }
    j = end;
  }
  for (; j < end; j++) {
    gint32 s0 = src[2 * j - 1], s1 = src[2 * j];
    gint32 s2 = src[2 * j + 1], s3 = src[2 * j + 2];
    gint32 l = VH_ADM_LO0 * s0 + VH_ADM_LO1 * s1 + VH_ADM_LO2 * s2 +
        VH_ADM_LO3 * s3;
    gint32 h = VH_ADM_HI0 * s0 + VH_ADM_HI1 * s1 + VH_ADM_HI2 * s2 +
        VH_ADM_HI3 * s3;
    lo[j] = (gint16) ((l + 32768) >> 16);
    hi[j] = (gint16) ((h + 32768) >> 16);
  }
  for (j = MAX (end, 1); j < wb; j++)
    dwt0_horz_at (src, lo, hi, wi, j);
}

/* ------------------------------------------------------------------ */
/* Scale 0 denominator and masking sums                                */

static VH_AVX512 guint64
den0_row_avx512 (const gint16 * b, gint x0, gint x1)
{
  __m512i acc = _mm512_setzero_si512 ();
  gint j = x0;

  for (; j + 16 <= x1; j += 16) {
    __m512i m = _mm512_abs_epi32 (_mm512_cvtepi16_epi32 (_mm256_loadu_si256
            ((const __m256i *) (b + j))));
    __m512i sq = _mm512_mullo_epi32 (m, m);
    __m512i even = _mm512_mul_epu32 (sq, m);
    __m512i odd = _mm512_mul_epu32 (_mm512_srli_epi64 (sq, 32),
        _mm512_srli_epi64 (m, 32));

    acc = _mm512_add_epi64 (acc, _mm512_add_epi64 (even, odd));
  }
  return (guint64) _mm512_reduce_add_epi64 (acc) + body_den0_row (b, j, x1);
}

/* sq = (int32) ((v * v + sq_add) >> sq_shift), then (sq * v + cub_add) >>
 * cub_shift, for the v in the low half of each 64-bit lane (v >= 0). */
static inline VH_AVX512 __m512i
cube64 (__m512i v, __m512i sq_add, __m128i sq_shift, __m512i cub_add,
    __m128i cub_shift)
{
  __m512i sq = _mm512_srl_epi64 (_mm512_add_epi64 (_mm512_mul_epu32 (v, v),
          sq_add), sq_shift);

  return _mm512_sra_epi64 (_mm512_add_epi64 (_mm512_mul_epi32 (sq, v),
          cub_add), cub_shift);
}

static VH_AVX512 gint64
cm_row_avx512 (const VhAdmScale * sc, gint band, const gint32 * x,
    const gint32 * thr, gint x0, gint x1)
{
  const __m128i sub = _mm_cvtsi32_si128 (sc->cm_sub[band]);
  const __m512i sq_add = _mm512_set1_epi64 (sc->cm_sq_add[band]);
  const __m128i sq_shift = _mm_cvtsi32_si128 (sc->cm_sq_shift[band]);
  const __m512i cub_add = _mm512_set1_epi64 (sc->cm_cub_add[band]);
  const __m128i cub_shift = _mm_cvtsi32_si128 (sc->cm_cub_shift[band]);
  __m512i acc = _mm512_setzero_si512 ();
  gint j = x0;

  for (; j + 16 <= x1; j += 16) {
    __m512i xv = _mm512_loadu_si512 ((const void *) (x + j));
    __m512i t = _mm512_loadu_si512 ((const void *) (thr + j));
    __m512i v = _mm512_max_epi32 (_mm512_sub_epi32 (xv,
            _mm512_sll_epi32 (t, sub)), _mm512_setzero_si512 ());

    acc = _mm512_add_epi64 (acc, cube64 (v, sq_add, sq_shift, cub_add,
            cub_shift));
    acc = _mm512_add_epi64 (acc, cube64 (_mm512_srli_epi64 (v, 32), sq_add,
            sq_shift, cub_add, cub_shift));
  }
  return (gint64) ((guint64) _mm512_reduce_add_epi64 (acc) +
      (guint64) body_cm_row (sc, band, x, thr, j, x1));
}

/* ------------------------------------------------------------------ */
/* Scale 0 decoupling and CSF                                          */

static inline VH_AVX512 __m512i
load16 (const gint16 * p)
{
  return _mm512_cvtepi16_epi32 (_mm256_loadu_si256 ((const __m256i *) p));
}

/* Sign-extends the low 16 bits of each lane: the (int16) casts. */
static inline VH_AVX512 __m512i
wrap16 (__m512i v)
{
  return _mm512_srai_epi32 (_mm512_slli_epi32 (v, 16), 16);
}

static inline VH_AVX512 __m512d
half_pd (__m512 v, gint h)
{
  return _mm512_cvtps_pd (h ? _mm512_extractf32x8_ps (v, 1) :
      _mm512_castps512_ps256 (v));
}

/* libvmaf's angle test on sixteen columns, in its float/double roundings:
 * the 2^-12 scalings are exact, so they are multiplications here. */
static inline VH_AVX512 __mmask16
angle16 (__m512i oh, __m512i ov, __m512i th, __m512i tv, __m512d cos1_sq)
{
  const __m512d scale = _mm512_set1_pd (1.0 / 4096.0);
  __m512i ot = _mm512_add_epi32 (_mm512_mullo_epi32 (oh, th),
      _mm512_mullo_epi32 (ov, tv));
  __m512i om = _mm512_add_epi32 (_mm512_mullo_epi32 (oh, oh),
      _mm512_mullo_epi32 (ov, ov));
  __m512i tm = _mm512_add_epi32 (_mm512_mullo_epi32 (th, th),
      _mm512_mullo_epi32 (tv, tv));
  __m512 fot = _mm512_cvtepi32_ps (ot), fom = _mm512_cvtepi32_ps (om);
  __m512 ftm = _mm512_cvtepi32_ps (tm);
  __mmask8 ge[2];

  for (gint h = 0; h < 2; h++) {
    __m512d d = _mm512_mul_pd (half_pd (fot, h), scale);
    __m512d o = _mm512_mul_pd (half_pd (fom, h), scale);
    __m512d t = _mm512_mul_pd (half_pd (ftm, h), scale);
    __m512d lhs = _mm512_mul_pd (d, d);
    __m512d rhs = _mm512_mul_pd (_mm512_mul_pd (cos1_sq, o), t);

    ge[h] = _mm512_cmp_pd_mask (lhs, rhs, _CMP_GE_OQ);
  }
  return (__mmask16) (ge[0] | (guint) ge[1] << 8) &
      _mm512_cmpgt_epi32_mask (ot, _mm512_set1_epi32 (-1));
}

/* Q15 ratio of @t over @o through the reciprocal table, clamped to
 * [0, 32768]. The product is negative exactly when o and t have opposite
 * signs and t != 0 (|table| >= 32768), which clamps to 0. */
static inline VH_AVX512 __m512i
ratio16 (const gint32 * div_lut, __m512i o, __m512i t)
{
  const __m512i zero = _mm512_setzero_si512 ();
  const __m512i round = _mm512_set1_epi64 (16384);
  const __m512i one = _mm512_set1_epi32 (32768);
  __m512i div = _mm512_i32gather_epi32 (o, (const void *) div_lut, 4);
  __m512i pe = _mm512_mul_epi32 (div, t);
  __m512i po = _mm512_mul_epi32 (_mm512_srli_epi64 (div, 32),
      _mm512_srli_epi64 (t, 32));
  __mmask16 neg;
  __m512i q;

  pe = _mm512_srli_epi64 (_mm512_add_epi64 (pe, round), 15);
  po = _mm512_srli_epi64 (_mm512_add_epi64 (po, round), 15);
  q = _mm512_mask_blend_epi32 (0xaaaa, pe, _mm512_slli_epi64 (po, 32));
  q = _mm512_min_epi32 (q, one);
  neg = _mm512_cmpneq_epi32_mask (t, zero) &
      _mm512_cmplt_epi32_mask (_mm512_xor_si512 (o, t), zero);
  q = _mm512_mask_mov_epi32 (q, neg, zero);
  return _mm512_mask_mov_epi32 (q, _mm512_cmpeq_epi32_mask (o, zero), one);
}

/* The enhancement gain on sixteen restored values. */
static inline VH_AVX512 __m512i
enhance16 (__m512i rst, __m512i o, __m512i t, __mmask16 cond,
    __mmask16 nearest, const VhAdmDecouple * dc, gint int_limit)
{
  const __mmask16 opos = _mm512_cmpgt_epi32_mask (o, _mm512_setzero_si512 ());
  __m512i res;

  if (!cond)
    return rst;
  if (int_limit > 0) {
    /* An integral limit: the double product is exact, so is this. */
    __m512i b = _mm512_mullo_epi32 (rst, _mm512_set1_epi32 (int_limit));
    res = _mm512_mask_blend_epi32 (opos, _mm512_max_epi32 (b, t),
        _mm512_min_epi32 (b, t));
  } else {
    const __m512d limit = _mm512_set1_pd (dc->gain_limit);
    __m256i tr[2], nr[2];

    for (gint h = 0; h < 2; h++) {
      __m256i r8 = h ? _mm512_extracti64x4_epi64 (rst, 1) :
          _mm512_castsi512_si256 (rst);
      __m256i t8 = h ? _mm512_extracti64x4_epi64 (t, 1) :
          _mm512_castsi512_si256 (t);
      __mmask8 p8 = (__mmask8) (opos >> (8 * h));
      __m512d b = _mm512_mul_pd (_mm512_cvtepi32_pd (r8), limit);
      __m512d td = _mm512_cvtepi32_pd (t8);
      __m512d sel = _mm512_mask_blend_pd (p8, _mm512_max_pd (b, td),
          _mm512_min_pd (b, td));

      tr[h] = _mm512_cvttpd_epi32 (sel);
      nr[h] = _mm512_cvtpd_epi32 (sel);
    }
    res = _mm512_mask_blend_epi32 (nearest,
        _mm512_inserti64x4 (_mm512_castsi256_si512 (tr[0]), tr[1], 1),
        _mm512_inserti64x4 (_mm512_castsi256_si512 (nr[0]), nr[1], 1));
  }
  return _mm512_mask_blend_epi32 (cond, rst, res);
}

/* Lanes of columns @col in [lo, hi). */
static inline VH_AVX512 __mmask16
in_range (__m512i col, gint lo, gint hi)
{
  return _mm512_cmpge_epi32_mask (col, _mm512_set1_epi32 (lo)) &
      _mm512_cmplt_epi32_mask (col, _mm512_set1_epi32 (hi));
}

static VH_AVX512 void
decouple0_row_avx512 (const VhAdmScale * sc, const VhAdmDecouple * dc,
    const gint16 * const ref[3], const gint16 * const dis[3],
    const VhAdmRows * out, gint x0, gint x1)
{
  const __m512i iota = _mm512_setr_epi32 (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
      11, 12, 13, 14, 15);
  const __m512i zero = _mm512_setzero_si512 ();
  const __m512d cos1_sq = _mm512_set1_pd (dc->cos1_sq);
  const gint int_limit = dc->gain_limit == floor (dc->gain_limit) &&
      dc->gain_limit <= 100.0 ? (gint) dc->gain_limit : 0;
  gint j = x0;

  for (; j + 16 <= x1; j += 16) {
    const __m512i col = _mm512_add_epi32 (_mm512_set1_epi32 (j), iota);
    const __mmask16 nearest = in_range (col, sc->round_x0, sc->round_x1);
    const __mmask16 wide = in_range (col, sc->wide_x0, sc->wide_x1);
    __m512i o[3], t[3];
    __m512i fr = zero, kr = zero, fa = zero, ka = zero;
    __mmask16 angle;

    for (gint b = 0; b < 3; b++) {
      o[b] = load16 (ref[b] + j);
      t[b] = load16 (dis[b] + j);
    }
    angle = angle16 (o[0], o[1], t[0], t[1], cos1_sq);

    for (gint b = 0; b < 3; b++) {
      const __m512i gain = _mm512_set1_epi32 (sc->gain16[b]);
      const __m512i add = _mm512_set1_epi32 (sc->csf_add16[b]);
      const __m128i shift = _mm_cvtsi32_si128 (sc->csf_shift16[b]);
      const __m512i k = ratio16 (dc->div_lut, o[b], t[b]);
      const __m512i rst = _mm512_srai_epi32 (_mm512_add_epi32
          (_mm512_mullo_epi32 (k, o[b]), _mm512_set1_epi32 (16384)), 15);
      const __mmask16 cond = angle & _mm512_cmpneq_epi32_mask (o[b], zero) &
          _mm512_cmpgt_epi32_mask (k, zero);
      const __m512i r = wrap16 (enhance16 (rst, o[b], t[b], cond, nearest,
              dc, int_limit));
      const __m512i a = wrap16 (_mm512_sub_epi32 (t[b], r));
      const __m512i part[2] = { r, a };
      __m512i *f_acc[2] = { &fr, &fa }, *k_acc[2] = { &kr, &ka };
      gint32 *x_out[2] = { out->xr[b], out->xa[b] };

      for (gint p = 0; p < 2; p++) {
        __m512i gv = _mm512_mullo_epi32 (gain, part[p]);
        __m512i c32 = _mm512_sra_epi32 (_mm512_add_epi32 (gv, add), shift);
        __m512i c16 = wrap16 (c32);
        __m512i fin = _mm512_abs_epi32 (_mm512_mask_blend_epi32 (nearest,
                c16, c32));
        __m512i f = wrap16 (_mm512_srai_epi32 (_mm512_add_epi32
                (_mm512_mullo_epi32 (fin, _mm512_set1_epi32 (4369)),
                    _mm512_set1_epi32 (2048)), 12));
        __m512i c = _mm512_srai_epi32 (_mm512_add_epi32 (_mm512_mullo_epi32
                (_mm512_abs_epi32 (c16), _mm512_set1_epi32 (8738)),
                _mm512_set1_epi32 (2048)), 12);

        c = _mm512_mask_blend_epi32 (wide, wrap16 (c), c);
        *f_acc[p] = _mm512_add_epi32 (*f_acc[p], f);
        *k_acc[p] = _mm512_add_epi32 (*k_acc[p], _mm512_sub_epi32 (c, f));
        _mm512_storeu_si512 ((void *) (x_out[p] + j), _mm512_abs_epi32 (gv));
      }
    }
    _mm512_storeu_si512 ((void *) (out->fr + j), fr);
    _mm512_storeu_si512 ((void *) (out->kr + j), kr);
    _mm512_storeu_si512 ((void *) (out->fa + j), fa);
    _mm512_storeu_si512 ((void *) (out->ka + j), ka);
  }
  body_decouple0_row (sc, dc, ref, dis, out, j, x1);
}

/* ------------------------------------------------------------------ */
/* Scales 1-3: the portable bodies, compiled for AVX-512               */

static VH_AVX512 void
dwt_vert_s123_avx512 (const gint32 * r0, const gint32 * r1,
    const gint32 * r2, const gint32 * r3, gint32 * lo, gint32 * hi, gint w,
    gint64 add, gint shift, gboolean narrow)
{
  body_dwt_vert_s123 (r0, r1, r2, r3, lo, hi, w, add, shift, narrow);
}

static VH_AVX512 void
dwt_horz_s123_avx512 (const gint32 * src, gint32 * lo, gint32 * hi, gint wi,
    gint64 add, gint shift)
{
  body_dwt_horz_s123 (src, lo, hi, wi, add, shift);
}

static VH_AVX512 guint64
den_row_s123_avx512 (const VhAdmScale * sc, const gint32 * b, gint x0,
    gint x1)
{
  return body_den_row_s123 (sc, b, x0, x1);
}

/* ------------------------------------------------------------------ */
/* Scales 1-3 decoupling and CSF: eight columns in 64-bit lanes        */

/* The low 32 bits of each lane, sign-extended: the (gint32) casts. */
static inline VH_AVX512 __m512i
wrap32 (__m512i v)
{
  return _mm512_srai_epi64 (_mm512_slli_epi64 (v, 32), 32);
}

static inline VH_AVX512 __m512i
load32 (const gint32 * p)
{
  return _mm512_cvtepi32_epi64 (_mm256_loadu_si256 ((const __m256i *) p));
}

/* (double) of 64-bit integers through float, as libvmaf rounds its
 * products: exact 2^-12 scaling after the float rounding. */
static inline VH_AVX512 __m512d
float_scaled (__m512i v)
{
  return _mm512_mul_pd (_mm512_cvtps_pd (_mm512_cvtepi64_ps (v)),
      _mm512_set1_pd (1.0 / 4096.0));
}

/* The angle test of angle_below_1deg () on eight columns. */
static inline VH_AVX512 __mmask8
angle8_s123 (__m512i oh, __m512i ov, __m512i th, __m512i tv, __m512d cos1_sq)
{
  const __m512i ot = _mm512_add_epi64 (_mm512_mullo_epi64 (oh, th),
      _mm512_mullo_epi64 (ov, tv));
  const __m512i om = _mm512_add_epi64 (_mm512_mullo_epi64 (oh, oh),
      _mm512_mullo_epi64 (ov, ov));
  const __m512i tm = _mm512_add_epi64 (_mm512_mullo_epi64 (th, th),
      _mm512_mullo_epi64 (tv, tv));
  const __m512d d = float_scaled (ot);
  const __m512d rhs = _mm512_mul_pd (_mm512_mul_pd (cos1_sq,
          float_scaled (om)), float_scaled (tm));

  /* dp >= 0 exactly when the integer product sum is. */
  return _mm512_cmp_pd_mask (_mm512_mul_pd (d, d), rhs, _CMP_GE_OQ) &
      _mm512_cmpge_epi64_mask (ot, _mm512_setzero_si512 ());
}

/* ratio_s123 () on eight columns. */
static inline VH_AVX512 __m512i
ratio8_s123 (const gint32 * div_lut, __m512i o, __m512i t)
{
  const __m512i zero = _mm512_setzero_si512 ();
  const __m512i one = _mm512_set1_epi64 (1);
  const __m512i full = _mm512_set1_epi64 (32768);
  /* |o| as an unsigned 32-bit number (2^31 for INT32_MIN). */
  const __m512i mag = _mm512_abs_epi64 (o);
  const __mmask8 big = _mm512_cmpge_epi64_mask (mag, full);
  /* shift = 17 - clz32 (mag) = 49 - clz64 (mag) where |o| >= 2^15. */
  const __m512i shift = _mm512_maskz_sub_epi64 (big, _mm512_set1_epi64 (49),
      _mm512_lzcnt_epi64 (mag));
  const __m512i idx = _mm512_mask_srlv_epi64 (mag, big, _mm512_add_epi64 (mag,
          _mm512_sllv_epi64 (one, _mm512_sub_epi64 (shift, one))), shift);
  const __m512i div = _mm512_cvtepi32_epi64 (_mm512_i64gather_epi32 (idx,
          (const void *) div_lut, 4));
  /* The rounding term is an int: it wraps for |o| = 2^31. */
  const __m512i round = wrap32 (_mm512_sllv_epi64 (one, _mm512_add_epi64
          (shift, _mm512_set1_epi64 (14))));
  __m512i q = _mm512_mul_epi32 (div, t);

  q = _mm512_mask_sub_epi64 (q, _mm512_cmplt_epi64_mask (o, zero), zero, q);
  q = _mm512_srav_epi64 (_mm512_add_epi64 (q, round), _mm512_add_epi64 (shift,
          _mm512_set1_epi64 (15)));
  q = _mm512_min_epi64 (_mm512_max_epi64 (q, zero), full);
  return _mm512_mask_mov_epi64 (q, _mm512_cmpeq_epi64_mask (o, zero), full);
}

/* enhance () on eight columns: @cond holds angle && k > 0 && o != 0. */
static inline VH_AVX512 __m512i
enhance8_s123 (__m512i rst, __m512i o, __m512i t, __mmask8 cond,
    __mmask8 nearest, __m512d limit)
{
  const __mmask8 opos = _mm512_cmpgt_epi64_mask (o, _mm512_setzero_si512 ());
  __m512d boosted, td;
  __m512i rounded, truncated, res;
  __mmask8 take_b;

  if (!cond)
    return rst;
  boosted = _mm512_mul_pd (_mm512_cvtepi64_pd (rst), limit);
  td = _mm512_cvtepi64_pd (t);
  /* Nearest: MIN or MAX of the rounded product and t, in integers. */
  rounded = _mm512_cvtpd_epi64 (boosted);
  rounded = _mm512_mask_blend_epi64 (opos, _mm512_max_epi64 (rounded, t),
      _mm512_min_epi64 (rounded, t));
  /* Otherwise the truncated product where it passes t, compared as
   * doubles. */
  truncated = _mm512_cvttpd_epi64 (boosted);
  take_b = (opos & _mm512_cmp_pd_mask (boosted, td, _CMP_LT_OQ)) |
      (~opos & _mm512_cmp_pd_mask (boosted, td, _CMP_GT_OQ));
  truncated = _mm512_mask_blend_epi64 (take_b, t, truncated);
  res = _mm512_mask_blend_epi64 (nearest, truncated, rounded);
  return _mm512_mask_blend_epi64 (cond, rst, res);
}

/* csf32 (): the low 32 bits of (g * v + 2^27) >> 28, sign-extended;
 * @pre gets the unwrapped value. */
static inline VH_AVX512 __m512i
csf8 (__m512i g, __m512i v, __m512i * pre)
{
  *pre = _mm512_srai_epi64 (_mm512_add_epi64 (_mm512_mullo_epi64 (g, v),
          _mm512_set1_epi64 (1 << 27)), 28);
  return wrap32 (*pre);
}

/* vh_adm_abs32 () of sign-extended 32-bit lanes. */
static inline VH_AVX512 __m512i
abs32 (__m512i v)
{
  return wrap32 (_mm512_abs_epi64 (v));
}

/* (gint32) ((m * |c| - 2^31) >> 32) */
static inline VH_AVX512 __m512i
fixed_mul (__m512i c_abs, gint64 m)
{
  return wrap32 (_mm512_srai_epi64 (_mm512_add_epi64 (_mm512_mullo_epi64
              (c_abs, _mm512_set1_epi64 (m)), _mm512_set1_epi64 (-((gint64) 1
                  << 31))), 32));
}

static VH_AVX512 void
decouple_s123_row_avx512 (const VhAdmScale * sc, const VhAdmDecouple * dc,
    const gint32 * const ref[3], const gint32 * const dis[3],
    const VhAdmRows64 * out, gint y, gint x0, gint x1)
{
  const __m512i iota = _mm512_setr_epi64 (0, 1, 2, 3, 4, 5, 6, 7);
  const __m512i zero = _mm512_setzero_si512 ();
  const __m512d cos1_sq = _mm512_set1_pd (dc->cos1_sq);
  const __m512d limit = _mm512_set1_pd (dc->gain_limit);
  const gboolean signed_row = y >= sc->signed_y0 && y < sc->signed_y1;
  gint j = x0;

  for (; j + 8 <= x1; j += 8) {
    const __m512i col = _mm512_add_epi64 (_mm512_set1_epi64 (j), iota);
    const __mmask8 nearest = _mm512_cmpge_epi64_mask (col,
        _mm512_set1_epi64 (sc->round_x0)) & _mm512_cmplt_epi64_mask (col,
        _mm512_set1_epi64 (sc->round_x1));
    const __mmask8 vec_cm = signed_row ? _mm512_cmpge_epi64_mask (col,
        _mm512_set1_epi64 (sc->signed_x0)) & _mm512_cmplt_epi64_mask (col,
        _mm512_set1_epi64 (sc->signed_x1)) : 0;
    __m512i o[3], t[3];
    __m512i fr = zero, kr = zero, fa = zero, ka = zero;
    __mmask8 angle;

    for (gint b = 0; b < 3; b++) {
      o[b] = load32 (ref[b] + j);
      t[b] = load32 (dis[b] + j);
    }
    angle = angle8_s123 (o[0], o[1], t[0], t[1], cos1_sq);

    for (gint b = 0; b < 3; b++) {
      /* The gain read as unsigned, and as signed where the vector code
       * does (the rounded columns). */
      const __m512i g_u = _mm512_set1_epi64 ((gint64) sc->gain32[b]);
      const __m512i g_s = _mm512_set1_epi64 ((gint64) (gint32) sc->gain32[b]);
      const __m512i g = _mm512_mask_blend_epi64 (nearest, g_u, g_s);
      const __m512i k = ratio8_s123 (dc->div_lut, o[b], t[b]);
      const __m512i rst = _mm512_srai_epi64 (_mm512_add_epi64
          (_mm512_mullo_epi64 (k, o[b]), _mm512_set1_epi64 (16384)), 15);
      const __mmask8 cond = angle & _mm512_cmpgt_epi64_mask (k, zero) &
          _mm512_cmpneq_epi64_mask (o[b], zero);
      const __m512i r = wrap32 (enhance8_s123 (rst, o[b], t[b], cond, nearest,
              limit));
      const __m512i a = wrap32 (_mm512_sub_epi64 (t[b], r));
      const __m512i part[2] = { r, a };
      __m512i *f_acc[2] = { &fr, &fa }, *k_acc[2] = { &kr, &ka };
      gint64 *x_out[2] = { out->xr[b], out->xa[b] };

      for (gint p = 0; p < 2; p++) {
        __m512i pre, c = csf8 (g, part[p], &pre);
        const __m512i c_abs = abs32 (c);
        const __m512i f = fixed_mul (c_abs, 143165577LL);
        const __m512i cc = fixed_mul (c_abs, 286331153LL);
        __m512i x;

        *f_acc[p] = _mm512_add_epi64 (*f_acc[p], f);
        *k_acc[p] = _mm512_add_epi64 (*k_acc[p], _mm512_sub_epi64 (cc, f));
        if (!sc->wide_gains) {
          /* Gains below 2^28: every variant of the product agrees. */
          x = c_abs;
        } else {
          __m512i pre_s, pre_u;

          csf8 (g_s, part[p], &pre_s);
          x = _mm512_mask_blend_epi64 (vec_cm, abs32 (csf8 (g_u, part[p],
                      &pre_u)), _mm512_abs_epi64 (pre_s));
        }
        _mm512_storeu_si512 ((void *) (x_out[p] + j), x);
      }
    }
    _mm512_storeu_si512 ((void *) (out->fr + j), fr);
    _mm512_storeu_si512 ((void *) (out->kr + j), kr);
    _mm512_storeu_si512 ((void *) (out->fa + j), fa);
    _mm512_storeu_si512 ((void *) (out->ka + j), ka);
  }
  body_decouple_s123_row (sc, dc, ref, dis, out, y, j, x1);
}

static VH_AVX512 gint64
cm_row_s123_avx512 (const VhAdmScale * sc, const gint64 * x,
    const gint64 * thr, gint y, gint x0, gint x1)
{
  return body_cm_row_s123 (sc, x, thr, y, x0, x1);
}

gboolean
vh_adm_kernels_init_avx512 (VhAdmKernels * k)
{
  if (!__builtin_cpu_supports ("avx512f") ||
      !__builtin_cpu_supports ("avx512cd") ||
      !__builtin_cpu_supports ("avx512bw") ||
      !__builtin_cpu_supports ("avx512dq") ||
      !__builtin_cpu_supports ("avx512vl"))
    return FALSE;
  k->dwt0_vert_8 = dwt0_vert_8_avx512;
  k->dwt0_vert_16 = dwt0_vert_16_avx512;
  k->dwt0_horz = dwt0_horz_avx512;
  k->den0_row = den0_row_avx512;
  k->decouple0_row = decouple0_row_avx512;
  k->cm_row = cm_row_avx512;
  k->dwt_vert_s123 = dwt_vert_s123_avx512;
  k->dwt_horz_s123 = dwt_horz_s123_avx512;
  k->den_row_s123 = den_row_s123_avx512;
  k->decouple_s123_row = decouple_s123_row_avx512;
  k->cm_row_s123 = cm_row_s123_avx512;
  return TRUE;
}

#else /* not x86-64 */

gboolean
vh_adm_kernels_init_avx512 (VhAdmKernels * k)
{
  return FALSE;
}

#endif
