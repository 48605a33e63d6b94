/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* SpEED, second half: from each plane's covariance to the score, in the
 * CPU twin's single-precision order (src/features/speed.c,
 * speed-linalg.c).
 *
 *  1. vh_speed_estimate, two blocks per plane, side by side: one finds
 *     the eigenvalues of the covariance (Householder tridiagonalisation
 *     with the matrix-vector products and the rank-two update spread over
 *     the threads, each element still one sum in the CPU's order;
 *     implicit QR steps on one thread), the other solves with it (the
 *     Householder QR factorisation, each matrix product element on its
 *     own thread; one back substitution per 5x5 block of the plane).
 *  2. vh_speed_entropy, one block per plane: each 5x5 block's variance
 *     and entropy.
 *  3. vh_speed_pool, one thread per (reference, distorted) pair of
 *     planes: libvmaf's pooling, the score and the error flag into the
 *     frame's result slot.
 *
 * log2 and sqrt are taken in double as the CPU takes them; the GPU's
 * log2 may differ from glibc's in the last place of a double, which shows
 * in a float only in the rarest cases. */

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
#define DDIV(a, b) __ddiv_rn ((a), (b))
#define DRCP(a) __drcp_rn (a)
#else
#pragma clang fp contract(off)
#define FMUL(a, b) ((a) * (b))
#define FADD(a, b) ((a) + (b))
#define FSUB(a, b) ((a) - (b))
#define FDIV(a, b) ((a) / (b))
#define DMUL(a, b) ((double) (a) * (double) (b))
#define DADD(a, b) ((double) (a) + (double) (b))
#define DDIV(a, b) ((double) (a) / (double) (b))
#define DRCP(a) (1.0 / (double) (a))
#endif

#define N 25                    /* samples of a 5x5 block */
#define EIG_EPS 1e-6
#define EIG_MAX_ITERATIONS 500

typedef unsigned long long vh_u64;

/* Must match VhHipSpeedSolveArgs in hip-speed-common.h. */
struct vh_speed_solve_args
{
  const float *op;              /* per plane: oh x ow (filter module) */
  const float *cov;             /* per plane: 25 x 25 */
  float *indep;                 /* per plane: 25 x nb, block samples */
  float *sol;                   /* per plane: 25 x nb */
  float *qtb;                   /* per plane: 25 x nb */
  float *entropy;               /* per plane: nb */
  float *variance;              /* per plane: nb */
  float *eig;                   /* per plane: 25 */
  int *ok;                      /* per plane: eigenvalues regular, then
                                 * per plane: solved */
  float *out;                   /* result slot: per pair, score then flag */
  unsigned int n_planes;
  unsigned int ow, oh;
  unsigned int nbh, nbv, nb;
  int weight_var_mode;
  float sigma_nn;
  float noise_entropy;
  double log2_2pie;
};

static __device__ __forceinline__ float
sign_of (float x)
{
  return x >= 0 ? 1.0f : -1.0f;
}

/* sqrt of a float in double, rounded back: the CPU's sqrt (float). */
static __device__ __forceinline__ float
fsqrt_d (float x)
{
  return (float) sqrt ((double) x);
}

static __device__ __forceinline__ float
hypot_f (float x, float y)
{
  return fsqrt_d (FADD (FMUL (x, x), FMUL (y, y)));
}

/* ---- eigenvalues (one thread unless said) -------------------------- */

static __device__ float
householder (float *a, int col, int start)
{
  float xnorm = 0, alpha, beta, tau, s;

  if (N - start == 1)
    return 0.0f;
  for (int i = start + 1; i < N; i++)
    xnorm = FADD (xnorm, FMUL (a[i * N + col], a[i * N + col]));
  xnorm = fsqrt_d (xnorm);
  if (xnorm == 0.0f)
    return 0.0f;
  alpha = a[start * N + col];
  beta = FMUL (-sign_of (alpha), hypot_f (alpha, xnorm));
  tau = FDIV (FSUB (beta, alpha), beta);
  s = FSUB (alpha, beta);
  if (s != 0.0f) {
    for (int i = start; i < N; i++)
      a[i * N + col] = FDIV (a[i * N + col], s);
    a[start * N + col] = beta;
  }
  return tau;
}

