/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* SpEED (speed_chroma, speed_temporal), first half: from the pictures to
 * each plane's 25x25 covariance, in the CPU twin's order
 * (src/features/speed.c, speed-cov.c), up to four planes per launch.
 *
 *  1. vh_speed_vpass, one thread per column, one block row per (decimated
 *     row, plane): the
 *     sample as libvmaf's float copy makes it (or the difference of two
 *     frames), prescaled with the host's tables of positions and weights,
 *     then the vertical anti-alias pass at row 16 i.
 *  2. vh_speed_decimate, one block per plane: the horizontal pass at
 *     column 16 j, the local mean (vertical then horizontal pass, edges
 *     mirrored) subtracted.
 *  3. vh_speed_cov, one block per plane: the 25 window means (one running
 *     float sum each), then one thread per covariance entry summing in
 *     double in the order of the CPU's kernel (plain, AVX2 or AVX-512
 *     lanes), divided and rounded to float.
 *
 * No contraction into fused multiply-adds except where the CPU's vector
 * kernels fuse. */

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
#define DFMA(a, b, c) __fma_rn ((a), (b), (c))
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
#define DFMA(a, b, c) fma ((a), (b), (c))
#endif

#define VH_SPEED_MAX_PLANES 4
#define VH_SPEED_MAX_TAPS 65
#define VH_SPEED_SCALE_TAPS 9
#define VH_SPEED_N 25           /* samples of a 5x5 block */

enum
{
  VH_SPEED_SCALE_NONE,
  VH_SPEED_SCALE_NEAREST,
  VH_SPEED_SCALE_BILINEAR,
  VH_SPEED_SCALE_BICUBIC,
  VH_SPEED_SCALE_LANCZOS4,
};

enum
{
  VH_SPEED_COV_SCALAR,
  VH_SPEED_COV_AVX2,
  VH_SPEED_COV_AVX512,
};

typedef unsigned long long vh_u64;

/* One plane to score: @a, or @a - @b where @b is set (frame
 * differences). Must match hip-speed-common.h. */
struct vh_speed_plane
{
  const unsigned char *a;
  const unsigned char *b;
  vh_u64 a_pitch;
  vh_u64 b_pitch;
  unsigned int a_step;
  unsigned int b_step;
};

/* Must match VhHipSpeedFilterArgs in hip-speed-common.h. */
struct vh_speed_filter_args
{
  struct vh_speed_plane plane[VH_SPEED_MAX_PLANES];
  float *vt;                    /* per plane: oh x sw, vertical pass */
  float *op;                    /* per plane: oh x ow, decimated */
  float *mtmp;                  /* per plane: oh x ow, local mean scratch */
  float *cov;                   /* per plane: 25 x 25 */
  const int *row_pos;           /* sh x 9: prescaling taps per row */
  const float *row_w;
  const int *col_pos;           /* sw x 9: per column */
  const float *col_w;
  unsigned int n_planes;
  unsigned int w, h;            /* input planes */
  unsigned int sw, sh;          /* prescaled */
  unsigned int ow, oh;          /* decimated */
  unsigned int subw, subh;      /* covariance window */
  unsigned int method;          /* VH_SPEED_SCALE_* */
  unsigned int cov_order;       /* VH_SPEED_COV_* */
  unsigned int aa_taps;
  unsigned int lm_taps;
  float inv_scale;              /* 2^-(bpc - 8), exact */
  unsigned int pad;
  float aa[VH_SPEED_MAX_TAPS];
  float lm[VH_SPEED_MAX_TAPS];
};

static __device__ __forceinline__ int
speed_mirror (int i, int n)
{
  return i < 0 ? -i : i >= n ? 2 * n - i - 2 : i;
}

/* libvmaf's float copy of a sample: sample / 2^(bpc - 8) - 128. */
template < typename T >
static __device__ __forceinline__ float
speed_load (const unsigned char *plane, vh_u64 pitch, unsigned int step,
    int x, int y, float inv_scale)
{
  const T v = ((const T *) (plane + (vh_u64) y * pitch))[(vh_u64) x * step];
  return FADD (FMUL ((float) v, inv_scale), -128.0f);
}

template < typename T >
static __device__ __forceinline__ float
speed_sample (const struct vh_speed_plane *p, int x, int y, float inv_scale)
{
  const float a = speed_load < T > (p->a, p->a_pitch, p->a_step, x, y,
      inv_scale);
  if (!p->b)
    return a;
  return FSUB (a, speed_load < T > (p->b, p->b_pitch, p->b_step, x, y,
          inv_scale));
}

