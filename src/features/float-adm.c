/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Float ADM ("float_adm"): the detail loss metric of libvmaf 3.2's float
 * extractor, in its precision. Four wavelet levels of both lumas; at each
 * the distorted detail bands are split into the part the reference
 * explains and an additive impairment, weighted by Watson's contrast
 * sensitivity, masked by each other, and pooled with a 3-norm over the
 * frame minus a 10 % border. adm2 is detail kept over reference detail,
 * aim the impairment over the same denominator, adm3 a blend of the two. */

#include "float-adm.h"
#include "errors.h"
#include "float-picture.h"
#include "adm-private.h"

#include <math.h>

/* The pooled scores are multiply-adds: fused, they would round once. */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#define FADM_MIN_SIZE VH_FLOAT_ADM_MIN_SIZE

/* Planes of the band buffers. */
enum
{
  REF_A, REF_H, REF_V, REF_D,
  DIS_A, DIS_H, DIS_V, DIS_D,
  R_H, R_V, R_D,
  A_H, A_V, A_D,
  CSF_A_H, CSF_A_V, CSF_A_D,
  CSF_F_H, CSF_F_V, CSF_F_D,
  N_PLANES
};

typedef struct
{
  VhFloatAdm adm;
  gfloat *luma[2];              /* reference, distorted */
  gsize band_stride;
  gfloat *planes;
  VhFadmBands ref, dis, r, a, csf_a, csf_f;
  gfloat *scratch;
} FadmState;