/* All threads of the block. */
static __device__ void
tridiagonalize (float *a, float *d, float *sd, float *v, float *x,
    float *shared_scalar)
{
  const int t = threadIdx.x, nt = blockDim.x;

  for (int i = 0; i + 2 < N; i++) {
    const int s = i + 1, m = N - s;
    float tau;

    if (t == 0) {
      tau = householder (a, i, s);
      for (int j = s; j < N; j++)
        v[j] = a[j * N + i];
      if (tau != 0.0f) {
        a[s * N + i] = v[s];
        v[s] = 1.0f;
      }
      shared_scalar[0] = tau;
    }
    __syncthreads ();
    tau = shared_scalar[0];
    if (tau == 0.0f) {
      __syncthreads ();         /* all have read it before it changes */
      continue;
    }
    for (int r = s + t; r < N; r += nt) {
      float acc = 0.0f;
      for (int c = s; c < N; c++)
        acc = FADD (acc, FMUL (FMUL (tau, a[r * N + c]), v[c]));
      x[r] = acc;
    }
    __syncthreads ();
    if (t == 0) {
      float xv = 0;
      for (int r = s; r < N; r++)
        xv = FADD (xv, FMUL (x[r], v[r]));
      shared_scalar[1] = (float) DMUL (DMUL (-0.5, tau), xv);
    }
    __syncthreads ();
    const float alpha = shared_scalar[1];
    for (int r = s + t; r < N; r += nt)
      x[r] = FADD (x[r], FMUL (alpha, v[r]));
    __syncthreads ();
    for (int e = t; e < m * m; e += nt) {
      const int r = s + e / m, c = s + e % m;
      a[r * N + c] = FSUB (a[r * N + c], FADD (FMUL (x[r], v[c]),
              FMUL (v[r], x[c])));
    }
    __syncthreads ();
  }
  for (int i = t; i < N; i += nt) {
    d[i] = a[i * N + i];
    if (i + 1 < N)
      sd[i] = a[(i + 1) * N + i];
  }
  __syncthreads ();
}

static __device__ void
chop_small (float *d, float *sd, int n)
{
  for (int i = 0; i + 1 < n; i++) {
    if ((double) fabsf (sd[i]) < DMUL (EIG_EPS, FADD (fabsf (d[i]),
                fabsf (d[i + 1]))))
      sd[i] = 0.0f;
  }
}

static __device__ float
wilkinson_shift (const float *d, const float *sd, int n)
{
  const float ta = d[n - 2], tb = d[n - 1], tab = sd[n - 2];
  const float dt = (float) DDIV (FSUB (ta, tb), 2.0);

  if (dt > 0)
    return FSUB (tb, FMUL (tab, FDIV (tab, FADD (dt, hypot_f (dt, tab)))));
  if (dt == 0)
    return FSUB (tb, fabsf (tab));
  return FADD (tb, FMUL (tab, FDIV (tab, FADD (-dt, hypot_f (dt, tab)))));
}

static __device__ void
givens (float a, float b, float *c, float *s)
{
  if (b == 0) {
    *c = 1;
    *s = 0;
  } else if (fabsf (b) > fabsf (a)) {
    const float t = FDIV (-a, b);
    /* 1.0 / sqrt (...): both correctly rounded, the reciprocal alone. */
    const float s1 = (float) DRCP (sqrt ((double) FADD (1.0f,
                FMUL (t, t))));
    *s = s1;
    *c = FMUL (s1, t);
  } else {
    const float t = FDIV (-b, a);
    const float c1 = (float) DRCP (sqrt ((double) FADD (1.0f,
                FMUL (t, t))));
    *c = c1;
    *s = FMUL (c1, t);
  }
}

/* c (c ap - s bp) + s (s aq - c bp) and its companions, as the CPU. */
#define ROT_A(c, s, ap, bp, aq) \
  FADD (FMUL (c, FSUB (FMUL (c, ap), FMUL (s, bp))), \
      FMUL (s, FSUB (FMUL (s, aq), FMUL (c, bp))))
#define ROT_B(c, s, ap, bp, aq) \
  FSUB (FMUL (c, FADD (FMUL (s, ap), FMUL (c, bp))), \
      FMUL (s, FADD (FMUL (s, bp), FMUL (c, aq))))
#define ROT_Q(c, s, ap, bp, aq) \
  FADD (FMUL (s, FADD (FMUL (s, ap), FMUL (c, bp))), \
      FMUL (c, FADD (FMUL (s, bp), FMUL (c, aq))))

