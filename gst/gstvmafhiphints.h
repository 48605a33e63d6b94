/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_HINTS_H__
#define __GST_VMAF_HIP_HINTS_H__

#include <gst/video/video.h>

G_BEGIN_DECLS

/* Before the caps of @pad and @other are compared: when their sizes or
 * rates differ and one of them comes from a rawvideoparse that was given
 * no size (it parses 320x240 I420 at 25/1 by default, whatever the file
 * holds), fails saying that the size is missing, rather than pointing at
 * videoscale or videorate; so does @caps at a rate of 0/1 from such a
 * parser. @other_caps: NULL when @other has none yet. */
gboolean     gst_vmaf_hip_check_raw_defaults (GstPad * pad, GstCaps * caps,
                                              GstPad * other,
                                              GstCaps * other_caps,
                                              GError ** error);

G_END_DECLS

#endif /* __GST_VMAF_HIP_HINTS_H__ */
