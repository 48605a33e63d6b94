/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of "float_motion" (src/features/float-motion.c).
 *
 * Each frame's planes are blurred on the device into the next buffer of a
 * ping-pong pair per plane, and the single-precision sums of absolute
 * differences with the previous frame's (plus those of both halved, with
 * motion_add_scale1) come back with the frame's slot, in the CPU twin's
 * order (hip/features/kernels/float-motion.hip, float-scale.hip). The twin is temporal and
 * deferred (hip-fex-common.h): extract() queues and returns; sums are
 * collected VH_HIP_FEX_LOOKAHEAD frames later, and from them the CPU
 * twin's own code (float-motion.h) derives the scores, the last frame's
 * when flush drains the pipeline at the end of the stream. Equal to the
 * CPU twin bit for bit. */

#include "hip-fex-common.h"
#include "errors.h"
#include "features/float-motion.h"

#include <string.h>

extern const VhHipKernelSource vh_hip_kernel_float_motion;
extern const VhHipKernelSource vh_hip_kernel_float_scale;

#define FMOTION_MAX_TAPS 5      /* VH_FMOTION_MAX_TAPS in the kernel */

/* Must match struct vh_fmotion_blur_args in the kernel. */
typedef struct
{
  gconstpointer src;
  guint64 pitch;
  guint32 step;
  guint32 width;
  guint32 height;
  gfloat inv_scale;
  gfloat *tmp;
  gfloat *dst;
  guint64 dst_stride;
  guint32 fw;
  gfloat f[FMOTION_MAX_TAPS];
} FmotionBlurArgs;

G_STATIC_ASSERT (sizeof (FmotionBlurArgs) == 80);

#define FMOTION_BLOCK_X 32
#define FMOTION_BLOCK_Y 8
#define FMOTION_ROW_THREADS 64

/* Per plane, in the frame's slot: the sum, then the halved planes' sum. */
#define FMOTION_SLOT_FLOATS 6

typedef struct
{
  VhHipFex hip;
  /* Options and, on the collecting side, the CPU twin's bookkeeping. */
  VhFloatMotion m;

  /* Device: blurred planes (slot = frame number % 2), the vertical pass,
   * the halved planes, per-row sums. */
  gfloat *blur[3][2];
  gfloat *tmp;
  gfloat *half[2];
  gfloat *rows;
  VhHipFunction *vblur_fn;
  VhHipFunction *hblur_fn;
  VhHipFunction *halve_fn;
  VhHipFunction *rows_fn;
  VhHipFunction *total_fn;

  /* Queuing side. */
  guint n_queued;
  guint last_queued;
} HipFloatMotion;

VH_HIP_FEX_FIRST (HipFloatMotion, hip);

/* One frame's sums are back: the CPU twin's arithmetic from here on. */
static gboolean
hip_fmotion_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  HipFloatMotion *s = fex->priv;
  const VhFloatMotion *m = &s->m;
  const gfloat *sums = results;
  gdouble score = 0.0;

  for (guint p = 0; p < m->n_planes; p++) {
    gfloat sad = vh_float_motion_mean (sums[2 * p], m->pw[p], m->ph[p]);

    if (m->add_scale1) {
      guint hw = vh_float_motion_half (m->pw[p]);
      guint hh = vh_float_motion_half (m->ph[p]);
      sad = sad + vh_float_motion_mean (sums[2 * p + 1], hw, hh);
    }
    score += sad;
  }
  return vh_float_motion_push (&s->m, fex, fc, index, score, error);
}

