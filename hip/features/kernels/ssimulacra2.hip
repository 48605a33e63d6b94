/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* SSIMULACRA 2 on the GPU, operation for operation the CPU twin's
 * (src/features/ssimulacra2-color.c, ssimulacra2-maps.c; the order is in
 * ssimulacra2.h). Planes live in one allocation of equal slots, each
 * holding every scale's plane one after the other (rows packed), so that
 * every scale is in memory at once:
 *
 *  1. vh_ssimu2_pyramid, every scale's XYB and products (the squares and
 *     the product per channel) in one launch: a block per 32 x 32 tile of
 *     the frame, Y'CbCr to 16-bit R'G'B' and, through the CPU twin's
 *     table, linear light, then each later scale's 2x2 averages of the
 *     tile in shared memory (a tile holds all that its pixels average
 *     into), so linear light never goes to memory;
 *  2. each pass once for every scale, blocks numbered across the scales,
 *     the largest scale's first, so that the small scales' serial chains
 *     run beside the first scale's instead of after them:
 *     vh_ssimu2_blur_rows, 64 rows of one of the 15 planes to blur a
 *     block, a thread per row, reading and writing through shared memory
 *     in 32-column chunks (coalesced), the chunk two ahead in flight in
 *     registers while one is computed; vh_ssimu2_blur_cols, 64 columns a
 *     block, a thread per column, rows two chunks ahead in flight the
 *     same way; vh_ssimu2_rows, 32 threads per row and channel, the row's
 *     six sums in double; and vh_ssimu2_total, a block per scale, the
 *     rows' sums in row order into the frame's slot, staged through
 *     shared memory.
 *
 * Cost per frame, in passes over a plane of the first scale (reads +
 * writes of W x H floats; the other scales add about a third), and
 * launches for six scales:
 *   before issue 33's second round: linear 6 + XYB 6 + products 9
 *   written, 6 read by the downsampling, row blur 15 + 15, column blur
 *   15 + 15, row sums 7 per channel: 108 passes (the count of 88 written
 *   here then took the row sums as 7 and left out the downsampling's
 *   reads), 30 launches (1 + 5 downsample + 6 scales x 4), one scale
 *   after the other: a frame took the sum of every scale's serial chains;
 *   now: XYB 6 + products 9 written, row blur 30, column blur 30, row
 *   sums 21: 96 passes, 5 launches, the scales' chains side by side (a
 *   frame takes about the longest), each block's loads of the next chunk
 *   overlapping its arithmetic; inside the plane the row chain's step
 *   is about 19 instructions an output (PTX, sm_90) instead of 34 and
 *   the column chain's about 17 instead of 45: the radius a constant and
 *   the rings' ends copied, so that a chunk's window is read at constant
 *   offsets without wrapping or bounds.
 *
 * Single precision where the C has it, fused multiply-adds (fmaf) exactly
 * where the C calls fmaf, and no other contraction. */

#if defined(__HIP__) && !defined(__HIPCC_RTC__) && !defined(VH_HIP_RTC)
#include <hip/hip_runtime.h>
#endif

#if defined(__CUDACC__)
#define FMUL(a, b) __fmul_rn ((a), (b))
#define FADD(a, b) __fadd_rn ((a), (b))
#define FSUB(a, b) __fadd_rn ((a), -(b))
#define FDIV(a, b) __fdiv_rn ((a), (b))
#define DMUL(a, b) __dmul_rn ((a), (b))
#define DADD(a, b) __dadd_rn ((a), (b))
#define DSUB(a, b) __dadd_rn ((a), -(b))
#define DDIV(a, b) __ddiv_rn ((a), (b))
#else
#pragma clang fp contract(off)
#define FMUL(a, b) ((a) * (b))
#define FADD(a, b) ((a) + (b))
#define FSUB(a, b) ((a) - (b))
#define FDIV(a, b) ((a) / (b))
#define DMUL(a, b) ((double) (a) * (double) (b))
#define DADD(a, b) ((double) (a) + (double) (b))
#define DSUB(a, b) ((double) (a) - (double) (b))
#define DDIV(a, b) ((double) (a) / (double) (b))
#endif

typedef unsigned long long vh_u64;

#define VH_SSIMU2_N_SCALES 6
#define VH_SSIMU2_SUMS 6
#define VH_SSIMU2_LANES 32
#define VH_SSIMU2_ROWS_PER_BLOCK 8
#define VH_SSIMU2_C2 0.0009f
#define VH_SSIMU2_TOTAL_THREADS 256
#define VH_SSIMU2_TOTAL_ROWS 128

/* Plane slots, each holding every scale's plane (VH_SSIMU2_N_SCALES
 * offsets). */
#define VH_SSIMU2_MU(side, c) ((side) * 3 + (c))
#define VH_SSIMU2_XYB(side, c) (6 + (side) * 3 + (c))
#define VH_SSIMU2_PROD(c, k) (12 + (c) * 3 + (k))
#define VH_SSIMU2_TMP(q) (21 + (q))
#define VH_SSIMU2_N_SLOTS 36

/* Must match the layout in hip-ssimulacra2.c. */
struct vh_ssimu2_pic
{
  const unsigned char *data[3];
  vh_u64 pitch[3];
  unsigned int step[3];
  unsigned int width[3];
  unsigned int height[3];
  unsigned int pad;
};

/* Y'CbCr to R'G'B' of one input. */
struct vh_ssimu2_yuv
{
  float y_offset, y_scale, c_offset, c_scale;
  float cr_r, cb_g, cr_g, cb_b;
};

