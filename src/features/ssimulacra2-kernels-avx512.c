/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* SSIMULACRA 2's AVX-512 kernels: sixteen lanes, the operations of
 * ssimulacra2-kernels-body.h (the row blur's transposes in AVX2 blocks of
 * 8 x 8). GCC only, as the AVX2 ones: its fp-contract attribute keeps
 * every multiply and add apart. */

#include "ssimulacra2-private.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)

#include <immintrin.h>

#define VS2_TARGET __attribute__ ((target \
        ("avx512f,avx512dq,avx512vl,avx512bw,avx2,fma"), \
        optimize ("fp-contract=off")))
#define VS2_LANES 16

typedef __m512 VF;
typedef __m512d VD;

static inline VS2_TARGET VF
vf_load (const gfloat * p)
{
  return _mm512_loadu_ps (p);
}

static inline VS2_TARGET void
vf_store (gfloat * p, VF v)
{
  _mm512_storeu_ps (p, v);
}

static inline VS2_TARGET VF
vf_set1 (gfloat v)
{
  return _mm512_set1_ps (v);
}

static inline VS2_TARGET VF
vf_zero (void)
{
  return _mm512_setzero_ps ();
}

static inline VS2_TARGET VF
vf_add (VF a, VF b)
{
  return _mm512_add_ps (a, b);
}

static inline VS2_TARGET VF
vf_sub (VF a, VF b)
{
  return _mm512_sub_ps (a, b);
}

static inline VS2_TARGET VF
vf_mul (VF a, VF b)
{
  return _mm512_mul_ps (a, b);
}

static inline VS2_TARGET VF
vf_div (VF a, VF b)
{
  return _mm512_div_ps (a, b);
}

/* a b + c, rounded once */
static inline VS2_TARGET VF
vf_fma (VF a, VF b, VF c)
{
  return _mm512_fmadd_ps (a, b, c);
}

static inline VS2_TARGET VF
vf_neg (VF a)
{
  return _mm512_xor_ps (a, _mm512_set1_ps (-0.0f));
}

static inline VS2_TARGET VF
vf_abs (VF a)
{
  return _mm512_andnot_ps (_mm512_set1_ps (-0.0f), a);
}

/* a < 0 ? 0 : a (-0 and NaN kept, as the scalar test keeps them) */
static inline VS2_TARGET VF
vf_zero_if_negative (VF a)
{
  return _mm512_mask_mov_ps (a, _mm512_cmp_ps_mask (a, _mm512_setzero_ps (),
          _CMP_LT_OQ), _mm512_setzero_ps ());
}

/* ssimu2_cbrt_add()'s first guess: 0 for the bits 0, else 0x54800000 -
 * (bits >> 23) * 0x2AAAAA, modulo 2^32. */
static inline VS2_TARGET VF
vf_cbrt_guess (VF x)
{
  const __m512i bits = _mm512_castps_si512 (x);
  const __m512i guess = _mm512_sub_epi32 (_mm512_set1_epi32 (0x54800000),
      _mm512_mullo_epi32 (_mm512_srai_epi32 (bits, 23),
          _mm512_set1_epi32 (0x002AAAAA)));
  const __mmask16 nonzero = _mm512_test_epi32_mask (bits, bits);

  return _mm512_castsi512_ps (_mm512_maskz_mov_epi32 (nonzero, guess));
}

/* Lanes [8 @half, 8 @half + 8) of @a in double. */
static inline VS2_TARGET VD
vf_half_to_vd (VF a, guint half)
{
  return _mm512_cvtps_pd (half ? _mm512_extractf32x8_ps (a, 1) :
      _mm512_castps512_ps256 (a));
}

static inline VS2_TARGET VD
vd_load (const gdouble * p)
{
  return _mm512_loadu_pd (p);
}

static inline VS2_TARGET void
vd_store (gdouble * p, VD v)
{
  _mm512_storeu_pd (p, v);
}

static inline VS2_TARGET VD
vd_set1 (gdouble v)
{
  return _mm512_set1_pd (v);
}

static inline VS2_TARGET VD
vd_add (VD a, VD b)
{
  return _mm512_add_pd (a, b);
}

static inline VS2_TARGET VD
vd_sub (VD a, VD b)
{
  return _mm512_sub_pd (a, b);
}

static inline VS2_TARGET VD
vd_mul (VD a, VD b)
{
  return _mm512_mul_pd (a, b);
}

static inline VS2_TARGET VD
vd_div (VD a, VD b)
{
  return _mm512_div_pd (a, b);
}

/* a > 0 ? a : 0 */
static inline VS2_TARGET VD
vd_positive_part (VD a)
{
  return _mm512_maskz_mov_pd (_mm512_cmp_pd_mask (a, _mm512_setzero_pd (),
          _CMP_GT_OQ), a);
}

/* a < 0 ? -a : 0 */
static inline VS2_TARGET VD
vd_negative_part (VD a)
{
  return _mm512_maskz_mov_pd (_mm512_cmp_pd_mask (a, _mm512_setzero_pd (),
          _CMP_LT_OQ), _mm512_xor_pd (a, _mm512_set1_pd (-0.0)));
}

#include "ssimulacra2-kernels-body.h"

static const VhSsimu2Kernels kernels_avx512 = {
  .downsample = vs2_downsample,
  .xyb = vs2_xyb,
  .blur = vs2_blur,
  .sums = vs2_sums,
  .channel = vs2_channel,
  .rgb16_row = vh_ssimu2_rgb16_row_avx2,
};

const VhSsimu2Kernels *
vh_ssimu2_kernels_avx512 (void)
{
  return __builtin_cpu_supports ("avx512f") &&
      __builtin_cpu_supports ("avx512dq") &&
      __builtin_cpu_supports ("avx512vl") &&
      __builtin_cpu_supports ("avx512bw") &&
      __builtin_cpu_supports ("fma") ? &kernels_avx512 : NULL;
}

#else

const VhSsimu2Kernels *
vh_ssimu2_kernels_avx512 (void)
{
  return NULL;
}

#endif
