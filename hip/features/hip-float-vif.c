/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of "float_vif" (src/features/float-vif.c): both lumas as
 * floats (resampled first with vif_prescale), the four scales' filtering
 * and single-precision sums on the GPU in the CPU twin's order
 * (hip/features/kernels/float-vif.hip, float-scale.hip), one copy of the
 * eight sums back per frame, and the CPU twin's own arithmetic for the
 * scores (float-vif.h). Equal to the CPU twin bit for bit; lanczos4
 * prescaling weights come from the CPU's own code (the C library's sin),
 * computed once. */

#include "hip-fex-common.h"
#include "hip-float-luma.h"
#include "errors.h"
#include "features/float-vif.h"

#include <string.h>

extern const VhHipKernelSource vh_hip_kernel_float_vif;
extern const VhHipKernelSource vh_hip_kernel_float_scale;

/* Must match struct vh_fvif_scale_args in the kernel. */
typedef struct
{
  const gfloat *ref;
  const gfloat *dis;
  guint64 stride;
  guint32 width;
  guint32 height;
  const gfloat *f;
  guint32 fw;
  guint32 pad;
  gfloat *mu1, *mu2, *xx, *yy, *xy;
  gfloat *num, *den;
  gfloat *row_num, *row_den;
  gdouble sigma_nsq;
  gfloat gain_limit;
  gfloat sigma_max_inv;
} FvifScaleArgs;

G_STATIC_ASSERT (sizeof (FvifScaleArgs) == 136);

#define FVIF_BLOCK_X 32
#define FVIF_BLOCK_Y 8
#define FVIF_ROW_THREADS 64

#define N_STATS 5

typedef struct
{
  VhHipFex hip;
  VhFloatVif v;

  /* Device buffers. */
  gfloat *input[2];             /* vif_prescale: luma at the input size */
  gfloat *plane[VH_FVIF_N_SCALES][2];   /* reference, distorted */
  gfloat *filters;              /* VH_FVIF_N_SCALES x VH_FCONV_MAX_TAPS */
  gfloat *tmp;                  /* the next scale's vertical pass */
  gfloat *stats[N_STATS];
  gfloat *num, *den;
  gfloat *rows;                 /* numerator rows, then denominator rows */
  /* lanczos4 prescaling: per column, then per row, the source floor and
   * the weights. */
  gint *lanczos_origin[2];
  gfloat *lanczos_weights[2];

  VhHipFunction *load_fn;
  VhHipFunction *prescale_fn;
  VhHipFunction *vpass_fn;
  VhHipFunction *hpass_fn;
  VhHipFunction *moments_fn;
  VhHipFunction *stats_fn;
  VhHipFunction *rows_fn;
  VhHipFunction *total_fn;
} HipFloatVif;

VH_HIP_FEX_FIRST (HipFloatVif, hip);

static gboolean
hip_fvif_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  HipFloatVif *s = fex->priv;

  return vh_float_vif_append (&s->v, fex, results, index, fc, error);
}

