/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* CAMBI's per-pixel banding strength. For every masked pixel of value v, a
 * window x window histogram of the masked pixels around it says how many
 * share v and how many sit at v +- k for each visible contrast k; a band is
 * a large area of v next to a large area of a nearby level. The histograms
 * of one image row are kept as one row of counts per 10-bit value, and
 * slide down the image one row at a time. */

#include "cambi-private.h"

#include <string.h>

/* Each histogram row has room for window - 1 extra columns: a pixel in
 * column c adds to entries [c, c + window) without clipping, and column j
 * reads entry j + window / 2. The margins collect counts nobody reads. */
static gsize
hist_stride (guint w, guint window)
{
  return ((gsize) w + window + 15) & ~(gsize) 15;
}

gsize
vh_cambi_hist_size (const VhCambiContrast * c, guint w, guint window)
{
  return MAX (c->band_size, 1) * hist_stride (w, window);
}

#define NO_ROW G_MAXUINT

/* Adds (@sign 1) or removes (@sign -1) the pixels of columns [c0, c1], all
 * of one value, to the histogram row @counts. Entry e gains the number of
 * those columns within the window of e: a ramp, a plateau and a ramp, which
 * costs the run length plus the window instead of their product. */
static void
apply_run (guint16 * restrict counts, guint c0, guint c1, guint window,
    gint sign)
{
  guint len = c1 - c0 + 1;
  guint top = MIN (len, window);
  guint flat = MAX (len, window) - top + 1;
  guint16 *e = counts + c0;

  for (guint k = 0; k + 1 < top; k++)
    e[k] += sign * (gint) (k + 1);
  e += top - 1;
  for (guint k = 0; k < flat; k++)
    e[k] += sign * (gint) top;
  e += flat;
  for (guint k = 0; k + 1 < top; k++)
    e[k] += sign * (gint) (top - 1 - k);
}

/* Moves the window down: drops image row @gone and takes in row @come
 * (either may be -1). A column whose leaving and arriving pixels count
 * for the same value needs no change; neighbouring columns that change
 * the same value are applied together. */
static void
slide (const VhCambiPlanes * p, const VhCambiContrast * c, guint w,
    guint window, guint16 * hist, gsize hs, gint gone, gint come)
{
  const guint16 *img_gone = gone >= 0 ? p->image + gone * p->stride : NULL;
  const guint16 *img_come = come >= 0 ? p->image + come * p->stride : NULL;
  const guint8 *msk_gone = gone >= 0 ? p->mask + gone * p->stride : NULL;
  const guint8 *msk_come = come >= 0 ? p->mask + come * p->stride : NULL;
  guint base = c->band_base, size = c->band_size;
  guint run_out = NO_ROW, run_in = NO_ROW, start_out = 0, start_in = 0;

  for (guint col = 0; col <= w; col++) {
    guint out_row = NO_ROW, in_row = NO_ROW;

    if (col < w) {
      if (msk_gone && msk_gone[col] && (guint) (img_gone[col] - base) < size)
        out_row = img_gone[col] - base;
      if (msk_come && msk_come[col] && (guint) (img_come[col] - base) < size)
        in_row = img_come[col] - base;
      if (out_row == in_row)
        out_row = in_row = NO_ROW;
    }
    if (out_row != run_out) {
      if (run_out != NO_ROW)
        apply_run (hist + run_out * hs, start_out, col - 1, window, -1);
      run_out = out_row;
      start_out = col;
    }
    if (in_row != run_in) {
      if (run_in != NO_ROW)
        apply_run (hist + run_in * hs, start_in, col - 1, window, 1);
      run_in = in_row;
      start_in = col;
    }
  }
}

/* The c values of image row @i, from histograms that hold exactly the rows
 * within window / 2 of it. */
