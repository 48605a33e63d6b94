/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_FEATURE_COLORIMETRY_H__
#define __VH_FEATURE_COLORIMETRY_H__

#include "feature-spec.h"

G_BEGIN_DECLS

/* The colorimetry of an input as a front end learns it (the element's
 * caps, a Y4M header): what the extractors that convert Y'CbCr to RGB
 * (ssimulacra2) take when their options do not say. UNKNOWN: the input
 * does not say, or says something they cannot convert; their default
 * applies. */
typedef enum
{
  VH_COLOR_MATRIX_UNKNOWN = 0,
  VH_COLOR_MATRIX_BT601,
  VH_COLOR_MATRIX_BT709,
  VH_COLOR_MATRIX_BT2020,
} VhColorMatrix;

typedef enum
{
  VH_COLOR_RANGE_UNKNOWN = 0,
  VH_COLOR_RANGE_LIMITED,
  VH_COLOR_RANGE_FULL,
} VhColorRange;

typedef struct
{
  VhColorMatrix matrix;
  VhColorRange range;
} VhColorimetry;

/* "bt709", "full", ...; "unknown" for UNKNOWN. */
const gchar *vh_color_matrix_to_string  (VhColorMatrix matrix);

const gchar *vh_color_range_to_string   (VhColorRange range);

/* Adds to @spec, when its extractor converts Y'CbCr to RGB, the
 * colorimetry options it was not given: matrix and range from @ref,
 * dist_matrix and dist_range from @dist (where the user gave matrix or
 * range, that one holds for both inputs: options win over the inputs'
 * colorimetry). Fields that are UNKNOWN add nothing. Returns whether the
 * spec's options depend on the inputs' colorimetry at all, that is
 * whether new colorimetry would change them. @ref and @dist may be
 * NULL (unknown). */
gboolean     vh_feature_spec_add_colorimetry (VhFeatureSpec * spec,
                                              const VhColorimetry * ref,
                                              const VhColorimetry * dist);

G_END_DECLS

#endif /* __VH_FEATURE_COLORIMETRY_H__ */
