/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_COLORIMETRY_H__
#define __GST_VMAF_HIP_COLORIMETRY_H__

#include <gst/video/video.h>

#include "feature-colorimetry.h"

G_BEGIN_DECLS

/* The caps' Y'CbCr matrix and range (@info's colorimetry) as the
 * extractors that convert to RGB take them. A matrix they have no
 * conversion for (fcc, smpte240m, rgb, a newer one) comes back UNKNOWN, so that their
 * default applies, and *@unconvertible names it (NULL otherwise);
 * unknown matrices and ranges come back UNKNOWN. */
void         gst_vmaf_hip_colorimetry_from_video (const GstVideoInfo * info,
                                                  VhColorimetry * out,
                                                  const gchar ** unconvertible);

G_END_DECLS

#endif /* __GST_VMAF_HIP_COLORIMETRY_H__ */
