/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Band gains of the ADM contrast sensitivity functions. The float/double
 * mix of every expression is deliberate: it reproduces libvmaf's roundings,
 * which the fixed-point gains derived from these values depend on. */

#include "adm-private.h"

#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Watson, Yang, Solomon, Villasenor, "Visibility of wavelet quantization
 * noise", IEEE TIP 6(8), 1997: luma model (eq. 7, table IV, observer sfl)
 * and the 9/7 basis amplitudes (table V) for levels 1-4, orientations
 * "horizontal/vertical" and "diagonal". */
static const gfloat watson_a = 0.495f, watson_k = 0.466f, watson_f0 = 0.401f;
static const gfloat watson_g[2] = { 1.0f, 0.534f };

static const gfloat watson_amplitude[VH_ADM_N_SCALES][2] = {
  {0.67234f, 0.72709f},
  {0.41317f, 0.49428f},
  {0.22727f, 0.28688f},
  {0.11792f, 0.15214f},
};

static gfloat
watson_step (gint scale, gint orient, gdouble view_dist, gint height)
{
  /* Display resolution in pixels per degree of visual angle. */
  gfloat r = view_dist * height * M_PI / 180.0;
  gfloat t = log10 (pow (2.0, scale + 1) * watson_f0 * watson_g[orient] / r);

  return 2.0 * watson_a * pow (10.0, watson_k * t * t) /
      watson_amplitude[scale][orient];
}

/* Barten's CSF in the simplified form of HDR-VDP-2 (Mantiuk et al., ACM
 * TOG 30(4), 2011), parameters of HDR-VDP 2.2.1 at six adaptation
 * luminances. */
static const gfloat barten_lum[6] = { 0.002f, 0.02f, 0.2f, 2.0f, 20.0f,
  150.0f
};

static const gfloat barten_par[6][4] = {
  {0.991265f, 3.74038f, 0.50722f, 4.46044f},
  {0.800889f, 3.54104f, 0.682505f, 4.94958f},
  {0.476505f, 4.37453f, 0.750315f, 5.28678f},
  {0.405782f, 4.40602f, 0.935314f, 5.61425f},
  {0.334278f, 3.79542f, 1.07327f, 6.4635f},
  {0.394533f, 2.7755f, 1.16577f, 7.45665f},
};

static const gfloat barten_sa[4] = { 30.162f, 4.0627f, 1.6596f, 0.2712f };

static const gfloat barten_mtf_a[4] = { 0.424838596301290f,
  0.572435103936480f, 0.000167576239164937f, 0.00255872352306433f
};
static const gfloat barten_mtf_b[4] = { 0.028f, 0.37f, 37.0f, 360.0f };

/* The luminance (cd/m2) the CSF is evaluated at. */
#define BARTEN_LUMINANCE 100.0

static gfloat
lerp (gfloat x0, gfloat y0, gfloat x1, gfloat y1, gfloat x)
{
  return y0 + ((y1 - y0) / (x1 - x0)) * (x - x0);
}

static gfloat
barten_mtf (gfloat freq)
{
  gfloat mtf = 0.0f;

  for (gint i = 0; i < 4; i++)
    mtf = mtf + barten_mtf_a[i] * exp (-barten_mtf_b[i] * freq);
  return mtf;
}

static gfloat
barten_sensitivity (gfloat lum)
{
  return barten_sa[0] * pow (pow (barten_sa[1] / lum, barten_sa[2]) + 1,
      -barten_sa[3]);
}

static gfloat
barten_csf (gint scale, gdouble view_dist, gint height, gdouble gain)
{
  gfloat r = view_dist * height * M_PI / 180.0;
  gfloat freq = r / pow (2, scale + 1);
  gdouble lum = CLAMP (BARTEN_LUMINANCE, (gdouble) barten_lum[0],
      (gdouble) barten_lum[5]);
  gint lo = 0, hi = 0;
  gfloat x0, x1, x, p[4], a, b, csf;

  for (gint i = 0; i < 5; i++) {
    if (lum >= barten_lum[i] && lum <= barten_lum[i + 1]) {
      lo = i;
      hi = i + 1;
      break;
    }
  }
  x0 = log10 (barten_lum[lo]);
  x1 = log10 (barten_lum[hi]);
  x = log10 (lum);
  for (gint i = 0; i < 4; i++)
    p[i] = lerp (x0, barten_par[lo][i], x1, barten_par[hi][i], x);

  a = 1.0f + pow (p[0] * freq, p[1]);
  b = 1.0f / pow (1 - exp (-pow (freq / 7, 2)), p[2]);
  csf = p[3] / pow (a * b, 0.5);

  return csf * barten_mtf (freq) * barten_sensitivity (BARTEN_LUMINANCE) * gain;
}

gfloat
vh_adm_csf_barten (gint scale, gdouble view_dist, gint display_height,
    gdouble gain)
{
  return barten_csf (scale, view_dist, display_height, gain);
}

