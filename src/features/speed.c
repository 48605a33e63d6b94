/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The SpEED core shared by speed_chroma and speed_temporal (see
 * speed-private.h). libvmaf filters whole planes and then keeps one
 * sample in 16 each way; here only the kept samples are filtered, and
 * only the prescaled rows and columns that those samples read are
 * computed. Each kept sample is still the same sum in the same order, so
 * the values do not change. */

#include "speed-private.h"
#include "errors.h"
#include "float-conv.h"

#include <math.h>
#include <string.h>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#define MAX_TAPS VH_FCONV_MAX_TAPS
#define LOG2_2PIE (log2 (2 * G_PI * G_E))

/* libvmaf accepts only the kernel scales its filter tables were tuned
 * for. */
static const gfloat valid_kernelscales[] = {
  1.0f, 1.0f / 2.0f, 3.0f / 2.0f, 2.0f, 2.0f / 3.0f, 24.0f / 10.0f,
  360.0f / 97.0f, 4.0f / 3.0f, 3.5f / 3.0f, 3.75f / 3.0f, 4.25f / 3.0f,
  5.0f / 3.0f, 3.0f, 1.0f / 2.25f, 1.4746f, 1.54f, 1.6f, 1.06667f,
  0.711111f, 0.740740f, 1.111111f,
};

struct _VhSpeed
{
  VhSpeedParams p;
  gfloat sigma_nn, nn_floor;    /* as libvmaf passes them: float */
  guint w, h;                   /* input planes */
  guint sw, sh;                 /* after prescaling */
  gboolean rescale;
  guint ow, oh;                 /* decimated by 16 */
  guint tw, th;                 /* cut to whole blocks */
  guint nbh, nbv, nb;           /* blocks across, down, in all */
  guint subw, subh;             /* window of the covariance sums */

  gfloat aa[MAX_TAPS];          /* anti-alias filter before decimation */
  guint aa_taps;
  gfloat lm[MAX_TAPS];          /* local mean filter after it */
  guint lm_taps;

  guint *rows, n_rows;          /* prescaled rows / columns read */
  guint *cols, n_cols;
  gfloat *scaled;               /* sw x sh, only rows x cols written */
  gfloat *vtmp;                 /* one vertically filtered row */
  gfloat *op, *op_mean, *conv_scratch;  /* ow x oh */

  VhSpeedCovFn cov;
  gfloat cov_mat[VH_SPEED_BLOCK_ELEMENTS * VH_SPEED_BLOCK_ELEMENTS];
  gfloat means[VH_SPEED_BLOCK_ELEMENTS];
  gfloat eig[VH_SPEED_BLOCK_ELEMENTS];
  gfloat *indep, *sol, *work;
  gfloat *entropy[2], *variance[2];     /* 0: reference, 1: distorted */
};

static gboolean
kernelscale_valid (gfloat ks)
{
  for (guint i = 0; i < G_N_ELEMENTS (valid_kernelscales); i++) {
    if (fabsf (ks - valid_kernelscales[i]) < 1e-3)
      return TRUE;
  }
  return FALSE;
}

static gint
round_up_to_odd (gfloat f)
{
  gint c = (gint) ceil (f);

  return c % 2 == 0 ? c + 1 : c;
}

static guint
filter_size (gint scale, gfloat ks)
{
  gint n = (1 << (4 - scale)) + 1;

  return MAX (round_up_to_odd (n * ks), 3);
}

static gfloat
gaussian (gfloat x, gfloat stdev)
{
  gfloat num = exp (-0.5 * x / stdev * x / stdev);
  gfloat den = 1 / (stdev * sqrt (2 * G_PI));

  return num / den;
}

static void
gaussian_kernel (gfloat * out, guint size, gfloat stdev)
{
  gfloat sum = 0;
  gint k = (size - 1) / 2;

  for (guint i = 0; i < size; i++) {
    out[i] = gaussian ((gint) i - k, stdev);
    sum += out[i];
  }
  for (guint i = 0; i < size; i++)
    out[i] /= sum;
}

static guint
mirror (gint i, guint n)
{
  return vh_fconv_mirror (i, n);
}

/* The sorted distinct mirrored indices 16 k - r .. 16 k + r for k < n_out,
 * inside a line of @n samples. */
static guint *
tap_positions (guint n_out, guint taps, guint n, guint * count)
{
  gboolean *used = g_new0 (gboolean, n);
  guint *list, c = 0;
  const gint r = taps / 2;

  for (guint k = 0; k < n_out; k++) {
    for (gint t = -r; t <= r; t++)
      used[mirror ((gint) (16 * k) + t, n)] = TRUE;
  }
  list = g_new (guint, n);
  for (guint i = 0; i < n; i++) {
    if (used[i])
      list[c++] = i;
  }
  g_free (used);
  *count = c;
  return list;
}