struct vh_ssimu2_args
{
  struct vh_ssimu2_pic pic[2];  /* reference, distorted */
  float *planes;                /* VH_SSIMU2_N_SLOTS slots */
  const float *to_linear;       /* 65536 */
  double *row_sums;             /* per scale: 3 channels x its rows x 6 */
  vh_u64 slot;                  /* floats per slot: every scale's plane */
  vh_u64 offset[VH_SSIMU2_N_SCALES];    /* a scale's plane in a slot */
  struct vh_ssimu2_yuv yuv[2];  /* reference, distorted: each its own */
  float mix[9];
  float bias, neg_bias_cbrt;
  float n2[3], d1[3];
  float mul_in[12], mul_prev[12], mul_prev2[12];
  unsigned int ssx, ssy, grey, hbd;
  unsigned int n_scales;
  unsigned int width[VH_SSIMU2_N_SCALES], height[VH_SSIMU2_N_SCALES];
  unsigned int row_base[VH_SSIMU2_N_SCALES];    /* rows of the scales before */
  /* The launches over every scale at once: the first block of each scale
   * (largest first), and at n_scales the grid's size. */
  unsigned int blur_rows_start[VH_SSIMU2_N_SCALES + 1];
  unsigned int blur_cols_start[VH_SSIMU2_N_SCALES + 1];
  unsigned int rows_start[VH_SSIMU2_N_SCALES + 1];
  unsigned int pad;
};

/* One scale: its size, where its planes start in a slot and its rows in
 * the row sums; in a launch over every scale, also this block's index
 * among the scale's blocks. */
struct vh_ssimu2_scale
{
  unsigned int width, height;
  unsigned int row_base;
  unsigned int block;
  vh_u64 offset;
};

/* Scale @s, selected without indexing the arguments by a variable. */
static __device__ __forceinline__ struct vh_ssimu2_scale
ssimu2_scale (const struct vh_ssimu2_args &a, unsigned int s)
{
  struct vh_ssimu2_scale sc = { a.width[0], a.height[0], a.row_base[0], 0,
    a.offset[0]
  };

#pragma unroll
  for (unsigned int i = 1; i < VH_SSIMU2_N_SCALES; i++)
    if (i == s) {
      sc.width = a.width[i];
      sc.height = a.height[i];
      sc.row_base = a.row_base[i];
      sc.offset = a.offset[i];
    }
  return sc;
}

/* The scale block @b of a launch over every scale belongs to (@start: the
 * first block of each scale). */
static __device__ __forceinline__ struct vh_ssimu2_scale
ssimu2_block_scale (const struct vh_ssimu2_args &a, const unsigned int *start,
    unsigned int b)
{
  unsigned int s = 0, first = 0;
  struct vh_ssimu2_scale sc;

#pragma unroll
  for (unsigned int i = 1; i < VH_SSIMU2_N_SCALES; i++)
    if (i < a.n_scales && b >= start[i]) {
      s = i;
      first = start[i];
    }
  sc = ssimu2_scale (a, s);
  sc.block = b - first;
  return sc;
}

/* Slot @slot's plane of the scale at @offset. */
static __device__ __forceinline__ float *
ssimu2_plane (const struct vh_ssimu2_args &a, unsigned int slot,
    vh_u64 offset)
{
  return a.planes + (vh_u64) slot * a.slot + offset;
}

static __device__ __forceinline__ unsigned int
ssimu2_sample (const struct vh_ssimu2_pic &p, bool hbd, unsigned int plane,
    unsigned int x, unsigned int y)
{
  const unsigned char *row = p.data[plane] + (vh_u64) y * p.pitch[plane];
  const vh_u64 i = (vh_u64) x * p.step[plane];

  return hbd ? ((const unsigned short *) row)[i] : row[i];
}

static __device__ unsigned int
ssimu2_chroma_h2 (const struct vh_ssimu2_args &a,
    const struct vh_ssimu2_pic &p, unsigned int plane, unsigned int x,
    unsigned int cy)
{
  const bool hbd = a.hbd != 0;
  unsigned int k, k1;

  if (!a.ssx)
    return 2 * ssimu2_sample (p, hbd, plane, x, cy);
  k = x >> 1;
  if (!(x & 1))
    return 2 * ssimu2_sample (p, hbd, plane, k, cy);
  k1 = k + 1 < p.width[plane] ? k + 1 : p.width[plane] - 1;
  return ssimu2_sample (p, hbd, plane, k, cy) + ssimu2_sample (p, hbd,
      plane, k1, cy);
}

static __device__ unsigned int
ssimu2_chroma_num (const struct vh_ssimu2_args &a,
    const struct vh_ssimu2_pic &p, unsigned int plane, unsigned int x,
    unsigned int y)
{
  const unsigned int ch = p.height[plane];
  unsigned int k, other;

  if (!a.ssy)
    return 4 * ssimu2_chroma_h2 (a, p, plane, x, y);
  k = y >> 1;
  if (!(y & 1))
    other = k > 0 ? k - 1 : 0;
  else
    other = k + 1 < ch ? k + 1 : ch - 1;
  return 3 * ssimu2_chroma_h2 (a, p, plane, x, k) + ssimu2_chroma_h2 (a, p,
      plane, x, other);
}

static __device__ __forceinline__ unsigned int
ssimu2_quantise (float v)
{
  v = v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
  return (unsigned int) FADD (FMUL (v, 65535.0f), 0.5f);
}

/* cbrt (x) + add, the CPU twin's ssimu2_cbrt_add() step by step. */
static __device__ float
ssimu2_cbrt_add (float x, float add)
{
  const float third = 1.0f / 3, four_thirds = 4.0f / 3;
  const float x_3 = FMUL (third, x);
  const int bits = (int) __float_as_uint (x);
  float r, r2;

  r = __int_as_float (bits == 0 ? 0 : (int) (0x54800000u -
          (unsigned int) (bits >> 23) * 0x002AAAAAu));
  for (unsigned int i = 0; i < 3; i++) {
    r2 = FMUL (r, r);
    r = fmaf (-x_3, FMUL (r2, r2), FMUL (four_thirds, r));
  }
  r2 = FMUL (r, r);
  r = fmaf (third, fmaf (-x, FMUL (r2, r2), r), r);
  r2 = FMUL (r, r);
  return fmaf (r2, x, add);
}

/* Pixel @i of a slot (its scale's offset added) from both pictures'
 * linear R, G, B: their XYB, then per channel the two squares and the
 * product, from the values in registers (no pass of its own over
 * memory). */