static void
row_c_values (const VhCambiPlanes * p, const VhCambiContrast * c, guint w,
    guint i, guint pad, const guint16 * hist, gsize hs, gfloat * out)
{
  const gfloat *recip = vh_cambi_reciprocals ();
  const guint16 *img = p->image + i * p->stride;
  const guint8 *msk = p->mask + i * p->stride;
  guint base = c->band_base, size = c->band_size, nd = c->num_diffs;

  for (guint j = 0; j < w; j++) {
    const guint16 *counts;
    guint v, row, p0;
    gfloat best = 0.0f;

    out[j] = 0.0f;
    if (!msk[j])
      continue;
    v = img[j];
    row = v - base;
    if (row >= size)
      continue;
    counts = hist + j + pad;
    p0 = counts[row * hs];
    for (guint d = 0; d < nd; d++) {
      guint up = row + d + 1;
      gint down = (gint) row - (gint) d - 1;
      guint p1, p2, pm;
      gfloat val;

      /* Only steps that are visible at this level and above the
       * visibility floor (libvmaf compares v + num_diffs there). */
      if (v + nd > c->tvi[d] || v + nd + d + 1 <= c->vlt_luma)
        continue;
      p1 = up < size ? counts[up * hs] : 0;
      p2 = down >= 0 ? counts[down * hs] : 0;
      pm = MAX (p1, p2);
      val = (gfloat) (c->weight[d] * (gint) p0 * (gint) pm) * recip[pm + p0];
      best = MAX (best, val);
    }
    out[j] = best;
  }
}

void
vh_cambi_c_values (const VhCambiPlanes * p, const VhCambiContrast * c,
    guint w, guint h, guint window, guint16 * hist, gfloat * c_values)
{
  gsize hs = hist_stride (w, window);
  guint pad = window / 2;

  if (c->band_size == 0) {
    memset (c_values, 0, sizeof (gfloat) * w * h);
    return;
  }
  memset (hist, 0, sizeof (guint16) * c->band_size * hs);
  for (guint r = 0; r < MIN (pad, h); r++)
    slide (p, c, w, window, hist, hs, -1, r);
  for (guint i = 0; i < h; i++) {
    gint come = i + pad < h ? (gint) (i + pad) : -1;
    gint gone = i > pad ? (gint) (i - pad - 1) : -1;

    slide (p, c, w, window, hist, hs, gone, come);
    row_c_values (p, c, w, i, pad, hist, hs, c_values + (gsize) i * w);
  }
}

static inline void
swap (gfloat * a, gfloat * b)
{
  gfloat t = *a;

  *a = *b;
  *b = t;
}

/* The value that would sit at @k if @a were sorted in decreasing order
 * (Hoare partitioning, median-of-three pivot). */
static gfloat
select_desc (gfloat * a, gssize n, gssize k)
{
  gssize lo = 0, hi = n - 1;

  while (lo < hi) {
    gssize mid = lo + (hi - lo) / 2;
    gfloat x = a[lo], y = a[mid], z = a[hi];
    gfloat pivot = MAX (MIN (x, y), MIN (MAX (x, y), z));
    gssize i = lo, j = hi;

    while (i <= j) {
      while (a[i] > pivot)
        i++;
      while (a[j] < pivot)
        j--;
      if (i <= j) {
        swap (&a[i], &a[j]);
        i++;
        j--;
      }
    }
    if (k <= j)
      hi = j;
    else if (k >= i)
      lo = i;
    else
      return a[k];
  }
  return a[k];
}

gdouble
vh_cambi_topk_mean (gfloat * values, gsize n, gdouble topk)
{
  gsize k = CLAMP ((gint64) (topk * n), 1, (gint64) n);
  gsize m = 0, above = 0;
  gdouble sum = 0.0;
  gfloat t;

  /* c values are never negative, and zeros add nothing to the sum. */
  for (gsize i = 0; i < n; i++) {
    if (values[i] > 0.0f)
      values[m++] = values[i];
  }
  if (m <= k) {
    for (gsize i = 0; i < m; i++)
      sum += values[i];
    return sum / k;
  }
  t = select_desc (values, m, k - 1);
  for (gsize i = 0; i < m; i++) {
    if (values[i] > t) {
      sum += values[i];
      above++;
    }
  }
  sum += (gdouble) (k - above) * t;
  return sum / k;
}