static void
hip_fvif_close (VhFeatureExtractor * fex)
{
  HipFloatVif *s = fex->priv;
  VhHipDevice *device = s->hip.device;
  gfloat **bufs[] = {
    &s->input[0], &s->input[1], &s->filters, &s->tmp, &s->num, &s->den,
    &s->rows, &s->stats[0], &s->stats[1], &s->stats[2], &s->stats[3],
    &s->stats[4], &s->lanczos_weights[0], &s->lanczos_weights[1],
    (gfloat **) & s->lanczos_origin[0], (gfloat **) & s->lanczos_origin[1],
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
  for (guint i = 0; i < VH_FVIF_N_SCALES; i++) {
    for (guint p = 0; p < 2; p++) {
      if (s->plane[i][p])
        vh_hip_free (device, s->plane[i][p]);
      s->plane[i][p] = NULL;
    }
  }
  vh_hip_device_unref (device);
}

static gboolean
alloc_floats (HipFloatVif * s, gfloat ** buf, gsize n, GError ** error)
{
  return vh_hip_malloc (s->hip.device, MAX (n, 1) * sizeof (gfloat),
      (gpointer *) buf, error);
}

/* lanczos4's origins and weights along both axes, from the CPU's code. */
static gboolean
hip_fvif_lanczos_tables (HipFloatVif * s, GError ** error)
{
  const VhFloatVif *v = &s->v;
  const guint n_src[2] = { v->in_w, v->in_h }, n_dst[2] = { v->w[0], v->h[0] };
  const guint taps = VH_FLOAT_SCALE_LANCZOS4_TAPS;
  gboolean ok = TRUE;

  for (guint d = 0; d < 2 && ok; d++) {
    const gsize on = n_dst[d] * sizeof (gint);
    const gsize wn = (gsize) n_dst[d] * taps * sizeof (gfloat);
    g_autofree gint *origin = g_new (gint, n_dst[d]);
    g_autofree gfloat *weights = g_new (gfloat, (gsize) n_dst[d] * taps);

    vh_float_scale_lanczos4_weights (n_src[d], n_dst[d], origin, weights);
    ok = vh_hip_malloc (s->hip.device, on,
        (gpointer *) & s->lanczos_origin[d], error) &&
        vh_hip_malloc (s->hip.device, wn,
        (gpointer *) & s->lanczos_weights[d], error) &&
        vh_hip_memcpy_2d (s->hip.device, VH_HIP_COPY_HOST_TO_DEVICE,
        s->lanczos_origin[d], on, origin, on, on, 1, error) &&
        vh_hip_memcpy_2d (s->hip.device, VH_HIP_COPY_HOST_TO_DEVICE,
        s->lanczos_weights[d], wn, weights, wn, wn, 1, error);
  }
  return ok;
}

static gboolean
hip_fvif_alloc (HipFloatVif * s, GError ** error)
{
  const VhFloatVif *v = &s->v;
  const gsize n0 = (gsize) v->w[0] * v->h[0];
  gfloat filters[VH_FVIF_N_SCALES][VH_FCONV_MAX_TAPS] = { {0} };

  for (guint p = 0; p < 2 && v->prescale; p++) {
    if (!alloc_floats (s, &s->input[p], (gsize) v->in_w * v->in_h, error))
      return FALSE;
  }
  if (v->prescale && v->prescale_method == VH_FLOAT_SCALE_LANCZOS4 &&
      !hip_fvif_lanczos_tables (s, error))
    return FALSE;
  for (guint i = 0; i < VH_FVIF_N_SCALES; i++) {
    for (guint p = 0; p < 2; p++) {
      if (!alloc_floats (s, &s->plane[i][p], (gsize) v->w[i] * v->h[i], error))
        return FALSE;
    }
    memcpy (filters[i], v->filter[i], v->fw[i] * sizeof (gfloat));
  }
  for (guint q = 0; q < N_STATS; q++) {
    if (!alloc_floats (s, &s->stats[q], n0, error))
      return FALSE;
  }
  return alloc_floats (s, &s->tmp, (gsize) v->w[0] * (v->h[0] / 2), error)
      && alloc_floats (s, &s->num, n0, error)
      && alloc_floats (s, &s->den, n0, error)
      && alloc_floats (s, &s->rows, 2 * (gsize) v->h[0], error)
      && alloc_floats (s, &s->filters, sizeof (filters) / sizeof (gfloat),
      error)
      && vh_hip_memcpy_2d (s->hip.device, VH_HIP_COPY_HOST_TO_DEVICE,
      s->filters, sizeof (filters), filters, sizeof (filters),
      sizeof (filters), 1, error);
}

static gboolean
hip_fvif_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipFloatVif *s = fex->priv;
  const VhHipKernelSource *k = &vh_hip_kernel_float_vif;
  /* Indexed by VhFloatScaleMethod. */
  static const gchar *const prescale_names[] = {
    "vh_fscale_nearest", "vh_fscale_bilinear", "vh_fscale_bicubic",
    "vh_fscale_lanczos4",
  };

  if (!vh_float_vif_setup (&s->v, fex, info, error))
    return FALSE;
  if (!vh_hip_fex_init (&s->hip, fex,
          2 * VH_FVIF_N_SCALES * sizeof (gfloat), hip_fvif_collect, error))
    return FALSE;
  if ((s->load_fn = vh_hip_float_luma_function (&s->hip, info->bpc,
              error)) &&
      (!s->v.prescale || (s->prescale_fn = vh_hip_fex_function (&s->hip,
                  &vh_hip_kernel_float_scale,
                  prescale_names[s->v.prescale_method], error))) &&
      (s->vpass_fn = vh_hip_fex_function (&s->hip, k, "vh_fvif_vpass",
              error)) &&
      (s->hpass_fn = vh_hip_fex_function (&s->hip, k, "vh_fvif_hpass_even",
              error)) &&
      (s->moments_fn = vh_hip_fex_function (&s->hip, k, "vh_fvif_moments",
              error)) &&
      (s->stats_fn = vh_hip_fex_function (&s->hip, k, "vh_fvif_stats",
              error)) &&
      (s->rows_fn = vh_hip_fex_function (&s->hip, k, "vh_fvif_rows",
              error)) &&
      (s->total_fn = vh_hip_fex_function (&s->hip, k, "vh_fvif_total",
              error)) && hip_fvif_alloc (s, error))
    return TRUE;
  hip_fvif_close (fex);
  return FALSE;
}