static __device__ void
ssimu2_xyb_store (const struct vh_ssimu2_args &a, vh_u64 i,
    const float lin[2][3])
{
  float v[2][3];

  for (unsigned int side = 0; side < 2; side++) {
    float mixed[3], xv, yv, bv;

    for (unsigned int k = 0; k < 3; k++) {
      float m = fmaf (a.mix[3 * k], lin[side][0], fmaf (a.mix[3 * k + 1],
              lin[side][1], fmaf (a.mix[3 * k + 2], lin[side][2], a.bias)));
      mixed[k] = ssimu2_cbrt_add (m < 0.0f ? 0.0f : m, a.neg_bias_cbrt);
    }
    xv = FMUL (0.5f, FSUB (mixed[0], mixed[1]));
    yv = FMUL (0.5f, FADD (mixed[0], mixed[1]));
    bv = mixed[2];
    v[side][2] = FADD (FSUB (bv, yv), 0.55f);
    v[side][0] = FADD (FMUL (xv, 14.0f), 0.42f);
    v[side][1] = FADD (yv, 0.01f);
    for (unsigned int c = 0; c < 3; c++)
      ssimu2_plane (a, VH_SSIMU2_XYB (side, c), 0)[i] = v[side][c];
  }
  for (unsigned int c = 0; c < 3; c++) {
    const float x1 = v[0][c], x2 = v[1][c];

    ssimu2_plane (a, VH_SSIMU2_PROD (c, 0), 0)[i] = FMUL (x1, x1);
    ssimu2_plane (a, VH_SSIMU2_PROD (c, 1), 0)[i] = FMUL (x2, x2);
    ssimu2_plane (a, VH_SSIMU2_PROD (c, 2), 0)[i] = FMUL (x1, x2);
  }
}

/* Both pictures' linear R, G, B at pixel (@x, @y) of the frame. */
static __device__ void
ssimu2_linear_pixel (const struct vh_ssimu2_args &a, unsigned int x,
    unsigned int y, float lin[2][3])
{
  for (unsigned int side = 0; side < 2; side++) {
    const struct vh_ssimu2_pic &p = a.pic[side];
    const struct vh_ssimu2_yuv &k = a.yuv[side];
    float luma, cb = 0.0f, cr = 0.0f;

    luma = FMUL (FSUB ((float) ssimu2_sample (p, a.hbd != 0, 0, x, y),
            k.y_offset), k.y_scale);
    if (!a.grey) {
      cb = FMUL (FSUB (FMUL ((float) ssimu2_chroma_num (a, p, 1, x, y),
                  0.125f), k.c_offset), k.c_scale);
      cr = FMUL (FSUB (FMUL ((float) ssimu2_chroma_num (a, p, 2, x, y),
                  0.125f), k.c_offset), k.c_scale);
    }
    lin[side][0] = a.to_linear[ssimu2_quantise (FADD (luma, FMUL (k.cr_r,
                cr)))];
    lin[side][1] = a.to_linear[ssimu2_quantise (FSUB (FSUB (luma,
                FMUL (k.cb_g, cb)), FMUL (k.cr_g, cr)))];
    lin[side][2] = a.to_linear[ssimu2_quantise (FADD (luma, FMUL (k.cb_b,
                cb)))];
  }
}

/* The scales a tile at a time: a tile of VH_SSIMU2_TILE x VH_SSIMU2_TILE
 * pixels of the first scale holds every pixel of the later scales that
 * its pixels average into (2^5 for six scales; the 2x2 averages' repeated
 * last row and column stay inside the tile), so a block makes every
 * scale of its tile in shared memory, the linear planes never going to
 * memory. Blocks of VH_SSIMU2_TILE x VH_SSIMU2_TILE_ROWS threads. */
#define VH_SSIMU2_TILE 32
#define VH_SSIMU2_TILE_ROWS 8

#if VH_SSIMU2_TILE < 1 << (VH_SSIMU2_N_SCALES - 1)
#error "a tile must hold a pixel of the last scale"
#endif

/* A scale's six linear planes in the tile: scales 0, 2, 4 in the even
 * buffer (rows VH_SSIMU2_TILE apart), 1, 3, 5 in the odd one (rows half
 * that apart), so that a scale is made from the other buffer. */
static __device__ __forceinline__ unsigned int
ssimu2_tile_stride (unsigned int scale)
{
  return scale & 1 ? VH_SSIMU2_TILE / 2 : VH_SSIMU2_TILE;
}

/* Every scale's XYB and products (and at the first scale the linear light
 * from Y'CbCr), one tile of the first scale a block, each later scale
 * from the one before in shared memory. */
extern "C" __global__ void
vh_ssimu2_pyramid (struct vh_ssimu2_args a, double *out)
{
  __shared__ float even[6 * VH_SSIMU2_TILE * VH_SSIMU2_TILE];
  __shared__ float odd[6 * VH_SSIMU2_TILE * VH_SSIMU2_TILE / 4];
  const unsigned int t = threadIdx.y * VH_SSIMU2_TILE + threadIdx.x;
  const unsigned int plane0 = VH_SSIMU2_TILE * VH_SSIMU2_TILE;

  for (unsigned int ly = threadIdx.y; ly < VH_SSIMU2_TILE;
      ly += VH_SSIMU2_TILE_ROWS) {
    const unsigned int x = blockIdx.x * VH_SSIMU2_TILE + threadIdx.x;
    const unsigned int y = blockIdx.y * VH_SSIMU2_TILE + ly;
    float lin[2][3];

    if (x >= a.width[0] || y >= a.height[0])
      continue;
    ssimu2_linear_pixel (a, x, y, lin);
    for (unsigned int p = 0; p < 6; p++)
      even[p * plane0 + ly * VH_SSIMU2_TILE + threadIdx.x] = lin[p / 3][p % 3];
    ssimu2_xyb_store (a, (vh_u64) y * a.width[0] + x, lin);
  }
  for (unsigned int s = 1; s < a.n_scales; s++) {
    const struct vh_ssimu2_scale from = ssimu2_scale (a, s - 1);
    const struct vh_ssimu2_scale to = ssimu2_scale (a, s);
    const unsigned int ts = VH_SSIMU2_TILE >> s;
    const unsigned int ox = t % ts, oy = t / ts;
    const unsigned int gx = blockIdx.x * ts + ox, gy = blockIdx.y * ts + oy;
    const float *src = s & 1 ? even : odd;
    float *dst = s & 1 ? odd : even;
    const unsigned int ss = ssimu2_tile_stride (s - 1);
    const unsigned int ds = ssimu2_tile_stride (s);

    __syncthreads ();
    if (t < ts * ts && gx < to.width && gy < to.height) {
      /* The previous scale's columns and rows in the tile, the last one
       * repeated at the frame's edge. */
      const unsigned int x0 = 2 * ox, y0 = 2 * oy;
      const unsigned int x1 = (2 * gx + 1 < from.width ? 2 * gx + 1 :
          from.width - 1) - blockIdx.x * 2 * ts;
      const unsigned int y1 = (2 * gy + 1 < from.height ? 2 * gy + 1 :
          from.height - 1) - blockIdx.y * 2 * ts;
      float lin[2][3];

      for (unsigned int p = 0; p < 6; p++) {
        const float *in = src + p * ss * ss;
        const float v = FMUL (FADD (FADD (FADD (in[y0 * ss + x0],
                        in[y0 * ss + x1]), in[y1 * ss + x0]),
                in[y1 * ss + x1]), 0.25f);

        dst[p * ds * ds + oy * ds + ox] = v;
        lin[p / 3][p % 3] = v;
      }
      ssimu2_xyb_store (a, to.offset + (vh_u64) gy * to.width + gx, lin);
    }
  }
}