static void
hip_fmotion_close (VhFeatureExtractor * fex)
{
  HipFloatMotion *s = fex->priv;
  VhHipDevice *device = s->hip.device;
  gfloat **bufs[] = {
    &s->blur[0][0], &s->blur[0][1], &s->blur[1][0], &s->blur[1][1],
    &s->blur[2][0], &s->blur[2][1], &s->tmp, &s->half[0], &s->half[1],
    &s->rows,
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
  vh_hip_device_unref (device);
}

static gboolean
hip_fmotion_alloc (HipFloatMotion * s, gfloat ** buf, gsize n_floats,
    GError ** error)
{
  return vh_hip_malloc (s->hip.device, n_floats * sizeof (gfloat),
      (gpointer *) buf, error);
}

/* Device buffers, the blurred planes zeroed: motion_add_scale1 reads
 * a chroma plane's padding as the CPU twin does. */
static gboolean
hip_fmotion_alloc_all (HipFloatMotion * s, GError ** error)
{
  const VhFloatMotion *m = &s->m;

  for (guint p = 0; p < m->n_planes; p++) {
    const gsize n = m->stride[p] * m->ph[p];
    for (guint k = 0; k < 2; k++) {
      if (!hip_fmotion_alloc (s, &s->blur[p][k], n, error) ||
          !vh_hip_memset_2d_async (s->hip.stream, s->blur[p][k],
              n * sizeof (gfloat), 0, n * sizeof (gfloat), 1, error))
        return FALSE;
    }
  }
  if (!hip_fmotion_alloc (s, &s->tmp, (gsize) m->w * m->h, error) ||
      !hip_fmotion_alloc (s, &s->rows, m->h, error))
    return FALSE;
  if (m->add_scale1) {
    const gsize n = (gsize) vh_float_motion_half (m->w) *
        vh_float_motion_half (m->h);
    if (!hip_fmotion_alloc (s, &s->half[0], n, error) ||
        !hip_fmotion_alloc (s, &s->half[1], n, error))
      return FALSE;
  }
  return TRUE;
}

static gboolean
hip_fmotion_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipFloatMotion *s = fex->priv;
  const VhHipKernelSource *k = &vh_hip_kernel_float_motion;

  if (!vh_float_motion_setup (&s->m, fex, info, error))
    return FALSE;
  g_return_val_if_fail (s->m.fw <= FMOTION_MAX_TAPS, FALSE);
  if (!vh_hip_fex_init (&s->hip, fex, FMOTION_SLOT_FLOATS * sizeof (gfloat),
          hip_fmotion_collect, error))
    return FALSE;
  if (s->m.force_zero)
    return TRUE;
  if ((s->vblur_fn = vh_hip_fex_function (&s->hip, k, info->bpc == 8 ?
              "vh_fmotion_vblur_u8" : "vh_fmotion_vblur_u16", error)) &&
      (s->hblur_fn = vh_hip_fex_function (&s->hip, k, "vh_fmotion_hblur",
              error)) &&
      (s->halve_fn = vh_hip_fex_function (&s->hip,
              &vh_hip_kernel_float_scale, "vh_fscale_bilinear", error)) &&
      (s->rows_fn = vh_hip_fex_function (&s->hip, k, "vh_fmotion_sad_rows",
              error)) &&
      (s->total_fn = vh_hip_fex_function (&s->hip, k, "vh_fmotion_sad_total",
              error)) && hip_fmotion_alloc_all (s, error))
    return TRUE;
  hip_fmotion_close (fex);
  return FALSE;
}

/* Queues the blur of plane @p of @ref into @dst. */
static gboolean
queue_blur (HipFloatMotion * s, const VhPicture * ref, guint p, gfloat * dst,
    GError ** error)
{
  const VhFloatMotion *m = &s->m;
  FmotionBlurArgs a;
  gpointer args[] = { &a };
  const guint gx = vh_hip_div_up (m->pw[p], FMOTION_BLOCK_X);
  const guint gy = vh_hip_div_up (m->ph[p], FMOTION_BLOCK_Y);

  memset (&a, 0, sizeof (a));
  a.src = ref->data[p];
  a.pitch = ref->stride[p];
  a.step = MAX (ref->step[p], 1);
  a.width = m->pw[p];
  a.height = m->ph[p];
  /* A power of two: multiplying by it is libvmaf's exact division. */
  a.inv_scale = 1.0f / (gfloat) (1u << (ref->info.bpc - 8));
  a.tmp = s->tmp;
  a.dst = dst;
  a.dst_stride = m->stride[p];
  a.fw = m->fw;
  memcpy (a.f, m->filter, m->fw * sizeof (gfloat));
  return vh_hip_fex_launch (&s->hip, s->vblur_fn, gx, gy, FMOTION_BLOCK_X,
      FMOTION_BLOCK_Y, 0, args, error) &&
      vh_hip_fex_launch (&s->hip, s->hblur_fn, gx, gy, FMOTION_BLOCK_X,
      FMOTION_BLOCK_Y, 0, args, error);
}

/* Queues the sum of |a - b| over a @w x @h plane into @out. */
static gboolean
queue_sad (HipFloatMotion * s, const gfloat * a, const gfloat * b,
    guint64 stride, guint w, guint h, gfloat * out, GError ** error)
{
  gfloat *rows = s->rows;
  gpointer rows_args[] = { &a, &b, &stride, &w, &h, &rows };
  gpointer total_args[] = { &rows, &h, &out };

  return vh_hip_fex_launch (&s->hip, s->rows_fn,
      vh_hip_div_up (h, FMOTION_ROW_THREADS), 1, FMOTION_ROW_THREADS, 1, 0,
      rows_args, error) &&
      vh_hip_fex_launch (&s->hip, s->total_fn, 1, 1, 1, 1, 0, total_args,
      error);
}

