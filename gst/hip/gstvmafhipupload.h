/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_UPLOAD_H__
#define __GST_VMAF_HIP_UPLOAD_H__

#include "gstvmafhipmemorycopy.h"

G_BEGIN_DECLS

#define GST_TYPE_VMAF_HIP_UPLOAD (gst_vmaf_hip_upload_get_type ())
G_DECLARE_FINAL_TYPE (GstVmafHipUpload, gst_vmaf_hip_upload, GST,
    VMAF_HIP_UPLOAD, GstVmafHipMemoryCopy)

GST_ELEMENT_REGISTER_DECLARE (vmafhipupload);

G_END_DECLS

#endif /* __GST_VMAF_HIP_UPLOAD_H__ */
