/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Integer ADM on the GPU, integer for integer the CPU twin's arithmetic
 * (src/features/integer-adm.c and adm-kernels-body.h), its reproductions of
 * libvmaf's AVX-512 departures included. Written for hipcc, hiprtc, nvcc
 * and nvrtc alike: no header, nothing warp-size dependent.
 *
 * Per frame: one wavelet kernel per scale (vh_adm_dwt0_u8/u16, then
 * vh_adm_dwt for scales 1-3) writes the four bands of both pictures; one
 * kernel for all scales (vh_adm_score) decouples, applies the CSF and the
 * contrast masking on 32x8 tiles with a one-sample halo in shared memory
 * and writes each tile row's sums; vh_adm_reduce adds them per band row,
 * rounds each row as the CPU twin does, and adds the rows: 9 sums a scale
 * into a zeroed buffer.
 *
 * The floating-point steps (the angle test, the enhancement gain) are
 * products and comparisons only, so no contraction into FMA can change
 * them; integer sums wrap modulo 2^64 in any order, as on the CPU. */

#if defined(__HIP__) && !defined(__HIPCC_RTC__) && !defined(VH_HIP_RTC)
#include <hip/hip_runtime.h>
#endif

typedef long long vh_i64;
typedef unsigned long long vh_u64;

#define VH_ADM_TW 32            /* tile width, threads in x */
#define VH_ADM_TH 8             /* tile height, threads in y */
#define VH_ADM_THREADS (VH_ADM_TW * VH_ADM_TH)
#define VH_ADM_N_SUMS 9         /* den[3], dlm[3], aim[3] */
#define VH_ADM_HALO_W (VH_ADM_TW + 2)
#define VH_ADM_HALO_H (VH_ADM_TH + 2)
#define VH_ADM_VT_W (2 * VH_ADM_TW + 2)

/* Daubechies-2 taps in Q15. */
#define LO0 15826
#define LO1 27411
#define LO2 7345
#define LO3 (-4240)
#define HI0 (-4240)
#define HI1 (-7345)
#define HI2 27411
#define HI3 (-15826)

/* One scale's geometry, constants and buffers; the host fills it once
 * (hip/features/hip-integer-adm-private.h has the same layout). */
struct VhAdmGpuScale
{
  vh_u64 a_in[2];               /* s >= 1: int32 input planes */
  vh_u64 a_out[2];              /* int32 approximation band, or 0 */
  vh_u64 band[2][3];            /* [picture][h, v, d]: int16 at scale 0 */
  vh_u64 partial;               /* vh_u64 [rows][ncb][9] */
  vh_i64 vadd, hadd;
  vh_i64 cm_sq_add[3], cm_cub_add[3];
  vh_i64 cm_row_add;
  vh_u64 den_sq_add, den_cub_add, den_row_add;
  double gain_limit;
  int wi, hi, wb, hb;
  int pitch, in_pitch;          /* elements */
  int left, top, right, bottom;
  int ncb, nrb, block0;
  int vshift, hshift, fix_last;
  int stale_zero[2], stale_pic[2], stale_hi[2], stale_col[2];
  int round_x0, round_x1, wide_x0, wide_x1;
  int signed_x0, signed_x1, signed_y0, signed_y1, wide_gains;
  int gain16[3], csf_add16[3], csf_shift16[3];
  unsigned int gain32[3];
  int cm_sub[3], cm_sq_shift[3], cm_cub_shift[3];
  int den_sq_shift, den_cub_shift, den_row_shift, cm_row_shift;
  float cos1_sq;
  int bpc;
};

static_assert (sizeof (VhAdmGpuScale) == 432, "layout shared with the host");

static __device__ __forceinline__ int
vh_mirror (int idx, int n)
{
  if (idx < 0)
    return -idx;
  if (idx >= n)
    return 2 * n - idx - 1;
  return idx;
}

static __device__ __forceinline__ int
vh_abs32 (int v)
{
  return v < 0 ? (int) (0u - (unsigned int) v) : v;
}

