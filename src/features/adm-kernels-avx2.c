/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* AVX2 ADM kernels, chosen at run time. They compute exactly what the
 * portable kernels compute: the scale 0 ones with intrinsics, eight (or
 * sixteen) columns at a time, the scales 1-3 ones as AVX2-targeted copies
 * of the portable bodies. Column tails fall back to the portable bodies. */

#include "adm-kernels-body.h"

#if defined(__x86_64__)

#include <immintrin.h>

#define VH_AVX2 __attribute__ ((target ("avx2")))

/* Two int16 filter taps as one madd operand: @a on the even element. */
#define TAP_PAIR(a, b) \
  _mm256_set1_epi32 ((gint32) ((guint32) (guint16) (a) | \
          ((guint32) (guint16) (b) << 16)))

/* ------------------------------------------------------------------ */
/* Scale 0 wavelet                                                     */

/* Low and high pass of 16 centred samples of four rows. */
static inline VH_AVX2 void
vert16 (__m256i s0, __m256i s1, __m256i s2, __m256i s3, __m256i round,
    __m128i shift, gint16 * lo, gint16 * hi)
{
  const __m256i l01 = TAP_PAIR (VH_ADM_LO0, VH_ADM_LO1);
  const __m256i l23 = TAP_PAIR (VH_ADM_LO2, VH_ADM_LO3);
  const __m256i h01 = TAP_PAIR (VH_ADM_HI0, VH_ADM_HI1);
  const __m256i h23 = TAP_PAIR (VH_ADM_HI2, VH_ADM_HI3);
  __m256i a_l = _mm256_unpacklo_epi16 (s0, s1);
  __m256i a_h = _mm256_unpackhi_epi16 (s0, s1);
  __m256i b_l = _mm256_unpacklo_epi16 (s2, s3);
  __m256i b_h = _mm256_unpackhi_epi16 (s2, s3);
  __m256i lo_l = _mm256_add_epi32 (_mm256_madd_epi16 (a_l, l01),
      _mm256_madd_epi16 (b_l, l23));
  __m256i lo_h = _mm256_add_epi32 (_mm256_madd_epi16 (a_h, l01),
      _mm256_madd_epi16 (b_h, l23));
  __m256i hi_l = _mm256_add_epi32 (_mm256_madd_epi16 (a_l, h01),
      _mm256_madd_epi16 (b_l, h23));
  __m256i hi_h = _mm256_add_epi32 (_mm256_madd_epi16 (a_h, h01),
      _mm256_madd_epi16 (b_h, h23));

  lo_l = _mm256_sra_epi32 (_mm256_add_epi32 (lo_l, round), shift);
  lo_h = _mm256_sra_epi32 (_mm256_add_epi32 (lo_h, round), shift);
  hi_l = _mm256_sra_epi32 (_mm256_add_epi32 (hi_l, round), shift);
  hi_h = _mm256_sra_epi32 (_mm256_add_epi32 (hi_h, round), shift);
  /* unpack and pack work per 128-bit lane, so the order comes back; the
   * values fit 16 bits, so packing does not saturate. */
  _mm256_storeu_si256 ((__m256i *) lo, _mm256_packs_epi32 (lo_l, lo_h));
  _mm256_storeu_si256 ((__m256i *) hi, _mm256_packs_epi32 (hi_l, hi_h));
}

static VH_AVX2 void
dwt0_vert_8_avx2 (const guint8 * r0, const guint8 * r1, const guint8 * r2,
    const guint8 * r3, gint16 * lo, gint16 * hi, gint w)
{
  const __m256i c128 = _mm256_set1_epi16 (128);
  const __m256i round = _mm256_set1_epi32 (128);
  const __m128i shift = _mm_cvtsi32_si128 (8);
  gint j = 0;

  for (; j + 16 <= w; j += 16) {
#define LOAD8(r) _mm256_sub_epi16 (_mm256_cvtepu8_epi16 (\
        _mm_loadu_si128 ((const __m128i *) ((r) + j))), c128)
    vert16 (LOAD8 (r0), LOAD8 (r1), LOAD8 (r2), LOAD8 (r3), round, shift,
        lo + j, hi + j);
#undef LOAD8
  }
  body_dwt0_vert_8 (r0 + j, r1 + j, r2 + j, r3 + j, lo + j, hi + j, w - j);
}