/* Blurred plane @q (channel q / 5; of it the two squares and the product,
 * then each picture's XYB): its input and its output slots. */
static __device__ __forceinline__ unsigned int
ssimu2_blur_in (unsigned int q)
{
  const unsigned int c = q / 5, j = q % 5;

  return j < 3 ? VH_SSIMU2_PROD (c, j) : VH_SSIMU2_XYB (j - 3, c);
}

static __device__ __forceinline__ unsigned int
ssimu2_blur_out (unsigned int q)
{
  const unsigned int c = q / 5, j = q % 5;

  return j < 3 ? VH_SSIMU2_PROD (c, j) : VH_SSIMU2_MU (j - 3, c);
}

/* The blur's radius: libjxl's for sigma 1.5, the only one the CPU twin
 * sets up (the host checks it), so that the window's offsets are
 * constants. */
#define VH_SSIMU2_RADIUS 5
#define VH_SSIMU2_FIRST_ALIGNED ((VH_SSIMU2_RADIUS + 1 + 3) / 4 * 4)

/* The row pass reads its rows through shared memory: a block of
 * VH_SSIMU2_BLUR_ROWS rows (a thread each) loads VH_SSIMU2_BLUR_CHUNK
 * columns of all its rows at a time with coalesced loads into a ring of
 * VH_SSIMU2_BLUR_RING columns per row (a chunk behind, the current one,
 * one ahead and the one being filled), and writes each chunk of outputs
 * back the same way. A row of the ring starts and ends with copies
 * (VH_SSIMU2_BLUR_PAD columns each) of the ring's other end, so that a
 * chunk's window, VH_SSIMU2_BLUR_PAD columns either side of it, is one
 * contiguous run at constant offsets. Row stride odd: no bank conflicts
 * when each thread reads its own row. */
#define VH_SSIMU2_BLUR_ROWS 64
#define VH_SSIMU2_BLUR_CHUNK 32
#define VH_SSIMU2_BLUR_RING 128
#define VH_SSIMU2_BLUR_PAD 8
#define VH_SSIMU2_BLUR_STRIDE (VH_SSIMU2_BLUR_RING + 2 * VH_SSIMU2_BLUR_PAD + 1)
#define VH_SSIMU2_BLUR_COLS 64

/* The blurs' blocks are 64 threads (VH_SSIMU2_BLUR_ROWS, _COLS): told to
 * the compilers, so that AMD's gives a thread the registers of a 64-thread
 * block instead of spilling the chunk in flight to scratch. */
#if defined(__HIP__)
#define VH_SSIMU2_BLUR_BOUNDS __attribute__ ((amdgpu_flat_work_group_size (1, 64)))
#elif defined(__CUDACC__)
#define VH_SSIMU2_BLUR_BOUNDS __launch_bounds__ (64)
#else
#define VH_SSIMU2_BLUR_BOUNDS
#endif

#if VH_SSIMU2_RADIUS + 1 > VH_SSIMU2_BLUR_PAD
#error "the row pass's window reaches past the ring's copies"
#endif

static __device__ __forceinline__ float
ssimu2_ring (const float *ring, int n)
{
  return ring[VH_SSIMU2_BLUR_PAD + (n & (VH_SSIMU2_BLUR_RING - 1))];
}

/* One output of the row recursion with bounds checks (the scalar start
 * and end); @out holds the chunk that starts at column @c0. */
static __device__ void
ssimu2_blur_step (const struct vh_ssimu2_args &a, const float *ring,
    int width, int n, float *prev, float *prev2, float *out, int c0)
{
  const int N = VH_SSIMU2_RADIUS, left = n - N - 1, right = n + N - 1;
  const float sum = FADD (left >= 0 ? ssimu2_ring (ring, left) : 0.0f,
      right < width ? ssimu2_ring (ring, right) : 0.0f);
  float o[3];

  for (unsigned int k = 0; k < 3; k++) {
    o[k] = FMUL (sum, a.mul_in[4 * k]);
    o[k] = fmaf (a.mul_prev2[4 * k], prev2[k], o[k]);
    o[k] = fmaf (a.mul_prev[4 * k], prev[k], o[k]);
    prev2[k] = prev[k];
    prev[k] = o[k];
  }
  if (n >= 0)
    out[n - c0] = FADD (o[0], FADD (o[1], o[2]));
}

