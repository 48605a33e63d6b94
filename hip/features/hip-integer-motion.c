/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of integer motion ("motion", src/features/integer-motion.c).
 *
 * The luma of the last frames stays on the device: each frame's reference
 * luma is copied (device to device) into the next buffer of a ping-pong
 * pair (three buffers with the five-frame window), and the SAD of the
 * blurred difference with the previous one is reduced on the device to one
 * 64-bit number that comes back with the frame's slot. The twin is
 * temporal and deferred (hip-fex-common.h): extract() queues and returns;
 * SADs are collected VH_HIP_FEX_LOOKAHEAD frames later, and from them the
 * CPU twin's own code (integer-motion.h) derives the scores (motion2 = the
 * smaller of the neighbouring SADs, motion3 = blended), the last frame's
 * when flush drains the pipeline at the end of the stream. */

#include "hip-fex-common.h"
#include "features/integer-motion.h"
#include "errors.h"

extern const VhHipKernelSource vh_hip_kernel_motion;

#define MOTION_THREADS 256      /* VH_MOTION_THREADS in the kernel */

typedef struct
{
  VhHipFex hip;
  /* Options and, on the collecting side, the CPU twin's bookkeeping. */
  VhIntegerMotion m;

  /* Device: luma of the last frames (slot = index % m.n_slots) and the
   * per-row SADs. */
  gpointer luma[3];
  gsize luma_pitch;
  guint *row_sad;
  VhHipFunction *rows_fn;
  VhHipFunction *total_fn;

  guint n_queued;               /* queuing side */
} HipMotion;

/* One frame's SAD is back: the CPU twin's code from here on. */
static gboolean
hip_motion_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint frame, VhFeatureCollector * fc, GError ** error)
{
  HipMotion *s = fex->priv;

  return vh_integer_motion_push (&s->m, fex, fc, frame,
      *(const guint64 *) results, error);
}

static gboolean
hip_motion_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipMotion *s = fex->priv;

  if (!vh_integer_motion_setup (&s->m, fex, info, error))
    return FALSE;
  if (!vh_hip_fex_init (&s->hip, fex, sizeof (guint64), hip_motion_collect,
          error))
    return FALSE;
  if (s->m.force_zero)
    return TRUE;
  for (guint i = 0; i < s->m.n_slots; i++) {
    if (!vh_hip_malloc_pitch (s->hip.device, (gsize) s->m.w * s->m.bps, s->m.h,
            &s->luma[i], &s->luma_pitch, error))
      return FALSE;
  }
  if (!vh_hip_malloc (s->hip.device, sizeof (guint) * s->m.h,
          (gpointer *) & s->row_sad, error))
    return FALSE;
  s->rows_fn = vh_hip_fex_function (&s->hip, &vh_hip_kernel_motion,
      s->m.bps == 1 ? "vh_motion_rows_u8" : "vh_motion_rows_u16", error);
  s->total_fn = s->rows_fn ? vh_hip_fex_function (&s->hip,
      &vh_hip_kernel_motion, "vh_motion_total", error) : NULL;
  return s->total_fn != NULL;
}

static void
hip_motion_close (VhFeatureExtractor * fex)
{
  HipMotion *s = fex->priv;
  VhHipDevice *device = s->hip.device;

  if (!device)
    return;
  vh_hip_device_ref (device);
  /* Waits for the stream before anything is freed. */
  vh_hip_fex_close (&s->hip);
  for (guint i = 0; i < G_N_ELEMENTS (s->luma); i++) {
    if (s->luma[i])
      vh_hip_free (device, s->luma[i]);
    s->luma[i] = NULL;
  }
  if (s->row_sad)
    vh_hip_free (device, s->row_sad);
  s->row_sad = NULL;
  vh_hip_device_unref (device);
}

/* Queues the SAD of the difference between the luma buffers @prev and
 * @cur into the 64-bit counter @out. */
static gboolean
motion_queue_sad (HipMotion * s, gpointer prev, gpointer cur, gpointer out,
    GError ** error)
{
  guint64 pitch = s->luma_pitch;
  gint w = s->m.w, h = s->m.h;
  guint bpc = s->m.bpc;
  gpointer row_sad = s->row_sad;
  gpointer rows_args[] = { &prev, &cur, &pitch, &w, &h, &bpc, &row_sad };
  gpointer total_args[] = { &row_sad, &h, &out };

  return vh_hip_memset_2d_async (s->hip.stream, s->row_sad,
      sizeof (guint) * s->m.h, 0, sizeof (guint) * s->m.h, 1, error) &&
      vh_hip_fex_launch (&s->hip, s->rows_fn,
      vh_hip_div_up (s->m.w, MOTION_THREADS), s->m.h, MOTION_THREADS, 1, 0,
      rows_args, error) &&
      vh_hip_fex_launch (&s->hip, s->total_fn, 1, 1, MOTION_THREADS, 1, 0,
      total_args, error);
}

static gboolean
hip_motion_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint frame, VhFeatureCollector * fc,
    GError ** error)
{
  HipMotion *s = fex->priv;
  VhIntegerMotion *m = &s->m;
  guint index;
  gpointer slot;

  if (!vh_integer_motion_check_frame (m, ref, frame, s->n_queued, error))
    return FALSE;
  index = frame - m->base;
  if (!m->force_zero && MAX (ref->step[0], 1) != 1) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "motion: interleaved luma is not supported");
    return FALSE;
  }

  slot = vh_hip_fex_begin (&s->hip, frame, ref, dist, error);
  if (!slot)
    goto fail;
  if (!m->force_zero) {
    gpointer cur = s->luma[index % m->n_slots];
    if (!vh_hip_memcpy_2d_async (s->hip.stream, VH_HIP_COPY_DEVICE_TO_DEVICE,
            cur, s->luma_pitch, ref->data[0], ref->stride[0],
            (gsize) m->w * m->bps, m->h, error))
      goto fail;
    if (index >= vh_integer_motion_min_idx (m)) {
      guint back = vh_integer_motion_back (m);
      if (!motion_queue_sad (s, s->luma[(index - back) % m->n_slots], cur,
              slot, error))
        goto fail;
    }
  }
  s->n_queued++;
  /* The copy reads @ref on the stream: hold it until the slot is back. */
  if (!vh_hip_fex_end (&s->hip, ref, NULL, fc, error))
    goto fail;
  return TRUE;

fail:
  m->failed = TRUE;
  return FALSE;
}

static gboolean
hip_motion_flush (VhFeatureExtractor * fex, VhFeatureCollector * fc,
    GError ** error)
{
  HipMotion *s = fex->priv;

  if (!vh_hip_fex_drain (&s->hip, fc, error)) {
    s->m.failed = TRUE;
    return FALSE;
  }
  return vh_integer_motion_finish (&s->m, fex, fc, error);
}

const VhFeatureExtractorClass vh_hip_fex_integer_motion = {
  .name = "motion",
  .provides = vh_integer_motion_provides,
  .options = vh_integer_motion_options,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .flags = VH_EXTRACTOR_FLAG_TEMPORAL | VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = 3,
  .min_height = 3,
  .priv_size = sizeof (HipMotion),
  /* The CPU twin's two frames, plus the frames in flight. */
  .lookahead = 2 + VH_HIP_FEX_LOOKAHEAD,
  .init = hip_motion_init,
  .extract = hip_motion_extract,
  .flush = hip_motion_flush,
  .close = hip_motion_close,
};
