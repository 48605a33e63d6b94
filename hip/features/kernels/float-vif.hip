/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* float_vif: the four scales' single-precision sums in the order of
 * src/features/float-vif-kernels.c, so that the twin equals the CPU one
 * bit for bit.
 *
 *  - vh_fvif_load: the luma as floats (sample / 2^(bpc - 8) - 128, both
 *    steps exact).
 *  - vh_fvif_vpass / vh_fvif_hpass_even: the next scale, the plane filtered
 *    with this scale's Gaussian, rows then columns, each sum 0 + f[0] x[0]
 *    + f[1] x[1] ..., edges mirrored; only even rows and columns are made.
 *  - vh_fvif_moments: the vertical pass of the five local moments (mu1,
 *    mu2, xx, yy, xy) per sample; vh_fvif_stats the horizontal pass of each
 *    and the per-sample numerator and denominator terms with libvmaf's
 *    polynomial log2 (double where its C is double), written column-major
 *    (x * h + y) so that the next step reads them coalesced.
 *  - vh_fvif_rows, one thread per row: each row's sums left to right;
 *    vh_fvif_total, one thread: the rows top to bottom.
 *
 * No contraction into fused multiply-adds: the C rounds each product and
 * each sum. */

#if defined(__HIP__) && !defined(__HIPCC_RTC__) && !defined(VH_HIP_RTC)
#include <hip/hip_runtime.h>
#endif

#if defined(__CUDACC__)
#define FMUL(a, b) __fmul_rn ((a), (b))
#define FADD(a, b) __fadd_rn ((a), (b))
#define FSUB(a, b) __fadd_rn ((a), -(b))
#define DADD(a, b) __dadd_rn ((a), (b))
#define DDIV(a, b) __ddiv_rn ((a), (b))
#else
#pragma clang fp contract(off)
#define FMUL(a, b) ((a) * (b))
#define FADD(a, b) ((a) + (b))
#define FSUB(a, b) ((a) - (b))
#define DADD(a, b) ((a) + (b))
#define DDIV(a, b) ((a) / (b))
#endif

typedef unsigned long long vh_u64;

/* Must match the layout in hip-float-vif.c. */
struct vh_fvif_scale_args
{
  const float *ref;
  const float *dis;
  vh_u64 stride;                /* floats */
  unsigned int width;
  unsigned int height;
  const float *f;               /* the scale's Gaussian */
  unsigned int fw;
  unsigned int pad;
  float *mu1, *mu2, *xx, *yy, *xy;      /* width * height, row-major */
  float *num, *den;             /* width * height, column-major */
  float *row_num, *row_den;     /* height */
  double sigma_nsq;
  float gain_limit;
  float sigma_max_inv;
};

static __device__ __forceinline__ int
fvif_mirror (int i, int n)
{
  if (i < 0)
    return -i;
  if (i >= n)
    return 2 * n - i - 2;
  return i;
}

template < typename T >
static __device__ void
fvif_load (const unsigned char *src, vh_u64 pitch, unsigned int step,
    unsigned int w, unsigned int h, float inv_scale, float *dst)
{
  const unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;

  if (x >= w || y >= h)
    return;
  const T v = ((const T *) (src + (vh_u64) y * pitch))[(vh_u64) x * step];
  dst[(vh_u64) y * w + x] = FADD (FMUL ((float) v, inv_scale), -128.0f);
}

extern "C" __global__ void
vh_fvif_load_u8 (const unsigned char *src, vh_u64 pitch, unsigned int step,
    unsigned int w, unsigned int h, float inv_scale, float *dst)
{
  fvif_load < unsigned char >(src, pitch, step, w, h, inv_scale, dst);
}

extern "C" __global__ void
vh_fvif_load_u16 (const unsigned char *src, vh_u64 pitch, unsigned int step,
    unsigned int w, unsigned int h, float inv_scale, float *dst)
{
  fvif_load < unsigned short >(src, pitch, step, w, h, inv_scale, dst);
}

/* Vertical pass at even rows: @dst (w x h / 2, rows @w apart) from @src
 * (w x h, rows @w apart). */
extern "C" __global__ void
vh_fvif_vpass (const float *src, unsigned int w, unsigned int h,
    const float *f, unsigned int fw, float *dst)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int r = fw / 2;
  float acc = 0.0f;

  if (x >= (int) w || y >= (int) (h / 2))
    return;
  for (int k = 0; k < (int) fw; k++)
    acc = FADD (acc, FMUL (f[k],
            src[(vh_u64) fvif_mirror (2 * y + k - r, h) * w + x]));
  dst[(vh_u64) y * w + x] = acc;
}

/* Horizontal pass at even columns: @dst (w / 2 x @n_rows, rows w / 2
 * apart) from @src (w x @n_rows, rows @w apart). */
extern "C" __global__ void
vh_fvif_hpass_even (const float *src, unsigned int w, unsigned int n_rows,
    const float *f, unsigned int fw, float *dst)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int r = fw / 2;
  const float *row = src + (vh_u64) y * w;
  float acc = 0.0f;

  if (x >= (int) (w / 2) || y >= (int) n_rows)
    return;
  for (int k = 0; k < (int) fw; k++)
    acc = FADD (acc, FMUL (f[k], row[fvif_mirror (2 * x + k - r, w)]));
  dst[(vh_u64) y * (w / 2) + x] = acc;
}