/* Four outputs at once from the four window sums, libjxl's order. */
static __device__ __forceinline__ void
ssimu2_blur_four (const struct vh_ssimu2_args &a, const float sum[4],
    float *prev, float *prev2, float *out)
{
  float g[3][4];

  for (unsigned int k = 0; k < 3; k++) {
    for (unsigned int j = 0; j < 4; j++) {
      float v = FMUL (sum[0], a.mul_in[4 * k + j]);

      for (unsigned int t = 1; t <= j; t++)
        v = fmaf (a.mul_in[4 * k + j - t], sum[t], v);
      v = fmaf (a.mul_prev2[4 * k + j], prev2[k], v);
      g[k][j] = fmaf (a.mul_prev[4 * k + j], prev[k], v);
    }
    prev2[k] = g[k][2];
    prev[k] = g[k][3];
  }
  for (unsigned int j = 0; j < 4; j++)
    out[j] = FADD (g[0][j], FADD (g[1][j], g[2][j]));
}

/* Outputs @lo to @hi (exclusive) of a row, the CPU twin's steps: one by
 * one below VH_SSIMU2_FIRST_ALIGNED (a multiple of four), four at a time
 * while the window stays inside the row, then one by one. Chunks start at
 * multiples of four, so a group of four never straddles two. */
static __device__ void
ssimu2_blur_span (const struct vh_ssimu2_args &a, const float *ring,
    int width, int lo, int hi, float *prev, float *prev2, float *out, int c0)
{
  const int N = VH_SSIMU2_RADIUS;
  int n = lo;

  while (n < hi) {
    if (n >= VH_SSIMU2_FIRST_ALIGNED && n < width - N + 1 - 3) {
      float sum[4];

      for (int j = 0; j < 4; j++)
        sum[j] = FADD (ssimu2_ring (ring, n + j - N - 1),
            ssimu2_ring (ring, n + j + N - 1));
      ssimu2_blur_four (a, sum, prev, prev2, out + n - c0);
      n += 4;
    } else {
      ssimu2_blur_step (a, ring, width, n, prev, prev2, out, c0);
      n++;
    }
  }
}

/* A whole chunk of groups of four (the row's inside: no bounds to check),
 * from @win, the ring row's run that starts VH_SSIMU2_BLUR_PAD columns
 * before the chunk: constant offsets only. */
static __device__ __forceinline__ void
ssimu2_blur_chunk (const struct vh_ssimu2_args &a, const float *win,
    float *prev, float *prev2, float *out)
{
  const int N = VH_SSIMU2_RADIUS, P = VH_SSIMU2_BLUR_PAD;

#pragma unroll
  for (int n = 0; n < VH_SSIMU2_BLUR_CHUNK; n += 4) {
    float sum[4];

    for (int j = 0; j < 4; j++)
      sum[j] = FADD (win[P + n + j - N - 1], win[P + n + j + N - 1]);
    ssimu2_blur_four (a, sum, prev, prev2, out + n);
  }
}

/* Loads per thread of a chunk (VH_SSIMU2_BLUR_CHUNK columns of the
 * block's rows, or rows of its columns): the block has a thread per row
 * (per column). */
#define VH_SSIMU2_BLUR_LOADS VH_SSIMU2_BLUR_CHUNK

/* Issues this thread's share of columns @c0 to @c0 + VH_SSIMU2_BLUR_CHUNK
 * of the block's rows (from @y0) into @v, zero past the plane's edges:
 * column c0 + t % CHUNK of rows t / CHUNK + k ROWS / CHUNK, so that a
 * warp's loads are a row's coalesced chunk. */
static __device__ __forceinline__ void
ssimu2_blur_fetch (const float *plane, unsigned int w, unsigned int h,
    unsigned int y0, int c0, float v[VH_SSIMU2_BLUR_LOADS])
{
  const unsigned int rows_apart = VH_SSIMU2_BLUR_ROWS / VH_SSIMU2_BLUR_CHUNK;
  const unsigned int col = (unsigned int) c0 +
      threadIdx.x % VH_SSIMU2_BLUR_CHUNK;
  const unsigned int y = y0 + threadIdx.x / VH_SSIMU2_BLUR_CHUNK;
  const vh_u64 step = (vh_u64) rows_apart * w;
  const float *p = plane + (vh_u64) y * w + col;

#pragma unroll
  for (unsigned int k = 0; k < VH_SSIMU2_BLUR_LOADS; k++) {
    v[k] = y + k * rows_apart < h && col < w ? *p : 0.0f;
    p += step;
  }
}

/* The chunk of outputs in @outs (from column @c0) to the plane, as
 * ssimu2_blur_fetch() reads: a warp's stores are a row's coalesced
 * chunk. */
static __device__ __forceinline__ void
ssimu2_blur_store (float *plane, unsigned int w, unsigned int h,
    unsigned int y0, int c0,
    const float (*outs)[VH_SSIMU2_BLUR_CHUNK + 1])
{
  const unsigned int rows_apart = VH_SSIMU2_BLUR_ROWS / VH_SSIMU2_BLUR_CHUNK;
  const unsigned int c = threadIdx.x % VH_SSIMU2_BLUR_CHUNK;
  const unsigned int r = threadIdx.x / VH_SSIMU2_BLUR_CHUNK;
  const unsigned int col = (unsigned int) c0 + c;
  const vh_u64 step = (vh_u64) rows_apart * w;
  float *p = plane + (vh_u64) (y0 + r) * w + col;

  if (col >= w)
    return;
#pragma unroll
  for (unsigned int k = 0; k < VH_SSIMU2_BLUR_LOADS; k++) {
    if (y0 + r + k * rows_apart < h)
      *p = outs[r + k * rows_apart][c];
    p += step;
  }
}

/* The values ssimu2_blur_fetch() issued, into the ring, and those of
 * its first and last VH_SSIMU2_BLUR_PAD columns into their copies. */
