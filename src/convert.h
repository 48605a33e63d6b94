/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* A distorted picture brought to the reference's bit depth, with the
 * arithmetic of the element's convert=reference-format (GStreamer's
 * video converter with videoconvert's defaults), so that vmafhip-score's
 * --convert reference-format scores what the element scores:
 *   - each sample widened to 16 bits by repeating its top bits
 *     (8-bit v: v * 257; 10-bit v: v << 6 | v >> 4);
 *   - to 8 bits: the top 8 of those 16 (no dither);
 *   - to 9-16 bits: an ordered (Bayer) dither added first, the 16x16
 *     Bayer matrix (0..255) scaled to the step of the output depth
 *     (times 2^(16 - depth) / 256) at the sample's place in luma
 *     coordinates (a 4:2:0 chroma sample at (2x, 2y)), the sum capped at
 *     65535, then its top bits.
 * The matrix is the textbook recursive one but for 8 of its 256 entries,
 * where GStreamer's departs from it (measured from its output; the
 * entries of src/convert.c's dither_departures). Chroma layouts must
 * match: a change of subsampling is refused. */
#ifndef __VH_CONVERT_H__
#define __VH_CONVERT_H__

#include <glib.h>

#include "picture.h"

G_BEGIN_DECLS

typedef struct _VhDepthConverter VhDepthConverter;

/* A converter of @src pictures to @bpc bits a sample (same size and
 * chroma layout). */
VhDepthConverter *vh_depth_converter_new (const VhPictureInfo * src,
                                          guint bpc, GError ** error);

const VhPictureInfo *vh_depth_converter_get_output_info
                                         (const VhDepthConverter * conv);

/* A new host picture of the output depth holding @src converted; @src is
 * a planar host picture of the input geometry (luma only gives luma
 * only). */
VhPicture   *vh_depth_converter_convert  (VhDepthConverter * conv,
                                          const VhPicture * src,
                                          GError ** error);

void         vh_depth_converter_free     (VhDepthConverter * conv);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VhDepthConverter, vh_depth_converter_free)

G_END_DECLS

#endif /* __VH_CONVERT_H__ */
