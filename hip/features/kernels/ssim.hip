/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Gaussian-window SSIM for float_ssim and float_ms_ssim (the GPU twin of
 * src/features/ssim-common.c), in source that hipcc, hiprtc, nvcc and nvrtc
 * all compile.
 *
 * One block scores a tile of VH_SSIM_TILE x VH_SSIM_TILE window positions:
 * it loads the tile and its 10-sample halo of both planes into shared
 * memory (converting samples to floats on the way), filters the five
 * planes (a, b, a^2, b^2, ab) horizontally into shared memory, then each
 * thread filters vertically, forms the local SSIM terms and adds them up;
 * the block writes its four sums (l*c*s, l, c, s) to its own slot. A second
 * kernel adds the slots of each scale in a fixed order, so results do not
 * depend on scheduling.
 *
 * The arithmetic is the CPU twin's operation for operation: float products
 * added to double sums, float results rounded once per pass. No multiply
 * and add may be fused into one rounding: nvcc and nvrtc fuse by default,
 * so the CUDA path spells every operation with its round-to-nearest
 * intrinsic; clang honours a pragma. */

#if defined(__HIP__) && !defined(__HIPCC_RTC__) && !defined(VH_HIP_RTC)
#include <hip/hip_runtime.h>
#endif

#if defined(__CUDACC__)
#define FMUL(a, b) __fmul_rn ((a), (b))
#define FADD(a, b) __fadd_rn ((a), (b))
#define FSUB(a, b) __fadd_rn ((a), -(b))
#define FDIV(a, b) __fdiv_rn ((a), (b))
#define FSQRT(a) __fsqrt_rn (a)
#define DMUL(a, b) __dmul_rn ((a), (b))
#define DADD(a, b) __dadd_rn ((a), (b))
#define DDIV(a, b) __ddiv_rn ((a), (b))
#else
#pragma clang fp contract(off)
#define FMUL(a, b) ((a) * (b))
#define FADD(a, b) ((a) + (b))
#define FSUB(a, b) ((a) - (b))
#define FDIV(a, b) ((a) / (b))
#define FSQRT(a) sqrtf (a)
#define DMUL(a, b) ((a) * (b))
#define DADD(a, b) ((a) + (b))
#define DDIV(a, b) ((a) / (b))
#endif

typedef unsigned long long vh_u64;

#define VH_SSIM_WIN 11
#define VH_SSIM_TILE 32         /* window positions per tile side */
#define VH_SSIM_BX 32           /* threads: 32 x 8, any warp size */
#define VH_SSIM_BY 8
#define VH_SSIM_THREADS (VH_SSIM_BX * VH_SSIM_BY)
#define VH_SSIM_IN (VH_SSIM_TILE + VH_SSIM_WIN - 1)     /* 42 */
#define VH_SSIM_REDUCE_THREADS 256

/* Normalised Gaussian, sigma 1.5, at libvmaf's 6-decimal precision. */
__constant__ float vh_ssim_gauss[VH_SSIM_WIN] = {
  0.001028f, 0.007599f, 0.036001f, 0.109361f, 0.213006f, 0.266012f,
  0.213006f, 0.109361f, 0.036001f, 0.007599f, 0.001028f,
};

/* Sample readers: luma on the 8-bit scale as floats. Deeper samples are
 * divided by a power of two (@div), which is exact. */
struct VhSrcU8
{
  const unsigned char *p;
  vh_u64 pitch;
  unsigned int step;
  __device__ float load (unsigned int x, unsigned int y) const
  {
    return (float) p[y * pitch + (vh_u64) x * step];
  }
};

struct VhSrcU16
{
  const unsigned char *p;
  vh_u64 pitch;
  unsigned int step;
  float div;
  __device__ float load (unsigned int x, unsigned int y) const
  {
    const unsigned short *row = (const unsigned short *) (p + y * pitch);
    return FDIV ((float) row[(vh_u64) x * step], div);
  }
};

struct VhSrcF32
{
  const unsigned char *p;
  vh_u64 pitch;
  __device__ float load (unsigned int x, unsigned int y) const
  {
    return ((const float *) (p + y * pitch))[x];
  }
};