static __device__ __forceinline__ void
ssimu2_blur_put (float (*ring)[VH_SSIMU2_BLUR_STRIDE], int c0,
    const float v[VH_SSIMU2_BLUR_LOADS])
{
  const unsigned int pos = ((unsigned int) c0 +
      threadIdx.x % VH_SSIMU2_BLUR_CHUNK) & (VH_SSIMU2_BLUR_RING - 1);
  const unsigned int col = VH_SSIMU2_BLUR_PAD + pos;
  const unsigned int r0 = threadIdx.x / VH_SSIMU2_BLUR_CHUNK;
  const bool head = pos < VH_SSIMU2_BLUR_PAD;
  const bool tail = pos >= VH_SSIMU2_BLUR_RING - VH_SSIMU2_BLUR_PAD;
  const unsigned int copy = head ? col + VH_SSIMU2_BLUR_RING :
      col - VH_SSIMU2_BLUR_RING;

#pragma unroll
  for (unsigned int k = 0; k < VH_SSIMU2_BLUR_LOADS; k++) {
    float *row = ring[r0 + k * (VH_SSIMU2_BLUR_ROWS / VH_SSIMU2_BLUR_CHUNK)];

    row[col] = v[k];
    if (head || tail)
      row[copy] = v[k];
  }
}

/* VH_SSIMU2_BLUR_ROWS threads a block, a row each, of one of the 15
 * planes of one scale: one launch for every scale, blocks numbered across
 * the scales from blur_rows_start (largest first, so that the longest
 * chains start first), each scale's blocks plane after plane. The loads
 * of the chunk two ahead are in flight (in registers) while the current
 * chunk is computed. */
extern "C" __global__ void VH_SSIMU2_BLUR_BOUNDS
vh_ssimu2_blur_rows (struct vh_ssimu2_args a, double *out)
{
  __shared__ float ring[VH_SSIMU2_BLUR_ROWS][VH_SSIMU2_BLUR_STRIDE];
  __shared__ float outs[VH_SSIMU2_BLUR_ROWS][VH_SSIMU2_BLUR_CHUNK + 1];
  const struct vh_ssimu2_scale sc = ssimu2_block_scale (a,
      a.blur_rows_start, blockIdx.x);
  const unsigned int tiles = (sc.height + VH_SSIMU2_BLUR_ROWS - 1) /
      VH_SSIMU2_BLUR_ROWS;
  const unsigned int q = sc.block / tiles;
  const unsigned int r = threadIdx.x;
  const unsigned int y0 = sc.block % tiles * VH_SSIMU2_BLUR_ROWS;
  const unsigned int w = sc.width, h = sc.height;
  const int width = (int) w, N = VH_SSIMU2_RADIUS;
  const float *in = ssimu2_plane (a, ssimu2_blur_in (q), sc.offset);
  float *o = ssimu2_plane (a, VH_SSIMU2_TMP (q), sc.offset);
  float prev[3] = { 0, 0, 0 }, prev2[3] = { 0, 0, 0 };
  float v[VH_SSIMU2_BLUR_LOADS];

  ssimu2_blur_fetch (in, w, h, y0, 0, v);
  ssimu2_blur_put (ring, 0, v);
  ssimu2_blur_fetch (in, w, h, y0, VH_SSIMU2_BLUR_CHUNK, v);
  ssimu2_blur_put (ring, VH_SSIMU2_BLUR_CHUNK, v);
  ssimu2_blur_fetch (in, w, h, y0, 2 * VH_SSIMU2_BLUR_CHUNK, v);
  __syncthreads ();
  /* The outputs before the row's start only set the recursion's state. */
  ssimu2_blur_span (a, ring[r], width, -N + 1, 0, prev, prev2, outs[r], 0);
  for (int c0 = 0; c0 < width; c0 += VH_SSIMU2_BLUR_CHUNK) {
    const int hi = c0 + VH_SSIMU2_BLUR_CHUNK < width ?
        c0 + VH_SSIMU2_BLUR_CHUNK : width;

    /* Inside the row, where every output is in a group of four, the
     * chunk takes the path without bounds. */
    if (c0 >= VH_SSIMU2_FIRST_ALIGNED &&
        c0 + VH_SSIMU2_BLUR_CHUNK - 4 < width - N + 1 - 3)
      ssimu2_blur_chunk (a, ring[r] + (c0 & (VH_SSIMU2_BLUR_RING - 1)),
          prev, prev2, outs[r]);
    else
      ssimu2_blur_span (a, ring[r], width, c0, hi, prev, prev2, outs[r],
          c0);
    __syncthreads ();
    ssimu2_blur_store (o, w, h, y0, c0, outs);
    /* The chunk two ahead takes the place of the one two behind, which
     * the window has left. */
    ssimu2_blur_put (ring, c0 + 2 * VH_SSIMU2_BLUR_CHUNK, v);
    ssimu2_blur_fetch (in, w, h, y0, c0 + 3 * VH_SSIMU2_BLUR_CHUNK, v);
    __syncthreads ();
  }
}

/* Row @r of the column pass's ring (as the row pass's, VH_SSIMU2_BLUR_PAD
 * copied rows at either end), this thread's column. */
static __device__ __forceinline__ float
ssimu2_col_ring (const float (*ring)[VH_SSIMU2_BLUR_COLS], int r)
{
  return ring[VH_SSIMU2_BLUR_PAD + (r & (VH_SSIMU2_BLUR_RING - 1))]
      [threadIdx.x];
}

/* Rows @r0 to @r0 + VH_SSIMU2_BLUR_CHUNK of this thread's column into the
 * ring, and those of its first and last VH_SSIMU2_BLUR_PAD rows into
 * their copies. */
static __device__ __forceinline__ void
ssimu2_col_put (float (*ring)[VH_SSIMU2_BLUR_COLS], int r0,
    const float v[VH_SSIMU2_BLUR_LOADS])
{
  const unsigned int t = threadIdx.x;

#pragma unroll
  for (int k = 0; k < VH_SSIMU2_BLUR_LOADS; k++) {
    const unsigned int pos = (unsigned int) (r0 + k) &
        (VH_SSIMU2_BLUR_RING - 1);

    ring[VH_SSIMU2_BLUR_PAD + pos][t] = v[k];
    if (pos < VH_SSIMU2_BLUR_PAD)
      ring[VH_SSIMU2_BLUR_PAD + VH_SSIMU2_BLUR_RING + pos][t] = v[k];
    if (pos >= VH_SSIMU2_BLUR_RING - VH_SSIMU2_BLUR_PAD)
      ring[pos - (VH_SSIMU2_BLUR_RING - VH_SSIMU2_BLUR_PAD)][t] = v[k];
  }
}

