/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Frame probes: small integer sums of one luma plane, read back by the
 * host (hip/features/hip-frame-probe.c), which finishes them with the CPU
 * code's own arithmetic. Integers, so the order of the additions does not
 * matter and the results equal the CPU's exactly.
 *
 * vh_probe_signature_*: the alignment signature's block sums
 * (src/align-signature.c): VH_PROBE_GRID_W x VH_PROBE_GRID_H blocks, block
 * i of n over size samples covering [ceil (i * size / n),
 * ceil ((i + 1) * size / n)), of which every row_step-th row from the
 * block's first is summed (vh_align_signature_row_step()). One block of
 * VH_PROBE_THREADS threads per cell (grid VH_PROBE_GRID_W x
 * VH_PROBE_GRID_H); each writes its cell.
 *
 * vh_probe_samples_*: the black and freeze detection's sampled sums
 * (gst/gstvmafhipevents.c): the samples at (x0 + i * step_x, y0 + j *
 * step_y), copied to @cur (row after row), their sum, the sum of their
 * squares and, when @prev is not NULL, the sum of |cur - prev|. Any 1D
 * grid of VH_PROBE_THREADS threads a block: blocks stride over the
 * samples, and block b writes its three sums at @sums[3 b] (the host adds
 * them: nothing to clear before the launch). */

#if defined(__HIP__) && !defined(__HIPCC_RTC__) && !defined(VH_HIP_RTC)
#include <hip/hip_runtime.h>
#endif

#define VH_PROBE_THREADS 256
#define VH_PROBE_GRID_W 16
#define VH_PROBE_GRID_H 16

typedef unsigned long long vh_u64;

/* Must match the layouts in hip-frame-probe.c. */
struct vh_probe_plane
{
  const unsigned char *data;
  vh_u64 pitch;                 /* bytes */
  unsigned int step;            /* samples from one column to the next */
  unsigned int width;
  unsigned int height;
  unsigned int row_step;        /* signatures: every row_step-th row */
};

struct vh_probe_grid
{
  unsigned int x0;
  unsigned int y0;
  unsigned int step_x;
  unsigned int step_y;
  unsigned int per_row;
  unsigned int rows;
};

/* The block's sums: each thread adds its own into shared totals (two
 * barriers a block, where a tree of partial sums took one a level). */
static __device__ void
probe_block_add (vh_u64 * total, const vh_u64 * mine, unsigned int n)
{
  for (unsigned int k = 0; k < n; k++) {
    if (mine[k])
      atomicAdd (&total[k], mine[k]);
  }
  __syncthreads ();
}

static __device__ unsigned int
probe_block_start (unsigned int i, unsigned int size, unsigned int n)
{
  return (unsigned int) (((vh_u64) i * size + n - 1) / n);
}

template < typename T >
static __device__ void
probe_signature (const struct vh_probe_plane &pl, vh_u64 * cells)
{
  __shared__ vh_u64 total[1];
  const unsigned int tid = threadIdx.x;
  const unsigned int c = blockIdx.x, r = blockIdx.y;
  const unsigned int x0 = probe_block_start (c, pl.width, VH_PROBE_GRID_W);
  const unsigned int x1 = probe_block_start (c + 1, pl.width,
      VH_PROBE_GRID_W);
  const unsigned int y0 = probe_block_start (r, pl.height, VH_PROBE_GRID_H);
  const unsigned int y1 = probe_block_start (r + 1, pl.height,
      VH_PROBE_GRID_H);
  const unsigned int cw = x1 - x0;
  const unsigned int rs = pl.row_step;
  const vh_u64 n = (vh_u64) cw * ((y1 - y0 + rs - 1) / rs);
  vh_u64 s = 0;

  if (tid == 0)
    total[0] = 0;
  __syncthreads ();
  for (vh_u64 i = tid; i < n; i += VH_PROBE_THREADS) {
    const unsigned int y = y0 + (unsigned int) (i / cw) * rs;
    const unsigned int x = x0 + (unsigned int) (i % cw);
    const T *row = (const T *) (pl.data + y * pl.pitch);
    s += row[(vh_u64) x * pl.step];
  }
  probe_block_add (total, &s, 1);
  if (tid == 0)
    cells[r * VH_PROBE_GRID_W + c] = total[0];
}

extern "C" __global__ void
vh_probe_signature_u8 (struct vh_probe_plane plane, vh_u64 * cells)
{
  probe_signature < unsigned char >(plane, cells);
}

extern "C" __global__ void
vh_probe_signature_u16 (struct vh_probe_plane plane, vh_u64 * cells)
{
  probe_signature < unsigned short >(plane, cells);
}

/* The block's sums[0]: the samples, [1] their squares, [2] |cur - prev|. */
template < typename T >
static __device__ void
probe_samples (const struct vh_probe_plane &pl, const struct vh_probe_grid &g,
    unsigned short *cur, const unsigned short *prev, vh_u64 * sums)
{
  __shared__ vh_u64 total[3];
  const unsigned int tid = threadIdx.x;
  const vh_u64 n = (vh_u64) g.per_row * g.rows;
  vh_u64 mine[3] = { 0, 0, 0 };

  if (tid < 3)
    total[tid] = 0;
  __syncthreads ();

  for (vh_u64 i = (vh_u64) blockIdx.x * VH_PROBE_THREADS + tid; i < n;
      i += (vh_u64) gridDim.x * VH_PROBE_THREADS) {
    const unsigned int y = g.y0 + (unsigned int) (i / g.per_row) * g.step_y;
    const unsigned int x = g.x0 + (unsigned int) (i % g.per_row) * g.step_x;
    const T *row = (const T *) (pl.data + y * pl.pitch);
    const unsigned int v = row[(vh_u64) x * pl.step];

    cur[i] = (unsigned short) v;
    mine[0] += v;
    mine[1] += (vh_u64) v * v;
    if (prev)
      mine[2] += v > prev[i] ? v - prev[i] : prev[i] - v;
  }
  probe_block_add (total, mine, 3);
  if (tid < 3)
    sums[3 * blockIdx.x + tid] = total[tid];
}

extern "C" __global__ void
vh_probe_samples_u8 (struct vh_probe_plane plane, struct vh_probe_grid grid,
    unsigned short *cur, const unsigned short *prev, vh_u64 * sums)
{
  probe_samples < unsigned char >(plane, grid, cur, prev, sums);
}

extern "C" __global__ void
vh_probe_samples_u16 (struct vh_probe_plane plane, struct vh_probe_grid grid,
    unsigned short *cur, const unsigned short *prev, vh_u64 * sums)
{
  probe_samples < unsigned short >(plane, grid, cur, prev, sums);
}