/* Sample (x, y) of the prescaled plane, as float-scale.c computes it. */
template < typename T >
static __device__ float
speed_scaled (const struct vh_speed_filter_args *a,
    const struct vh_speed_plane *p, int x, int y)
{
  const int *rp = a->row_pos + y * VH_SPEED_SCALE_TAPS;
  const int *cp = a->col_pos + x * VH_SPEED_SCALE_TAPS;
  const float *rw = a->row_w + y * VH_SPEED_SCALE_TAPS;
  const float *cw = a->col_w + x * VH_SPEED_SCALE_TAPS;
  const float s = a->inv_scale;

  switch (a->method) {
    case VH_SPEED_SCALE_NEAREST:
      return speed_sample < T > (p, cp[0], rp[0], s);
    case VH_SPEED_SCALE_BILINEAR:{
      const float dy = rw[0], dx = cw[0];
      const float ody = FSUB (1.0f, dy), odx = FSUB (1.0f, dx);
      float v = FMUL (FMUL (ody, odx), speed_sample < T > (p, cp[0], rp[0],
              s));
      v = FADD (v, FMUL (FMUL (ody, dx), speed_sample < T > (p, cp[1], rp[0],
                  s)));
      v = FADD (v, FMUL (FMUL (dy, odx), speed_sample < T > (p, cp[0], rp[1],
                  s)));
      return FADD (v, FMUL (FMUL (dy, dx), speed_sample < T > (p, cp[1],
                  rp[1], s)));
    }
    case VH_SPEED_SCALE_BICUBIC:{
      float v = 0.0f;
      for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 4; i++) {
          const float w = FMUL (cw[i], rw[j]);
          v = FADD (v, FMUL (speed_sample < T > (p, cp[i], rp[j], s), w));
        }
      }
      return v;
    }
    case VH_SPEED_SCALE_LANCZOS4:{
      float v = 0.0f, wsum = 0.0f;
      for (int j = 0; j < 9; j++) {
        for (int i = 0; i < 9; i++) {
          const float w = FMUL (cw[i], rw[j]);
          wsum = FADD (wsum, w);
          v = FADD (v, FMUL (speed_sample < T > (p, cp[i], rp[j], s), w));
        }
      }
      return FDIV (v, wsum);
    }
    default:
      return speed_sample < T > (p, x, y, s);
  }
}

template < typename T >
static __device__ void
speed_vpass (const struct vh_speed_filter_args *a)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y % a->oh;
  const unsigned int pl = blockIdx.y / a->oh;
  const int r = a->aa_taps / 2;
  float acc = 0.0f;

  if (x >= (int) a->sw || pl >= a->n_planes)
    return;
  for (unsigned int k = 0; k < a->aa_taps; k++) {
    const int y = speed_mirror (16 * i - r + (int) k, a->sh);
    acc = FADD (acc, FMUL (a->aa[k], speed_scaled < T > (a, &a->plane[pl], x,
                y)));
  }
  a->vt[((vh_u64) pl * a->oh + i) * a->sw + x] = acc;
}

extern "C" __global__ void
vh_speed_vpass_u8 (struct vh_speed_filter_args a)
{
  speed_vpass < unsigned char >(&a);
}

extern "C" __global__ void
vh_speed_vpass_u16 (struct vh_speed_filter_args a)
{
  speed_vpass < unsigned short >(&a);
}

/* One block per plane. */
extern "C" __global__ void
vh_speed_decimate (struct vh_speed_filter_args a)
{
  const unsigned int pl = blockIdx.x;
  const int ow = a.ow, oh = a.oh, n = ow * oh;
  const int ra = a.aa_taps / 2, rl = a.lm_taps / 2;
  const float *vt = a.vt + (vh_u64) pl * oh * a.sw;
  float *op = a.op + (vh_u64) pl * n;
  float *mt = a.mtmp + (vh_u64) pl * n;

  for (int idx = threadIdx.x; idx < n; idx += blockDim.x) {
    const int i = idx / ow, j = idx % ow;
    const float *row = vt + (vh_u64) i * a.sw;
    float acc = 0.0f;
    for (unsigned int k = 0; k < a.aa_taps; k++)
      acc = FADD (acc, FMUL (a.aa[k],
              row[speed_mirror (16 * j - ra + (int) k, a.sw)]));
    op[idx] = acc;
  }
  __syncthreads ();
  for (int idx = threadIdx.x; idx < n; idx += blockDim.x) {
    const int i = idx / ow, j = idx % ow;
    float acc = 0.0f;
    for (unsigned int k = 0; k < a.lm_taps; k++)
      acc = FADD (acc, FMUL (a.lm[k],
              op[speed_mirror (i + (int) k - rl, oh) * ow + j]));
    mt[idx] = acc;
  }
  __syncthreads ();
  for (int idx = threadIdx.x; idx < n; idx += blockDim.x) {
    const int i = idx / ow, j = idx % ow;
    float acc = 0.0f;
    for (unsigned int k = 0; k < a.lm_taps; k++)
      acc = FADD (acc, FMUL (a.lm[k],
              mt[i * ow + speed_mirror (j - rl + (int) k, ow)]));
    op[idx] = FSUB (op[idx], acc);
  }
}

