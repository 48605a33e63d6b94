/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Host side of the SSIM kernels shared by the float_ssim and float_ms_ssim
 * twins: buffers, launches, and the finish of the frame means. */

#include "hip-ssim-common.h"
#include "errors.h"

#include <string.h>

/* Must match the kernels (hip/features/kernels/ssim*.hip). */
#define TILE 32                 /* window positions per tile side */
#define BLOCK_X 32
#define BLOCK_Y 8
#define LPF_OUT_H 16            /* output rows per low-pass block */
#define REDUCE_THREADS 256
#define PLANE_ALIGN 256

enum
{
  SRC_U8,
  SRC_U16,
  SRC_F32,
};

/* Where a kernel reads one plane pair. */
typedef struct
{
  guint kind;
  gconstpointer a, b;
  guint64 pitch_a, pitch_b;
  guint step_a, step_b;
} Source;

static const gchar *const tile_names[3] = {
  "vh_ssim_tile_u8", "vh_ssim_tile_u16", "vh_ssim_tile_f32"
};

static const gchar *const box_names[2] = {
  "vh_ssim_box_u8", "vh_ssim_box_u16"
};

static const gchar *const lpf_names[3] = {
  "vh_ssim_lpf_u8", "vh_ssim_lpf_u16", "vh_ssim_lpf_f32"
};

static guint
n_blocks (guint width, guint height)
{
  return vh_hip_div_up (width - (VH_SSIM_WINDOW - 1), TILE) *
      vh_hip_div_up (height - (VH_SSIM_WINDOW - 1), TILE);
}

gboolean
vh_hip_ssim_init (VhHipSsim * ss, VhHipFex * hip, guint bpc, guint n_scales,
    const guint * width, const guint * height, guint first_float,
    GError ** error)
{
  gsize plane_bytes = 0, off = 0;

  g_return_val_if_fail (n_scales >= 1 && n_scales <= VH_HIP_SSIM_MAX_SCALES,
      FALSE);
  memset (ss, 0, sizeof (*ss));
  ss->hip = hip;
  ss->bpc = bpc;
  ss->n_scales = n_scales;
  for (guint s = 0; s < n_scales; s++) {
    g_return_val_if_fail (width[s] >= VH_SSIM_WINDOW &&
        height[s] >= VH_SSIM_WINDOW, FALSE);
    ss->width[s] = width[s];
    ss->height[s] = height[s];
    ss->first[s + 1] = ss->first[s] + n_blocks (width[s], height[s]);
    if (s >= first_float) {
      ss->plane_pitch[s] = (width[s] * sizeof (gfloat) + PLANE_ALIGN - 1) &
          ~(gsize) (PLANE_ALIGN - 1);
      plane_bytes += 2 * ss->plane_pitch[s] * height[s];
    }
  }

  for (guint i = 0; i < 3; i++) {
    ss->tile[i] = vh_hip_fex_function (hip, &vh_hip_kernel_ssim,
        tile_names[i], error);
    ss->lpf[i] = ss->tile[i] ? vh_hip_fex_function (hip,
        &vh_hip_kernel_ssim_decimate, lpf_names[i], error) : NULL;
    if (!ss->lpf[i])
      goto fail;
  }
  for (guint i = 0; i < 2; i++) {
    ss->box[i] = vh_hip_fex_function (hip, &vh_hip_kernel_ssim_decimate,
        box_names[i], error);
    if (!ss->box[i])
      goto fail;
  }
  ss->reduce = vh_hip_fex_function (hip, &vh_hip_kernel_ssim,
      "vh_ssim_reduce", error);
  if (!ss->reduce)
    goto fail;

  if (!vh_hip_malloc (hip->device, (gsize) ss->first[n_scales] * 4 *
          sizeof (gdouble), &ss->partials, error))
    goto fail;
  if (plane_bytes && !vh_hip_malloc (hip->device, plane_bytes, &ss->planes,
          error))
    goto fail;
  for (guint s = first_float; s < n_scales; s++) {
    for (guint p = 0; p < 2; p++) {
      ss->plane[s][p] = (guint8 *) ss->planes + off;
      off += ss->plane_pitch[s] * height[s];
    }
  }
  return TRUE;

fail:
  vh_hip_ssim_clear (ss);
  return FALSE;
}

