/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* SpEED on frame differences ("speed_temporal"), as libvmaf 3.2: the luma
 * of frame i - 1 minus frame i, for the reference and for the distorted
 * (or, with speed_use_ref_diff, the distorted previous frame minus the
 * reference current one), scored by the SpEED core. Frame 0 scores 0.
 * libvmaf applies no speed_max_val here and no variance weighting mode;
 * neither is done here. */

#include "speed-options.h"
#include "errors.h"

typedef struct
{
  VhSpeed *speed;
  guint w, h;
  gfloat *ref[2], *dis[2];      /* slot = frame number % 2 */
  gfloat *ref_diff, *dis_diff;
  gboolean use_ref_diff;
  guint n_seen;
  guint last;
} SpeedTemporalState;

static gboolean
speed_temporal_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  SpeedTemporalState *s = fex->priv;
  VhSpeedParams params;
  g_autofree gchar *what = NULL;
  const gsize n = (gsize) info->width * info->height;

  s->w = info->width;
  s->h = info->height;
  s->use_ref_diff =
      vh_feature_extractor_get_option (fex, "speed_use_ref_diff") != 0.0;
  vh_speed_params_from_options (fex, &params);
  what = g_strdup_printf ("speed_temporal: %ux%u frames", s->w, s->h);
  s->speed = vh_speed_new (&params, s->w, s->h, what, error);
  if (!s->speed)
    return FALSE;
  for (guint k = 0; k < 2; k++) {
    s->ref[k] = g_new0 (gfloat, n);
    s->dis[k] = g_new0 (gfloat, n);
  }
  s->ref_diff = g_new0 (gfloat, n);
  s->dis_diff = g_new0 (gfloat, n);
  return TRUE;
}

static void
speed_temporal_close (VhFeatureExtractor * fex)
{
  SpeedTemporalState *s = fex->priv;

  g_clear_pointer (&s->speed, vh_speed_free);
  for (guint k = 0; k < 2; k++) {
    g_clear_pointer (&s->ref[k], g_free);
    g_clear_pointer (&s->dis[k], g_free);
  }
  g_clear_pointer (&s->ref_diff, g_free);
  g_clear_pointer (&s->dis_diff, g_free);
}

/* out = a - b on the rows scoring reads. */
static void
difference (guint w, const gfloat * restrict a, const gfloat * restrict b,
    gfloat * restrict out, const guint * rows, guint n_rows)
{
  for (guint r = 0; r < n_rows; r++) {
    const gsize o = (gsize) (rows ? rows[r] : r) * w;

    for (guint x = 0; x < w; x++)
      out[o + x] = a[o + x] - b[o + x];
  }
}

static gboolean
speed_temporal_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  SpeedTemporalState *s = fex->priv;
  const guint cur = s->n_seen % 2, prev = (s->n_seen + 1) % 2;
  guint n_rows;
  const guint *rows = vh_speed_input_rows (s->speed, &n_rows);
  gfloat score;

  if (ref->mem_type != VH_MEMORY_HOST || dist->mem_type != VH_MEMORY_HOST ||
      !vh_picture_info_equal (&ref->info, &fex->info) ||
      !vh_picture_info_equal (&dist->info, &fex->info)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "speed_temporal: pictures differ from the %ux%u %u-bit stream it "
        "was set up for, or are not in host memory", fex->info.width,
        fex->info.height, fex->info.bpc);
    return FALSE;
  }
  if (s->n_seen > 0 && index != s->last + 1) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "speed_temporal needs frames in order: expected frame %u, got %u",
        s->last + 1, index);
    return FALSE;
  }

  vh_speed_load_rows (ref, 0, s->w, rows, n_rows, s->ref[cur], s->w);
  vh_speed_load_rows (dist, 0, s->w, rows, n_rows, s->dis[cur], s->w);
  s->last = index;
  if (s->n_seen++ == 0)
    return vh_feature_extractor_append (fex, fc, "speed_temporal", index,
        0.0, error);

  difference (s->w, s->ref[prev], s->ref[cur], s->ref_diff, rows, n_rows);
  difference (s->w, s->dis[prev], s->use_ref_diff ? s->ref[cur] :
      s->dis[cur], s->dis_diff, rows, n_rows);
  vh_speed_score (s->speed, s->ref_diff, s->dis_diff, s->w, &score);
  return vh_feature_extractor_append (fex, fc, "speed_temporal", index,
      score, error);
}

const VhFeatureExtractorClass vh_fex_speed_temporal = {
  .name = "speed_temporal",
  .provides = vh_speed_temporal_provides,
  .options = vh_speed_temporal_options,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = VH_EXTRACTOR_FLAG_TEMPORAL | VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = 1,
  .min_height = 1,
  .priv_size = sizeof (SpeedTemporalState),
  /* Frame i is scored against frame i - 1 only; the first frame of a
   * sequence scores 0. */
  .history = 1,
  .init = speed_temporal_init,
  .extract = speed_temporal_extract,
  .close = speed_temporal_close,
};
