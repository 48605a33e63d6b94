/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Helpers shared by the two SpEED extractors (see speed-options.h). */

#include "speed-options.h"

const VhOptionSpec vh_speed_chroma_options[] = {
  VH_SPEED_COMMON_OPTIONS,
  {"speed_weight_var_mode", "wvm", "variance weighting of the entropies "
        "(0 to 6)",
      VH_OPTION_INT, 0.0, 0.0, 6.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {NULL}
};

const gchar *const vh_speed_chroma_provides[] = {
  "speed_chroma_u", "speed_chroma_v", "speed_chroma_uv", NULL
};

const VhOptionSpec vh_speed_temporal_options[] = {
  VH_SPEED_COMMON_OPTIONS,
  {"speed_use_ref_diff", "urd", "take the distorted difference against "
        "the current reference frame",
      VH_OPTION_BOOL, 0.0, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {NULL}
};

const gchar *const vh_speed_temporal_provides[] = {
  "speed_temporal", NULL
};

void
vh_speed_params_from_options (VhFeatureExtractor * fex,
    VhSpeedParams * params)
{
  params->kernelscale =
      vh_feature_extractor_get_option (fex, "speed_kernelscale");
  params->prescale = vh_feature_extractor_get_option (fex, "speed_prescale");
  params->prescale_method = (VhFloatScaleMethod)
      vh_feature_extractor_get_option (fex, "speed_prescale_method");
  params->sigma_nn = vh_feature_extractor_get_option (fex, "speed_sigma_nn");
  params->nn_floor = vh_feature_extractor_get_option (fex, "speed_nn_floor");
  params->weight_var_mode = 0;
  params->cpu_mask = fex->cpu_mask;
}

void
vh_speed_load_rows (const VhPicture * pic, guint p, guint w,
    const guint * rows, guint n_rows, gfloat * dst, gsize stride)
{
  const gsize step = pic->step[p] ? pic->step[p] : 1;
  /* A power of two: the division is exact, as libvmaf's is. */
  const gfloat scale = (gfloat) (1u << (pic->info.bpc - 8));

  for (guint r = 0; r < n_rows; r++) {
    const guint y = rows ? rows[r] : r;
    gfloat *restrict out = dst + (gsize) y * stride;

    if (pic->info.bpc == 8) {
      const guint8 *src = vh_picture_row (pic, p, y);

      if (step == 1) {
        for (guint x = 0; x < w; x++)
          out[x] = (gfloat) src[x] + -128;
      } else {
        for (guint x = 0; x < w; x++)
          out[x] = (gfloat) src[x * step] + -128;
      }
    } else {
      const guint16 *src = vh_picture_row (pic, p, y);

      if (step == 1) {
        for (guint x = 0; x < w; x++)
          out[x] = (gfloat) src[x] / scale + -128;
      } else {
        for (guint x = 0; x < w; x++)
          out[x] = (gfloat) src[x * step] / scale + -128;
      }
    }
  }
}

gboolean
vh_speed_chroma_append (VhFeatureExtractor * fex, VhFeatureCollector * fc,
    guint index, gfloat u, gboolean bad_u, gfloat v, gboolean bad_v,
    gdouble max_val, GError ** error)
{
  gfloat uv;

  if (bad_u && !bad_v)
    uv = v;
  else if (bad_v && !bad_u)
    uv = u;
  else
    uv = (u + v) / 2.0;
  return vh_feature_extractor_append (fex, fc, "speed_chroma_u", index,
      MIN (u, max_val), error) &&
      vh_feature_extractor_append (fex, fc, "speed_chroma_v", index,
      MIN (v, max_val), error) &&
      vh_feature_extractor_append (fex, fc, "speed_chroma_uv", index,
      MIN (uv, max_val), error);
}
