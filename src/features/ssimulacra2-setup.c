/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* SSIMULACRA 2's set-up and final arithmetic, shared by the CPU class and
 * its HIP twin: options, the Y'CbCr matrix, the sRGB table, the blur's
 * coefficients and the weighted sum of the 108 norms. */

#include "ssimulacra2.h"
#include "errors.h"

#include <math.h>

const gchar *const vh_ssimu2_provides[] = { "ssimulacra2", NULL };

static const gchar *const ssimu2_matrix_names[] =
    { "bt601", "bt709", "bt2020", NULL };
static const gchar *const ssimu2_range_names[] = { "limited", "full", NULL };

/* The colorimetry describes the input and does not rename the output. */
const VhOptionSpec vh_ssimu2_options[] = {
  {"matrix", NULL, "Y'CbCr matrix of the input: bt601, bt709 or bt2020",
      VH_OPTION_CHOICE, VH_SSIMU2_MATRIX_BT709, 0, 0, 0, ssimu2_matrix_names},
  {"range", NULL, "sample range of the input: limited or full",
      VH_OPTION_CHOICE, VH_SSIMU2_RANGE_LIMITED, 0, 0, 0, ssimu2_range_names},
  {"dist_matrix", NULL,
        "Y'CbCr matrix of the distorted input when it differs from the "
        "reference's: bt601, bt709 or bt2020 (default: matrix)",
      VH_OPTION_CHOICE, VH_SSIMU2_MATRIX_BT709, 0, 0, 0, ssimu2_matrix_names},
  {"dist_range", NULL,
        "sample range of the distorted input when it differs from the "
        "reference's: limited or full (default: range)",
      VH_OPTION_CHOICE, VH_SSIMU2_RANGE_LIMITED, 0, 0, 0, ssimu2_range_names},
  {"dump_rgb", NULL,
        "folder (created) where the R'G'B' fed to the metric is written as "
        "raw 16-bit RGB frames (ref-N.rgb48, dis-N.rgb48)",
      VH_OPTION_STRING, 0, 0, 0, 0},
  {NULL}
};

/* The tuned weights of libjxl's ssimulacra2 (version 2.1): per channel
 * (X, Y, B), scale and norm (1, 4), the SSIM, artifact and detail-loss
 * terms. */
static const gdouble ssimu2_weights[108] = {
  0.0, 0.0007376606707406586, 0.0,
  0.0, 0.0007793481682867309, 0.0,
  0.0, 0.0004371155730107379, 0.0,
  1.1041726426657346, 0.00066284834129271, 0.00015231632783718752,
  0.0, 0.0016406437456599754, 0.0,
  1.8422455520539298, 11.441172603757666, 0.0,
  0.0007989109436015163, 0.000176816438078653, 0.0,
  1.8787594979546387, 10.94906990605142, 0.0,
  0.0007289346991508072, 0.9677937080626833, 0.0,
  0.00014003424285435884, 0.9981766977854967, 0.00031949755934435053,
  0.0004550992113792063, 0.0, 0.0,
  0.0013648766163243398, 0.0, 0.0,
  0.0, 0.0, 0.0,
  7.466890328078848, 0.0, 17.445833984131262,
  0.0006235601634041466, 0.0, 0.0,
  6.683678146179332, 0.00037724407979611296, 1.027889937768264,
  225.20515300849274, 0.0, 0.0,
  19.213238186143016, 0.0011401524586618361, 0.001237755635509985,
  176.39317598450694, 0.0, 0.0,
  24.43300999870476, 0.28520802612117757, 0.0004485436923833408,
  0.0, 0.0, 0.0,
  34.77906344483772, 44.835625328877896, 0.0,
  0.0, 0.0, 0.0,
  0.0, 0.0, 0.0,
  0.0, 0.0008680556573291698, 0.0,
  0.0, 0.0, 0.0,
  0.0, 0.0005313191874358747, 0.0,
  0.00016533814161379112, 0.0, 0.0,
  0.0, 0.0, 0.0,
  0.0004179171803251336, 0.0017290828234722833, 0.0,
  0.0020827005846636437, 0.0, 0.0,
  8.826982764996862, 23.19243343998926, 0.0,
  95.1080498811086, 0.9863978034400682, 0.9834382792465353,
  0.0012286405048278493, 171.2667255897307, 0.9807858872435379,
  0.0, 0.0, 0.0,
  0.0005130064588990679, 0.0, 0.00010854057858411537,
};

