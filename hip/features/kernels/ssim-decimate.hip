/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Downscaling for float_ssim and float_ms_ssim, the GPU twin of
 * src/features/ssim-decimate.c: float_ssim's box filter and MS-SSIM's 9x9
 * wavelet low-pass with 2:1 decimation. Both mirror the borders (the edge
 * sample repeated) and add single-precision tap products to a double sum
 * in row-major tap order, then round to float, as the CPU twin does. Each
 * thread handles both planes (reference and distorted) of one output.
 *
 * No multiply and add may be fused into one rounding: the CUDA path spells
 * every operation with its round-to-nearest intrinsic; clang honours a
 * pragma. */

#if defined(__HIP__) && !defined(__HIPCC_RTC__) && !defined(VH_HIP_RTC)
#include <hip/hip_runtime.h>
#endif

#if defined(__CUDACC__)
#define FMUL(a, b) __fmul_rn ((a), (b))
#define FDIV(a, b) __fdiv_rn ((a), (b))
#define DADD(a, b) __dadd_rn ((a), (b))
#else
#pragma clang fp contract(off)
#define FMUL(a, b) ((a) * (b))
#define FDIV(a, b) ((a) / (b))
#define DADD(a, b) ((a) + (b))
#endif

typedef unsigned long long vh_u64;

#define VH_DEC_BX 32            /* threads per block: 32 x 8 */
#define VH_DEC_BY 8
#define VH_LPF_TAPS 9
#define VH_LPF_ROWS 2           /* output rows per thread */
#define VH_LPF_OUT_H (VH_DEC_BY * VH_LPF_ROWS)  /* 16 */
#define VH_LPF_IN_W (2 * VH_DEC_BX + VH_LPF_TAPS - 2)   /* 71 */
#define VH_LPF_IN_H (2 * VH_LPF_OUT_H + VH_LPF_TAPS - 2)        /* 39 */

/* One quadrant (edge to centre) of the 9x9 low-pass of the 9/7
 * biorthogonal wavelet at libvmaf's precision; symmetric both ways. */
__constant__ float vh_lpf_quadrant[5][5] = {
  {0.000714f, -0.000450f, -0.002090f, 0.007132f, 0.016114f},
  {-0.000450f, 0.000283f, 0.001316f, -0.004490f, -0.010146f},
  {-0.002090f, 0.001316f, 0.006115f, -0.020867f, -0.047149f},
  {0.007132f, -0.004490f, -0.020867f, 0.071207f, 0.160885f},
  {0.016114f, -0.010146f, -0.047149f, 0.160885f, 0.363505f},
};

static __device__ int
vh_mirror (int i, int n)
{
  if (i < 0)
    return -1 - i;
  if (i >= n)
    return 2 * n - 1 - i;
  return i;
}

static __device__ int
vh_clamp (int i, unsigned int n)
{
  return i < 0 ? 0 : (i >= (int) n ? (int) n - 1 : i);
}

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

/* Box filter of @factor x @factor taps centred on every factor-th sample
 * (one more tap on the left and top when the factor is even), each tap
 * weighted by @k = 1 / factor^2. */
template < typename S >
static __device__ void
box (const S a, const S b, unsigned int width, unsigned int height,
    unsigned int factor, float k, unsigned char *out_a,
    unsigned char *out_b, vh_u64 out_pitch, unsigned int dw, unsigned int dh)
{
  const unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int lo = -(int) (factor / 2), hi = (int) (factor - 1) / 2;
  double acc_a = 0.0, acc_b = 0.0;

  if (x >= dw || y >= dh)
    return;
  for (int v = lo; v <= hi; v++) {
    const unsigned int sy = vh_mirror ((int) (y * factor) + v, (int) height);

    for (int u = lo; u <= hi; u++) {
      const unsigned int sx = vh_mirror ((int) (x * factor) + u,
          (int) width);

      acc_a = DADD (acc_a, (double) FMUL (a.load (sx, sy), k));
      acc_b = DADD (acc_b, (double) FMUL (b.load (sx, sy), k));
    }
  }
  ((float *) (out_a + y * out_pitch))[x] = (float) acc_a;
  ((float *) (out_b + y * out_pitch))[x] = (float) acc_b;
}

/* Launch: VH_DEC_BX x VH_DEC_BY threads, one per output sample. @ra, @rb:
 * luma planes, pitches in bytes, steps in samples; @div: 2^(bpc - 8) for
 * the 16-bit reader; outputs are float planes of @dw x @dh. */
extern "C" __global__ void
vh_ssim_box_u8 (const unsigned char *ra, vh_u64 pitch_a, unsigned int step_a,
    const unsigned char *rb, vh_u64 pitch_b, unsigned int step_b, float div,
    unsigned int width, unsigned int height, unsigned int factor, float k,
    unsigned char *out_a, unsigned char *out_b, vh_u64 out_pitch,
    unsigned int dw, unsigned int dh)
{
  const VhSrcU8 a = { ra, pitch_a, step_a };
  const VhSrcU8 b = { rb, pitch_b, step_b };

  box < VhSrcU8 > (a, b, width, height, factor, k, out_a, out_b, out_pitch,
      dw, dh);
}

extern "C" __global__ void
vh_ssim_box_u16 (const unsigned char *ra, vh_u64 pitch_a,
    unsigned int step_a, const unsigned char *rb, vh_u64 pitch_b,
    unsigned int step_b, float div, unsigned int width, unsigned int height,
    unsigned int factor, float k, unsigned char *out_a, unsigned char *out_b,
    vh_u64 out_pitch, unsigned int dw, unsigned int dh)
{
  const VhSrcU16 a = { ra, pitch_a, step_a, div };
  const VhSrcU16 b = { rb, pitch_b, step_b, div };

  box < VhSrcU16 > (a, b, width, height, factor, k, out_a, out_b, out_pitch,
      dw, dh);
}

