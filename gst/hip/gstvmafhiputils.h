/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_UTILS_H__
#define __GST_VMAF_HIP_UTILS_H__

#include <gst/gst.h>

#include "gstvmafhipdevice.h"

G_BEGIN_DECLS

/* The GstContext type that carries a GstVmafHipDevice ("device"), with its
 * "vendor" and "device-id". Not GStreamer's "gst.hip.device": that one
 * carries a device of another type. */
#define GST_VMAF_HIP_DEVICE_CONTEXT_TYPE "vmafhip.hip.device"

GstContext  *gst_context_new_vmaf_hip_device  (GstVmafHipDevice * device);

/* For GstElement::set_context: takes the device of a "vmafhip.hip.device"
 * context into @device when it matches @vendor (UNKNOWN: any) and
 * @device_id (negative: any) and @device is still empty. */
gboolean     gst_vmaf_hip_handle_set_context  (GstElement * element,
                                          GstContext * context,
                                          GstVmafHipVendor vendor,
                                          gint device_id,
                                          GstVmafHipDevice ** device);

/* Answers a context query for "vmafhip.hip.device" with @device. */
gboolean     gst_vmaf_hip_handle_context_query (GstElement * element,
                                          GstQuery * query,
                                          GstVmafHipDevice * device);

/* Makes sure @device holds a device: asks the neighbours (context query
 * downstream, then upstream), then the application (need-context), and
 * else opens one and tells the pipeline (have-context), so that elements
 * of one pipeline share one device. FALSE with @error when no device can
 * be opened. */
gboolean     gst_vmaf_hip_ensure_element_device (GstElement * element,
                                          GstVmafHipVendor vendor,
                                          gint device_id,
                                          GstVmafHipDevice ** device,
                                          GError ** error);

G_END_DECLS

#endif /* __GST_VMAF_HIP_UTILS_H__ */
