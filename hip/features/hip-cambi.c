/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of CAMBI ("cambi", src/features/cambi.c): every pixel step
 * and the pooling on the GPU (hip/features/kernels/cambi.hip), one small
 * result per scale back per frame (the pooled sums, exact integers), the
 * scores on the host by the CPU twin's own code (cambi-setup.c,
 * cambi-pool.c). Equal to the CPU twin bit for bit, for every option but
 * heatmaps_path (files written per frame: left to the CPU twin). */

#include "hip-fex-common.h"
#include "errors.h"
#include "features/cambi-private.h"

#include <string.h>

extern const VhHipKernelSource vh_hip_kernel_cambi;

#define CAMBI_TILE 16                   /* VH_CAMBI_TILE */
#define CAMBI_SLOT_TILE 32              /* VH_CAMBI_STILE, 32x8 threads */
#define CAMBI_SLOT_DIFFS 4              /* VH_CAMBI_SLOT_DIFFS */
#define CAMBI_THREADS 256               /* VH_CAMBI_THREADS */
#define CAMBI_MASK_BX 32                /* VH_CAMBI_MASK_BX */
#define CAMBI_MASK_BY 8
#define CAMBI_HIST_STRIDE (4096 + 2 * 256)
#define CAMBI_POOL_BLOCKS 1024
#define CAMBI_PICTURES 2                /* distorted, and source with full_ref */

/* Must match struct vh_cambi_load_args in the kernel. */
typedef struct
{
  gconstpointer src;
  guint64 src_pitch;
  const guint32 *cols;
  const guint32 *rows;
  guint16 *out;
  guint32 out_pitch;
  guint32 w;
  guint32 h;
  guint32 bpc;
  guint32 anti_dither;
  guint32 in_w;
  guint32 in_h;
  guint32 pad;
  guint32 *range_max;
} CambiLoadArgs;

G_STATIC_ASSERT (sizeof (CambiLoadArgs) == 80);

typedef struct
{
  const guint16 *image;
  guint8 *mask;
  guint32 pitch;
  guint32 w;
  guint32 h;
  guint32 threshold;
} CambiMaskArgs;

G_STATIC_ASSERT (sizeof (CambiMaskArgs) == 32);

typedef struct
{
  const guint16 *src;
  guint16 *out;
  guint32 src_pitch;
  guint32 step;
  guint32 w;
  guint32 h;
} CambiModeArgs;

G_STATIC_ASSERT (sizeof (CambiModeArgs) == 32);

typedef struct
{
  const guint16 *image;
  const guint8 *mask;
  const guint32 *steps;
  const gfloat *recip;
  gfloat *out;
  guint32 mask_pitch;
  guint32 mask_shift;
  guint32 w;
  guint32 h;
  guint32 pad;
  guint32 band_base;
  guint32 band_size;
  guint32 num_diffs;
  gint32 weight[VH_CAMBI_MAX_DIFFS];
} CambiCValuesArgs;

G_STATIC_ASSERT (sizeof (CambiCValuesArgs) == 72 + 4 * VH_CAMBI_MAX_DIFFS);

typedef struct
{
  const gfloat *values;
  guint32 offset[VH_CAMBI_NUM_SCALES];
  guint32 n[VH_CAMBI_NUM_SCALES];
  guint32 k[VH_CAMBI_NUM_SCALES];
  guint32 pass;
  guint32 *hist;
  gpointer state;
  gpointer result;
} CambiPoolArgs;

G_STATIC_ASSERT (sizeof (CambiPoolArgs) == 96);

/* struct vh_cambi_scale_result */
typedef struct
{
  guint64 sum_hi;
  guint64 sum_lo;
  guint64 above;
  guint32 t_bits;
  guint32 error;
} CambiScaleResult;

typedef struct
{
  CambiScaleResult scale[CAMBI_PICTURES][VH_CAMBI_NUM_SCALES];
  guint32 range_max[CAMBI_PICTURES];
} CambiSlot;

#define CAMBI_STATE_BYTES 32            /* struct vh_cambi_select_state */

/* One picture's sizes: loaded at w x h, then per scale. */
typedef struct
{
  guint w, h;
  guint window;
  guint sw[VH_CAMBI_NUM_SCALES], sh[VH_CAMBI_NUM_SCALES];
  guint32 offset[VH_CAMBI_NUM_SCALES];
  guint32 n[VH_CAMBI_NUM_SCALES];
  guint32 k[VH_CAMBI_NUM_SCALES];
  guint32 *d_positions;         /* columns then rows; NULL: no resize */
} CambiPlan;

