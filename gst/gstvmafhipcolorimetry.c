/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The caps' colorimetry, for the features that convert Y'CbCr to RGB
 * (ssimulacra2). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipcolorimetry.h"

void
gst_vmaf_hip_colorimetry_from_video (const GstVideoInfo * info,
    VhColorimetry * out, const gchar ** unconvertible)
{
  const GstVideoColorimetry *c = &GST_VIDEO_INFO_COLORIMETRY (info);

  *unconvertible = NULL;
  switch (c->matrix) {
    case GST_VIDEO_COLOR_MATRIX_BT601:
      out->matrix = VH_COLOR_MATRIX_BT601;
      break;
    case GST_VIDEO_COLOR_MATRIX_BT709:
      out->matrix = VH_COLOR_MATRIX_BT709;
      break;
    case GST_VIDEO_COLOR_MATRIX_BT2020:
      out->matrix = VH_COLOR_MATRIX_BT2020;
      break;
    case GST_VIDEO_COLOR_MATRIX_UNKNOWN:
      out->matrix = VH_COLOR_MATRIX_UNKNOWN;
      break;
    case GST_VIDEO_COLOR_MATRIX_FCC:
      out->matrix = VH_COLOR_MATRIX_UNKNOWN;
      *unconvertible = "fcc";
      break;
    case GST_VIDEO_COLOR_MATRIX_SMPTE240M:
      out->matrix = VH_COLOR_MATRIX_UNKNOWN;
      *unconvertible = "smpte240m";
      break;
    case GST_VIDEO_COLOR_MATRIX_RGB:
      out->matrix = VH_COLOR_MATRIX_UNKNOWN;
      *unconvertible = "rgb";
      break;
    default:
      out->matrix = VH_COLOR_MATRIX_UNKNOWN;
      *unconvertible = "another";
      break;
  }
  switch (c->range) {
    case GST_VIDEO_COLOR_RANGE_0_255:
      out->range = VH_COLOR_RANGE_FULL;
      break;
    case GST_VIDEO_COLOR_RANGE_16_235:
      out->range = VH_COLOR_RANGE_LIMITED;
      break;
    default:
      out->range = VH_COLOR_RANGE_UNKNOWN;
      break;
  }
}