const VhOptionSpec vh_float_adm_options[] = {
  {"debug", NULL,
        "also output the pooled ADM and the numerator and denominator of "
        "every scale",
      VH_OPTION_BOOL, 0.0, 0.0, 1.0, 0},
  {"adm_enhn_gain_limit", "egl",
        "enhancement gain imposed on adm, must be >= 1.0, where 1.0 means "
        "the gain is completely disabled",
      VH_OPTION_DOUBLE, 100.0, 1.0, 100.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_norm_view_dist", "nvd",
        "normalized viewing distance = viewing distance / ref display's "
        "physical height",
      VH_OPTION_DOUBLE, 3.0, 0.75, 24.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_noise_weight", "nw", "noise weight",
      VH_OPTION_DOUBLE, 0.03125, 0.0, 1500.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_csf_scale", "scf", "gain of the Barten CSF (adm_csf_mode 1)",
      VH_OPTION_DOUBLE, 1.0, 0.0, 50.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_csf_diag_scale", "scfd",
        "gain of the Barten CSF of the diagonal band (adm_csf_mode 1)",
      VH_OPTION_DOUBLE, 1.0, 0.0, 50.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_ref_display_height", "rdf", "reference display height in pixels",
      VH_OPTION_INT, 1080.0, 1.0, 4320.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_csf_mode", "csf",
        "contrast sensitivity function: 1 Barten, 2 the DLM paper's, any "
        "other Watson's",
      VH_OPTION_INT, 0.0, 0.0, 9.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_bypass_cm", "bcm", "bypass contrast masking (CM)",
      VH_OPTION_INT, 0.0, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_adm3_apply_hm", "aah",
        "apply harmonic mean to combine DLM and AIM",
      VH_OPTION_BOOL, 0.0, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_p_norm", "apn", "p-norm for energy vector",
      VH_OPTION_DOUBLE, 3.0, 1.0, 20.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_dlm_weight", "dlmw",
        "linear weighting between DLM and AIM; 1 corresponds to DLM-only",
      VH_OPTION_DOUBLE, 0.5, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_min_val", "min",
        "minimum value allowed; lower values will be clipped to this value",
      VH_OPTION_DOUBLE, 0.0, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_f1s0", "f1s0", "factor1 scale0",
      VH_OPTION_DOUBLE, -1.0, -1.0, 10.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_f1s1", "f1s1", "factor1 scale1",
      VH_OPTION_DOUBLE, -1.0, -1.0, 10.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_f1s2", "f1s2", "factor1 scale2",
      VH_OPTION_DOUBLE, -1.0, -1.0, 10.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_f1s3", "f1s3", "factor1 scale3",
      VH_OPTION_DOUBLE, -1.0, -1.0, 10.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_f2s0", "f2s0", "factor2 scale0",
      VH_OPTION_DOUBLE, -1.0, -1.0, 10.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_f2s1", "f2s1", "factor2 scale1",
      VH_OPTION_DOUBLE, -1.0, -1.0, 10.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_f2s2", "f2s2", "factor2 scale2",
      VH_OPTION_DOUBLE, -1.0, -1.0, 10.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_f2s3", "f2s3", "factor2 scale3",
      VH_OPTION_DOUBLE, -1.0, -1.0, 10.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_skip_aim_scale", "sasc",
        "when set, skip AIM calculations for that scale",
      VH_OPTION_INT, -1.0, -1.0, 3.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_skip_scale0", "ssz", "skip the calculation of scale 0",
      VH_OPTION_BOOL, 0.0, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {NULL}
};

const gchar *const vh_float_adm_provides[] = {
  "adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2",
  "adm_scale3", NULL
};

/* Watson et al.'s 7/9 wavelet noise model for luma (1997): parameters a,
 * k, f0, the orientation gains and the basis amplitudes per level. */
static const gfloat watson_a = 0.495, watson_k = 0.466, watson_f0 = 0.401;
static const gfloat watson_g[4] = { 1.501, 1.0, 0.534, 1.0 };

static const gfloat watson_amp[6][4] = {
  {0.62171, 0.67234, 0.72709, 0.67234},
  {0.34537, 0.41317, 0.49428, 0.41317},
  {0.18004, 0.22727, 0.28688, 0.22727},
  {0.091401, 0.11792, 0.15214, 0.11792},
  {0.045943, 0.059758, 0.077727, 0.059758},
  {0.023013, 0.030018, 0.039156, 0.030018},
};

/* Quantisation step of level @lambda, orientation @theta, in libvmaf's
 * mix of float and double. */
static gfloat
watson_step (gint lambda, gint theta, gdouble view_dist, gint disp_height)
{
  /* Display resolution in pixels per degree of visual angle. */
  gfloat r = view_dist * disp_height * G_PI / 180.0;
  gfloat t = log10 (pow (2.0, lambda + 1) * watson_f0 * watson_g[theta] / r);

  return 2.0 * watson_a * pow (10.0, watson_k * t * t) /
      watson_amp[lambda][theta];
}

static void
fadm_set_factors (const VhFeatureExtractor * fex, VhFloatAdm * s)
{
  gdouble nvd = vh_feature_extractor_get_option (fex, "adm_norm_view_dist");
  gint rdh = (gint) vh_feature_extractor_get_option (fex,
      "adm_ref_display_height");

  gint mode = (gint) vh_feature_extractor_get_option (fex, "adm_csf_mode");
  gdouble csf_scale = vh_feature_extractor_get_option (fex, "adm_csf_scale");
  gdouble csf_diag_scale = vh_feature_extractor_get_option (fex,
      "adm_csf_diag_scale");

  for (gint scale = 0; scale < VH_FADM_N_SCALES; scale++) {
    gchar name1[16], name2[16];
    gdouble o1, o2;
    gfloat f1, f2;

    if (mode == 1) {
      f1 = vh_adm_csf_barten (scale, nvd, rdh, csf_scale);
      f2 = vh_adm_csf_barten (scale, nvd, rdh, csf_diag_scale);
    } else if (mode == 2) {
      f1 = vh_adm_csf_native (scale, nvd, rdh, FALSE);
      f2 = vh_adm_csf_native (scale, nvd, rdh, TRUE);
    } else {
      f1 = 1.0f / watson_step (scale, 1, nvd, rdh);
      f2 = 1.0f / watson_step (scale, 2, nvd, rdh);
    }

    g_snprintf (name1, sizeof (name1), "adm_f1s%d", scale);
    g_snprintf (name2, sizeof (name2), "adm_f2s%d", scale);
    o1 = vh_feature_extractor_get_option (fex, name1);
    o2 = vh_feature_extractor_get_option (fex, name2);
    if (o1 >= 0)
      f1 = o1;
    if (o2 >= 0)
      f2 = o2;
    s->rf[scale][0] = f1;
    s->rf[scale][1] = f1;
    s->rf[scale][2] = f2;
  }
}

static VhFadmBands
fadm_bands (gfloat * a, gfloat * h, gfloat * v, gfloat * d)
{
  VhFadmBands b;

  b.a = a;
  b.h = h;
  b.v = v;
  b.d = d;
  return b;
}

gboolean
vh_float_adm_setup (VhFloatAdm * s, const VhFeatureExtractor * fex,
    const VhPictureInfo * info, GError ** error)
{
  (void) error;
  s->w = info->width;
  s->h = info->height;
  s->debug = vh_feature_extractor_get_option (fex, "debug") != 0.0;
  s->gain_limit = vh_feature_extractor_get_option (fex, "adm_enhn_gain_limit");
  s->adm3_hm = vh_feature_extractor_get_option (fex,
      "adm_adm3_apply_hm") != 0.0;
  s->dlm_weight = vh_feature_extractor_get_option (fex, "adm_dlm_weight");
  s->min_val = vh_feature_extractor_get_option (fex, "adm_min_val");
  s->skip_aim_scale = (gint) vh_feature_extractor_get_option (fex,
      "adm_skip_aim_scale");
  s->skip_scale0 = vh_feature_extractor_get_option (fex,
      "adm_skip_scale0") != 0.0;
  s->pool.p_norm = vh_feature_extractor_get_option (fex, "adm_p_norm");
  s->pool.noise_weight = vh_feature_extractor_get_option (fex,
      "adm_noise_weight");
  s->pool.bypass_cm = vh_feature_extractor_get_option (fex,
      "adm_bypass_cm") != 0.0;
  fadm_set_factors (fex, s);
  return TRUE;
}

void
vh_float_adm_skipped_scale (VhFloatAdmSums * sums, guint scale)
{
  sums->num[scale] = 0.0f;
  sums->den[scale] = 1e-10;     /* libvmaf's guard against 0 / 0 */
  sums->aim[scale] = 0.0f;
}

static gboolean
fadm_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  FadmState *s = fex->priv;
  const gsize bw = (info->width + 1) / 2, bh = (info->height + 1) / 2;
  gfloat *p[N_PLANES];

  if (!vh_float_adm_setup (&s->adm, fex, info, error))
    return FALSE;
  for (guint i = 0; i < 2; i++)
    s->luma[i] = g_new (gfloat, (gsize) info->width * info->height);
  s->band_stride = bw;
  s->planes = g_new0 (gfloat, N_PLANES * bw * bh);
  for (guint i = 0; i < N_PLANES; i++)
    p[i] = s->planes + i * bw * bh;
  s->ref = fadm_bands (p[REF_A], p[REF_H], p[REF_V], p[REF_D]);
  s->dis = fadm_bands (p[DIS_A], p[DIS_H], p[DIS_V], p[DIS_D]);
  s->r = fadm_bands (NULL, p[R_H], p[R_V], p[R_D]);
  s->a = fadm_bands (NULL, p[A_H], p[A_V], p[A_D]);
  s->csf_a = fadm_bands (NULL, p[CSF_A_H], p[CSF_A_V], p[CSF_A_D]);
  s->csf_f = fadm_bands (NULL, p[CSF_F_H], p[CSF_F_V], p[CSF_F_D]);
  s->scratch = g_new (gfloat, 4 * (gsize) info->width);
  return TRUE;
}

