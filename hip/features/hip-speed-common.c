/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The SpEED core on the GPU (see hip-speed-common.h). The prescaling
 * positions and weights of every row and column are computed here once,
 * by the CPU's own resampler code (vh_float_scale_axis), so the GPU only
 * repeats the sums. */

#include "hip-speed-common.h"
#include "errors.h"

#include <string.h>

extern const VhHipKernelSource vh_hip_kernel_speed_filter;
extern const VhHipKernelSource vh_hip_kernel_speed_solve;

#define SCALE_TAPS VH_FLOAT_SCALE_MAX_TAPS
#define VPASS_THREADS 128
#define DECIMATE_THREADS 256
#define COV_THREADS 352         /* one per covariance entry: 325 */
#define SOLVE_THREADS 256
#define N VH_SPEED_BLOCK_ELEMENTS

/* VH_SPEED_SCALE_* in the kernels: none, then VhFloatScaleMethod + 1. */
static guint32
scale_method (const VhSpeedLayout * l)
{
  if (!l->rescale || (l->sw == l->w && l->sh == l->h))
    return 0;                   /* equal sizes copy */
  return 1 + l->prescale_method;
}

/* The taps of every destination index along one axis. */
static void
axis_table (VhFloatScaleMethod method, guint src_n, guint dst_n,
    gint32 * pos, gfloat * w)
{
  for (guint i = 0; i < dst_n; i++) {
    gint p[SCALE_TAPS] = { 0 };
    gfloat wt[SCALE_TAPS] = { 0 };

    vh_float_scale_axis (method, src_n, dst_n, i, p, wt);
    for (guint k = 0; k < SCALE_TAPS; k++) {
      pos[(gsize) i * SCALE_TAPS + k] = p[k];
      w[(gsize) i * SCALE_TAPS + k] = wt[k];
    }
  }
}

gboolean
vh_hip_speed_init (VhHipSpeed * s, VhHipFex * hip,
    const VhSpeedParams * params, guint w, guint h, guint bpc,
    guint n_planes, const gchar * what, GError ** error)
{
  const VhSpeedLayout *l = &s->layout;
  VhHipSpeedFilterArgs *f = &s->filter;
  VhHipSpeedSolveArgs *v = &s->solve;
  gsize vt_n, plane_n, block_n, rows_n, cols_n, total;
  gfloat *base;
  g_autofree guint8 *tables = NULL;

  g_return_val_if_fail (n_planes == 2 || n_planes == 4, FALSE);
  s->core = vh_speed_new (params, w, h, what, error);
  if (!s->core)
    return FALSE;
  vh_speed_layout (s->core, &s->layout);
  s->n_planes = n_planes;
  if (l->aa_taps > VH_HIP_SPEED_MAX_TAPS || l->lm_taps > VH_HIP_SPEED_MAX_TAPS) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "%s: the HIP twin takes filters of %u taps at most", what,
        VH_HIP_SPEED_MAX_TAPS);
    return FALSE;
  }

  s->vpass = vh_hip_fex_function (hip, &vh_hip_kernel_speed_filter,
      bpc == 8 ? "vh_speed_vpass_u8" : "vh_speed_vpass_u16", error);
  s->decimate = s->vpass ? vh_hip_fex_function (hip,
      &vh_hip_kernel_speed_filter, "vh_speed_decimate", error) : NULL;
  s->cov = s->decimate ? vh_hip_fex_function (hip,
      &vh_hip_kernel_speed_filter, "vh_speed_cov", error) : NULL;
  s->estimate = s->cov ? vh_hip_fex_function (hip,
      &vh_hip_kernel_speed_solve, "vh_speed_estimate", error) : NULL;
  s->entropy = s->estimate ? vh_hip_fex_function (hip,
      &vh_hip_kernel_speed_solve, "vh_speed_entropy", error) : NULL;
  s->pool = s->entropy ? vh_hip_fex_function (hip,
      &vh_hip_kernel_speed_solve, "vh_speed_pool", error) : NULL;
  if (!s->pool)
    return FALSE;

  /* Floats (and 32-bit positions), each part a multiple of 64 floats. */