VhSpeed *
vh_speed_new (const VhSpeedParams * params, guint w, guint h,
    const gchar * what, GError ** error)
{
  const gfloat ks = params->kernelscale;
  VhSpeed *s;

  if (!kernelscale_valid (ks)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "%s: speed_kernelscale %g is not one of the scales libvmaf "
        "supports (1, 0.5, 1.5, 2, 2/3, 2.4, 360/97, 4/3, 3.5/3, 3.75/3, "
        "4.25/3, 5/3, 3, 1/2.25, 1.4746, 1.54, 1.6, 1.06667, 0.711111, "
        "0.74074, 1.111111)", what, params->kernelscale);
    return NULL;
  }

  s = g_new0 (VhSpeed, 1);
  s->p = *params;
  s->sigma_nn = params->sigma_nn;
  s->nn_floor = params->nn_floor;
  s->w = w;
  s->h = h;
  s->rescale = !(fabs (params->prescale - 1.0) < 1.0e-3);
  /* A factor within 1e-3 of 1 is no prescale, but libvmaf still sizes the
   * plane by it and then reads past the samples it has; here the plane
   * keeps its size. */
  s->sw = s->rescale ? vh_float_scale_size (w, params->prescale) : w;
  s->sh = s->rescale ? vh_float_scale_size (h, params->prescale) : h;
  s->ow = s->sw >> VH_SPEED_SCALES;
  s->oh = s->sh >> VH_SPEED_SCALES;
  s->tw = s->ow / VH_SPEED_BLOCK * VH_SPEED_BLOCK;
  s->th = s->oh / VH_SPEED_BLOCK * VH_SPEED_BLOCK;
  if (s->tw == 0 || s->th == 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_TOO_SMALL,
        "%s are too small for SpEED: %ux%u after prescaling by %g, and it "
        "needs at least 80x80 (one 5x5 block after decimating by 16)",
        what, s->sw, s->sh, params->prescale);
    g_free (s);
    return NULL;
  }
  s->nbh = s->tw / VH_SPEED_BLOCK;
  s->nbv = s->th / VH_SPEED_BLOCK;
  s->nb = s->nbh * s->nbv;
  s->subw = s->tw - VH_SPEED_BLOCK + 1;
  s->subh = s->th - VH_SPEED_BLOCK + 1;

  s->aa_taps = filter_size (1, ks);
  gaussian_kernel (s->aa, s->aa_taps,
      sqrt (VH_SPEED_SCALES) * s->aa_taps / 5.0f);
  s->lm_taps = filter_size (VH_SPEED_SCALES, ks);
  gaussian_kernel (s->lm, s->lm_taps, s->lm_taps / 5.0f);

  s->rows = tap_positions (s->oh, s->aa_taps, s->sh, &s->n_rows);
  s->cols = tap_positions (s->ow, s->aa_taps, s->sw, &s->n_cols);
  if (s->rescale)
    s->scaled = g_new0 (gfloat, (gsize) s->sw * s->sh);
  s->vtmp = g_new0 (gfloat, s->sw);
  s->op = g_new (gfloat, (gsize) s->ow * s->oh);
  s->op_mean = g_new (gfloat, (gsize) s->ow * s->oh);
  s->conv_scratch = g_new (gfloat, s->ow + s->lm_taps);

  s->cov = vh_speed_cov_kernel (params->cpu_mask);
  s->indep = g_new (gfloat, (gsize) VH_SPEED_BLOCK_ELEMENTS * s->nb);
  s->sol = g_new (gfloat, (gsize) VH_SPEED_BLOCK_ELEMENTS * s->nb);
  s->work = g_new (gfloat, vh_speed_linalg_work_size (VH_SPEED_BLOCK_ELEMENTS,
          s->nb));
  for (guint k = 0; k < 2; k++) {
    s->entropy[k] = g_new (gfloat, s->nb);
    s->variance[k] = g_new (gfloat, s->nb);
  }
  return s;
}

void
vh_speed_free (VhSpeed * s)
{
  if (!s)
    return;
  g_free (s->rows);
  g_free (s->cols);
  g_free (s->scaled);
  g_free (s->vtmp);
  g_free (s->op);
  g_free (s->op_mean);
  g_free (s->conv_scratch);
  g_free (s->indep);
  g_free (s->sol);
  g_free (s->work);
  for (guint k = 0; k < 2; k++) {
    g_free (s->entropy[k]);
    g_free (s->variance[k]);
  }
  g_free (s);
}

static gfloat noise_entropy (const VhSpeed * s);

