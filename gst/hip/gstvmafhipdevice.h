/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_DEVICE_H__
#define __GST_VMAF_HIP_DEVICE_H__

#include <gst/gst.h>

#include "vhhip.h"

G_BEGIN_DECLS

/**
 * GstVmafHipVendor:
 * @GST_VMAF_HIP_VENDOR_UNKNOWN: any (as a request: pick automatically)
 * @GST_VMAF_HIP_VENDOR_AMD: AMD, through the HIP runtime
 * @GST_VMAF_HIP_VENDOR_NVIDIA: NVIDIA, through the CUDA driver
 */
typedef enum
{
  GST_VMAF_HIP_VENDOR_UNKNOWN = VH_HIP_VENDOR_UNKNOWN,
  GST_VMAF_HIP_VENDOR_AMD = VH_HIP_VENDOR_AMD,
  GST_VMAF_HIP_VENDOR_NVIDIA = VH_HIP_VENDOR_NVIDIA,
} GstVmafHipVendor;

#define GST_TYPE_VMAF_HIP_VENDOR (gst_vmaf_hip_vendor_get_type ())
GType        gst_vmaf_hip_vendor_get_type     (void);

#define GST_TYPE_VMAF_HIP_DEVICE (gst_vmaf_hip_device_get_type ())
G_DECLARE_FINAL_TYPE (GstVmafHipDevice, gst_vmaf_hip_device, GST,
    VMAF_HIP_DEVICE, GstObject)

/* Opens device @device_id (negative: 0) of @vendor. NULL with @error
 * (VH_HIP_ERROR: no runtime, no device, index out of range) otherwise. */
GstVmafHipDevice *gst_vmaf_hip_device_new         (GstVmafHipVendor vendor,
                                          gint device_id, GError ** error);

VhHipDevice  *gst_vmaf_hip_device_get_handle  (GstVmafHipDevice * device);

/* The stream on which memory of this device moves between host and
 * device. */
VhHipStream  *gst_vmaf_hip_device_get_stream  (GstVmafHipDevice * device);

GstVmafHipVendor  gst_vmaf_hip_device_get_vendor  (GstVmafHipDevice * device);

guint         gst_vmaf_hip_device_get_device_id (GstVmafHipDevice * device);

/* Same vendor and device index. */
gboolean      gst_vmaf_hip_device_is_equal    (GstVmafHipDevice * a,
                                          GstVmafHipDevice * b);

G_END_DECLS

#endif /* __GST_VMAF_HIP_DEVICE_H__ */