/* One output of the column recursion from the window's two rows. */
static __device__ __forceinline__ float
ssimu2_col_step (const struct vh_ssimu2_args &a, float top, float bottom,
    float *prev, float *prev2)
{
  const float sum = FADD (top, bottom);
  float acc[3];

  for (unsigned int k = 0; k < 3; k++) {
    acc[k] = fmaf (a.n2[k], sum, fmaf (-a.d1[k], prev[k], -prev2[k]));
    prev2[k] = prev[k];
    prev[k] = acc[k];
  }
  return FADD (acc[0], FADD (acc[1], acc[2]));
}

/* VH_SSIMU2_BLUR_COLS threads a block, a column each, of one of the 15
 * planes of one scale, blocks numbered as the row pass's (from
 * blur_cols_start). Each thread reads only its own column of the ring
 * (VH_SSIMU2_BLUR_RING rows), so no barrier is needed; the rows two
 * chunks ahead are loaded into registers (a warp's load of a row is
 * coalesced) while the current chunk is computed, and the outputs are
 * stored straight away (a row of the warp's columns is one coalesced
 * store). Inside the plane a chunk's window is read at constant offsets,
 * without bounds, as in the row pass. */
extern "C" __global__ void VH_SSIMU2_BLUR_BOUNDS
vh_ssimu2_blur_cols (struct vh_ssimu2_args a, double *out)
{
  __shared__ float ring[VH_SSIMU2_BLUR_RING + 2 * VH_SSIMU2_BLUR_PAD]
      [VH_SSIMU2_BLUR_COLS];
  const struct vh_ssimu2_scale sc = ssimu2_block_scale (a,
      a.blur_cols_start, blockIdx.x);
  const unsigned int tiles = (sc.width + VH_SSIMU2_BLUR_COLS - 1) /
      VH_SSIMU2_BLUR_COLS;
  const unsigned int q = sc.block / tiles;
  const unsigned int t = threadIdx.x;
  const unsigned int x = sc.block % tiles * VH_SSIMU2_BLUR_COLS + t;
  const int height = (int) sc.height, N = VH_SSIMU2_RADIUS;
  const int P = VH_SSIMU2_BLUR_PAD;
  const vh_u64 w = sc.width;
  const bool inside = x < sc.width;
  const float *in = ssimu2_plane (a, VH_SSIMU2_TMP (q), sc.offset) + x;
  float *o = ssimu2_plane (a, ssimu2_blur_out (q), sc.offset) + x;
  float prev[3] = { 0, 0, 0 }, prev2[3] = { 0, 0, 0 };
  float v[VH_SSIMU2_BLUR_LOADS];
  int n = -N + 1;

  for (int r0 = 0; r0 < 3 * VH_SSIMU2_BLUR_CHUNK;
      r0 += VH_SSIMU2_BLUR_CHUNK) {
#pragma unroll
    for (int k = 0; k < VH_SSIMU2_BLUR_LOADS; k++)
      v[k] = inside && r0 + k < height ? in[(vh_u64) (r0 + k) * w] : 0.0f;
    if (r0 < 2 * VH_SSIMU2_BLUR_CHUNK)
      ssimu2_col_put (ring, r0, v);
  }
  for (int r0 = 0; r0 < height; r0 += VH_SSIMU2_BLUR_CHUNK) {
    const int hi = r0 + VH_SSIMU2_BLUR_CHUNK < height ?
        r0 + VH_SSIMU2_BLUR_CHUNK : height;
    const int ahead = r0 + 3 * VH_SSIMU2_BLUR_CHUNK;

    if (r0 >= N + 1 && r0 + VH_SSIMU2_BLUR_CHUNK - 1 + N - 1 < height) {
      /* Inside the plane: the window from the ring's run that starts
       * VH_SSIMU2_BLUR_PAD rows before the chunk. */
      const float (*win)[VH_SSIMU2_BLUR_COLS] =
          ring + (r0 & (VH_SSIMU2_BLUR_RING - 1));
      float *op = o + (vh_u64) r0 * w;

#pragma unroll
      for (int i = 0; i < VH_SSIMU2_BLUR_CHUNK; i++) {
        const float r = ssimu2_col_step (a, win[P + i - N - 1][t],
            win[P + i + N - 1][t], prev, prev2);

        if (inside)
          *op = r;
        op += w;
      }
      n = hi;
    } else {
      /* The first chunk also takes the outputs before the plane's top,
       * which only set the recursion's state. */
      for (; n < hi; n++) {
        const int top = n - N - 1, bottom = n + N - 1;
        const float r = ssimu2_col_step (a,
            top >= 0 ? ssimu2_col_ring (ring, top) : 0.0f,
            bottom < height ? ssimu2_col_ring (ring, bottom) : 0.0f,
            prev, prev2);

        if (n >= 0 && inside)
          o[(vh_u64) n * w] = r;
      }
    }
    /* The rows two chunks ahead take the place of those two behind,
     * which the window has left; then the next chunk's loads go out. */
    ssimu2_col_put (ring, r0 + 2 * VH_SSIMU2_BLUR_CHUNK, v);
#pragma unroll
    for (int k = 0; k < VH_SSIMU2_BLUR_LOADS; k++)
      v[k] = inside && ahead + k < height ?
          in[(vh_u64) (ahead + k) * w] : 0.0f;
  }
}

/* A row of 32 threads per row (VH_SSIMU2_ROWS_PER_BLOCK rows a block) and
 * channel, of every scale in one launch (blocks numbered from rows_start,
 * each scale's channel after channel): thread j sums columns j, j + 32,
 * ... in double, then the 32 partial sums are combined pairwise (16
 * apart, 8, 4, 2, 1): the CPU twin's order. */