#define ALIGN64(n) (((n) + 63) & ~(gsize) 63)
  vt_n = ALIGN64 ((gsize) l->oh * l->sw);
  plane_n = ALIGN64 ((gsize) l->ow * l->oh);
  block_n = ALIGN64 ((gsize) N * l->nb);
  /* Positions then weights of each row, then of each column. */
  rows_n = ALIGN64 ((gsize) 2 * SCALE_TAPS * l->sh);
  cols_n = ALIGN64 ((gsize) 2 * SCALE_TAPS * l->sw);
  total = n_planes * (vt_n + 2 * plane_n + ALIGN64 (N * N) + 3 * block_n +
      2 * ALIGN64 (l->nb) + ALIGN64 (N)) + ALIGN64 (2 * n_planes) + rows_n +
      cols_n;
  if (!vh_hip_malloc (hip->device, total * sizeof (gfloat), &s->d_mem, error))
    return FALSE;
  base = s->d_mem;

  memset (f, 0, sizeof (*f));
  f->vt = base;
  base += n_planes * vt_n;
  f->op = base;
  base += n_planes * plane_n;
  f->mtmp = base;
  base += n_planes * plane_n;
  f->cov = base;
  base += n_planes * ALIGN64 (N * N);
  f->row_pos = (const gint32 *) base;
  f->row_w = base + SCALE_TAPS * l->sh;
  base += rows_n;
  f->col_pos = (const gint32 *) base;
  f->col_w = base + SCALE_TAPS * l->sw;
  base += cols_n;
  f->n_planes = n_planes;
  f->w = l->w;
  f->h = l->h;
  f->sw = l->sw;
  f->sh = l->sh;
  f->ow = l->ow;
  f->oh = l->oh;
  f->subw = l->subw;
  f->subh = l->subh;
  f->method = scale_method (l);
  f->cov_order = l->cov_order;
  f->aa_taps = l->aa_taps;
  f->lm_taps = l->lm_taps;
  /* A power of two: multiplying by it is libvmaf's exact division. */
  f->inv_scale = 1.0f / (gfloat) (1u << (bpc - 8));
  memcpy (f->aa, l->aa, sizeof (gfloat) * l->aa_taps);
  memcpy (f->lm, l->lm, sizeof (gfloat) * l->lm_taps);

  memset (v, 0, sizeof (*v));
  v->op = f->op;
  v->cov = f->cov;
  v->indep = base;
  base += n_planes * block_n;
  v->sol = base;
  base += n_planes * block_n;
  v->qtb = base;
  base += n_planes * block_n;
  v->entropy = base;
  base += n_planes * ALIGN64 (l->nb);
  v->variance = base;
  base += n_planes * ALIGN64 (l->nb);
  v->eig = base;
  base += n_planes * ALIGN64 (N);
  v->ok = (gint32 *) base;
  base += ALIGN64 (2 * n_planes);
  g_assert ((gsize) (base - (gfloat *) s->d_mem) == total);
  v->n_planes = n_planes;
  v->ow = l->ow;
  v->oh = l->oh;
  v->nbh = l->nbh;
  v->nbv = l->nbv;
  v->nb = l->nb;
  v->weight_var_mode = l->weight_var_mode;
  v->sigma_nn = l->sigma_nn;
  v->noise_entropy = l->noise_entropy;
  v->log2_2pie = l->log2_2pie;

  if (f->method == 0)
    return TRUE;
  /* The tables, laid out as on the device. */
  tables = g_malloc0 ((rows_n + cols_n) * sizeof (gfloat));
  axis_table (l->prescale_method, l->h, l->sh, (gint32 *) tables,
      (gfloat *) tables + SCALE_TAPS * l->sh);
  axis_table (l->prescale_method, l->w, l->sw,
      (gint32 *) ((gfloat *) tables + rows_n),
      (gfloat *) tables + rows_n + SCALE_TAPS * l->sw);
  return vh_hip_memcpy_2d (hip->device, VH_HIP_COPY_HOST_TO_DEVICE,
      (gpointer) f->row_pos, (rows_n + cols_n) * sizeof (gfloat), tables,
      (rows_n + cols_n) * sizeof (gfloat),
      (rows_n + cols_n) * sizeof (gfloat), 1, error);
#undef ALIGN64
}

gboolean
vh_hip_speed_enqueue (VhHipSpeed * s, VhHipFex * hip,
    const VhHipSpeedPlane * planes, gfloat * out, GError ** error)
{
  const VhSpeedLayout *l = &s->layout;
  VhHipSpeedFilterArgs f = s->filter;
  VhHipSpeedSolveArgs v = s->solve;
  gpointer fargs[] = { &f };
  gpointer vargs[] = { &v };

  memcpy (f.plane, planes, sizeof (VhHipSpeedPlane) * s->n_planes);
  v.out = out;
  return vh_hip_fex_launch (hip, s->vpass,
      vh_hip_div_up (l->sw, VPASS_THREADS), l->oh * s->n_planes,
      VPASS_THREADS, 1, 0, fargs, error) &&
      vh_hip_fex_launch (hip, s->decimate, s->n_planes, 1, DECIMATE_THREADS,
      1, 0, fargs, error) &&
      vh_hip_fex_launch (hip, s->cov, s->n_planes, 1, COV_THREADS, 1, 0,
      fargs, error) &&
      vh_hip_fex_launch (hip, s->estimate, 2 * s->n_planes, 1, SOLVE_THREADS,
      1, 0, vargs, error) &&
      vh_hip_fex_launch (hip, s->entropy, s->n_planes, 1, SOLVE_THREADS, 1,
      0, vargs, error) &&
      vh_hip_fex_launch (hip, s->pool, 1, 1, s->n_planes / 2, 1, 0, vargs,
      error);
}

void
vh_hip_speed_close (VhHipSpeed * s, VhHipDevice * device)
{
  if (s->d_mem && device)
    vh_hip_free (device, s->d_mem);
  s->d_mem = NULL;
  g_clear_pointer (&s->core, vh_speed_free);
}
