/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* float_adm: one scale's single-precision sums in the order of
 * src/features/float-adm-dwt.c and float-adm-kernels.c.
 *
 *  - vh_fadm_dwt, one thread per output sample: a Daubechies-2 level, the
 *    vertical pass of the four columns it needs, then the horizontal, each
 *    a sum of four products in order; edges reflected as the CPU twin
 *    does.
 *  - vh_fadm_decouple_bands, one thread per sample of the filter region: the
 *    distorted bands split into restored (r) and additive (a) parts.
 *  - vh_fadm_terms, one thread per sample of the scored region: the
 *    contrast-masking thresholds (3x3 neighbourhoods of the weighted bands,
 *    the centre's add in double) and the p-th powers of the numerator, the
 *    denominator and AIM, three bands each, written column-major.
 *  - vh_fadm_rows, one thread per row and term: the row's sum left to
 *    right; vh_fadm_total, one thread per term: the rows top to bottom.
 *
 * The host takes each band's p-th root. No fused multiply-adds. The CPU
 * twin divides by x86's reciprocal estimate refined by one Newton step
 * (exactly where it has no SSE): the estimate comes from a table the host
 * made on its own processor (vh_fadm_rcp_table), so the division is the
 * CPU twin's too. Only powf of p-norms other than 3 is the GPU's. */

#if defined(__HIP__) && !defined(__HIPCC_RTC__) && !defined(VH_HIP_RTC)
#include <hip/hip_runtime.h>
#endif

#if defined(__CUDACC__)
#define FMUL(a, b) __fmul_rn ((a), (b))
#define FADD(a, b) __fadd_rn ((a), (b))
#define FSUB(a, b) __fadd_rn ((a), -(b))
#define DMUL(a, b) __dmul_rn ((a), (b))
#define DADD(a, b) __dadd_rn ((a), (b))
#else
#pragma clang fp contract(off)
#define FMUL(a, b) ((a) * (b))
#define FADD(a, b) ((a) + (b))
#define FSUB(a, b) ((a) - (b))
#define DMUL(a, b) ((a) * (b))
#define DADD(a, b) ((a) + (b))
#endif

/* libvmaf's 1/30 and 1/15, double constants with float-like digits. */
#define VH_FADM_ONE_BY_30 0.0333333351
#define VH_FADM_ONE_BY_15 0.0666666701

#define VH_FADM_N_TERMS 9       /* num h v d, den h v d, aim h v d */

typedef unsigned long long vh_u64;

__constant__ float vh_fadm_lo[4] = {
  (float) 0.482962913144690, (float) 0.836516303737469,
  (float) 0.224143868041857, (float) -0.129409522550921
};

__constant__ float vh_fadm_hi[4] = {
  (float) -0.129409522550921, (float) -0.224143868041857,
  (float) 0.836516303737469, (float) -0.482962913144690
};

/* Must match the layout in hip-float-adm.c. */
struct vh_fadm_args
{
  const float *oh, *ov, *od;    /* reference bands */
  const float *th, *tv, *td;    /* distorted bands */
  float *rh, *rv, *rd;          /* restored */
  float *ah, *av, *ad;          /* additive impairment */
  float *terms;                 /* VH_FADM_N_TERMS x scored region */
  float *rows;                  /* VH_FADM_N_TERMS x its rows */
  vh_u64 stride;                /* floats between band rows */
  int width, height;            /* of the bands */
  int fl, ft, fr, fb;           /* filter region [fl, fr) x [ft, fb) */
  int sl, st, sr, sb;           /* scored region */
  float rf[3];                  /* weights of h, v, d */
  float cos_1deg_sq;
  double gain_limit;
  double p_norm;
  int bypass_cm;
  unsigned int rcp_shift;       /* 23 - the table's mantissa bits */
  const unsigned int *rcp_table;        /* NULL: divide exactly */
};

static __device__ __forceinline__ int
fadm_mirror (int k, int n)
{
  if (k < 0)
    return -k;
  if (k >= n)
    return 2 * n - k - 1;
  return k;
}

static __device__ __forceinline__ float
fadm_taps4 (const float *c, float s0, float s1, float s2, float s3)
{
  float acc = 0.0f;

  acc = FADD (acc, FMUL (c[0], s0));
  acc = FADD (acc, FMUL (c[1], s1));
  acc = FADD (acc, FMUL (c[2], s2));
  acc = FADD (acc, FMUL (c[3], s3));
  return acc;
}

/* @src: @w x @h, rows @ss floats apart; bands (w + 1) / 2 x (h + 1) / 2,
 * rows @ds apart; with @lo_only, @a alone. */
extern "C" __global__ void
vh_fadm_dwt (const float *src, vh_u64 ss, int w, int h, float *a, float *v,
    float *hb, float *d, vh_u64 ds, int lo_only)
{
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  const float *r[4];
  float lo[4], hi[4];
  vh_u64 o;

  if (j >= (w + 1) / 2 || i >= (h + 1) / 2)
    return;
  for (int k = 0; k < 4; k++)
    r[k] = src + (vh_u64) fadm_mirror (2 * i - 1 + k, h) * ss;
  for (int k = 0; k < 4; k++) {
    const int c = fadm_mirror (2 * j - 1 + k, w);
    lo[k] = fadm_taps4 (vh_fadm_lo, r[0][c], r[1][c], r[2][c], r[3][c]);
    hi[k] = fadm_taps4 (vh_fadm_hi, r[0][c], r[1][c], r[2][c], r[3][c]);
  }
  o = (vh_u64) i * ds + j;
  a[o] = fadm_taps4 (vh_fadm_lo, lo[0], lo[1], lo[2], lo[3]);
  if (lo_only)
    return;
  v[o] = fadm_taps4 (vh_fadm_hi, lo[0], lo[1], lo[2], lo[3]);
  hb[o] = fadm_taps4 (vh_fadm_lo, hi[0], hi[1], hi[2], hi[3]);
  d[o] = fadm_taps4 (vh_fadm_hi, hi[0], hi[1], hi[2], hi[3]);
}

/* x86's reciprocal estimate of @x (vh_fadm_rcp_lookup). */
static __device__ __forceinline__ float
fadm_rcp (float x, const unsigned int *table, unsigned int shift)
{
  const unsigned int u = __float_as_uint (x), sign = u & 0x80000000u;
  const int e = (u >> 23) & 0xff;
  unsigned int entry;
  int re;

  if (e == 0)
    return __uint_as_float (sign | 0x7f800000u);
  if (e == 255)
    return (u & 0x7fffffu) ? x : __uint_as_float (sign);
  entry = table[(u & 0x7fffffu) >> shift];
  re = (int) ((entry >> 23) & 0xff) - (e - 127);
  if (re <= 0)
    return __uint_as_float (sign);
  return __uint_as_float (sign | ((unsigned int) re << 23) |
      (entry & 0x7fffffu));
}

/* n / (d + eps) in the CPU twin's steps: the reciprocal estimate refined
 * by one Newton step, then the product; plain division without a table. */
static __device__ __forceinline__ float
fadm_div (float n, float d, const unsigned int *table, unsigned int shift)
{
  const float x = FADD (d, 1e-30f);
  float r;

  if (!table)
    return n / x;
  r = fadm_rcp (x, table, shift);
  return FMUL (n, FADD (r, FMUL (r, FSUB (1.0f, FMUL (x, r)))));
}

static __device__ __forceinline__ float
fadm_clamp01 (float k)
{
  return k < 0.0f ? 0.0f : (k > 1.0f ? 1.0f : k);
}

/* The gain may exceed one up to @limit within a degree of the reference
 * direction, in double. */
static __device__ __forceinline__ float
fadm_enhance (float rst, float t, int aligned, double limit)
{
  const double up = DMUL ((double) rst, limit);
  const float r1 = (aligned && rst > 0.0f) ?
      (float) (up < (double) t ? up : (double) t) : rst;
  const double down = DMUL ((double) r1, limit);

  return (aligned && r1 < 0.0f) ?
      (float) (down > (double) t ? down : (double) t) : r1;
}

extern "C" __global__ void
vh_fadm_decouple_bands (struct vh_fadm_args a)
{
  const int j = a.fl + blockIdx.x * blockDim.x + threadIdx.x;
  const int i = a.ft + blockIdx.y * blockDim.y + threadIdx.y;
  float oh, ov, od, th, tv, td, h, v, d, dot, o_sq, t_sq;
  int aligned;
  vh_u64 o;

  if (j >= a.fr || i >= a.fb)
    return;
  o = (vh_u64) i * a.stride + j;
  oh = a.oh[o];
  ov = a.ov[o];
  od = a.od[o];
  th = a.th[o];
  tv = a.tv[o];
  td = a.td[o];
  h = FMUL (fadm_clamp01 (fadm_div (th, oh, a.rcp_table, a.rcp_shift)), oh);
  v = FMUL (fadm_clamp01 (fadm_div (tv, ov, a.rcp_table, a.rcp_shift)), ov);
  d = FMUL (fadm_clamp01 (fadm_div (td, od, a.rcp_table, a.rcp_shift)), od);
  /* Angle test without trigonometry, as the CPU twin. */
  dot = FADD (FMUL (oh, th), FMUL (ov, tv));
  o_sq = FADD (FMUL (oh, oh), FMUL (ov, ov));
  t_sq = FADD (FMUL (th, th), FMUL (tv, tv));
  aligned = (dot >= 0.0f) &&
      (FMUL (dot, dot) >= FMUL (FMUL (a.cos_1deg_sq, o_sq), t_sq));
  h = fadm_enhance (h, th, aligned, a.gain_limit);
  v = fadm_enhance (v, tv, aligned, a.gain_limit);
  d = fadm_enhance (d, td, aligned, a.gain_limit);
  a.rh[o] = h;
  a.rv[o] = v;
  a.rd[o] = d;
  a.ah[o] = FSUB (th, h);
  a.av[o] = FSUB (tv, v);
  a.ad[o] = FSUB (td, d);
}

/* The masking neighbour value of a weighted band sample. */
static __device__ __forceinline__ float
fadm_flt (const float *b, vh_u64 o, float rf)
{
  return (float) DMUL (VH_FADM_ONE_BY_30, (double) fabsf (FMUL (rf, b[o])));
}

/* Masking sum of band @b at (@i, @j): the 3x3 neighbourhood in raster
 * order, the centre replaced by |weighted| / 15 added in double. */
static __device__ __forceinline__ float
fadm_mask3x3 (const float *b, float rf, vh_u64 up, vh_u64 mid, vh_u64 dn,
    int jl, int j, int jr)
{
  float sum = 0.0f;

  sum = FADD (sum, fadm_flt (b, up + jl, rf));
  sum = FADD (sum, fadm_flt (b, up + j, rf));
  sum = FADD (sum, fadm_flt (b, up + jr, rf));
  sum = FADD (sum, fadm_flt (b, mid + jl, rf));
  sum = (float) DADD ((double) sum, DMUL (VH_FADM_ONE_BY_15,
          (double) fabsf (FMUL (rf, b[mid + j]))));
  sum = FADD (sum, fadm_flt (b, mid + jr, rf));
  sum = FADD (sum, fadm_flt (b, dn + jl, rf));
  sum = FADD (sum, fadm_flt (b, dn + j, rf));
  sum = FADD (sum, fadm_flt (b, dn + jr, rf));
  return sum;
}

static __device__ __forceinline__ float
fadm_term (float s, float rf, float thr, double p)
{
  float x = FSUB (fabsf (FMUL (s, rf)), thr);

  x = x < 0.0f ? 0.0f : x;
  return p == 3.0 ? FMUL (FMUL (x, x), x) : powf (x, (float) p);
}

extern "C" __global__ void
vh_fadm_terms (struct vh_fadm_args a)
{
  const int j = a.sl + blockIdx.x * blockDim.x + threadIdx.x;
  const int i = a.st + blockIdx.y * blockDim.y + threadIdx.y;
  const int w = a.width, h = a.height;
  const float *rb[3] = { a.rh, a.rv, a.rd };
  const float *ab[3] = { a.ah, a.av, a.ad };
  const float *ob[3] = { a.oh, a.ov, a.od };
  float thr_num = 0.0f, thr_aim = 0.0f;
  vh_u64 up, mid, dn, out, plane;

  if (j >= a.sr || i >= a.sb)
    return;
  /* Row -1 reads row 1, row h reads row h - 1; columns likewise. */
  up = (vh_u64) (i == 0 ? 1 : i - 1) * a.stride;
  mid = (vh_u64) i * a.stride;
  dn = (vh_u64) (i == h - 1 ? h - 1 : i + 1) * a.stride;
  if (!a.bypass_cm) {
    const int jl = j == 0 ? 1 : j - 1, jr = j == w - 1 ? w - 1 : j + 1;
    for (int t = 0; t < 3; t++) {
      thr_num = FADD (thr_num, fadm_mask3x3 (ab[t], a.rf[t], up, mid, dn, jl,
              j, jr));
      thr_aim = FADD (thr_aim, fadm_mask3x3 (rb[t], a.rf[t], up, mid, dn, jl,
              j, jr));
    }
  }
  plane = (vh_u64) (a.sr - a.sl) * (a.sb - a.st);
  out = (vh_u64) (j - a.sl) * (a.sb - a.st) + (i - a.st);
  for (int t = 0; t < 3; t++) {
    a.terms[t * plane + out] = fadm_term (rb[t][mid + j], a.rf[t], thr_num,
        a.p_norm);
    a.terms[(3 + t) * plane + out] = fadm_term (ob[t][mid + j], a.rf[t],
        0.0f, a.p_norm);
    a.terms[(6 + t) * plane + out] = fadm_term (ab[t][mid + j], a.rf[t],
        thr_aim, a.p_norm);
  }
}

/* Grid (rows / blockDim.x, VH_FADM_N_TERMS). */
extern "C" __global__ void
vh_fadm_rows (struct vh_fadm_args a)
{
  const int y = blockIdx.x * blockDim.x + threadIdx.x;
  const int q = blockIdx.y;
  const int n = a.sr - a.sl, n_rows = a.sb - a.st;
  const float *terms = a.terms + (vh_u64) q * n * n_rows;
  float s = 0.0f;

  if (y >= n_rows)
    return;
  for (int x = 0; x < n; x++)
    s = FADD (s, terms[(vh_u64) x * n_rows + y]);
  a.rows[q * n_rows + y] = s;
}

/* One block of VH_FADM_N_TERMS threads; @out: each term's total. */
extern "C" __global__ void
vh_fadm_total (struct vh_fadm_args a, float *out)
{
  const int q = threadIdx.x;
  const int n_rows = a.sb - a.st;
  float s = 0.0f;

  if (q >= VH_FADM_N_TERMS)
    return;
  for (int y = 0; y < n_rows; y++)
    s = FADD (s, a.rows[q * n_rows + y]);
  out[q] = s;
}