typedef struct
{
  VhHipFex hip;
  VhCambiParams p;
  CambiPlan plan[CAMBI_PICTURES];
  guint pitch;                  /* of the full-size planes, in samples */

  VhHipFunction *load_fn, *range_fn, *mask_fn, *mode_fn, *c_values_fn;
  VhHipFunction *c_slots_fn;
  VhHipFunction *hist_fn, *select_fn, *sum_fn;
  guint16 *d_image;
  guint16 *d_scaled[2];
  guint8 *d_mask;
  gfloat *d_values;
  guint32 *d_steps;
  gfloat *d_recip;
  guint8 *d_pool;               /* histograms, then the select states */
} HipCambi;

VH_HIP_FEX_FIRST (HipCambi, hip);

static gboolean
hip_cambi_picture_scores (HipCambi * s, const CambiScaleResult * r,
    const CambiPlan * plan, gdouble * score, GError ** error)
{
  gdouble per_scale[VH_CAMBI_NUM_SCALES];

  for (guint i = 0; i < VH_CAMBI_NUM_SCALES; i++) {
    union
    {
      guint32 u;
      gfloat f;
    } t = {.u = r[i].t_bits };

    if (r[i].error) {
      g_set_error (error, VH_ERROR, VH_ERROR_FAILED,
          "cambi: a c value of scale %u is outside the pooling range", i);
      return FALSE;
    }
    per_scale[i] = vh_cambi_topk_finish (r[i].sum_hi, r[i].sum_lo,
        r[i].above, t.f, plan->k[i]);
  }
  *score = vh_cambi_combine_scales (per_scale, plan->window);
  return TRUE;
}

static gboolean
hip_cambi_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  HipCambi *s = fex->priv;
  const CambiSlot *slot = results;
  guint bpc = fex->info.bpc, max = (1u << bpc) - 1;
  gdouble score[CAMBI_PICTURES] = { 0.0, 0.0 };

  for (guint pic = 0; pic < (s->p.full_ref ? 2u : 1u); pic++) {
    /* The CPU twin's check, on the whole picture. */
    if (bpc != 8 && bpc < 16 && slot->range_max[pic] > max) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "cambi: luma sample %u exceeds the %u-bit maximum %u",
          slot->range_max[pic], bpc, max);
      return FALSE;
    }
    if (!hip_cambi_picture_scores (s, slot->scale[pic], &s->plan[pic],
            &score[pic], error))
      return FALSE;
  }
  return vh_cambi_append (fex, &s->p, fc, index, score[0], score[1], error);
}

static void
hip_cambi_close (VhFeatureExtractor * fex)
{
  HipCambi *s = fex->priv;
  gpointer *buffers[] = {
    (gpointer *) & s->d_image, (gpointer *) & s->d_scaled[0],
    (gpointer *) & s->d_scaled[1], (gpointer *) & s->d_mask,
    (gpointer *) & s->d_values, (gpointer *) & s->d_steps,
    (gpointer *) & s->d_recip, (gpointer *) & s->d_pool,
    (gpointer *) & s->plan[0].d_positions,
    (gpointer *) & s->plan[1].d_positions,
  };

  if (s->hip.device) {
    vh_hip_stream_synchronize (s->hip.stream, NULL);
    for (guint i = 0; i < G_N_ELEMENTS (buffers); i++) {
      if (*buffers[i])
        vh_hip_free (s->hip.device, *buffers[i]);
      *buffers[i] = NULL;
    }
  }
  vh_hip_fex_close (&s->hip);
}

/* Sizes of every scale, and the resize tables when the picture is scored
 * at another size. */
static gboolean
hip_cambi_plan (HipCambi * s, CambiPlan * plan, const VhPictureInfo * info,
    guint w, guint h, guint window, GError ** error)
{
  guint32 offset = 0;

  plan->w = w;
  plan->h = h;
  plan->window = window;
  for (guint i = 0; i < VH_CAMBI_NUM_SCALES; i++) {
    if (i > 0 || s->p.speedup) {
      w = (w + 1) >> 1;
      h = (h + 1) >> 1;
    }
    plan->sw[i] = w;
    plan->sh[i] = h;
    plan->offset[i] = offset;
    plan->n[i] = w * h;
    plan->k[i] = vh_cambi_topk_count ((gsize) w * h, s->p.topk);
    /* Keep every scale 16-byte aligned. */
    offset += (w * h + 3) & ~3u;
  }
  if (info->width == plan->w && info->height == plan->h)
    return TRUE;

  guint n = plan->w + plan->h;
  g_autofree guint *pos = g_new (guint, n);
  vh_cambi_nearest_positions (info->width, plan->w, pos);
  vh_cambi_nearest_positions (info->height, plan->h, pos + plan->w);
  return vh_hip_malloc (s->hip.device, n * sizeof (guint32),
      (gpointer *) & plan->d_positions, error) &&
      vh_hip_memcpy_2d (s->hip.device, VH_HIP_COPY_HOST_TO_DEVICE,
      plan->d_positions, n * sizeof (guint32), pos, n * sizeof (guint32),
      n * sizeof (guint32), 1, error);
}

