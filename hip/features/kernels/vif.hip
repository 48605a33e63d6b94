/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Integer VIF on the GPU, value for value the arithmetic of the CPU twin
 * (src/features/integer-vif*.c): the same fixed-point filters, roundings,
 * mirrored edges and per-pixel statistic. Source that hipcc, hiprtc, nvcc
 * and nvrtc all compile (see plane-sse.hip).
 *
 * Per frame: vh_vif_decimate_* makes the pictures of scales 1 to 3, one
 * after the other; one launch of vh_vif_stats_* then filters tiles of all
 * four scales (vertical pass into shared memory, horizontal pass from it),
 * evaluates the statistic and writes each block's four integer sums;
 * vh_vif_reduce adds the block sums of every scale. All sums are exact
 * integers, so the order of the additions does not matter. */

#if defined(__HIP__) && !defined(__HIPCC_RTC__) && !defined(VH_HIP_RTC)
#include <hip/hip_runtime.h>
#endif

#if defined(__HIP__)
#define VIF_INLINE inline __attribute__ ((always_inline))
#else
#define VIF_INLINE __forceinline__
#endif

typedef unsigned int vh_u32;
typedef unsigned long long vh_u64;
typedef long long vh_i64;

/* Statistics: 256 threads, tiles of 112 x 16 outputs. The vertical pass
 * covers the tile plus the filter's reach on both sides (at most 128
 * columns), 8 rows per thread; the horizontal pass gives each thread 7
 * neighbouring outputs of one row. A shared row of 144 words (16 modulo
 * 32) keeps the horizontal reads free of bank conflicts. */
#define VIF_THREADS 256
#define VIF_TILE_W 112
#define VIF_TILE_H 16
#define VIF_VCOLS 128
#define VIF_VROWS 8
#define VIF_HOUT 7
#define VIF_SPITCH 144

/* At most 80 registers on NVIDIA, so that three blocks share a
 * multiprocessor (faster than two, measured on Hopper); AMD takes the block
 * size only, as its second bound means something else. */
#if defined(__HIP__)
#define VIF_STATS_BOUNDS __attribute__ ((amdgpu_flat_work_group_size (1, 256)))
#else
#define VIF_STATS_BOUNDS __launch_bounds__ (VIF_THREADS, 3)
#endif

/* Decimation: tiles of 32 x 8 outputs of the next scale. */
#define VIF_DEC_W 32
#define VIF_DEC_H 8
#define VIF_DEC_COLS (2 * VIF_DEC_W - 1 + 2 * 4)

/* Noise variance in the fixed point of the statistics. */
#define VIF_SIGMA_NSQ (65536 << 1)

/* The statistic's products must not be fused into multiply-adds, which
 * round differently from the CPU's separate operations. */
#if defined(__HIP__)
#define VIF_DMUL(a, b) ((a) * (b))
#else
#define VIF_DMUL(a, b) __dmul_rn ((a), (b))
#endif

/* Filter half-widths of the four scales (17, 9, 5 and 3 taps). */
template < int S > struct vif_half
{
  enum
  { value = S == 0 ? 8 : S == 1 ? 4 : S == 2 ? 2 : 1 };
};

/* Tap @k of the scale @S Gaussian (16-bit fixed point, sums to 65536).
 * Called with constants after unrolling, so it folds to immediates. */
template < int S > static __device__ VIF_INLINE vh_u32 vif_coef (int k)
{
  const vh_u32 f0[17] = { 489, 935, 1640, 2640, 3896, 5274, 6547, 7455,
    7784, 7455, 6547, 5274, 3896, 2640, 1640, 935, 489
  };
  const vh_u32 f1[9] = { 1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663,
    1244
  };
  const vh_u32 f2[5] = { 3571, 16004, 26386, 16004, 3571 };
  const vh_u32 f3[3] = { 10904, 43728, 10904 };

  return S == 0 ? f0[k] : S == 1 ? f1[k] : S == 2 ? f2[k] : f3[k];
}

/* Second moments of 8-bit samples fit 32 bits; wider ones need 64. */
template < typename T > struct vif_wide
{
  typedef vh_u64 type;
};

