/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Integer motion SAD, equal to src/features/integer-motion.c: the 5-tap
 * blur of the difference between two luma planes (vertical pass rounded
 * and shifted by the bit depth, split into high and low bytes, horizontal
 * pass recombining them), mirrored at the edges, summed as |v|. Each row's
 * total wraps at 32 bits as the CPU twin's does: blocks add their part of a
 * row into a 32-bit counter of that row (unsigned addition wraps the same
 * in any order), then one block adds the rows in 64 bits.
 *
 * vh_motion_rows: grid (ceil (w / 256), h), 256 threads; a block blurs 256
 * columns of one output row (with two columns of apron on each side in
 * shared memory). vh_motion_total: one block of 256 threads. */

#if defined(__HIP__) && !defined(__HIPCC_RTC__) && !defined(VH_HIP_RTC)
#include <hip/hip_runtime.h>
#endif

#define VH_MOTION_THREADS 256
#define VH_MOTION_TAP0 3571
#define VH_MOTION_TAP1 16004
#define VH_MOTION_TAP2 26386

typedef unsigned long long vh_u64;

static __device__ __forceinline__ int
motion_mirror (int i, int n)
{
  if (i < 0)
    return -i;
  if (i >= n)
    return 2 * n - i - 2;
  return i;
}

template < typename T >
static __device__ void
motion_rows (const unsigned char *prev, const unsigned char *cur,
    vh_u64 pitch, int w, int h, unsigned int bpc, unsigned int *row_sad)
{
  __shared__ int hi[VH_MOTION_THREADS + 4];
  __shared__ int lo[VH_MOTION_THREADS + 4];
  __shared__ unsigned int partial[VH_MOTION_THREADS];
  const int tid = threadIdx.x;
  const int x0 = blockIdx.x * VH_MOTION_THREADS;
  const int i = blockIdx.y;
  const int x_end = x0 + VH_MOTION_THREADS < w ? x0 + VH_MOTION_THREADS : w;
  const long long round = 1ll << (bpc - 1);
  int rows[5];

  for (int k = 0; k < 5; k++)
    rows[k] = motion_mirror (i - 2 + k, h);

  /* Vertical pass over columns x0 - 2 .. x_end + 1. 64-bit sums: equal to
   * the CPU twin's 32-bit ones wherever those cannot overflow (15 bits and
   * below), and to its 64-bit ones at 16 bits. */
  for (int k = tid; k < x_end - x0 + 4; k += VH_MOTION_THREADS) {
    const int c = motion_mirror (x0 - 2 + k, w);
    int d[5];
    for (int r = 0; r < 5; r++) {
      const T *p = (const T *) (prev + rows[r] * pitch);
      const T *q = (const T *) (cur + rows[r] * pitch);
      d[r] = (int) p[c] - (int) q[c];
    }
    long long acc = (long long) VH_MOTION_TAP0 * (d[0] + d[4]) +
        (long long) VH_MOTION_TAP1 * (d[1] + d[3]) +
        (long long) VH_MOTION_TAP2 * d[2];
    int y = (int) ((acc + round) >> bpc);
    hi[k] = y >> 8;
    lo[k] = y & 0xff;
  }
  __syncthreads ();

  unsigned int v_abs = 0;
  if (x0 + tid < x_end) {
    const int *hp = hi + tid, *lp = lo + tid;
    int a = VH_MOTION_TAP0 * (hp[0] + hp[4]) +
        VH_MOTION_TAP1 * (hp[1] + hp[3]) + VH_MOTION_TAP2 * hp[2];
    int b = VH_MOTION_TAP0 * (lp[0] + lp[4]) +
        VH_MOTION_TAP1 * (lp[1] + lp[3]) + VH_MOTION_TAP2 * lp[2];
    int v = (a + ((b + 32768) >> 8)) >> 8;
    v_abs = (unsigned int) (v < 0 ? -v : v);
  }
  partial[tid] = v_abs;
  __syncthreads ();
  for (int s = VH_MOTION_THREADS / 2; s > 0; s >>= 1) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads ();
  }
  if (tid == 0 && partial[0] != 0)
    atomicAdd (row_sad + i, partial[0]);
}

extern "C" __global__ void
vh_motion_rows_u8 (const unsigned char *prev, const unsigned char *cur,
    vh_u64 pitch, int w, int h, unsigned int bpc, unsigned int *row_sad)
{
  motion_rows < unsigned char >(prev, cur, pitch, w, h, bpc, row_sad);
}

extern "C" __global__ void
vh_motion_rows_u16 (const unsigned char *prev, const unsigned char *cur,
    vh_u64 pitch, int w, int h, unsigned int bpc, unsigned int *row_sad)
{
  motion_rows < unsigned short >(prev, cur, pitch, w, h, bpc, row_sad);
}

/* Adds the @h row totals in 64 bits into *total. */
extern "C" __global__ void
vh_motion_total (const unsigned int *row_sad, int h, vh_u64 * total)
{
  __shared__ vh_u64 partial[VH_MOTION_THREADS];
  const int tid = threadIdx.x;
  vh_u64 acc = 0;

  for (int i = tid; i < h; i += VH_MOTION_THREADS)
    acc += row_sad[i];
  partial[tid] = acc;
  __syncthreads ();
  for (int s = VH_MOTION_THREADS / 2; s > 0; s >>= 1) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads ();
  }
  if (tid == 0)
    *total = partial[0];
}