/* The CPU's plain covariance sum. */
static __device__ double
cov_scalar (const float *x, const float *y, int stride, int h, int w,
    double mx, double my)
{
  double sum = 0;

  for (int i = 0; i < h; i++) {
    const float *rx = x + i * stride, *ry = y + i * stride;
    for (int j = 0; j < w; j++)
      sum = DADD (sum, DMUL (DSUB ((double) rx[j], mx),
              DSUB ((double) ry[j], my)));
  }
  return sum;
}

/* The CPU's vector sums: @L lanes per accumulator, two accumulators over
 * 2 L columns, then one over L, the rest plainly. */
template < int L >
static __device__ double
cov_lanes (const float *x, const float *y, int stride, int h, int w,
    double mx, double my)
{
  double acc[2 * L], tail = 0;

  for (int l = 0; l < 2 * L; l++)
    acc[l] = 0;
  for (int i = 0; i < h; i++) {
    const float *rx = x + i * stride, *ry = y + i * stride;
    int j = 0;
    for (; j + 2 * L <= w; j += 2 * L) {
#pragma unroll
      for (int l = 0; l < 2 * L; l++)
        acc[l] = DFMA (DSUB ((double) rx[j + l], mx),
            DSUB ((double) ry[j + l], my), acc[l]);
    }
    for (; j + L <= w; j += L) {
#pragma unroll
      for (int l = 0; l < L; l++)
        acc[l] = DFMA (DSUB ((double) rx[j + l], mx),
            DSUB ((double) ry[j + l], my), acc[l]);
    }
    for (; j < w; j++)
      tail = DADD (tail, DMUL (DSUB ((double) rx[j], mx),
              DSUB ((double) ry[j], my)));
  }
  if (L == 4) {
    double s = DADD (acc[0], acc[4]);
    for (int l = 1; l < 4; l++)
      s = DADD (s, DADD (acc[l], acc[4 + l]));
    return DADD (s, tail);
  } else {
    double lane[8], f4[4];
    for (int l = 0; l < 8; l++)
      lane[l] = DADD (acc[l], acc[8 + l]);
    for (int k = 0; k < 4; k++)
      f4[k] = DADD (lane[k + 4], lane[k]);
    return DADD (DADD (DADD (f4[2], f4[0]), DADD (f4[3], f4[1])), tail);
  }
}

/* One block per plane, at least 325 threads. */
extern "C" __global__ void
vh_speed_cov (struct vh_speed_filter_args a)
{
  __shared__ float means[VH_SPEED_N];
  const unsigned int pl = blockIdx.x;
  const int ow = a.ow, t = threadIdx.x;
  const float *d = a.op + (vh_u64) pl * ow * a.oh;
  float *cov = a.cov + pl * VH_SPEED_N * VH_SPEED_N;
  const unsigned int count = a.subw * a.subh;

  if (t < VH_SPEED_N) {
    const int r = t / 5, c = t % 5;
    float sum = 0;
    for (unsigned int i = 0; i < a.subh; i++)
      for (unsigned int j = 0; j < a.subw; j++)
        sum = FADD (sum, d[(r + i) * ow + c + j]);
    means[t] = FDIV (sum, (float) count);
  }
  __syncthreads ();
  if (t < VH_SPEED_N * (VH_SPEED_N + 1) / 2) {
    int xi = 0, yi = t;
    while (yi > xi) {
      xi++;
      yi -= xi;
    }
    const float *x = d + (xi / 5) * ow + xi % 5;
    const float *y = d + (yi / 5) * ow + yi % 5;
    const double mx = means[xi], my = means[yi];
    double sum;
    if (a.cov_order == VH_SPEED_COV_AVX512)
      sum = cov_lanes < 8 > (x, y, ow, a.subh, a.subw, mx, my);
    else if (a.cov_order == VH_SPEED_COV_AVX2)
      sum = cov_lanes < 4 > (x, y, ow, a.subh, a.subw, mx, my);
    else
      sum = cov_scalar (x, y, ow, a.subh, a.subw, mx, my);
    const float cv = (float) DDIV (sum, (double) count);
    cov[xi * VH_SPEED_N + yi] = cv;
    cov[yi * VH_SPEED_N + xi] = cv;
  }
}