static __device__ void
qr_step (float *d, float *sd, int n)
{
  float mu = wilkinson_shift (d, sd, n);
  float x, z, ak = 0, bk = 0, zk = 0, ap, bp, aq, bq;

  if (DMUL (EIG_EPS, fabsf (mu)) > (double) FADD (fabsf (d[0]),
          fabsf (sd[0])))
    mu = 0;
  x = FSUB (d[0], mu);
  z = sd[0];
  ap = d[0];
  bp = sd[0];
  aq = d[1];

  if (n == 2) {
    float c, s;
    givens (x, z, &c, &s);
    d[0] = ROT_A (c, s, ap, bp, aq);
    sd[0] = ROT_B (c, s, ap, bp, aq);
    d[1] = ROT_Q (c, s, ap, bp, aq);
    return;
  }

  bq = sd[1];
  for (int k = 0; k + 1 < n; k++) {
    float c, s;
    givens (x, z, &c, &s);
    const float bk1 = FSUB (FMUL (c, bk), FMUL (s, zk));
    const float ap1 = ROT_A (c, s, ap, bp, aq);
    const float bp1 = ROT_B (c, s, ap, bp, aq);
    const float zp1 = FMUL (-s, bq);
    const float aq1 = ROT_Q (c, s, ap, bp, aq);
    const float bq1 = FMUL (c, bq);

    ak = ap1;
    bk = bp1;
    zk = zp1;
    ap = aq1;
    bp = bq1;
    if (k + 2 < n)
      aq = d[k + 2];
    if (k + 3 < n)
      bq = sd[k + 2];
    d[k] = ak;
    if (k > 0)
      sd[k - 1] = bk1;
    if (k + 2 < n)
      sd[k + 1] = bp;
    x = bk;
    z = zk;
  }
  d[n - 1] = ap;
  sd[n - 2] = bk;
}

static __device__ void
symmetric_qr (float *d, float *sd)
{
  int b = N - 1, iterations = 0;

  chop_small (d, sd, N);
  while (b > 0 && iterations < EIG_MAX_ITERATIONS) {
    int start;
    if (sd[b - 1] == 0.0f) {
      b--;
      continue;
    }
    start = b - 1;
    while (start > 0 && sd[start - 1] != 0.0f)
      start--;
    qr_step (d + start, sd + start, b - start + 1);
    chop_small (d + start, sd + start, b - start + 1);
    iterations++;
  }
}

/* ---- linear solve (all threads) ------------------------------------- */

/* dst = x y (N x N times N x m), each element one sum over k in order;
 * zero x[i][k] skipped as the CPU does (it cannot change the sum). */
static __device__ void
mat_mul (float *dst, const float *x, const float *y, int m)
{
  for (int e = threadIdx.x; e < N * m; e += blockDim.x) {
    const int i = e / m, j = e % m;
    float acc = 0.0f;
    for (int k = 0; k < N; k++) {
      const float xik = x[i * N + k];
      if (xik == 0.0f)
        continue;
      acc = FADD (acc, FMUL (xik, y[k * m + j]));
    }
    dst[e] = acc;
  }
}

static __device__ float
norm_f (const float *v)
{
  float sum = 0;

  for (int i = 0; i < N; i++)
    sum = FADD (sum, FMUL (v[i], v[i]));
  return fsqrt_d (sum);
}

/* The CPU's qr_factor, leaving q as the product of the reflections (the
 * CPU's transposes cancel out in its solve) and r = q a. @tmp: N x N. */
static __device__ void
qr_factor (const float *a, float *q, float *r, float *h, float *z,
    float *tmp, float *v)
{
  const int t = threadIdx.x, nt = blockDim.x;

  for (int e = t; e < N * N; e += nt) {
    z[e] = a[e];
    q[e] = e / N == e % N ? 1.0f : 0.0f;
  }
  __syncthreads ();
  for (int k = 0; k + 1 < N; k++) {
    for (int e = t; e < N * N; e += nt) {
      const int i = e / N, j = e % N;
      if (i < k || j < k)
        z[e] = i == j ? 1.0f : 0.0f;
    }
    __syncthreads ();
    if (t == 0) {
      for (int i = 0; i < N; i++)
        v[i] = z[i * N + k];
      const float norm = norm_f (v);
      v[k] = FADD (v[k], FMUL (sign_of (a[k * N + k]), norm));
      const float vn = norm_f (v);
      for (int i = 0; i < N; i++)
        v[i] = FDIV (v[i], vn);
    }
    __syncthreads ();
    for (int e = t; e < N * N; e += nt) {
      const int i = e / N, j = e % N;
      float hv = FMUL (FMUL (-2.0f, v[i]), v[j]);
      h[e] = i == j ? FADD (hv, 1.0f) : hv;
    }
    __syncthreads ();
    mat_mul (r, h, z, N);
    mat_mul (tmp, h, q, N);
    __syncthreads ();
    for (int e = t; e < N * N; e += nt) {
      z[e] = r[e];
      q[e] = tmp[e];
    }
    __syncthreads ();
  }
  mat_mul (r, q, a, N);
  __syncthreads ();
}