static void
ssimu2_yuv_setup (VhSsimu2Yuv * yuv, VhSsimu2Matrix matrix,
    VhSsimu2Range range, const VhPictureInfo * info)
{
  static const gdouble kr[] = { 0.299, 0.2126, 0.2627 };
  static const gdouble kb[] = { 0.114, 0.0722, 0.0593 };
  const gdouble r = kr[matrix], b = kb[matrix], g = 1.0 - r - b;
  const gdouble unit = (gdouble) (1u << (info->bpc - 8));

  if (range == VH_SSIMU2_RANGE_FULL) {
    const gdouble max = (gdouble) ((1u << info->bpc) - 1);
    yuv->y_offset = 0.0f;
    yuv->y_scale = (gfloat) (1.0 / max);
    yuv->c_offset = (gfloat) (1u << (info->bpc - 1));
    yuv->c_scale = (gfloat) (1.0 / max);
  } else {
    yuv->y_offset = (gfloat) (16.0 * unit);
    yuv->y_scale = (gfloat) (1.0 / (219.0 * unit));
    yuv->c_offset = (gfloat) (128.0 * unit);
    yuv->c_scale = (gfloat) (1.0 / (224.0 * unit));
  }
  yuv->cr_r = (gfloat) (2.0 * (1.0 - r));
  yuv->cb_b = (gfloat) (2.0 * (1.0 - b));
  yuv->cb_g = (gfloat) (2.0 * b * (1.0 - b) / g);
  yuv->cr_g = (gfloat) (2.0 * r * (1.0 - r) / g);
  yuv->grey = info->pix_fmt == VH_PIX_FMT_YUV400;
  vh_pix_fmt_subsampling (info->pix_fmt, &yuv->ssx, &yuv->ssy);
}

/* Charalampidis' recursive approximation of a Gaussian (2016), as libjxl
 * parametrises it: three poles, radius round(3.2795 sigma + 0.2546). */
static void
ssimu2_gauss_setup (VhSsimu2Gauss * g, gdouble sigma)
{
  const gdouble radius = roundf ((gfloat) (3.2795 * sigma + 0.2546));
  const gdouble w1 = G_PI / (2.0 * radius);
  const gdouble omega[3] = { w1, 3.0 * w1, 5.0 * w1 };
  gdouble p[3], rr[3], rho[3], beta[3], a[9], gam[3], det;

  for (guint i = 0; i < 3; i++) {
    const gdouble sign = i == 1 ? -1.0 : 1.0;
    p[i] = sign / tan (0.5 * omega[i]);
    rr[i] = sign * p[i] * p[i] / sin (omega[i]);
    rho[i] = exp (-0.5 * sigma * sigma * omega[i] * omega[i]) / radius;
  }
  {
    const gdouble d13 = p[0] * rr[1] - rr[0] * p[1];
    const gdouble d35 = p[1] * rr[2] - rr[1] * p[2];
    const gdouble d51 = p[2] * rr[0] - rr[2] * p[0];
    const gdouble z15 = d35 / d13, z35 = d51 / d13;

    for (guint i = 0; i < 3; i++) {
      a[i] = p[i];
      a[3 + i] = rr[i];
    }
    a[6] = z15;
    a[7] = z35;
    a[8] = 1.0;
    gam[0] = 1.0;
    gam[1] = radius * radius - sigma * sigma;
    gam[2] = z15 * rho[0] + z35 * rho[1] + rho[2];
  }
  /* beta = A^-1 gamma, by Cramer's rule. */
  det = a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] -
      a[5] * a[6]) + a[2] * (a[3] * a[7] - a[4] * a[6]);
  for (guint i = 0; i < 3; i++) {
    gdouble m[9];

    for (guint k = 0; k < 9; k++)
      m[k] = (k % 3 == i) ? gam[k / 3] : a[k];
    beta[i] = (m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] -
            m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])) / det;
  }
  g->radius = (gint) radius;
  for (guint i = 0; i < 3; i++) {
    const gdouble n2 = -beta[i] * cos (omega[i] * (radius + 1.0));
    const gdouble d1 = -2.0 * cos (omega[i]);
    const gdouble d2 = d1 * d1;

    g->n2[i] = (gfloat) n2;
    g->d1[i] = (gfloat) d1;
    /* o[n] = n2 i[n] - d1 o[n-1] - o[n-2], expanded for n .. n + 3 in
     * terms of the inputs and of o[n-1], o[n-2]. */
    g->mul_prev[i][0] = (gfloat) (-d1);
    g->mul_prev[i][1] = (gfloat) (d2 - 1.0);
    g->mul_prev[i][2] = (gfloat) (-d2 * d1 + 2.0 * d1);
    g->mul_prev[i][3] = (gfloat) (d2 * d2 - 3.0 * d2 + 1.0);
    g->mul_prev2[i][0] = -1.0f;
    g->mul_prev2[i][1] = (gfloat) d1;
    g->mul_prev2[i][2] = (gfloat) (-d2 + 1.0);
    g->mul_prev2[i][3] = (gfloat) (d2 * d1 - 2.0 * d1);
    g->mul_in[i][0] = (gfloat) n2;
    g->mul_in[i][1] = (gfloat) (-d1 * n2);
    g->mul_in[i][2] = (gfloat) (d2 * n2 - n2);
    g->mul_in[i][3] = (gfloat) (-d2 * d1 * n2 + 2.0 * d1 * n2);
  }
}

