/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What float ADM shares with its HIP twin: outputs, options, the contrast
 * sensitivity weights of each scale, and the scores from each scale's
 * numerator, denominator and AIM sums. The twins differ only in where the
 * sums are computed. */

#ifndef __VH_FLOAT_ADM_H__
#define __VH_FLOAT_ADM_H__

#include "feature-extractor.h"
#include "float-adm-private.h"

G_BEGIN_DECLS

/* The coarsest level needs two samples each way for its masking. */
#define VH_FLOAT_ADM_MIN_SIZE 17

extern const gchar *const vh_float_adm_provides[];
extern const VhOptionSpec vh_float_adm_options[];

typedef struct
{
  guint w, h;
  gfloat rf[VH_FADM_N_SCALES][3];       /* CSF weights of h, v, d */
  gboolean debug;
  gdouble gain_limit;
  gboolean adm3_hm;
  gdouble dlm_weight;
  gdouble min_val;
  gint skip_aim_scale;
  gboolean skip_scale0;
  VhFadmPool pool;
} VhFloatAdm;

/* Numerators and denominators of the four scales, and of AIM. */
typedef struct
{
  gfloat num[VH_FADM_N_SCALES];
  gfloat den[VH_FADM_N_SCALES];
  gfloat aim[VH_FADM_N_SCALES];
} VhFloatAdmSums;

/* libvmaf's sums of a scale left out by adm_skip_scale0. */
void         vh_float_adm_skipped_scale  (VhFloatAdmSums * sums, guint scale);

/* Reads @fex's options and the weights. */
gboolean     vh_float_adm_setup          (VhFloatAdm * adm,
                                          const VhFeatureExtractor * fex,
                                          const VhPictureInfo * info,
                                          GError ** error);

/* Appends frame @index's scores from @sums. */
gboolean     vh_float_adm_append         (const VhFloatAdm * adm,
                                          VhFeatureExtractor * fex,
                                          const VhFloatAdmSums * sums,
                                          guint index,
                                          VhFeatureCollector * fc,
                                          GError ** error);

G_END_DECLS

#endif /* __VH_FLOAT_ADM_H__ */
