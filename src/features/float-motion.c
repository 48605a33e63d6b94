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

#include "float-motion.h"
#include "errors.h"
#include "float-conv.h"
#include "float-picture.h"
#include "float-scale.h"

#include <math.h>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#define SAD_GROUP 8             /* rows summed side by side */

/* libvmaf's blur filters (motion_filter_size 5, 3 and 1). */
static const gfloat filter5[5] = {
  0.054488685, 0.244201342, 0.402619947, 0.244201342, 0.054488685
};

static const gfloat filter3[3] = { 0.166378498, 0.667243004, 0.166378498 };

static const gfloat filter_none[5] = { 0.0, 0.0, 1.0, 0.0, 0.0 };

typedef struct
{
  VhFloatMotion m;
  gfloat *input[3];
  gfloat *blur[3][2];           /* slot = frame number % 2 */
  gfloat *scratch;
  gfloat *half[2];              /* motion_add_scale1's halved planes */
} FmotionState;

const VhOptionSpec vh_float_motion_options[] = {
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

const gchar *const vh_float_motion_provides[] = {
  "motion", "motion2", "motion3", NULL
};

gboolean
vh_float_motion_setup (VhFloatMotion * m, const VhFeatureExtractor * fex,
    const VhPictureInfo * info, GError ** error)
{
  gint size = (gint) vh_feature_extractor_get_option (fex,
      "motion_filter_size");
  guint ssx, ssy;

  m->w = info->width;
  m->h = info->height;
  m->debug = vh_feature_extractor_get_option (fex, "debug") != 0.0;
  m->force_zero =
      vh_feature_extractor_get_option (fex, "motion_force_zero") != 0.0;
  m->fps_weight = vh_feature_extractor_get_option (fex, "motion_fps_weight");
  m->blend_factor =
      vh_feature_extractor_get_option (fex, "motion_blend_factor");
  m->blend_offset =
      vh_feature_extractor_get_option (fex, "motion_blend_offset");
  m->max_val = vh_feature_extractor_get_option (fex, "motion_max_val");

  if (size == 1) {
    m->filter = filter_none;
    m->fw = G_N_ELEMENTS (filter_none);
  } else if (size == 3) {
    m->filter = filter3;
    m->fw = G_N_ELEMENTS (filter3);
  } else {
    m->filter = filter5;
    m->fw = G_N_ELEMENTS (filter5);
  }

  m->add_scale1 =
      vh_feature_extractor_get_option (fex, "motion_add_scale1") != 0.0;
  m->n_planes = 1;
  if (vh_feature_extractor_get_option (fex, "motion_add_uv") != 0.0) {
    if (info->pix_fmt == VH_PIX_FMT_YUV400) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "feature 'float_motion': motion_add_uv needs chroma planes, and "
          "the input is 4:0:0");
      return FALSE;
    }
    m->n_planes = 3;
  }
  if (m->add_scale1 && vh_float_motion_half (m->w) >
      VH_FLOAT_SCALE_BILINEAR_MAX_WIDTH) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature 'float_motion': motion_add_scale1 at a width of %u is "
        "beyond libvmaf's bilinear limit", m->w);
    return FALSE;
  }

  vh_pix_fmt_subsampling (info->pix_fmt, &ssx, &ssy);
  for (guint p = 0; p < m->n_planes; p++) {
    /* libvmaf's chroma planes are the luma size shifted down. */
    m->pw[p] = p ? m->w >> ssx : m->w;
    m->ph[p] = p ? m->h >> ssy : m->h;
    /* Chroma rows at the luma's spacing, as libvmaf keeps them. */
    m->stride[p] = p && m->add_scale1 ? VH_FLOAT_MOTION_ALIGN8 (m->w) :
        m->pw[p];
    /* The mirrored blur needs more samples than half the filter. */
    if (!m->force_zero && (m->pw[p] <= m->fw / 2 || m->ph[p] <= m->fw / 2)) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "feature 'float_motion': the %ux%u chroma planes are too small "
          "for motion_add_uv with a %u-tap blur", m->pw[p], m->ph[p], m->fw);
      return FALSE;
    }
  }
  return TRUE;
}

guint
vh_float_motion_half (guint n)
{
  return (gint) (n * 0.5 + 0.5);
}

gsize
vh_float_motion_read_stride (const VhFloatMotion * m, guint p)
{
  return p ? VH_FLOAT_MOTION_ALIGN8 (m->pw[p]) : m->stride[p];
}