/* The sRGB EOTF as libjxl applies it to PNG input without colour tags:
 * linear below 0.04045, above it libjxl's rational fit (degree 4 over 4,
 * Horner's scheme with fused steps, its coefficients), which departs
 * from pow () by up to 8e-6 of the value, enough to move scores by 1e-3. */
static gfloat
ssimu2_srgb_to_linear (gfloat x)
{
  static const gfloat p[5] = { 2.200248328e-04f, 1.043637593e-02f,
    1.624820318e-01f, 7.961564959e-01f, 8.210152774e-01f
  };
  static const gfloat q[5] = { 2.631846970e-01f, 1.076976492e+00f,
    4.987528350e-01f, -5.512498495e-02f, 6.521209011e-03f
  };
  gfloat yp = p[4], yq = q[4];

  if (!(x > 0.04045f))
    return x * (1.0f / 12.92f);
  for (gint i = 3; i >= 0; i--) {
    yp = fmaf (yp, x, p[i]);
    yq = fmaf (yq, x, q[i]);
  }
  return yp / yq;
}

static gfloat *
ssimu2_linear_table (void)
{
  gfloat *t = g_new (gfloat, 65536);

  for (guint i = 0; i < 65536; i++)
    t[i] = ssimu2_srgb_to_linear ((gfloat) i * (1.0f / 65535.0f));
  return t;
}

/* The matrix and range of each input [ref, dist]: the distorted's
 * dist_matrix and dist_range where given, else the reference's. */
static void
ssimu2_colorimetry (const VhFeatureExtractor * fex,
    VhSsimu2Matrix matrix[2], VhSsimu2Range range[2])
{
  matrix[0] = (VhSsimu2Matrix) vh_feature_extractor_get_option (fex,
      "matrix");
  range[0] = (VhSsimu2Range) vh_feature_extractor_get_option (fex, "range");
  matrix[1] = vh_feature_extractor_option_is_set (fex, "dist_matrix") ?
      (VhSsimu2Matrix) vh_feature_extractor_get_option (fex, "dist_matrix") :
      matrix[0];
  range[1] = vh_feature_extractor_option_is_set (fex, "dist_range") ?
      (VhSsimu2Range) vh_feature_extractor_get_option (fex, "dist_range") :
      range[0];
}