/* Eigenvalues of plane @pl's covariance into a.eig; a.ok[pl]: all of
 * them at least 1e-6 (the CPU solves only then). */
static __device__ void
estimate_eigen (const struct vh_speed_solve_args *a, unsigned int pl)
{
  __shared__ float m[N * N];
  __shared__ float d[N], sd[N], v[N], x[N];
  __shared__ float scalars[2];
  const int t = threadIdx.x, nt = blockDim.x;

  for (int e = t; e < N * N; e += nt)
    m[e] = a->cov[pl * N * N + e];
  __syncthreads ();
  tridiagonalize (m, d, sd, v, x, scalars);
  if (t == 0) {
    int regular = 1;
    symmetric_qr (d, sd);
    for (int k = 0; k < N; k++) {
      a->eig[pl * N + k] = d[k];
      if ((double) d[k] < EIG_EPS)
        regular = 0;
    }
    a->ok[pl] = regular;
  }
}

/* The right-hand side (sample k of every block in row k) and the solution
 * of cov x = it into a.sol; a.ok[n_planes + pl]: solved. */
static __device__ void
estimate_solve (const struct vh_speed_solve_args *a, unsigned int pl)
{
  __shared__ float cov[N * N], q[N * N], r[N * N], h[N * N], z[N * N];
  __shared__ float tmp[N * N], v[N];
  __shared__ int solved;
  const int t = threadIdx.x, nt = blockDim.x;
  const int nb = a->nb, ow = a->ow;
  const float *op = a->op + (vh_u64) pl * ow * a->oh;
  float *indep = a->indep + (vh_u64) pl * N * nb;
  float *sol = a->sol + (vh_u64) pl * N * nb;
  float *qtb = a->qtb + (vh_u64) pl * N * nb;

  for (int e = t; e < N * N; e += nt)
    cov[e] = a->cov[pl * N * N + e];
  for (int e = t; e < N * nb; e += nt) {
    const int k = e / nb, blk = e % nb;
    const int si = k / 5, sj = k % 5;
    const int bi = blk / a->nbh, bj = blk % a->nbh;
    indep[e] = op[(bi * 5 + si) * ow + bj * 5 + sj];
  }
  __syncthreads ();

  qr_factor (cov, q, r, h, z, tmp, v);
  /* q' b, with q' b = (the reflections) b. */
  mat_mul (qtb, q, indep, nb);
  if (t == 0) {
    solved = 1;
    for (int i = N - 1; i >= 0; i--) {
      if ((double) fabsf (r[i * N + i]) < EIG_EPS) {
        solved = 0;
        break;
      }
    }
  }
  __syncthreads ();
  if (solved) {
    for (int j = t; j < nb; j += nt) {
      for (int i = N - 1; i >= 0; i--) {
        const float den = r[i * N + i];
        float s = qtb[i * nb + j];
        for (int k = i + 1; k < N; k++)
          s = FSUB (s, FMUL (sol[k * nb + j], r[i * N + k]));
        sol[i * nb + j] = FDIV (s, den);
      }
    }
  }
  if (t == 0)
    a->ok[a->n_planes + pl] = solved;
}

/* Blocks 0 .. n_planes - 1: the eigenvalues of each plane; the next
 * n_planes blocks: the linear solves, at the same time (they only share
 * the covariance). 256 threads. */
extern "C" __global__ void
vh_speed_estimate (struct vh_speed_solve_args a)
{
  if (blockIdx.x < a.n_planes)
    estimate_eigen (&a, blockIdx.x);
  else if (blockIdx.x < 2 * a.n_planes)
    estimate_solve (&a, blockIdx.x - a.n_planes);
}

/* Whether plane @pl could be estimated (libvmaf's ok). */
static __device__ __forceinline__ int
plane_ok (const struct vh_speed_solve_args *a, unsigned int pl)
{
  return a->ok[pl] && a->ok[a->n_planes + pl];
}

/* One block per plane: each block's variance (sum over k of x y / 25,
 * x = 0 where the plane could not be estimated) and entropy. */
