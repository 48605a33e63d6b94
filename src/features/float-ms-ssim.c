/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* float_ms_ssim: Wang's multi-scale SSIM of the luma over five dyadic
 * scales, each with the 11x11 Gaussian window. */

#include "float-ms-ssim.h"
#include "errors.h"

#include <math.h>

#define N_SCALES VH_MS_SSIM_N_SCALES

/* Wang et al.'s exponents, in single precision as libvmaf stores them;
 * contrast and structure share theirs, luminance counts only at the
 * coarsest scale. */
static const gfloat lum_exp[N_SCALES] = {
  0.0000f, 0.0000f, 0.0000f, 0.0000f, 0.1333f,
};

static const gfloat cs_exp[N_SCALES] = {
  0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f,
};

typedef struct
{
  VhFloatMsSsim ms;
  gfloat *ref[N_SCALES];
  gfloat *dist[N_SCALES];
  VhSsimWorkspace *ws;
} FloatMsSsim;

const gchar *const vh_float_ms_ssim_provides[] = { "float_ms_ssim", NULL };

const VhOptionSpec vh_float_ms_ssim_options[] = {
  {"enable_lcs", NULL,
        "also output the luminance, contrast and structure means per scale",
      VH_OPTION_BOOL, 0, 0, 1, 0},
  {"enable_db", NULL, "output MS-SSIM as dB", VH_OPTION_BOOL, 0, 0, 1, 0},
  {"clip_db", NULL, "cap dB values at the frame's resolution limit",
      VH_OPTION_BOOL, 0, 0, 1, 0},
  {NULL}
};

void
vh_float_ms_ssim_setup (VhFloatMsSsim * ms, const VhFeatureExtractor * fex,
    const VhPictureInfo * info)
{
  ms->enable_lcs = vh_feature_extractor_get_option (fex, "enable_lcs") != 0;
  ms->enable_db = vh_feature_extractor_get_option (fex, "enable_db") != 0;
  ms->max_db = vh_ssim_max_db (vh_feature_extractor_get_option (fex,
          "clip_db") != 0, info->bpc, info->width, info->height);

  /* The class minimum (16 x the window) keeps every scale at least as
   * large as the window. */
  for (guint i = 0; i < N_SCALES; i++) {
    ms->width[i] = i ? vh_ssim_decimated_size (ms->width[i - 1], 2) :
        info->width;
    ms->height[i] = i ? vh_ssim_decimated_size (ms->height[i - 1], 2) :
        info->height;
  }
}

gboolean
vh_float_ms_ssim_append (VhFeatureExtractor * fex, const VhFloatMsSsim * ms,
    const VhSsimResult * res, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  gdouble l[N_SCALES], c[N_SCALES], st[N_SCALES];
  gdouble score = 1.0;

  for (guint i = 0; i < N_SCALES; i++) {
    l[i] = res[i].l;
    c[i] = res[i].c;
    st[i] = res[i].s;
    score *= pow (l[i], (gdouble) lum_exp[i]) * pow (c[i],
        (gdouble) cs_exp[i]) * pow (st[i], (gdouble) cs_exp[i]);
    if (isinf (score)) {
      g_set_error (error, VH_ERROR, VH_ERROR_FAILED,
          "feature 'float_ms_ssim': frame %u gives an infinite score", index);
      return FALSE;
    }
  }

  if (ms->enable_db)
    score = vh_ssim_to_db (score, ms->max_db);
  if (!vh_feature_extractor_append (fex, fc, "float_ms_ssim", index, score,
          error))
    return FALSE;
  if (!ms->enable_lcs)
    return TRUE;

  static const gchar *const term[3] = { "l", "c", "s" };
  const gdouble *values[3] = { l, c, st };

  for (guint t = 0; t < 3; t++) {
    for (guint i = 0; i < N_SCALES; i++) {
      gchar name[32];

      g_snprintf (name, sizeof (name), "float_ms_ssim_%s_scale%u", term[t], i);
      if (!vh_feature_extractor_append (fex, fc, name, index, values[t][i],
              error))
        return FALSE;
    }
  }
  return TRUE;
}

static void
float_ms_ssim_close (VhFeatureExtractor * fex)
{
  FloatMsSsim *s = fex->priv;

  for (guint i = 0; i < N_SCALES; i++) {
    g_free (s->ref[i]);
    g_free (s->dist[i]);
  }
  vh_ssim_workspace_free (s->ws);
}

static gboolean
float_ms_ssim_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  FloatMsSsim *s = fex->priv;

  (void) error;
  vh_float_ms_ssim_setup (&s->ms, fex, info);
  for (guint i = 0; i < N_SCALES; i++) {
    gsize n = (gsize) s->ms.width[i] * s->ms.height[i];

    s->ref[i] = g_new (gfloat, n);
    s->dist[i] = g_new (gfloat, n);
  }
  s->ws = vh_ssim_workspace_new (info->width);
  return TRUE;
}

static gboolean
float_ms_ssim_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  FloatMsSsim *s = fex->priv;
  const guint *width = s->ms.width, *height = s->ms.height;
  VhSsimResult res[N_SCALES];

  if (!vh_ssim_check_pictures (fex, ref, dist, error))
    return FALSE;
  vh_ssim_load_luma (ref, s->ref[0]);
  vh_ssim_load_luma (dist, s->dist[0]);
  for (guint i = 1; i < N_SCALES; i++) {
    vh_ssim_decimate_lpf (s->ws, s->ref[i - 1], width[i - 1],
        height[i - 1], s->ref[i]);
    vh_ssim_decimate_lpf (s->ws, s->dist[i - 1], width[i - 1],
        height[i - 1], s->dist[i]);
  }
  for (guint i = 0; i < N_SCALES; i++)
    vh_ssim_compute (s->ws, s->ref[i], s->dist[i], width[i], height[i],
        &res[i]);
  return vh_float_ms_ssim_append (fex, &s->ms, res, index, fc, error);
}

const VhFeatureExtractorClass vh_fex_float_ms_ssim = {
  .name = "float_ms_ssim",
  .provides = vh_float_ms_ssim_provides,
  .options = vh_float_ms_ssim_options,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = VH_MS_SSIM_MIN_SIZE,
  .min_height = VH_MS_SSIM_MIN_SIZE,
  .priv_size = sizeof (FloatMsSsim),
  .init = float_ms_ssim_init,
  .extract = float_ms_ssim_extract,
  .close = float_ms_ssim_close,
};
