/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* float_motion: the blur of each plane and the single-precision sums of
 * absolute differences, in src/features/float-motion.c's order so that the
 * twin equals the CPU one bit for bit.
 *
 *  1. vh_fmotion_vblur, one thread per sample: the vertical pass of the
 *     blur over the plane as floats (sample / 2^(bpc - 8) - 128, both
 *     steps exact), rows mirrored; each sum 0 + f[0] x[0] + f[1] x[1] ...
 *  2. vh_fmotion_hblur, one thread per sample: the horizontal pass into
 *     the frame's blurred plane, rows @stride floats apart as the CPU twin
 *     keeps them.
 *  3. (motion_add_scale1: both planes halved by vh_fscale_bilinear,
 *     float-scale.hip.)
 *  4. vh_fmotion_sad_rows, one thread per row: |a - b| summed left to
 *     right; vh_fmotion_sad_total, one thread: the rows top to bottom.
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
#else
#pragma clang fp contract(off)
#define FMUL(a, b) ((a) * (b))
#define FADD(a, b) ((a) + (b))
#define FSUB(a, b) ((a) - (b))
#endif

#define VH_FMOTION_MAX_TAPS 5

typedef unsigned long long vh_u64;

/* Must match the layout in hip-float-motion.c. */
struct vh_fmotion_blur_args
{
  const unsigned char *src;     /* the picture's plane */
  vh_u64 pitch;                 /* bytes */
  unsigned int step;            /* samples between columns */
  unsigned int width;
  unsigned int height;
  float inv_scale;              /* 2^-(bpc - 8), exact */
  float *tmp;                   /* width * height, the vertical pass */
  float *dst;                   /* the blurred plane */
  vh_u64 dst_stride;            /* floats */
  unsigned int fw;              /* taps: 3 or 5 */
  float f[VH_FMOTION_MAX_TAPS];
};

static __device__ __forceinline__ int
fmotion_mirror (int i, int n)
{
  if (i < 0)
    return -i;
  if (i >= n)
    return 2 * n - i - 2;
  return i;
}

template < typename T >
static __device__ void
fmotion_vblur (const struct vh_fmotion_blur_args &a)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int w = a.width, h = a.height, r = a.fw / 2;
  float acc = 0.0f;

  if (x >= w || y >= h)
    return;
  for (int k = 0; k < (int) a.fw; k++) {
    const int yy = fmotion_mirror (y + k - r, h);
    const T v = ((const T *) (a.src + (vh_u64) yy * a.pitch))[(vh_u64) x *
        a.step];
    const float s = FADD (FMUL ((float) v, a.inv_scale), -128.0f);
    acc = FADD (acc, FMUL (a.f[k], s));
  }
  a.tmp[(vh_u64) y * w + x] = acc;
}

extern "C" __global__ void
vh_fmotion_vblur_u8 (struct vh_fmotion_blur_args a)
{
  fmotion_vblur < unsigned char >(a);
}

extern "C" __global__ void
vh_fmotion_vblur_u16 (struct vh_fmotion_blur_args a)
{
  fmotion_vblur < unsigned short >(a);
}

extern "C" __global__ void
vh_fmotion_hblur (struct vh_fmotion_blur_args a)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int w = a.width, h = a.height, r = a.fw / 2;
  const float *row = a.tmp + (vh_u64) y * w;
  float acc = 0.0f;

  if (x >= w || y >= h)
    return;
  for (int k = 0; k < (int) a.fw; k++)
    acc = FADD (acc, FMUL (a.f[k], row[fmotion_mirror (x + k - r, w)]));
  a.dst[(vh_u64) y * a.dst_stride + x] = acc;
}

/* Each row's sum of |a - b|, left to right, into @rows. */
extern "C" __global__ void
vh_fmotion_sad_rows (const float *a, const float *b, vh_u64 stride,
    unsigned int w, unsigned int h, float *rows)
{
  const unsigned int y = blockIdx.x * blockDim.x + threadIdx.x;
  const float *pa = a + (vh_u64) y * stride, *pb = b + (vh_u64) y * stride;
  float s = 0.0f;

  if (y >= h)
    return;
  for (unsigned int x = 0; x < w; x++)
    s = FADD (s, fabsf (FSUB (pa[x], pb[x])));
  rows[y] = s;
}

/* One block of one thread: the @h row sums, top to bottom, into *out. */
extern "C" __global__ void
vh_fmotion_sad_total (const float *rows, unsigned int h, float *out)
{
  float s = 0.0f;

  if (threadIdx.x != 0)
    return;
  for (unsigned int y = 0; y < h; y++)
    s = FADD (s, rows[y]);
  *out = s;
}