static __device__ __forceinline__ int
vh_mini (int a, int b)
{
  return a < b ? a : b;
}

static __device__ __forceinline__ vh_i64
vh_min64 (vh_i64 a, vh_i64 b)
{
  return a < b ? a : b;
}

static __device__ __forceinline__ vh_i64
vh_max64 (vh_i64 a, vh_i64 b)
{
  return a > b ? a : b;
}

/* ------------------------------------------------------------------ */
/* Wavelet                                                             */

/* Scale 0 vertical pass at (band row @i, input column @c): the samples are
 * centred first, so the int32 sums cannot wrap. */
template < typename T >
static __device__ void
vert0 (const unsigned char *in, vh_u64 stride, int hi, int i, int c, int bpc,
    int *lo, int *hh)
{
  const int half = 1 << (bpc - 1);
  int s[4];

  for (int k = 0; k < 4; k++)
    s[k] = (int) ((const T *) (in + (vh_u64) vh_mirror (2 * i - 1 + k,
                hi) * stride))[c] - half;
  int l = LO0 * s[0] + LO1 * s[1] + LO2 * s[2] + LO3 * s[3];
  int h = HI0 * s[0] + HI1 * s[1] + HI2 * s[2] + HI3 * s[3];
  *lo = (short) ((l + half) >> bpc);
  *hh = (short) ((h + half) >> bpc);
}

static __device__ __forceinline__ short
horz0 (const int *s, int t0, int t1, int t2, int t3)
{
  int v = t0 * s[0] + t1 * s[1] + t2 * s[2] + t3 * s[3];

  return (short) ((v + 32768) >> 16);
}

/* Vertical pass of scales 1-3 at (@i, @c) of picture @pic. */
static __device__ void
vert_s123 (const VhAdmGpuScale * sc, int pic, int i, int c, int *lo, int *hh)
{
  const int *in = (const int *) sc->a_in[pic];
  vh_i64 s[4];

  for (int k = 0; k < 4; k++)
    s[k] = in[(vh_u64) vh_mirror (2 * i - 1 + k, sc->hi) * sc->in_pitch + c];
  vh_i64 l = LO0 * s[0] + LO1 * s[1] + LO2 * s[2] + LO3 * s[3];
  vh_i64 h = HI0 * s[0] + HI1 * s[1] + HI2 * s[2] + HI3 * s[3];
  *lo = (int) ((l + sc->vadd) >> sc->vshift);
  *hh = (int) ((h + sc->vadd) >> sc->vshift);
}

static __device__ __forceinline__ int
horz_s123 (const int *s, int t0, int t1, int t2, int t3, vh_i64 add, int sh)
{
  vh_i64 v = (vh_i64) t0 * s[0] + (vh_i64) t1 * s[1] + (vh_i64) t2 * s[2] +
      (vh_i64) t3 * s[3];

  return (int) ((v + add) >> sh);
}

/* A block makes a 32x8 tile of band samples of one picture (blockIdx.z):
 * the vertical pass of the 66 input columns it needs goes to shared
 * memory first. */