extern "C" __global__ void
vh_speed_entropy (struct vh_speed_solve_args a)
{
  const unsigned int pl = blockIdx.x;
  const int nb = a.nb;
  const float *indep = a.indep + (vh_u64) pl * N * nb;
  const float *sol = a.sol + (vh_u64) pl * N * nb;
  const float *eig = a.eig + pl * N;
  const int ok = plane_ok (&a, pl);

  for (int j = threadIdx.x; j < nb; j += blockDim.x) {
    float var = 0.0f, e = 0.0f;
    for (int k = 0; k < N; k++) {
      const float x = ok ? sol[k * nb + j] : 0.0f;
      const float term = FDIV (FMUL (x, indep[k * nb + j]), (float) N);
      var = k == 0 ? term : FADD (var, term);
    }
    for (int k = 0; k < N; k++) {
      const float l = eig[k] < 0 ? 0.0f : eig[k];
      e = (float) DADD (e, DADD (log2 ((double) FADD (FMUL (l, var),
                      a.sigma_nn)), a.log2_2pie));
    }
    a.entropy[pl * nb + j] = e;
    a.variance[pl * nb + j] = var;
  }
}

/* ---- pooling -------------------------------------------------------- */

/* One side's weighted entropy difference terms, by weight_var_mode. */
static __device__ int
weighted (int mode, float er, float ed, float vr, float vd, float *r,
    float *d)
{
  switch (mode) {
    case 0:
      *r = (float) DMUL (er, log2 ((double) FADD (1.0f, vr)));
      *d = (float) DMUL (ed, log2 ((double) FADD (1.0f, vd)));
      return 1;
    case 1:
      *r = (float) DMUL (er, log2 ((double) FADD (1.0f, vr)));
      *d = (float) DMUL (ed, log2 ((double) FADD (1.0f, vr)));
      return 1;
    case 2:
      *r = (float) DMUL (er, log2 ((double) FADD (1.0f, vd)));
      *d = (float) DMUL (ed, log2 ((double) FADD (1.0f, vd)));
      return 1;
    case 3:{
      const double m = DADD (1.0, DDIV ((double) FADD (vr, vd), 2.0));
      *r = (float) DMUL (er, log2 (m));
      *d = (float) DMUL (ed, log2 (m));
      return 1;
    }
    case 4:
      *r = (float) DMUL (er, log2 ((double) FADD (1.0f, vr)));
      *d = (float) DMUL (ed, log2 (DADD (1.0, DDIV ((double) FADD (vr, vd),
                      2.0))));
      return 1;
    case 5:
      *r = (float) DMUL (er, log2 ((double) FADD (1.0f, vr)));
      *d = (float) DMUL (ed, log2 (DADD (1.0, DADD (DMUL (0.75, vr),
                      DMUL (0.25, vd)))));
      return 1;
    case 6:
      *r = (float) DMUL (er, log2 ((double) FADD (1.0f, vr)));
      *d = (float) DMUL (ed, log2 (DADD (1.0, DADD (DMUL (0.25, vr),
                      DMUL (0.75, vd)))));
      return 1;
    default:
      return 0;
  }
}

/* One thread per pair: planes 2 p (reference) and 2 p + 1 (distorted).
 * Writes out[2 p] = score, out[2 p + 1] = 1 where either covariance
 * could not be inverted. */
extern "C" __global__ void
vh_speed_pool (struct vh_speed_solve_args a)
{
  const unsigned int p = threadIdx.x, pr = 2 * p, pd = 2 * p + 1;
  const float *er = a.entropy + (vh_u64) pr * a.nb;
  const float *ed = a.entropy + (vh_u64) pd * a.nb;
  const float *vr = a.variance + (vh_u64) pr * a.nb;
  const float *vd = a.variance + (vh_u64) pd * a.nb;
  int ok_ref, ok_dis;
  float score = 0;

  if (pd >= a.n_planes)
    return;
  ok_ref = plane_ok (&a, pr);
  ok_dis = plane_ok (&a, pd);
  if (ok_ref != ok_dis) {
    /* One side numerically unstable: 0 rather than an inflated score. */
    score = 0.0f;
  } else {
    unsigned int i;
    for (i = 0; i < a.nb; i++) {
      float r, d;
      if (er[i] < a.noise_entropy && ed[i] < a.noise_entropy)
        continue;
      if (!weighted (a.weight_var_mode, er[i], ed[i], vr[i], vd[i], &r, &d))
        break;
      score = FADD (score, fabsf (FSUB (r, d)));
    }
    /* A bad mode: libvmaf's -EINVAL. */
    score = i < a.nb ? -22.0f : FDIV (score, (float) a.nb);
  }
  a.out[2 * p] = score;
  a.out[2 * p + 1] = !ok_ref || !ok_dis ? 1.0f : 0.0f;
}