gfloat
vh_float_motion_mean (gfloat sum, guint w, guint h)
{
  return sum / (gfloat) (w * h);
}

static gboolean
fmotion_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  FmotionState *s = fex->priv;
  VhFloatMotion *m = &s->m;

  if (!vh_float_motion_setup (m, fex, info, error))
    return FALSE;
  if (m->force_zero)
    return TRUE;
  for (guint p = 0; p < m->n_planes; p++) {
    gsize n = m->stride[p] * m->ph[p];

    s->input[p] = g_new0 (gfloat, n);
    s->blur[p][0] = g_new0 (gfloat, n);
    s->blur[p][1] = g_new0 (gfloat, n);
  }
  s->scratch = g_new (gfloat, m->w + VH_FCONV_MAX_TAPS - 1);
  if (m->add_scale1) {
    gsize n = (gsize) (m->w / 2 + 1) * (m->h / 2 + 1);
    s->half[0] = g_new (gfloat, n);
    s->half[1] = g_new (gfloat, n);
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

/* Sum of absolute differences: each row summed on its own, then the rows
 * in order, in single precision. Eight rows go side by side so that their
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
  return acc;
}

/* Motion of one plane between two blurred pictures; with
 * motion_add_scale1 plus that of both halved. */
static gfloat
fmotion_plane_sad (FmotionState * s, guint p, const gfloat * a,
    const gfloat * b)
{
  const VhFloatMotion *m = &s->m;
  const guint w = m->pw[p], h = m->ph[p];
  gfloat sad = vh_float_motion_mean (fmotion_sad (a, b, m->stride[p], w, h),
      w, h);
  guint hw, hh;
  gsize read_stride;

  if (!m->add_scale1)
    return sad;
  hw = vh_float_motion_half (w);
  hh = vh_float_motion_half (h);
  read_stride = vh_float_motion_read_stride (m, p);
  vh_float_scale (VH_FLOAT_SCALE_BILINEAR, a, w, h, read_stride, s->half[0],
      hw, hh, hw);
  vh_float_scale (VH_FLOAT_SCALE_BILINEAR, b, w, h, read_stride, s->half[1],
      hw, hh, hw);
  return sad + vh_float_motion_mean (fmotion_sad (s->half[0], s->half[1], hw,
          hw, hh), hw, hh);
}

/* The frame's motion: luma, plus chroma with motion_add_uv. */
static gdouble
fmotion_frame_sad (FmotionState * s, guint prev_slot, guint cur_slot)
{
  gdouble score = fmotion_plane_sad (s, 0, s->blur[0][prev_slot],
      s->blur[0][cur_slot]);

  for (guint p = 1; p < s->m.n_planes; p++)
    score += fmotion_plane_sad (s, p, s->blur[p][prev_slot],
        s->blur[p][cur_slot]);
  return score;
}

static gdouble
fmotion_clip (const VhFloatMotion * m, gdouble v)
{
  return v < m->max_val ? v : m->max_val;
}

static gdouble
fmotion_blend (const VhFloatMotion * m, gdouble v)
{
  gdouble low = m->blend_offset < v ? m->blend_offset : v;

  return v * m->blend_factor + (1 - m->blend_factor) * low;
}

/* motion2 and motion3 of frame @index from its score. */
static gboolean
fmotion_emit_final (VhFloatMotion * m, VhFeatureExtractor * fex,
    VhFeatureCollector * fc, guint index, gdouble score, GError ** error)
{
  gdouble weighted = score * m->fps_weight;

  return vh_feature_extractor_append (fex, fc, "motion2", index,
      fmotion_clip (m, weighted), error) &&
      vh_feature_extractor_append (fex, fc, "motion3", index,
      fmotion_clip (m, fmotion_blend (m, weighted)), error);
}

static gboolean
fmotion_push_values (VhFloatMotion * m, VhFeatureExtractor * fex,
    VhFeatureCollector * fc, guint index, gdouble score, GError ** error)
{
  const guint n = m->n_seen;
  gdouble prev_score = m->score;

  if (m->force_zero) {
    return vh_feature_extractor_append (fex, fc, "motion2", index, 0.0,
        error) &&
        vh_feature_extractor_append (fex, fc, "motion3", index, 0.0, error)
        && (!m->debug || vh_feature_extractor_append (fex, fc, "motion",
            index, 0.0, error));
  }
  if (n == 0) {
    return vh_feature_extractor_append (fex, fc, "motion2", index, 0.0,
        error) &&
        (!m->debug || vh_feature_extractor_append (fex, fc, "motion", index,
            0.0, error));
  }

  m->score = score;
  if (m->debug && !vh_feature_extractor_append (fex, fc, "motion", index,
          fmotion_clip (m, score * m->fps_weight), error))
    return FALSE;

  /* The first frame's motion3 comes from the second frame's motion. */
  if (n == 1) {
    return vh_feature_extractor_append (fex, fc, "motion3", index - 1,
        fmotion_clip (m, fmotion_blend (m, score * m->fps_weight)), error);
  }
  return fmotion_emit_final (m, fex, fc, index - 1, MIN (prev_score, score),
      error);
}

gboolean
vh_float_motion_push (VhFloatMotion * m, VhFeatureExtractor * fex,
    VhFeatureCollector * fc, guint index, gdouble score, GError ** error)
{
  if (!fmotion_push_values (m, fex, fc, index, score, error)) {
    m->failed = TRUE;
    return FALSE;
  }
  m->last = index;
  m->n_seen++;
  return TRUE;
}

gboolean
vh_float_motion_check_frame (const VhFloatMotion * m, guint index,
    guint n_in, guint last_in, GError ** error)
{
  if (m->failed) {
    g_set_error (error, VH_ERROR, VH_ERROR_FAILED,
        "float_motion: an earlier frame failed; the stream cannot continue");
    return FALSE;
  }
  if (n_in > 0 && index != last_in + 1) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "float_motion needs frames in order: expected frame %u, got %u",
        last_in + 1, index);
    return FALSE;
  }
  return TRUE;
}

