/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What float_ms_ssim shares with its HIP twin: outputs, options, the
 * sizes of the scales, and the weighted product of their means. */

#ifndef __VH_FLOAT_MS_SSIM_H__
#define __VH_FLOAT_MS_SSIM_H__

#include "feature-extractor.h"
#include "ssim-common.h"

G_BEGIN_DECLS

#define VH_MS_SSIM_N_SCALES 5

/* libvmaf refuses frames whose fifth scale would be under the window. */
#define VH_MS_SSIM_MIN_SIZE 176

extern const gchar *const vh_float_ms_ssim_provides[];
extern const VhOptionSpec vh_float_ms_ssim_options[];

/* An instance's options and the sizes of its scales. */
typedef struct
{
  gboolean enable_lcs;
  gboolean enable_db;
  gdouble max_db;
  guint width[VH_MS_SSIM_N_SCALES];
  guint height[VH_MS_SSIM_N_SCALES];
} VhFloatMsSsim;

/* Reads @fex's options and sizes the scales for @info. */
void         vh_float_ms_ssim_setup      (VhFloatMsSsim * ms,
                                          const VhFeatureExtractor * fex,
                                          const VhPictureInfo * info);

/* Appends frame @index's values from the means @res of every scale;
 * fails when the product is infinite. */
gboolean     vh_float_ms_ssim_append     (VhFeatureExtractor * fex,
                                          const VhFloatMsSsim * ms,
                                          const VhSsimResult * res,
                                          guint index,
                                          VhFeatureCollector * fc,
                                          GError ** error);

G_END_DECLS

#endif /* __VH_FLOAT_MS_SSIM_H__ */
