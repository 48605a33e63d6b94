/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* SSIMULACRA 2's AVX2 kernels (with FMA, which the portable code's fmaf
 * is): eight lanes, the operations of ssimulacra2-kernels-body.h. GCC
 * only, as the portable build's FMA was: its fp-contract attribute keeps
 * every multiply and add apart. */

#include "ssimulacra2-private.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)

#include <immintrin.h>

#define VS2_TARGET \
  __attribute__ ((target ("avx2,fma"), optimize ("fp-contract=off")))
#define VS2_LANES 8

typedef __m256 VF;
typedef __m256d VD;

static inline VS2_TARGET VF
vf_load (const gfloat * p)
{
  return _mm256_loadu_ps (p);
}

static inline VS2_TARGET void
vf_store (gfloat * p, VF v)
{
  _mm256_storeu_ps (p, v);
}

static inline VS2_TARGET VF
vf_set1 (gfloat v)
{
  return _mm256_set1_ps (v);
}

static inline VS2_TARGET VF
vf_zero (void)
{
  return _mm256_setzero_ps ();
}

static inline VS2_TARGET VF
vf_add (VF a, VF b)
{
  return _mm256_add_ps (a, b);
}

static inline VS2_TARGET VF
vf_sub (VF a, VF b)
{
  return _mm256_sub_ps (a, b);
}

static inline VS2_TARGET VF
vf_mul (VF a, VF b)
{
  return _mm256_mul_ps (a, b);
}

static inline VS2_TARGET VF
vf_div (VF a, VF b)
{
  return _mm256_div_ps (a, b);
}

/* a b + c, rounded once */
static inline VS2_TARGET VF
vf_fma (VF a, VF b, VF c)
{
  return _mm256_fmadd_ps (a, b, c);
}

static inline VS2_TARGET VF
vf_neg (VF a)
{
  return _mm256_xor_ps (a, _mm256_set1_ps (-0.0f));
}

static inline VS2_TARGET VF
vf_abs (VF a)
{
  return _mm256_andnot_ps (_mm256_set1_ps (-0.0f), a);
}

/* a < 0 ? 0 : a (-0 and NaN kept, as the scalar test keeps them) */
static inline VS2_TARGET VF
vf_zero_if_negative (VF a)
{
  return _mm256_andnot_ps (_mm256_cmp_ps (a, _mm256_setzero_ps (),
          _CMP_LT_OQ), a);
}

/* ssimu2_cbrt_add()'s first guess: 0 for the bits 0, else 0x54800000 -
 * (bits >> 23) * 0x2AAAAA, modulo 2^32. */
static inline VS2_TARGET VF
vf_cbrt_guess (VF x)
{
  const __m256i bits = _mm256_castps_si256 (x);
  const __m256i guess = _mm256_sub_epi32 (_mm256_set1_epi32 (0x54800000),
      _mm256_mullo_epi32 (_mm256_srai_epi32 (bits, 23),
          _mm256_set1_epi32 (0x002AAAAA)));
  const __m256i is_zero = _mm256_cmpeq_epi32 (bits, _mm256_setzero_si256 ());

  return _mm256_castsi256_ps (_mm256_andnot_si256 (is_zero, guess));
}

/* Lanes [4 @half, 4 @half + 4) of @a in double. */
static inline VS2_TARGET VD
vf_half_to_vd (VF a, guint half)
{
  return _mm256_cvtps_pd (half ? _mm256_extractf128_ps (a, 1) :
      _mm256_castps256_ps128 (a));
}

static inline VS2_TARGET VD
vd_load (const gdouble * p)
{
  return _mm256_loadu_pd (p);
}

static inline VS2_TARGET void
vd_store (gdouble * p, VD v)
{
  _mm256_storeu_pd (p, v);
}

static inline VS2_TARGET VD
vd_set1 (gdouble v)
{
  return _mm256_set1_pd (v);
}

static inline VS2_TARGET VD
vd_add (VD a, VD b)
{
  return _mm256_add_pd (a, b);
}

static inline VS2_TARGET VD
vd_sub (VD a, VD b)
{
  return _mm256_sub_pd (a, b);
}

static inline VS2_TARGET VD
vd_mul (VD a, VD b)
{
  return _mm256_mul_pd (a, b);
}

static inline VS2_TARGET VD
vd_div (VD a, VD b)
{
  return _mm256_div_pd (a, b);
}

/* a > 0 ? a : 0 */
static inline VS2_TARGET VD
vd_positive_part (VD a)
{
  return _mm256_and_pd (_mm256_cmp_pd (a, _mm256_setzero_pd (), _CMP_GT_OQ),
      a);
}

/* a < 0 ? -a : 0 */
static inline VS2_TARGET VD
vd_negative_part (VD a)
{
  return _mm256_and_pd (_mm256_cmp_pd (a, _mm256_setzero_pd (), _CMP_LT_OQ),
      _mm256_xor_pd (a, _mm256_set1_pd (-0.0)));
}

#include "ssimulacra2-kernels-body.h"

static const VhSsimu2Kernels kernels_avx2 = {
  .downsample = vs2_downsample,
  .xyb = vs2_xyb,
  .blur = vs2_blur,
  .sums = vs2_sums,
  .channel = vs2_channel,
  .rgb16_row = vh_ssimu2_rgb16_row_avx2,
};

const VhSsimu2Kernels *
vh_ssimu2_kernels_avx2 (void)
{
  return __builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("fma") ?
      &kernels_avx2 : NULL;
}

#else

const VhSsimu2Kernels *
vh_ssimu2_kernels_avx2 (void)
{
  return NULL;
}

#endif