void
vh_hip_ssim_clear (VhHipSsim * ss)
{
  if (!ss->hip)
    return;
  /* Kernels of a frame that failed half-way may still use the buffers. */
  if (ss->hip->stream)
    vh_hip_stream_synchronize (ss->hip->stream, NULL);
  if (ss->partials)
    vh_hip_free (ss->hip->device, ss->partials);
  if (ss->planes)
    vh_hip_free (ss->hip->device, ss->planes);
  g_clear_pointer (&ss->t_start, vh_hip_event_free);
  g_clear_pointer (&ss->t_end, vh_hip_event_free);
  memset (ss, 0, sizeof (*ss));
}

gboolean
vh_hip_ssim_open (VhHipSsim * ss, VhHipFex * hip, VhFeatureExtractor * fex,
    VhHipFexCollectFunc collect, guint n_scales, const guint * width,
    const guint * height, guint first_float, GError ** error)
{
  if (!vh_hip_fex_init (hip, fex, n_scales * 4 * sizeof (gdouble), collect,
          error))
    return FALSE;
  if (!vh_hip_ssim_init (ss, hip, fex->info.bpc, n_scales, width, height,
          first_float, error)) {
    g_prefix_error (error, "feature '%s': ", fex->klass->name);
    vh_hip_fex_close (hip);
    return FALSE;
  }
  return TRUE;
}

void
vh_hip_ssim_close (VhHipSsim * ss, VhHipFex * hip)
{
  vh_hip_ssim_clear (ss);
  vh_hip_fex_close (hip);
}

gpointer
vh_hip_ssim_begin (VhHipSsim * ss, VhFeatureExtractor * fex,
    const VhPicture * ref, const VhPicture * dist, guint index,
    GError ** error)
{
  gpointer slot;

  if (!vh_ssim_check_pictures (fex, ref, dist, error))
    return NULL;
  slot = vh_hip_fex_begin (ss->hip, index, ref, dist, error);
  if (!slot || !vh_hip_ssim_mark (ss, FALSE, error))
    return NULL;
  return slot;
}

gboolean
vh_hip_ssim_end (VhHipSsim * ss, gpointer slot, const VhPicture * ref,
    const VhPicture * dist, VhFeatureCollector * fc, GError ** error)
{
  return vh_hip_ssim_reduce (ss, slot, error) &&
      vh_hip_ssim_mark (ss, TRUE, error) &&
      vh_hip_fex_end (ss->hip, ref, dist, fc, error);
}

static void
source_init (VhHipSsim * ss, guint scale, const VhPicture * ref,
    const VhPicture * dist, Source * src)
{
  if (ref) {
    src->kind = ref->info.bpc == 8 ? SRC_U8 : SRC_U16;
    src->a = ref->data[0];
    src->b = dist->data[0];
    src->pitch_a = ref->stride[0];
    src->pitch_b = dist->stride[0];
    src->step_a = ref->step[0];
    src->step_b = dist->step[0];
  } else {
    g_assert (ss->plane[scale][0]);
    src->kind = SRC_F32;
    src->a = ss->plane[scale][0];
    src->b = ss->plane[scale][1];
    src->pitch_a = src->pitch_b = ss->plane_pitch[scale];
    src->step_a = src->step_b = 1;
  }
}

/* 2^(bpc - 8): deeper samples on the 8-bit scale, exactly. */
static gfloat
sample_div (const VhHipSsim * ss)
{
  return ss->bpc > 8 ? (gfloat) (1u << (ss->bpc - 8)) : 1.0f;
}

gboolean
vh_hip_ssim_tile (VhHipSsim * ss, guint scale, const VhPicture * ref,
    const VhPicture * dist, GError ** error)
{
  guint w = ss->width[scale], h = ss->height[scale];
  gfloat div = sample_div (ss);
  gpointer out = (gdouble *) ss->partials + (gsize) ss->first[scale] * 4;
  Source src;

  source_init (ss, scale, ref, dist, &src);
  gpointer args[] = { &src.a, &src.pitch_a, &src.step_a, &src.b,
    &src.pitch_b, &src.step_b, &div, &w, &h, &out
  };

  return vh_hip_fex_launch (ss->hip, ss->tile[src.kind],
      vh_hip_div_up (w - (VH_SSIM_WINDOW - 1), TILE),
      vh_hip_div_up (h - (VH_SSIM_WINDOW - 1), TILE), BLOCK_X, BLOCK_Y, 0,
      args, error);
}

