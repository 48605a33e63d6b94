/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* A frame's alignment signature on the CPU: block means of the luma. */

#include "align.h"
#include "errors.h"

/* Sum of @n samples @step apart. A block is at most 32768 / 16 samples
 * wide: 2048 x 65535 fits 32 bits, which vectorise better. */
static guint32
sum8 (const guint8 * p, guint n, guint step)
{
  guint32 s = 0;

  if (step == 1) {
    for (guint x = 0; x < n; x++)
      s += p[x];
  } else {
    for (guint x = 0; x < n; x++)
      s += p[x * step];
  }
  return s;
}

static guint32
sum16 (const guint16 * p, guint n, guint step)
{
  guint32 s = 0;

  if (step == 1) {
    for (guint x = 0; x < n; x++)
      s += p[x];
  } else {
    for (guint x = 0; x < n; x++)
      s += p[x * step];
  }
  return s;
}

/* First sample of block @i of @n over @size samples (the last is
 * @size): block i covers [ceil (i * size / n), ceil ((i + 1) * size / n)). */
static guint
block_start (guint i, guint size, guint n)
{
  return (guint) (((guint64) i * size + n - 1) / n);
}

static gboolean
check_size (guint w, guint h, GError ** error)
{
  if (w < VH_ALIGN_GRID_W || h < VH_ALIGN_GRID_H) {
    g_set_error (error, VH_ERROR, VH_ERROR_TOO_SMALL,
        "frames of %ux%u are too small to align by content "
        "(at least %ux%u)", w, h, VH_ALIGN_GRID_W, VH_ALIGN_GRID_H);
    return FALSE;
  }
  return TRUE;
}

gboolean
vh_align_signature_from_sums (const guint64 sums[VH_ALIGN_CELLS], guint w,
    guint h, guint bpc, VhAlignSignature * sig, GError ** error)
{
  gdouble scale;
  guint xs[VH_ALIGN_GRID_W + 1];

  if (!check_size (w, h, error))
    return FALSE;
  if (bpc < 8 || bpc > 16) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "alignment signatures of %u-bit samples (8 to 16 bits)", bpc);
    return FALSE;
  }
  scale = 1.0 / (1u << (bpc - 8));
  for (guint c = 0; c <= VH_ALIGN_GRID_W; c++)
    xs[c] = block_start (c, w, VH_ALIGN_GRID_W);
  for (guint r = 0; r < VH_ALIGN_GRID_H; r++) {
    guint y0 = block_start (r, h, VH_ALIGN_GRID_H);
    guint y1 = block_start (r + 1, h, VH_ALIGN_GRID_H);

    for (guint c = 0; c < VH_ALIGN_GRID_W; c++) {
      gdouble n = (gdouble) (xs[c + 1] - xs[c]) * (y1 - y0);
      guint i = r * VH_ALIGN_GRID_W + c;

      sig->cell[i] = (gfloat) (sums[i] / n * scale);
    }
  }
  return TRUE;
}

gboolean
vh_align_signature_compute (const VhPicture * pic, VhAlignSignature * sig,
    GError ** error)
{
  guint w = pic->width[0], h = pic->height[0];
  guint step = pic->step[0] ? pic->step[0] : 1;
  guint64 sums[VH_ALIGN_CELLS] = { 0 };
  guint xs[VH_ALIGN_GRID_W + 1];

  if (pic->mem_type != VH_MEMORY_HOST) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "alignment signatures are computed from host memory; "
        "this picture is in device memory");
    return FALSE;
  }
  if (!check_size (w, h, error))
    return FALSE;

  for (guint c = 0; c <= VH_ALIGN_GRID_W; c++)
    xs[c] = block_start (c, w, VH_ALIGN_GRID_W);

  for (guint r = 0; r < VH_ALIGN_GRID_H; r++) {
    guint y0 = block_start (r, h, VH_ALIGN_GRID_H);
    guint y1 = block_start (r + 1, h, VH_ALIGN_GRID_H);
    guint64 *cells = sums + r * VH_ALIGN_GRID_W;

    for (guint y = y0; y < y1; y++) {
      gconstpointer line = vh_picture_row (pic, 0, y);

      for (guint c = 0; c < VH_ALIGN_GRID_W; c++) {
        guint n = xs[c + 1] - xs[c];
        cells[c] += pic->info.bpc == 8 ?
            sum8 ((const guint8 *) line + (gsize) xs[c] * step, n, step) :
            sum16 ((const guint16 *) line + (gsize) xs[c] * step, n, step);
      }
    }
  }
  return vh_align_signature_from_sums (sums, w, h, pic->info.bpc, sig, error);
}
