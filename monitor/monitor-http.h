/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HTTP side of vmafhip-monitor (libsoup): /metrics for Prometheus, a
 * short index at /. Served from the default main context. */

#ifndef __MONITOR_HTTP_H__
#define __MONITOR_HTTP_H__

#include <glib.h>

G_BEGIN_DECLS

typedef struct _MonitorHttp MonitorHttp;

/* Returns the /metrics body, newly allocated. */
typedef gchar *(*MonitorHttpRenderFunc) (gpointer user_data);

/* Listens on @address:@port (@port 0: any free one), serving at most
 * @max_connections at once (0: a quarter of the descriptor limit, at most
 * 32). */
MonitorHttp *monitor_http_new       (const gchar * address, guint port,
                                     guint max_connections,
                                     MonitorHttpRenderFunc render,
                                     gpointer user_data, GError ** error);

void         monitor_http_free      (MonitorHttp * http);

/* "http://ADDRESS:PORT/metrics", with the port actually bound. */
gchar       *monitor_http_metrics_url (MonitorHttp * http);

G_END_DECLS

#endif /* __MONITOR_HTTP_H__ */
