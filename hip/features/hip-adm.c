/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of integer ADM ("adm"): the same outputs, options and
 * values as the CPU twin (src/features/integer-adm.c), bit for bit. The
 * GPU computes each scale's integer sums (hip-adm-launch.c, kernels in
 * kernels/adm.hip); one copy brings them back, and the host finishes the
 * scores in float and double precision exactly as the CPU twin does. */

#include "hip-adm-priv.h"
#include "errors.h"

#include <math.h>
#include <string.h>

#define DEFAULT_VIEW_DIST 3.0
#define DEFAULT_DISPLAY_HEIGHT 1080
#define VH_ADM_MIN_SIZE 33

static const gchar *const adm_provides[] = {
  "integer_adm2", "integer_aim", "integer_adm3",
  "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2",
  "integer_adm_scale3", NULL
};

/* The CPU twin's options, name for name. */
static const VhOptionSpec adm_options[] = {
  {"adm_csf_scale", "scf",
        "gain of the horizontal and vertical CSF terms (Barten CSF)",
      VH_OPTION_DOUBLE, 1.0, 0.0, 50.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_csf_diag_scale", "scfd", "gain of the diagonal CSF term (Barten CSF)",
      VH_OPTION_DOUBLE, 1.0, 0.0, 50.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_dlm_weight", "dlmw",
        "weight of the detail loss measure against AIM in adm3 (1: DLM only)",
      VH_OPTION_DOUBLE, 0.5, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_enhn_gain_limit", "egl",
        "enhancement gain limit, >= 1.0; 1.0 disables enhancement gain",
      VH_OPTION_DOUBLE, 100.0, 1.0, 100.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_norm_view_dist", "nvd",
        "viewing distance divided by the display height",
        VH_OPTION_DOUBLE, DEFAULT_VIEW_DIST, 0.75, 24.0,
      VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_ref_display_height", "rdh", "reference display height in pixels",
        VH_OPTION_INT, DEFAULT_DISPLAY_HEIGHT, 1, 4320,
      VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_csf_mode", "csf",
        "contrast sensitivity function: 0 Watson, 1 Barten, "
        "2 Barten-Watson blend, 3 blend with the MAE fit",
      VH_OPTION_INT, VH_ADM_CSF_WATSON, 0, 3, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_noise_weight", "nw", "noise floor weight",
      VH_OPTION_DOUBLE, 0.03125, 0.0, 1500.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_skip_aim", NULL, "skip the AIM computation",
      VH_OPTION_BOOL, 0, 0, 1, 0},
  {"adm_skip_scale0", "ssz", "skip scale 0",
      VH_OPTION_BOOL, 0, 0, 1, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_min_val", "min", "lower clip of adm3",
      VH_OPTION_DOUBLE, 0.0, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {NULL}
};

/* What the GPU sends back a frame: per scale, den[3] then the detail loss
 * and AIM numerators (int64 in two's complement). */
typedef guint64 AdmResults[VH_ADM_N_SCALES][VH_HIP_ADM_N_SUMS];

static gfloat
den_score (const VhAdmScale * sc, const guint64 den[3])
{
  gfloat d[3];

  for (gint b = 0; b < 3; b++) {
    gdouble csf = (gdouble) (den[b] / sc->den_norm) * pow (sc->rfactor[b], 3);
    d[b] = powf (csf, 1.0f / 3.0f) + sc->noise_term;
  }
  return d[0] + d[1] + d[2];
}

static gfloat
num_score (const VhAdmScale * sc, gint s, const guint64 sums[3], gfloat noise)
{
  gfloat n[3];

  for (gint b = 0; b < 3; b++) {
    const gint64 num = (gint64) sums[b];
    gfloat acc;
    if (s == 0 && b == 0)
      /* libvmaf's AVX-512 code rounds this one sum to float first. */
      acc = (gfloat) ((gfloat) num / sc->cm_norm);
    else if (s == 0)
      acc = (gfloat) (num / (b == 2 ? sc->cm_norm_d : sc->cm_norm));
    else
      acc = num / sc->cm_norm_f;
    n[b] = powf (acc, 1.0f / 3.0f) + noise;
  }
  return n[0] + n[1] + n[2];
}

/* The CPU twin's pooling over scales, on the GPU's sums. */
static gboolean
adm_collect (VhFeatureExtractor * fex, gconstpointer results, guint index,
    VhFeatureCollector * fc, GError ** error)
{
  VhHipAdmPriv *p = fex->priv;
  const guint64 (*sums)[VH_HIP_ADM_N_SUMS] = results;
  const gint w = fex->info.width, h = fex->info.height;
  const gdouble limit = 1e-10 * (w * h) / (1920.0 * 1080.0);
  gdouble num = 0, den = 0, aim_num = 0, score, score_aim = 0.0;
  gdouble ratio[VH_ADM_N_SCALES];

  for (gint s = 0; s < VH_ADM_N_SCALES; s++) {
    const VhAdmScale *sc = &p->scales[s];
    gfloat num_s = 0.0f, den_s, aim_s = 0.0f;

    if (s == 0 && p->skip_scale0) {
      den_s = 1e-10;
    } else {
      den_s = den_score (sc, sums[s]);
      num_s = num_score (sc, s, sums[s] + 3, sc->noise_term);
      if (!p->skip_aim)
        aim_s = num_score (sc, s, sums[s] + 6, powf (0.0f, 1.0f / 3.0f));
    }
    num += num_s;
    den += den_s;
    aim_num += aim_s;
    ratio[s] = (gdouble) num_s / (gdouble) den_s;
  }

  num = num < limit ? 0 : num;
  den = den < limit ? 0 : den;
  if (den == 0.0) {
    score = 1.0;
  } else {
    score_aim = aim_num / den;
    score = num / den;
  }

  const gdouble adm3 = MAX (score * p->dlm_weight + (1 - score_aim) *
      (1 - p->dlm_weight), p->min_val);
  const struct
  {
    const gchar *name;
    gdouble value;
  } out[] = {
    {"integer_adm2", score},
    {"integer_aim", score_aim},
    {"integer_adm3", adm3},
    {"integer_adm_scale0", ratio[0]},
    {"integer_adm_scale1", ratio[1]},
    {"integer_adm_scale2", ratio[2]},
    {"integer_adm_scale3", ratio[3]},
  };
  for (guint i = 0; i < G_N_ELEMENTS (out); i++) {
    if (!vh_feature_extractor_append (fex, fc, out[i].name, index,
            out[i].value, error))
      return FALSE;
  }
  return TRUE;
}

static gboolean
adm_init (VhFeatureExtractor * fex, const VhPictureInfo * info, GError ** error)
{
  VhHipAdmPriv *p = fex->priv;
  VhAdmCsfParams csf;
  gdouble noise_weight, gain_limit;
  gint w = info->width, h = info->height;

  csf.mode = (VhAdmCsfMode) vh_feature_extractor_get_option (fex,
      "adm_csf_mode");
  csf.view_dist = vh_feature_extractor_get_option (fex, "adm_norm_view_dist");
  csf.display_height = (gint) vh_feature_extractor_get_option (fex,
      "adm_ref_display_height");
  csf.csf_scale = vh_feature_extractor_get_option (fex, "adm_csf_scale");
  csf.csf_diag_scale = vh_feature_extractor_get_option (fex,
      "adm_csf_diag_scale");
  noise_weight = vh_feature_extractor_get_option (fex, "adm_noise_weight");
  gain_limit = vh_feature_extractor_get_option (fex, "adm_enhn_gain_limit");
  p->dlm_weight = vh_feature_extractor_get_option (fex, "adm_dlm_weight");
  p->min_val = vh_feature_extractor_get_option (fex, "adm_min_val");
  p->skip_aim = vh_feature_extractor_get_option (fex, "adm_skip_aim") != 0;
  p->skip_scale0 =
      vh_feature_extractor_get_option (fex, "adm_skip_scale0") != 0;

  if (csf.view_dist * csf.display_height <
      DEFAULT_VIEW_DIST * DEFAULT_DISPLAY_HEIGHT) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "adm: adm_norm_view_dist x adm_ref_display_height must be at least "
        "%g (got %g x %d)", DEFAULT_VIEW_DIST * DEFAULT_DISPLAY_HEIGHT,
        csf.view_dist, csf.display_height);
    return FALSE;
  }
  if (info->bpc != 8 && info->bpc != 10 && info->bpc != 12 && info->bpc != 16) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "adm: unsupported bit depth %u", info->bpc);
    return FALSE;
  }

  memset (p->scales, 0, sizeof (p->scales));
  for (gint s = 0; s < VH_ADM_N_SCALES; s++) {
    if (!vh_hip_adm_setup_scale (&p->scales[s], s, w, h, &csf, noise_weight,
            error))
      return FALSE;
    w = p->scales[s].wb;
    h = p->scales[s].hb;
  }

  if (!vh_hip_fex_init (&p->hip, fex, sizeof (AdmResults), adm_collect, error))
    return FALSE;
  if (!vh_hip_adm_device_init (p, gain_limit, info->bpc, error)) {
    g_prefix_error (error, "adm: ");
    vh_hip_adm_device_close (p);
    vh_hip_fex_close (&p->hip);
    return FALSE;
  }
  return TRUE;
}