/* Queues libvmaf's bilinear halving of a blurred plane into @dst. */
static gboolean
queue_halve (HipFloatMotion * s, guint p, const gfloat * src, gfloat * dst,
    GError ** error)
{
  const VhFloatMotion *m = &s->m;
  guint64 ss = vh_float_motion_read_stride (m, p);
  guint sw = m->pw[p], sh = m->ph[p];
  guint dw = vh_float_motion_half (sw), dh = vh_float_motion_half (sh);
  guint64 ds = dw;
  gpointer args[] = { &src, &ss, &sw, &sh, &dst, &ds, &dw, &dh };

  return vh_hip_fex_launch (&s->hip, s->halve_fn,
      vh_hip_div_up (dw, FMOTION_BLOCK_X), vh_hip_div_up (dh,
          FMOTION_BLOCK_Y), FMOTION_BLOCK_X, FMOTION_BLOCK_Y, 0, args, error);
}

/* Queues plane @p: its blur and, after the first frame, its sums. */
static gboolean
queue_plane (HipFloatMotion * s, const VhPicture * ref, guint p, guint n,
    gfloat * sums, GError ** error)
{
  const VhFloatMotion *m = &s->m;
  gfloat *cur = s->blur[p][n % 2], *prev = s->blur[p][(n + 1) % 2];

  if (!queue_blur (s, ref, p, cur, error))
    return FALSE;
  if (n == 0)
    return TRUE;
  if (!queue_sad (s, prev, cur, m->stride[p], m->pw[p], m->ph[p],
          sums + 2 * p, error))
    return FALSE;
  if (!m->add_scale1)
    return TRUE;
  return queue_halve (s, p, prev, s->half[0], error) &&
      queue_halve (s, p, cur, s->half[1], error) &&
      queue_sad (s, s->half[0], s->half[1], vh_float_motion_half (m->pw[p]),
      vh_float_motion_half (m->pw[p]), vh_float_motion_half (m->ph[p]),
      sums + 2 * p + 1, error);
}

static gboolean
check_picture (const VhFeatureExtractor * fex, const VhPicture * ref,
    guint n_planes, GError ** error)
{
  if (ref->mem_type != VH_MEMORY_HIP_DEVICE ||
      ref->info.width != fex->info.width ||
      ref->info.height != fex->info.height ||
      ref->info.bpc != fex->info.bpc || ref->n_planes < n_planes) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature 'float_motion' on HIP: the reference is %ux%u %u-bit, "
        "expected %ux%u %u-bit in HIP device memory", ref->info.width,
        ref->info.height, ref->info.bpc, fex->info.width, fex->info.height,
        fex->info.bpc);
    return FALSE;
  }
  return TRUE;
}

static gboolean
hip_fmotion_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  HipFloatMotion *s = fex->priv;
  VhFloatMotion *m = &s->m;
  const guint n = s->n_queued;
  gfloat *sums;

  (void) dist;
  if (!vh_float_motion_check_frame (m, index, n, s->last_queued, error))
    return FALSE;
  if (m->force_zero) {
    s->n_queued++;
    s->last_queued = index;
    return vh_float_motion_push (m, fex, fc, index, 0.0, error);
  }
  if (!check_picture (fex, ref, m->n_planes, error))
    return FALSE;

  sums = vh_hip_fex_begin (&s->hip, index, ref, dist, error);
  if (!sums)
    goto fail;
  for (guint p = 0; p < m->n_planes; p++) {
    if (!queue_plane (s, ref, p, n, sums, error))
      goto fail;
  }
  s->n_queued++;
  s->last_queued = index;
  /* The blur reads @ref on the stream: hold it until the slot is back. */
  if (!vh_hip_fex_end (&s->hip, ref, NULL, fc, error))
    goto fail;
  return TRUE;

fail:
  m->failed = TRUE;
  return FALSE;
}

static gboolean
hip_fmotion_flush (VhFeatureExtractor * fex, VhFeatureCollector * fc,
    GError ** error)
{
  HipFloatMotion *s = fex->priv;

  if (!vh_hip_fex_drain (&s->hip, fc, error)) {
    s->m.failed = TRUE;
    return FALSE;
  }
  /* The next frame starts a new sequence, as on the CPU. */
  if (!s->m.force_zero)
    s->n_queued = 0;
  return vh_float_motion_finish (&s->m, fex, fc, error);
}

const VhFeatureExtractorClass vh_hip_fex_float_motion = {
  .name = "float_motion",
  .provides = vh_float_motion_provides,
  .options = vh_float_motion_options,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .flags = VH_EXTRACTOR_FLAG_TEMPORAL,
  .min_width = 3,
  .min_height = 3,
  .priv_size = sizeof (HipFloatMotion),
  /* The CPU twin's one frame, plus the frames in flight. */
  .lookahead = 1 + VH_HIP_FEX_LOOKAHEAD,
  .init = hip_fmotion_init,
  .extract = hip_fmotion_extract,
  .flush = hip_fmotion_flush,
  .close = hip_fmotion_close,
};
