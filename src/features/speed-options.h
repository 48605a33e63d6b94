/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_SPEED_OPTIONS_H__
#define __VH_SPEED_OPTIONS_H__

#include "feature-extractor.h"
#include "float-scale.h"
#include "picture.h"
#include "speed-private.h"

G_BEGIN_DECLS

/* The options speed_chroma and speed_temporal share, with libvmaf's names,
 * aliases, defaults and ranges. */
#define VH_SPEED_COMMON_OPTIONS \
  {"speed_kernelscale", "ks", "scale of the Gaussian kernels (a supported " \
        "value: 1, 0.5, 1.5, 2, 3, 2/3, 4/3, ...)", \
      VH_OPTION_DOUBLE, 1.0, 0.1, 4.0, VH_OPTION_FLAG_FEATURE_PARAM}, \
  {"speed_prescale", "ps", "resize the planes by this factor first", \
      VH_OPTION_DOUBLE, 1.0, 0.1, 4.0, VH_OPTION_FLAG_FEATURE_PARAM}, \
  {"speed_prescale_method", "psm", "resizing method: nearest, bilinear, " \
        "bicubic or lanczos4", \
      VH_OPTION_CHOICE, VH_FLOAT_SCALE_NEAREST, 0, 0, \
      VH_OPTION_FLAG_FEATURE_PARAM, vh_float_scale_method_names}, \
  {"speed_sigma_nn", "snn", "standard deviation of the neural noise", \
      VH_OPTION_DOUBLE, 0.29, 0.1, 2.0, VH_OPTION_FLAG_FEATURE_PARAM}, \
  {"speed_nn_floor", "nnf", "neural noise floor, a share of sigma_nn", \
      VH_OPTION_DOUBLE, 0.0, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM}, \
  {"speed_max_val", "mxv", "clip the scores to this value", \
      VH_OPTION_DOUBLE, 1000.0, 0.0, 1000.0, VH_OPTION_FLAG_FEATURE_PARAM}

/* The options and outputs of the two extractors, shared with their GPU
 * twins. */
extern const VhOptionSpec vh_speed_chroma_options[];
extern const gchar *const vh_speed_chroma_provides[];
extern const VhOptionSpec vh_speed_temporal_options[];
extern const gchar *const vh_speed_temporal_provides[];

/* The SpEED parameters of @fex's options (weight_var_mode 0 where the
 * extractor has none). */
void         vh_speed_params_from_options (VhFeatureExtractor * fex,
                                           VhSpeedParams * params);

/* Rows @rows[0 .. n_rows - 1] (NULL: rows 0 .. n_rows - 1) of plane @p of
 * @pic, @w samples from the left, as libvmaf's float copy makes them:
 * sample / 2^(bpc - 8) - 128. */
void         vh_speed_load_rows           (const VhPicture * pic, guint p,
                                           guint w, const guint * rows,
                                           guint n_rows, gfloat * dst,
                                           gsize stride);

/* speed_chroma's three outputs of frame @index from its planes' scores,
 * for both twins: a plane that cannot be scored (@bad_u, @bad_v) takes the
 * other one's score; each is clipped to @max_val. */
gboolean     vh_speed_chroma_append       (VhFeatureExtractor * fex,
                                           VhFeatureCollector * fc,
                                           guint index, gfloat u,
                                           gboolean bad_u, gfloat v,
                                           gboolean bad_v, gdouble max_val,
                                           GError ** error);

G_END_DECLS

#endif /* __VH_SPEED_OPTIONS_H__ */