gfloat
vh_adm_csf_native (gint scale, gdouble view_dist, gint display_height,
    gboolean diagonal)
{
  gfloat r = view_dist * display_height * M_PI / 180.0;
  gfloat freq = r / pow (2, scale + 1);

  /* The eye is less sensitive to diagonal detail. */
  if (diagonal)
    freq /= 0.7;
  return (0.31 + 0.69 * freq) * exp (-0.29 * freq);
}

/* Blends of Barten and Watson fitted per viewing condition: [orientation]
 * [scale] for the legacy fit and for the fit with the L1 scaling fix. */
typedef struct
{
  gint height;
  gdouble view_dist;
  gfloat legacy[2][VH_ADM_N_SCALES];
  gfloat mae[2][VH_ADM_N_SCALES];
} BlendTable;

static const BlendTable blend_tables[] = {
  {1080, 3.0,
        {{0.01183f, 0.025026f, 0.04295f, 0.058621f},
            {0.004302f, 0.011778f, 0.023918f, 0.035901f}},
        {{0.011249f, 0.022606f, 0.035930f, 0.045673f},
          {0.004097f, 0.010921f, 0.021430f, 0.031313f}}},
  {1080, 5.0,
        {{0.004212f, 0.014809f, 0.029642f, 0.047464f},
            {0.000984f, 0.005852f, 0.0146f, 0.027574f}},
        {{0.004052f, 0.013939f, 0.026298f, 0.038833f},
          {0.000927f, 0.005544f, 0.013415f, 0.024515f}}},
  /* 2160 at 1.5 H has the pixels per degree of 1080 at 3 H. */
  {2160, 1.5,
        {{0.01183f, 0.025026f, 0.04295f, 0.058621f},
            {0.004302f, 0.011778f, 0.023918f, 0.035901f}},
        {{0.011249f, 0.022606f, 0.035930f, 0.045673f},
          {0.004097f, 0.010921f, 0.021430f, 0.031313f}}},
  {2160, 3.0,
        {{0.00226f, 0.01183f, 0.025026f, 0.04295f},
            {0.000479f, 0.004302f, 0.011778f, 0.023918f}},
        {{0.002166f, 0.011249f, 0.022606f, 0.035930f},
          {0.000447f, 0.004097f, 0.010921f, 0.021430f}}},
  {2160, 5.0,
        {{0.000092f, 0.004212f, 0.014809f, 0.029642f},
            {0.000050f, 0.000984f, 0.005852f, 0.0146f}},
        {{0.000077f, 0.004052f, 0.013939f, 0.026298f},
          {0.000045f, 0.000927f, 0.005544f, 0.013415f}}},
  {720, 3.0,
        {{0.018715f, 0.035637f, 0.052798f, 0.061509f},
            {0.007999f, 0.018396f, 0.031851f, 0.037718f}},
        {{0.017329f, 0.030870f, 0.042134f, 0.047410f},
          {0.007509f, 0.016707f, 0.028072f, 0.032722f}}},
  {720, 5.0,
        {{0.010144f, 0.022561f, 0.040309f, 0.05672f},
            {0.003463f, 0.010282f, 0.021839f, 0.034641f}},
        {{0.009689f, 0.020577f, 0.034162f, 0.044523f},
          {0.003302f, 0.009579f, 0.019661f, 0.030318f}}},
  {480, 3.0,
        {{0.027961f, 0.045875f, 0.060275f, 0.056234f},
            {0.013572f, 0.026277f, 0.036959f, 0.034511f}},
        {{0.024969f, 0.037825f, 0.046676f, 0.043974f},
          {0.012511f, 0.023424f, 0.032139f, 0.030166f}}},
  {480, 5.0,
        {{0.016781f, 0.032822f, 0.05032f, 0.061594f},
            {0.00691f, 0.016545f, 0.029917f, 0.037777f}},
        {{0.015665f, 0.028766f, 0.040612f, 0.047483f},
          {0.006514f, 0.015107f, 0.026476f, 0.032776f}}},
};

gboolean
vh_adm_csf_factors (const VhAdmCsfParams * p, gint scale, gfloat factor[2])
{
  switch (p->mode) {
    case VH_ADM_CSF_BARTEN:
      factor[0] = barten_csf (scale, p->view_dist, p->display_height,
          p->csf_scale);
      factor[1] = barten_csf (scale, p->view_dist, p->display_height,
          p->csf_diag_scale);
      return TRUE;
    case VH_ADM_CSF_BLEND:
    case VH_ADM_CSF_BLEND_MAE:
      for (guint i = 0; i < G_N_ELEMENTS (blend_tables); i++) {
        const BlendTable *t = &blend_tables[i];
        if (t->height != p->display_height || t->view_dist != p->view_dist)
          continue;
        for (gint o = 0; o < 2; o++)
          factor[o] = p->mode == VH_ADM_CSF_BLEND ? t->legacy[o][scale] :
              t->mae[o][scale];
        return TRUE;
      }
      return FALSE;
    case VH_ADM_CSF_WATSON:
    default:
      for (gint o = 0; o < 2; o++)
        factor[o] = 1.0f / watson_step (scale, o, p->view_dist,
            p->display_height);
      return TRUE;
  }
}
