/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* SIGHUP: vmafhip-monitor reads its configuration again and brings the
 * running channels in line with it. */

#ifndef __MONITOR_RELOAD_H__
#define __MONITOR_RELOAD_H__

#include "monitor-config.h"
#include "monitor-devices.h"

G_BEGIN_DECLS

/* Reads @path. A file that does not load changes nothing (FALSE and
 * @error). Otherwise channels of unchanged settings keep running, counters
 * and pipeline untouched; channels whose settings changed restart with the
 * new ones (their counters start again); removed channels stop; new ones
 * start; @channels (MonitorChannel*) follows the new file's order and
 * *@config is the new configuration. [monitor] listen, port and
 * max-connections keep their running values (a restart applies them). */
gboolean monitor_reload (const gchar * path, MonitorConfig ** config,
                         GPtrArray * channels, MonitorDevices * devices,
                         GError ** error);

G_END_DECLS

#endif /* __MONITOR_RELOAD_H__ */