void
vh_speed_layout (const VhSpeed * s, VhSpeedLayout * l)
{
  l->w = s->w;
  l->h = s->h;
  l->rescale = s->rescale;
  l->prescale_method = s->p.prescale_method;
  l->sw = s->sw;
  l->sh = s->sh;
  l->ow = s->ow;
  l->oh = s->oh;
  l->nbh = s->nbh;
  l->nbv = s->nbv;
  l->nb = s->nb;
  l->subw = s->subw;
  l->subh = s->subh;
  l->aa = s->aa;
  l->aa_taps = s->aa_taps;
  l->lm = s->lm;
  l->lm_taps = s->lm_taps;
  l->sigma_nn = s->sigma_nn;
  l->cov_order = vh_speed_cov_order (s->p.cpu_mask);
  l->noise_entropy = noise_entropy (s);
  l->log2_2pie = LOG2_2PIE;
  l->weight_var_mode = s->p.weight_var_mode;
}

const guint *
vh_speed_input_rows (const VhSpeed * s, guint * n_rows)
{
  *n_rows = s->rescale ? s->h : s->n_rows;
  return s->rescale ? NULL : s->rows;
}

/* Prescale (when asked), anti-alias filter, keep every 16th sample, then
 * subtract the local mean: s->op. */
static void
decimate (VhSpeed * s, const gfloat * in, gsize in_stride)
{
  const gfloat *plane = in;
  gsize stride = in_stride;
  const guint r = s->aa_taps / 2;

  if (s->rescale) {
    vh_float_scale_at (s->p.prescale_method, in, s->w, s->h, in_stride,
        s->scaled, s->sw, s->sh, s->sw, s->rows, s->n_rows, s->cols,
        s->n_cols);
    plane = s->scaled;
    stride = s->sw;
  }

  for (guint i = 0; i < s->oh; i++) {
    const gint y = 16 * i;
    const gfloat *taps[MAX_TAPS];

    /* Vertical pass at row y (whole rows: contiguous, so it vectorises),
     * then the horizontal pass at the kept columns only. */
    for (guint k = 0; k < s->aa_taps; k++)
      taps[k] = plane + (gsize) mirror (y - (gint) r + k, s->sh) * stride;
    vh_fconv_vrow (s->aa, s->aa_taps, taps, s->vtmp, s->sw);
    for (guint j = 0; j < s->ow; j++) {
      const gint x = 16 * j;
      gfloat acc = 0;

      for (guint k = 0; k < s->aa_taps; k++)
        acc += s->aa[k] * s->vtmp[mirror (x - (gint) r + k, s->sw)];
      s->op[(gsize) i * s->ow + j] = acc;
    }
  }

  vh_fconv_plane (s->lm, s->lm_taps, s->op, s->ow, s->op_mean, s->ow,
      s->ow, s->oh, s->conv_scratch);
  for (gsize i = 0; i < (gsize) s->ow * s->oh; i++)
    s->op[i] -= s->op_mean[i];
}

static gfloat
window_mean (const VhSpeed * s, const gfloat * d, guint row, guint col)
{
  gfloat sum = 0;

  for (guint i = 0; i < s->subh; i++) {
    for (guint j = 0; j < s->subw; j++)
      sum += d[(gsize) (row + i) * s->ow + col + j];
  }
  return sum / (s->subw * s->subh);
}

/* Entropy and variance of every block of s->op (libvmaf's est_params);
 * FALSE when the covariance cannot be inverted. */
