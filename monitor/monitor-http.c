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

#include <errno.h>
#include <libsoup/soup.h>
#include <string.h>
#include <sys/resource.h>

/* A scrape needs one connection at a time; a few Prometheus servers and a
 * curl leave plenty of room under this. Lower under a low descriptor
 * limit: the channels' pipelines need descriptors too. ([monitor]
 * max-connections overrides both.) */
#define MAX_CONNECTIONS 32
/* Seconds a client has to send its request, then to take the answer. */
#define REQUEST_TIMEOUT_S 5
#define RESPONSE_TIMEOUT_S 10
/* Accepting stops this long when the process is out of descriptors (or
 * accept fails otherwise), instead of failing again at once. */
#define ACCEPT_PAUSE_MS 1000
#define ACCEPT_RETRY_MS 100
/* At most one warning about refused connections in this many seconds. */
#define WARNING_INTERVAL_S 60

typedef struct
{
  GSocketConnection *connection;
  GSocketAddress *remote;       /* what identifies its requests */
  gint64 deadline_us;           /* monotonic: closed when passed */
  gboolean request_read;
  gboolean closing;             /* shut down by us; libsoup closes it */
} Connection;

struct _MonitorHttp
{
  SoupServer *server;
  GSocketListener *listener;    /* accepts; libsoup serves what it accepts */
  GCancellable *cancel;
  GSocketAddress *bound;        /* the address and port actually bound */
  MonitorHttpRenderFunc render;
  gpointer user_data;

