/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* CAMBI's visibility tables: for each luma step size, the brightest 10-bit
 * code value at which that step is still a visible band (threshold versus
 * intensity), from the BT.1886 or PQ EOTF over the limited range. */

#include "cambi-private.h"

#include <math.h>

/* Limited-range 10-bit luma. */
#define LUMA_FOOT 64
#define LUMA_HEAD 940
#define LUMA_MAX 1023

/* Perceived strength of a band of contrast d + 1. */
static const gint contrast_weights[VH_CAMBI_MAX_DIFFS] = {
  1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
  8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
};

static gdouble
eotf_bt1886 (gdouble v)
{
  /* Display white 300 cd/m2, black 0.01 cd/m2, gamma 2.4. */
  const gdouble gamma = 2.4, white = 300.0, black = 0.01;
  gdouble span = pow (white, 1.0 / gamma) - pow (black, 1.0 / gamma);
  gdouble a = pow (span, gamma);
  gdouble b = pow (black, 1.0 / gamma) / span;

  return a * pow (MAX (v + b, 0.0), gamma);
}

static gdouble
eotf_pq (gdouble v)
{
  /* SMPTE ST 2084. */
  const gdouble m1 = 0.1593017578125, m2 = 78.84375;
  const gdouble c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875;
  gdouble p = pow (v, 1.0 / m2);
  gdouble num = MAX (p - c1, 0.0);

  return 10000.0 * pow (num / (c2 - c3 * p), 1.0 / m1);
}

static gdouble
luminance (gint sample, VhCambiEotf eotf)
{
  gint s = CLAMP (sample, LUMA_FOOT, LUMA_HEAD);
  gdouble v = (gdouble) (s - LUMA_FOOT) / (LUMA_HEAD - LUMA_FOOT);

  return eotf == VH_CAMBI_EOTF_PQ ? eotf_pq (v) : eotf_bt1886 (v);
}

/* Is a step of @diff above @sample brighter than the threshold? */
static gboolean
step_visible (gint sample, gint diff, gdouble threshold, VhCambiEotf eotf)
{
  gdouble base = luminance (sample, eotf);

  return luminance (sample + diff, eotf) - base > threshold * base;
}

typedef enum
{
  SEARCH_LOWER,                 /* the answer is above this sample */
  SEARCH_FOUND,
  SEARCH_HIGHER,                /* the answer is below this sample */
} SearchResult;

static SearchResult
probe (gint sample, gint diff, gdouble threshold, VhCambiEotf eotf)
{
  if (!step_visible (sample, diff, threshold, eotf))
    return SEARCH_HIGHER;
  if (step_visible (sample + 1, diff, threshold, eotf))
    return SEARCH_LOWER;
  return SEARCH_FOUND;
}

/* The last sample at which a step of @diff is visible: a bisection, with
 * libvmaf's special answers at both ends of the range. */
static gint
tvi_for_diff (gint diff, gdouble threshold, VhCambiEotf eotf)
{
  gint lo = LUMA_FOOT, hi = LUMA_HEAD - diff - 1;
  SearchResult r;

  r = probe (lo, diff, threshold, eotf);
  if (r == SEARCH_HIGHER)
    return 0;
  if (r == SEARCH_FOUND)
    return lo;
  r = probe (hi, diff, threshold, eotf);
  if (r == SEARCH_LOWER)
    return LUMA_MAX;
  if (r == SEARCH_FOUND)
    return hi;
  /* The visibility test is monotonic, so the bracket always shrinks; the
   * bound only guards against a pathological EOTF. */
  while (hi - lo > 1) {
    gint mid = lo + (hi - lo) / 2;

    r = probe (mid, diff, threshold, eotf);
    if (r == SEARCH_FOUND)
      return mid;
    if (r == SEARCH_HIGHER)
      hi = mid;
    else
      lo = mid;
  }
  return lo;
}

/* Smallest sample at least as bright as @threshold, 0 when the darkest
 * code value already is. Stops at the top of the range, where libvmaf
 * would never return. */
static guint16
vis_lum_luma (gdouble threshold, VhCambiEotf eotf)
{
  gint s = LUMA_FOOT;

  while (s < LUMA_HEAD && luminance (s, eotf) < threshold)
    s++;
  return s == LUMA_FOOT ? 0 : s;
}

void
vh_cambi_contrast_init (VhCambiContrast * c, guint max_log_contrast,
    gdouble tvi_threshold, gdouble vis_lum_threshold, VhCambiEotf eotf)
{
  gint lowest;

  c->num_diffs = 1u << max_log_contrast;
  for (guint d = 0; d < c->num_diffs; d++) {
    c->weight[d] = contrast_weights[d];
    c->tvi[d] = tvi_for_diff (d + 1, tvi_threshold, eotf) + c->num_diffs;
  }
  c->vlt_luma = vis_lum_luma (vis_lum_threshold, eotf);

  /* Any pixel a c value can depend on lies in this band. */
  lowest = (gint) c->vlt_luma - 3 * (gint) c->num_diffs + 1;
  c->band_base = MAX (lowest, 0);
  if (c->tvi[c->num_diffs - 1] >= c->band_base)
    c->band_size = c->tvi[c->num_diffs - 1] + 1 - c->band_base;
  else
    c->band_size = 0;           /* nothing can be visible: every c value is 0 */

  /* Visible steps and above the floor; libvmaf compares v + num_diffs with
   * both thresholds. */
  for (guint row = 0; row < c->band_size; row++) {
    guint v = row + c->band_base, nd = c->num_diffs;

    c->steps[row] = 0;
    for (guint d = 0; d < nd; d++) {
      if (v + nd <= c->tvi[d] && v + nd + d + 1 > c->vlt_luma)
        c->steps[row] |= 1u << d;
    }
  }
}

static gfloat reciprocals[VH_CAMBI_RECIPROCALS];

static gpointer
fill_reciprocals (gpointer data)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* libvmaf's table holds 1 / i written with 9 significant digits, which is
   * not always the nearest float to 1 / i: rebuild it the same way. */
  reciprocals[0] = 0.0f;
  for (guint i = 1; i < VH_CAMBI_RECIPROCALS; i++) {
    g_ascii_formatd (buf, sizeof (buf), "%.9g", 1.0 / i);
    reciprocals[i] = (gfloat) g_ascii_strtod (buf, NULL);
  }
  return NULL;
}

const gfloat *
vh_cambi_reciprocals (void)
{
  static GOnce once = G_ONCE_INIT;

  g_once (&once, fill_reciprocals, NULL);
  return reciprocals;
}