static void
fadm_close (VhFeatureExtractor * fex)
{
  FadmState *s = fex->priv;

  g_clear_pointer (&s->luma[0], g_free);
  g_clear_pointer (&s->luma[1], g_free);
  g_clear_pointer (&s->planes, g_free);
  g_clear_pointer (&s->scratch, g_free);
}

static void
fadm_scales (FadmState * s, VhFloatAdmSums * sums)
{
  const VhFloatAdm *adm = &s->adm;
  const gfloat *cur[2] = { s->luma[0], s->luma[1] };
  gsize stride = adm->w;
  guint w = adm->w, h = adm->h;

  for (guint scale = 0; scale < VH_FADM_N_SCALES; scale++) {
    const gfloat *rf = adm->rf[scale];
    const gboolean lo_only = scale == 0 && adm->skip_scale0;
    const gsize bs = s->band_stride;

    vh_fadm_dwt2 (cur[0], stride, w, h, &s->ref, bs, lo_only, s->scratch);
    vh_fadm_dwt2 (cur[1], stride, w, h, &s->dis, bs, lo_only, s->scratch);
    w = (w + 1) / 2;
    h = (h + 1) / 2;
    cur[0] = s->ref.a;
    cur[1] = s->dis.a;
    stride = bs;

    if (lo_only) {
      vh_float_adm_skipped_scale (sums, scale);
      continue;
    }
    vh_fadm_decouple (&s->ref, &s->dis, &s->r, &s->a, bs, w, h,
        adm->gain_limit, s->scratch);
    sums->den[scale] = vh_fadm_den_scale (&s->ref, bs, w, h, rf, &adm->pool,
        s->scratch);

    /* Detail kept, masked by the impairment... */
    vh_fadm_csf (&s->a, &s->csf_a, &s->csf_f, bs, w, h, rf);
    sums->num[scale] = vh_fadm_cm (&s->r, &s->csf_f, &s->csf_a, bs, w, h,
        rf, &adm->pool, s->scratch);

    /* ...and the impairment, masked by the detail kept, without noise. */
    VhFadmPool aim_pool = adm->pool;
    aim_pool.noise_weight = 0.0;
    vh_fadm_csf (&s->r, &s->csf_f, &s->csf_a, bs, w, h, rf);
    sums->aim[scale] = vh_fadm_cm (&s->a, &s->csf_a, &s->csf_f, bs, w, h,
        rf, &aim_pool, s->scratch);
  }
}