extern "C" __global__ void
vh_fvif_moments (struct vh_fvif_scale_args a)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int w = a.width, h = a.height, r = a.fw / 2;
  float s1 = 0.0f, s2 = 0.0f, s11 = 0.0f, s22 = 0.0f, s12 = 0.0f;
  vh_u64 o;

  if (x >= w || y >= h)
    return;
  for (int k = 0; k < (int) a.fw; k++) {
    const vh_u64 off = (vh_u64) fvif_mirror (y + k - r, h) * a.stride + x;
    const float c = a.f[k], u = a.ref[off], v = a.dis[off];

    s1 = FADD (s1, FMUL (c, u));
    s2 = FADD (s2, FMUL (c, v));
    s11 = FADD (s11, FMUL (c, FMUL (u, u)));
    s22 = FADD (s22, FMUL (c, FMUL (v, v)));
    s12 = FADD (s12, FMUL (c, FMUL (u, v)));
  }
  o = (vh_u64) y * w + x;
  a.mu1[o] = s1;
  a.mu2[o] = s2;
  a.xx[o] = s11;
  a.yy[o] = s22;
  a.xy[o] = s12;
}

/* libvmaf's log2: exponent plus a degree-8 polynomial of the mantissa. */
__constant__ float vh_fvif_log2_poly[9] = {
  (float) -0.012671635276421, (float) 0.064841182402670,
  (float) -0.157048836463065, (float) 0.257167726303123,
  (float) -0.353800560300520, (float) 0.480131410397451,
  (float) -0.721314327952201, (float) 1.442694803896991, 0.0f
};

static __device__ __forceinline__ float
fvif_log2 (float x)
{
  const unsigned int u = __float_as_uint (x);
  const int e = (int) ((u & 0x7f800000u) >> 23) - 127;
  const float mant = __uint_as_float ((u & 0x007fffffu) | 0x3f800000u);
  const float t = FSUB (mant, 1.0f);
  float p = 0.0f;

  for (int i = 0; i < 9; i++)
    p = FADD (FMUL (p, t), vh_fvif_log2_poly[i]);
  p = FADD ((float) e, p);
  return x == 0.0f ? -__int_as_float (0x7f800000) :
      (x < 0.0f ? __int_as_float (0x7fc00000) : p);
}

static __device__ __forceinline__ float
fvif_hsum (const float *row, const float *f, int fw, int x, int w)
{
  const int r = fw / 2;
  float acc = 0.0f;

  for (int k = 0; k < fw; k++)
    acc = FADD (acc, FMUL (f[k], row[fvif_mirror (x + k - r, w)]));
  return acc;
}

extern "C" __global__ void
vh_fvif_stats (struct vh_fvif_scale_args a)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int w = a.width, h = a.height, fw = a.fw;
  const float eps = 1.0e-10f;
  const double nsq = a.sigma_nsq;
  float m1, m2, s1, s2, s12, g, sv, vn, vd;
  vh_u64 row;

  if (x >= w || y >= h)
    return;
  row = (vh_u64) y * w;
  m1 = fvif_hsum (a.mu1 + row, a.f, fw, x, w);
  m2 = fvif_hsum (a.mu2 + row, a.f, fw, x, w);
  s1 = FSUB (fvif_hsum (a.xx + row, a.f, fw, x, w), FMUL (m1, m1));
  s2 = FSUB (fvif_hsum (a.yy + row, a.f, fw, x, w), FMUL (m2, m2));
  s12 = FSUB (fvif_hsum (a.xy + row, a.f, fw, x, w), FMUL (m1, m2));

  s1 = s1 > 0.0f ? s1 : 0.0f;
  s2 = s2 > 0.0f ? s2 : 0.0f;
  g = s12 / FADD (s1, eps);
  sv = FSUB (s2, FMUL (g, s12));
  if (s1 < eps) {
    g = 0.0f;
    sv = s2;
    s1 = 0.0f;
  }
  if (s2 < eps) {
    g = 0.0f;
    sv = 0.0f;
  }
  if (g < 0.0f) {
    sv = s2;
    g = 0.0f;
  }
  sv = sv > eps ? sv : eps;
  g = g < a.gain_limit ? g : a.gain_limit;

  /* The noise variance is a double, so these ratios are too. */
  vn = fvif_log2 ((float) DADD (1.0, DDIV ((double) FMUL (FMUL (g, g), s1),
              DADD ((double) sv, nsq))));
  vd = fvif_log2 ((float) DADD (1.0, DDIV ((double) s1, nsq)));
  if (s12 < 0.0f)
    vn = 0.0f;
  if ((double) s1 < nsq) {
    vn = FSUB (1.0f, FMUL (s2, a.sigma_max_inv));
    vd = 1.0f;
  }
  a.num[(vh_u64) x * h + y] = vn;
  a.den[(vh_u64) x * h + y] = vd;
}

extern "C" __global__ void
vh_fvif_rows (struct vh_fvif_scale_args a)
{
  const unsigned int y = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int h = a.height;
  float n = 0.0f, d = 0.0f;

  if (y >= h)
    return;
  for (unsigned int x = 0; x < a.width; x++) {
    n = FADD (n, a.num[(vh_u64) x * h + y]);
    d = FADD (d, a.den[(vh_u64) x * h + y]);
  }
  a.row_num[y] = n;
  a.row_den[y] = d;
}

/* One block of one thread; @out: the scale's numerator then
 * denominator. */
extern "C" __global__ void
vh_fvif_total (struct vh_fvif_scale_args a, float *out)
{
  float n = 0.0f, d = 0.0f;

  if (threadIdx.x != 0)
    return;
  for (unsigned int y = 0; y < a.height; y++) {
    n = FADD (n, a.row_num[y]);
    d = FADD (d, a.row_den[y]);
  }
  out[0] = n;
  out[1] = d;
}
