/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "monitor-config.h"
#include "backend-choice.h"

#include <string.h>

#define CHANNEL_PREFIX "channel "

/* Keys a channel takes; the [monitor] group takes them too, as defaults
 * (less reference and distorted), plus listen and port. */
static const gchar *const channel_keys[] = {
  "reference", "distorted", "distortion", "model", "features", "backend", "device",
  "threads", "subsample", "latency", "restart-delay", "restart-delay-max",
  "restart-on-eos", "stall-timeout", NULL
};

static const gchar *const monitor_only_keys[] = { "listen", "port", NULL };

static void
channel_config_free (MonitorChannelConfig * c)
{
  g_free (c->name);
  g_free (c->reference);
  g_free (c->distorted);
  g_free (c->distortion);
  g_free (c->model);
  g_free (c->features);
  g_free (c->backend);
  g_free (c);
}

void
monitor_config_free (MonitorConfig * config)
{
  if (!config)
    return;
  g_free (config->listen);
  g_ptr_array_unref (config->channels);
  g_free (config);
}

/* Reading one group: the file, the group and the first error. */
typedef struct
{
  GKeyFile *kf;
  const gchar *path;
  const gchar *group;
  GError *error;
} Reader;

static void
fail (Reader * r, const gchar * key, const gchar * what)
{
  if (r->error)
    return;
  g_set_error (&r->error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
      "%s: [%s] %s: %s", r->path, r->group, key, what);
}

static gboolean
has (Reader * r, const gchar * key)
{
  return g_key_file_has_key (r->kf, r->group, key, NULL);
}

static void
read_string (Reader * r, const gchar * key, gchar ** value)
{
  gchar *v;

  if (!has (r, key))
    return;
  v = g_key_file_get_string (r->kf, r->group, key, NULL);
  if (!v) {
    fail (r, key, "not a string");
    return;
  }
  g_strstrip (v);
  g_free (*value);
  *value = v;
}

static void
read_int (Reader * r, const gchar * key, gint64 min, gint64 max,
    gint64 * value)
{
  gchar *v;
  gint64 n;

  if (!has (r, key))
    return;
  v = g_key_file_get_string (r->kf, r->group, key, NULL);
  if (!v || !g_ascii_string_to_signed (g_strstrip (v), 10, min, max, &n,
          NULL)) {
    gchar *what = g_strdup_printf ("\"%s\" is not a whole number from %"
        G_GINT64_FORMAT " to %" G_GINT64_FORMAT, v ? v : "", min, max);
    fail (r, key, what);
    g_free (what);
  } else {
    *value = n;
  }
  g_free (v);
}

static void
read_seconds (Reader * r, const gchar * key, gdouble * value)
{
  gchar *v, *end = NULL;
  gdouble d;

  if (!has (r, key))
    return;
  v = g_key_file_get_string (r->kf, r->group, key, NULL);
  d = v ? g_ascii_strtod (g_strstrip (v), &end) : -1;
  if (!v || !*v || *end || !(d >= 0 && d <= 86400)) {
    gchar *what = g_strdup_printf ("\"%s\" is not a number of seconds from "
        "0 to 86400", v ? v : "");
    fail (r, key, what);
    g_free (what);
  } else {
    *value = d;
  }
  g_free (v);
}

static void
read_bool (Reader * r, const gchar * key, gboolean * value)
{
  GError *err = NULL;
  gboolean b;

  if (!has (r, key))
    return;
  b = g_key_file_get_boolean (r->kf, r->group, key, &err);
  if (err) {
    fail (r, key, "not true or false");
    g_error_free (err);
  } else {
    *value = b;
  }
}

static gboolean
in_list (const gchar * const *list, const gchar * s)
{
  return g_strv_contains (list, s);
}

static void
check_keys (Reader * r, gboolean is_monitor)
{
  gchar **keys = g_key_file_get_keys (r->kf, r->group, NULL, NULL);

  for (guint i = 0; keys && keys[i]; i++) {
    const gchar *k = keys[i];
    gboolean known = in_list (channel_keys, k) &&
        !(is_monitor && (!strcmp (k, "reference") || !strcmp (k,
                    "distorted") || !strcmp (k, "distortion")));

    if (is_monitor && in_list (monitor_only_keys, k))
      known = TRUE;
    if (!known)
      fail (r, k, "unknown key");
  }
  g_strfreev (keys);
}