/* 9x9 low-pass centred on every second sample: output (x, y) reads input
 * columns 2x-4 .. 2x+4 and rows 2y-4 .. 2y+4, mirrored. A block makes 32 x
 * 16 outputs from a 71 x 39 input tile in shared memory. */
template < typename S >
static __device__ void
lpf (const S a, const S b, unsigned int width, unsigned int height,
    unsigned char *out_a, unsigned char *out_b, vh_u64 out_pitch,
    unsigned int dw, unsigned int dh)
{
  __shared__ float s_a[VH_LPF_IN_H * VH_LPF_IN_W];
  __shared__ float s_b[VH_LPF_IN_H * VH_LPF_IN_W];
  const unsigned int tx = threadIdx.x, ty = threadIdx.y;
  const unsigned int tid = ty * VH_DEC_BX + tx;
  const int ix0 = 2 * (int) (blockIdx.x * VH_DEC_BX) - 4;
  const int iy0 = 2 * (int) (blockIdx.y * VH_LPF_OUT_H) - 4;

  for (unsigned int i = tid; i < VH_LPF_IN_H * VH_LPF_IN_W;
      i += VH_DEC_BX * VH_DEC_BY) {
    const int r = (int) (i / VH_LPF_IN_W), c = (int) (i % VH_LPF_IN_W);
    /* The clamp only matters past the last output, where the tile may
     * reach beyond one mirroring; nothing valid reads those samples. */
    const int gx = vh_clamp (vh_mirror (ix0 + c, (int) width), width);
    const int gy = vh_clamp (vh_mirror (iy0 + r, (int) height), height);

    s_a[i] = a.load (gx, gy);
    s_b[i] = b.load (gx, gy);
  }
  __syncthreads ();

  for (unsigned int j = 0; j < VH_LPF_ROWS; j++) {
    const unsigned int ly = ty + j * VH_DEC_BY;
    const unsigned int x = blockIdx.x * VH_DEC_BX + tx;
    const unsigned int y = blockIdx.y * VH_LPF_OUT_H + ly;
    double acc_a = 0.0, acc_b = 0.0;

    if (x >= dw || y >= dh)
      continue;
#pragma unroll
    for (int v = 0; v < VH_LPF_TAPS; v++) {
      const float *pa = s_a + (2 * ly + v) * VH_LPF_IN_W + 2 * tx;
      const float *pb = s_b + (2 * ly + v) * VH_LPF_IN_W + 2 * tx;
      const int qv = 4 - (v < 4 ? 4 - v : v - 4);

#pragma unroll
      for (int u = 0; u < VH_LPF_TAPS; u++) {
        const float kk = vh_lpf_quadrant[qv][4 - (u < 4 ? 4 - u : u - 4)];

        acc_a = DADD (acc_a, (double) FMUL (pa[u], kk));
        acc_b = DADD (acc_b, (double) FMUL (pb[u], kk));
      }
    }
    ((float *) (out_a + y * out_pitch))[x] = (float) acc_a;
    ((float *) (out_b + y * out_pitch))[x] = (float) acc_b;
  }
}

/* Launch: VH_DEC_BX x VH_DEC_BY threads, ceil (dw / 32) x ceil (dh / 16)
 * blocks; arguments as for the box filter. */
extern "C" __global__ void
vh_ssim_lpf_u8 (const unsigned char *ra, vh_u64 pitch_a, unsigned int step_a,
    const unsigned char *rb, vh_u64 pitch_b, unsigned int step_b, float div,
    unsigned int width, unsigned int height, unsigned char *out_a,
    unsigned char *out_b, vh_u64 out_pitch, unsigned int dw, unsigned int dh)
{
  const VhSrcU8 a = { ra, pitch_a, step_a };
  const VhSrcU8 b = { rb, pitch_b, step_b };

  lpf < VhSrcU8 > (a, b, width, height, out_a, out_b, out_pitch, dw, dh);
}

extern "C" __global__ void
vh_ssim_lpf_u16 (const unsigned char *ra, vh_u64 pitch_a,
    unsigned int step_a, const unsigned char *rb, vh_u64 pitch_b,
    unsigned int step_b, float div, unsigned int width, unsigned int height,
    unsigned char *out_a, unsigned char *out_b, vh_u64 out_pitch,
    unsigned int dw, unsigned int dh)
{
  const VhSrcU16 a = { ra, pitch_a, step_a, div };
  const VhSrcU16 b = { rb, pitch_b, step_b, div };

  lpf < VhSrcU16 > (a, b, width, height, out_a, out_b, out_pitch, dw, dh);
}

/* Float planes (the scales after the first); steps and @div are ignored. */
extern "C" __global__ void
vh_ssim_lpf_f32 (const unsigned char *ra, vh_u64 pitch_a,
    unsigned int step_a, const unsigned char *rb, vh_u64 pitch_b,
    unsigned int step_b, float div, unsigned int width, unsigned int height,
    unsigned char *out_a, unsigned char *out_b, vh_u64 out_pitch,
    unsigned int dw, unsigned int dh)
{
  const VhSrcF32 a = { ra, pitch_a };
  const VhSrcF32 b = { rb, pitch_b };

  lpf < VhSrcF32 > (a, b, width, height, out_a, out_b, out_pitch, dw, dh);
}
