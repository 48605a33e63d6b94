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
 * host derives the scores exactly as the CPU twin does (motion2 = the
 * smaller of the neighbouring SADs, motion3 = blended), the last frame's
 * when flush drains the pipeline at the end of the stream. */

#include "hip-fex-common.h"
#include "errors.h"

#include <string.h>

/* The blend is a multiply-add: fusing it would change the rounding. */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

extern const VhHipKernelSource vh_hip_kernel_motion;

#define MOTION_THREADS 256      /* VH_MOTION_THREADS in the kernel */

typedef struct
{
  VhHipFex hip;
  guint w, h, bpc;
  gsize bps;

  gboolean force_zero;
  gboolean five_frame_window;
  gboolean moving_average;
  gboolean debug;
  gdouble blend_factor;
  gdouble blend_offset;
  gdouble fps_weight;
  gdouble max_val;

  /* Device: luma of the last frames (slot = index % n_slots) and the
   * per-row SADs. */
  gpointer luma[3];
  gsize luma_pitch;
  guint n_slots;
  guint *row_sad;
  VhHipFunction *rows_fn;
  VhHipFunction *total_fn;

  /* Queuing side. */
  guint base;                   /* index of the first frame */
  guint n_queued;

  /* Collecting side, as in the CPU twin. */
  guint n_seen;
  guint n_final;
  gdouble sad_hist[4];
  gdouble stamp;
  gdouble prev_processed;
  gboolean failed;
} HipMotion;

/* The CPU twin's options (the tests compare them). */
static const VhOptionSpec hip_motion_options[] = {
  {"motion_force_zero", "force_0", "force the motion score to zero",
      VH_OPTION_BOOL, 0, 0, 1, VH_OPTION_FLAG_FEATURE_PARAM},
  {"motion_blend_factor", "mbf", "blend the motion score above an offset",
      VH_OPTION_DOUBLE, 1.0, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"motion_blend_offset", "mbo", "offset above which the score is blended",
      VH_OPTION_DOUBLE, 40.0, 0.0, 1000.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"motion_fps_weight", "mfw", "frame-rate dependent weight of the score",
      VH_OPTION_DOUBLE, 1.0, 0.0, 5.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"motion_max_val", "mmxv", "clip scores to this value",
      VH_OPTION_DOUBLE, 10000.0, 0.0, 10000.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"motion_five_frame_window", "mffw", "compare with the frame two back",
      VH_OPTION_BOOL, 0, 0, 1, VH_OPTION_FLAG_FEATURE_PARAM},
  {"motion_moving_average", "mma",
        "average motion3 with the previous frame's",
      VH_OPTION_BOOL, 0, 0, 1, VH_OPTION_FLAG_FEATURE_PARAM},
  {"debug", NULL, "also output integer_motion", VH_OPTION_BOOL, 0, 0, 1, 0},
  {NULL}
};

static const gchar *const hip_motion_provides[] = {
  "VMAF_integer_feature_motion_sad_score",
  "integer_motion2",
  "integer_motion3",
  NULL
};

static inline gdouble
motion_blend (const HipMotion * s, gdouble score)
{
  gdouble low = s->blend_offset < score ? s->blend_offset : score;

  return score * s->blend_factor + (1 - s->blend_factor) * low;
}

static inline gdouble
motion_clip (const HipMotion * s, gdouble v)
{
  return v < s->max_val ? v : s->max_val;
}

static guint
motion_min_idx (const HipMotion * s)
{
  return s->five_frame_window ? 2 : 1;
}

/* motion2 and motion3 of frame @i (relative), as the CPU twin. */
static gboolean
motion_finalize (VhFeatureExtractor * fex, VhFeatureCollector * fc, guint i,
    GError ** error)
{
  HipMotion *s = fex->priv;
  const guint min_idx = motion_min_idx (s);
  const guint stride = s->five_frame_window ? 2 : 1;
  gdouble motion2, motion3;

  if (i < min_idx) {
    motion2 = 0.0;
  } else if (i + 1 < s->n_seen) {
    gdouble next = s->sad_hist[(i + 1) % 4];
    gint lo_idx = (gint) i - (gint) (stride - 1);

    if (lo_idx >= (gint) min_idx) {
      gdouble before = s->sad_hist[lo_idx % 4];
      motion2 = before < next ? before : next;
    } else {
      motion2 = next;
    }
  } else {
    motion2 = s->sad_hist[i % 4];
  }

  if (i < min_idx) {
    motion3 = s->stamp;
    s->prev_processed = s->stamp;
  } else {
    gdouble processed = motion_clip (s, motion_blend (s, motion2));
    motion3 = s->moving_average ?
        (processed + s->prev_processed) / 2.0 : processed;
    s->prev_processed = processed;
  }
  return vh_feature_extractor_append (fex, fc, "integer_motion2", s->base + i,
      motion2, error) &&
      vh_feature_extractor_append (fex, fc, "integer_motion3", s->base + i,
      motion3, error);
}

/* One frame's SAD is back: the CPU twin's bookkeeping from here on. */
static gboolean
hip_motion_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint frame, VhFeatureCollector * fc, GError ** error)
{
  HipMotion *s = fex->priv;
  const guint index = frame - s->base;
  const guint min_idx = motion_min_idx (s);
  gdouble score = 0.0;

  if (!s->force_zero && index >= min_idx) {
    guint64 sad = *(const guint64 *) results;
    guint n_pixels = s->w * s->h;
    score = motion_clip (s, (gdouble) sad / 256. / n_pixels * s->fps_weight);
  }
  s->sad_hist[index % 4] = score;
  s->n_seen++;
  if (index == min_idx)
    s->stamp = motion_clip (s, motion_blend (s, score));

  if (!vh_feature_extractor_append (fex, fc,
          "VMAF_integer_feature_motion_sad_score", frame, score, error) ||
      (s->debug && !vh_feature_extractor_append (fex, fc, "integer_motion",
              frame, score, error)))
    return FALSE;
  if (index >= min_idx) {
    for (; s->n_final < index; s->n_final++) {
      if (!motion_finalize (fex, fc, s->n_final, error))
        return FALSE;
    }
  }
  return TRUE;
}

