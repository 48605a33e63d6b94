/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* A distorted picture brought to the reference's bit depth and chroma
 * layout, with the arithmetic of the element's convert=reference-format
 * (GStreamer's video converter with videoconvert's defaults), so that
 * vmafhip-score's --convert reference-format scores what the element
 * scores. Samples are worked on in 8 bits when the output has 8, else in
 * 16:
 *   - into 16 bits, each sample widened by repeating its top bits (8-bit
 *     v: v * 257; 10-bit: v << 6 | v >> 4); into 8, its top 8 bits
 *     (10-bit v: v >> 2);
 *   - chroma of more samples than the output's averaged: two rows into
 *     one ((a + b + 1) >> 1), then two columns into one, likewise;
 *   - from 16 bits to 10-16, an ordered (Bayer) dither added first: the
 *     16x16 Bayer matrix (0..255) times 2^(16 - depth) / 256, at the
 *     sample's place in luma coordinates (a 4:2:0 chroma sample at
 *     (2x, 2y)), the sum capped at 65535, then its top bits.
 * The matrix is the textbook recursive one but for 8 of its 256 entries,
 * where GStreamer's departs from it (measured from its output; the
 * entries of src/convert.c's dither_departures). Chroma may go from 4:4:4
 * to 4:2:2 or 4:2:0, and from 4:2:2 to 4:2:0 at 8 bits (GStreamer filters
 * 4:2:2 otherwise beyond 8 bits); the rest (more chroma than the input's,
 * luma only) is refused. */
#ifndef __VH_CONVERT_H__
#define __VH_CONVERT_H__

#include <glib.h>

#include "picture.h"

G_BEGIN_DECLS

typedef struct _VhFormatConverter VhFormatConverter;

/* A converter of @src pictures to @pix_fmt at @bpc bits a sample (same
 * size), or NULL with an error saying why it cannot be made. */
VhFormatConverter *vh_format_converter_new (const VhPictureInfo * src,
                                          VhPixFmt pix_fmt, guint bpc,
                                          GError ** error);

const VhPictureInfo *vh_format_converter_get_output_info
                                         (const VhFormatConverter * conv);

/* A new host picture of the output format holding @src converted; @src is
 * a planar host picture of the input geometry (luma only gives luma
 * only). */
VhPicture   *vh_format_converter_convert (VhFormatConverter * conv,
                                          const VhPicture * src,
                                          GError ** error);

void         vh_format_converter_free    (VhFormatConverter * conv);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VhFormatConverter, vh_format_converter_free)

G_END_DECLS

#endif /* __VH_CONVERT_H__ */