static gboolean
fadm_emit_debug (VhFeatureExtractor * fex, VhFeatureCollector * fc,
    guint index, const VhFloatAdmSums * sums, gdouble score, gdouble num,
    gdouble den, GError ** error)
{
  /* libvmaf leaves "adm" out of its list of outputs, so options do not
   * rename it. */
  if (!vh_feature_extractor_append_unsuffixed (fex, fc, "adm", index, score,
          error) ||
      !vh_feature_extractor_append (fex, fc, "adm_num", index, num, error) ||
      !vh_feature_extractor_append (fex, fc, "adm_den", index, den, error))
    return FALSE;
  for (guint i = 0; i < VH_FADM_N_SCALES; i++) {
    gchar name_num[32], name_den[32];

    g_snprintf (name_num, sizeof (name_num), "adm_num_scale%u", i);
    g_snprintf (name_den, sizeof (name_den), "adm_den_scale%u", i);
    if (!vh_feature_extractor_append (fex, fc, name_num, index,
            sums->num[i], error) ||
        !vh_feature_extractor_append (fex, fc, name_den, index,
            sums->den[i], error))
      return FALSE;
  }
  return TRUE;
}

gboolean
vh_float_adm_append (const VhFloatAdm * s, VhFeatureExtractor * fex,
    const VhFloatAdmSums * sums, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  const gdouble limit = 1e-10 * (s->w * s->h) / (1920.0 * 1080.0);
  gdouble num = 0.0, den = 0.0, aim_num = 0.0, aim_den = 0.0;
  gdouble score, aim = 0.0, adm3;

  for (gint i = 0; i < VH_FADM_N_SCALES; i++) {
    num += sums->num[i];
    den += sums->den[i];
    if (i != s->skip_aim_scale) {
      aim_den += sums->den[i];
      aim_num += sums->aim[i];
    }
  }
  num = num < limit ? 0 : num;
  den = den < limit ? 0 : den;
  /* A flat reference: libvmaf leaves aim undefined; 0 here. */
  if (den == 0.0) {
    score = 1.0;
  } else {
    aim = aim_num / aim_den;
    aim = aim < 1.0 ? aim : 1.0;
    score = num / den;
  }
  if (s->adm3_hm)
    adm3 = 2 * score * aim / (score + aim);
  else
    adm3 = score * s->dlm_weight + (1 - aim) * (1 - s->dlm_weight);
  adm3 = MAX (adm3, s->min_val);

  if (!vh_feature_extractor_append (fex, fc, "adm2", index, score, error) ||
      !vh_feature_extractor_append (fex, fc, "aim", index, aim, error) ||
      !vh_feature_extractor_append (fex, fc, "adm3", index, adm3, error))
    return FALSE;
  for (guint i = 0; i < VH_FADM_N_SCALES; i++) {
    gchar name[16];

    g_snprintf (name, sizeof (name), "adm_scale%u", i);
    if (!vh_feature_extractor_append (fex, fc, name, index,
            (gdouble) sums->num[i] / sums->den[i], error))
      return FALSE;
  }
  return !s->debug || fadm_emit_debug (fex, fc, index, sums, score, num,
      den, error);
}

static gboolean
fadm_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  FadmState *s = fex->priv;
  VhFloatAdmSums sums;

  if (!vh_float_check_picture ("float_adm", &fex->info, ref, "reference",
          error) ||
      !vh_float_check_picture ("float_adm", &fex->info, dist, "distorted",
          error))
    return FALSE;

  vh_float_load_luma (ref, s->luma[0], s->adm.w);
  vh_float_load_luma (dist, s->luma[1], s->adm.w);
  fadm_scales (s, &sums);
  return vh_float_adm_append (&s->adm, fex, &sums, index, fc, error);
}

const VhFeatureExtractorClass vh_fex_float_adm = {
  .name = "float_adm",
  .provides = vh_float_adm_provides,
  .options = vh_float_adm_options,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = FADM_MIN_SIZE,
  .min_height = FADM_MIN_SIZE,
  .priv_size = sizeof (FadmState),
  .init = fadm_init,
  .extract = fadm_extract,
  .close = fadm_close,
};
