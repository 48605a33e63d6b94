/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of "float_adm" (src/features/float-adm.c): both lumas as
 * floats, the four wavelet levels, decoupling, contrast masking and the
 * p-th power sums of every band on the GPU (hip/features/kernels/
 * float-adm.hip), in the CPU twin's order; one copy of the sums back per
 * frame, and the CPU twin's own code for each band's p-th root and the
 * scores (float-adm.h, vh_fadm_pool_bands()).
 *
 * The CPU twin divides by the reference processor's reciprocal estimate
 * (x86's rcpss differs between processor makers in its last bits): the
 * GPU looks it up in the same table (vh_fadm_rcp_table), so the values
 * equal the CPU twin's bit for bit; only a p-norm other than 3 (powf, the GPU's) keeps them
 * merely within 1e-6. */

#include "hip-fex-common.h"
#include "hip-float-luma.h"
#include "errors.h"
#include "features/float-adm.h"

#include <string.h>

extern const VhHipKernelSource vh_hip_kernel_float_adm;

#define N_TERMS 9               /* VH_FADM_N_TERMS in the kernel */

/* Must match struct vh_fadm_args in the kernel. */
typedef struct
{
  const gfloat *oh, *ov, *od;
  const gfloat *th, *tv, *td;
  gfloat *rh, *rv, *rd;
  gfloat *ah, *av, *ad;
  gfloat *terms;
  gfloat *rows;
  guint64 stride;
  gint32 width, height;
  gint32 fl, ft, fr, fb;
  gint32 sl, st, sr, sb;
  gfloat rf[3];
  gfloat cos_1deg_sq;
  gdouble gain_limit;
  gdouble p_norm;
  gint32 bypass_cm;
  guint32 rcp_shift;
  const guint32 *rcp_table;
} FadmArgs;

G_STATIC_ASSERT (sizeof (FadmArgs) == 208);

#define FADM_BLOCK_X 32
#define FADM_BLOCK_Y 8
#define FADM_ROW_THREADS 64

/* Band planes of one picture. */
enum
{
  BAND_A0, BAND_A1,             /* low-pass, alternate levels */
  BAND_H, BAND_V, BAND_D,
  N_BANDS
};

typedef struct
{
  VhHipFex hip;
  VhFloatAdm adm;
  gsize band_stride;            /* floats */

  /* Device buffers. */
  gfloat *luma[2];              /* reference, distorted */
  gfloat *bands[2][N_BANDS];
  gfloat *restored[3], *additive[3];    /* h, v, d */
  gfloat *terms;
  gfloat *rows;
  guint32 *rcp_table;           /* the reference reciprocal estimates */
  guint rcp_shift;

  VhHipFunction *load_fn;
  VhHipFunction *dwt_fn;
  VhHipFunction *decouple_fn;
  VhHipFunction *terms_fn;
  VhHipFunction *rows_fn;
  VhHipFunction *total_fn;
} HipFloatAdm;

VH_HIP_FEX_FIRST (HipFloatAdm, hip);

/* Band size of scale @scale. */
static void
band_size (const VhFloatAdm * adm, guint scale, guint * w, guint * h)
{
  *w = adm->w;
  *h = adm->h;
  for (guint i = 0; i <= scale; i++) {
    *w = (*w + 1) / 2;
    *h = (*h + 1) / 2;
  }
}

static gboolean
hip_fadm_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  HipFloatAdm *s = fex->priv;
  const VhFloatAdm *adm = &s->adm;
  const gfloat *acc = results;
  VhFadmPool aim_pool = adm->pool;
  VhFloatAdmSums sums;

  aim_pool.noise_weight = 0.0;
  for (guint scale = 0; scale < VH_FADM_N_SCALES; scale++) {
    const gfloat *q = acc + scale * N_TERMS;
    guint w, h;
    VhFadmRect rc;

    if (scale == 0 && adm->skip_scale0) {
      vh_float_adm_skipped_scale (&sums, scale);
      continue;
    }
    band_size (adm, scale, &w, &h);
    vh_fadm_score_rect (w, h, &rc);
    sums.num[scale] = vh_fadm_pool_bands (q, rc.right - rc.left,
        rc.bottom - rc.top, &adm->pool);
    sums.den[scale] = vh_fadm_pool_bands (q + 3, rc.right - rc.left,
        rc.bottom - rc.top, &adm->pool);
    sums.aim[scale] = vh_fadm_pool_bands (q + 6, rc.right - rc.left,
        rc.bottom - rc.top, &aim_pool);
  }
  return vh_float_adm_append (adm, fex, &sums, index, fc, error);
}