template < typename T >
static __device__ void
dwt0 (const VhAdmGpuScale * sc, const unsigned char *ref, vh_u64 ref_stride,
    const unsigned char *dis, vh_u64 dis_stride)
{
  __shared__ int vlo[VH_ADM_TH][VH_ADM_VT_W];
  __shared__ int vhi[VH_ADM_TH][VH_ADM_VT_W];
  const int pic = blockIdx.z;
  const unsigned char *in = pic ? dis : ref;
  const vh_u64 stride = pic ? dis_stride : ref_stride;
  const int wi = sc->wi, hi = sc->hi, wb = sc->wb, hb = sc->hb;
  const int bpc = sc->bpc;
  const int i0 = blockIdx.y * VH_ADM_TH, j0 = blockIdx.x * VH_ADM_TW;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * VH_ADM_TW + tx;

  for (int e = tid; e < VH_ADM_TH * VH_ADM_VT_W; e += VH_ADM_THREADS) {
    const int r = e / VH_ADM_VT_W, t = e % VH_ADM_VT_W;
    const int i = i0 + r, c = 2 * j0 - 1 + t;
    if (i < hb && c <= 2 * wb)
      vert0 < T > (in, stride, hi, i, vh_mirror (c, wi), bpc, &vlo[r][t],
          &vhi[r][t]);
  }
  __syncthreads ();

  const int i = i0 + ty, j = j0 + tx;
  if (i >= hb || j >= wb)
    return;
  int l[4], h[4];
  for (int k = 0; k < 4; k++) {
    l[k] = vlo[ty][2 * tx + k];
    h[k] = vhi[ty][2 * tx + k];
  }
  if (sc->fix_last && j == wb - 1) {
    /* Right taps past the row read the high-pass row, then zeros. */
    for (int k = 0; k < 4; k++) {
      const int idx = 2 * j - 1 + k;
      if (idx >= wi) {
        int clo, chi;
        vert0 < T > (in, stride, hi, i, idx - wi, bpc, &clo, &chi);
        l[k] = chi;
        h[k] = 0;
      }
    }
  }
  const vh_u64 o = (vh_u64) i * sc->pitch + j;
  ((int *) sc->a_out[pic])[o] = horz0 (l, LO0, LO1, LO2, LO3);
  ((short *) sc->band[pic][0])[o] = horz0 (h, LO0, LO1, LO2, LO3);
  ((short *) sc->band[pic][1])[o] = horz0 (l, HI0, HI1, HI2, HI3);
  ((short *) sc->band[pic][2])[o] = horz0 (h, HI0, HI1, HI2, HI3);
}

extern "C" __global__ void
vh_adm_dwt0_u8 (const VhAdmGpuScale * sp, const unsigned char *ref,
    vh_u64 ref_stride, const unsigned char *dis, vh_u64 dis_stride)
{
  dwt0 < unsigned char >(sp, ref, ref_stride, dis, dis_stride);
}

extern "C" __global__ void
vh_adm_dwt0_u16 (const VhAdmGpuScale * sp, const unsigned char *ref,
    vh_u64 ref_stride, const unsigned char *dis, vh_u64 dis_stride)
{
  dwt0 < unsigned short >(sp, ref, ref_stride, dis, dis_stride);
}

