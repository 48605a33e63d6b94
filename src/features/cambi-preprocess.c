/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* CAMBI's pixel work outside the histograms: 10-bit conversion with an
 * optional nearest-neighbour resize, the anti-dithering average, 2:1
 * decimation and the 3x3 mode filter. */

#include "cambi-private.h"
#include "../errors.h"

static gboolean
check_range (const VhPicture * pic, GError ** error)
{
  guint bpc = pic->info.bpc;
  guint max = (1u << bpc) - 1;

  /* 8 and 16 bit samples cannot exceed their range. */
  if (bpc == 8 || bpc >= 16)
    return TRUE;
  for (guint i = 0; i < pic->height[0]; i++) {
    const guint16 *row = vh_picture_row (pic, 0, i);
    guint16 top = 0;

    for (guint j = 0; j < pic->width[0]; j++)
      top = MAX (top, row[j]);
    if (top > max) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "cambi: luma sample %u exceeds the %u-bit maximum %u", top, bpc, max);
      return FALSE;
    }
  }
  return TRUE;
}

/* 8 bit is shifted up; deeper input is rounded down to 10 bit. */
static void
convert_row (const VhPicture * pic, guint y, const guint * cols,
    guint16 * out, guint w)
{
  guint bpc = pic->info.bpc;

  if (bpc == 8) {
    const guint8 *in = vh_picture_row (pic, 0, y);

    if (cols) {
      for (guint j = 0; j < w; j++)
        out[j] = in[cols[j]] << 2;
    } else {
      for (guint j = 0; j < w; j++)
        out[j] = in[j] << 2;
    }
  } else {
    const guint16 *in = vh_picture_row (pic, 0, y);
    guint shift = bpc - 10;
    guint round = shift ? 1u << (shift - 1) : 0;

    if (cols) {
      for (guint j = 0; j < w; j++)
        out[j] = (in[cols[j]] + round) >> shift;
    } else {
      for (guint j = 0; j < w; j++)
        out[j] = (in[j] + round) >> shift;
    }
  }
}

/* Source index of each output position, with libvmaf's float stepping so
 * that the same samples are picked. */
void
vh_cambi_nearest_positions (guint in_n, guint out_n, guint * pos)
{
  gfloat ratio = (gfloat) in_n / (gfloat) out_n;
  gfloat x = ratio / 2 - 0.5;

  for (guint i = 0; i < out_n; i++) {
    pos[i] = (gint) (x + 0.5);
    x += ratio;
  }
}

gboolean
vh_cambi_load_luma (const VhPicture * pic, const VhCambiPlanes * out,
    guint out_w, guint out_h, GError ** error)
{
  guint *cols, *rows;

  if (!check_range (pic, error))
    return FALSE;
  if (pic->width[0] == out_w && pic->height[0] == out_h) {
    for (guint i = 0; i < out_h; i++)
      convert_row (pic, i, NULL, out->image + i * out->stride, out_w);
    return TRUE;
  }
  cols = g_new (guint, out_w + out_h);
  rows = cols + out_w;
  vh_cambi_nearest_positions (pic->width[0], out_w, cols);
  vh_cambi_nearest_positions (pic->height[0], out_h, rows);
  for (guint i = 0; i < out_h; i++)
    convert_row (pic, rows[i], cols, out->image + i * out->stride, out_w);
  g_free (cols);
  return TRUE;
}

/* Averages each sample with its right, lower and lower-right neighbours
 * (those that exist), in place: later samples still read original values. */
void
vh_cambi_anti_dither (const VhCambiPlanes * p, guint w, guint h)
{
  gsize s = p->stride;

  for (guint i = 0; i + 1 < h; i++) {
    guint16 *a = p->image + i * s;
    const guint16 *b = a + s;

    for (guint j = 0; j + 1 < w; j++)
      a[j] = (a[j] + a[j + 1] + b[j] + b[j + 1]) >> 2;
    a[w - 1] = (a[w - 1] + b[w - 1]) >> 1;
  }

  guint16 *last = p->image + (h - 1) * s;
  for (guint j = 0; j + 1 < w; j++)
    last[j] = (last[j] + last[j + 1]) >> 1;
}

static void
decimate_row16 (const guint16 * restrict src, guint16 * restrict dst, guint w)
{
  for (guint j = 0; j < w; j++)
    dst[j] = src[2 * j];
}

static void
decimate_row8 (const guint8 * restrict src, guint8 * restrict dst, guint w)
{
  for (guint j = 0; j < w; j++)
    dst[j] = src[2 * j];
}

/* Keeps every other sample of both planes; @w x @h is the new size. Row 0
 * is done in place; later rows never overlap their source row. */
void
vh_cambi_decimate (const VhCambiPlanes * p, guint w, guint h)
{
  gsize s = p->stride;

  for (guint j = 0; j < w; j++) {
    p->image[j] = p->image[2 * j];
    p->mask[j] = p->mask[2 * j];
  }
  for (guint i = 1; i < h; i++) {
    decimate_row16 (p->image + 2 * i * s, p->image + i * s, w);
    decimate_row8 (p->mask + 2 * i * s, p->mask + i * s, w);
  }
}

/* The most frequent of three values, or the smallest when all differ.
 * Samples are at most 1024, so signed 16-bit lanes work (SSE2 has signed
 * 16-bit min only). */
static inline guint16
mode3 (guint16 x, guint16 y, guint16 z)
{
  gint16 a = x, b = y, c = z;
  gint16 m = MIN (a, MIN (b, c));
  gint16 r = b == c ? b : m;

  return (a == b || a == c) ? a : r;
}

static void
mode_row (const guint16 * in, guint16 * out, guint w)
{
  out[0] = in[0];
  for (guint j = 1; j + 1 < w; j++)
    out[j] = mode3 (in[j - 1], in[j], in[j + 1]);
  out[w - 1] = in[w - 1];
}

/* Horizontal then vertical 3-tap mode. The first and last rows keep their
 * values; the first and last columns only get the vertical pass. */
void
vh_cambi_mode_filter (const VhCambiPlanes * p, guint w, guint h, guint16 * rows)
{
  gsize s = p->stride;

  for (guint i = 0; i < h; i++) {
    mode_row (p->image + i * s, rows + (i % 3) * w, w);
    if (i >= 2) {
      const guint16 *r0 = rows, *r1 = rows + w, *r2 = rows + 2 * w;
      guint16 *out = p->image + (i - 1) * s;

      for (guint j = 0; j < w; j++)
        out[j] = mode3 (r0[j], r1[j], r2[j]);
    }
  }
}
