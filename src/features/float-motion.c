/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Float motion ("float_motion"), as libvmaf 3.2 computes it: each
 * reference luma is blurred with a 5-tap filter, motion is the mean
 * absolute difference of consecutive blurred frames in single precision,
 * motion2 of a frame the smaller of its own motion and the next frame's,
 * and motion3 motion2 blended above an offset. libvmaf gives frame 0 a
 * motion2 of 0 but a motion3 from frame 1's motion; the last frame keeps
 * its own motion. */

#include "feature-extractor.h"
#include "errors.h"
#include "float-conv.h"
#include "float-picture.h"
#include "float-scale.h"
#include "errors.h"

#include <math.h>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#define SAD_GROUP 8             /* rows summed side by side */

/* libvmaf's float rows are padded to 32 bytes. */
#define ALIGN8(n) (((gsize) (n) + 7) & ~(gsize) 7)

/* libvmaf's blur filters (motion_filter_size 5, 3 and 1). */
static const gfloat filter5[5] = {
  0.054488685, 0.244201342, 0.402619947, 0.244201342, 0.054488685
};

static const gfloat filter3[3] = { 0.166378498, 0.667243004, 0.166378498 };

static const gfloat filter_none[5] = { 0.0, 0.0, 1.0, 0.0, 0.0 };

typedef struct
{
  guint w, h;
  const gfloat *filter;
  guint fw;
  /* Per plane (luma, then chroma with motion_add_uv). */
  guint n_planes;
  guint pw[3], ph[3];
  gsize stride[3];              /* floats between rows of blur[] */
  gfloat *input[3];
  gfloat *blur[3][2];           /* slot = frame number % 2 */
  gfloat *scratch;
  /* motion_add_scale1: both blurred planes halved (bilinear), and the row
   * spacing libvmaf reads them with (see fmotion_plane_sad). */
  gboolean add_scale1;
  gfloat *half[2];

  gboolean debug;
  gboolean force_zero;
  gdouble fps_weight;
  gdouble blend_factor;
  gdouble blend_offset;
  gdouble max_val;

  guint n_seen;                 /* frames of this sequence so far */
  guint last;                   /* index of the last frame seen */
  gdouble score;                /* motion of the last frame */
  gboolean failed;
} FmotionState;

static const VhOptionSpec fmotion_options[] = {
  {"debug", NULL, "also output the motion of each frame (motion)",
      VH_OPTION_BOOL, 1.0, 0.0, 1.0, 0},
  {"motion_force_zero", "force_0", "force the motion score to zero",
      VH_OPTION_BOOL, 0.0, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"motion_fps_weight", "mfw", "frame-rate dependent weight of the score",
      VH_OPTION_DOUBLE, 1.0, 0.0, 5.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"motion_blend_factor", "mbf", "blend the motion score above an offset",
      VH_OPTION_DOUBLE, 1.0, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"motion_blend_offset", "mbo", "offset above which the score is blended",
      VH_OPTION_DOUBLE, 40.0, 0.0, 1000.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"motion_add_scale1", "mdc",
        "add the motion of both pictures halved (bilinear)",
      VH_OPTION_BOOL, 0.0, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"motion_filter_size", "mfs",
        "blur taps: 3, 1 (no blur) or anything else for 5",
      VH_OPTION_INT, 5.0, 0.0, 9.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"motion_add_uv", "mau", "add the motion of the chroma planes",
      VH_OPTION_BOOL, 0.0, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"motion_max_val", "mmxv", "clip scores to this value",
      VH_OPTION_DOUBLE, 10000.0, 0.0, 10000.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {NULL}
};

static const gchar *const fmotion_provides[] = {
  "motion", "motion2", "motion3", NULL
};

static gboolean
fmotion_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  FmotionState *s = fex->priv;
  gint size = (gint) vh_feature_extractor_get_option (fex,
      "motion_filter_size");

  (void) error;
  s->w = info->width;
  s->h = info->height;
  s->debug = vh_feature_extractor_get_option (fex, "debug") != 0.0;
  s->force_zero =
      vh_feature_extractor_get_option (fex, "motion_force_zero") != 0.0;
  s->fps_weight = vh_feature_extractor_get_option (fex, "motion_fps_weight");
  s->blend_factor =
      vh_feature_extractor_get_option (fex, "motion_blend_factor");
  s->blend_offset =
      vh_feature_extractor_get_option (fex, "motion_blend_offset");
  s->max_val = vh_feature_extractor_get_option (fex, "motion_max_val");

  if (size == 1) {
    s->filter = filter_none;
    s->fw = G_N_ELEMENTS (filter_none);
  } else if (size == 3) {
    s->filter = filter3;
    s->fw = G_N_ELEMENTS (filter3);
  } else {
    s->filter = filter5;
    s->fw = G_N_ELEMENTS (filter5);
  }

  s->add_scale1 =
      vh_feature_extractor_get_option (fex, "motion_add_scale1") != 0.0;
  s->n_planes = 1;
  if (vh_feature_extractor_get_option (fex, "motion_add_uv") != 0.0) {
    if (info->pix_fmt == VH_PIX_FMT_YUV400) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "feature 'float_motion': motion_add_uv needs chroma planes, and "
          "the input is 4:0:0");
      return FALSE;
    }
    s->n_planes = 3;
  }
  if (s->add_scale1 && (gint) (s->w * 0.5 + 0.5) >
      VH_FLOAT_SCALE_BILINEAR_MAX_WIDTH) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature 'float_motion': motion_add_scale1 at a width of %u is "
        "beyond libvmaf's bilinear limit", s->w);
    return FALSE;
  }

  if (!s->force_zero) {
    guint ssx, ssy;

    vh_pix_fmt_subsampling (info->pix_fmt, &ssx, &ssy);
    for (guint p = 0; p < s->n_planes; p++) {
      gsize n;

      /* libvmaf's chroma planes are the luma size shifted down. */
      s->pw[p] = p ? s->w >> ssx : s->w;
      s->ph[p] = p ? s->h >> ssy : s->h;
      /* Chroma rows at the luma's spacing, as libvmaf keeps them. */
      s->stride[p] = p && s->add_scale1 ? ALIGN8 (s->w) : s->pw[p];
      n = s->stride[p] * s->ph[p];
      s->input[p] = g_new0 (gfloat, n);
      s->blur[p][0] = g_new0 (gfloat, n);
      s->blur[p][1] = g_new0 (gfloat, n);
    }
    s->scratch = g_new (gfloat, s->w + VH_FCONV_MAX_TAPS - 1);
    if (s->add_scale1) {
      gsize n = (gsize) (s->w / 2 + 1) * (s->h / 2 + 1);
      s->half[0] = g_new (gfloat, n);
      s->half[1] = g_new (gfloat, n);
    }
  }
  return TRUE;
}