/* Scale @s (1-3) of both pictures (blockIdx.z). */
extern "C" __global__ void
vh_adm_dwt (const VhAdmGpuScale * sp, int s)
{
  __shared__ int vlo[VH_ADM_TH][VH_ADM_VT_W];
  __shared__ int vhi[VH_ADM_TH][VH_ADM_VT_W];
  const VhAdmGpuScale *sc = sp + s;
  const int pic = blockIdx.z;
  const int wi = sc->wi, wb = sc->wb, hb = sc->hb;
  const int i0 = blockIdx.y * VH_ADM_TH, j0 = blockIdx.x * VH_ADM_TW;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * VH_ADM_TW + tx;

  for (int e = tid; e < VH_ADM_TH * VH_ADM_VT_W; e += VH_ADM_THREADS) {
    const int r = e / VH_ADM_VT_W, t = e % VH_ADM_VT_W;
    const int i = i0 + r, c = 2 * j0 - 1 + t;
    if (i < hb && c <= 2 * wb)
      vert_s123 (sc, pic, i, vh_mirror (c, wi), &vlo[r][t], &vhi[r][t]);
  }
  __syncthreads ();

  const int i = i0 + ty, j = j0 + tx;
  if (i >= hb || j >= wb)
    return;
  int l[4], h[4];
  for (int k = 0; k < 4; k++) {
    l[k] = vlo[ty][2 * tx + k];
    h[k] = vhi[ty][2 * tx + k];
  }
  if (sc->fix_last && j == wb - 1) {
    /* The CPU twin's model of libvmaf's scratch rows: the low-pass row
     * runs on into the high-pass row, the reference high-pass row into the
     * distorted low-pass row, the distorted one into stale values. */
    for (int k = 0; k < 4; k++) {
      const int idx = 2 * j - 1 + k, n = idx - wi;
      if (idx < wi)
        continue;
      int clo, chi;
      vert_s123 (sc, pic, i, n, &clo, &chi);
      l[k] = chi;
      if (pic == 0) {
        vert_s123 (sc, 1, i, n, &clo, &chi);
        h[k] = clo;
      } else if (sc->stale_zero[n]) {
        h[k] = 0;
      } else {
        const VhAdmGpuScale *pv = sc - 1;
        vert_s123 (pv, sc->stale_pic[n], pv->hb - 1, sc->stale_col[n], &clo,
            &chi);
        h[k] = sc->stale_hi[n] ? chi : clo;
      }
    }
  }
  const vh_u64 o = (vh_u64) i * sc->pitch + j;
  const vh_i64 add = sc->hadd;
  const int sh = sc->hshift;
  if (sc->a_out[pic])
    ((int *) sc->a_out[pic])[o] = horz_s123 (l, LO0, LO1, LO2, LO3, add, sh);
  ((int *) sc->band[pic][0])[o] = horz_s123 (h, LO0, LO1, LO2, LO3, add, sh);
  ((int *) sc->band[pic][1])[o] = horz_s123 (l, HI0, HI1, HI2, HI3, add, sh);
  ((int *) sc->band[pic][2])[o] = horz_s123 (h, HI0, HI1, HI2, HI3, add, sh);
}

/* ------------------------------------------------------------------ */
/* Decoupling, CSF, masking                                            */

/* The angle test with the CPU twin's float roundings of its integer
 * products; products and comparisons only. */
static __device__ bool
angle_below_1deg (vh_i64 oh, vh_i64 ov, vh_i64 th, vh_i64 tv, float cos1_sq)
{
  const vh_i64 ot_dp = oh * th + ov * tv;
  const vh_i64 o_mag_sq = oh * oh + ov * ov;
  const vh_i64 t_mag_sq = th * th + tv * tv;
  const double dp = (double) (float) ot_dp / 4096.0;
  const double om = (double) (float) o_mag_sq / 4096.0;
  const double tm = (double) (float) t_mag_sq / 4096.0;
  const double rhs = ((double) cos1_sq * om) * tm;

  return dp >= 0.0 && dp * dp >= rhs;
}

static __device__ vh_i64
enhance (vh_i64 rst, vh_i64 k, vh_i64 o, vh_i64 t, bool angle, double limit,
    bool nearest)
{
  if (angle && k > 0 && o != 0) {
    const double boosted = (double) rst * limit;
    if (nearest) {
      const vh_i64 b = (vh_i64) rint (boosted);
      return o > 0 ? vh_min64 (b, t) : vh_max64 (b, t);
    }
    if (o > 0)
      return boosted < (double) t ? (vh_i64) boosted : t;
    return boosted > (double) t ? (vh_i64) boosted : t;
  }
  return rst;
}

/* 2^30 / v, the CPU twin's table entry for v != 0. */
static __device__ __forceinline__ int
div_lut (int v)
{
  return v > 0 ? (1 << 30) / v : -((1 << 30) / -v);
}

static __device__ vh_i64
ratio_s123 (int o, int t)
{
  unsigned int mag = (unsigned int) vh_abs32 (o);
  int shift = 0;

  if (o == 0)
    return 32768;
  if (mag >= 32768) {
    shift = 17 - __clz ((int) mag);
    mag = (mag + (1u << (shift - 1))) >> shift;
  }
  vh_i64 q = (vh_i64) div_lut ((int) mag) * t;
  if (o < 0)
    q = -q;
  q = (q + (int) (1u << (14 + shift))) >> (15 + shift);
  return vh_max64 (vh_min64 (q, 32768), 0);
}

