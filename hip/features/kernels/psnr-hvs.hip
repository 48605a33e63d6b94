/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* psnr_hvs, equal to src/features/psnr-hvs-kernels.c bit for bit.
 *
 *  - vh_hvs_blocks_u8 / _u16, one thread per 8x8 block (blocks every 7
 *    samples): Daala's integer DCT of both blocks (int32 arithmetic that
 *    wraps as the C code's), the masking of each in the C code's float
 *    order, and the block's 64 weighted squared errors, stored in block
 *    order.
 *  - vh_hvs_sum, one block per plane: libvmaf adds every term of every
 *    block to one float in raster order, so one thread does the same,
 *    from shared memory that other threads fill ahead of it.
 *
 * No contraction into fused multiply-adds. */

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

typedef unsigned long long vh_u64;

/* Must match the layout in hip-psnr-hvs.c. */
struct vh_hvs_plane_args
{
  const unsigned char *ref;
  const unsigned char *dis;
  vh_u64 ref_pitch;
  vh_u64 dis_pitch;
  unsigned int ref_step;
  unsigned int dis_step;
  unsigned int n_across;
  unsigned int n_down;
  const float *csf;             /* 64 */
  const float *mask;            /* 64 */
  float *terms;                 /* 64 per block, blocks in raster order */
};

/* Rounding right shift of Daala's transforms. */
static __device__ __forceinline__ int
hvs_rshift (int a, int b)
{
  return (int) (((unsigned int) a >> (32 - b)) + (unsigned int) a) >> b;
}

/* Multiplies by @m / 2^@s, rounded; wraps as the C code's int32 does. */
static __device__ __forceinline__ int
hvs_mul (int a, unsigned int m, int s)
{
  return (int) ((unsigned int) a * m + (1u << (s - 1))) >> s;
}

/* Daala's 8-point integer DCT-II (od_bin_fdct8). */
static __device__ __forceinline__ void
hvs_fdct8 (int y[8], const int x[8])
{
  int t0 = x[0], t4 = x[1], t2 = x[2], t6 = x[3];
  int t7 = x[4], t3 = x[5], t5 = x[6], t1 = x[7];
  int t1h, t4h, t6h;

  t1 = (int) ((unsigned int) t0 - (unsigned int) t1);
  t1h = hvs_rshift (t1, 1);
  t0 = (int) ((unsigned int) t0 - (unsigned int) t1h);
  t4 = (int) ((unsigned int) t4 + (unsigned int) t5);
  t4h = hvs_rshift (t4, 1);
  t5 = (int) ((unsigned int) t5 - (unsigned int) t4h);
  t3 = (int) ((unsigned int) t2 - (unsigned int) t3);
  t2 = (int) ((unsigned int) t2 - (unsigned int) hvs_rshift (t3, 1));
  t6 = (int) ((unsigned int) t6 + (unsigned int) t7);
  t6h = hvs_rshift (t6, 1);
  t7 = (int) ((unsigned int) t6h - (unsigned int) t7);
  t0 = (int) ((unsigned int) t0 + (unsigned int) t6h);
  t6 = (int) ((unsigned int) t0 - (unsigned int) t6);
  t2 = (int) ((unsigned int) t4h - (unsigned int) t2);
  t4 = (int) ((unsigned int) t2 - (unsigned int) t4);
  t0 = (int) ((unsigned int) t0 - (unsigned int) hvs_mul (t4, 13573, 15));
  t4 = (int) ((unsigned int) t4 + (unsigned int) hvs_mul (t0, 11585, 14));
  t0 = (int) ((unsigned int) t0 - (unsigned int) hvs_mul (t4, 13573, 15));
  t6 = (int) ((unsigned int) t6 - (unsigned int) hvs_mul (t2, 21895, 15));
  t2 = (int) ((unsigned int) t2 + (unsigned int) hvs_mul (t6, 15137, 14));
  t6 = (int) ((unsigned int) t6 - (unsigned int) hvs_mul (t2, 21895, 15));
  t3 = (int) ((unsigned int) t3 + (unsigned int) hvs_mul (t5, 19195, 15));
  t5 = (int) ((unsigned int) t5 + (unsigned int) hvs_mul (t3, 11585, 14));
  t3 = (int) ((unsigned int) t3 - (unsigned int) hvs_mul (t5, 7489, 13));
  t7 = (int) ((unsigned int) hvs_rshift (t5, 1) - (unsigned int) t7);
  t5 = (int) ((unsigned int) t5 - (unsigned int) t7);
  t3 = (int) ((unsigned int) t1h - (unsigned int) t3);
  t1 = (int) ((unsigned int) t1 - (unsigned int) t3);
  t7 = (int) ((unsigned int) t7 + (unsigned int) hvs_mul (t1, 3227, 15));
  t1 = (int) ((unsigned int) t1 - (unsigned int) hvs_mul (t7, 6393, 15));
  t7 = (int) ((unsigned int) t7 + (unsigned int) hvs_mul (t1, 3227, 15));
  t5 = (int) ((unsigned int) t5 + (unsigned int) hvs_mul (t3, 2485, 13));
  t3 = (int) ((unsigned int) t3 - (unsigned int) hvs_mul (t5, 18205, 15));
  t5 = (int) ((unsigned int) t5 + (unsigned int) hvs_mul (t3, 2485, 13));
  y[0] = t0;
  y[1] = t1;
  y[2] = t2;
  y[3] = t3;
  y[4] = t4;
  y[5] = t5;
  y[6] = t6;
  y[7] = t7;
}

