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

guint
vh_float_scale_size (guint n, gdouble scale)
{
  return (guint) (gint) (n * scale + 0.5);
}

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

/* Output row @r / column @c of a sparse request: the listed index, or
 * @r itself for a full one. */
static inline guint
pick (const guint * list, guint i)
{
  return list ? list[i] : i;
}

static void
scale_nearest (const gfloat * src, gsize ss, guint sw, guint sh, gfloat * dst,
    gsize ds, guint dw, guint dh, const guint * rows, guint nr,
    const guint * cols, guint nc)
{
  gfloat rx = (gfloat) sw / dw, ry = (gfloat) sh / dh;

  for (guint r = 0; r < nr; r++) {
    guint y = pick (rows, r);
    gint sy = (gint) (y * ry);
    for (guint c = 0; c < nc; c++) {
      guint x = pick (cols, c);
      dst[y * ds + x] = src[sy * ss + (gint) (x * rx)];
    }
  }
}

static void
scale_bilinear (const gfloat * src, gsize ss, guint sw, guint sh,
    gfloat * dst, gsize ds, guint dw, guint dh, const guint * rows, guint nr,
    const guint * cols, guint nc)
{
  gfloat rx = (gfloat) sw / dw, ry = (gfloat) sh / dh;
  gint *x1 = g_new (gint, MAX (nc, 1)), *x2 = g_new (gint, MAX (nc, 1));
  gfloat *fx = g_new (gfloat, MAX (nc, 1));

  for (guint c = 0; c < nc; c++) {
    gfloat xx = source_pos (pick (cols, c), rx);
    x1[c] = reflect (floor (xx), 0, sw - 1);
    x2[c] = reflect (ceil (xx), 0, sw - 1);
    fx[c] = xx - x1[c];
  }
  for (guint r = 0; r < nr; r++) {
    guint y = pick (rows, r);
    gfloat yy = source_pos (y, ry);
    gint y1 = reflect (floor (yy), 0, sh - 1);
    gint y2 = reflect (ceil (yy), 0, sh - 1);
    gfloat dy = yy - y1;
    const gfloat *r1 = src + (gsize) y1 * ss, *r2 = src + (gsize) y2 * ss;

    for (guint c = 0; c < nc; c++) {
      gfloat dx = fx[c];
      dst[y * ds + pick (cols, c)] = (1 - dy) * (1 - dx) * r1[x1[c]] +
          (1 - dy) * dx * r1[x2[c]] + dy * (1 - dx) * r2[x1[c]] +
          dy * dx * r2[x2[c]];
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
vh_float_scale_lanczos4_weights (guint n_src, guint n_dst, gint * origin,
    gfloat * weights)
{
  const gint a = 4;
  const gfloat ratio = (gfloat) n_src / n_dst;

  /* As lanczos4_at () finds them for one axis. */
  for (guint i = 0; i < n_dst; i++) {
    gfloat pos = source_pos (i, ratio);
    gint p0 = floor (pos);
    gfloat d = pos - p0;

    origin[i] = p0;
    for (gint k = -a; k <= a; k++)
      weights[i * (2 * a + 1) + k + a] = lanczos_weight (k - d, (gfloat) a);
  }
}

void
vh_float_scale_at (VhFloatScaleMethod method, const gfloat * src, guint sw,
    guint sh, gsize ss, gfloat * dst, guint dw, guint dh, gsize ds,
    const guint * rows, guint n_rows, const guint * cols, guint n_cols)
{
  gfloat rx = (gfloat) sw / dw, ry = (gfloat) sh / dh;
  const guint nr = rows ? n_rows : dh, nc = cols ? n_cols : dw;

  if (sw == dw && sh == dh) {
    for (guint r = 0; r < nr; r++) {
      guint y = pick (rows, r);
      if (!cols) {
        memcpy (dst + y * ds, src + y * ss, dw * sizeof (gfloat));
        continue;
      }
      for (guint c = 0; c < nc; c++)
        dst[y * ds + cols[c]] = src[y * ss + cols[c]];
    }
    return;
  }
  switch (method) {
    case VH_FLOAT_SCALE_NEAREST:
      scale_nearest (src, ss, sw, sh, dst, ds, dw, dh, rows, nr, cols, nc);
      break;
    case VH_FLOAT_SCALE_BILINEAR:
      scale_bilinear (src, ss, sw, sh, dst, ds, dw, dh, rows, nr, cols, nc);
      break;
    case VH_FLOAT_SCALE_BICUBIC:
    case VH_FLOAT_SCALE_LANCZOS4:
      for (guint r = 0; r < nr; r++) {
        guint y = pick (rows, r);
        gfloat yy = source_pos (y, ry);
        for (guint c = 0; c < nc; c++) {
          guint x = pick (cols, c);
          gfloat xx = source_pos (x, rx);
          dst[y * ds + x] = method == VH_FLOAT_SCALE_BICUBIC ?
              bicubic_at (src, ss, sw, sh, xx, yy) :
              lanczos4_at (src, ss, sw, sh, xx, yy);
        }
      }
      break;
  }
}

void
vh_float_scale (VhFloatScaleMethod method, const gfloat * src, guint sw,
    guint sh, gsize ss, gfloat * dst, guint dw, guint dh, gsize ds)
{
  vh_float_scale_at (method, src, sw, sh, ss, dst, dw, dh, ds, NULL, 0, NULL,
      0);
}

guint
vh_float_scale_axis (VhFloatScaleMethod method, guint src_n, guint dst_n,
    guint i, gint pos[VH_FLOAT_SCALE_MAX_TAPS],
    gfloat weight[VH_FLOAT_SCALE_MAX_TAPS])
{
  const gfloat ratio = (gfloat) src_n / dst_n;
  const gfloat p = source_pos (i, ratio);
  gint p0;
  gfloat d;

  switch (method) {
    case VH_FLOAT_SCALE_NEAREST:
      pos[0] = (gint) (i * ratio);
      weight[0] = 1;
      return 1;
    case VH_FLOAT_SCALE_BILINEAR:
      pos[0] = reflect (floor (p), 0, src_n - 1);
      pos[1] = reflect (ceil (p), 0, src_n - 1);
      weight[0] = p - pos[0];
      return 2;
    case VH_FLOAT_SCALE_BICUBIC:
      p0 = floor (p);
      d = p - p0;
      for (gint k = -1; k <= 2; k++) {
        pos[k + 1] = reflect (p0 + k, 0, src_n - 1);
        weight[k + 1] = cubic_weight (k - d);
      }
      return 4;
    case VH_FLOAT_SCALE_LANCZOS4:
    default:
      p0 = floor (p);
      d = p - p0;
      for (gint k = -4; k <= 4; k++) {
        pos[k + 4] = reflect (p0 + k, 0, src_n - 1);
        weight[k + 4] = lanczos_weight (k - d, 4.0f);
      }
      return 9;
  }
}