gboolean
vh_hip_ssim_box (VhHipSsim * ss, const VhPicture * ref,
    const VhPicture * dist, guint factor, GError ** error)
{
  guint w = ref->width[0], h = ref->height[0];
  guint dw = ss->width[0], dh = ss->height[0];
  gfloat div = sample_div (ss);
  gfloat k = 1.0f / (gfloat) (factor * factor);
  guint64 out_pitch = ss->plane_pitch[0];
  gpointer out_a = ss->plane[0][0], out_b = ss->plane[0][1];
  Source src;

  source_init (ss, 0, ref, dist, &src);
  gpointer args[] = { &src.a, &src.pitch_a, &src.step_a, &src.b,
    &src.pitch_b, &src.step_b, &div, &w, &h, &factor, &k, &out_a, &out_b,
    &out_pitch, &dw, &dh
  };

  return vh_hip_fex_launch (ss->hip, ss->box[src.kind],
      vh_hip_div_up (dw, BLOCK_X), vh_hip_div_up (dh, BLOCK_Y), BLOCK_X,
      BLOCK_Y, 0, args, error);
}

gboolean
vh_hip_ssim_lpf (VhHipSsim * ss, guint scale, const VhPicture * ref,
    const VhPicture * dist, GError ** error)
{
  guint w = ss->width[scale], h = ss->height[scale];
  guint dw = ss->width[scale + 1], dh = ss->height[scale + 1];
  gfloat div = sample_div (ss);
  guint64 out_pitch = ss->plane_pitch[scale + 1];
  gpointer out_a = ss->plane[scale + 1][0], out_b = ss->plane[scale + 1][1];
  Source src;

  source_init (ss, scale, ref, dist, &src);
  gpointer args[] = { &src.a, &src.pitch_a, &src.step_a, &src.b,
    &src.pitch_b, &src.step_b, &div, &w, &h, &out_a, &out_b, &out_pitch,
    &dw, &dh
  };

  return vh_hip_fex_launch (ss->hip, ss->lpf[src.kind],
      vh_hip_div_up (dw, BLOCK_X), vh_hip_div_up (dh, LPF_OUT_H), BLOCK_X,
      BLOCK_Y, 0, args, error);
}

gboolean
vh_hip_ssim_reduce (VhHipSsim * ss, gpointer slot, GError ** error)
{
  guint f[VH_HIP_SSIM_MAX_SCALES + 1];
  gpointer args[] = { &ss->partials, &f[0], &f[1], &f[2], &f[3], &f[4],
    &f[5], &slot
  };

  for (guint i = 0; i <= VH_HIP_SSIM_MAX_SCALES; i++)
    f[i] = ss->first[MIN (i, ss->n_scales)];
  return vh_hip_fex_launch (ss->hip, ss->reduce, ss->n_scales, 1,
      REDUCE_THREADS, 1, 0, args, error);
}

void
vh_hip_ssim_result (const VhHipSsim * ss, const gdouble * sums, guint scale,
    VhSsimResult * res)
{
  const gdouble n = (gdouble) (ss->width[scale] - (VH_SSIM_WINDOW - 1)) *
      (ss->height[scale] - (VH_SSIM_WINDOW - 1));
  const gdouble *s = sums + 4 * scale;

  /* Single precision, as the CPU twin reports them. */
  res->ssim = (gfloat) (s[0] / n);
  res->l = (gfloat) (s[1] / n);
  res->c = (gfloat) (s[2] / n);
  res->s = (gfloat) (s[3] / n);
}

gboolean
vh_hip_ssim_mark (VhHipSsim * ss, gboolean end, GError ** error)
{
  VhHipEvent *ev = end ? ss->t_end : ss->t_start;

  return !ev || vh_hip_event_record (ev, ss->hip->stream, error);
}

VhHipSsim *
vh_hip_ssim_from_extractor (VhFeatureExtractor * fex)
{
  g_return_val_if_fail (fex->klass == &vh_hip_fex_float_ssim ||
      fex->klass == &vh_hip_fex_float_ms_ssim, NULL);
  g_return_val_if_fail (fex->initialized, NULL);
  return fex->priv;
}

gboolean
vh_hip_ssim_enable_timing (VhHipSsim * ss, GError ** error)
{
  if (ss->t_start)
    return TRUE;
  ss->t_start = vh_hip_event_new (ss->hip->device, TRUE, error);
  if (!ss->t_start)
    return FALSE;
  ss->t_end = vh_hip_event_new (ss->hip->device, TRUE, error);
  if (!ss->t_end) {
    g_clear_pointer (&ss->t_start, vh_hip_event_free);
    return FALSE;
  }
  return TRUE;
}

gboolean
vh_hip_ssim_last_ms (VhHipSsim * ss, gfloat * ms, GError ** error)
{
  if (!ss->t_start) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "SSIM kernel timing is not enabled");
    return FALSE;
  }
  return vh_hip_event_elapsed_ms (ss->t_start, ss->t_end, ms, error);
}