static __device__ __forceinline__ int
csf32 (unsigned int gain, int v, bool as_signed)
{
  const vh_i64 g = as_signed ? (vh_i64) (int) gain : (vh_i64) gain;

  return (int) ((g * v + (1 << 27)) >> 28);
}

static __device__ __forceinline__ vh_i64
csf64_signed (unsigned int gain, int v)
{
  const vh_i64 c = ((vh_i64) (int) gain * v + (1 << 27)) >> 28;

  return c < 0 ? -c : c;
}

/* What the decoupling gives a band sample: the magnitudes to mask (xr
 * restored, xa additive), the masking filter inputs summed over bands (f)
 * and the centre corrections (k). */
template < typename TA > struct VhAdmDec
{
  TA xr[3], xa[3];
  TA fr, kr, fa, ka;
};

static __device__ void
decouple0 (const VhAdmGpuScale * sc, int y, int x, VhAdmDec < int >*d)
{
  const vh_u64 off = (vh_u64) y * sc->pitch + x;
  int o[3], t[3];

  for (int b = 0; b < 3; b++) {
    o[b] = ((const short *) sc->band[0][b])[off];
    t[b] = ((const short *) sc->band[1][b])[off];
  }
  const bool angle = angle_below_1deg (o[0], o[1], t[0], t[1], sc->cos1_sq);
  const bool wide = x >= sc->wide_x0 && x < sc->wide_x1;
  const bool nearest = x >= sc->round_x0 && x < sc->round_x1;

  d->fr = d->kr = d->fa = d->ka = 0;
  for (int b = 0; b < 3; b++) {
    int k;
    if (o[b] == 0) {
      k = 32768;
    } else {
      vh_i64 q = ((vh_i64) div_lut (o[b]) * t[b] + 16384) >> 15;
      k = (int) vh_max64 (vh_min64 (q, 32768), 0);
    }
    const short r = (short) enhance ((k * o[b] + 16384) >> 15, k, o[b], t[b],
        angle, sc->gain_limit, nearest);
    const short a = (short) (t[b] - r);
    const unsigned int g = (unsigned int) sc->gain16[b];
    const unsigned int add = (unsigned int) sc->csf_add16[b];
    const int cr32 = (int) (g * (unsigned int) r + add) >> sc->csf_shift16[b];
    const int ca32 = (int) (g * (unsigned int) a + add) >> sc->csf_shift16[b];
    const short cr = (short) cr32, ca = (short) ca32;
    const short f_r = (short) ((4369 * vh_abs32 (nearest ? cr32 : cr) +
            2048) >> 12);
    const short f_a = (short) ((4369 * vh_abs32 (nearest ? ca32 : ca) +
            2048) >> 12);
    int c_r = (8738 * vh_abs32 (cr) + 2048) >> 12;
    int c_a = (8738 * vh_abs32 (ca) + 2048) >> 12;
    if (!wide) {
      c_r = (short) c_r;
      c_a = (short) c_a;
    }
    d->fr += f_r;
    d->kr += c_r - f_r;
    d->fa += f_a;
    d->ka += c_a - f_a;
    d->xr[b] = vh_abs32 ((int) (g * (unsigned int) r));
    d->xa[b] = vh_abs32 ((int) (g * (unsigned int) a));
  }
}