static gboolean
launch_2d (HipFloatVif * s, VhHipFunction * fn, guint w, guint h,
    gpointer * args, GError ** error)
{
  return vh_hip_fex_launch (&s->hip, fn, vh_hip_div_up (w, FVIF_BLOCK_X),
      vh_hip_div_up (h, FVIF_BLOCK_Y), FVIF_BLOCK_X, FVIF_BLOCK_Y, 0, args,
      error);
}

VhHipFunction *
vh_hip_float_luma_function (VhHipFex * h, guint bpc, GError ** error)
{
  return vh_hip_fex_function (h, &vh_hip_kernel_float_vif, bpc == 8 ?
      "vh_fvif_load_u8" : "vh_fvif_load_u16", error);
}

gboolean
vh_hip_float_luma_queue (VhHipFex * h, VhHipFunction * fn,
    const VhPicture * pic, guint w, guint height, gfloat * dst,
    GError ** error)
{
  gconstpointer src = pic->data[0];
  guint64 pitch = pic->stride[0];
  guint step = MAX (pic->step[0], 1);
  /* A power of two: multiplying by it is libvmaf's exact division. */
  gfloat inv_scale = 1.0f / (gfloat) (1u << (pic->info.bpc - 8));
  gpointer args[] = { &src, &pitch, &step, &w, &height, &inv_scale, &dst };

  return vh_hip_fex_launch (h, fn, vh_hip_div_up (w, FVIF_BLOCK_X),
      vh_hip_div_up (height, FVIF_BLOCK_Y), FVIF_BLOCK_X, FVIF_BLOCK_Y, 0,
      args, error);
}

/* Queues @pic's luma as floats into @dst (rows its width apart). */
static gboolean
queue_load (HipFloatVif * s, const VhPicture * pic, gfloat * dst,
    GError ** error)
{
  return vh_hip_float_luma_queue (&s->hip, s->load_fn, pic,
      pic->info.width, pic->info.height, dst, error);
}

/* Queues scale 0 of @pic into @dst, through vif_prescale's resampling. */
static gboolean
queue_scale0 (HipFloatVif * s, const VhPicture * pic, guint p, GError ** error)
{
  const VhFloatVif *v = &s->v;
  gfloat *src = s->input[p], *dst = s->plane[0][p];
  guint64 ss = v->in_w, ds = v->w[0];
  guint sw = v->in_w, sh = v->in_h, dw = v->w[0], dh = v->h[0];
  gpointer args[] = { &src, &ss, &sw, &sh, &dst, &ds, &dw, &dh,
    &s->lanczos_origin[0], &s->lanczos_weights[0], &s->lanczos_origin[1],
    &s->lanczos_weights[1]
  };

  if (!v->prescale)
    return queue_load (s, pic, dst, error);
  return queue_load (s, pic, src, error) &&
      launch_2d (s, s->prescale_fn, dw, dh, args, error);
}