static void
hip_fadm_close (VhFeatureExtractor * fex)
{
  HipFloatAdm *s = fex->priv;
  VhHipDevice *device = s->hip.device;
  gfloat **bufs[] = {
    &s->luma[0], &s->luma[1], &s->terms, &s->rows, (gfloat **) & s->rcp_table,
    &s->restored[0], &s->restored[1], &s->restored[2],
    &s->additive[0], &s->additive[1], &s->additive[2],
  };

  if (!device)
    return;
  vh_hip_device_ref (device);
  /* Waits for the stream before anything is freed. */
  vh_hip_fex_close (&s->hip);
  for (guint i = 0; i < G_N_ELEMENTS (bufs); i++) {
    if (*bufs[i])
      vh_hip_free (device, *bufs[i]);
    *bufs[i] = NULL;
  }
  for (guint p = 0; p < 2; p++) {
    for (guint b = 0; b < N_BANDS; b++) {
      if (s->bands[p][b])
        vh_hip_free (device, s->bands[p][b]);
      s->bands[p][b] = NULL;
    }
  }
  vh_hip_device_unref (device);
}

static gboolean
alloc_floats (HipFloatAdm * s, gfloat ** buf, gsize n, GError ** error)
{
  return vh_hip_malloc (s->hip.device, MAX (n, 1) * sizeof (gfloat),
      (gpointer *) buf, error);
}

/* The reference reciprocal estimate, for the decoupling to divide as the
 * CPU twin does. */
static gboolean
hip_fadm_upload_rcp (HipFloatAdm * s, GError ** error)
{
  guint bits = 0;
  const guint32 *table = vh_fadm_rcp_table (&bits);
  gsize size;

  if (!table)
    return TRUE;
  size = sizeof (guint32) << bits;
  s->rcp_shift = 23 - bits;
  return vh_hip_malloc (s->hip.device, size, (gpointer *) & s->rcp_table,
      error) &&
      vh_hip_memcpy_2d (s->hip.device, VH_HIP_COPY_HOST_TO_DEVICE,
      s->rcp_table, size, table, size, size, 1, error);
}

static gboolean
hip_fadm_alloc (HipFloatAdm * s, GError ** error)
{
  const VhFloatAdm *adm = &s->adm;
  const gsize bh = (adm->h + 1) / 2, n = s->band_stride * bh;

  for (guint p = 0; p < 2; p++) {
    if (!alloc_floats (s, &s->luma[p], (gsize) adm->w * adm->h, error))
      return FALSE;
    for (guint b = 0; b < N_BANDS; b++) {
      if (!alloc_floats (s, &s->bands[p][b], n, error))
        return FALSE;
    }
  }
  for (guint t = 0; t < 3; t++) {
    if (!alloc_floats (s, &s->restored[t], n, error) ||
        !alloc_floats (s, &s->additive[t], n, error))
      return FALSE;
  }
  if (!alloc_floats (s, &s->terms, N_TERMS * n, error) ||
      !alloc_floats (s, &s->rows, N_TERMS * bh, error))
    return FALSE;
  return hip_fadm_upload_rcp (s, error);
}

static gboolean
hip_fadm_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipFloatAdm *s = fex->priv;
  const VhHipKernelSource *k = &vh_hip_kernel_float_adm;

  if (!vh_float_adm_setup (&s->adm, fex, info, error))
    return FALSE;
  s->band_stride = (info->width + 1) / 2;
  if (!vh_hip_fex_init (&s->hip, fex,
          VH_FADM_N_SCALES * N_TERMS * sizeof (gfloat), hip_fadm_collect,
          error))
    return FALSE;
  if ((s->load_fn = vh_hip_float_luma_function (&s->hip, info->bpc,
              error)) &&
      (s->dwt_fn = vh_hip_fex_function (&s->hip, k, "vh_fadm_dwt", error)) &&
      (s->decouple_fn =
          vh_hip_fex_function (&s->hip, k, "vh_fadm_decouple_bands", error))
      && (s->terms_fn =
          vh_hip_fex_function (&s->hip, k, "vh_fadm_terms", error))
      && (s->rows_fn = vh_hip_fex_function (&s->hip, k, "vh_fadm_rows", error))
      && (s->total_fn =
          vh_hip_fex_function (&s->hip, k, "vh_fadm_total", error))
      && hip_fadm_alloc (s, error))
    return TRUE;
  hip_fadm_close (fex);
  return FALSE;
}

static gboolean
launch_2d (HipFloatAdm * s, VhHipFunction * fn, guint w, guint h,
    gpointer * args, GError ** error)
{
  return vh_hip_fex_launch (&s->hip, fn, vh_hip_div_up (w, FADM_BLOCK_X),
      vh_hip_div_up (h, FADM_BLOCK_Y), FADM_BLOCK_X, FADM_BLOCK_Y, 0, args,
      error);
}

/* Queues @pic's luma as floats into luma[@p]. */
static gboolean
queue_load (HipFloatAdm * s, const VhPicture * pic, guint p, GError ** error)
{
  return vh_hip_float_luma_queue (&s->hip, s->load_fn, pic, s->adm.w,
      s->adm.h, s->luma[p], error);
}