static __device__ void
decouple_s123 (const VhAdmGpuScale * sc, int y, int x, VhAdmDec < vh_i64 >*d)
{
  const vh_u64 off = (vh_u64) y * sc->pitch + x;
  const vh_i64 round = -((vh_i64) 1 << 31);
  int o[3], t[3];

  for (int b = 0; b < 3; b++) {
    o[b] = ((const int *) sc->band[0][b])[off];
    t[b] = ((const int *) sc->band[1][b])[off];
  }
  const bool angle = angle_below_1deg (o[0], o[1], t[0], t[1], sc->cos1_sq);
  const bool nearest = x >= sc->round_x0 && x < sc->round_x1;
  const bool vec_cm = y >= sc->signed_y0 && y < sc->signed_y1 &&
      x >= sc->signed_x0 && x < sc->signed_x1;

  d->fr = d->kr = d->fa = d->ka = 0;
  for (int b = 0; b < 3; b++) {
    const vh_i64 k = ratio_s123 (o[b], t[b]);
    const unsigned int g = sc->gain32[b];
    const int r = (int) enhance ((k * o[b] + 16384) >> 15, k, o[b], t[b],
        angle, sc->gain_limit, nearest);
    const int a = (int) ((unsigned int) t[b] - (unsigned int) r);
    const int cr = csf32 (g, r, nearest), ca = csf32 (g, a, nearest);
    const int f_r = (int) ((143165577LL * vh_abs32 (cr) + round) >> 32);
    const int f_a = (int) ((143165577LL * vh_abs32 (ca) + round) >> 32);
    const int c_r = (int) ((286331153LL * vh_abs32 (cr) + round) >> 32);
    const int c_a = (int) ((286331153LL * vh_abs32 (ca) + round) >> 32);

    d->fr += f_r;
    d->kr += (vh_i64) c_r - f_r;
    d->fa += f_a;
    d->ka += (vh_i64) c_a - f_a;
    if (!sc->wide_gains) {
      d->xr[b] = vh_abs32 (cr);
      d->xa[b] = vh_abs32 (ca);
    } else if (vec_cm) {
      d->xr[b] = csf64_signed (g, r);
      d->xa[b] = csf64_signed (g, a);
    } else {
      d->xr[b] = vh_abs32 (csf32 (g, r, false));
      d->xa[b] = vh_abs32 (csf32 (g, a, false));
    }
  }
}

static __device__ __forceinline__ void
decouple (const VhAdmGpuScale * sc, int y, int x, VhAdmDec < int >*d)
{
  decouple0 (sc, y, x, d);
}

static __device__ __forceinline__ void
decouple (const VhAdmGpuScale * sc, int y, int x, VhAdmDec < vh_i64 >*d)
{
  decouple_s123 (sc, y, x, d);
}

/* Reference energy of one sample of band @b. */
static __device__ __forceinline__ vh_u64
den_sample (const VhAdmGpuScale * sc, int b, vh_u64 off, int s0)
{
  if (s0) {
    const unsigned int m = (unsigned short) vh_abs32 (((const short *)
            sc->band[0][b])[off]);
    return (vh_u64) (m * m) * m;
  }
  const vh_u64 m = (unsigned int) vh_abs32 (((const int *)
          sc->band[0][b])[off]);
  const vh_u64 sq = (m * m + sc->den_sq_add) >> sc->den_sq_shift;
  return (sq * m + sc->den_cub_add) >> sc->den_cub_shift;
}

/* Masked cube of one band sample. */
static __device__ __forceinline__ vh_u64
cm_sample (const VhAdmGpuScale * sc, int b, int x, int thr)
{
  int v = (int) ((unsigned int) x - ((unsigned int) thr << sc->cm_sub[b]));
  v = v > 0 ? v : 0;
  const int sq = (int) (((vh_i64) v * v + sc->cm_sq_add[b]) >>
      sc->cm_sq_shift[b]);
  return (vh_u64) (((vh_i64) sq * v + sc->cm_cub_add[b]) >>
      sc->cm_cub_shift[b]);
}

static __device__ __forceinline__ vh_u64
cm_sample (const VhAdmGpuScale * sc, int b, vh_i64 x, vh_i64 thr, bool vec)
{
  int v;

  if (vec) {
    /* The vector code subtracts and clamps in 64 bits. */
    const vh_i64 d = x - thr;
    v = (int) (d > 0 ? d : 0);
  } else {
    v = (int) ((unsigned int) x - (unsigned int) thr);
    v = v > 0 ? v : 0;
  }
  const int sq = (int) (((vh_i64) v * v + sc->cm_sq_add[0]) >>
      sc->cm_sq_shift[0]);
  return (vh_u64) (((vh_i64) sq * v + sc->cm_cub_add[0]) >>
      sc->cm_cub_shift[0]);
}

