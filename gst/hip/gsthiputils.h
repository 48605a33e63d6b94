/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_HIP_UTILS_H__
#define __GST_HIP_UTILS_H__

#include <gst/gst.h>

#include "gsthipdevice.h"

G_BEGIN_DECLS

/* The GstContext type that carries a GstHipDevice ("device"), with its
 * "vendor" and "device-id", as GStreamer's HIP library names them. */
#define GST_HIP_DEVICE_CONTEXT_TYPE "gst.hip.device"

GstContext  *gst_context_new_hip_device  (GstHipDevice * device);

/* For GstElement::set_context: takes the device of a "gst.hip.device"
 * context into @device when it matches @vendor (UNKNOWN: any) and
 * @device_id (negative: any) and @device is still empty. */
gboolean     gst_hip_handle_set_context  (GstElement * element,
                                          GstContext * context,
                                          GstHipVendor vendor,
                                          gint device_id,
                                          GstHipDevice ** device);

/* Answers a context query for "gst.hip.device" with @device. */
gboolean     gst_hip_handle_context_query (GstElement * element,
                                          GstQuery * query,
                                          GstHipDevice * device);

/* Makes sure @device holds a device: asks the neighbours (context query
 * downstream, then upstream), then the application (need-context), and
 * else opens one and tells the pipeline (have-context), so that elements
 * of one pipeline share one device. FALSE with @error when no device can
 * be opened. */
gboolean     gst_hip_ensure_element_device (GstElement * element,
                                          GstHipVendor vendor,
                                          gint device_id,
                                          GstHipDevice ** device,
                                          GError ** error);

G_END_DECLS

#endif /* __GST_HIP_UTILS_H__ */
