/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The covariance sums of SpEED in the three summation orders libvmaf 3.2
 * picks from (plain C, AVX2, AVX-512). The sums are taken in double
 * precision and rounded to float afterwards, so the order rarely shows;
 * taking the one libvmaf takes on the same CPU keeps even those rare
 * roundings alike. */

#include "speed-private.h"
#include "simd.h"

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

gdouble
vh_speed_cov_scalar (const gfloat * x, const gfloat * y, gsize stride,
    gsize h, gsize w, gdouble mean_x, gdouble mean_y)
{
  gdouble sum = 0;

  for (gsize i = 0; i < h; i++) {
    const gfloat *rx = x + i * stride, *ry = y + i * stride;

    for (gsize j = 0; j < w; j++) {
      const gdouble vx = rx[j], vy = ry[j];

      sum += (vx - mean_x) * (vy - mean_y);
    }
  }
  return sum;
}

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>

/* Two 4-lane fused accumulators over 8 columns, then one over 4, the
 * rest in a plain running sum. */
__attribute__ ((target ("avx2,fma")))
static gdouble
cov_avx2 (const gfloat * x, const gfloat * y, gsize stride, gsize h, gsize w,
    gdouble mean_x, gdouble mean_y)
{
  __m256d acc0 = _mm256_setzero_pd (), acc1 = _mm256_setzero_pd ();
  const __m256d mx = _mm256_set1_pd (mean_x), my = _mm256_set1_pd (mean_y);
  gdouble tail = 0.0, lanes[4];

  for (gsize i = 0; i < h; i++) {
    const gfloat *rx = x + i * stride, *ry = y + i * stride;
    gsize j = 0;

    for (; j + 8 <= w; j += 8) {
      __m256d cx0 = _mm256_sub_pd (_mm256_cvtps_pd (_mm_loadu_ps (rx + j)),
          mx);
      __m256d cx1 =
          _mm256_sub_pd (_mm256_cvtps_pd (_mm_loadu_ps (rx + j + 4)), mx);
      __m256d cy0 = _mm256_sub_pd (_mm256_cvtps_pd (_mm_loadu_ps (ry + j)),
          my);
      __m256d cy1 =
          _mm256_sub_pd (_mm256_cvtps_pd (_mm_loadu_ps (ry + j + 4)), my);
      acc0 = _mm256_fmadd_pd (cx0, cy0, acc0);
      acc1 = _mm256_fmadd_pd (cx1, cy1, acc1);
    }
    for (; j + 4 <= w; j += 4) {
      __m256d cx = _mm256_sub_pd (_mm256_cvtps_pd (_mm_loadu_ps (rx + j)),
          mx);
      __m256d cy = _mm256_sub_pd (_mm256_cvtps_pd (_mm_loadu_ps (ry + j)),
          my);
      acc0 = _mm256_fmadd_pd (cx, cy, acc0);
    }
    for (; j < w; j++) {
      const gdouble vx = rx[j], vy = ry[j];

      tail += (vx - mean_x) * (vy - mean_y);
    }
  }
  _mm256_storeu_pd (lanes, _mm256_add_pd (acc0, acc1));
  return lanes[0] + lanes[1] + lanes[2] + lanes[3] + tail;
}

/* Two 8-lane fused accumulators over 16 columns, then one over 8; the
 * lanes are folded 8 -> 4 -> 2 -> 1. */
__attribute__ ((target ("avx512f")))
static gdouble
cov_avx512 (const gfloat * x, const gfloat * y, gsize stride, gsize h,
    gsize w, gdouble mean_x, gdouble mean_y)
{
  __m512d acc0 = _mm512_setzero_pd (), acc1 = _mm512_setzero_pd ();
  const __m512d mx = _mm512_set1_pd (mean_x), my = _mm512_set1_pd (mean_y);
  gdouble tail = 0.0, l[8], f4[4];

  for (gsize i = 0; i < h; i++) {
    const gfloat *rx = x + i * stride, *ry = y + i * stride;
    gsize j = 0;

    for (; j + 16 <= w; j += 16) {
      __m512d cx0 = _mm512_sub_pd (_mm512_cvtps_pd (_mm256_loadu_ps (rx + j)),
          mx);
      __m512d cx1 =
          _mm512_sub_pd (_mm512_cvtps_pd (_mm256_loadu_ps (rx + j + 8)), mx);
      __m512d cy0 = _mm512_sub_pd (_mm512_cvtps_pd (_mm256_loadu_ps (ry + j)),
          my);
      __m512d cy1 =
          _mm512_sub_pd (_mm512_cvtps_pd (_mm256_loadu_ps (ry + j + 8)), my);
      acc0 = _mm512_fmadd_pd (cx0, cy0, acc0);
      acc1 = _mm512_fmadd_pd (cx1, cy1, acc1);
    }
    for (; j + 8 <= w; j += 8) {
      __m512d cx = _mm512_sub_pd (_mm512_cvtps_pd (_mm256_loadu_ps (rx + j)),
          mx);
      __m512d cy = _mm512_sub_pd (_mm512_cvtps_pd (_mm256_loadu_ps (ry + j)),
          my);
      acc0 = _mm512_fmadd_pd (cx, cy, acc0);
    }
    for (; j < w; j++) {
      const gdouble vx = rx[j], vy = ry[j];

      tail += (vx - mean_x) * (vy - mean_y);
    }
  }
  _mm512_storeu_pd (l, _mm512_add_pd (acc0, acc1));
  for (guint k = 0; k < 4; k++)
    f4[k] = l[k + 4] + l[k];
  return ((f4[2] + f4[0]) + (f4[3] + f4[1])) + tail;
}
#endif

VhSpeedCovOrder
vh_speed_cov_order (guint cpu_mask)
{
#if defined(__GNUC__) && defined(__x86_64__)
  if (vh_simd_use_avx512 (cpu_mask))
    return VH_SPEED_COV_AVX512;
  if (vh_simd_use_avx2 (cpu_mask) && __builtin_cpu_supports ("fma"))
    return VH_SPEED_COV_AVX2;
#endif
  return VH_SPEED_COV_SCALAR;
}

VhSpeedCovFn
vh_speed_cov_kernel (guint cpu_mask)
{
  switch (vh_speed_cov_order (cpu_mask)) {
#if defined(__GNUC__) && defined(__x86_64__)
    case VH_SPEED_COV_AVX512:
      return cov_avx512;
    case VH_SPEED_COV_AVX2:
      return cov_avx2;
#endif
    default:
      return vh_speed_cov_scalar;
  }
}
