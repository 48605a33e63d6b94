/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of float_ms_ssim (src/features/float-ms-ssim.c): the
 * wavelet pyramid and the Gaussian-window SSIM of its five scales on the
 * GPU, in one result slot per frame; the weighted product finished on the
 * host as the CPU twin does. Only the order of the frame sums differs. */

#include "hip-ssim-common.h"
#include "errors.h"

#include <math.h>

#define N_SCALES VH_HIP_SSIM_MAX_SCALES

/* The CPU twin's exponents (Wang et al.'s, in single precision as libvmaf
 * stores them); luminance counts only at the coarsest scale. */
static const gfloat lum_exp[N_SCALES] = {
  0.0000f, 0.0000f, 0.0000f, 0.0000f, 0.1333f,
};

static const gfloat cs_exp[N_SCALES] = {
  0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f,
};

typedef struct
{
  VhHipSsim ssim;               /* first: see vh_hip_ssim_from_extractor() */
  VhHipFex hip;
  gboolean enable_lcs;
  gboolean enable_db;
  gdouble max_db;
} HipFloatMsSsim;

/* The CPU twin's options: same names, defaults and ranges. */
static const VhOptionSpec hip_float_ms_ssim_options[] = {
  {"enable_lcs", NULL,
        "also output the luminance, contrast and structure means per scale",
      VH_OPTION_BOOL, 0, 0, 1, 0},
  {"enable_db", NULL, "output MS-SSIM as dB", VH_OPTION_BOOL, 0, 0, 1, 0},
  {"clip_db", NULL, "cap dB values at the frame's resolution limit",
      VH_OPTION_BOOL, 0, 0, 1, 0},
  {NULL}
};

static const gchar *const hip_float_ms_ssim_provides[] = {
  "float_ms_ssim", NULL
};

static gboolean
hip_float_ms_ssim_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  HipFloatMsSsim *s = fex->priv;
  gdouble l[N_SCALES], c[N_SCALES], st[N_SCALES];
  gdouble score = 1.0;

  for (guint i = 0; i < N_SCALES; i++) {
    VhSsimResult res;

    vh_hip_ssim_result (&s->ssim, results, i, &res);
    l[i] = res.l;
    c[i] = res.c;
    st[i] = res.s;
    score *= pow (l[i], (gdouble) lum_exp[i]) * pow (c[i],
        (gdouble) cs_exp[i]) * pow (st[i], (gdouble) cs_exp[i]);
    if (isinf (score)) {
      g_set_error (error, VH_ERROR, VH_ERROR_FAILED,
          "feature 'float_ms_ssim': frame %u gives an infinite score", index);
      return FALSE;
    }
  }

  if (s->enable_db)
    score = vh_ssim_to_db (score, s->max_db);
  if (!vh_feature_extractor_append (fex, fc, "float_ms_ssim", index, score,
          error))
    return FALSE;
  if (!s->enable_lcs)
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

static gboolean
hip_float_ms_ssim_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipFloatMsSsim *s = fex->priv;
  guint width[N_SCALES], height[N_SCALES];

  s->enable_lcs = vh_feature_extractor_get_option (fex, "enable_lcs") != 0;
  s->enable_db = vh_feature_extractor_get_option (fex, "enable_db") != 0;
  s->max_db = vh_ssim_max_db (vh_feature_extractor_get_option (fex,
          "clip_db") != 0, info->bpc, info->width, info->height);

  /* The class minimum keeps every scale at least as large as the window. */
  for (guint i = 0; i < N_SCALES; i++) {
    width[i] = i ? vh_ssim_decimated_size (width[i - 1], 2) : info->width;
    height[i] = i ? vh_ssim_decimated_size (height[i - 1], 2) : info->height;
  }

  if (!vh_hip_fex_init (&s->hip, fex, N_SCALES * 4 * sizeof (gdouble),
          hip_float_ms_ssim_collect, error))
    return FALSE;
  /* Scale 0 reads the pictures, the others the planes of the pyramid. */
  if (!vh_hip_ssim_init (&s->ssim, &s->hip, info->bpc, N_SCALES, width,
          height, 1, error)) {
    g_prefix_error (error, "feature 'float_ms_ssim': ");
    vh_hip_fex_close (&s->hip);
    return FALSE;
  }
  return TRUE;
}

static gboolean
hip_float_ms_ssim_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  HipFloatMsSsim *s = fex->priv;
  gpointer slot;

  if (!vh_hip_ssim_check_pictures (fex->klass->name, &fex->info, ref, dist,
          error))
    return FALSE;
  slot = vh_hip_fex_begin (&s->hip, index, error);
  if (!slot || !vh_hip_ssim_mark (&s->ssim, FALSE, error))
    return FALSE;
  for (guint i = 0; i < N_SCALES; i++) {
    const VhPicture *a = i ? NULL : ref, *b = i ? NULL : dist;

    if (!vh_hip_ssim_tile (&s->ssim, i, a, b, error))
      return FALSE;
    if (i + 1 < N_SCALES && !vh_hip_ssim_lpf (&s->ssim, i, a, b, error))
      return FALSE;
  }
  return vh_hip_ssim_reduce (&s->ssim, slot, error) &&
      vh_hip_ssim_mark (&s->ssim, TRUE, error) &&
      vh_hip_fex_end (&s->hip, ref, dist, fc, error);
}

static void
hip_float_ms_ssim_close (VhFeatureExtractor * fex)
{
  HipFloatMsSsim *s = fex->priv;

  vh_hip_ssim_clear (&s->ssim);
  vh_hip_fex_close (&s->hip);
}

const VhFeatureExtractorClass vh_hip_fex_float_ms_ssim = {
  .name = "float_ms_ssim",
  .provides = hip_float_ms_ssim_provides,
  .options = hip_float_ms_ssim_options,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  /* As the CPU twin: the fifth scale must hold the window. */
  .min_width = 176,
  .min_height = 176,
  .priv_size = sizeof (HipFloatMsSsim),
  .init = hip_float_ms_ssim_init,
  .extract = hip_float_ms_ssim_extract,
  .close = hip_float_ms_ssim_close,
};
