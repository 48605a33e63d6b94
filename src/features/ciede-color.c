/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* CIEDE2000's colour arithmetic. libvmaf mixes single and double
 * precision step by step (float results of double expressions); every
 * step here has the same types and the same libm calls, in the same form,
 * so the compiler folds and rounds them alike and the values are equal. */

#include "ciede-private.h"

#include <math.h>

typedef struct
{
  gfloat l, a, b;
} CiedeLab;

/* sRGB's transfer function, inverted (libvmaf's knee: 10 / 255). */
static gdouble
ciede_linearise (gdouble c)
{
  if (c > 10. / 255.)
    return pow ((c + 0.055) * (1.0 / 1.055), 2.4);
  return c * (1.0 / 12.92);
}

/* CIELAB's f(t): a cube root above (6/29)^3, a line below. */
static gfloat
ciede_lab_f (gdouble t)
{
  if (t > 216.0 / 24389.0)
    return pow (t, 1.0 / 3.0);
  return ((24389.0 / 27.0) * t + 16.0) * (1.0 / 116.0);
}

/* Limited-range BT.709 Y'CbCr to CIELAB (D65). */
static CiedeLab
ciede_to_lab (gdouble y, gdouble u, gdouble v, guint bpc)
{
  const gdouble scale = 1 << (bpc - 8);
  gdouble r, g, b, lx, ly, lz;
  CiedeLab lab;

  y = (y - 16. * scale) * (1. / (219. * scale));
  u = (u - 128. * scale) * (1. / (224. * scale));
  v = (v - 128. * scale) * (1. / (224. * scale));

  r = ciede_linearise (y + 1.28033 * v);
  g = ciede_linearise (y - 0.21482 * u - 0.38059 * v);
  b = ciede_linearise (y + 2.12798 * u);

  lx = ciede_lab_f ((r * 0.4124564390896921 + g * 0.357576077643909 +
          b * 0.18043748326639894) * (1.0 / 0.95047));
  ly = ciede_lab_f (r * 0.21267285140562248 + g * 0.715152155287818 +
      b * 0.07217499330655958);
  lz = ciede_lab_f ((r * 0.019333895582329317 + g * 0.119192025881303 +
          b * 0.9503040785363677) * (1.0 / 1.08883));

  lab.l = (116.0 * ly) - 16.0;
  lab.a = 500.0 * (lx - ly);
  lab.b = 200.0 * (ly - lz);
  return lab;
}

/* Hue angle in [0, 2 pi), 0 for a neutral colour. */
static gfloat
ciede_hue (const gfloat b, const gfloat a)
{
  gfloat h;

  if ((b == 0.0) && (a == 0.0))
    return 0.0;
  h = atan2 (b, a);
  if (h < 0.0)
    h += 2. * M_PI;
  return h;
}

/* Hue difference h2 - h1 taken the short way round. */
static gfloat
ciede_hue_delta (const gfloat c1, const gfloat c2, const gfloat h1,
    const gfloat h2)
{
  if ((c1 == 0.0) || (c2 == 0.0))
    return 0.0;
  if (fabsf (h1 - h2) <= M_PI)
    return h2 - h1;
  if (h2 <= h1)
    return h2 - h1 + 2. * M_PI;
  return h2 - h1 - 2. * M_PI;
}

static gfloat
ciede_hue_mean (const gfloat h1, const gfloat h2)
{
  return fabs ((h1 - h2)) > M_PI ? (h1 + h2 + 2.0 * M_PI) / 2.0 :
      (h1 + h2) / 2.0;
}

static gfloat
ciede_hue_weight (const gfloat hm)
{
  return 1.0 - 0.17 * cos (hm - M_PI / 6.0) + 0.24 * cos (2.0 * hm) +
      0.32 * cos (3.0 * hm + M_PI / 30.0) -
      0.20 * cos (4.0 * hm - 7.0 * M_PI / 20.0);
}

static gfloat
ciede_to_degrees (const gfloat radians)
{
  return radians * (180.0 / M_PI);
}

static gfloat
ciede_to_radians (const gfloat degrees)
{
  return degrees * (M_PI / 180.0);
}

/* The rotation term R_T (blue region correction). */
static gfloat
ciede_rotation (const gfloat c_mean, const gfloat hm)
{
  const gfloat d = (ciede_to_degrees (hm) - 275.0) * (1.0 / 25.0);

  const gfloat c_mean7 = powf (c_mean, 7);

  return -2.0 * sqrt (c_mean7 / (c_mean7 + powf (25., 7))) *
      sin (ciede_to_radians (60.0 * exp (-(powf (d, 2)))));
}

