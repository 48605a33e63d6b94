/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What PSNR-HVS shares with its HIP twin: outputs, the checks of the
 * stream, plane sizes and tables, and the scores from each plane's sum of
 * weighted squared errors. The twins differ only in where the sums are
 * computed. */

#ifndef __VH_PSNR_HVS_H__
#define __VH_PSNR_HVS_H__

#include "feature-extractor.h"
#include "psnr-hvs-private.h"

G_BEGIN_DECLS

extern const gchar *const vh_psnr_hvs_provides[];

typedef struct
{
  guint width[3];               /* libvmaf's plane sizes: chroma floored */
  guint height[3];
  VhPsnrHvsTables tables[3];
} VhPsnrHvs;

/* Refuses what libvmaf refuses (more than 12 bits, no chroma). */
gboolean     vh_psnr_hvs_setup          (VhPsnrHvs * s,
                                         const VhPictureInfo * info,
                                         GError ** error);

/* 8x8 blocks, every 7 samples, across and down a @width x @height plane. */
guint        vh_psnr_hvs_n_blocks       (guint width, guint height,
                                         guint * n_across, guint * n_down);

/* Appends frame @index's values from each plane's score (the result of
 * vh_psnr_hvs_plane_score()). */
gboolean     vh_psnr_hvs_append         (VhFeatureExtractor * fex,
                                         const gdouble score[3], guint index,
                                         VhFeatureCollector * fc,
                                         GError ** error);

G_END_DECLS

#endif /* __VH_PSNR_HVS_H__ */
