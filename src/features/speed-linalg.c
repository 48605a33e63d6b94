/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The small dense linear algebra of SpEED: eigenvalues of a symmetric
 * matrix (Householder tridiagonalisation, then implicit QR steps with
 * Wilkinson shifts, as GSL's symmtd and symm do it) and the solution of
 * a x = b through a Householder QR factorisation. libvmaf 3.2 computes
 * these in single precision; the values only match if each product, sum
 * and square root rounds where libvmaf's does, so the arithmetic below
 * keeps its operand types (float, with the double steps it has) and its
 * order. */

#include "speed-private.h"

#include <math.h>
#include <string.h>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#define EIG_EPS 1e-6
#define EIG_MAX_ITERATIONS 500

gsize
vh_speed_linalg_work_size (guint n, guint cols)
{
  /* Five n x n matrices and one n x cols matrix for the solve; the
   * eigenvalues need one matrix and four vectors of n. */
  return (gsize) 5 *n * n + (gsize) n *cols + 4 * n;
}

static inline gint
sign_of (gfloat x)
{
  return x >= 0 ? 1 : -1;
}

static inline gfloat
hypot_f (gfloat x, gfloat y)
{
  return sqrt (x * x + y * y);
}

/* ---- eigenvalues ---------------------------------------------------- */

/* Householder vector annihilating a[start + 1 .. n - 1][col]; returns tau,
 * leaves v (scaled so v[0] = 1, implicit) below the diagonal and beta on
 * it. */
static gfloat
householder (gfloat * a, guint n, guint col, guint start)
{
  gfloat xnorm = 0, alpha, beta, tau, s;

  if (n - start == 1)
    return 0.0f;
  for (guint i = start + 1; i < n; i++)
    xnorm += a[i * n + col] * a[i * n + col];
  xnorm = sqrt (xnorm);
  if (xnorm == 0.0f)
    return 0.0f;
  alpha = a[start * n + col];
  beta = -sign_of (alpha) * hypot_f (alpha, xnorm);
  tau = (beta - alpha) / beta;
  s = alpha - beta;
  if (s != 0.0f) {
    for (guint i = start; i < n; i++)
      a[i * n + col] /= s;
    a[start * n + col] = beta;
  }
  return tau;
}

static void
tridiagonalize (gfloat * a, guint n, gfloat * d, gfloat * sd, gfloat * work)
{
  gfloat *v = work, *x = work + n;

  for (guint i = 0; i + 2 < n; i++) {
    const guint s = i + 1;
    gfloat tau = householder (a, n, i, s);

    for (guint j = s; j < n; j++)
      v[j] = a[j * n + i];
    if (tau == 0.0f)
      continue;
    a[s * n + i] = v[s];
    v[s] = 1.0f;

    /* x = tau A v, then x -= tau (x . v) v / 2, then A -= v x' + x v'. */
    for (guint r = s; r < n; r++) {
      x[r] = 0.0f;
      for (guint c = s; c < n; c++)
        x[r] += tau * a[r * n + c] * v[c];
    }
    gfloat xv = 0;
    for (guint r = s; r < n; r++)
      xv += x[r] * v[r];
    gfloat alpha = -0.5 * tau * xv;
    for (guint r = s; r < n; r++)
      x[r] += alpha * v[r];
    for (guint r = s; r < n; r++) {
      for (guint c = s; c < n; c++)
        a[r * n + c] -= x[r] * v[c] + v[r] * x[c];
    }
  }
  for (guint i = 0; i < n; i++)
    d[i] = a[i * n + i];
  for (guint i = 0; i + 1 < n; i++)
    sd[i] = a[(i + 1) * n + i];
}

static void
chop_small (gfloat * d, gfloat * sd, guint n)
{
  for (guint i = 0; i + 1 < n; i++) {
    if (fabsf (sd[i]) < EIG_EPS * (fabsf (d[i]) + fabsf (d[i + 1])))
      sd[i] = 0.0f;
  }
}

/* Wilkinson shift: the eigenvalue of the trailing 2x2 closer to its last
 * diagonal element. */
static gfloat
wilkinson_shift (const gfloat * d, const gfloat * sd, guint n)
{
  const gfloat ta = d[n - 2], tb = d[n - 1], tab = sd[n - 2];
  const gfloat dt = (ta - tb) / 2.0;

  if (dt > 0)
    return tb - tab * (tab / (dt + hypot_f (dt, tab)));
  if (dt == 0)
    return tb - fabsf (tab);
  return tb + tab * (tab / (-dt + hypot_f (dt, tab)));
}

static void
givens (gfloat a, gfloat b, gfloat * c, gfloat * s)
{
  if (b == 0) {
    *c = 1;
    *s = 0;
  } else if (fabsf (b) > fabsf (a)) {
    const gfloat t = -a / b;
    const gfloat s1 = 1.0 / sqrt (1 + t * t);

    *s = s1;
    *c = s1 * t;
  } else {
    const gfloat t = -b / a;
    const gfloat c1 = 1.0 / sqrt (1 + t * t);

    *c = c1;
    *s = c1 * t;
  }
}

/* One implicit symmetric QR step on the unreduced block d[0..n-1]. */
static void
qr_step (gfloat * d, gfloat * sd, guint n)
{
  gfloat mu = wilkinson_shift (d, sd, n);
  gfloat x, z, ak = 0, bk = 0, zk = 0, ap, bp, aq, bq;

  if (EIG_EPS * fabsf (mu) > fabsf (d[0]) + fabsf (sd[0]))
    mu = 0;
  x = d[0] - mu;
  z = sd[0];
  ap = d[0];
  bp = sd[0];
  aq = d[1];

  if (n == 2) {
    gfloat c, s;

    givens (x, z, &c, &s);
    d[0] = c * (c * ap - s * bp) + s * (s * aq - c * bp);
    sd[0] = c * (s * ap + c * bp) - s * (s * bp + c * aq);
    d[1] = s * (s * ap + c * bp) + c * (s * bp + c * aq);
    return;
  }

  bq = sd[1];
  for (guint k = 0; k + 1 < n; k++) {
    gfloat c, s;

    givens (x, z, &c, &s);
    const gfloat bk1 = c * bk - s * zk;
    const gfloat ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
    const gfloat bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
    const gfloat zp1 = -s * bq;
    const gfloat aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
    const gfloat bq1 = c * bq;

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

void
vh_speed_eigenvalues (const gfloat * a_in, gfloat * eig, guint n,
    gfloat * work)
{
  gfloat *a = work, *d = a + n * n, *sd = d + n, *tmp = sd + n;
  gint b;
  guint iterations = 0;

  memcpy (a, a_in, sizeof (gfloat) * n * n);
  if (n == 1) {
    eig[0] = a[0];
    return;
  }
  tridiagonalize (a, n, d, sd, tmp);

  chop_small (d, sd, n);
  b = n - 1;
  while (b > 0 && iterations < EIG_MAX_ITERATIONS) {
    gint start;

    if (sd[b - 1] == 0.0f) {
      b--;
      continue;
    }
    /* The largest unreduced block ending at b. */
    start = b - 1;
    while (start > 0 && sd[start - 1] != 0.0f)
      start--;
    qr_step (d + start, sd + start, b - start + 1);
    chop_small (d + start, sd + start, b - start + 1);
    iterations++;
  }
  memcpy (eig, d, sizeof (gfloat) * n);
}

/* ---- linear solve --------------------------------------------------- */

/* dst = x y for n x n x and n x m y; each element summed over k in
 * order. A zero x[i][k] adds a zero product, which leaves a sum that
 * starts at +0 unchanged (it cannot turn it into -0), so those terms are
 * skipped: the Householder matrices are mostly zero. (y is finite here:
 * covariances of picture samples.) */
static void
mat_mul (gfloat * dst, const gfloat * x, const gfloat * y, guint n, guint m)
{
  memset (dst, 0, sizeof (gfloat) * n * m);
  for (guint i = 0; i < n; i++) {
    for (guint k = 0; k < n; k++) {
      const gfloat xik = x[i * n + k];
      const gfloat *yk = y + (gsize) k * m;
      gfloat *di = dst + (gsize) i * m;

      if (xik == 0.0f)
        continue;

      for (guint j = 0; j < m; j++)
        di[j] += xik * yk[j];
    }
  }
}

static void
transpose (gfloat * m, guint n)
{
  for (guint i = 0; i < n; i++) {
    for (guint j = 0; j < i; j++) {
      const gfloat t = m[i * n + j];

      m[i * n + j] = m[j * n + i];
      m[j * n + i] = t;
    }
  }
}

static gfloat
norm_f (const gfloat * v, guint n)
{
  gfloat sum = 0;

  for (guint i = 0; i < n; i++)
    sum += v[i] * v[i];
  return sqrt (sum);
}

/* a = q r with Householder reflections applied to a working copy z (its
 * first k rows and columns reset to the identity at step k); q comes out
 * transposed back to a = q r, r = q' a. @tmp holds n x n floats. */
static void
qr_factor (const gfloat * a, gfloat * q, gfloat * r, gfloat * h,
    gfloat * z, guint n)
{
  gfloat *v = r;                /* r is free until the end */

  memcpy (z, a, sizeof (gfloat) * n * n);
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < n; j++)
      q[i * n + j] = i == j ? 1 : 0;

  for (guint k = 0; k + 1 < n; k++) {
    for (guint i = 0; i < n; i++) {
      for (guint j = 0; j < n; j++) {
        if (i < k || j < k)
          z[i * n + j] = i == j ? 1 : 0;
      }
    }
    for (guint i = 0; i < n; i++)
      v[i] = z[i * n + k];
    gfloat norm = norm_f (v, n);
    v[k] += sign_of (a[k * n + k]) * norm;
    gfloat vn = norm_f (v, n);
    for (guint i = 0; i < n; i++)
      v[i] = v[i] / vn;
    /* h = I - 2 v v' */
    for (guint i = 0; i < n; i++)
      for (guint j = 0; j < n; j++)
        h[i * n + j] = -2 * v[i] * v[j];
    for (guint i = 0; i < n; i++)
      h[i * n + i] += 1;

    mat_mul (r, h, z, n, n);
    memcpy (z, r, sizeof (gfloat) * n * n);
    mat_mul (r, h, q, n, n);
    memcpy (q, r, sizeof (gfloat) * n * n);
  }
  mat_mul (r, q, a, n, n);
  transpose (q, n);
}

gboolean
vh_speed_solve (const gfloat * a, guint n, const gfloat * b, guint cols,
    gfloat * x, gfloat * work)
{
  gfloat *q = work, *r = q + n * n, *h = r + n * n, *z = h + n * n;
  gfloat *qtb = z + n * n;

  /* a x = b  =>  r x = q' b, solved from the last row up. */
  qr_factor (a, q, r, h, z, n);
  transpose (q, n);
  mat_mul (qtb, q, b, n, cols);

  for (gint i = n - 1; i >= 0; i--) {
    const gfloat den = r[i * n + i];

    if (fabsf (den) < EIG_EPS)
      return FALSE;
    for (guint j = 0; j < cols; j++) {
      gfloat t = qtb[(gsize) i * cols + j];

      for (guint k = i + 1; k < n; k++)
        t -= x[(gsize) k * cols + j] * r[i * n + k];
      x[(gsize) i * cols + j] = t / den;
    }
  }
  return TRUE;
}