static void
adm_close (VhFeatureExtractor * fex)
{
  VhHipAdmPriv *p = fex->priv;

  vh_hip_adm_device_close (p);
  vh_hip_fex_close (&p->hip);
}

static gboolean
check_picture (const VhFeatureExtractor * fex, const VhPicture * pic,
    GError ** error)
{
  const VhPictureInfo *info = &fex->info;

  if (pic->info.width != info->width || pic->info.height != info->height ||
      pic->info.bpc != info->bpc) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "adm: picture is %ux%u %u-bit, the extractor was set up for "
        "%ux%u %u-bit", pic->info.width, pic->info.height, pic->info.bpc,
        info->width, info->height, info->bpc);
    return FALSE;
  }
  if (pic->mem_type != VH_MEMORY_HIP_DEVICE) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "adm: the HIP twin takes pictures in device memory");
    return FALSE;
  }
  if (pic->step[0] != 1) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "adm: the luma plane must be planar (sample step %u)", pic->step[0]);
    return FALSE;
  }
  return TRUE;
}

static gboolean
adm_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  VhHipAdmPriv *p = fex->priv;
  gpointer slot;

  if (!check_picture (fex, ref, error) || !check_picture (fex, dist, error))
    return FALSE;
  slot = vh_hip_fex_begin (&p->hip, index, error);
  if (!slot || !vh_hip_adm_enqueue (fex, ref, dist, slot, error))
    return FALSE;
  return vh_hip_fex_end (&p->hip, ref, dist, fc, error);
}

const VhFeatureExtractorClass vh_hip_fex_integer_adm = {
  .name = "adm",
  .provides = adm_provides,
  .options = adm_options,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .min_width = VH_ADM_MIN_SIZE,
  .min_height = VH_ADM_MIN_SIZE,
  .priv_size = sizeof (VhHipAdmPriv),
  .init = adm_init,
  .extract = adm_extract,
  .close = adm_close,
};