/* @c[i][j]: vertical frequency i, horizontal j; columns first. */
static __device__ __forceinline__ void
hvs_fdct8x8 (int c[8][8], const int b[8][8])
{
  int line[8], out[8];

  for (int x = 0; x < 8; x++) {
    for (int k = 0; k < 8; k++)
      line[k] = b[k][x];
    hvs_fdct8 (out, line);
    for (int k = 0; k < 8; k++)
      c[k][x] = out[k];
  }
  for (int i = 0; i < 8; i++) {
    for (int k = 0; k < 8; k++)
      line[k] = c[i][k];
    hvs_fdct8 (c[i], line);
  }
}

/* Masking strength of block @b with DCT @c, in the C code's order. */
static __device__ __forceinline__ float
hvs_block_mask (const int b[8][8], const int c[8][8], const float *mask)
{
  int total = 0, quarter[4] = { 0, 0, 0, 0 };
  float mean, means[4], var = 0.0f, vars[4] = { 0, 0, 0, 0 }, energy = 0.0f;
  float ratio, m;

  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++) {
      total += b[i][j];
      quarter[(i >> 2) + ((j >> 2) << 1)] += b[i][j];
    }
  mean = (float) total / 64.f;
  for (int q = 0; q < 4; q++)
    means[q] = (float) quarter[q] / 16.f;
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++) {
      const int q = (i >> 2) + ((j >> 2) << 1);
      const float v = (float) b[i][j];
      var = FADD (var, FMUL (FSUB (v, mean), FSUB (v, mean)));
      vars[q] = FADD (vars[q], FMUL (FSUB (v, means[q]), FSUB (v, means[q])));
    }
  var = FMUL (var, 1 / 63.f * 64);
  for (int q = 0; q < 4; q++)
    vars[q] = FMUL (vars[q], 1 / 15.f * 16);
  ratio = FADD (FADD (FADD (vars[0], vars[1]), vars[2]), vars[3]) / var;
  var = var > 0 ? ratio : var;
  for (int i = 0; i < 8; i++)
    for (int j = (i == 0); j < 8; j++)
      energy = FADD (energy, FMUL ((float) (int) ((unsigned int) c[i][j] *
                  (unsigned int) c[i][j]), mask[i * 8 + j]));
  m = FMUL (energy, var);
  return sqrtf (m) / 32.f;
}

template < typename T >
static __device__ void
hvs_load (int b[8][8], const unsigned char *plane, vh_u64 pitch,
    unsigned int step, unsigned int x, unsigned int y)
{
  for (int i = 0; i < 8; i++) {
    const T *row = (const T *) (plane + (vh_u64) (y + i) * pitch) +
        (vh_u64) x * step;
    for (int j = 0; j < 8; j++)
      b[i][j] = row[(vh_u64) j * step];
  }
}

