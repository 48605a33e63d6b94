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

/* The histograms, plus one more row that stays zero (read for values
 * outside the band), plus two rows of per-column events. */
gsize
vh_cambi_c_values_work_size (const VhCambiContrast * c, guint w, guint window)
{
  return (c->band_size + 1) * hist_stride (w, window) + 2 * (gsize) w;
}

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

#define NO_ROW 0xffff

/* Histogram row of each pixel of an image row, NO_ROW for the pixels that
 * are not counted (unmasked, or outside the band). */
static void
counted_rows (const VhCambiPlanes * p, const VhCambiContrast * c, gint i,
    guint w, guint16 * rows)
{
  const guint16 *img;
  const guint8 *msk;
  guint16 base = c->band_base, size = c->band_size;

  if (i < 0) {
    for (guint j = 0; j < w; j++)
      rows[j] = NO_ROW;
    return;
  }
  /* Only now: a row above the image is no pointer to form (UBSan). */
  img = p->image + (gsize) i * p->stride;
  msk = p->mask + (gsize) i * p->stride;
  for (guint j = 0; j < w; j++) {
    guint16 r = img[j] - base;

    rows[j] = msk[j] && r < size ? r : NO_ROW;
  }
}

/* Moves the window down: drops image row @gone and takes in row @come
 * (either may be -1). A column whose leaving and arriving pixels count
 * for the same value needs no change; neighbouring columns that change
 * the same value are applied together. @out and @in: scratch of w. */
static void
slide (const VhCambiPlanes * p, const VhCambiContrast * c, guint w,
    guint window, guint16 * hist, gsize hs, gint gone, gint come,
    guint16 * restrict out, guint16 * restrict in)
{
  guint16 run_out = NO_ROW, run_in = NO_ROW;
  guint start_out = 0, start_in = 0;

  counted_rows (p, c, gone, w, out);
  counted_rows (p, c, come, w, in);
  for (guint col = 0; col < w; col++) {
    guint16 same = out[col] == in[col];

    out[col] = same ? NO_ROW : out[col];
    in[col] = same ? NO_ROW : in[col];
  }

  for (guint col = 0; col < w; col++) {
    if (out[col] == run_out && in[col] == run_in)
      continue;
    if (out[col] != run_out) {
      if (run_out != NO_ROW)
        apply_run (hist + run_out * hs, start_out, col - 1, window, -1);
      run_out = out[col];
      start_out = col;
    }
    if (in[col] != run_in) {
      if (run_in != NO_ROW)
        apply_run (hist + run_in * hs, start_in, col - 1, window, 1);
      run_in = in[col];
      start_in = col;
    }
  }
  if (run_out != NO_ROW)
    apply_run (hist + run_out * hs, start_out, w - 1, window, -1);
  if (run_in != NO_ROW)
    apply_run (hist + run_in * hs, start_in, w - 1, window, 1);
}

static inline gfloat
c_value_term (gint weight, guint p0, guint pm, const gfloat * recip)
{
  return (gfloat) (weight * (gint) p0 * (gint) pm) * recip[pm + p0];
}

/* One pixel: the strongest band over all visible steps. @counts points at
 * its column of the histogram row of its own value @row. */
static gfloat
pixel_c_value (const VhCambiContrast * c, const guint16 * counts, gsize hs,
    guint32 steps, guint row, const gfloat * recip)
{
  guint p0 = counts[0];
  gfloat best = 0.0f;

  for (guint d = 0; d < c->num_diffs; d++) {
    guint up = row + d + 1;
    guint p1, p2, pm;

    if (!(steps & (1u << d)))
      continue;
    p1 = up < c->band_size ? counts[(gssize) (d + 1) * hs] : 0;
    p2 = row > d ? counts[-(gssize) ((d + 1) * hs)] : 0;
    pm = MAX (p1, p2);
    best = MAX (best, c_value_term (c->weight[d], p0, pm, recip));
  }
  return best;
}

#define RUN_CHUNK 256
#define RUN_MIN 8

