/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What integer ADM shares with its HIP twin: the class's outputs and
 * options, their checks, the per-scale constants and the pooling of the
 * integer sums into scores. One copy, so that the twins cannot drift
 * apart: every rounding in it decides a value both must give. */

#ifndef __VH_INTEGER_ADM_H__
#define __VH_INTEGER_ADM_H__

#include "feature-extractor.h"
#include "adm-private.h"

G_BEGIN_DECLS

/* The input of the fourth (last) wavelet level needs 5 samples, or
 * libvmaf's mirrored tap indices leave the picture: 33 halves to 17, 9, 5. */
#define VH_ADM_MIN_SIZE 33

extern const gchar *const vh_integer_adm_provides[];
extern const VhOptionSpec vh_integer_adm_options[];

/* An instance's options and the constants of its scales. */
typedef struct
{
  VhAdmScale scales[VH_ADM_N_SCALES];
  gdouble gain_limit;           /* adm_enhn_gain_limit */
  gdouble dlm_weight;
  gdouble min_val;
  gboolean skip_aim;
  gboolean skip_scale0;
  gboolean debug;               /* also output the sums behind the scores */
} VhIntegerAdm;

/* One scale's integer sums; the HIP twin's kernels write this layout. */
typedef struct
{
  guint64 den[3];
  gint64 num[2][3];             /* [dlm, aim][band] */
} VhAdmSums;

/* Reads and checks @fex's options and @info's depth, then sets up every
 * scale for @info's size; FALSE with @error when they do not fit. */
gboolean     vh_integer_adm_setup        (VhIntegerAdm * adm,
                                          const VhFeatureExtractor * fex,
                                          const VhPictureInfo * info,
                                          GError ** error);

/* Fails unless @pic has the size and depth @fex was set up for. */
gboolean     vh_integer_adm_check_format (const VhFeatureExtractor * fex,
                                          const VhPicture * pic,
                                          GError ** error);

/* Fails unless @pic's luma is planar. */
gboolean     vh_integer_adm_check_planar (const VhPicture * pic,
                                          GError ** error);

/* Pools the four scales' sums of frame @index into the outputs. */
gboolean     vh_integer_adm_append       (VhFeatureExtractor * fex,
                                          const VhIntegerAdm * adm,
                                          const VhAdmSums * sums,
                                          guint index,
                                          VhFeatureCollector * fc,
                                          GError ** error);

G_END_DECLS

#endif /* __VH_INTEGER_ADM_H__ */