template <> struct vif_wide <unsigned char >
{
  typedef vh_u32 type;
};

/* Mirrors @i into [0, n) without repeating the edge sample; indices that
 * only serve outputs outside the picture are clamped to stay readable. */
static __device__ VIF_INLINE int
vif_reflect (int i, int n)
{
  i = i < 0 ? -i : i;
  i = i > n - 1 ? 2 * (n - 1) - i : i;
  return i < 0 ? 0 : i > n - 1 ? n - 1 : i;
}

static __device__ VIF_INLINE vh_u32
vif_round (vh_u64 v, vh_u32 shift)
{
  return (vh_u32) ((v + (shift ? 1ull << (shift - 1) : 0)) >> shift);
}

/* ---- the per-pixel statistic ------------------------------------------ */

static __device__ VIF_INLINE int
vif_clz32 (vh_u32 v)
{
#if defined(__HIP__)
  return __builtin_clz (v);
#else
  return __clz ((int) v);
#endif
}

static __device__ VIF_INLINE int
vif_clz64 (vh_u64 v)
{
#if defined(__HIP__)
  return __builtin_clzll (v);
#else
  return __clzll ((long long) v);
#endif
}

/* 2048 * log2 (@v) from its 16 leading bits (@v >= 2^17), by the table of
 * the CPU twin. */
static __device__ VIF_INLINE int
vif_log2_32 (const unsigned short *__restrict__ table, vh_u32 v)
{
  const int k = 16 - vif_clz32 (v);

  return table[v >> k] + 2048 * k;
}

static __device__ VIF_INLINE int
vif_log2_64 (const unsigned short *__restrict__ table, vh_u64 v)
{
  const int k = 48 - vif_clz64 (v);

  return table[v >> k] + 2048 * k;
}

static __device__ VIF_INLINE vh_u32
vif_mul_hi (vh_u32 a, vh_u32 b)
{
  return (vh_u32) (((vh_u64) a * b + 0x80000000ull) >> 32);
}

/* Adds one pixel to @acc (num_log, den_log, num_non_log, den_non_log):
 * @mu1, @mu2 are the filtered means, @xx, @yy, @xy the filtered second
 * moments, all in the fixed point of the CPU twin. */
static __device__ VIF_INLINE void
vif_pixel (vh_u32 mu1, vh_u32 mu2, vh_u32 xx, vh_u32 yy, vh_u32 xy,
    double gain_limit, const unsigned short *__restrict__ table,
    vh_i64 * acc)
{
#if defined(__HIP__)
#pragma clang fp contract(off)
#endif
  const int sigma1_sq = (int) (xx - vif_mul_hi (mu1, mu1));
  const int sigma12 = (int) (xy - vif_mul_hi (mu1, mu2));
  int sigma2_sq = (int) (yy - vif_mul_hi (mu2, mu2));

  sigma2_sq = sigma2_sq > 0 ? sigma2_sq : 0;
  if (sigma1_sq < VIF_SIGMA_NSQ) {
    acc[2] += sigma2_sq;
    acc[3] += 1;
    return;
  }
  acc[1] += vif_log2_32 (table,
      (vh_u32) VIF_SIGMA_NSQ + (vh_u32) sigma1_sq) - 2048 * 17;
  if (sigma12 > 0 && sigma2_sq > 0) {
    const double eps = 65536 * 1.0e-10;
    double g = (double) sigma12 / ((double) sigma1_sq + eps);
    const double sv = (double) sigma2_sq - VIF_DMUL (g, (double) sigma12);
    /* Truncated, then clamped at zero. */
    const vh_u32 sv_sq = sv > 0 ? (vh_u32) (int) sv : 0;
    vh_u32 numer1;
    vh_i64 numer1_tmp;

    g = g < gain_limit ? g : gain_limit;
    numer1 = sv_sq + VIF_SIGMA_NSQ;
    numer1_tmp = (vh_i64) VIF_DMUL (VIF_DMUL (g, g), (double) sigma1_sq) +
        numer1;
    acc[0] += vif_log2_64 (table, (vh_u64) numer1_tmp) -
        vif_log2_64 (table, numer1);
  }
}