static VH_AVX2 void
dwt0_vert_16_avx2 (const guint16 * r0, const guint16 * r1,
    const guint16 * r2, const guint16 * r3, gint16 * lo, gint16 * hi, gint w,
    gint bpc)
{
  const gint32 half = 1 << (bpc - 1);
  /* s - 2^(bpc-1) fits int16 for every depth up to 16 bits. */
  const __m256i centre = _mm256_set1_epi16 ((gint16) half);
  const __m256i round = _mm256_set1_epi32 (half);
  const __m128i shift = _mm_cvtsi32_si128 (bpc);
  gint j = 0;

  for (; j + 16 <= w; j += 16) {
#define LOAD16(r) _mm256_sub_epi16 (_mm256_loadu_si256 (\
        (const __m256i *) ((r) + j)), centre)
    vert16 (LOAD16 (r0), LOAD16 (r1), LOAD16 (r2), LOAD16 (r3), round, shift,
        lo + j, hi + j);
#undef LOAD16
  }
  body_dwt0_vert_16 (r0 + j, r1 + j, r2 + j, r3 + j, lo + j, hi + j, w - j,
      bpc);
}

/* Outputs j .. j + 7 of one filter from the tap-pair loads @a (2j - 1 ..)
 * and @b (2j + 1 ..). */
static inline VH_AVX2 __m256i
horz8 (__m256i a, __m256i b, __m256i f01, __m256i f23)
{
  __m256i acc = _mm256_add_epi32 (_mm256_madd_epi16 (a, f01),
      _mm256_madd_epi16 (b, f23));

  return _mm256_srai_epi32 (_mm256_add_epi32 (acc,
          _mm256_set1_epi32 (32768)), 16);
}