static gboolean
hip_cambi_functions (HipCambi * s, GError ** error)
{
  struct
  {
    VhHipFunction **fn;
    const gchar *name;
  } fns[] = {
    {&s->load_fn, "vh_cambi_load"}, {&s->range_fn, "vh_cambi_range"},
    {&s->mask_fn, "vh_cambi_mask"}, {&s->mode_fn, "vh_cambi_mode"},
    {&s->c_values_fn, "vh_cambi_c_values_tile"},
    {&s->c_slots_fn, "vh_cambi_c_values_slots"},
    {&s->hist_fn, "vh_cambi_hist"},
    {&s->select_fn, "vh_cambi_select"}, {&s->sum_fn, "vh_cambi_sum"},
  };

  for (guint i = 0; i < G_N_ELEMENTS (fns); i++) {
    *fns[i].fn = vh_hip_fex_function (&s->hip, &vh_hip_kernel_cambi,
        fns[i].name, error);
    if (!*fns[i].fn)
      return FALSE;
  }
  return TRUE;
}

static gboolean
upload (HipCambi * s, gpointer * d, gconstpointer host, gsize size,
    GError ** error)
{
  return vh_hip_malloc (s->hip.device, size, d, error) &&
      vh_hip_memcpy_2d (s->hip.device, VH_HIP_COPY_HOST_TO_DEVICE, *d, size,
      host, size, size, 1, error);
}

static gboolean
hip_cambi_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipCambi *s = fex->priv;
  const VhCambiContrast *c = &s->p.contrast;
  guint alloc_w, alloc_h, n_pics;
  gsize plane, values = 0;

  if (!vh_cambi_params_init (&s->p, fex, info, error))
    return FALSE;
  if (vh_feature_extractor_get_string_option (fex, "heatmaps_path")) {
    /* The context gives such an instance to the CPU twin. */
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature 'cambi' on HIP does not write heatmaps (heatmaps_path): "
        "the CPU twin does");
    return FALSE;
  }
  if (!vh_hip_fex_init (&s->hip, fex, sizeof (CambiSlot), hip_cambi_collect,
          error))
    return FALSE;
  n_pics = s->p.full_ref ? 2 : 1;
  alloc_w = s->p.full_ref ? MAX (s->p.enc_w, s->p.src_w) : s->p.enc_w;
  alloc_h = s->p.full_ref ? MAX (s->p.enc_h, s->p.src_h) : s->p.enc_h;
  s->pitch = alloc_w;
  plane = (gsize) alloc_w * alloc_h;
  if (!hip_cambi_functions (s, error) ||
      !hip_cambi_plan (s, &s->plan[0], info, s->p.enc_w, s->p.enc_h,
          s->p.window, error) ||
      (n_pics > 1 && !hip_cambi_plan (s, &s->plan[1], info, s->p.src_w,
              s->p.src_h, s->p.src_window, error)))
    goto fail;
  for (guint i = 0; i < n_pics; i++) {
    const CambiPlan *pl = &s->plan[i];
    values = MAX (values, pl->offset[VH_CAMBI_NUM_SCALES - 1] +
        (gsize) pl->n[VH_CAMBI_NUM_SCALES - 1]);
  }
  if (!vh_hip_malloc (s->hip.device, plane * sizeof (guint16),
          (gpointer *) & s->d_image, error) ||
      !vh_hip_malloc (s->hip.device, plane * sizeof (guint16),
          (gpointer *) & s->d_scaled[0], error) ||
      !vh_hip_malloc (s->hip.device, plane * sizeof (guint16),
          (gpointer *) & s->d_scaled[1], error) ||
      !vh_hip_malloc (s->hip.device, plane, (gpointer *) & s->d_mask, error)
      || !vh_hip_malloc (s->hip.device, values * sizeof (gfloat),
          (gpointer *) & s->d_values, error) ||
      !vh_hip_malloc (s->hip.device, VH_CAMBI_NUM_SCALES *
          (CAMBI_HIST_STRIDE * sizeof (guint32) + CAMBI_STATE_BYTES),
          (gpointer *) & s->d_pool, error) ||
      !upload (s, (gpointer *) & s->d_steps, c->steps,
          sizeof (guint32) * MAX (c->band_size, 1), error) ||
      !upload (s, (gpointer *) & s->d_recip, vh_cambi_reciprocals (),
          sizeof (gfloat) * VH_CAMBI_RECIPROCALS, error))
    goto fail;
  return TRUE;

