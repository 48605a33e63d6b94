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

gboolean
vh_align_signature_compute (const VhPicture * pic, VhAlignSignature * sig,
    GError ** error)
{
  guint w = pic->width[0], h = pic->height[0];
  gdouble scale = 1.0 / (1u << (pic->info.bpc - 8));
  gdouble sums[VH_ALIGN_CELLS] = { 0 };
  g_autofree guint *col_of = NULL;

  if (pic->mem_type != VH_MEMORY_HOST) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "alignment signatures are computed from host memory; "
        "this picture is in device memory");
    return FALSE;
  }
  if (w < VH_ALIGN_GRID_W || h < VH_ALIGN_GRID_H) {
    g_set_error (error, VH_ERROR, VH_ERROR_TOO_SMALL,
        "frames of %ux%u are too small to align by content "
        "(at least %ux%u)", w, h, VH_ALIGN_GRID_W, VH_ALIGN_GRID_H);
    return FALSE;
  }

  col_of = g_new (guint, w);
  for (guint x = 0; x < w; x++)
    col_of[x] = (guint) ((guint64) x * VH_ALIGN_GRID_W / w);

  for (guint y = 0; y < h; y++) {
    guint row = (guint) ((guint64) y * VH_ALIGN_GRID_H / h);
    gdouble *cells = sums + row * VH_ALIGN_GRID_W;
    gconstpointer line = vh_picture_row (pic, 0, y);
    guint step = pic->step[0] ? pic->step[0] : 1;

    if (pic->info.bpc == 8) {
      const guint8 *p = line;
      for (guint x = 0; x < w; x++)
        cells[col_of[x]] += p[x * step];
    } else {
      const guint16 *p = line;
      for (guint x = 0; x < w; x++)
        cells[col_of[x]] += p[x * step];
    }
  }

  for (guint r = 0; r < VH_ALIGN_GRID_H; r++) {
    guint y0 = (guint) (((guint64) r * h + VH_ALIGN_GRID_H - 1) /
        VH_ALIGN_GRID_H);
    guint y1 = (guint) (((guint64) (r + 1) * h + VH_ALIGN_GRID_H - 1) /
        VH_ALIGN_GRID_H);
    for (guint c = 0; c < VH_ALIGN_GRID_W; c++) {
      guint x0 = (guint) (((guint64) c * w + VH_ALIGN_GRID_W - 1) /
          VH_ALIGN_GRID_W);
      guint x1 = (guint) (((guint64) (c + 1) * w + VH_ALIGN_GRID_W - 1) /
          VH_ALIGN_GRID_W);
      gdouble n = (gdouble) (x1 - x0) * (y1 - y0);
      guint i = r * VH_ALIGN_GRID_W + c;
      sig->cell[i] = (gfloat) (sums[i] / n * scale);
    }
  }
  return TRUE;
}
