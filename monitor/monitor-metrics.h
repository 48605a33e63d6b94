/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The channels' state and scores in Prometheus' text exposition format
 * (version 0.0.4), what /metrics serves. */

#ifndef __MONITOR_METRICS_H__
#define __MONITOR_METRICS_H__

#include <glib.h>

#include "monitor-devices.h"

G_BEGIN_DECLS

#define MONITOR_METRICS_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

/* Every metric family of @channels (MonitorChannel*) and the GPUs they
 * share, each family's samples together, as Prometheus requires. */
gchar       *monitor_metrics_render       (GPtrArray * channels,
                                           MonitorDevices * devices);

/* A label value with \, " and newline escaped, as the format wants. */
gchar       *monitor_metrics_escape_label (const gchar * value);

/* A sample value: shortest exact decimal, NaN, +Inf or -Inf. */
void         monitor_metrics_append_value (GString * out, gdouble value);

G_END_DECLS

#endif /* __MONITOR_METRICS_H__ */
