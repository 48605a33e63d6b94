/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of "speed_temporal" (src/features/speed-temporal.c). The
 * luma of the previous frame stays on the device: each frame's reference
 * and distorted luma are copied (device to device) into the next buffers
 * of a ping-pong pair, and the SpEED core on the GPU
 * (hip-speed-common.h) scores the differences previous - current as the
 * kernels read them. The twin is temporal and deferred
 * (hip-fex-common.h): extract() queues and returns, each score is
 * collected VH_HIP_FEX_LOOKAHEAD frames later and the last ones at
 * flush. */

#include "hip-speed-common.h"
#include "features/speed-options.h"
#include "errors.h"

typedef struct
{
  VhHipFex hip;
  VhHipSpeed speed;
  gboolean use_ref_diff;
  guint w, h, bps;
  /* Device: the luma of the last two frames, slot = frame number % 2,
   * rows as the pictures' (their step kept), allocated on the first
   * frame. */
  gpointer ref[2], dis[2];
  gsize ref_pitch, dis_pitch;
  guint ref_step, dis_step;
  guint n_seen;
  guint last;
} HipSpeedTemporal;

VH_HIP_FEX_FIRST (HipSpeedTemporal, hip);

static gboolean
hip_speed_temporal_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  const gfloat *r = results;

  /* libvmaf ignores the error flag here. */
  return vh_feature_extractor_append (fex, fc, "speed_temporal", index,
      r[0], error);
}

static void
hip_speed_temporal_close (VhFeatureExtractor * fex)
{
  HipSpeedTemporal *s = fex->priv;
  VhHipDevice *device = s->hip.device;

  if (!device)
    return;
  vh_hip_device_ref (device);
  /* Waits for the stream before anything is freed. */
  vh_hip_fex_close (&s->hip);
  for (guint k = 0; k < 2; k++) {
    if (s->ref[k])
      vh_hip_free (device, s->ref[k]);
    if (s->dis[k])
      vh_hip_free (device, s->dis[k]);
    s->ref[k] = s->dis[k] = NULL;
  }
  vh_hip_speed_close (&s->speed, device);
  vh_hip_device_unref (device);
}

static gboolean
hip_speed_temporal_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipSpeedTemporal *s = fex->priv;
  VhSpeedParams params;
  g_autofree gchar *what = NULL;
  s->w = info->width;
  s->h = info->height;
  s->bps = info->bpc > 8 ? 2 : 1;
  s->use_ref_diff =
      vh_feature_extractor_get_option (fex, "speed_use_ref_diff") != 0.0;
  vh_speed_params_from_options (fex, &params);
  what = g_strdup_printf ("speed_temporal: %ux%u frames", s->w, s->h);

  if (!vh_hip_fex_init (&s->hip, fex, 2 * sizeof (gfloat),
          hip_speed_temporal_collect, error))
    return FALSE;
  if (!vh_hip_speed_init (&s->speed, &s->hip, &params, s->w, s->h, info->bpc,
          2, what, error))
    goto fail;
  return TRUE;

fail:
  hip_speed_temporal_close (fex);
  return FALSE;
}

/* Bytes of a luma row that hold samples. */
static gsize
row_span (const HipSpeedTemporal * s, guint step)
{
  return ((gsize) (s->w - 1) * step + 1) * s->bps;
}

static gboolean
allocate_luma (HipSpeedTemporal * s, GError ** error)
{
  for (guint k = 0; k < 2; k++) {
    if (!vh_hip_malloc_pitch (s->hip.device, row_span (s, s->ref_step), s->h,
            &s->ref[k], &s->ref_pitch, error) ||
        !vh_hip_malloc_pitch (s->hip.device, row_span (s, s->dis_step), s->h,
            &s->dis[k], &s->dis_pitch, error))
      return FALSE;
  }
  return TRUE;
}

static gboolean
check_pictures (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, GError ** error)
{
  HipSpeedTemporal *s = fex->priv;

  if (ref->mem_type != VH_MEMORY_HIP_DEVICE ||
      dist->mem_type != VH_MEMORY_HIP_DEVICE ||
      !vh_picture_info_equal (&ref->info, &fex->info) ||
      !vh_picture_info_equal (&dist->info, &fex->info)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "speed_temporal: pictures differ from the %ux%u %u-bit stream it "
        "was set up for, or are not in HIP device memory", fex->info.width,
        fex->info.height, fex->info.bpc);
    return FALSE;
  }
  if (s->n_seen > 0 && index != s->last + 1) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "speed_temporal needs frames in order: expected frame %u, got %u",
        s->last + 1, index);
    return FALSE;
  }
  if (s->n_seen > 0 && (MAX (ref->step[0], 1) != s->ref_step ||
          MAX (dist->step[0], 1) != s->dis_step)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "speed_temporal: the luma layout changed within the stream");
    return FALSE;
  }
  return TRUE;
}

static gboolean
hip_speed_temporal_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  HipSpeedTemporal *s = fex->priv;
  const guint cur = s->n_seen % 2, prev = (s->n_seen + 1) % 2;
  gfloat *out;

  if (!check_pictures (fex, ref, dist, index, error))
    return FALSE;
  if (s->n_seen == 0) {
    s->ref_step = MAX (ref->step[0], 1);
    s->dis_step = MAX (dist->step[0], 1);
    if (!allocate_luma (s, error))
      return FALSE;
  }

  out = vh_hip_fex_begin (&s->hip, index, ref, dist, error);
  if (!out)
    return FALSE;
  /* Frame 0 scores 0: its slot stays zeroed. */
  if (s->n_seen > 0) {
    VhHipSpeedPlane planes[2] = {
      {s->ref[prev], ref->data[0], s->ref_pitch, ref->stride[0], s->ref_step,
          s->ref_step},
      {s->dis[prev], s->use_ref_diff ? ref->data[0] : dist->data[0],
            s->dis_pitch, s->use_ref_diff ? ref->stride[0] : dist->stride[0],
            s->dis_step, s->use_ref_diff ? s->ref_step : s->dis_step},
    };
    if (!vh_hip_speed_enqueue (&s->speed, &s->hip, planes, out, error))
      return FALSE;
  }
  /* The stream runs in order: the copies land after the kernels above
   * read the previous slot. */
  if (!vh_hip_memcpy_2d_async (s->hip.stream, VH_HIP_COPY_DEVICE_TO_DEVICE,
          s->ref[cur], s->ref_pitch, ref->data[0], ref->stride[0],
          row_span (s, s->ref_step), s->h, error) ||
      !vh_hip_memcpy_2d_async (s->hip.stream, VH_HIP_COPY_DEVICE_TO_DEVICE,
          s->dis[cur], s->dis_pitch, dist->data[0], dist->stride[0],
          row_span (s, s->dis_step), s->h, error))
    return FALSE;
  s->last = index;
  s->n_seen++;
  return vh_hip_fex_end (&s->hip, ref, dist, fc, error);
}

const VhFeatureExtractorClass vh_hip_fex_speed_temporal = {
  .name = "speed_temporal",
  .provides = vh_speed_temporal_provides,
  .options = vh_speed_temporal_options,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  /* Reads plane 0 alone. */
  .flags = VH_EXTRACTOR_FLAG_TEMPORAL | VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = 1,
  .min_height = 1,
  .priv_size = sizeof (HipSpeedTemporal),
  /* Scores are collected this many frames late. */
  .lookahead = VH_HIP_FEX_LOOKAHEAD,
  .init = hip_speed_temporal_init,
  .extract = hip_speed_temporal_extract,
  .flush = vh_hip_fex_class_flush,
  .close = hip_speed_temporal_close,
};