static gboolean
estimate (VhSpeed * s, gfloat * entropy, gfloat * variance)
{
  const guint n = VH_SPEED_BLOCK_ELEMENTS, b = VH_SPEED_BLOCK;
  const gfloat *d = s->op;
  const gsize nb = s->nb;
  gboolean regular = TRUE, ok = FALSE;

  /* Covariance of the 25 offsets of a block over the window. */
  for (guint r = 0; r < b; r++)
    for (guint c = 0; c < b; c++)
      s->means[r * b + c] = window_mean (s, d, r, c);
  for (guint xi = 0; xi < n; xi++) {
    for (guint yi = 0; yi <= xi; yi++) {
      const guint rx = xi / b, cx = xi % b, ry = yi / b, cy = yi % b;
      const gdouble sum = s->cov (d + (gsize) rx * s->ow + cx,
          d + (gsize) ry * s->ow + cy, s->ow, s->subh, s->subw,
          s->means[rx * b + cx], s->means[ry * b + cy]);
      const gfloat cv = sum / (s->subw * s->subh);

      s->cov_mat[xi * n + yi] = cv;
      s->cov_mat[yi * n + xi] = cv;
    }
  }

  vh_speed_eigenvalues (s->cov_mat, s->eig, n, s->work);

  /* Row k of the right-hand side: sample k of every block. */
  for (guint si = 0; si < b; si++) {
    for (guint sj = 0; sj < b; sj++) {
      gfloat *row = s->indep + (gsize) (si * b + sj) * nb;

      for (guint bi = 0; bi < s->nbv; bi++)
        for (guint bj = 0; bj < s->nbh; bj++)
          row[bi * s->nbh + bj] =
              d[(gsize) (bi * b + si) * s->ow + bj * b + sj];
    }
  }

  for (guint k = 0; k < n; k++) {
    if (s->eig[k] < 1e-6)
      regular = FALSE;
  }
  if (regular)
    ok = vh_speed_solve (s->cov_mat, n, s->indep, nb, s->sol, s->work);
  if (!ok)
    memset (s->sol, 0, sizeof (gfloat) * n * nb);

  /* Variance of block j: sum over k of x[k][j] y[k][j] / 25. */
  for (guint k = 0; k < n; k++) {
    gfloat *x = s->sol + (gsize) k * nb;
    const gfloat *y = s->indep + (gsize) k * nb;

    for (gsize j = 0; j < nb; j++)
      x[j] = (x[j] * y[j]) / (gfloat) n;
  }
  for (guint k = 1; k < n; k++) {
    const gfloat *x = s->sol + (gsize) k * nb;

    for (gsize j = 0; j < nb; j++)
      s->sol[j] += x[j];
  }

  memset (entropy, 0, sizeof (gfloat) * nb);
  for (guint k = 0; k < n; k++) {
    const gfloat l = s->eig[k] < 0 ? 0 : s->eig[k];

    for (gsize j = 0; j < nb; j++)
      entropy[j] += log2 (l * s->sol[j] + s->sigma_nn) + LOG2_2PIE;
  }
  memcpy (variance, s->sol, sizeof (gfloat) * nb);
  return ok;
}

/* Weight of one side's entropy difference, by speed_weight_var_mode. */
static gboolean
weighted (const VhSpeed * s, gsize i, gfloat * ref_out, gfloat * dis_out)
{
  const gfloat er = s->entropy[0][i], ed = s->entropy[1][i];
  const gfloat vr = s->variance[0][i], vd = s->variance[1][i];

  switch (s->p.weight_var_mode) {
    case 0:
      *ref_out = er * log2 (1 + vr);
      *dis_out = ed * log2 (1 + vd);
      return TRUE;
    case 1:
      *ref_out = er * log2 (1 + vr);
      *dis_out = ed * log2 (1 + vr);
      return TRUE;
    case 2:
      *ref_out = er * log2 (1 + vd);
      *dis_out = ed * log2 (1 + vd);
      return TRUE;
    case 3:
      *ref_out = er * log2 (1 + (vr + vd) / 2.0);
      *dis_out = ed * log2 (1 + (vr + vd) / 2.0);
      return TRUE;
    case 4:
      *ref_out = er * log2 (1 + vr);
      *dis_out = ed * log2 (1 + (vr + vd) / 2.0);
      return TRUE;
    case 5:
      *ref_out = er * log2 (1 + vr);
      *dis_out = ed * log2 (1 + (0.75 * vr + 0.25 * vd));
      return TRUE;
    case 6:
      *ref_out = er * log2 (1 + vr);
      *dis_out = ed * log2 (1 + (0.25 * vr + 0.75 * vd));
      return TRUE;
    default:
      return FALSE;
  }
}

/* The entropy of a block of neural noise alone. */
static gfloat
noise_entropy (const VhSpeed * s)
{
  return VH_SPEED_BLOCK_ELEMENTS *
      (log2 ((1 + s->nn_floor) * s->sigma_nn) + LOG2_2PIE);
}

static gfloat
pool (const VhSpeed * s)
{
  gfloat score = 0;
  const gfloat base = noise_entropy (s);

  for (gsize i = 0; i < s->nb; i++) {
    gfloat r, d;

    /* Both below the noise entropy: no visible difference. */
    if (s->entropy[0][i] < base && s->entropy[1][i] < base)
      continue;
    if (!weighted (s, i, &r, &d))
      return -EINVAL;           /* libvmaf's value for a bad mode */
    score += fabsf (r - d);
  }
  return score / s->nb;
}

gboolean
vh_speed_score (VhSpeed * s, const gfloat * ref, const gfloat * dis,
    gsize stride, gfloat * score)
{
  gboolean ok_ref, ok_dis;

  decimate (s, ref, stride);
  ok_ref = estimate (s, s->entropy[0], s->variance[0]);
  decimate (s, dis, stride);
  ok_dis = estimate (s, s->entropy[1], s->variance[1]);

  /* One side numerically unstable: 0 rather than an inflated score. */
  *score = ok_ref != ok_dis ? 0.0f : pool (s);
  return !ok_ref || !ok_dis;
}
