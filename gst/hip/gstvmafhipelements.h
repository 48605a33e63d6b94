/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_ELEMENTS_H__
#define __GST_VMAF_HIP_ELEMENTS_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* Registers vmafhipupload and vmafhipdownload. They register whether or
 * not a GPU runtime is there: without one they fail at the READY to
 * PAUSED change, saying why. */
gboolean     gst_vmaf_hip_elements_register   (GstPlugin * plugin);

G_END_DECLS

#endif /* __GST_VMAF_HIP_ELEMENTS_H__ */