/* ---- statistics of one scale ------------------------------------------ */

union vif_stats_smem
{
  /* Vertically filtered mu1, mu2, xx, yy, xy of the tile's columns. */
  vh_u32 v[5][VIF_TILE_H][VIF_SPITCH];
  vh_i64 red[4][VIF_THREADS];
};

/* Vertical pass of one column @x: rows @yb + R .. @yb + R + VIF_VROWS - 1
 * (R the half-width), into shared row @row0 and column @col. Every input
 * sample is read once and added to each output row it reaches. */
template < typename T, int S > static __device__ VIF_INLINE void
vif_vert_stats (const unsigned char *ref, vh_u64 ref_pitch,
    const unsigned char *dis, vh_u64 dis_pitch, int x, int yb, int h,
    vh_u32 shift_mu, vh_u32 shift_sq, union vif_stats_smem *sm, int row0,
    int col)
{
  typedef typename vif_wide < T >::type W;
  const int R = vif_half < S >::value;
  vh_u32 m1[VIF_VROWS], m2[VIF_VROWS];
  W xx[VIF_VROWS], yy[VIF_VROWS], xy[VIF_VROWS];

#pragma unroll
  for (int r = 0; r < VIF_VROWS; r++) {
    m1[r] = m2[r] = 0;
    xx[r] = yy[r] = xy[r] = 0;
  }
#pragma unroll
  for (int i = 0; i < VIF_VROWS + 2 * R; i++) {
    const int y = vif_reflect (yb + i, h);
    const vh_u32 a = ((const T *) (ref + (vh_u64) y * ref_pitch))[x];
    const vh_u32 b = ((const T *) (dis + (vh_u64) y * dis_pitch))[x];
    /* Squares of 16-bit samples still fit 32 bits. */
    const vh_u32 aa = a * a, bb = b * b, ab = a * b;

#pragma unroll
    for (int r = 0; r < VIF_VROWS; r++) {
      const int k = i - r;

      if (k >= 0 && k <= 2 * R) {
        const vh_u32 c = vif_coef < S > (k);

        m1[r] += c * a;
        m2[r] += c * b;
        xx[r] += (W) c * aa;
        yy[r] += (W) c * bb;
        xy[r] += (W) c * ab;
      }
    }
  }
#pragma unroll
  for (int r = 0; r < VIF_VROWS; r++) {
    sm->v[0][row0 + r][col] = vif_round (m1[r], shift_mu) & 0xffff;
    sm->v[1][row0 + r][col] = vif_round (m2[r], shift_mu) & 0xffff;
    sm->v[2][row0 + r][col] = vif_round (xx[r], shift_sq);
    sm->v[3][row0 + r][col] = vif_round (yy[r], shift_sq);
    sm->v[4][row0 + r][col] = vif_round (xy[r], shift_sq);
  }
}

/* Horizontal pass of the means: VIF_HOUT outputs from shared row @s. */
template < int S > static __device__ VIF_INLINE void
vif_horiz_mu (const vh_u32 * s, vh_u32 * out)
{
  const int R = vif_half < S >::value;
  vh_u32 win[VIF_HOUT + 2 * R];

#pragma unroll
  for (int i = 0; i < VIF_HOUT + 2 * R; i++)
    win[i] = s[i];
#pragma unroll
  for (int j = 0; j < VIF_HOUT; j++) {
    vh_u32 acc = 0;

#pragma unroll
    for (int k = 0; k <= 2 * R; k++)
      acc += vif_coef < S > (k) * win[j + k];
    out[j] = acc;
  }
}

/* Horizontal pass of a second moment, rounded back to 32 bits. */
template < int S > static __device__ VIF_INLINE void
vif_horiz_moment (const vh_u32 * s, vh_u32 * out)
{
  const int R = vif_half < S >::value;
  vh_u32 win[VIF_HOUT + 2 * R];

#pragma unroll
  for (int i = 0; i < VIF_HOUT + 2 * R; i++)
    win[i] = s[i];
#pragma unroll
  for (int j = 0; j < VIF_HOUT; j++) {
    vh_u64 acc = 0;

#pragma unroll
    for (int k = 0; k <= 2 * R; k++)
      acc += (vh_u64) vif_coef < S > (k) * win[j + k];
    out[j] = (vh_u32) ((acc + 32768) >> 16);
  }
}

