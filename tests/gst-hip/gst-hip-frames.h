/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __VH_GST_HIP_FRAMES_H__
#define __VH_GST_HIP_FRAMES_H__

#include <gst/gst.h>

/* Every frame of @launch's appsink "out" (GstSample), in order; a bus
 * error fails the test. */
GPtrArray   *vh_gst_hip_pull_frames      (const gchar * launch);

/* Fails the test unless @a and @b hold the same visible samples (each line
 * unpacked, padding ignored); @what names the case. */
void         vh_gst_hip_assert_frames_equal (GstSample * a, GstSample * b,
                                          const gchar * what);

#endif /* __VH_GST_HIP_FRAMES_H__ */