template < typename T >
static __device__ void
hvs_blocks (const struct vh_hvs_plane_args &a)
{
  const unsigned int bx = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int by = blockIdx.y * blockDim.y + threadIdx.y;
  int b[8][8], rc[8][8], dc[8][8];
  float m, dm, *out;

  if (bx >= a.n_across || by >= a.n_down)
    return;
  hvs_load < T > (b, a.ref, a.ref_pitch, a.ref_step, 7 * bx, 7 * by);
  hvs_fdct8x8 (rc, b);
  m = hvs_block_mask (b, rc, a.mask);
  hvs_load < T > (b, a.dis, a.dis_pitch, a.dis_step, 7 * bx, 7 * by);
  hvs_fdct8x8 (dc, b);
  dm = hvs_block_mask (b, dc, a.mask);
  /* The stronger of the two blocks' masking applies. */
  m = dm > m ? dm : m;

  out = a.terms + ((vh_u64) by * a.n_across + bx) * 64;
  for (int i = 0; i < 8; i++) {
    for (int j = 0; j < 8; j++) {
      const int d = (int) ((unsigned int) rc[i][j] - (unsigned int) dc[i][j]);
      float err = (float) (d < 0 ? (int) (0u - (unsigned int) d) : d);
      const float csf = a.csf[i * 8 + j];
      if (i != 0 || j != 0) {
        const float threshold = m / a.mask[i * 8 + j];
        err = err < threshold ? 0.0f : FSUB (err, threshold);
      }
      out[i * 8 + j] = FMUL (FMUL (err, csf), FMUL (err, csf));
    }
  }
}

extern "C" __global__ void
vh_hvs_blocks_u8 (struct vh_hvs_plane_args a)
{
  hvs_blocks < unsigned char >(a);
}

extern "C" __global__ void
vh_hvs_blocks_u16 (struct vh_hvs_plane_args a)
{
  hvs_blocks < unsigned short >(a);
}

/* Must match the layout in hip-psnr-hvs.c. */
struct vh_hvs_sum_args
{
  const float *terms[3];
  unsigned int n_blocks[3];
  unsigned int pad;
};

#define VH_HVS_CHUNK 2048       /* floats staged at a time */
#define VH_HVS_SUM_THREADS 128  /* half sums (thread 0), half loads */

/* The loading threads' part: chunk @c of the @n terms into @buf. */
static __device__ __forceinline__ void
hvs_stage (float *buf, const float *terms, vh_u64 n, vh_u64 c, int lane,
    int n_lanes)
{
  const vh_u64 base = c * VH_HVS_CHUNK;

  for (int i = lane; i < VH_HVS_CHUNK && base + i < n; i += n_lanes)
    buf[i] = terms[base + i];
}

/* One block of VH_HVS_SUM_THREADS per plane; @out: each plane's sum.
 * Thread 0 adds the terms in order from shared memory while the threads
 * of the other half stage the next chunk, so the serial adds do not wait
 * for memory. */
extern "C" __global__ void
vh_hvs_sum (struct vh_hvs_sum_args a, float *out)
{
  __shared__ float buf[2][VH_HVS_CHUNK];
  const unsigned int p = blockIdx.x;
  const int tid = threadIdx.x, half = VH_HVS_SUM_THREADS / 2;
  const vh_u64 n = (vh_u64) a.n_blocks[p] * 64;
  const vh_u64 n_chunks = (n + VH_HVS_CHUNK - 1) / VH_HVS_CHUNK;
  const float *terms = a.terms[p];
  float sum = 0.0f;

  if (tid >= half)
    hvs_stage (buf[0], terms, n, 0, tid - half, half);
  __syncthreads ();
  for (vh_u64 c = 0; c < n_chunks; c++) {
    if (tid >= half && c + 1 < n_chunks) {
      hvs_stage (buf[(c + 1) & 1], terms, n, c + 1, tid - half, half);
    } else if (tid == 0) {
      const float *f = buf[c & 1];
      const vh_u64 left = n - c * VH_HVS_CHUNK;
      const int m = left < VH_HVS_CHUNK ? (int) left : VH_HVS_CHUNK;
      for (int i = 0; i < m; i++)
        sum = FADD (sum, f[i]);
    }
    __syncthreads ();
  }
  if (tid == 0)
    out[p] = sum;
}
