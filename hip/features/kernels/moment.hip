/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Luma sums for float_moment, the reference and the distorted picture in
 * one launch (blockIdx.z picks the picture). Per picture: the sum of the
 * samples and the sum of their squares, each square rounded to single
 * precision as libvmaf's float square rounds (exact below 2^24, so exact up
 * to 12 bits). Integer sums, so their order does not matter. Launch with
 * 256 threads per block (VH_MOMENT_THREADS), any grid: blocks stride over
 * the plane.
 *
 * At 16 bits libvmaf adds the float squares (on the 8-bit scale, that is
 * divided by 2^16) to a running double in raster order. Each is an integer
 * times 2^-16, so while their integer total stays below 2^53 every running
 * sum is exact and equals the integer sum scaled; vh_moment_sum16 then just
 * scales it, and otherwise (a large, bright picture) repeats libvmaf's
 * ordered sum in one thread so that the rounding is the same. */

#if defined(__HIP__) && !defined(__HIPCC_RTC__) && !defined(VH_HIP_RTC)
#include <hip/hip_runtime.h>
#endif

#if defined(__CUDACC__)
#define FMUL(a, b) __fmul_rn ((a), (b))
#define DADD(a, b) __dadd_rn ((a), (b))
#else
#pragma clang fp contract(off)
#define FMUL(a, b) ((a) * (b))
#define DADD(a, b) ((a) + (b))
#endif

#define VH_MOMENT_THREADS 256

typedef unsigned long long vh_u64;

/* Must match the layout in hip-float-moment.c. */
struct vh_moment_plane
{
  const unsigned char *data;
  vh_u64 pitch;
  unsigned int step;
  unsigned int pad;
};

struct vh_moment_planes
{
  struct vh_moment_plane p[2];
  unsigned int width;
  unsigned int height;
};

/* Per picture in the result slot: sum, sum of squares, 16-bit double sum. */
struct vh_moment_sums
{
  vh_u64 sum;
  vh_u64 sum_sq;
  double sum_sq16;
};

template < typename T >
static __device__ void
moment_sums (const struct vh_moment_planes &planes,
    struct vh_moment_sums *out)
{
  __shared__ vh_u64 part_sum[VH_MOMENT_THREADS];
  __shared__ vh_u64 part_sq[VH_MOMENT_THREADS];
  const struct vh_moment_plane &pl = planes.p[blockIdx.z];
  const unsigned int tid = threadIdx.y * blockDim.x + threadIdx.x;
  vh_u64 s = 0, sq = 0;

  for (unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
      y < planes.height; y += gridDim.y * blockDim.y) {
    const T *row = (const T *) (pl.data + y * pl.pitch);
    for (unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
        x < planes.width; x += gridDim.x * blockDim.x) {
      const unsigned int v = row[x * pl.step];
      s += v;
      sq += (vh_u64) (float) (v * v);
    }
  }
  part_sum[tid] = s;
  part_sq[tid] = sq;
  __syncthreads ();
  for (unsigned int k = VH_MOMENT_THREADS / 2; k > 0; k >>= 1) {
    if (tid < k) {
      part_sum[tid] += part_sum[tid + k];
      part_sq[tid] += part_sq[tid + k];
    }
    __syncthreads ();
  }
  if (tid == 0) {
    if (part_sum[0])
      atomicAdd (&out[blockIdx.z].sum, part_sum[0]);
    if (part_sq[0])
      atomicAdd (&out[blockIdx.z].sum_sq, part_sq[0]);
  }
}

extern "C" __global__ void
vh_moment_sums_u8 (struct vh_moment_planes planes, struct vh_moment_sums *out)
{
  moment_sums < unsigned char >(planes, out);
}

extern "C" __global__ void
vh_moment_sums_u16 (struct vh_moment_planes planes,
    struct vh_moment_sums *out)
{
  moment_sums < unsigned short >(planes, out);
}

/* One thread per picture (grid 2 x 1 x 1, block 1), after the sums. */
extern "C" __global__ void
vh_moment_sum16 (struct vh_moment_planes planes, struct vh_moment_sums *out)
{
  const struct vh_moment_plane &pl = planes.p[blockIdx.x];
  struct vh_moment_sums *o = &out[blockIdx.x];
  double acc = 0;

  if (threadIdx.x != 0)
    return;
  if (o->sum_sq < (1ull << 53)) {
    o->sum_sq16 = (double) o->sum_sq * (1.0 / 65536.0);
    return;
  }
  for (unsigned int y = 0; y < planes.height; y++) {
    const unsigned short *row =
        (const unsigned short *) (pl.data + y * pl.pitch);
    for (unsigned int x = 0; x < planes.width; x++) {
      const float f = (float) row[x * pl.step] / 256.0f;
      acc = DADD (acc, (double) FMUL (f, f));
    }
  }
  o->sum_sq16 = acc;
}