/* @n <= RUN_CHUNK neighbouring pixels of one value: the same arithmetic as
 * pixel_c_value, but the counts of a value row are contiguous, so all but
 * the table lookup runs as vector loops. Rows outside the band read
 * @zeros. */
static void
run_c_values (const VhCambiContrast * c, const guint16 * counts, gsize hs,
    guint32 steps, guint row, guint n, const guint16 * zeros,
    const gfloat * recip, gfloat * out)
{
  gint32 prod[RUN_CHUNK];
  guint32 sum[RUN_CHUNK];
  gfloat scale[RUN_CHUNK];

  for (guint j = 0; j < n; j++)
    out[j] = 0.0f;
  for (guint d = 0; d < c->num_diffs; d++) {
    const guint16 *p1, *p2;
    gint weight = c->weight[d];

    if (!(steps & (1u << d)))
      continue;
    p1 = row + d + 1 < c->band_size ? counts + (gssize) (d + 1) * hs : zeros;
    p2 = row > d ? counts - (gssize) (d + 1) * hs : zeros;
    for (guint j = 0; j < n; j++) {
      /* Counts are at most 65 * 65: signed 16-bit max is fine. */
      guint16 pm = MAX ((gint16) p1[j], (gint16) p2[j]);
      /* Both factors fit 16 bits unsigned (9 * 65 * 65 at most) and the
       * product 31 bits: a widening multiply. */
      guint16 wp0 = weight * counts[j];

      prod[j] = (gint32) ((guint32) wp0 * pm);
      sum[j] = counts[j] + pm;
    }
    /* The table lookup is the only step that does not vectorise. */
    for (guint j = 0; j < n; j++)
      scale[j] = recip[sum[j]];
    for (guint j = 0; j < n; j++)
      out[j] = MAX (out[j], (gfloat) prod[j] * scale[j]);
  }
}

/* The c values of image row @i, from histograms that hold exactly the rows
 * within window / 2 of it. Only masked pixels whose value is in the band
 * get one. */
static void
row_c_values (const VhCambiPlanes * p, const VhCambiContrast * c, guint w,
    guint i, guint pad, const guint16 * hist, gsize hs,
    const guint16 * zeros, guint16 * rows, gfloat * out)
{
  const gfloat *recip = vh_cambi_reciprocals ();
  guint j = 0;

  counted_rows (p, c, i, w, rows);
  while (j < w) {
    guint row = rows[j], end = j + 1;
    const guint16 *counts;
    guint32 steps;

    if (row == NO_ROW) {
      out[j++] = 0.0f;
      continue;
    }
    while (end < w && end - j < RUN_CHUNK && rows[end] == row)
      end++;
    counts = hist + row * hs + pad + j;
    steps = c->steps[row];
    if (end - j >= RUN_MIN) {
      run_c_values (c, counts, hs, steps, row, end - j, zeros + j, recip,
          out + j);
    } else {
      for (guint k = j; k < end; k++)
        out[k] = pixel_c_value (c, counts + (k - j), hs, steps, row, recip);
    }
    j = end;
  }
}

void
vh_cambi_c_values (const VhCambiPlanes * p, const VhCambiContrast * c,
    guint w, guint h, guint window, guint16 * work, gfloat * c_values)
{
  gsize hs = hist_stride (w, window);
  guint pad = window / 2;
  guint16 *hist = work;
  guint16 *out = work + (c->band_size + 1) * hs, *in = out + w;

  if (c->band_size == 0) {
    memset (c_values, 0, sizeof (gfloat) * w * h);
    return;
  }
  memset (hist, 0, sizeof (guint16) * (c->band_size + 1) * hs);
  for (guint r = 0; r < MIN (pad, h); r++)
    slide (p, c, w, window, hist, hs, -1, r, out, in);
  for (guint i = 0; i < h; i++) {
    gint come = i + pad < h ? (gint) (i + pad) : -1;
    gint gone = i > pad ? (gint) (i - pad - 1) : -1;

    slide (p, c, w, window, hist, hs, gone, come, out, in);
    row_c_values (p, c, w, i, pad, hist, hs, hist + c->band_size * hs + pad,
        out, c_values + (gsize) i * w);
  }
}
