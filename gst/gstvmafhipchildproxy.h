/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __GST_VMAF_HIP_CHILD_PROXY_H__
#define __GST_VMAF_HIP_CHILD_PROXY_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* The element as a GstChildProxy whose children are its sink pads, so
 * that a pad's properties can be set by name from a launch line, as on
 * compositor: "ref_sink::offset=-1300000000". */
G_GNUC_INTERNAL
void         gst_vmaf_hip_child_proxy_init (gpointer g_iface,
                                            gpointer iface_data);

G_END_DECLS

#endif /* __GST_VMAF_HIP_CHILD_PROXY_H__ */
