/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* AVX-512 row kernels of integer motion's SAD up to 12 bits: the AVX2
 * scheme on 32 columns (each pair of taps one multiply-add of 16-bit lanes
 * into 32 bits; unpack and pack per 128-bit lane keep the column order).
 * Column tails go to the C row kernels; integer sums make every result
 * identical to theirs. */

#include "integer-motion-private.h"

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))

#include <immintrin.h>

#define VH_AVX512 __attribute__ ((target \
        ("avx512f,avx512cd,avx512bw,avx512dq,avx512vl")))

static inline VH_AVX512 __m512i
load16 (const gint16 * p)
{
  return _mm512_loadu_si512 ((const void *) p);
}

static VH_AVX512 void
diff_row_avx512 (gint16 * d, const guint8 * prev, const guint8 * cur,
    guint w, gboolean deep)
{
  guint j = 0;

  if (deep) {
    const guint16 *p = (const guint16 *) prev;
    const guint16 *c = (const guint16 *) cur;

    for (; j + 32 <= w; j += 32)
      _mm512_storeu_si512 ((void *) (d + j), _mm512_sub_epi16
          (_mm512_loadu_si512 ((const void *) (p + j)),
              _mm512_loadu_si512 ((const void *) (c + j))));
  } else {
    for (; j + 32 <= w; j += 32) {
      __m512i a = _mm512_cvtepu8_epi16 (_mm256_loadu_si256 ((const __m256i *)
              (prev + j)));
      __m512i b = _mm512_cvtepu8_epi16 (_mm256_loadu_si256 ((const __m256i *)
              (cur + j)));

      _mm512_storeu_si512 ((void *) (d + j), _mm512_sub_epi16 (a, b));
    }
  }
  vh_motion_kernels16_c.diff_row (d + j, prev + j * (deep ? 2 : 1),
      cur + j * (deep ? 2 : 1), w - j, deep);
}

static VH_AVX512 gint32
vblur_row_avx512 (gint16 * hi, gint16 * lo, const gint16 * d0,
    const gint16 * d1, const gint16 * d2, const gint16 * d3,
    const gint16 * d4, guint w, guint shift)
{
  const gint32 round = 1 << (shift - 1);
  const __m512i taps01 = _mm512_set1_epi32 (VH_MOTION_PAIR (VH_MOTION_TAP0,
          VH_MOTION_TAP1));
  /* (centre, 1) x (tap2, round) adds the rounding for free. */
  const __m512i taps2r = _mm512_set1_epi32 (VH_MOTION_PAIR (VH_MOTION_TAP2,
          round));
  const __m512i one = _mm512_set1_epi16 (1);
  const __m512i mask = _mm512_set1_epi32 (0xff);
  const __m128i count = _mm_cvtsi32_si128 ((gint) shift);
  __m512i any = _mm512_setzero_si512 ();
  guint j = 0;

  for (; j + 32 <= w; j += 32) {
    __m512i s04 = _mm512_add_epi16 (load16 (d0 + j), load16 (d4 + j));
    __m512i s13 = _mm512_add_epi16 (load16 (d1 + j), load16 (d3 + j));
    __m512i c = load16 (d2 + j);
    __m512i ya = _mm512_sra_epi32 (_mm512_add_epi32 (_mm512_madd_epi16
            (_mm512_unpacklo_epi16 (s04, s13), taps01),
            _mm512_madd_epi16 (_mm512_unpacklo_epi16 (c, one), taps2r)),
        count);
    __m512i yb = _mm512_sra_epi32 (_mm512_add_epi32 (_mm512_madd_epi16
            (_mm512_unpackhi_epi16 (s04, s13), taps01),
            _mm512_madd_epi16 (_mm512_unpackhi_epi16 (c, one), taps2r)),
        count);

    any = _mm512_or_si512 (any, _mm512_or_si512 (ya, yb));
    _mm512_storeu_si512 ((void *) (hi + j), _mm512_packs_epi32
        (_mm512_srai_epi32 (ya, 8), _mm512_srai_epi32 (yb, 8)));
    _mm512_storeu_si512 ((void *) (lo + j), _mm512_packs_epi32
        (_mm512_and_si512 (ya, mask), _mm512_and_si512 (yb, mask)));
  }
  return vh_motion_kernels16_c.vblur_row (hi + j, lo + j, d0 + j, d1 + j,
      d2 + j, d3 + j, d4 + j, w - j, shift) |
      (_mm512_test_epi32_mask (any, any) != 0);
}