static void
fmotion_close (VhFeatureExtractor * fex)
{
  FmotionState *s = fex->priv;

  for (guint p = 0; p < 3; p++) {
    g_clear_pointer (&s->input[p], g_free);
    g_clear_pointer (&s->blur[p][0], g_free);
    g_clear_pointer (&s->blur[p][1], g_free);
  }
  g_clear_pointer (&s->scratch, g_free);
  g_clear_pointer (&s->half[0], g_free);
  g_clear_pointer (&s->half[1], g_free);
}

/* Mean absolute difference: each row summed on its own, then the rows in
 * order, in single precision. Eight rows go side by side so that their
 * adds overlap. */
VH_FLOAT_MULTIVERSION static gfloat
fmotion_sad (const gfloat * a, const gfloat * b, gsize stride, guint w,
    guint h)
{
  gfloat acc = 0.0f;

  for (guint i0 = 0; i0 < h; i0 += SAD_GROUP) {
    const guint n_rows = MIN (SAD_GROUP, h - i0);
    const gsize base = (gsize) i0 * stride;
    gfloat row[SAD_GROUP] = { 0 };

    if (n_rows == SAD_GROUP) {
      for (guint j = 0; j < w; j++) {
        for (guint g = 0; g < SAD_GROUP; g++)
          row[g] += fabsf (a[base + g * stride + j] -
              b[base + g * stride + j]);
      }
    } else {
      for (guint g = 0; g < n_rows; g++) {
        for (guint j = 0; j < w; j++)
          row[g] += fabsf (a[base + g * stride + j] -
              b[base + g * stride + j]);
      }
    }
    for (guint g = 0; g < n_rows; g++)
      acc += row[g];
  }
  return acc / (gfloat) (w * h);
}

/* Motion of one plane between two blurred pictures; with
 * motion_add_scale1 plus that of both halved. libvmaf halves a chroma
 * plane reading its rows a chroma-width apart (rounded up to 8 floats)
 * where they lie a luma-width apart; the same spacing is read here. */
static gfloat
fmotion_plane_sad (FmotionState * s, guint p, const gfloat * a,
    const gfloat * b)
{
  const guint w = s->pw[p], h = s->ph[p];
  gfloat sad = fmotion_sad (a, b, s->stride[p], w, h);
  guint hw, hh;
  gsize read_stride;

  if (!s->add_scale1)
    return sad;
  hw = (gint) (w * 0.5 + 0.5);
  hh = (gint) (h * 0.5 + 0.5);
  read_stride = p ? ALIGN8 (w) : s->stride[p];
  vh_float_scale (VH_FLOAT_SCALE_BILINEAR, a, w, h, read_stride, s->half[0],
      hw, hh, hw);
  vh_float_scale (VH_FLOAT_SCALE_BILINEAR, b, w, h, read_stride, s->half[1],
      hw, hh, hw);
  return sad + fmotion_sad (s->half[0], s->half[1], hw, hw, hh);
}

