/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Plane resampling (see float-scale.h). The arithmetic is scalar on
 * purpose: each expression keeps libvmaf's types and order, so the values
 * round as its do. */

#include "float-scale.h"

#include <math.h>
#include <string.h>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

const gchar *const vh_float_scale_method_names[] = {
  "nearest", "bilinear", "bicubic", "lanczos4", NULL
};

/* Reflects a position outside [lo, hi] back inside, in float as libvmaf. */
static gfloat
reflect (gfloat i, gfloat lo, gfloat hi)
{
  return i < lo ? -i : i > hi ? 2 * hi - i : i;
}

/* Source position of destination sample @i's centre. */
static gfloat
source_pos (gint i, gfloat ratio)
{
  return (i + 0.5) * ratio - 0.5;
}

static void
scale_nearest (const gfloat * src, gsize ss, guint sw, guint sh, gfloat * dst,
    gsize ds, guint dw, guint dh)
{
  gfloat rx = (gfloat) sw / dw, ry = (gfloat) sh / dh;

  for (guint y = 0; y < dh; y++) {
    gint sy = (gint) (y * ry);
    for (guint x = 0; x < dw; x++)
      dst[y * ds + x] = src[sy * ss + (gint) (x * rx)];
  }
}

static void
scale_bilinear (const gfloat * src, gsize ss, guint sw, guint sh,
    gfloat * dst, gsize ds, guint dw, guint dh)
{
  gfloat rx = (gfloat) sw / dw, ry = (gfloat) sh / dh;
  gint *x1 = g_new (gint, dw), *x2 = g_new (gint, dw);
  gfloat *fx = g_new (gfloat, dw);

  for (guint x = 0; x < dw; x++) {
    gfloat xx = source_pos (x, rx);
    x1[x] = reflect (floor (xx), 0, sw - 1);
    x2[x] = reflect (ceil (xx), 0, sw - 1);
    fx[x] = xx - x1[x];
  }
  for (guint y = 0; y < dh; y++) {
    gfloat yy = source_pos (y, ry);
    gint y1 = reflect (floor (yy), 0, sh - 1);
    gint y2 = reflect (ceil (yy), 0, sh - 1);
    gfloat dy = yy - y1;
    const gfloat *r1 = src + (gsize) y1 * ss, *r2 = src + (gsize) y2 * ss;

    for (guint x = 0; x < dw; x++) {
      gfloat dx = fx[x];
      dst[y * ds + x] = (1 - dy) * (1 - dx) * r1[x1[x]] +
          (1 - dy) * dx * r1[x2[x]] + dy * (1 - dx) * r2[x1[x]] +
          dy * dx * r2[x2[x]];
    }
  }
  g_free (x1);
  g_free (x2);
  g_free (fx);
}

/* Keys' cubic with a = -0.75. */
static gfloat
cubic_weight (gfloat t)
{
  const gfloat a = -0.75;

  if (t < 0)
    t = -t;
  if (t < 1)
    return ((a + 2) * t - (a + 3)) * t * t + 1;
  if (t < 2)
    return (((t - 5) * t + 8) * t - 4) * a;
  return 0;
}

static gfloat
bicubic_at (const gfloat * src, gsize ss, guint sw, guint sh, gfloat x,
    gfloat y)
{
  gint x0 = floor (x), y0 = floor (y);
  gfloat dx = x - x0, dy = y - y0;
  gfloat wx[4], wy[4], v = 0.0;

  for (gint i = -1; i <= 2; i++) {
    wx[i + 1] = cubic_weight (i - dx);
    wy[i + 1] = cubic_weight (i - dy);
  }
  for (gint j = -1; j <= 2; j++) {
    for (gint i = -1; i <= 2; i++) {
      gint xi = reflect (x0 + i, 0, sw - 1);
      gint yi = reflect (y0 + j, 0, sh - 1);
      gfloat w = wx[i + 1] * wy[j + 1];
      v += src[yi * ss + xi] * w;
    }
  }
  return v;
}

static gfloat
lanczos_weight (gfloat x, gfloat a)
{
  if (x == 0.0)
    return 1.0;
  if (x > -a && x < a)
    return a * sin (G_PI * x) * sin (G_PI * x / a) / (G_PI * G_PI * x * x);
  return 0.0;
}

static gfloat
lanczos4_at (const gfloat * src, gsize ss, guint sw, guint sh, gfloat x,
    gfloat y)
{
  const gint a = 4;
  gint x0 = floor (x), y0 = floor (y);
  gfloat dx = x - x0, dy = y - y0;
  gfloat wx[9], wy[9], v = 0.0, wsum = 0.0;

  for (gint i = -a; i <= a; i++) {
    wx[i + a] = lanczos_weight (i - dx, (gfloat) a);
    wy[i + a] = lanczos_weight (i - dy, (gfloat) a);
  }
  for (gint iy = -a; iy <= a; iy++) {
    for (gint ix = -a; ix <= a; ix++) {
      gfloat w = wx[ix + a] * wy[iy + a];
      gint xi = reflect (x0 + ix, 0, sw - 1);
      gint yi = reflect (y0 + iy, 0, sh - 1);
      wsum += w;
      v += src[yi * ss + xi] * w;
    }
  }
  return v / wsum;
}

void
vh_float_scale (VhFloatScaleMethod method, const gfloat * src, guint sw,
    guint sh, gsize ss, gfloat * dst, guint dw, guint dh, gsize ds)
{
  gfloat rx = (gfloat) sw / dw, ry = (gfloat) sh / dh;

  if (sw == dw && sh == dh) {
    for (guint y = 0; y < dh; y++)
      memcpy (dst + y * ds, src + y * ss, dw * sizeof (gfloat));
    return;
  }
  switch (method) {
    case VH_FLOAT_SCALE_NEAREST:
      scale_nearest (src, ss, sw, sh, dst, ds, dw, dh);
      break;
    case VH_FLOAT_SCALE_BILINEAR:
      scale_bilinear (src, ss, sw, sh, dst, ds, dw, dh);
      break;
    case VH_FLOAT_SCALE_BICUBIC:
    case VH_FLOAT_SCALE_LANCZOS4:
      for (guint y = 0; y < dh; y++) {
        gfloat yy = source_pos (y, ry);
        for (guint x = 0; x < dw; x++) {
          gfloat xx = source_pos (x, rx);
          dst[y * ds + x] = method == VH_FLOAT_SCALE_BICUBIC ?
              bicubic_at (src, ss, sw, sh, xx, yy) :
              lanczos4_at (src, ss, sw, sh, xx, yy);
        }
      }
      break;
  }
}