  GPtrArray *connections;       /* Connection*, open ones */
  guint max_connections;
  guint sweep_source;
  guint resume_source;
  gint64 last_warning_us;
  guint64 failed_accepts;       /* since the last warning */
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
  /* libsoup hands this handler every path under /metrics too. */
  if (strcmp (path, "/metrics") != 0) {
    soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
    return;
  }
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

/* ---------------------------------------------------------------------- */
/* Connections                                                             */

static void
connection_free (Connection * c)
{
  g_object_unref (c->connection);
  g_clear_object (&c->remote);
  g_free (c);
}

static GSocket *
connection_socket (Connection * c)
{
  return g_socket_connection_get_socket (c->connection);
}

/* Ends a connection that libsoup still serves: after a shutdown its next
 * read sees the end, and libsoup closes and releases it as usual (closing
 * the descriptor under it would leave it polling a number that the next
 * accept may reuse). */
static void
connection_shut (Connection * c)
{
  if (c->closing)
    return;
  c->closing = TRUE;
  g_socket_shutdown (connection_socket (c), TRUE, TRUE, NULL);
}

/* Forgets the connections libsoup has closed; shuts those past their
 * deadline. Returns how many are still open and not being shut. */
static guint
sweep (MonitorHttp * http)
{
  gint64 now = g_get_monotonic_time ();
  guint live = 0;

  for (guint i = http->connections->len; i-- > 0;) {
    Connection *c = g_ptr_array_index (http->connections, i);

    if (g_socket_is_closed (connection_socket (c))) {
      g_ptr_array_remove_index_fast (http->connections, i);
      continue;
    }
    if (now >= c->deadline_us)
      connection_shut (c);
    if (!c->closing)
      live++;
  }
  return live;
}

static void accept_next (MonitorHttp * http);

static gboolean
on_sweep (gpointer user_data)
{
  MonitorHttp *http = user_data;
  guint before = http->connections->len;

  sweep (http);
  /* Accepting was paused for want of descriptors: one is free now. */
  if (http->resume_source && http->connections->len < before) {
    g_source_remove (http->resume_source);
    http->resume_source = 0;
    accept_next (http);
  }
  if (http->connections->len == 0) {
    http->sweep_source = 0;
    return G_SOURCE_REMOVE;
  }
  return G_SOURCE_CONTINUE;
}

/* The connection waiting longest for its request (a slow or stalled
 * client), else the oldest: the one to give up for a newcomer. */
static Connection *
eviction_candidate (MonitorHttp * http)
{
  Connection *oldest = NULL, *oldest_waiting = NULL;

  for (guint i = 0; i < http->connections->len; i++) {
    Connection *c = g_ptr_array_index (http->connections, i);

    if (c->closing)
      continue;
    if (!oldest || c->deadline_us < oldest->deadline_us)
      oldest = c;
    if (!c->request_read && (!oldest_waiting ||
            c->deadline_us < oldest_waiting->deadline_us))
      oldest_waiting = c;
  }
  return oldest_waiting ? oldest_waiting : oldest;
}

static gboolean
same_address (GSocketAddress * a, GSocketAddress * b)
{
  GInetSocketAddress *ia, *ib;

  if (a == b)
    return TRUE;
  if (!G_IS_INET_SOCKET_ADDRESS (a) || !G_IS_INET_SOCKET_ADDRESS (b))
    return FALSE;
  ia = G_INET_SOCKET_ADDRESS (a);
  ib = G_INET_SOCKET_ADDRESS (b);
  return g_inet_socket_address_get_port (ia) ==
      g_inet_socket_address_get_port (ib) &&
      g_inet_address_equal (g_inet_socket_address_get_address (ia),
      g_inet_socket_address_get_address (ib));
}

/* The request is in: the connection now has the response's time. (A
 * message of a connection accepted from a stream has no socket in libsoup
 * 3.2: the peer's address tells the connection.) */
static void
on_request_read (SoupServer * server, SoupServerMessage * msg,
    gpointer user_data)
{
  MonitorHttp *http = user_data;
  GSocketAddress *remote = soup_server_message_get_remote_address (msg);

  for (guint i = 0; i < http->connections->len; i++) {
    Connection *c = g_ptr_array_index (http->connections, i);

    if (remote && c->remote && !c->closing && !c->request_read &&
        same_address (c->remote, remote)) {
      c->request_read = TRUE;
      c->deadline_us = g_get_monotonic_time () +
          RESPONSE_TIMEOUT_S * G_USEC_PER_SEC;
    }
  }
}

static void
serve (MonitorHttp * http, GSocketConnection * connection)
{
  GSocketAddress *local = g_socket_connection_get_local_address (connection,
      NULL);
  GSocketAddress *remote =
      g_socket_connection_get_remote_address (connection, NULL);
  GError *err = NULL;
  Connection *c;

  /* Full: a newcomer is served, the client waiting longest is not. */
  if (sweep (http) >= http->max_connections) {
    Connection *victim = eviction_candidate (http);

    if (victim)
      connection_shut (victim);
  }
  c = g_new0 (Connection, 1);
  c->connection = g_object_ref (connection);
  c->remote = remote ? g_object_ref (remote) : NULL;
  c->deadline_us = g_get_monotonic_time () +
      REQUEST_TIMEOUT_S * G_USEC_PER_SEC;
  g_ptr_array_add (http->connections, c);
  if (!http->sweep_source)
    http->sweep_source = g_timeout_add (250, on_sweep, http);

  if (!soup_server_accept_iostream (http->server, G_IO_STREAM (connection),
          local, remote, &err)) {
    g_message ("HTTP connection refused: %s", err->message);
    g_error_free (err);
    connection_shut (c);
    g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
  }
  g_clear_object (&local);
  g_clear_object (&remote);
}

/* ---------------------------------------------------------------------- */
/* Accepting                                                               */

static gboolean
on_resume (gpointer user_data)
{
  MonitorHttp *http = user_data;

  http->resume_source = 0;
  accept_next (http);
  return G_SOURCE_REMOVE;
}

/* A failed accept (out of descriptors above all) is tried again after a
 * pause (or once a connection closes), not at once: the pending connection
 * would fail it again in a loop. Out of descriptors, the connection limit
 * comes down to what the process can hold beside its pipelines, and the
 * client waiting longest gives its descriptor back. One warning says so,
 * then at most one a minute with a count. */
static void
accept_failed (MonitorHttp * http, GError * err)
{
  gboolean out_of_descriptors =
      g_error_matches (err, G_IO_ERROR, G_IO_ERROR_TOO_MANY_OPEN_FILES) ||
      g_error_matches (err, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  guint pause_ms = out_of_descriptors ? ACCEPT_PAUSE_MS : ACCEPT_RETRY_MS;
  gint64 now = g_get_monotonic_time ();
  guint live = sweep (http);

  http->failed_accepts++;
  if (out_of_descriptors) {
    Connection *victim = eviction_candidate (http);

    if (live > 1 && live - 1 < http->max_connections)
      http->max_connections = live - 1;
    if (victim && !victim->request_read)
      connection_shut (victim);
  }
  if (!http->last_warning_us ||
      now - http->last_warning_us >= WARNING_INTERVAL_S * G_USEC_PER_SEC) {
    struct rlimit lim = { 0 };

    getrlimit (RLIMIT_NOFILE, &lim);
    g_warning ("cannot accept HTTP connections: %s (descriptor limit %llu; "
        "%" G_GUINT64_FORMAT " failed accepts since the last warning); "
        "accepting again in %u ms, at most %u connections at a time",
        err->message, (unsigned long long) lim.rlim_cur, http->failed_accepts,
        pause_ms, http->max_connections);
    http->last_warning_us = now;
    http->failed_accepts = 0;
  }
  http->resume_source = g_timeout_add (pause_ms, on_resume, http);
}

static void
on_accepted (GObject * source, GAsyncResult * result, gpointer user_data)
{
  MonitorHttp *http = user_data;
  GError *err = NULL;
  GSocketConnection *connection =
      g_socket_listener_accept_finish (G_SOCKET_LISTENER (source), result,
      NULL, &err);

  if (!connection) {
    /* Cancelled: @http is being freed. */
    if (!g_error_matches (err, G_IO_ERROR, G_IO_ERROR_CANCELLED))
      accept_failed (http, err);
    g_error_free (err);
    return;
  }
  serve (http, connection);
  g_object_unref (connection);
  accept_next (http);
}

static void
accept_next (MonitorHttp * http)
{
  g_socket_listener_accept_async (http->listener, http->cancel, on_accepted,
      http);
}

/* A quarter of the descriptors at most, and never more than
 * MAX_CONNECTIONS. */
static guint
connection_limit (void)
{
  struct rlimit lim;

  if (getrlimit (RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY)
    return MAX_CONNECTIONS;
  return CLAMP (lim.rlim_cur / 4, 2, MAX_CONNECTIONS);
}

MonitorHttp *
monitor_http_new (const gchar * address, guint port, guint max_connections,
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
  http->connections = g_ptr_array_new_with_free_func ((GDestroyNotify)
      connection_free);
  http->max_connections = max_connections ? max_connections :
      connection_limit ();
  http->server = soup_server_new ("server-header", "vmafhip-monitor ", NULL);
  soup_server_add_handler (http->server, "/metrics", on_metrics, http, NULL);
  soup_server_add_handler (http->server, NULL, on_other, http, NULL);
  g_signal_connect (http->server, "request-read",
      G_CALLBACK (on_request_read), http);
  http->listener = g_socket_listener_new ();
  /* Room for a burst of connections while the service is busy. */
  g_socket_listener_set_backlog (http->listener, 128);
  if (!g_socket_listener_add_address (http->listener, addr,
          G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL,
          (GSocketAddress **) & bound, error)) {
    g_prefix_error (error, "cannot listen on %s port %u: ", address, port);
    g_object_unref (addr);
    monitor_http_free (http);
    return NULL;
  }
  g_object_unref (addr);
  http->bound = G_SOCKET_ADDRESS (bound);
  http->cancel = g_cancellable_new ();
  accept_next (http);
  return http;
}

void
monitor_http_free (MonitorHttp * http)
{
  if (!http)
    return;
  if (http->cancel)
    g_cancellable_cancel (http->cancel);
  if (http->resume_source)
    g_source_remove (http->resume_source);
  if (http->sweep_source)
    g_source_remove (http->sweep_source);
  if (http->server) {
    soup_server_disconnect (http->server);
    g_signal_handlers_disconnect_by_data (http->server, http);
  }
  for (guint i = 0; i < http->connections->len; i++)
    connection_shut (g_ptr_array_index (http->connections, i));
  /* The cancelled accept and the closed client connections are released
   * from the main context. */
  while (g_main_context_iteration (NULL, FALSE));
  if (http->listener) {
    g_socket_listener_close (http->listener);
    g_object_unref (http->listener);
  }
  g_clear_object (&http->server);
  g_clear_object (&http->cancel);
  g_clear_object (&http->bound);
  g_ptr_array_unref (http->connections);
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