/* One 32x8 tile of the scored region of a scale: decoupling of the tile
 * and its one-sample halo (rows and columns mirrored at the band edges as
 * the CPU twin does), 3x3 masking thresholds, the tile's per-row sums. */
template < typename TA >
static __device__ void
score_tile (const VhAdmGpuScale * sc, int bx, int by, vh_u64 * smem)
{
  TA (*tfr)[VH_ADM_HALO_W] = (TA (*)[VH_ADM_HALO_W]) smem;
  TA (*tfa)[VH_ADM_HALO_W] = tfr + VH_ADM_HALO_H;
  vh_u64 (*red)[VH_ADM_TH][VH_ADM_TW + 1] =
      (vh_u64 (*)[VH_ADM_TH][VH_ADM_TW + 1]) (smem +
      VH_ADM_HALO_H * VH_ADM_HALO_W * 2);
  const bool s0 = sizeof (TA) == 4;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * VH_ADM_TW + tx;
  const int j0 = sc->left + bx * VH_ADM_TW, k0 = sc->top + by * VH_ADM_TH;
  const int k = k0 + ty, j = j0 + tx;
  const bool active = k < sc->bottom && j < sc->right;
  const int kmax = vh_mini (k0 + VH_ADM_TH, sc->bottom) - 1;
  const int jmax = vh_mini (j0 + VH_ADM_TW, sc->right) - 1;
  VhAdmDec < TA > c;
  vh_u64 sums[VH_ADM_N_SUMS];

  for (int v = 0; v < VH_ADM_N_SUMS; v++)
    sums[v] = 0;
  if (active) {
    const vh_u64 off = (vh_u64) k * sc->pitch + j;
    decouple (sc, k, j, &c);
    tfr[ty + 1][tx + 1] = c.fr;
    tfa[ty + 1][tx + 1] = c.fa;
    for (int b = 0; b < 3; b++)
      sums[b] = den_sample (sc, b, off, s0);
  }
  /* The halo, and centre cells outside the scored region that a scored
   * neighbour reads. */
  for (int e = tid; e < VH_ADM_HALO_H * VH_ADM_HALO_W; e += VH_ADM_THREADS) {
    const int ly = e / VH_ADM_HALO_W, lx = e % VH_ADM_HALO_W;
    const int kk = k0 - 1 + ly, jj = j0 - 1 + lx;
    if (kk > kmax + 1 || jj > jmax + 1)
      continue;
    if (kk >= k0 && kk <= kmax && jj >= j0 && jj <= jmax)
      continue;
    const int pk = kk < 0 ? 1 : kk >= sc->hb ? sc->hb - 1 : kk;
    const int pj = jj < 0 ? 1 : jj >= sc->wb ? sc->wb - 1 : jj;
    VhAdmDec < TA > h;
    decouple (sc, pk, pj, &h);
    tfr[ly][lx] = h.fr;
    tfa[ly][lx] = h.fa;
  }
  __syncthreads ();

  if (active) {
    TA sr = 0, sa = 0;
    for (int dy = 0; dy < 3; dy++) {
      for (int dx = 0; dx < 3; dx++) {
        sr += tfr[ty + dy][tx + dx];
        sa += tfa[ty + dy][tx + dx];
      }
    }
    /* Detail loss: the restored part masked by the additive one; AIM: the
     * other way round. */
    const TA thr_dlm = sa + c.ka, thr_aim = sr + c.kr;
    const bool vec = k >= sc->signed_y0 && k < sc->signed_y1 &&
        j >= sc->signed_x0 && j < sc->signed_x1;
    for (int b = 0; b < 3; b++) {
      if (s0) {
        sums[3 + b] = cm_sample (sc, b, (int) c.xr[b], (int) thr_dlm);
        sums[6 + b] = cm_sample (sc, b, (int) c.xa[b], (int) thr_aim);
      } else {
        sums[3 + b] = cm_sample (sc, b, (vh_i64) c.xr[b], (vh_i64) thr_dlm,
            vec);
        sums[6 + b] = cm_sample (sc, b, (vh_i64) c.xa[b], (vh_i64) thr_aim,
            vec);
      }
    }
  }
  for (int v = 0; v < VH_ADM_N_SUMS; v++)
    red[v][ty][tx] = sums[v];
  __syncthreads ();
  if (tid < VH_ADM_N_SUMS * VH_ADM_TH) {
    const int v = tid / VH_ADM_TH, r = tid % VH_ADM_TH;
    if (k0 + r < sc->bottom) {
      vh_u64 s = 0;
      for (int x = 0; x < VH_ADM_TW; x++)
        s += red[v][r][x];
      ((vh_u64 *) sc->partial)[((vh_u64) (k0 + r - sc->top) * sc->ncb + bx) *
          VH_ADM_N_SUMS + v] = s;
    }
  }
}

