/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* One GPU per device number for every channel of the service: the first
 * pipeline that opens a device announces it (a "vmafhip.hip.device" context in
 * a have-context message); later pipelines asking for that device
 * (need-context) get the same one, restarts included. */

#ifndef __MONITOR_DEVICES_H__
#define __MONITOR_DEVICES_H__

#include <gst/gst.h>

G_BEGIN_DECLS

typedef struct _MonitorDevices MonitorDevices;

MonitorDevices *monitor_devices_new            (void);

void            monitor_devices_free           (MonitorDevices * devices);

/* For a bus sync handler (any thread): answers a need-context or keeps a
 * have-context for "vmafhip.hip.device" from a pipeline that wants GPU
 * @device_id (-1: any). TRUE when @msg was such a message. */
gboolean        monitor_devices_handle_message (MonitorDevices * devices,
                                                GstMessage * msg,
                                                gint device_id);

/* How many devices are shared so far. */
guint           monitor_devices_count          (MonitorDevices * devices);

G_END_DECLS

#endif /* __MONITOR_DEVICES_H__ */