/* One block: the statistic over tile (@bx, @by) of the @w x @h scale, whose
 * sums go to @out[0..3]. Scale 0 rounds the vertical means by
 * @shift_mu and the moments by @shift_sq bits (0: none); later scales by
 * 16 and 16. */
template < typename T, int S > static __device__ VIF_INLINE void
vif_stats (const unsigned char *ref, vh_u64 ref_pitch,
    const unsigned char *dis, vh_u64 dis_pitch, int w, int h,
    vh_u32 shift_mu, vh_u32 shift_sq, double gain_limit,
    const unsigned short *__restrict__ table, union vif_stats_smem *smp,
    int bx, int by, vh_i64 * out)
{
  const int R = vif_half < S >::value;
  union vif_stats_smem &sm = *smp;
  const int tid = threadIdx.x;
  const int x0 = bx * VIF_TILE_W;
  const int y0 = by * VIF_TILE_H;
  vh_i64 acc[4] = { 0, 0, 0, 0 };

  {
    const int col = tid % VIF_VCOLS;
    const int grp = tid / VIF_VCOLS;

    if (col < VIF_TILE_W + 2 * R)
      vif_vert_stats < T, S > (ref, ref_pitch, dis, dis_pitch,
          vif_reflect (x0 - R + col, w), y0 + grp * VIF_VROWS - R, h,
          shift_mu, shift_sq, &sm, grp * VIF_VROWS, col);
  }
  __syncthreads ();

  {
    const int tx = tid % (VIF_TILE_W / VIF_HOUT);
    const int ty = tid / (VIF_TILE_W / VIF_HOUT);
    const int c0 = tx * VIF_HOUT;
    const int y = y0 + ty;
    vh_u32 mu1[VIF_HOUT], mu2[VIF_HOUT], xx[VIF_HOUT], yy[VIF_HOUT],
        xy[VIF_HOUT];

    vif_horiz_mu < S > (&sm.v[0][ty][c0], mu1);
    vif_horiz_mu < S > (&sm.v[1][ty][c0], mu2);
    vif_horiz_moment < S > (&sm.v[2][ty][c0], xx);
    vif_horiz_moment < S > (&sm.v[3][ty][c0], yy);
    vif_horiz_moment < S > (&sm.v[4][ty][c0], xy);
#pragma unroll
    for (int j = 0; j < VIF_HOUT; j++) {
      if (y < h && x0 + c0 + j < w)
        vif_pixel (mu1[j], mu2[j], xx[j], yy[j], xy[j], gain_limit, table,
            acc);
    }
  }
  __syncthreads ();

  /* The block's sums, without atomics: a tree in shared memory. */
#pragma unroll
  for (int k = 0; k < 4; k++)
    sm.red[k][tid] = acc[k];
  __syncthreads ();
  for (int s = VIF_THREADS / 2; s > 0; s >>= 1) {
    if (tid < s) {
#pragma unroll
      for (int k = 0; k < 4; k++)
        sm.red[k][tid] += sm.red[k][tid + s];
    }
    __syncthreads ();
  }
  if (tid < 4)
    out[tid] = sm.red[tid][0];
}

/* Every scale in one launch, so that the small scales run beside scale 0
 * instead of each waiting for a nearly idle GPU. Blocks [0, n0) take the
 * tiles of scale 0 (@ref, @dis: @w x @h samples of type T), the next n1
 * those of scale 1, and so on; scales before @first_scale are skipped.
 * Scales 1 to 3 are in @scaled, @scaled_pitch bytes per row: the
 * reference's rows then the distorted picture's, scale after scale. Block
 * b of scale s writes @partials[s * @stride + b][0..3]. */
