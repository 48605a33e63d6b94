/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* float_ansnr: the smoothed luma pictures and their single-precision sums,
 * in libvmaf's order so that the twin equals the CPU one bit for bit.
 *
 *  1. vh_ansnr_filter, one thread per pixel: the reference smoothed with
 *     the 3x3 kernel, the distorted with the 5x5 one (borders mirrored),
 *     each product and sum in the CPU twin's order; writes the squared
 *     smoothed reference and the squared difference, column-major (x * h +
 *     y) so that step 2 reads them coalesced.
 *  2. vh_ansnr_rows, one thread per row: each row's two sums, left to
 *     right, as libvmaf adds them.
 *  3. vh_ansnr_total, one thread: the rows' sums, top to bottom.
 *
 * No contraction into fused multiply-adds: libvmaf's C rounds each product
 * and each sum. */

#if defined(__HIP__) && !defined(__HIPCC_RTC__) && !defined(VH_HIP_RTC)
#include <hip/hip_runtime.h>
#endif

#if defined(__CUDACC__)
#define FMUL(a, b) __fmul_rn ((a), (b))
#define FADD(a, b) __fadd_rn ((a), (b))
#define FSUB(a, b) __fadd_rn ((a), -(b))
#else
#pragma clang fp contract(off)
#define FMUL(a, b) ((a) * (b))
#define FADD(a, b) ((a) + (b))
#define FSUB(a, b) ((a) - (b))
#endif

/* The CPU twin's kernels (src/features/float-ansnr.c), rounded to float
 * the same way. */
__constant__ float vh_ansnr_ref_kernel[3 * 3] = {
  (float) (1.0 / 16), (float) (2.0 / 16), (float) (1.0 / 16),
  (float) (2.0 / 16), (float) (4.0 / 16), (float) (2.0 / 16),
  (float) (1.0 / 16), (float) (2.0 / 16), (float) (1.0 / 16),
};

__constant__ float vh_ansnr_dis_kernel[5 * 5] = {
  (float) (2.0 / 571), (float) (7.0 / 571), (float) (12.0 / 571),
  (float) (7.0 / 571), (float) (2.0 / 571),
  (float) (7.0 / 571), (float) (31.0 / 571), (float) (52.0 / 571),
  (float) (31.0 / 571), (float) (7.0 / 571),
  (float) (12.0 / 571), (float) (52.0 / 571), (float) (127.0 / 571),
  (float) (52.0 / 571), (float) (12.0 / 571),
  (float) (7.0 / 571), (float) (31.0 / 571), (float) (52.0 / 571),
  (float) (31.0 / 571), (float) (7.0 / 571),
  (float) (2.0 / 571), (float) (7.0 / 571), (float) (12.0 / 571),
  (float) (7.0 / 571), (float) (2.0 / 571),
};

typedef unsigned long long vh_u64;

/* Must match the layout in hip-float-ansnr.c. */
struct vh_ansnr_args
{
  const unsigned char *ref;
  const unsigned char *dis;
  vh_u64 ref_pitch;
  vh_u64 dis_pitch;
  unsigned int ref_step;
  unsigned int dis_step;
  unsigned int width;
  unsigned int height;
  float inv_scale;              /* 2^-(bpc - 8), exact */
  unsigned int pad;
  float *sig;                   /* width * height, column-major */
  float *noise;
  float *row_sig;               /* height */
  float *row_noise;
};

static __device__ __forceinline__ int
ansnr_mirror (int i, int n)
{
  return i < 0 ? -i : i >= n ? 2 * n - i - 1 : i;
}

/* A sample as libvmaf's float extractors see it: on the 8-bit scale,
 * minus 128 (both steps exact). */
template < typename T >
static __device__ __forceinline__ float
ansnr_sample (const unsigned char *plane, vh_u64 pitch, unsigned int step,
    int x, int y, float inv_scale)
{
  const T v = ((const T *) (plane + (vh_u64) y * pitch))[(vh_u64) x * step];
  return FADD (FMUL ((float) v, inv_scale), -128.0f);
}

template < typename T, int K >
static __device__ __forceinline__ float
ansnr_smooth (const float *f, const unsigned char *plane, vh_u64 pitch,
    unsigned int step, int x, int y, int w, int h, float inv_scale)
{
  const int r = K / 2;
  float out = 0;

  for (int fi = 0; fi < K; fi++) {
    const int yy = ansnr_mirror (y - r + fi, h);
    float inner = FMUL (f[fi * K],
        ansnr_sample < T > (plane, pitch, step, ansnr_mirror (x - r, w), yy,
            inv_scale));
    for (int fj = 1; fj < K; fj++)
      inner = FADD (inner, FMUL (f[fi * K + fj],
              ansnr_sample < T > (plane, pitch, step,
                  ansnr_mirror (x - r + fj, w), yy, inv_scale)));
    out = fi == 0 ? inner : FADD (out, inner);
  }
  return out;
}

template < typename T >
static __device__ void
ansnr_filter (const struct vh_ansnr_args &a)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int w = a.width, h = a.height;
  float rs, ds, e;

  if (x >= w || y >= h)
    return;
  rs = ansnr_smooth < T, 3 > (vh_ansnr_ref_kernel, a.ref, a.ref_pitch,
      a.ref_step, x, y, w, h, a.inv_scale);
  ds = ansnr_smooth < T, 5 > (vh_ansnr_dis_kernel, a.dis, a.dis_pitch,
      a.dis_step, x, y, w, h, a.inv_scale);
  e = FSUB (rs, ds);
  a.sig[(vh_u64) x * h + y] = FMUL (rs, rs);
  a.noise[(vh_u64) x * h + y] = FMUL (e, e);
}

extern "C" __global__ void
vh_ansnr_filter_u8 (struct vh_ansnr_args a)
{
  ansnr_filter < unsigned char >(a);
}

extern "C" __global__ void
vh_ansnr_filter_u16 (struct vh_ansnr_args a)
{
  ansnr_filter < unsigned short >(a);
}

extern "C" __global__ void
vh_ansnr_rows (struct vh_ansnr_args a)
{
  const unsigned int y = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0, n = 0;

  if (y >= a.height)
    return;
  for (unsigned int x = 0; x < a.width; x++) {
    s = FADD (s, a.sig[(vh_u64) x * a.height + y]);
    n = FADD (n, a.noise[(vh_u64) x * a.height + y]);
  }
  a.row_sig[y] = s;
  a.row_noise[y] = n;
}

/* One block of one thread; @out: the frame's slot, signal then noise. */
extern "C" __global__ void
vh_ansnr_total (struct vh_ansnr_args a, float *out)
{
  float s = 0, n = 0;

  if (threadIdx.x != 0)
    return;
  for (unsigned int y = 0; y < a.height; y++) {
    s = FADD (s, a.row_sig[y]);
    n = FADD (n, a.row_noise[y]);
  }
  out[0] = s;
  out[1] = n;
}
