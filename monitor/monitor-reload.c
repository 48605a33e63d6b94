/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "monitor-reload.h"
#include "monitor-channel.h"

#include <string.h>

static gint
find_channel (GPtrArray * channels, const gchar * name)
{
  for (guint i = 0; i < channels->len; i++) {
    MonitorChannel *ch = g_ptr_array_index (channels, i);

    if (!strcmp (monitor_channel_get_config (ch)->name, name))
      return i;
  }
  return -1;
}

static gboolean
in_config (MonitorConfig * config, const gchar * name)
{
  for (guint i = 0; i < config->channels->len; i++) {
    MonitorChannelConfig *c = g_ptr_array_index (config->channels, i);

    if (!strcmp (c->name, name))
      return TRUE;
  }
  return FALSE;
}

/* Where the running configuration holds @c: its slot, to hand over. */
static gpointer *
config_slot (MonitorConfig * config, const MonitorChannelConfig * c)
{
  for (guint i = 0; i < config->channels->len; i++)
    if (g_ptr_array_index (config->channels, i) == c)
      return &g_ptr_array_index (config->channels, i);
  return NULL;
}

gboolean
monitor_reload (const gchar * path, MonitorConfig ** config,
    GPtrArray * channels, MonitorDevices * devices, GError ** error)
{
  MonitorConfig *old = *config;
  MonitorConfig *next = monitor_config_load (path, error);
  GPtrArray *running;
  guint kept = 0, restarted = 0, added = 0, removed = 0;

  if (!next)
    return FALSE;

  if (g_strcmp0 (next->listen, old->listen) || next->port != old->port ||
      next->max_connections != old->max_connections)
    g_message ("reload: [monitor] listen, port and max-connections apply at "
        "start only: still serving on %s port %u", old->listen, old->port);
  g_free (next->listen);
  next->listen = g_strdup (old->listen);
  next->port = old->port;
  next->max_connections = old->max_connections;

  /* Removed channels stop first: their GPU may serve the new ones. */
  for (guint i = channels->len; i-- > 0;) {
    MonitorChannel *ch = g_ptr_array_index (channels, i);
    const gchar *name = monitor_channel_get_config (ch)->name;

    if (!in_config (next, name)) {
      g_message ("channel %s: removed by the reload", name);
      g_ptr_array_remove_index (channels, i);
      removed++;
    }
  }

  running = g_ptr_array_new ();
  for (guint j = 0; j < next->channels->len; j++) {
    MonitorChannelConfig *c = g_ptr_array_index (next->channels, j);
    gint found = find_channel (channels, c->name);
    MonitorChannel *ch = found >= 0 ?
        g_ptr_array_steal_index (channels, found) : NULL;

    if (ch && monitor_channel_config_equal (monitor_channel_get_config (ch),
            c)) {
      /* Kept: the channel goes on with its own settings object, now the
       * new configuration's. */
      gpointer *slot = config_slot (old,
          monitor_channel_get_config (ch));

      g_ptr_array_index (next->channels, j) = *slot;
      *slot = NULL;
      monitor_channel_config_free (c);
      kept++;
    } else {
      if (ch) {
        g_message ("channel %s: settings changed; restarting with them",
            c->name);
        monitor_channel_free (ch);
        restarted++;
      } else {
        g_message ("channel %s: added by the reload", c->name);
        added++;
      }
      ch = monitor_channel_new (c, devices);
      monitor_channel_start (ch);
    }
    g_ptr_array_add (running, ch);
  }
  g_assert (channels->len == 0);
  for (guint i = 0; i < running->len; i++)
    g_ptr_array_add (channels, g_ptr_array_index (running, i));
  g_ptr_array_unref (running);

  monitor_config_free (old);
  *config = next;
  g_message ("reloaded %s: %u channels unchanged, %u restarted with new "
      "settings, %u added, %u removed", path, kept, restarted, added,
      removed);
  return TRUE;
}