/* Queues scale @i of picture @p (@i > 0) from scale @i - 1. */
static gboolean
queue_decimate (HipFloatVif * s, guint i, guint p, GError ** error)
{
  const VhFloatVif *v = &s->v;
  const gfloat *src = s->plane[i - 1][p];
  gfloat *tmp = s->tmp, *dst = s->plane[i][p];
  const gfloat *f = s->filters + i * VH_FCONV_MAX_TAPS;
  guint w = v->w[i - 1], h = v->h[i - 1], n_rows = h / 2, fw = v->fw[i];
  gpointer vargs[] = { &src, &w, &h, &f, &fw, &tmp };
  gpointer hargs[] = { &tmp, &w, &n_rows, &f, &fw, &dst };

  return launch_2d (s, s->vpass_fn, w, n_rows, vargs, error) &&
      launch_2d (s, s->hpass_fn, w / 2, n_rows, hargs, error);
}

/* Queues scale @i's sums into @out (numerator, denominator). */
static gboolean
queue_sums (HipFloatVif * s, guint i, gfloat * out, GError ** error)
{
  const VhFloatVif *v = &s->v;
  FvifScaleArgs a;
  gpointer args[] = { &a };
  gpointer total_args[] = { &a, &out };

  memset (&a, 0, sizeof (a));
  a.ref = s->plane[i][0];
  a.dis = s->plane[i][1];
  a.stride = v->w[i];
  a.width = v->w[i];
  a.height = v->h[i];
  a.f = s->filters + i * VH_FCONV_MAX_TAPS;
  a.fw = v->fw[i];
  a.mu1 = s->stats[0];
  a.mu2 = s->stats[1];
  a.xx = s->stats[2];
  a.yy = s->stats[3];
  a.xy = s->stats[4];
  a.num = s->num;
  a.den = s->den;
  a.row_num = s->rows;
  a.row_den = s->rows + v->h[0];
  a.sigma_nsq = v->params.sigma_nsq;
  a.gain_limit = v->params.gain_limit;
  a.sigma_max_inv = v->params.sigma_max_inv;
  return launch_2d (s, s->moments_fn, a.width, a.height, args, error) &&
      launch_2d (s, s->stats_fn, a.width, a.height, args, error) &&
      vh_hip_fex_launch (&s->hip, s->rows_fn,
      vh_hip_div_up (a.height, FVIF_ROW_THREADS), 1, FVIF_ROW_THREADS, 1, 0,
      args, error) &&
      vh_hip_fex_launch (&s->hip, s->total_fn, 1, 1, 1, 1, 0, total_args,
      error);
}

static gboolean
hip_fvif_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  HipFloatVif *s = fex->priv;
  gfloat *sums;

  if (!vh_hip_fex_check_luma_on_device (fex, ref, dist, index, error))
    return FALSE;
  sums = vh_hip_fex_begin (&s->hip, index, ref, dist, error);
  if (!sums || !queue_scale0 (s, ref, 0, error) ||
      !queue_scale0 (s, dist, 1, error))
    return FALSE;
  for (guint i = 0; i < VH_FVIF_N_SCALES; i++) {
    if (i > 0 && (!queue_decimate (s, i, 0, error) ||
            !queue_decimate (s, i, 1, error)))
      return FALSE;
    if (i == 0 && s->v.skip_scale0)
      continue;
    if (!queue_sums (s, i, sums + 2 * i, error))
      return FALSE;
  }
  return vh_hip_fex_end (&s->hip, ref, dist, fc, error);
}

const VhFeatureExtractorClass vh_hip_fex_float_vif = {
  .name = "float_vif",
  .provides = vh_float_vif_provides,
  .options = vh_float_vif_options,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .flags = VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = VH_FLOAT_VIF_MIN_SIZE,
  .min_height = VH_FLOAT_VIF_MIN_SIZE,
  .priv_size = sizeof (HipFloatVif),
  .init = hip_fvif_init,
  .extract = hip_fvif_extract,
  .flush = vh_hip_fex_class_flush,
  .close = hip_fvif_close,
};
