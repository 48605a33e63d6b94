/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What float_ansnr shares with its HIP twin: its outputs, its frame check
 * and the decibels from the summed signal and noise. */

#ifndef __VH_FLOAT_ANSNR_H__
#define __VH_FLOAT_ANSNR_H__

#include "feature-extractor.h"

G_BEGIN_DECLS

extern const gchar *const vh_float_ansnr_provides[];

/* Appends frame @index's float_ansnr and float_anpsnr from the
 * single-precision sums of the squared smoothed reference (@sig) and of the
 * squared differences of the smoothed pictures (@noise), each summed as
 * libvmaf does: per row left to right, then the rows' sums top to
 * bottom. */
gboolean     vh_float_ansnr_append       (VhFeatureExtractor * fex,
                                          gfloat sig, gfloat noise,
                                          guint index,
                                          VhFeatureCollector * fc,
                                          GError ** error);

G_END_DECLS

#endif /* __VH_FLOAT_ANSNR_H__ */
