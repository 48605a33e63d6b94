/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Sum of squared differences between two planes of samples, the core of
 * PSNR. Written once for every compiler that builds vmafhip kernels: hipcc
 * and hiprtc (AMD), nvcc and nvrtc (NVIDIA). So it includes no header and
 * uses only what all four know: __global__, __shared__, __syncthreads,
 * threadIdx/blockIdx/blockDim/gridDim and a 64-bit atomicAdd.
 *
 * Each block adds its threads' partial sums in shared memory, independent
 * of the warp size (32 on NVIDIA, 32 or 64 on AMD), then adds its total to
 * *sse with one atomic. The sum is an exact integer, so the result does not
 * depend on the order. Launch with 256 threads per block (VH_SSE_THREADS),
 * any 2D grid: the blocks stride over the plane. */

#if defined(__HIP__) && !defined(__HIPCC_RTC__) && !defined(VH_HIP_RTC)
#include <hip/hip_runtime.h>
#endif

#define VH_SSE_THREADS 256

typedef unsigned long long vh_u64;

template < typename T >
static __device__ void
plane_sse (const unsigned char *a, vh_u64 a_pitch, const unsigned char *b,
    vh_u64 b_pitch, unsigned int width, unsigned int height,
    unsigned int step, vh_u64 * sse)
{
  __shared__ vh_u64 partial[VH_SSE_THREADS];
  const unsigned int tid = threadIdx.y * blockDim.x + threadIdx.x;
  vh_u64 acc = 0;

  for (unsigned int y = blockIdx.y * blockDim.y + threadIdx.y; y < height;
      y += gridDim.y * blockDim.y) {
    const T *ra = (const T *) (a + y * a_pitch);
    const T *rb = (const T *) (b + y * b_pitch);
    for (unsigned int x = blockIdx.x * blockDim.x + threadIdx.x; x < width;
        x += gridDim.x * blockDim.x) {
      long long d = (long long) ra[x * step] - (long long) rb[x * step];
      acc += (vh_u64) (d * d);
    }
  }
  partial[tid] = acc;
  __syncthreads ();
  for (unsigned int s = VH_SSE_THREADS / 2; s > 0; s >>= 1) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads ();
  }
  if (tid == 0 && partial[0] != 0)
    atomicAdd (sse, partial[0]);
}

extern "C" __global__ void
vh_plane_sse_u8 (const unsigned char *a, vh_u64 a_pitch,
    const unsigned char *b, vh_u64 b_pitch, unsigned int width,
    unsigned int height, unsigned int step, vh_u64 * sse)
{
  plane_sse < unsigned char >(a, a_pitch, b, b_pitch, width, height, step,
      sse);
}

extern "C" __global__ void
vh_plane_sse_u16 (const unsigned char *a, vh_u64 a_pitch,
    const unsigned char *b, vh_u64 b_pitch, unsigned int width,
    unsigned int height, unsigned int step, vh_u64 * sse)
{
  plane_sse < unsigned short >(a, a_pitch, b, b_pitch, width, height, step,
      sse);
}
