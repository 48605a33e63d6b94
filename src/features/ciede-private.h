/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* CIEDE2000's pieces: the chroma upsampling and the colour arithmetic. */

#ifndef __VH_CIEDE_PRIVATE_H__
#define __VH_CIEDE_PRIVATE_H__

#include "picture.h"

G_BEGIN_DECLS

extern const gchar *const vh_ciede_provides[];

/* Fails for the layouts libvmaf's CIEDE has no defined value for. */
gboolean     vh_ciede_check_info        (const VhPictureInfo * info,
                                         GError ** error);

/* The score from the sum of the per-pixel differences (summed in double,
 * row by row left to right, rows' sums top to bottom). */
gdouble      vh_ciede_score             (gdouble sum, guint width,
                                         guint height);

/* Where each luma-grid sample of a chroma plane comes from. */
typedef struct
{
  gboolean full;                /* 4:4:4: the sample at the same place */
  guint chroma_w, chroma_h;     /* libvmaf's (floored) chroma size */
  guint *row_carry;             /* per luma column: rows past the source row */
  guint *col;                   /* per luma column: source column */
  gboolean *pad;                /* per luma column: reads row padding (0) */
} VhCiedeChromaMap;

void         vh_ciede_chroma_map_init   (VhCiedeChromaMap * map,
                                         const VhPictureInfo * info);

void         vh_ciede_chroma_map_clear  (VhCiedeChromaMap * map);

/* Row @y of @pic's Y, Cb and Cr on the luma grid, as floats, into
 * @rows[0..2]. */
void         vh_ciede_load_row          (const VhCiedeChromaMap * map,
                                         const VhPicture * pic, guint y,
                                         gfloat * const *rows);

/* CIELAB of colours already converted, for one stream's depth. */
typedef struct _VhCiedeLabCache VhCiedeLabCache;

VhCiedeLabCache *vh_ciede_lab_cache_new  (guint bpc);

void         vh_ciede_lab_cache_free    (VhCiedeLabCache * cache);

/* Sum of the CIEDE2000 differences of one row: @rows[0..2] reference Y, Cb,
 * Cr, @rows[3..5] distorted. */
gdouble      vh_ciede_row_sum           (VhCiedeLabCache * cache,
                                         gfloat * const *rows, guint width);

G_END_DECLS

#endif /* __VH_CIEDE_PRIVATE_H__ */
