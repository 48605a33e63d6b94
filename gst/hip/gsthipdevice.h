/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_HIP_DEVICE_H__
#define __GST_HIP_DEVICE_H__

#include <gst/gst.h>

#include "vhhip.h"

G_BEGIN_DECLS

/**
 * GstHipVendor:
 * @GST_HIP_VENDOR_UNKNOWN: any (as a request: pick automatically)
 * @GST_HIP_VENDOR_AMD: AMD, through the HIP runtime
 * @GST_HIP_VENDOR_NVIDIA: NVIDIA, through the CUDA driver
 */
typedef enum
{
  GST_HIP_VENDOR_UNKNOWN = VH_HIP_VENDOR_UNKNOWN,
  GST_HIP_VENDOR_AMD = VH_HIP_VENDOR_AMD,
  GST_HIP_VENDOR_NVIDIA = VH_HIP_VENDOR_NVIDIA,
} GstHipVendor;

#define GST_TYPE_HIP_VENDOR (gst_hip_vendor_get_type ())
GType        gst_hip_vendor_get_type     (void);

#define GST_TYPE_HIP_DEVICE (gst_hip_device_get_type ())
G_DECLARE_FINAL_TYPE (GstHipDevice, gst_hip_device, GST, HIP_DEVICE,
    GstObject)

/* Opens device @device_id (negative: 0) of @vendor. NULL with @error
 * (VH_HIP_ERROR: no runtime, no device, index out of range) otherwise. */
GstHipDevice *gst_hip_device_new         (GstHipVendor vendor,
                                          gint device_id, GError ** error);

VhHipDevice  *gst_hip_device_get_handle  (GstHipDevice * device);

/* The stream on which memory of this device moves between host and
 * device. */
VhHipStream  *gst_hip_device_get_stream  (GstHipDevice * device);

GstHipVendor  gst_hip_device_get_vendor  (GstHipDevice * device);

guint         gst_hip_device_get_device_id (GstHipDevice * device);

/* Same vendor and device index. */
gboolean      gst_hip_device_is_equal    (GstHipDevice * a,
                                          GstHipDevice * b);

G_END_DECLS

#endif /* __GST_HIP_DEVICE_H__ */
