/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_DOWNLOAD_H__
#define __GST_VMAF_HIP_DOWNLOAD_H__

#include "gstvmafhipmemorycopy.h"

G_BEGIN_DECLS

#define GST_TYPE_VMAF_HIP_DOWNLOAD (gst_vmaf_hip_download_get_type ())
G_DECLARE_FINAL_TYPE (GstVmafHipDownload, gst_vmaf_hip_download, GST,
    VMAF_HIP_DOWNLOAD, GstVmafHipMemoryCopy)

GST_ELEMENT_REGISTER_DECLARE (vmafhipdownload);

G_END_DECLS

#endif /* __GST_VMAF_HIP_DOWNLOAD_H__ */