static VH_AVX512 guint32
hblur_row_sad_avx512 (const gint16 * hi, const gint16 * lo, guint w)
{
  const __m512i taps01 = _mm512_set1_epi32 (VH_MOTION_PAIR (VH_MOTION_TAP0,
          VH_MOTION_TAP1));
  const __m512i taps2 = _mm512_set1_epi32 (VH_MOTION_PAIR (VH_MOTION_TAP2,
          0));
  /* (centre, 2) x (tap2, 2^14) adds the 2^15 rounding of the low part. */
  const __m512i taps2r = _mm512_set1_epi32 (VH_MOTION_PAIR (VH_MOTION_TAP2,
          1 << 14));
  const __m512i two = _mm512_set1_epi16 (2);
  __m512i sum = _mm512_setzero_si512 ();
  guint j = 0;

  for (; j + 32 <= w; j += 32) {
    const gint16 *h = hi + j, *l = lo + j;
    __m512i h04 = _mm512_add_epi16 (load16 (h), load16 (h + 4));
    __m512i h13 = _mm512_add_epi16 (load16 (h + 1), load16 (h + 3));
    __m512i hc = load16 (h + 2);
    __m512i l04 = _mm512_add_epi16 (load16 (l), load16 (l + 4));
    __m512i l13 = _mm512_add_epi16 (load16 (l + 1), load16 (l + 3));
    __m512i lc = load16 (l + 2);
    __m512i a0 = _mm512_add_epi32 (_mm512_madd_epi16 (_mm512_unpacklo_epi16
            (h04, h13), taps01), _mm512_madd_epi16 (_mm512_unpacklo_epi16
            (hc, two), taps2));
    __m512i a1 = _mm512_add_epi32 (_mm512_madd_epi16 (_mm512_unpackhi_epi16
            (h04, h13), taps01), _mm512_madd_epi16 (_mm512_unpackhi_epi16
            (hc, two), taps2));
    __m512i b0 = _mm512_add_epi32 (_mm512_madd_epi16 (_mm512_unpacklo_epi16
            (l04, l13), taps01), _mm512_madd_epi16 (_mm512_unpacklo_epi16
            (lc, two), taps2r));
    __m512i b1 = _mm512_add_epi32 (_mm512_madd_epi16 (_mm512_unpackhi_epi16
            (l04, l13), taps01), _mm512_madd_epi16 (_mm512_unpackhi_epi16
            (lc, two), taps2r));
    __m512i v0 = _mm512_srai_epi32 (_mm512_add_epi32 (a0,
            _mm512_srai_epi32 (b0, 8)), 8);
    __m512i v1 = _mm512_srai_epi32 (_mm512_add_epi32 (a1,
            _mm512_srai_epi32 (b1, 8)), 8);

    sum = _mm512_add_epi32 (sum, _mm512_add_epi32 (_mm512_abs_epi32 (v0),
            _mm512_abs_epi32 (v1)));
  }
  /* The row total wraps at 32 bits whatever the order of the adds. */
  return vh_motion_kernels16_c.hblur_row_sad (hi + j, lo + j, w - j) +
      (guint32) _mm512_reduce_add_epi32 (sum);
}

static const VhMotionKernels16 kernels16_avx512 = {
  .diff_row = diff_row_avx512,
  .vblur_row = vblur_row_avx512,
  .hblur_row_sad = hblur_row_sad_avx512,
};

const VhMotionKernels16 *
vh_motion_kernels16_avx512 (void)
{
  if (!__builtin_cpu_supports ("avx512f") ||
      !__builtin_cpu_supports ("avx512cd") ||
      !__builtin_cpu_supports ("avx512bw") ||
      !__builtin_cpu_supports ("avx512dq") ||
      !__builtin_cpu_supports ("avx512vl"))
    return NULL;
  return &kernels16_avx512;
}

#else

const VhMotionKernels16 *
vh_motion_kernels16_avx512 (void)
{
  return NULL;
}

#endif