/* Queues picture @p's wavelet level @scale. */
static gboolean
queue_dwt (HipFloatAdm * s, guint scale, guint p, GError ** error)
{
  const VhFloatAdm *adm = &s->adm;
  gfloat **b = s->bands[p];
  const gfloat *src = scale ? b[BAND_A0 + (scale - 1) % 2] : s->luma[p];
  guint64 ss = scale ? s->band_stride : adm->w, ds = s->band_stride;
  gint w, h, lo_only = scale == 0 && adm->skip_scale0;
  gfloat *a = b[BAND_A0 + scale % 2];
  guint bw, bh;
  gpointer args[] = { &src, &ss, &w, &h, &a, &b[BAND_V], &b[BAND_H],
    &b[BAND_D], &ds, &lo_only
  };

  if (scale == 0) {
    w = adm->w;
    h = adm->h;
  } else {
    band_size (adm, scale - 1, &bw, &bh);
    w = bw;
    h = bh;
  }
  return launch_2d (s, s->dwt_fn, (w + 1) / 2, (h + 1) / 2, args, error);
}

/* Queues scale @scale's sums into @out (N_TERMS floats). */
static gboolean
queue_sums (HipFloatAdm * s, guint scale, gfloat * out, GError ** error)
{
  const VhFloatAdm *adm = &s->adm;
  FadmArgs a;
  VhFadmRect fr, sr;
  guint w, h;
  gpointer args[] = { &a };
  gpointer total_args[] = { &a, &out };

  band_size (adm, scale, &w, &h);
  vh_fadm_filter_rect (w, h, &fr);
  vh_fadm_score_rect (w, h, &sr);
  memset (&a, 0, sizeof (a));
  a.oh = s->bands[0][BAND_H];
  a.ov = s->bands[0][BAND_V];
  a.od = s->bands[0][BAND_D];
  a.th = s->bands[1][BAND_H];
  a.tv = s->bands[1][BAND_V];
  a.td = s->bands[1][BAND_D];
  a.rh = s->restored[0];
  a.rv = s->restored[1];
  a.rd = s->restored[2];
  a.ah = s->additive[0];
  a.av = s->additive[1];
  a.ad = s->additive[2];
  a.terms = s->terms;
  a.rows = s->rows;
  a.stride = s->band_stride;
  a.width = w;
  a.height = h;
  a.fl = fr.left;
  a.ft = fr.top;
  a.fr = fr.right;
  a.fb = fr.bottom;
  a.sl = sr.left;
  a.st = sr.top;
  a.sr = sr.right;
  a.sb = sr.bottom;
  memcpy (a.rf, adm->rf[scale], sizeof (a.rf));
  a.cos_1deg_sq = vh_fadm_cos_1deg_sq ();
  a.gain_limit = adm->gain_limit;
  a.p_norm = adm->pool.p_norm;
  a.bypass_cm = adm->pool.bypass_cm;
  a.rcp_shift = s->rcp_shift;
  a.rcp_table = s->rcp_table;
  return launch_2d (s, s->decouple_fn, fr.right - fr.left,
      fr.bottom - fr.top, args, error) &&
      launch_2d (s, s->terms_fn, sr.right - sr.left, sr.bottom - sr.top,
      args, error) &&
      vh_hip_fex_launch (&s->hip, s->rows_fn,
      vh_hip_div_up (sr.bottom - sr.top, FADM_ROW_THREADS), N_TERMS,
      FADM_ROW_THREADS, 1, 0, args, error) &&
      vh_hip_fex_launch (&s->hip, s->total_fn, 1, 1, 32, 1, 0, total_args,
      error);
}

static gboolean
hip_fadm_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  HipFloatAdm *s = fex->priv;
  gfloat *sums;

  if (!vh_hip_fex_check_luma_on_device (fex, ref, dist, index, error))
    return FALSE;
  sums = vh_hip_fex_begin (&s->hip, index, ref, dist, error);
  if (!sums || !queue_load (s, ref, 0, error) ||
      !queue_load (s, dist, 1, error))
    return FALSE;
  for (guint scale = 0; scale < VH_FADM_N_SCALES; scale++) {
    if (!queue_dwt (s, scale, 0, error) || !queue_dwt (s, scale, 1, error))
      return FALSE;
    if (scale == 0 && s->adm.skip_scale0)
      continue;
    if (!queue_sums (s, scale, sums + scale * N_TERMS, error))
      return FALSE;
  }
  return vh_hip_fex_end (&s->hip, ref, dist, fc, error);
}

const VhFeatureExtractorClass vh_hip_fex_float_adm = {
  .name = "float_adm",
  .provides = vh_float_adm_provides,
  .options = vh_float_adm_options,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .flags = VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = VH_FLOAT_ADM_MIN_SIZE,
  .min_height = VH_FLOAT_ADM_MIN_SIZE,
  .priv_size = sizeof (HipFloatAdm),
  .init = hip_fadm_init,
  .extract = hip_fadm_extract,
  .flush = vh_hip_fex_class_flush,
  .close = hip_fadm_close,
};