/* The frame's motion: luma, plus chroma with motion_add_uv. */
static gdouble
fmotion_frame_sad (FmotionState * s, guint prev_slot, guint cur_slot)
{
  gdouble score = fmotion_plane_sad (s, 0, s->blur[0][prev_slot],
      s->blur[0][cur_slot]);

  for (guint p = 1; p < s->n_planes; p++)
    score += fmotion_plane_sad (s, p, s->blur[p][prev_slot],
        s->blur[p][cur_slot]);
  return score;
}

static gdouble
fmotion_clip (const FmotionState * s, gdouble v)
{
  return v < s->max_val ? v : s->max_val;
}

static gdouble
fmotion_blend (const FmotionState * s, gdouble v)
{
  gdouble low = s->blend_offset < v ? s->blend_offset : v;

  return v * s->blend_factor + (1 - s->blend_factor) * low;
}

/* motion2 and motion3 of frame @index from its score. */
static gboolean
fmotion_emit_final (VhFeatureExtractor * fex, VhFeatureCollector * fc,
    guint index, gdouble score, GError ** error)
{
  FmotionState *s = fex->priv;
  gdouble weighted = score * s->fps_weight;

  return vh_feature_extractor_append (fex, fc, "motion2", index,
      fmotion_clip (s, weighted), error) &&
      vh_feature_extractor_append (fex, fc, "motion3", index,
      fmotion_clip (s, fmotion_blend (s, weighted)), error);
}

static gboolean
fmotion_extract_frame (VhFeatureExtractor * fex, const VhPicture * ref,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  FmotionState *s = fex->priv;
  const guint n = s->n_seen;
  gdouble score, prev_score = s->score;

  if (s->force_zero) {
    return vh_feature_extractor_append (fex, fc, "motion2", index, 0.0,
        error) &&
        vh_feature_extractor_append (fex, fc, "motion3", index, 0.0, error)
        && (!s->debug || vh_feature_extractor_append (fex, fc, "motion",
            index, 0.0, error));
  }

  for (guint p = 0; p < s->n_planes; p++) {
    vh_float_load_plane (ref, p, s->pw[p], s->ph[p], s->input[p],
        s->stride[p]);
    vh_fconv_plane (s->filter, s->fw, s->input[p], s->stride[p],
        s->blur[p][n % 2], s->stride[p], s->pw[p], s->ph[p], s->scratch);
  }

  if (n == 0) {
    return vh_feature_extractor_append (fex, fc, "motion2", index, 0.0,
        error) &&
        (!s->debug || vh_feature_extractor_append (fex, fc, "motion", index,
            0.0, error));
  }

  score = fmotion_frame_sad (s, (n + 1) % 2, n % 2);
  s->score = score;
  if (s->debug && !vh_feature_extractor_append (fex, fc, "motion", index,
          fmotion_clip (s, score * s->fps_weight), error))
    return FALSE;

  /* The first frame's motion3 comes from the second frame's motion. */
  if (n == 1) {
    return vh_feature_extractor_append (fex, fc, "motion3", index - 1,
        fmotion_clip (s, fmotion_blend (s, score * s->fps_weight)), error);
  }
  return fmotion_emit_final (fex, fc, index - 1, MIN (prev_score, score),
      error);
}

static gboolean
fmotion_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  FmotionState *s = fex->priv;

  (void) dist;
  if (s->failed) {
    g_set_error (error, VH_ERROR, VH_ERROR_FAILED,
        "float_motion: an earlier frame failed; the stream cannot continue");
    return FALSE;
  }
  if (s->n_seen > 0 && index != s->last + 1) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "float_motion needs frames in order: expected frame %u, got %u",
        s->last + 1, index);
    return FALSE;
  }
  if (!vh_float_check_picture ("float_motion", &fex->info, ref, "reference",
          error))
    return FALSE;

  if (!fmotion_extract_frame (fex, ref, index, fc, error)) {
    s->failed = TRUE;
    return FALSE;
  }
  s->last = index;
  s->n_seen++;
  return TRUE;
}

static gboolean
fmotion_flush (VhFeatureExtractor * fex, VhFeatureCollector * fc,
    GError ** error)
{
  FmotionState *s = fex->priv;
  gboolean ok = TRUE;

  if (s->failed || s->force_zero || s->n_seen == 0)
    return TRUE;
  /* Once only: a second flush has nothing left to emit. */
  if (s->n_seen == 1)
    ok = vh_feature_extractor_append (fex, fc, "motion3", s->last, 0.0, error);
  else
    ok = fmotion_emit_final (fex, fc, s->last, s->score, error);
  s->n_seen = 0;
  s->failed = !ok;
  return ok;
}

const VhFeatureExtractorClass vh_fex_float_motion = {
  .name = "float_motion",
  .provides = fmotion_provides,
  .options = fmotion_options,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = VH_EXTRACTOR_FLAG_TEMPORAL,
  .min_width = 3,
  .min_height = 3,
  .priv_size = sizeof (FmotionState),
  /* motion2 and motion3 of frame i wait for frame i + 1. */
  .lookahead = 1,
  .init = fmotion_init,
  .extract = fmotion_extract,
  .flush = fmotion_flush,
  .close = fmotion_close,
};
