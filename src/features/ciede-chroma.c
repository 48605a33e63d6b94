/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* libvmaf's CIEDE upsamples subsampled chroma to the luma grid with its own
 * index arithmetic over its picture layout: chroma rows floor(W / 2^ssx)
 * samples wide, padded with zeros to a multiple of 32, Cr right after Cb.
 * It takes source row y / 2 and source column x / 2 for 4:2:0, but for
 * 4:2:2 source row y / 2 and column x: the column then runs into the
 * padding and on into the next row. Every luma-grid sample is taken from
 * where libvmaf takes it, so the values agree for every layout. */

#include "ciede-private.h"

/* libvmaf's picture rows are padded to 32 samples. */
#define CIEDE_ROW_ALIGN 32

void
vh_ciede_chroma_map_init (VhCiedeChromaMap * map, const VhPictureInfo * info)
{
  guint ssx, ssy, padded;

  vh_pix_fmt_subsampling (info->pix_fmt, &ssx, &ssy);
  map->full = info->pix_fmt == VH_PIX_FMT_YUV444;
  map->chroma_w = info->width >> ssx;
  map->chroma_h = info->height >> ssy;
  map->row_carry = g_new (guint, info->width);
  map->col = g_new (guint, info->width);
  map->pad = g_new (gboolean, info->width);
  padded = (map->chroma_w + CIEDE_ROW_ALIGN - 1) & ~(CIEDE_ROW_ALIGN - 1);
  for (guint x = 0; x < info->width; x++) {
    /* The column libvmaf indexes, counted from its source row start. */
    const guint at = info->pix_fmt == VH_PIX_FMT_YUV420 ? x / 2 : x;
    map->row_carry[x] = padded ? at / padded : 0;
    map->col[x] = padded ? at % padded : 0;
    map->pad[x] = map->col[x] >= map->chroma_w;
  }
}

void
vh_ciede_chroma_map_clear (VhCiedeChromaMap * map)
{
  g_free (map->row_carry);
  g_free (map->col);
  g_free (map->pad);
}

static inline gfloat
ciede_sample (const VhPicture * pic, guint p, guint x, guint y)
{
  const gsize step = pic->step[p] ? pic->step[p] : 1;

  if (pic->info.bpc == 8)
    return ((const guint8 *) vh_picture_row (pic, p, y))[x * step];
  return ((const guint16 *) vh_picture_row (pic, p, y))[x * step];
}

/* Chroma sample (@x, @y) of libvmaf's plane @p, rows past its end read on
 * into the next plane; past the last plane libvmaf's read is undefined and
 * 0 is taken (only 4:2:0 with a chroma width that is a multiple of 32 and
 * an odd luma width gets there, on its last row). */
static inline gfloat
ciede_chroma_at (const VhCiedeChromaMap * map, const VhPicture * pic, guint p,
    guint x, guint y)
{
  if (y >= map->chroma_h) {
    if (p == 2 || y - map->chroma_h >= map->chroma_h)
      return 0;
    p = 2;
    y -= map->chroma_h;
  }
  return ciede_sample (pic, p, x, y);
}

void
vh_ciede_load_row (const VhCiedeChromaMap * map, const VhPicture * pic,
    guint y, gfloat * const *rows)
{
  const guint w = pic->info.width;

  for (guint x = 0; x < w; x++)
    rows[0][x] = ciede_sample (pic, 0, x, y);
  for (guint p = 1; p < 3; p++) {
    if (map->full) {
      for (guint x = 0; x < w; x++)
        rows[p][x] = ciede_sample (pic, p, x, y);
      continue;
    }
    for (guint x = 0; x < w; x++)
      rows[p][x] = map->pad[x] ? 0 :
          ciede_chroma_at (map, pic, p, map->col[x],
          y / 2 + map->row_carry[x]);
  }
}