fail:
  hip_cambi_close (fex);
  return FALSE;
}

static gboolean
launch (HipCambi * s, VhHipFunction * fn, guint gx, guint gy, guint bx,
    guint by, guint shared, gpointer arg, GError ** error)
{
  gpointer args[] = { arg };

  return vh_hip_fex_launch (&s->hip, fn, gx, gy, bx, by, shared, args, error);
}

/* Luma to 10 bit at the plan's size, and the mask. */
static gboolean
hip_cambi_prepare (HipCambi * s, const VhPicture * pic, const CambiPlan * pl,
    guint32 * range_max, GError ** error)
{
  guint bpc = pic->info.bpc;
  CambiLoadArgs l = {
    .src = pic->data[0],.src_pitch = pic->stride[0],
    .cols = pl->d_positions,
    .rows = pl->d_positions ? pl->d_positions + pl->w : NULL,
    .out = s->d_image,.out_pitch = s->pitch,.w = pl->w,.h = pl->h,
    .bpc = bpc,.anti_dither = s->p.enc_bitdepth < 10,
    .in_w = pic->width[0],.in_h = pic->height[0],.range_max = range_max,
  };
  CambiMaskArgs m = {
    .image = s->d_image,.mask = s->d_mask,.pitch = s->pitch,.w = pl->w,
    .h = pl->h,.threshold = (guint8) vh_cambi_flat_threshold (pl->w, pl->h),
  };

  if (bpc != 8 && bpc < 16 && !launch (s, s->range_fn,
          MIN (vh_hip_div_up (l.in_w, CAMBI_THREADS), 4), l.in_h,
          CAMBI_THREADS, 1, 0, &l, error))
    return FALSE;
  return launch (s, s->load_fn, vh_hip_div_up (pl->w, CAMBI_MASK_BX),
      vh_hip_div_up (pl->h, CAMBI_MASK_BY), CAMBI_MASK_BX, CAMBI_MASK_BY, 0,
      &l, error) &&
      launch (s, s->mask_fn, vh_hip_div_up (pl->w, CAMBI_MASK_BX),
      vh_hip_div_up (pl->h, CAMBI_MASK_BY), CAMBI_MASK_BX, CAMBI_MASK_BY, 0,
      &m, error);
}

/* Mode filter and c values of every scale. */
static gboolean
hip_cambi_scales (HipCambi * s, const CambiPlan * pl, GError ** error)
{
  const VhCambiContrast *c = &s->p.contrast;
  guint pad = pl->window / 2;
  gboolean slots = c->num_diffs <= CAMBI_SLOT_DIFFS;
  guint tile = slots ? CAMBI_SLOT_TILE : CAMBI_TILE;
  guint side = tile + 2 * pad;
  guint counters = (2 * c->num_diffs + 1) * CAMBI_THREADS * sizeof (guint16);
  /* The padded tile's rows, then per-thread counters or (slots) the
   * larger of them and the column sums. */
  guint shared = ((side * side + 1) & ~1u) * sizeof (guint16) + (slots ?
      MAX (CAMBI_SLOT_TILE * (side + 1) * sizeof (guint32), counters) :
      counters);
  CambiCValuesArgs cv = {
    .mask = s->d_mask,.steps = s->d_steps,.recip = s->d_recip,
    .mask_pitch = s->pitch,.pad = pad,.band_base = c->band_base,
    .band_size = c->band_size,.num_diffs = c->num_diffs,
  };

  memcpy (cv.weight, c->weight, sizeof (cv.weight));
  for (guint i = 0; i < VH_CAMBI_NUM_SCALES; i++) {
    guint w = pl->sw[i], h = pl->sh[i];
    gboolean decimate = i > 0 || s->p.speedup;
    CambiModeArgs m = {
      .src = i == 0 ? s->d_image : s->d_scaled[(i - 1) & 1],
      .out = s->d_scaled[i & 1],
      .src_pitch = i == 0 ? s->pitch : pl->sw[i - 1],
      .step = decimate ? 2 : 1,.w = w,.h = h,
    };

    cv.image = m.out;
    cv.out = s->d_values + pl->offset[i];
    cv.mask_shift = i + (s->p.speedup ? 1 : 0);
    cv.w = w;
    cv.h = h;
    if (!launch (s, s->mode_fn, vh_hip_div_up (w, CAMBI_MASK_BX),
            vh_hip_div_up (h, CAMBI_MASK_BY), CAMBI_MASK_BX, CAMBI_MASK_BY, 0,
            &m, error) ||
        !launch (s, slots ? s->c_slots_fn : s->c_values_fn,
            vh_hip_div_up (w, tile), vh_hip_div_up (h, tile), tile,
            CAMBI_THREADS / tile, shared, &cv, error))
      return FALSE;
  }
  return TRUE;
}