/* One block's sums: l*c*s, l, c, s over its window positions. */
template < typename S >
static __device__ void
ssim_tile (const S ra, const S rb, unsigned int width, unsigned int height,
    double *partials)
{
  /* Planes a and b with halo, then the five horizontally filtered planes;
   * the block reduction reuses the start once the tile is done. Doubles
   * so that the reduction is aligned. */
  __shared__ double smem[(2 * VH_SSIM_IN * VH_SSIM_IN +
          5 * VH_SSIM_IN * VH_SSIM_TILE) / 2];
  float *s_a = (float *) smem;
  float *s_b = s_a + VH_SSIM_IN * VH_SSIM_IN;
  float *s_h = s_b + VH_SSIM_IN * VH_SSIM_IN;
  const unsigned int hplane = VH_SSIM_IN * VH_SSIM_TILE;
  const unsigned int tx = threadIdx.x, ty = threadIdx.y;
  const unsigned int tid = ty * VH_SSIM_BX + tx;
  const unsigned int x0 = blockIdx.x * VH_SSIM_TILE;
  const unsigned int y0 = blockIdx.y * VH_SSIM_TILE;
  const unsigned int ow = width - (VH_SSIM_WIN - 1);
  const unsigned int oh = height - (VH_SSIM_WIN - 1);

  for (unsigned int i = tid; i < VH_SSIM_IN * VH_SSIM_IN;
      i += VH_SSIM_THREADS) {
    const unsigned int r = i / VH_SSIM_IN, c = i % VH_SSIM_IN;
    const unsigned int gx = x0 + c, gy = y0 + r;
    float a = 0.0f, b = 0.0f;

    if (gx < width && gy < height) {
      a = ra.load (gx, gy);
      b = rb.load (gx, gy);
    }
    s_a[i] = a;
    s_b[i] = b;
  }
  __syncthreads ();

  for (unsigned int r = ty; r < VH_SSIM_IN; r += VH_SSIM_BY) {
    const float *pa = s_a + r * VH_SSIM_IN + tx;
    const float *pb = s_b + r * VH_SSIM_IN + tx;
    double acc[5] = { 0.0, 0.0, 0.0, 0.0, 0.0 };

#pragma unroll
    for (unsigned int u = 0; u < VH_SSIM_WIN; u++) {
      const float a = pa[u], b = pb[u], g = vh_ssim_gauss[u];

      acc[0] = DADD (acc[0], (double) FMUL (a, g));
      acc[1] = DADD (acc[1], (double) FMUL (b, g));
      acc[2] = DADD (acc[2], (double) FMUL (FMUL (a, a), g));
      acc[3] = DADD (acc[3], (double) FMUL (FMUL (b, b), g));
      acc[4] = DADD (acc[4], (double) FMUL (FMUL (a, b), g));
    }
#pragma unroll
    for (unsigned int q = 0; q < 5; q++)
      s_h[q * hplane + r * VH_SSIM_TILE + tx] = (float) acc[q];
  }
  __syncthreads ();

  /* K1 = 0.01, K2 = 0.03, L = 255, in single precision. */
  const float k1l = FMUL (0.01f, 255.0f), k2l = FMUL (0.03f, 255.0f);
  const float c1 = FMUL (k1l, k1l), c2 = FMUL (k2l, k2l);
  const float c3 = FDIV (c2, 2.0f);
  double sum[4] = { 0.0, 0.0, 0.0, 0.0 };

  for (unsigned int r = ty; r < VH_SSIM_TILE; r += VH_SSIM_BY) {
    float m[5];

    if (x0 + tx >= ow || y0 + r >= oh)
      continue;
#pragma unroll
    for (unsigned int q = 0; q < 5; q++) {
      const float *col = s_h + q * hplane + r * VH_SSIM_TILE + tx;
      double acc = 0.0;

#pragma unroll
      for (unsigned int v = 0; v < VH_SSIM_WIN; v++)
        acc = DADD (acc, (double) FMUL (col[v * VH_SSIM_TILE],
                vh_ssim_gauss[v]));
      m[q] = (float) acc;
    }

    const float m1 = m[0], m2 = m[1];
    float var1 = FSUB (m[2], FMUL (m1, m1));
    float var2 = FSUB (m[3], FMUL (m2, m2));

    var1 = var1 < 0.0f ? 0.0f : var1;
    var2 = var2 < 0.0f ? 0.0f : var2;

    const float cov0 = FSUB (m[4], FMUL (m1, m2));
    const float sd12 = FSQRT (FMUL (var1, var2));
    const double l = DDIV (DADD (DMUL (DMUL (2.0, (double) m1), (double) m2),
            (double) c1),
        (double) FADD (FADD (FMUL (m1, m1), FMUL (m2, m2)), c1));
    const double c = DDIV (DADD (DMUL (2.0, (double) sd12), (double) c2),
        (double) FADD (FADD (var1, var2), c2));
    /* A tiny negative covariance from rounding in flat, identical areas
     * must not pull the structure term below 1. */
    const float cov = (sd12 <= 0.0f && cov0 < 0.0f) ? 0.0f : cov0;
    const double s = (double) FDIV (FADD (cov, c3), FADD (sd12, c3));

    sum[0] = DADD (sum[0], DMUL (DMUL (l, c), s));
    sum[1] = DADD (sum[1], l);
    sum[2] = DADD (sum[2], c);
    sum[3] = DADD (sum[3], s);
  }
  __syncthreads ();

  double *red = smem;
#pragma unroll
  for (unsigned int k = 0; k < 4; k++)
    red[k * VH_SSIM_THREADS + tid] = sum[k];
  __syncthreads ();
  for (unsigned int n = VH_SSIM_THREADS / 2; n > 0; n >>= 1) {
    if (tid < n) {
#pragma unroll
      for (unsigned int k = 0; k < 4; k++)
        red[k * VH_SSIM_THREADS + tid] = DADD (red[k * VH_SSIM_THREADS + tid],
            red[k * VH_SSIM_THREADS + tid + n]);
    }
    __syncthreads ();
  }
  if (tid < 4)
    partials[(vh_u64) (blockIdx.y * gridDim.x + blockIdx.x) * 4 + tid] =
        red[tid * VH_SSIM_THREADS];
}