template < typename T > static __device__ VIF_INLINE void
vif_stats_all (const unsigned char *ref, vh_u64 ref_pitch,
    const unsigned char *dis, vh_u64 dis_pitch, int w, int h,
    const unsigned char *scaled, vh_u64 scaled_pitch, vh_u32 shift_mu,
    vh_u32 shift_sq, double gain_limit,
    const unsigned short *__restrict__ table, vh_i64 * partials,
    vh_u32 stride, int first_scale)
{
  __shared__ union vif_stats_smem sm;
  int b = blockIdx.x;
  vh_u64 row = 0;

  for (int s = 0; s < 4; s++) {
    const int ws = w >> s, hs = h >> s;
    const int gx = (ws + VIF_TILE_W - 1) / VIF_TILE_W;
    const int n = gx * ((hs + VIF_TILE_H - 1) / VIF_TILE_H);

    if (s >= first_scale) {
      if (b < n) {
        const unsigned char *r = scaled + row * scaled_pitch;
        const unsigned char *d = r + (vh_u64) hs * scaled_pitch;
        vh_i64 *out = partials + ((vh_u64) s * stride + b) * 4;
        const int bx = b % gx, by = b / gx;

        if (s == 0)
          vif_stats < T, 0 > (ref, ref_pitch, dis, dis_pitch, ws, hs,
              shift_mu, shift_sq, gain_limit, table, &sm, bx, by, out);
        else if (s == 1)
          vif_stats < unsigned short, 1 > (r, scaled_pitch, d, scaled_pitch,
              ws, hs, 16, 16, gain_limit, table, &sm, bx, by, out);
        else if (s == 2)
          vif_stats < unsigned short, 2 > (r, scaled_pitch, d, scaled_pitch,
              ws, hs, 16, 16, gain_limit, table, &sm, bx, by, out);
        else
          vif_stats < unsigned short, 3 > (r, scaled_pitch, d, scaled_pitch,
              ws, hs, 16, 16, gain_limit, table, &sm, bx, by, out);
        return;
      }
      b -= n;
    }
    if (s > 0)
      row += 2 * (vh_u64) hs;
  }
}

#define VIF_STATS_KERNEL(name, T)                                           \
  extern "C" __global__ void VIF_STATS_BOUNDS                               \
  name (const unsigned char *ref, vh_u64 ref_pitch,                         \
      const unsigned char *dis, vh_u64 dis_pitch, int w, int h,             \
      const unsigned char *scaled, vh_u64 scaled_pitch, vh_u32 shift_mu,    \
      vh_u32 shift_sq, double gain_limit,                                   \
      const unsigned short *__restrict__ table, vh_i64 * partials,          \
      vh_u32 stride, int first_scale)                                       \
  {                                                                         \
    vif_stats_all < T > (ref, ref_pitch, dis, dis_pitch, w, h, scaled,      \
        scaled_pitch, shift_mu, shift_sq, gain_limit, table, partials,      \
        stride, first_scale);                                               \
  }

VIF_STATS_KERNEL (vh_vif_stats_u8, unsigned char)
VIF_STATS_KERNEL (vh_vif_stats_u16, unsigned short)

/* ---- decimation --------------------------------------------------------- */

/* The next scale @N: the @w x @h pictures filtered with scale @N's filter,
 * at even rows and columns. The vertical means are rounded by @shift bits
 * (the bit depth from scale 0, else 16), the horizontal ones by 16. */
