/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Resampling of float planes as src/features/float-scale.c does it
 * (libvmaf's float_vif vif_prescale and float_motion motion_add_scale1):
 * one thread per destination sample, every value in the C code's types
 * and order (double where it is double), no fused multiply-adds, so the
 * planes equal the CPU's bit for bit. Nearest, bilinear, bicubic, and
 * lanczos4 with weights the host computed (the C library's sin in double,
 * which a GPU's may round otherwise; see vh_float_scale_lanczos4_weights).
 *
 * Each kernel: (src, src stride, sw, sh, dst, dst stride, dw, dh), strides
 * in floats, grid over dw x dh. */

#if defined(__HIP__) && !defined(__HIPCC_RTC__) && !defined(VH_HIP_RTC)
#include <hip/hip_runtime.h>
#endif

#if defined(__CUDACC__)
#define FMUL(a, b) __fmul_rn ((a), (b))
#define FADD(a, b) __fadd_rn ((a), (b))
#define FSUB(a, b) __fadd_rn ((a), -(b))
#define DMUL(a, b) __dmul_rn ((a), (b))
#define DADD(a, b) __dadd_rn ((a), (b))
#else
#pragma clang fp contract(off)
#define FMUL(a, b) ((a) * (b))
#define FADD(a, b) ((a) + (b))
#define FSUB(a, b) ((a) - (b))
#define DMUL(a, b) ((a) * (b))
#define DADD(a, b) ((a) + (b))
#endif

typedef unsigned long long vh_u64;

/* A position outside [lo, hi] reflected back inside, in float. */
static __device__ __forceinline__ float
fscale_reflect (float i, float lo, float hi)
{
  return i < lo ? -i : i > hi ? FSUB (FMUL (2.0f, hi), i) : i;
}

/* Source position of destination sample @i's centre: double, then
 * float. */
static __device__ __forceinline__ float
fscale_source_pos (int i, float ratio)
{
  return (float) DADD (DMUL (DADD ((double) i, 0.5), (double) ratio), -0.5);
}

#define FSCALE_THREAD_XY \
  const int x = blockIdx.x * blockDim.x + threadIdx.x; \
  const int y = blockIdx.y * blockDim.y + threadIdx.y; \
  if (x >= (int) dw || y >= (int) dh) \
    return

extern "C" __global__ void
vh_fscale_nearest (const float *src, vh_u64 ss, unsigned int sw,
    unsigned int sh, float *dst, vh_u64 ds, unsigned int dw, unsigned int dh)
{
  FSCALE_THREAD_XY;
  const float rx = (float) sw / (float) dw, ry = (float) sh / (float) dh;
  const int sx = (int) FMUL ((float) x, rx), sy = (int) FMUL ((float) y, ry);

  dst[(vh_u64) y * ds + x] = src[(vh_u64) sy * ss + sx];
}

extern "C" __global__ void
vh_fscale_bilinear (const float *src, vh_u64 ss, unsigned int sw,
    unsigned int sh, float *dst, vh_u64 ds, unsigned int dw, unsigned int dh)
{
  FSCALE_THREAD_XY;
  const float rx = (float) sw / (float) dw, ry = (float) sh / (float) dh;
  const float xx = fscale_source_pos (x, rx), yy = fscale_source_pos (y, ry);
  const float hx = (float) (sw - 1), hy = (float) (sh - 1);
  const int x1 = (int) fscale_reflect ((float) floor ((double) xx), 0.0f, hx);
  const int x2 = (int) fscale_reflect ((float) ceil ((double) xx), 0.0f, hx);
  const int y1 = (int) fscale_reflect ((float) floor ((double) yy), 0.0f, hy);
  const int y2 = (int) fscale_reflect ((float) ceil ((double) yy), 0.0f, hy);
  const float dx = FSUB (xx, (float) x1), dy = FSUB (yy, (float) y1);
  const float *r1 = src + (vh_u64) y1 * ss, *r2 = src + (vh_u64) y2 * ss;
  float v;

  v = FMUL (FMUL (FSUB (1.0f, dy), FSUB (1.0f, dx)), r1[x1]);
  v = FADD (v, FMUL (FMUL (FSUB (1.0f, dy), dx), r1[x2]));
  v = FADD (v, FMUL (FMUL (dy, FSUB (1.0f, dx)), r2[x1]));
  v = FADD (v, FMUL (FMUL (dy, dx), r2[x2]));
  dst[(vh_u64) y * ds + x] = v;
}

/* Keys' cubic with a = -0.75. */
static __device__ __forceinline__ float
fscale_cubic (float t)
{
  const float a = -0.75f;

  if (t < 0)
    t = -t;
  if (t < 1)
    return FADD (FMUL (FMUL (FSUB (FMUL (1.25f, t), 2.25f), t), t), 1.0f);
  if (t < 2)
    return FMUL (FSUB (FMUL (FADD (FMUL (FSUB (t, 5.0f), t), 8.0f), t),
            4.0f), a);
  return 0;
}

extern "C" __global__ void
vh_fscale_bicubic (const float *src, vh_u64 ss, unsigned int sw,
    unsigned int sh, float *dst, vh_u64 ds, unsigned int dw, unsigned int dh)
{
  FSCALE_THREAD_XY;
  const float rx = (float) sw / (float) dw, ry = (float) sh / (float) dh;
  const float xx = fscale_source_pos (x, rx), yy = fscale_source_pos (y, ry);
  const int x0 = (int) floor ((double) xx), y0 = (int) floor ((double) yy);
  const float dx = FSUB (xx, (float) x0), dy = FSUB (yy, (float) y0);
  const float hx = (float) (sw - 1), hy = (float) (sh - 1);
  float wx[4], wy[4], v = 0.0f;

  for (int i = -1; i <= 2; i++) {
    wx[i + 1] = fscale_cubic (FSUB ((float) i, dx));
    wy[i + 1] = fscale_cubic (FSUB ((float) i, dy));
  }
  for (int j = -1; j <= 2; j++) {
    for (int i = -1; i <= 2; i++) {
      const int xi = (int) fscale_reflect ((float) (x0 + i), 0.0f, hx);
      const int yi = (int) fscale_reflect ((float) (y0 + j), 0.0f, hy);
      const float w = FMUL (wx[i + 1], wy[j + 1]);
      v = FADD (v, FMUL (src[(vh_u64) yi * ss + xi], w));
    }
  }
  dst[(vh_u64) y * ds + x] = v;
}

/* @x0, @wx: per destination column the source floor and its nine weights;
 * @y0, @wy: per row. */
extern "C" __global__ void
vh_fscale_lanczos4 (const float *src, vh_u64 ss, unsigned int sw,
    unsigned int sh, float *dst, vh_u64 ds, unsigned int dw, unsigned int dh,
    const int *x0, const float *wx, const int *y0, const float *wy)
{
  FSCALE_THREAD_XY;
  const float hx = (float) (sw - 1), hy = (float) (sh - 1);
  const float *fx = wx + x * 9, *fy = wy + y * 9;
  float v = 0.0f, wsum = 0.0f;

  for (int iy = -4; iy <= 4; iy++) {
    for (int ix = -4; ix <= 4; ix++) {
      const float w = FMUL (fx[ix + 4], fy[iy + 4]);
      const int xi = (int) fscale_reflect ((float) (x0[x] + ix), 0.0f, hx);
      const int yi = (int) fscale_reflect ((float) (y0[y] + iy), 0.0f, hy);
      wsum = FADD (wsum, w);
      v = FADD (v, FMUL (src[(vh_u64) yi * ss + xi], w));
    }
  }
  dst[(vh_u64) y * ds + x] = v / wsum;
}