/* Top-k pooling of all scales into @result. */
static gboolean
hip_cambi_pool (HipCambi * s, const CambiPlan * pl, gpointer result,
    GError ** error)
{
  gsize hist_bytes = VH_CAMBI_NUM_SCALES * CAMBI_HIST_STRIDE * sizeof (guint32);
  guint blocks = CLAMP (vh_hip_div_up (pl->n[0], CAMBI_THREADS * 16), 1,
      CAMBI_POOL_BLOCKS);
  CambiPoolArgs a = {
    .values = s->d_values,.hist = (guint32 *) s->d_pool,
    .state = s->d_pool + hist_bytes,.result = result,
  };

  memcpy (a.offset, pl->offset, sizeof (a.offset));
  memcpy (a.n, pl->n, sizeof (a.n));
  memcpy (a.k, pl->k, sizeof (a.k));
  if (!vh_hip_memset_2d_async (s->hip.stream, s->d_pool,
          hist_bytes + VH_CAMBI_NUM_SCALES * CAMBI_STATE_BYTES, 0,
          hist_bytes + VH_CAMBI_NUM_SCALES * CAMBI_STATE_BYTES, 1, error))
    return FALSE;
  for (a.pass = 0; a.pass < 3; a.pass++) {
    if (!launch (s, s->hist_fn, blocks, VH_CAMBI_NUM_SCALES, CAMBI_THREADS,
            1, 0, &a, error) ||
        !launch (s, s->select_fn, 1, VH_CAMBI_NUM_SCALES, CAMBI_THREADS, 1,
            0, &a, error))
      return FALSE;
  }
  return launch (s, s->sum_fn, blocks, VH_CAMBI_NUM_SCALES, CAMBI_THREADS, 1,
      0, &a, error);
}

/* Heatmaps are files written per frame: the CPU twin's job. */
static const gchar *
hip_cambi_unsupported (const VhFeatureExtractor * fex)
{
  if (vh_feature_extractor_get_string_option (fex, "heatmaps_path"))
    return "heatmaps_path is written on the CPU";
  return NULL;
}

static gboolean
hip_cambi_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  HipCambi *s = fex->priv;
  const VhPicture *pics[CAMBI_PICTURES] = { dist, ref };
  CambiSlot *slot;

  if (!vh_hip_fex_check_luma_on_device (fex, ref, dist, index, error))
    return FALSE;
  if (dist->step[0] > 1 || ref->step[0] > 1) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature 'cambi' needs planar luma");
    return FALSE;
  }
  slot = vh_hip_fex_begin (&s->hip, index, ref, dist, error);
  if (!slot)
    return FALSE;
  for (guint i = 0; i < (s->p.full_ref ? 2u : 1u); i++) {
    if (!hip_cambi_prepare (s, pics[i], &s->plan[i], &slot->range_max[i],
            error) || !hip_cambi_scales (s, &s->plan[i], error) ||
        !hip_cambi_pool (s, &s->plan[i], slot->scale[i], error))
      return FALSE;
  }
  return vh_hip_fex_end (&s->hip, ref, dist, fc, error);
}

const VhFeatureExtractorClass vh_hip_fex_cambi = {
  .name = "cambi",
  .provides = vh_cambi_provides,
  .options = vh_cambi_options,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .flags = VH_EXTRACTOR_FLAG_LUMA_ONLY,
  /* At least one side must reach 216: checked in init. */
  .min_width = 1,
  .min_height = 1,
  .priv_size = sizeof (HipCambi),
  .init = hip_cambi_init,
  .extract = hip_cambi_extract,
  .flush = vh_hip_fex_class_flush,
  .close = hip_cambi_close,
  .unsupported = hip_cambi_unsupported,
};
