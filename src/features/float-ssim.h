/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What float_ssim shares with its HIP twin: outputs, options, the size
 * SSIM runs at, and the values made from the frame means. */

#ifndef __VH_FLOAT_SSIM_H__
#define __VH_FLOAT_SSIM_H__

#include "feature-extractor.h"
#include "ssim-common.h"

G_BEGIN_DECLS

extern const gchar *const vh_float_ssim_provides[];
extern const VhOptionSpec vh_float_ssim_options[];

/* An instance's options and the size SSIM runs at. */
typedef struct
{
  guint scale;                  /* box downscaling factor, 1: none */
  guint width, height;          /* size SSIM runs at, after scaling */
  gboolean enable_lcs;
  gboolean enable_db;
  gdouble max_db;
  /* Smaller than the window on a side: libvmaf's window positions are
   * (width - 10) x (height - 10), none fit, and its mean of no values is
   * 0 / that product: 0, -0, or NaN when a side is exactly 10. */
  gboolean no_window;
} VhFloatSsim;

/* The smallest luma libvmaf computes float_ssim for. */
#define VH_FLOAT_SSIM_MIN_SIZE 8

/* Reads @fex's options and sizes the scaled frame. */
gboolean     vh_float_ssim_setup         (VhFloatSsim * fs,
                                          const VhFeatureExtractor * fex,
                                          const VhPictureInfo * info,
                                          GError ** error);

/* libvmaf's values for a frame where no window fits (see no_window). */
void         vh_float_ssim_no_window     (const VhFloatSsim * fs,
                                          VhSsimResult * res);

/* Appends frame @index's values from its means @res. */
gboolean     vh_float_ssim_append        (VhFeatureExtractor * fex,
                                          const VhFloatSsim * fs,
                                          const VhSsimResult * res,
                                          guint index,
                                          VhFeatureCollector * fc,
                                          GError ** error);

G_END_DECLS

#endif /* __VH_FLOAT_SSIM_H__ */
