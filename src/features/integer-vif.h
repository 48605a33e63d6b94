/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What integer VIF shares with its HIP twin: outputs, options, checks and
 * the scores made from each scale's integer sums, so that the twins give
 * the same values from the same sums. */

#ifndef __VH_INTEGER_VIF_H__
#define __VH_INTEGER_VIF_H__

#include "feature-extractor.h"
#include "integer-vif-private.h"

G_BEGIN_DECLS

/* Below 16 the coarsest scale has a single row or column, where libvmaf's
 * edge padding reads stale memory: there is no defined result to match. */
#define VH_VIF_MIN_SIZE 16

extern const gchar *const vh_integer_vif_provides[];
extern const VhOptionSpec vh_integer_vif_options[];

/* An instance's options. */
typedef struct
{
  gdouble gain_limit;
  gboolean skip_scale0;
  gboolean debug;
} VhIntegerVif;

/* Checks @info's depth and size and reads @fex's options. */
gboolean     vh_integer_vif_setup        (VhIntegerVif * vif,
                                          const VhFeatureExtractor * fex,
                                          const VhPictureInfo * info,
                                          GError ** error);

/* Fails unless @pic (the @what picture) has the stream's size and depth. */
gboolean     vh_integer_vif_check_picture (const VhFeatureExtractor * fex,
                                           const VhPicture * pic,
                                           const gchar * what,
                                           GError ** error);

/* Appends frame @index's scores from the sums of the scales (scale 0's
 * unread when skipped). */
gboolean     vh_integer_vif_append       (VhFeatureExtractor * fex,
                                          const VhIntegerVif * vif,
                                          const VhVifAccum * acc,
                                          guint index,
                                          VhFeatureCollector * fc,
                                          GError ** error);

G_END_DECLS

#endif /* __VH_INTEGER_VIF_H__ */