/* Launch: VH_SSIM_BX x VH_SSIM_BY threads, ceil ((width - 10) / 32) x
 * ceil ((height - 10) / 32) blocks; @partials gets 4 doubles per block in
 * row-major block order. @ra, @rb: luma planes, @pitch in bytes, @step in
 * samples; @div: 2^(bpc - 8) for the 16-bit readers. */
extern "C" __global__ void
vh_ssim_tile_u8 (const unsigned char *ra, vh_u64 pitch_a, unsigned int step_a,
    const unsigned char *rb, vh_u64 pitch_b, unsigned int step_b, float div,
    unsigned int width, unsigned int height, double *partials)
{
  const VhSrcU8 a = { ra, pitch_a, step_a };
  const VhSrcU8 b = { rb, pitch_b, step_b };

  ssim_tile < VhSrcU8 > (a, b, width, height, partials);
}

extern "C" __global__ void
vh_ssim_tile_u16 (const unsigned char *ra, vh_u64 pitch_a,
    unsigned int step_a, const unsigned char *rb, vh_u64 pitch_b,
    unsigned int step_b, float div, unsigned int width, unsigned int height,
    double *partials)
{
  const VhSrcU16 a = { ra, pitch_a, step_a, div };
  const VhSrcU16 b = { rb, pitch_b, step_b, div };

  ssim_tile < VhSrcU16 > (a, b, width, height, partials);
}

/* Float planes (a scaled-down frame); steps and @div are ignored. */
extern "C" __global__ void
vh_ssim_tile_f32 (const unsigned char *ra, vh_u64 pitch_a,
    unsigned int step_a, const unsigned char *rb, vh_u64 pitch_b,
    unsigned int step_b, float div, unsigned int width, unsigned int height,
    double *partials)
{
  const VhSrcF32 a = { ra, pitch_a };
  const VhSrcF32 b = { rb, pitch_b };

  ssim_tile < VhSrcF32 > (a, b, width, height, partials);
}

/* Adds up the block sums of each scale: block s of the grid takes slots
 * [first[s], first[s + 1]) of @partials (4 doubles each) and writes 4
 * doubles to @out + 4 s. Launch VH_SSIM_REDUCE_THREADS threads, one block
 * per scale (at most 5). */
extern "C" __global__ void
vh_ssim_reduce (const double *partials, unsigned int f0, unsigned int f1,
    unsigned int f2, unsigned int f3, unsigned int f4, unsigned int f5,
    double *out)
{
  __shared__ double red[4 * VH_SSIM_REDUCE_THREADS];
  const unsigned int first[6] = { f0, f1, f2, f3, f4, f5 };
  const unsigned int s = blockIdx.x, tid = threadIdx.x;
  double sum[4] = { 0.0, 0.0, 0.0, 0.0 };

  for (unsigned int i = first[s] + tid; i < first[s + 1];
      i += VH_SSIM_REDUCE_THREADS) {
#pragma unroll
    for (unsigned int k = 0; k < 4; k++)
      sum[k] = DADD (sum[k], partials[(vh_u64) i * 4 + k]);
  }
#pragma unroll
  for (unsigned int k = 0; k < 4; k++)
    red[k * VH_SSIM_REDUCE_THREADS + tid] = sum[k];
  __syncthreads ();
  for (unsigned int n = VH_SSIM_REDUCE_THREADS / 2; n > 0; n >>= 1) {
    if (tid < n) {
#pragma unroll
      for (unsigned int k = 0; k < 4; k++)
        red[k * VH_SSIM_REDUCE_THREADS + tid] =
            DADD (red[k * VH_SSIM_REDUCE_THREADS + tid],
            red[k * VH_SSIM_REDUCE_THREADS + tid + n]);
    }
    __syncthreads ();
  }
  if (tid < 4)
    out[s * 4 + tid] = red[tid * VH_SSIM_REDUCE_THREADS];
}
