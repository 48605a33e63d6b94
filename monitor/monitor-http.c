/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "monitor-http.h"
#include "monitor-metrics.h"

#include <libsoup/soup.h>
#include <string.h>

struct _MonitorHttp
{
  SoupServer *server;
  MonitorHttpRenderFunc render;
  gpointer user_data;
};

static gboolean
method_allowed (SoupServerMessage * msg)
{
  const gchar *method = soup_server_message_get_method (msg);

  if (method == SOUP_METHOD_GET || method == SOUP_METHOD_HEAD)
    return TRUE;
  soup_message_headers_append (soup_server_message_get_response_headers (msg),
      "Allow", "GET, HEAD");
  soup_server_message_set_status (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, NULL);
  return FALSE;
}

static void
on_metrics (SoupServer * server, SoupServerMessage * msg, const char *path,
    GHashTable * query, gpointer user_data)
{
  MonitorHttp *http = user_data;
  gchar *body;

  if (!method_allowed (msg))
    return;
  body = http->render (http->user_data);
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, MONITOR_METRICS_CONTENT_TYPE,
      SOUP_MEMORY_TAKE, body, strlen (body));
}

static void
on_other (SoupServer * server, SoupServerMessage * msg, const char *path,
    GHashTable * query, gpointer user_data)
{
  static const gchar index[] =
      "vmafhip-monitor: VMAF of live channels for Prometheus.\n"
      "Scrape /metrics.\n";

  if (!method_allowed (msg))
    return;
  if (strcmp (path, "/") != 0) {
    soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
    return;
  }
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "text/plain; charset=utf-8",
      SOUP_MEMORY_STATIC, index, strlen (index));
}

MonitorHttp *
monitor_http_new (const gchar * address, guint port,
    MonitorHttpRenderFunc render, gpointer user_data, GError ** error)
{
  MonitorHttp *http;
  GSocketAddress *addr;
  GInetAddress *inet = g_inet_address_new_from_string (address);

  if (!inet) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "\"%s\" is not an IP address to listen on", address);
    return NULL;
  }
  addr = g_inet_socket_address_new (inet, port);
  g_object_unref (inet);

  http = g_new0 (MonitorHttp, 1);
  http->render = render;
  http->user_data = user_data;
  http->server = soup_server_new ("server-header", "vmafhip-monitor ", NULL);
  soup_server_add_handler (http->server, "/metrics", on_metrics, http, NULL);
  soup_server_add_handler (http->server, NULL, on_other, http, NULL);
  if (!soup_server_listen (http->server, addr, 0, error)) {
    g_prefix_error (error, "cannot listen on %s port %u: ", address, port);
    g_object_unref (addr);
    monitor_http_free (http);
    return NULL;
  }
  g_object_unref (addr);
  return http;
}

void
monitor_http_free (MonitorHttp * http)
{
  if (!http)
    return;
  if (http->server) {
    soup_server_disconnect (http->server);
    g_object_unref (http->server);
  }
  g_free (http);
}

gchar *
monitor_http_metrics_url (MonitorHttp * http)
{
  GSList *uris = soup_server_get_uris (http->server);
  gchar *url = NULL;

  if (uris) {
    GUri *base = uris->data;
    const gchar *host = g_uri_get_host (base);
    gboolean v6 = strchr (host, ':') != NULL;

    url = g_strdup_printf ("http://%s%s%s:%d/metrics", v6 ? "[" : "", host,
        v6 ? "]" : "", g_uri_get_port (base));
  }
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  return url;
}