gboolean
vh_ssimu2_setup (VhSsimu2 * s, const VhFeatureExtractor * fex,
    const VhPictureInfo * info, GError ** error)
{
  /* libjxl's opsin absorbance matrix and bias. */
  static const gfloat m02 = 0.078f, m00 = 0.30f, m12 = 0.078f, m10 = 0.23f;
  static const gfloat m20 = 0.24342268924547819f, m21 = 0.20476744424496821f;
  VhSsimu2Matrix matrix[2];
  VhSsimu2Range range[2];

  if (info->bpc < 8 || info->bpc > 16) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "ssimulacra2: unsupported bit depth %u (8 to 16)", info->bpc);
    return FALSE;
  }
  if (info->width < VH_SSIMU2_MIN_SIZE || info->height < VH_SSIMU2_MIN_SIZE) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "ssimulacra2: %ux%u is below the metric's minimum size of %ux%u",
        info->width, info->height, VH_SSIMU2_MIN_SIZE, VH_SSIMU2_MIN_SIZE);
    return FALSE;
  }
  ssimu2_colorimetry (fex, matrix, range);
  for (guint i = 0; i < 2; i++)
    ssimu2_yuv_setup (&s->yuv[i], matrix[i], range[i], info);
  ssimu2_gauss_setup (&s->gauss, 1.5);
  s->to_linear = ssimu2_linear_table ();
  s->mix[0] = m00;
  s->mix[1] = 1.0f - m02 - m00;
  s->mix[2] = m02;
  s->mix[3] = m10;
  s->mix[4] = 1.0f - m12 - m10;
  s->mix[5] = m12;
  s->mix[6] = m20;
  s->mix[7] = m21;
  s->mix[8] = 1.0f - m20 - m21;
  s->bias = 0.0037930732552754493f;
  s->neg_bias_cbrt = -cbrtf (s->bias);
  return TRUE;
}

void
vh_ssimu2_clear (VhSsimu2 * s)
{
  g_clear_pointer (&s->to_linear, g_free);
}

guint
vh_ssimu2_n_scales (guint width, guint height)
{
  guint n = 1;

  while (n < VH_SSIMU2_N_SCALES && width >= VH_SSIMU2_MIN_SIZE
      && height >= VH_SSIMU2_MIN_SIZE) {
    guint w, h;

    vh_ssimu2_scale_size (width, height, n - 1, &w, &h);
    if (w < VH_SSIMU2_MIN_SIZE || h < VH_SSIMU2_MIN_SIZE)
      break;
    n++;
  }
  return n;
}

void
vh_ssimu2_scale_size (guint width, guint height, guint scale, guint * sw,
    guint * sh)
{
  for (guint i = 0; i < scale; i++) {
    width = (width + 1) / 2;
    height = (height + 1) / 2;
  }
  *sw = width;
  *sh = height;
}

static gdouble
ssimu2_root4 (gdouble x)
{
  return sqrt (sqrt (x));
}

gdouble
vh_ssimu2_score (const gdouble * sums, guint n_scales, guint width,
    guint height)
{
  gdouble norms[VH_SSIMU2_N_SCALES][VH_SSIMU2_SUMS_PER_SCALE];
  gdouble ssim = 0.0;
  guint i = 0;

  for (guint s = 0; s < n_scales; s++) {
    guint w, h;
    gdouble per_pixel;

    vh_ssimu2_scale_size (width, height, s, &w, &h);
    per_pixel = 1.0 / (gdouble) ((gsize) w * h);
    for (guint k = 0; k < VH_SSIMU2_SUMS_PER_SCALE; k += 2) {
      norms[s][k] = per_pixel * sums[s * VH_SSIMU2_SUMS_PER_SCALE + k];
      norms[s][k + 1] = ssimu2_root4 (per_pixel *
          sums[s * VH_SSIMU2_SUMS_PER_SCALE + k + 1]);
    }
  }
  /* libjxl walks the weights in one run whatever the number of scales,
   * so a small frame's later channels take other scales' weights. */
  for (guint c = 0; c < 3; c++) {
    for (guint s = 0; s < n_scales; s++) {
      const gdouble *n = norms[s] + c * VH_SSIMU2_SUMS_PER_CHANNEL;

      for (guint p = 0; p < 2; p++) {
        ssim += ssimu2_weights[i++] * fabs (n[p]);
        ssim += ssimu2_weights[i++] * fabs (n[2 + p]);
        ssim += ssimu2_weights[i++] * fabs (n[4 + p]);
      }
    }
  }
  ssim *= 0.9562382616834844;
  ssim = 2.326765642916932 * ssim - 0.020884521182843837 * ssim * ssim +
      6.248496625763138e-05 * ssim * ssim * ssim;
  if (ssim > 0)
    return 100.0 - 10.0 * pow (ssim, 0.6276336467831387);
  return 100.0;
}