gboolean
vh_float_motion_finish (VhFloatMotion * m, VhFeatureExtractor * fex,
    VhFeatureCollector * fc, GError ** error)
{
  gboolean ok = TRUE;

  if (m->failed || m->force_zero || m->n_seen == 0)
    return TRUE;
  /* Once only: a second flush has nothing left to emit. */
  if (m->n_seen == 1)
    ok = vh_feature_extractor_append (fex, fc, "motion3", m->last, 0.0, error);
  else
    ok = fmotion_emit_final (m, fex, fc, m->last, m->score, error);
  m->n_seen = 0;
  m->failed = !ok;
  return ok;
}

static gboolean
fmotion_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  FmotionState *s = fex->priv;
  VhFloatMotion *m = &s->m;
  const guint n = m->n_seen;
  gdouble score = 0.0;

  (void) dist;
  if (!vh_float_motion_check_frame (m, index, n, m->last, error) ||
      !vh_float_check_picture ("float_motion", &fex->info, ref, "reference",
          error))
    return FALSE;

  if (!m->force_zero) {
    for (guint p = 0; p < m->n_planes; p++) {
      vh_float_load_plane (ref, p, m->pw[p], m->ph[p], s->input[p],
          m->stride[p]);
      vh_fconv_plane (m->filter, m->fw, s->input[p], m->stride[p],
          s->blur[p][n % 2], m->stride[p], m->pw[p], m->ph[p], s->scratch);
    }
    if (n > 0)
      score = fmotion_frame_sad (s, (n + 1) % 2, n % 2);
  }
  return vh_float_motion_push (m, fex, fc, index, score, error);
}

static gboolean
fmotion_flush (VhFeatureExtractor * fex, VhFeatureCollector * fc,
    GError ** error)
{
  FmotionState *s = fex->priv;

  return vh_float_motion_finish (&s->m, fex, fc, error);
}

const VhFeatureExtractorClass vh_fex_float_motion = {
  .name = "float_motion",
  .provides = vh_float_motion_provides,
  .options = vh_float_motion_options,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = VH_EXTRACTOR_FLAG_TEMPORAL,
  .min_width = 3,
  .min_height = 3,
  .priv_size = sizeof (FmotionState),
  /* motion2 and motion3 of frame i wait for frame i + 1. */
  .lookahead = 1,
  /* Frame i's score compares it with frame i - 1 only; the first frame of
   * a sequence is special. */
  .history = 1,
  .init = fmotion_init,
  .extract = fmotion_extract,
  .flush = fmotion_flush,
  .close = fmotion_close,
};
