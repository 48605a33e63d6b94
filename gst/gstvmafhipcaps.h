/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_CAPS_H__
#define __GST_VMAF_HIP_CAPS_H__

#include <gst/video/video.h>

G_BEGIN_DECLS

/* Checks the caps a sink pad (@pad_name) receives, on their own and
 * against the other pad's current caps (@other, NULL when it has none):
 * video the engine can score, a fixed frame rate (frames are paired in
 * time, and the base class cannot step through a variable rate), and the
 * same interlace mode and frame rate as the other side. Fails with a message that names
 * the pads and the values. */
gboolean     gst_vmaf_hip_check_sink_caps (GstCaps * caps,
                                           const gchar * pad_name,
                                           GstCaps * other,
                                           const gchar * other_name,
                                           GError ** error);

/* @caps (taken) with one structure per format, in @caps' order: an
 * upstream element that proxies the caps query (queue, tee) intersects
 * with its filter first, which reorders a format list by the source's
 * preference (videotestsrc lists 16-bit formats first), but keeps the
 * order of structures. A flexible source then takes our first format
 * (8-bit 4:2:0) instead of an up-conversion. */
GstCaps     *gst_vmaf_hip_caps_split_formats (GstCaps * caps);

/* How many frames at @n/@d fps make one at @on/@od fps: k when the first
 * rate is k (2 or more) times the second, else 1. */
guint        gst_vmaf_hip_rate_step        (gint n, gint d, gint on, gint od);

G_END_DECLS

#endif /* __GST_VMAF_HIP_CAPS_H__ */
