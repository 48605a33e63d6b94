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
  GSocketService *service;      /* accepts; libsoup serves what it accepts */
  GSocketAddress *bound;        /* the address and port actually bound */
  MonitorHttpRenderFunc render;
  gpointer user_data;
};

static gboolean
method_allowed (SoupServerMessage * msg)
{
  const gchar *method = soup_server_message_get_method (msg);

  /* One request per connection: libsoup 3.2 does not release an idle
   * kept-alive connection that the client closes (one descriptor lost per
   * scrape, fixed in 3.3), and a scrape every few seconds needs none. */
  soup_message_headers_replace (soup_server_message_get_response_headers
      (msg), "Connection", "close");

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

/* Connections are accepted here and handed to libsoup: its own listener
 * (3.2) keeps every accepted socket object after the connection ends. */
static gboolean
on_incoming (GSocketService * service, GSocketConnection * connection,
    GObject * source, gpointer user_data)
{
  MonitorHttp *http = user_data;
  GSocketAddress *local = g_socket_connection_get_local_address (connection,
      NULL);
  GSocketAddress *remote =
      g_socket_connection_get_remote_address (connection, NULL);
  GError *err = NULL;

  if (!soup_server_accept_iostream (http->server, G_IO_STREAM (connection),
          local, remote, &err)) {
    g_warning ("HTTP connection refused: %s", err->message);
    g_error_free (err);
  }
  g_clear_object (&local);
  g_clear_object (&remote);
  return TRUE;
}

MonitorHttp *
monitor_http_new (const gchar * address, guint port,
    MonitorHttpRenderFunc render, gpointer user_data, GError ** error)
{
  MonitorHttp *http;
  GSocketAddress *addr;
  GObject *bound = NULL;
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
  http->service = g_socket_service_new ();
  if (!g_socket_listener_add_address (G_SOCKET_LISTENER (http->service), addr,
          G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL,
          (GSocketAddress **) & bound, error)) {
    g_prefix_error (error, "cannot listen on %s port %u: ", address, port);
    g_object_unref (addr);
    monitor_http_free (http);
    return NULL;
  }
  g_object_unref (addr);
  http->bound = G_SOCKET_ADDRESS (bound);
  g_signal_connect (http->service, "incoming", G_CALLBACK (on_incoming), http);
  g_socket_service_start (http->service);
  return http;
}

void
monitor_http_free (MonitorHttp * http)
{
  if (!http)
    return;
  if (http->service) {
    g_socket_service_stop (http->service);
    g_socket_listener_close (G_SOCKET_LISTENER (http->service));
    g_object_unref (http->service);
  }
  if (http->server) {
    soup_server_disconnect (http->server);
    g_object_unref (http->server);
  }
  g_clear_object (&http->bound);
  /* Closed client connections are released from the main context. */
  while (g_main_context_iteration (NULL, FALSE));
  g_free (http);
}

gchar *
monitor_http_metrics_url (MonitorHttp * http)
{
  GInetSocketAddress *inet = G_INET_SOCKET_ADDRESS (http->bound);
  GInetAddress *ip = g_inet_socket_address_get_address (inet);
  gchar *host = g_inet_address_to_string (ip);
  gboolean v6 = g_inet_address_get_family (ip) == G_SOCKET_FAMILY_IPV6;
  gchar *url = g_strdup_printf ("http://%s%s%s:%u/metrics", v6 ? "[" : "",
      host, v6 ? "]" : "", g_inet_socket_address_get_port (inet));

  g_free (host);
  return url;
}
