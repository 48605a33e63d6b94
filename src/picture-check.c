/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "picture-check.h"
#include "errors.h"

static const gchar *const plane_names[] = { "Y", "U", "V" };

/* OR of a row's samples: one pass that compilers vectorise; the position
 * is only looked for once a row is known to be bad. */
static guint16
row_or (const guint16 * row, guint n, guint step)
{
  guint16 acc = 0;

  if (step == 1) {
    for (guint x = 0; x < n; x++)
      acc |= row[x];
  } else {
    for (guint x = 0; x < n; x++)
      acc |= row[(gsize) x * step];
  }
  return acc;
}

gboolean
vh_picture_check_depth (const VhPicture * pic, const gchar * what,
    GError ** error)
{
  guint bpc = pic->info.bpc;
  guint16 over;

  if (pic->mem_type != VH_MEMORY_HOST || bpc <= 8 || bpc >= 16)
    return TRUE;
  over = (guint16) ~((1u << bpc) - 1);
  for (guint p = 0; p < pic->n_planes; p++) {
    for (guint y = 0; y < pic->height[p]; y++) {
      const guint16 *row = vh_picture_row (pic, p, y);

      if (!(row_or (row, pic->width[p], pic->step[p]) & over))
        continue;
      for (guint x = 0; x < pic->width[p]; x++) {
        guint v = row[(gsize) x * pic->step[p]];
        if (v & over) {
          g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
              "%s plane %s has %u at (%u, %u), above the %u-bit maximum %u "
              "(is the bit depth right?)", what, plane_names[p], v, x, y, bpc,
              (1u << bpc) - 1);
          return FALSE;
        }
      }
    }
  }
  return TRUE;
}