/* The channel keys of the current group over @c (defaults or inherited). */
static void
read_channel_keys (Reader * r, MonitorChannelConfig * c)
{
  gint64 n;

  read_string (r, "reference", &c->reference);
  read_string (r, "distorted", &c->distorted);
  read_string (r, "distortion", &c->distortion);
  read_string (r, "model", &c->model);
  read_string (r, "features", &c->features);
  read_string (r, "backend", &c->backend);
  if (c->backend) {
    VhBackendChoice choice;
    if (vh_backend_choice_from_string (c->backend, &choice)) {
      g_free (c->backend);
      c->backend = g_strdup (vh_backend_choice_to_string (choice));
    } else {
      fail (r, "backend", "must be auto, cpu or hip");
    }
  }
  n = c->device;
  read_int (r, "device", -1, G_MAXINT, &n);
  c->device = n;
  n = c->threads;
  read_int (r, "threads", 0, 256, &n);
  c->threads = n;
  n = c->subsample;
  read_int (r, "subsample", 1, 1000, &n);
  c->subsample = n;
  n = c->latency_ms;
  read_int (r, "latency", 0, 60000, &n);
  c->latency_ms = n;
  read_seconds (r, "restart-delay", &c->restart_delay);
  read_seconds (r, "restart-delay-max", &c->restart_delay_max);
  read_bool (r, "restart-on-eos", &c->restart_on_eos);
  read_seconds (r, "stall-timeout", &c->stall_timeout);
}

static MonitorChannelConfig *
channel_config_copy (const MonitorChannelConfig * src, const gchar * name)
{
  MonitorChannelConfig *c = g_memdup2 (src, sizeof (*src));

  c->name = g_strdup (name);
  c->reference = g_strdup (src->reference);
  c->distorted = g_strdup (src->distorted);
  c->distortion = g_strdup (src->distortion);
  c->model = g_strdup (src->model);
  c->features = g_strdup (src->features);
  c->backend = g_strdup (src->backend);
  return c;
}

MonitorConfig *
monitor_config_load (const gchar * path, GError ** error)
{
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_auto (GStrv) groups = NULL;
  g_autoptr (MonitorConfig) config = g_new0 (MonitorConfig, 1);
  MonitorChannelConfig defaults = {
    .model = (gchar *) "vmaf_v0.6.1",
    .features = (gchar *) "",
    .backend = (gchar *) "auto",
    .device = 0,
    .subsample = 1,
    .restart_delay = 1.0,
    .restart_delay_max = 60.0,
    .stall_timeout = 30.0,
  };
  Reader r = { kf, path, "monitor", NULL };
  gint64 port = MONITOR_DEFAULT_PORT;
  GHashTable *names;

  config->listen = g_strdup (MONITOR_DEFAULT_LISTEN);
  config->channels =
      g_ptr_array_new_with_free_func ((GDestroyNotify) channel_config_free);
  if (!g_key_file_load_from_file (kf, path, G_KEY_FILE_NONE, error)) {
    g_prefix_error (error, "%s: ", path);
    return NULL;
  }

  /* Defaults: strings duplicated so that reading can replace them. */
  defaults.model = g_strdup (defaults.model);
  defaults.features = g_strdup (defaults.features);
  defaults.backend = g_strdup (defaults.backend);
  if (g_key_file_has_group (kf, "monitor")) {
    check_keys (&r, TRUE);
    read_string (&r, "listen", &config->listen);
    read_int (&r, "port", 0, 65535, &port);
    read_channel_keys (&r, &defaults);
  }
  config->port = port;

  names = g_hash_table_new (g_str_hash, g_str_equal);
  groups = g_key_file_get_groups (kf, NULL);
  for (guint i = 0; groups[i] && !r.error; i++) {
    const gchar *g = groups[i];
    MonitorChannelConfig *c;
    gchar *name;

    if (!strcmp (g, "monitor"))
      continue;
    r.group = g;
    if (!g_str_has_prefix (g, CHANNEL_PREFIX)) {
      fail (&r, "group", "unknown group (expected [monitor] or "
          "[channel NAME])");
      break;
    }
    name = g_strstrip (g_strdup (g + strlen (CHANNEL_PREFIX)));
    c = channel_config_copy (&defaults, name);
    g_free (name);
    g_ptr_array_add (config->channels, c);
    check_keys (&r, FALSE);
    read_channel_keys (&r, c);
    if (!*c->name)
      fail (&r, "group", "the channel has no name");
    else if (g_hash_table_contains (names, c->name))
      fail (&r, "group", "another channel has the same name");
    g_hash_table_add (names, c->name);
    if (!c->reference || !*c->reference)
      fail (&r, "reference", "missing (a URI or a pipeline fragment)");
    if (c->distorted && *c->distorted && c->distortion && *c->distortion)
      fail (&r, "distortion", "give either distorted or distortion");
    else if ((!c->distorted || !*c->distorted) &&
        (!c->distortion || !*c->distortion))
      fail (&r, "distorted", "missing (a URI or a pipeline fragment, or "
          "distortion: what makes it from the reference)");
    if (c->restart_delay_max < c->restart_delay)
      fail (&r, "restart-delay-max", "less than restart-delay");
  }
  g_hash_table_unref (names);
  g_free (defaults.model);
  g_free (defaults.features);
  g_free (defaults.backend);
  g_free (defaults.reference);
  g_free (defaults.distorted);
  g_free (defaults.distortion);

  if (!r.error && config->channels->len == 0)
    g_set_error (&r.error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_GROUP_NOT_FOUND,
        "%s: no [channel NAME] group", path);
  if (r.error) {
    g_propagate_error (error, r.error);
    return NULL;
  }
  return g_steal_pointer (&config);
}