template < typename T, int N > static __device__ void
vif_decimate (const unsigned char *ref, vh_u64 ref_pitch,
    const unsigned char *dis, vh_u64 dis_pitch, int w, int h, vh_u32 shift,
    unsigned char *out_ref, vh_u64 out_ref_pitch, unsigned char *out_dis,
    vh_u64 out_dis_pitch, int ow, int oh)
{
  const int R = vif_half < N >::value;
  const int n_cols = 2 * VIF_DEC_W - 1 + 2 * R;
  __shared__ vh_u32 v[2][VIF_DEC_H][VIF_DEC_COLS + 1];
  const int tid = threadIdx.x;
  const int ox0 = blockIdx.x * VIF_DEC_W;
  const int oy0 = blockIdx.y * VIF_DEC_H;

  for (int item = tid; item < VIF_DEC_H * n_cols; item += VIF_THREADS) {
    const int r = item / n_cols;
    const int c = item % n_cols;
    const int x = vif_reflect (2 * ox0 - R + c, w);
    const int yc = 2 * (oy0 + r) - R;
    vh_u32 a = 0, b = 0;

#pragma unroll
    for (int k = 0; k <= 2 * R; k++) {
      const int y = vif_reflect (yc + k, h);

      a += vif_coef < N > (k) *
          ((const T *) (ref + (vh_u64) y * ref_pitch))[x];
      b += vif_coef < N > (k) *
          ((const T *) (dis + (vh_u64) y * dis_pitch))[x];
    }
    v[0][r][c] = vif_round (a, shift) & 0xffff;
    v[1][r][c] = vif_round (b, shift) & 0xffff;
  }
  __syncthreads ();

  {
    const int tx = tid % VIF_DEC_W;
    const int ty = tid / VIF_DEC_W;
    const int ox = ox0 + tx;
    const int oy = oy0 + ty;
    vh_u32 a = 0, b = 0;

    if (ox >= ow || oy >= oh)
      return;
#pragma unroll
    for (int k = 0; k <= 2 * R; k++) {
      a += vif_coef < N > (k) * v[0][ty][2 * tx + k];
      b += vif_coef < N > (k) * v[1][ty][2 * tx + k];
    }
    ((unsigned short *) (out_ref + (vh_u64) oy * out_ref_pitch))[ox] =
        (unsigned short) ((a + 32768) >> 16);
    ((unsigned short *) (out_dis + (vh_u64) oy * out_dis_pitch))[ox] =
        (unsigned short) ((b + 32768) >> 16);
  }
}

#define VIF_DECIMATE_KERNEL(name, T, N)                                     \
  extern "C" __global__ void                                                \
  name (const unsigned char *ref, vh_u64 ref_pitch,                         \
      const unsigned char *dis, vh_u64 dis_pitch, int w, int h,             \
      vh_u32 shift, unsigned char *out_ref, vh_u64 out_ref_pitch,           \
      unsigned char *out_dis, vh_u64 out_dis_pitch, int ow, int oh)         \
  {                                                                         \
    vif_decimate < T, N > (ref, ref_pitch, dis, dis_pitch, w, h, shift,     \
        out_ref, out_ref_pitch, out_dis, out_dis_pitch, ow, oh);            \
  }

VIF_DECIMATE_KERNEL (vh_vif_decimate1_u8, unsigned char, 1)
VIF_DECIMATE_KERNEL (vh_vif_decimate1_u16, unsigned short, 1)
VIF_DECIMATE_KERNEL (vh_vif_decimate2, unsigned short, 2)
VIF_DECIMATE_KERNEL (vh_vif_decimate3, unsigned short, 3)

/* ---- the frame's sums ------------------------------------------------- */

/* Block x adds the @n[x] block sums of scale x (@stride blocks apart
 * between scales) into @sums[x][0..3]. Launch 4 blocks of VIF_THREADS. */
extern "C" __global__ void
vh_vif_reduce (const vh_i64 * partials, vh_u32 stride, vh_u32 n0,
    vh_u32 n1, vh_u32 n2, vh_u32 n3, vh_i64 * sums)
{
  __shared__ vh_i64 red[4][VIF_THREADS];
  const int tid = threadIdx.x;
  const int scale = blockIdx.x;
  const vh_u32 n = scale == 0 ? n0 : scale == 1 ? n1 : scale == 2 ? n2 : n3;
  const vh_i64 *p = partials + (vh_u64) scale * stride * 4;
  vh_i64 acc[4] = { 0, 0, 0, 0 };

  for (vh_u32 i = tid; i < n; i += VIF_THREADS) {
#pragma unroll
    for (int k = 0; k < 4; k++)
      acc[k] += p[(vh_u64) i * 4 + k];
  }
#pragma unroll
  for (int k = 0; k < 4; k++)
    red[k][tid] = acc[k];
  __syncthreads ();
  for (int s = VIF_THREADS / 2; s > 0; s >>= 1) {
    if (tid < s) {
#pragma unroll
      for (int k = 0; k < 4; k++)
        red[k][tid] += red[k][tid + s];
    }
    __syncthreads ();
  }
  if (tid < 4)
    sums[scale * 4 + tid] = red[tid][0];
}