#define VH_ADM_SMEM_WORDS (VH_ADM_HALO_H * VH_ADM_HALO_W * 2 + \
    VH_ADM_N_SUMS * VH_ADM_TH * (VH_ADM_TW + 1))

/* Every tile of scales @first..3 in one launch: scale s owns the blocks
 * from its block0 on. */
extern "C" __global__ void
vh_adm_score (const VhAdmGpuScale * sp, int first)
{
  __shared__ vh_u64 smem[VH_ADM_SMEM_WORDS];
  int b = blockIdx.x, s = 3;

  while (s > first && b < sp[s].block0)
    s--;
  const VhAdmGpuScale *sc = sp + s;
  b -= sc->block0;
  if (s == 0)
    score_tile < int >(sc, b % sc->ncb, b / sc->ncb, smem);
  else
    score_tile < vh_i64 > (sc, b % sc->ncb, b / sc->ncb, smem);
}

/* The sums of scale blockIdx.y: one thread per (band row, sum) adds the
 * row's tile sums and rounds them as the CPU twin rounds its row sums;
 * the block adds its rows in shared memory, then into @out (zeroed
 * beforehand) with one atomic per sum: integers, so the order does not
 * matter. Launch 256 threads, enough blocks in x for the largest scale. */
extern "C" __global__ void
vh_adm_reduce (const VhAdmGpuScale * sp, int first, vh_u64 * out)
{
  __shared__ vh_u64 red[VH_ADM_N_SUMS];
  const int s = blockIdx.y, tid = threadIdx.x;
  const VhAdmGpuScale *sc = sp + s;

  if (tid < VH_ADM_N_SUMS)
    red[tid] = 0;
  __syncthreads ();
  const int idx = blockIdx.x * VH_ADM_THREADS + tid;
  if (s >= first && idx < (sc->bottom - sc->top) * VH_ADM_N_SUMS) {
    const int r = idx / VH_ADM_N_SUMS, v = idx % VH_ADM_N_SUMS;
    const int ncb = sc->ncb;
    const vh_u64 *p = (const vh_u64 *) sc->partial +
        (vh_u64) r * ncb * VH_ADM_N_SUMS + v;
    vh_u64 row = 0, rounded;
    for (int cb = 0; cb < ncb; cb++)
      row += p[(vh_u64) cb * VH_ADM_N_SUMS];
    if (v < 3)
      rounded = (row + sc->den_row_add) >> sc->den_row_shift;
    else
      rounded = (vh_u64) ((vh_i64) (row + (vh_u64) sc->cm_row_add) >>
          sc->cm_row_shift);
    atomicAdd (&red[v], rounded);
  }
  __syncthreads ();
  if (tid < VH_ADM_N_SUMS && red[tid] != 0)
    atomicAdd (&out[s * VH_ADM_N_SUMS + tid], red[tid]);
}