/* CIEDE2000 from @p to @q with kL = 0.65, kC = 1, kH = 4. */
static gfloat
ciede2000 (CiedeLab p, CiedeLab q)
{
  const gfloat k_l = 0.65, k_c = 1.0, k_h = 4.0;
  const gfloat dl = q.l - p.l;
  const gfloat l_mean = (p.l + q.l) / 2;
  const gfloat c1 = sqrt (pow (p.a, 2) + pow (p.b, 2));
  const gfloat c2 = sqrt (pow (q.a, 2) + pow (q.b, 2));
  const gfloat c_mean = (c1 + c2) / 2;
  /* a' = a (1 + G); libvmaf computes G (and C^7) afresh each time, which
   * gives the same value, so once here. */
  const gdouble c_mean7 = pow (c_mean, 7);
  const gdouble g = 1 - sqrt (c_mean7 / (c_mean7 + pow (25, 7)));
  const gfloat a1 = p.a + (p.a / 2) * g;
  const gfloat a2 = q.a + (q.a / 2) * g;
  const gfloat cp1 = sqrt (pow (a1, 2) + pow (p.b, 2));
  const gfloat cp2 = sqrt (pow (a2, 2) + pow (q.b, 2));
  const gfloat cp_mean = (cp1 + cp2) / 2;
  const gfloat dc = cp2 - cp1;
  const gfloat s_l = 1. + ((0.015 * pow (l_mean - 50, 2)) /
      sqrt (20 + pow (l_mean - 50, 2)));
  const gfloat s_c = 1. + 0.045 * cp_mean;
  const gfloat h1 = ciede_hue (p.b, a1);
  const gfloat h2 = ciede_hue (q.b, a2);
  const gfloat dh = ciede_hue_delta (c1, c2, h1, h2);
  const gfloat d_hue = 2.0 * sqrt (cp1 * cp2) * sin (dh / 2.0);
  const gfloat h_mean = ciede_hue_mean (h1, h2);
  const gfloat t = ciede_hue_weight (h_mean);
  const gfloat s_h = 1.0 + 0.015 * cp_mean * t;
  const gfloat r_t = ciede_rotation (cp_mean, h_mean);
  const gfloat lightness = dl / (k_l * s_l);
  const gfloat chroma = dc / (k_c * s_c);
  const gfloat hue = d_hue / (k_h * s_h);

  return sqrt (pow (lightness, 2) + pow (chroma, 2) + pow (hue, 2) +
      r_t * chroma * hue);
}

/* CIELAB of recently seen colours, direct mapped: video repeats colours
 * within and across frames, and the conversion (six pow calls) is half of
 * a pixel's work. */
#define CIEDE_CACHE_BITS 14
#define CIEDE_CACHE_EMPTY G_MAXUINT64

struct _VhCiedeLabCache
{
  guint bpc;
  struct
  {
    guint64 key;
    CiedeLab lab;
  } entry[1 << CIEDE_CACHE_BITS];
};

VhCiedeLabCache *
vh_ciede_lab_cache_new (guint bpc)
{
  VhCiedeLabCache *c = g_new (VhCiedeLabCache, 1);

  c->bpc = bpc;
  for (guint i = 0; i < G_N_ELEMENTS (c->entry); i++)
    c->entry[i].key = CIEDE_CACHE_EMPTY;
  return c;
}

void
vh_ciede_lab_cache_free (VhCiedeLabCache * c)
{
  g_free (c);
}

static inline CiedeLab
ciede_lab_cached (VhCiedeLabCache * c, gfloat y, gfloat u, gfloat v)
{
  const guint64 key = ((guint64) y << 32) | ((guint64) u << 16) | (guint64) v;
  const guint slot = (key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >>
      (64 - CIEDE_CACHE_BITS);

  if (c->entry[slot].key != key) {
    c->entry[slot].key = key;
    c->entry[slot].lab = ciede_to_lab (y, u, v, c->bpc);
  }
  return c->entry[slot].lab;
}

/* Every step is a pure function of the samples, so work is skipped where
 * its result is known: a pixel equal in both pictures differs by exactly
 * 0 (adding nothing), a colour seen before has its CIELAB already, and a
 * pixel like its left neighbour in both pictures has its difference. */
gdouble
vh_ciede_row_sum (VhCiedeLabCache * cache, gfloat * const *rows,
    guint width)
{
  gdouble sum = 0;
  CiedeLab p = { 0 }, q = { 0 };
  gfloat pk[3] = { -1, -1, -1 }, qk[3] = { -1, -1, -1 };
  gfloat de = 0;
  gboolean de_known = FALSE;

  for (guint x = 0; x < width; x++) {
    const gfloat ry = rows[0][x], ru = rows[1][x], rv = rows[2][x];
    const gfloat dy = rows[3][x], du = rows[4][x], dv = rows[5][x];

    if (ry == dy && ru == du && rv == dv)
      continue;
    if (ry != pk[0] || ru != pk[1] || rv != pk[2]) {
      p = ciede_lab_cached (cache, ry, ru, rv);
      pk[0] = ry;
      pk[1] = ru;
      pk[2] = rv;
      de_known = FALSE;
    }
    if (dy != qk[0] || du != qk[1] || dv != qk[2]) {
      q = ciede_lab_cached (cache, dy, du, dv);
      qk[0] = dy;
      qk[1] = du;
      qk[2] = dv;
      de_known = FALSE;
    }
    if (!de_known) {
      de = ciede2000 (p, q);
      de_known = TRUE;
    }
    sum += de;
  }
  return sum;
}
