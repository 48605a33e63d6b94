/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What float PSNR shares with its HIP twin: its output, its checks and
 * the scaling of the summed squares into decibels. */

#ifndef __VH_FLOAT_PSNR_H__
#define __VH_FLOAT_PSNR_H__

#include "feature-extractor.h"

G_BEGIN_DECLS

extern const gchar *const vh_float_psnr_provides[];

/* Constants of an instance's depth. */
typedef struct
{
  gdouble peak;
  gdouble psnr_max;
  gdouble scale2;               /* (2^(bpc - 8))^2 */
} VhFloatPsnr;

/* Checks @info's depth and sets up @fp for it. */
gboolean     vh_float_psnr_setup         (VhFloatPsnr * fp,
                                          const VhPictureInfo * info,
                                          GError ** error);

/* Appends frame @index's value from the luma's summed squares, each as
 * libvmaf's float square of the unscaled difference. */
gboolean     vh_float_psnr_append        (VhFeatureExtractor * fex,
                                          const VhFloatPsnr * fp, guint64 sum,
                                          guint index,
                                          VhFeatureCollector * fc,
                                          GError ** error);

G_END_DECLS

#endif /* __VH_FLOAT_PSNR_H__ */