extern "C" __global__ void
vh_ssimu2_rows (struct vh_ssimu2_args a, double *out)
{
  __shared__ double part[VH_SSIMU2_ROWS_PER_BLOCK][VH_SSIMU2_LANES]
      [VH_SSIMU2_SUMS];
  const struct vh_ssimu2_scale sc = ssimu2_block_scale (a, a.rows_start,
      blockIdx.x);
  const unsigned int tiles = (sc.height + VH_SSIMU2_ROWS_PER_BLOCK - 1) /
      VH_SSIMU2_ROWS_PER_BLOCK;
  const unsigned int lane = threadIdx.x, r = threadIdx.y;
  const unsigned int y = sc.block % tiles * VH_SSIMU2_ROWS_PER_BLOCK + r;
  const unsigned int c = sc.block / tiles;
  const unsigned int width = sc.width;
  double acc[VH_SSIMU2_SUMS] = { 0, 0, 0, 0, 0, 0 };

  if (y < sc.height) {
    const vh_u64 base = sc.offset + (vh_u64) y * width;
    const float *x1 = ssimu2_plane (a, VH_SSIMU2_XYB (0, c), base);
    const float *x2 = ssimu2_plane (a, VH_SSIMU2_XYB (1, c), base);
    const float *m1 = ssimu2_plane (a, VH_SSIMU2_MU (0, c), base);
    const float *m2 = ssimu2_plane (a, VH_SSIMU2_MU (1, c), base);
    const float *s11 = ssimu2_plane (a, VH_SSIMU2_PROD (c, 0), base);
    const float *s22 = ssimu2_plane (a, VH_SSIMU2_PROD (c, 1), base);
    const float *s12 = ssimu2_plane (a, VH_SSIMU2_PROD (c, 2), base);

    for (unsigned int i = lane; i < width; i += VH_SSIMU2_LANES) {
      const float mu1 = m1[i], mu2 = m2[i];
      const float mu11 = FMUL (mu1, mu1), mu22 = FMUL (mu2, mu2);
      const float mu12 = FMUL (mu1, mu2);
      const float diff = FSUB (mu1, mu2);
      const float num_m = FSUB (1.0f, FMUL (diff, diff));
      const float num_s = FADD (FMUL (2.0f, FSUB (s12[i], mu12)),
          VH_SSIMU2_C2);
      const float denom_s = FADD (FADD (FSUB (s11[i], mu11), FSUB (s22[i],
                  mu22)), VH_SSIMU2_C2);
      double d = DSUB (1.0, (double) FDIV (FMUL (num_m, num_s), denom_s));
      double edge, v;

      d = d > 0.0 ? d : 0.0;
      acc[0] = DADD (acc[0], d);
      d = DMUL (d, d);
      acc[1] = DADD (acc[1], DMUL (d, d));
      edge = DSUB (DDIV (DADD (1.0, (double) fabsf (FSUB (x2[i], mu2))),
              DADD (1.0, (double) fabsf (FSUB (x1[i], mu1)))), 1.0);
      v = edge > 0.0 ? edge : 0.0;
      acc[2] = DADD (acc[2], v);
      v = DMUL (v, v);
      acc[3] = DADD (acc[3], DMUL (v, v));
      v = edge < 0.0 ? -edge : 0.0;
      acc[4] = DADD (acc[4], v);
      v = DMUL (v, v);
      acc[5] = DADD (acc[5], DMUL (v, v));
    }
  }
  for (unsigned int k = 0; k < VH_SSIMU2_SUMS; k++)
    part[r][lane][k] = acc[k];
  __syncthreads ();
  for (unsigned int off = VH_SSIMU2_LANES / 2; off > 0; off /= 2) {
    if (lane < off)
      for (unsigned int k = 0; k < VH_SSIMU2_SUMS; k++)
        part[r][lane][k] = DADD (part[r][lane][k], part[r][lane + off][k]);
    __syncthreads ();
  }
  if (lane == 0 && y < sc.height)
    for (unsigned int k = 0; k < VH_SSIMU2_SUMS; k++)
      a.row_sums[((vh_u64) 3 * sc.row_base + (vh_u64) c * sc.height + y) *
          VH_SSIMU2_SUMS + k] = part[r][0][k];
}

/* VH_SSIMU2_TOTAL_THREADS threads a block, a block per scale: the scale's
 * rows' sums in row order into @out, the frame's slot of
 * VH_SSIMU2_N_SCALES x 18 doubles. The block stages
 * VH_SSIMU2_TOTAL_ROWS rows at a time in shared memory with coalesced
 * loads, so that the 18 serial sums (channel x sum) wait on shared
 * memory, not on a global load per row. */
extern "C" __global__ void
vh_ssimu2_total (struct vh_ssimu2_args a, double *out)
{
  __shared__ double rows[3][VH_SSIMU2_TOTAL_ROWS * VH_SSIMU2_SUMS];
  const unsigned int scale = blockIdx.x;
  const struct vh_ssimu2_scale sc = ssimu2_scale (a, scale);
  const double *sums = a.row_sums + (vh_u64) 3 * sc.row_base *
      VH_SSIMU2_SUMS;
  const unsigned int t = threadIdx.x, height = sc.height;
  const unsigned int c = t / VH_SSIMU2_SUMS, k = t % VH_SSIMU2_SUMS;
  double s = 0.0;

  for (unsigned int y0 = 0; y0 < height; y0 += VH_SSIMU2_TOTAL_ROWS) {
    const unsigned int n = height - y0 < VH_SSIMU2_TOTAL_ROWS ?
        height - y0 : VH_SSIMU2_TOTAL_ROWS;

    for (unsigned int i = t; i < 3 * n * VH_SSIMU2_SUMS;
        i += VH_SSIMU2_TOTAL_THREADS) {
      const unsigned int ci = i / (n * VH_SSIMU2_SUMS);
      const unsigned int j = i % (n * VH_SSIMU2_SUMS);

      rows[ci][j] = sums[((vh_u64) ci * height + y0) * VH_SSIMU2_SUMS + j];
    }
    __syncthreads ();
    if (t < 3 * VH_SSIMU2_SUMS)
#pragma unroll 8
      for (unsigned int y = 0; y < n; y++)
        s = DADD (s, rows[c][y * VH_SSIMU2_SUMS + k]);
    __syncthreads ();
  }
  if (t < 3 * VH_SSIMU2_SUMS)
    out[scale * 3 * VH_SSIMU2_SUMS + t] = s;
}
