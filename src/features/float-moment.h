/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What float_moment shares with its HIP twin: its outputs, its frame check
 * and the moments from a picture's sums. */

#ifndef __VH_FLOAT_MOMENT_H__
#define __VH_FLOAT_MOMENT_H__

#include "feature-extractor.h"

G_BEGIN_DECLS

extern const gchar *const vh_float_moment_provides[];

/* One luma plane's sums, samples unscaled. Below 16 bits sum_sq holds the
 * exact squares; at 16 bits sum_sq16 holds libvmaf's running double sum of
 * the single-precision squares on the 8-bit scale, in raster order. */
typedef struct
{
  guint64 sum;
  guint64 sum_sq;
  gdouble sum_sq16;
} VhMomentSums;

/* Appends frame @index's four moments from the luma sums of both
 * pictures. */
gboolean     vh_float_moment_append      (VhFeatureExtractor * fex,
                                          const VhMomentSums * ref,
                                          const VhMomentSums * dist,
                                          guint index,
                                          VhFeatureCollector * fc,
                                          GError ** error);

G_END_DECLS

#endif /* __VH_FLOAT_MOMENT_H__ */