static gboolean
hip_motion_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipMotion *s = fex->priv;

  s->w = info->width;
  s->h = info->height;
  s->bpc = info->bpc;
  s->bps = info->bpc > 8 ? 2 : 1;
  if (s->bpc < 8 || s->bpc > 16) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "motion: unsupported bit depth %u", s->bpc);
    return FALSE;
  }
  s->force_zero = vh_feature_extractor_get_option (fex, "motion_force_zero");
  s->five_frame_window =
      vh_feature_extractor_get_option (fex, "motion_five_frame_window");
  s->moving_average =
      vh_feature_extractor_get_option (fex, "motion_moving_average");
  s->debug = vh_feature_extractor_get_option (fex, "debug");
  s->blend_factor = vh_feature_extractor_get_option (fex,
      "motion_blend_factor");
  s->blend_offset = vh_feature_extractor_get_option (fex,
      "motion_blend_offset");
  s->fps_weight = vh_feature_extractor_get_option (fex, "motion_fps_weight");
  s->max_val = vh_feature_extractor_get_option (fex, "motion_max_val");
  s->n_slots = s->five_frame_window ? 3 : 2;

  if (!vh_hip_fex_init (&s->hip, fex, sizeof (guint64), hip_motion_collect,
          error))
    return FALSE;
  if (s->force_zero)
    return TRUE;
  for (guint i = 0; i < s->n_slots; i++) {
    if (!vh_hip_malloc_pitch (s->hip.device, (gsize) s->w * s->bps, s->h,
            &s->luma[i], &s->luma_pitch, error))
      return FALSE;
  }
  if (!vh_hip_malloc (s->hip.device, sizeof (guint) * s->h,
          (gpointer *) & s->row_sad, error))
    return FALSE;
  s->rows_fn = vh_hip_fex_function (&s->hip, &vh_hip_kernel_motion,
      s->bps == 1 ? "vh_motion_rows_u8" : "vh_motion_rows_u16", error);
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
  gint w = s->w, h = s->h;
  guint bpc = s->bpc;
  gpointer row_sad = s->row_sad;
  gpointer rows_args[] = { &prev, &cur, &pitch, &w, &h, &bpc, &row_sad };
  gpointer total_args[] = { &row_sad, &h, &out };

  return vh_hip_memset_2d_async (s->hip.stream, s->row_sad,
      sizeof (guint) * s->h, 0, sizeof (guint) * s->h, 1, error) &&
      vh_hip_fex_launch (&s->hip, s->rows_fn,
      vh_hip_div_up (s->w, MOTION_THREADS), s->h, MOTION_THREADS, 1, 0,
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
  const guint min_idx = motion_min_idx (s);
  guint index;
  gpointer slot;

  if (s->failed) {
    g_set_error (error, VH_ERROR, VH_ERROR_FAILED,
        "motion: an earlier frame failed; the stream cannot continue");
    return FALSE;
  }
  /* A sequence may start at any index (after a seek the engine starts
   * over); inside it, frames come in order. */
  if (s->n_queued == 0)
    s->base = frame;
  if (frame < s->base || frame - s->base != s->n_queued) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "motion needs frames in order: expected frame %u, got %u",
        s->base + s->n_queued, frame);
    return FALSE;
  }
  index = frame - s->base;
  if (ref->info.width != s->w || ref->info.height != s->h ||
      ref->info.bpc != s->bpc) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "motion: frame %u is %ux%u %u-bit, the stream is %ux%u %u-bit",
        frame, ref->info.width, ref->info.height, ref->info.bpc, s->w, s->h,
        s->bpc);
    return FALSE;
  }
  if (!s->force_zero && MAX (ref->step[0], 1) != 1) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "motion: interleaved luma is not supported");
    return FALSE;
  }

  slot = vh_hip_fex_begin (&s->hip, frame, error);
  if (!slot)
    goto fail;
  if (!s->force_zero) {
    gpointer cur = s->luma[index % s->n_slots];
    if (!vh_hip_memcpy_2d_async (s->hip.stream, VH_HIP_COPY_DEVICE_TO_DEVICE,
            cur, s->luma_pitch, ref->data[0], ref->stride[0],
            (gsize) s->w * s->bps, s->h, error))
      goto fail;
    if (index >= min_idx) {
      guint back = s->five_frame_window ? 2 : 1;
      if (!motion_queue_sad (s, s->luma[(index - back) % s->n_slots], cur,
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
  s->failed = TRUE;
  return FALSE;
}

static gboolean
hip_motion_flush (VhFeatureExtractor * fex, VhFeatureCollector * fc,
    GError ** error)
{
  HipMotion *s = fex->priv;

  if (!vh_hip_fex_drain (&s->hip, fc, error))
    goto fail;
  for (; s->n_final < s->n_seen; s->n_final++) {
    if (!motion_finalize (fex, fc, s->n_final, error))
      goto fail;
  }
  return TRUE;

fail:
  s->failed = TRUE;
  return FALSE;
}

const VhFeatureExtractorClass vh_hip_motion_class = {
  .name = "motion",
  .provides = hip_motion_provides,
  .options = hip_motion_options,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .flags = VH_EXTRACTOR_FLAG_TEMPORAL,
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
