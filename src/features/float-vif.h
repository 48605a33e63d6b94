/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What float VIF shares with its HIP twin: outputs, options, the scales'
 * sizes and filters, and the scores from each scale's single-precision
 * sums. The twins differ only in where the sums are computed. */

#ifndef __VH_FLOAT_VIF_H__
#define __VH_FLOAT_VIF_H__

#include "feature-extractor.h"
#include "float-vif-private.h"
#include "float-scale.h"

G_BEGIN_DECLS

/* The coarsest scale needs two rows and columns for its mirrored edges. */
#define VH_FLOAT_VIF_MIN_SIZE 16

extern const gchar *const vh_float_vif_provides[];
extern const VhOptionSpec vh_float_vif_options[];

typedef struct
{
  guint w[VH_FVIF_N_SCALES];
  guint h[VH_FVIF_N_SCALES];
  gfloat filter[VH_FVIF_N_SCALES][VH_FCONV_MAX_TAPS];
  guint fw[VH_FVIF_N_SCALES];
  VhFvifParams params;
  gboolean debug;
  gboolean skip_scale0;
  gdouble min_val[VH_FVIF_N_SCALES];
  /* vif_prescale: luma at the input size (in_w x in_h), resampled to
   * scale 0's size. */
  gboolean prescale;
  VhFloatScaleMethod prescale_method;
  guint in_w, in_h;
} VhFloatVif;

/* Reads @fex's options; refuses what libvmaf refuses. */
gboolean     vh_float_vif_setup          (VhFloatVif * v,
                                          const VhFeatureExtractor * fex,
                                          const VhPictureInfo * info,
                                          GError ** error);

/* Appends frame @index's scores from @sums: numerator and denominator of
 * each scale (scale 0's ignored with vif_skip_scale0). */
gboolean     vh_float_vif_append         (const VhFloatVif * v,
                                          VhFeatureExtractor * fex,
                                          const gfloat * sums, guint index,
                                          VhFeatureCollector * fc,
                                          GError ** error);

G_END_DECLS

#endif /* __VH_FLOAT_VIF_H__ */