static VH_AVX2 void
dwt0_horz_avx2 (const gint16 * src, gint16 * lo, gint16 * hi, gint wi)
{
  const __m256i l01 = TAP_PAIR (VH_ADM_LO0, VH_ADM_LO1);
  const __m256i l23 = TAP_PAIR (VH_ADM_LO2, VH_ADM_LO3);
  const __m256i h01 = TAP_PAIR (VH_ADM_HI0, VH_ADM_HI1);
  const __m256i h23 = TAP_PAIR (VH_ADM_HI2, VH_ADM_HI3);
  const gint wb = (wi + 1) / 2, end = dwt_interior_end (wi);
  gint j = 1;

  dwt0_horz_at (src, lo, hi, wi, 0);
  for (; j + 16 <= end; j += 16) {
    const gint16 *s = src + 2 * j;
    __m256i a0 = _mm256_loadu_si256 ((const __m256i *) (s - 1));
    __m256i b0 = _mm256_loadu_si256 ((const __m256i *) (s + 1));
    __m256i a1 = _mm256_loadu_si256 ((const __m256i *) (s + 15));
    __m256i b1 = _mm256_loadu_si256 ((const __m256i *) (s + 17));
    __m256i l = _mm256_packs_epi32 (horz8 (a0, b0, l01, l23),
        horz8 (a1, b1, l01, l23));
    __m256i h = _mm256_packs_epi32 (horz8 (a0, b0, h01, h23),
        horz8 (a1, b1, h01, h23));

    _mm256_storeu_si256 ((__m256i *) (lo + j),
        _mm256_permute4x64_epi64 (l, 0xd8));
    _mm256_storeu_si256 ((__m256i *) (hi + j),
        _mm256_permute4x64_epi64 (h, 0xd8));
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
/* 64-bit helpers                                                      */

static inline VH_AVX2 guint64
hsum64 (__m256i v)
{
  __m128i s = _mm_add_epi64 (_mm256_castsi256_si128 (v),
      _mm256_extracti128_si256 (v, 1));

  return (guint64) _mm_cvtsi128_si64 (s) + (guint64) _mm_extract_epi64 (s, 1);
}

/* Arithmetic right shift of 64-bit lanes (AVX2 only has the logical one). */
static inline VH_AVX2 __m256i
sra64 (__m256i v, __m128i n)
{
  __m256i sign = _mm256_cmpgt_epi64 (_mm256_setzero_si256 (), v);

  return _mm256_xor_si256 (_mm256_srl_epi64 (_mm256_xor_si256 (v, sign), n),
      sign);
}

/* ------------------------------------------------------------------ */
/* Scale 0 denominator and masking sums                                */

static VH_AVX2 guint64
den0_row_avx2 (const gint16 * b, gint x0, gint x1)
{
  __m256i acc = _mm256_setzero_si256 ();
  gint j = x0;

  for (; j + 8 <= x1; j += 8) {
    __m256i m = _mm256_abs_epi32 (_mm256_cvtepi16_epi32 (_mm_loadu_si128
            ((const __m128i *) (b + j))));
    __m256i sq = _mm256_mullo_epi32 (m, m);
    __m256i even = _mm256_mul_epu32 (sq, m);
    __m256i odd = _mm256_mul_epu32 (_mm256_srli_epi64 (sq, 32),
        _mm256_srli_epi64 (m, 32));

    acc = _mm256_add_epi64 (acc, _mm256_add_epi64 (even, odd));
  }
  return hsum64 (acc) + body_den0_row (b, j, x1);
}

/* sq = (int32) ((v * v + sq_add) >> sq_shift), then (sq * v + cub_add) >>
 * cub_shift, for the v in the low half of each 64-bit lane (v >= 0). */
static inline VH_AVX2 __m256i
cube64 (__m256i v, __m256i sq_add, __m128i sq_shift, __m256i cub_add,
    __m128i cub_shift)
{
  __m256i sq = _mm256_srl_epi64 (_mm256_add_epi64 (_mm256_mul_epu32 (v, v),
          sq_add), sq_shift);

  return sra64 (_mm256_add_epi64 (_mm256_mul_epi32 (sq, v), cub_add),
      cub_shift);
}

static VH_AVX2 gint64
cm_row_avx2 (const VhAdmScale * sc, gint band, const gint32 * x,
    const gint32 * thr, gint x0, gint x1)
{
  const __m128i sub = _mm_cvtsi32_si128 (sc->cm_sub[band]);
  const __m256i sq_add = _mm256_set1_epi64x (sc->cm_sq_add[band]);
  const __m128i sq_shift = _mm_cvtsi32_si128 (sc->cm_sq_shift[band]);
  const __m256i cub_add = _mm256_set1_epi64x (sc->cm_cub_add[band]);
  const __m128i cub_shift = _mm_cvtsi32_si128 (sc->cm_cub_shift[band]);
  __m256i acc = _mm256_setzero_si256 ();
  gint j = x0;

  for (; j + 8 <= x1; j += 8) {
    __m256i xv = _mm256_loadu_si256 ((const __m256i *) (x + j));
    __m256i t = _mm256_loadu_si256 ((const __m256i *) (thr + j));
    __m256i v = _mm256_max_epi32 (_mm256_sub_epi32 (xv,
            _mm256_sll_epi32 (t, sub)), _mm256_setzero_si256 ());

    acc = _mm256_add_epi64 (acc, cube64 (v, sq_add, sq_shift, cub_add,
            cub_shift));
    acc = _mm256_add_epi64 (acc, cube64 (_mm256_srli_epi64 (v, 32), sq_add,
            sq_shift, cub_add, cub_shift));
  }
  return (gint64) (hsum64 (acc) + (guint64) body_cm_row (sc, band, x, thr, j,
          x1));
}

/* ------------------------------------------------------------------ */
/* Scale 0 decoupling and CSF                                          */

static inline VH_AVX2 __m256i
load16 (const gint16 * p)
{
  return _mm256_cvtepi16_epi32 (_mm_loadu_si128 ((const __m128i *) p));
}

/* Sign-extends the low 16 bits of each lane: the (int16) casts. */
static inline VH_AVX2 __m256i
wrap16 (__m256i v)
{
  return _mm256_srai_epi32 (_mm256_slli_epi32 (v, 16), 16);
}

/* Packs the low 32 bits of the four 64-bit lanes of @lo and @hi (both in
 * lane order) into eight lanes. */
static inline VH_AVX2 __m256i
narrow64 (__m256i lo, __m256i hi)
{
  const __m256i even = _mm256_setr_epi32 (0, 2, 4, 6, 1, 3, 5, 7);
  __m256i a = _mm256_permutevar8x32_epi32 (lo, even);
  __m256i b = _mm256_permutevar8x32_epi32 (hi, even);

  return _mm256_permute2x128_si256 (a, b, 0x20);
}

/* libvmaf's angle test on eight columns, in its float/double roundings:
 * the 2^-12 scalings are exact, so they are multiplications here. */
static inline VH_AVX2 __m256i
angle8 (__m256i oh, __m256i ov, __m256i th, __m256i tv, __m256d cos1_sq)
{
  const __m256d scale = _mm256_set1_pd (1.0 / 4096.0);
  __m256i ot = _mm256_add_epi32 (_mm256_mullo_epi32 (oh, th),
      _mm256_mullo_epi32 (ov, tv));
  __m256i om = _mm256_add_epi32 (_mm256_mullo_epi32 (oh, oh),
      _mm256_mullo_epi32 (ov, ov));
  __m256i tm = _mm256_add_epi32 (_mm256_mullo_epi32 (th, th),
      _mm256_mullo_epi32 (tv, tv));
  __m256 fot = _mm256_cvtepi32_ps (ot), fom = _mm256_cvtepi32_ps (om);
  __m256 ftm = _mm256_cvtepi32_ps (tm);
  __m256i ge[2];

  for (gint h = 0; h < 2; h++) {
    __m128 pot = h ? _mm256_extractf128_ps (fot, 1) : _mm256_castps256_ps128
        (fot);
    __m128 pom = h ? _mm256_extractf128_ps (fom, 1) : _mm256_castps256_ps128
        (fom);
    __m128 ptm = h ? _mm256_extractf128_ps (ftm, 1) : _mm256_castps256_ps128
        (ftm);
    __m256d d = _mm256_mul_pd (_mm256_cvtps_pd (pot), scale);
    __m256d o = _mm256_mul_pd (_mm256_cvtps_pd (pom), scale);
    __m256d t = _mm256_mul_pd (_mm256_cvtps_pd (ptm), scale);
    __m256d lhs = _mm256_mul_pd (d, d);
    __m256d rhs = _mm256_mul_pd (_mm256_mul_pd (cos1_sq, o), t);

    ge[h] = _mm256_castpd_si256 (_mm256_cmp_pd (lhs, rhs, _CMP_GE_OQ));
  }
  return _mm256_and_si256 (narrow64 (ge[0], ge[1]),
      _mm256_cmpgt_epi32 (ot, _mm256_set1_epi32 (-1)));
}

/* Q15 ratio of @t over @o through the reciprocal table, clamped to
 * [0, 32768]. The product is negative exactly when o and t have opposite
 * signs and t != 0 (|table| >= 32768), which clamps to 0. */
static inline VH_AVX2 __m256i
ratio8 (const gint32 * div_lut, __m256i o, __m256i t)
{
  const __m256i zero = _mm256_setzero_si256 ();
  const __m256i round = _mm256_set1_epi64x (16384);
  const __m256i one = _mm256_set1_epi32 (32768);
  __m256i div = _mm256_i32gather_epi32 (div_lut, o, 4);
  __m256i pe = _mm256_mul_epi32 (div, t);
  __m256i po = _mm256_mul_epi32 (_mm256_srli_epi64 (div, 32),
      _mm256_srli_epi64 (t, 32));
  __m256i q, neg;

  pe = _mm256_srli_epi64 (_mm256_add_epi64 (pe, round), 15);
  po = _mm256_srli_epi64 (_mm256_add_epi64 (po, round), 15);
  q = _mm256_blend_epi32 (pe, _mm256_slli_epi64 (po, 32), 0xaa);
  q = _mm256_min_epi32 (q, one);
  neg = _mm256_andnot_si256 (_mm256_cmpeq_epi32 (t, zero),
      _mm256_cmpgt_epi32 (zero, _mm256_xor_si256 (o, t)));
  q = _mm256_andnot_si256 (neg, q);
  return _mm256_blendv_epi8 (q, one, _mm256_cmpeq_epi32 (o, zero));
}

/* The enhancement gain on eight restored values. */
static inline VH_AVX2 __m256i
enhance8 (__m256i rst, __m256i o, __m256i t, __m256i cond, __m256i nearest,
    const VhAdmDecouple * dc, gint int_limit)
{
  __m256i opos = _mm256_cmpgt_epi32 (o, _mm256_setzero_si256 ());
  __m256i res;

  if (_mm256_testz_si256 (cond, cond))
    return rst;
  if (int_limit > 0) {
    /* An integral limit: the double product is exact, so is this. */
    __m256i b = _mm256_mullo_epi32 (rst, _mm256_set1_epi32 (int_limit));
    res = _mm256_blendv_epi8 (_mm256_max_epi32 (b, t), _mm256_min_epi32 (b,
            t), opos);
  } else {
    const __m256d limit = _mm256_set1_pd (dc->gain_limit);
    __m128i tr[2], nr[2];

    for (gint h = 0; h < 2; h++) {
      __m128i r4 = h ? _mm256_extracti128_si256 (rst, 1) :
          _mm256_castsi256_si128 (rst);
      __m128i t4 = h ? _mm256_extracti128_si256 (t, 1) :
          _mm256_castsi256_si128 (t);
      __m128i p4 = h ? _mm256_extracti128_si256 (opos, 1) :
          _mm256_castsi256_si128 (opos);
      __m256d b = _mm256_mul_pd (_mm256_cvtepi32_pd (r4), limit);
      __m256d td = _mm256_cvtepi32_pd (t4);
      __m256d sel = _mm256_blendv_pd (_mm256_max_pd (b, td), _mm256_min_pd (b,
              td), _mm256_castsi256_pd (_mm256_cvtepi32_epi64 (p4)));

      tr[h] = _mm256_cvttpd_epi32 (sel);
      nr[h] = _mm256_cvtpd_epi32 (sel);
    }
    res = _mm256_blendv_epi8 (_mm256_set_m128i (tr[1], tr[0]),
        _mm256_set_m128i (nr[1], nr[0]), nearest);
  }
  return _mm256_blendv_epi8 (rst, res, cond);
}

static VH_AVX2 void
decouple0_row_avx2 (const VhAdmScale * sc, const VhAdmDecouple * dc,
    const gint16 * const ref[3], const gint16 * const dis[3],
    const VhAdmRows * out, gint x0, gint x1)
{
  const __m256i iota = _mm256_setr_epi32 (0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i zero = _mm256_setzero_si256 ();
  const __m256d cos1_sq = _mm256_set1_pd (dc->cos1_sq);
  const gint int_limit = dc->gain_limit == floor (dc->gain_limit) &&
      dc->gain_limit <= 100.0 ? (gint) dc->gain_limit : 0;
  gint j = x0;

  for (; j + 8 <= x1; j += 8) {
    __m256i col = _mm256_add_epi32 (_mm256_set1_epi32 (j), iota);
    __m256i nearest = _mm256_and_si256 (_mm256_cmpgt_epi32 (col,
            _mm256_set1_epi32 (sc->round_x0 - 1)),
        _mm256_cmpgt_epi32 (_mm256_set1_epi32 (sc->round_x1), col));
    __m256i wide = _mm256_and_si256 (_mm256_cmpgt_epi32 (col,
            _mm256_set1_epi32 (sc->wide_x0 - 1)),
        _mm256_cmpgt_epi32 (_mm256_set1_epi32 (sc->wide_x1), col));
    __m256i o[3], t[3], angle;
    __m256i fr = zero, kr = zero, fa = zero, ka = zero;

    for (gint b = 0; b < 3; b++) {
      o[b] = load16 (ref[b] + j);
      t[b] = load16 (dis[b] + j);
    }
    angle = angle8 (o[0], o[1], t[0], t[1], cos1_sq);

    for (gint b = 0; b < 3; b++) {
      const __m256i gain = _mm256_set1_epi32 (sc->gain16[b]);
      const __m256i add = _mm256_set1_epi32 (sc->csf_add16[b]);
      const __m128i shift = _mm_cvtsi32_si128 (sc->csf_shift16[b]);
      __m256i k = ratio8 (dc->div_lut, o[b], t[b]);
      __m256i rst = _mm256_srai_epi32 (_mm256_add_epi32 (_mm256_mullo_epi32
              (k, o[b]), _mm256_set1_epi32 (16384)), 15);
      __m256i cond = _mm256_and_si256 (angle,
          _mm256_andnot_si256 (_mm256_cmpeq_epi32 (o[b], zero),
              _mm256_cmpgt_epi32 (k, zero)));
      __m256i r = wrap16 (enhance8 (rst, o[b], t[b], cond, nearest, dc,
              int_limit));
      __m256i a = wrap16 (_mm256_sub_epi32 (t[b], r));
      __m256i part[2] = { r, a };
      __m256i *f_acc[2] = { &fr, &fa }, *k_acc[2] = { &kr, &ka };
      gint32 *x_out[2] = { out->xr[b], out->xa[b] };

      for (gint p = 0; p < 2; p++) {
        __m256i gv = _mm256_mullo_epi32 (gain, part[p]);
        __m256i c32 = _mm256_sra_epi32 (_mm256_add_epi32 (gv, add), shift);
        __m256i c16 = wrap16 (c32);
        __m256i fin = _mm256_abs_epi32 (_mm256_blendv_epi8 (c16, c32,
                nearest));
        __m256i f = wrap16 (_mm256_srai_epi32 (_mm256_add_epi32
                (_mm256_mullo_epi32 (fin, _mm256_set1_epi32 (4369)),
                    _mm256_set1_epi32 (2048)), 12));
        __m256i c = _mm256_srai_epi32 (_mm256_add_epi32 (_mm256_mullo_epi32
                (_mm256_abs_epi32 (c16), _mm256_set1_epi32 (8738)),
                _mm256_set1_epi32 (2048)), 12);

        c = _mm256_blendv_epi8 (wrap16 (c), c, wide);
        *f_acc[p] = _mm256_add_epi32 (*f_acc[p], f);
        *k_acc[p] = _mm256_add_epi32 (*k_acc[p], _mm256_sub_epi32 (c, f));
        _mm256_storeu_si256 ((__m256i *) (x_out[p] + j), _mm256_abs_epi32 (gv));
      }
    }
    _mm256_storeu_si256 ((__m256i *) (out->fr + j), fr);
    _mm256_storeu_si256 ((__m256i *) (out->kr + j), kr);
    _mm256_storeu_si256 ((__m256i *) (out->fa + j), fa);
    _mm256_storeu_si256 ((__m256i *) (out->ka + j), ka);
  }
  body_decouple0_row (sc, dc, ref, dis, out, j, x1);
}

/* ------------------------------------------------------------------ */
/* Scales 1-3: the portable bodies, compiled for AVX2                  */

static VH_AVX2 void
dwt_vert_s123_avx2 (const gint32 * r0, const gint32 * r1, const gint32 * r2,
    const gint32 * r3, gint32 * lo, gint32 * hi, gint w, gint64 add,
    gint shift, gboolean narrow)
{
  body_dwt_vert_s123 (r0, r1, r2, r3, lo, hi, w, add, shift, narrow);
}

static VH_AVX2 void
dwt_horz_s123_avx2 (const gint32 * src, gint32 * lo, gint32 * hi, gint wi,
    gint64 add, gint shift)
{
  body_dwt_horz_s123 (src, lo, hi, wi, add, shift);
}

static VH_AVX2 guint64
den_row_s123_avx2 (const VhAdmScale * sc, const gint32 * b, gint x0, gint x1)
{
  return body_den_row_s123 (sc, b, x0, x1);
}

static VH_AVX2 void
decouple_s123_row_avx2 (const VhAdmScale * sc, const VhAdmDecouple * dc,
    const gint32 * const ref[3], const gint32 * const dis[3],
    const VhAdmRows64 * out, gint y, gint x0, gint x1)
{
  body_decouple_s123_row (sc, dc, ref, dis, out, y, x0, x1);
}

static VH_AVX2 gint64
cm_row_s123_avx2 (const VhAdmScale * sc, const gint64 * x,
    const gint64 * thr, gint y, gint x0, gint x1)
{
  return body_cm_row_s123 (sc, x, thr, y, x0, x1);
}

gboolean
vh_adm_kernels_init_avx2 (VhAdmKernels * k)
{
  if (!__builtin_cpu_supports ("avx2"))
    return FALSE;
  k->dwt0_vert_8 = dwt0_vert_8_avx2;
  k->dwt0_vert_16 = dwt0_vert_16_avx2;
  k->dwt0_horz = dwt0_horz_avx2;
  k->den0_row = den0_row_avx2;
  k->decouple0_row = decouple0_row_avx2;
  k->cm_row = cm_row_avx2;
  k->dwt_vert_s123 = dwt_vert_s123_avx2;
  k->dwt_horz_s123 = dwt_horz_s123_avx2;
  k->den_row_s123 = den_row_s123_avx2;
  k->decouple_s123_row = decouple_s123_row_avx2;
  k->cm_row_s123 = cm_row_s123_avx2;
  return TRUE;
}

#else /* not x86-64 */

gboolean
vh_adm_kernels_init_avx2 (VhAdmKernels * k)
{
  return FALSE;
}

#endif
