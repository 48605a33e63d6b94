/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __VH_Y4M_H__
#define __VH_Y4M_H__

#include <glib.h>
#include <stdio.h>

#include "feature-colorimetry.h"
#include "picture.h"

G_BEGIN_DECLS

/* What a Y4M stream starts with. */
#define VH_Y4M_SIGNATURE "YUV4MPEG2"
/* Longest FRAME line read (its parameters included). */
#define VH_Y4M_FRAME_LINE_MAX 256

/* Reads the header line at @file's position (the signature included)
 * into @info: width and height strictly in 1..32768, the colour space
 * matched whole (420, 420jpeg, 420mpeg2, 420paldv, 422, 422jpeg, 444,
 * mono, or one with its depth: 420p10, mono16). Errors name @path and the
 * tag. @color (may be NULL) gets the range of ffmpeg's XCOLORRANGE=FULL
 * or LIMITED (another value is refused); Y4M has no matrix, and its
 * "jpeg" colour spaces say where chroma is sited, not the range, so both
 * are otherwise UNKNOWN. */
gboolean     vh_y4m_read_header          (FILE * file, const gchar * path,
                                          VhPictureInfo * info,
                                          VhColorimetry * color,
                                          GError ** error);

/* @line (@len bytes, not NUL-terminated) is a FRAME line: "FRAME", maybe
 * parameters, and its end of line at the end, not before (nor a NUL). */
gboolean     vh_y4m_frame_line_ok        (const gchar * line, gsize len);

G_END_DECLS

#endif /* __VH_Y4M_H__ */
