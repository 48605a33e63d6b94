/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Sums of squared errors of up to three planes in one launch (blockIdx.z
 * is the plane), for psnr and float_psnr. Same portable subset as
 * tests/hip/plane-sse.hip. The sums are exact integers, so their order
 * does not matter; the _f32 variant rounds each square to single precision
 * first, as libvmaf's float_psnr does for 16-bit samples. Launch with 256
 * threads per block (VH_PSNR_THREADS), any grid: blocks stride over the
 * planes. */

#if defined(__HIP__) && !defined(__HIPCC_RTC__) && !defined(VH_HIP_RTC)
#include <hip/hip_runtime.h>
#endif

#define VH_PSNR_THREADS 256

typedef unsigned long long vh_u64;

/* Must match the layout in hip-psnr-sse.c. */
struct vh_psnr_plane
{
  const unsigned char *a;
  const unsigned char *b;
  vh_u64 a_pitch;
  vh_u64 b_pitch;
  unsigned int width;
  unsigned int height;
  unsigned int a_step;
  unsigned int b_step;
};

struct vh_psnr_planes
{
  struct vh_psnr_plane p[3];
};

template < typename T, bool F32 >
static __device__ void
psnr_sse (const struct vh_psnr_planes &planes, vh_u64 * sse)
{
  __shared__ vh_u64 partial[VH_PSNR_THREADS];
  const struct vh_psnr_plane &pl = planes.p[blockIdx.z];
  const unsigned int tid = threadIdx.y * blockDim.x + threadIdx.x;
  vh_u64 acc = 0;

  for (unsigned int y = blockIdx.y * blockDim.y + threadIdx.y; y < pl.height;
      y += gridDim.y * blockDim.y) {
    const T *ra = (const T *) (pl.a + y * pl.a_pitch);
    const T *rb = (const T *) (pl.b + y * pl.b_pitch);
    for (unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
        x < pl.width; x += gridDim.x * blockDim.x) {
      int d = (int) ra[x * pl.a_step] - (int) rb[x * pl.b_step];
      unsigned int e2 = (unsigned int) d * (unsigned int) d;
      if (F32)
        acc += (vh_u64) (float) e2;
      else
        acc += e2;
    }
  }
  partial[tid] = acc;
  __syncthreads ();
  for (unsigned int s = VH_PSNR_THREADS / 2; s > 0; s >>= 1) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads ();
  }
  if (tid == 0 && partial[0] != 0)
    atomicAdd (sse + blockIdx.z, partial[0]);
}

extern "C" __global__ void
vh_psnr_sse_u8 (struct vh_psnr_planes planes, vh_u64 * sse)
{
  psnr_sse < unsigned char, false >(planes, sse);
}

extern "C" __global__ void
vh_psnr_sse_u16 (struct vh_psnr_planes planes, vh_u64 * sse)
{
  psnr_sse < unsigned short, false >(planes, sse);
}

extern "C" __global__ void
vh_psnr_sse_u16_f32 (struct vh_psnr_planes planes, vh_u64 * sse)
{
  psnr_sse < unsigned short, true >(planes, sse);
}
