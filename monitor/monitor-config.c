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

#include <gio/gio.h>
#include <math.h>
#include <string.h>

#define CHANNEL_PREFIX "channel "

/* Keys a channel takes; the [monitor] group takes them too, as defaults
 * (less reference and distorted), plus listen and port. */
static const gchar *const channel_keys[] = {
  "reference", "distorted", "distortion", "model", "features", "backend", "device",
  "threads", "subsample", "latency", "restart-delay", "restart-delay-max",
  "restart-on-eos", "stall-timeout", "pace", "histogram-metrics",
  "histogram-buckets", "thresholds", "min-window", "low-score-threshold",
  "low-score-min-frames", "black-threshold", "black-spread",
  "black-min-duration", "freeze-threshold", "freeze-min-duration",
  "window-frames", "align", "align-window", "labels", NULL
};

/* Keys of a channel that the [monitor] group cannot default. */
static const gchar *const channel_only_keys[] = {
  "reference", "distorted", "distortion", "labels", NULL
};

static const gchar *const monitor_only_keys[] = {
  "listen", "port", "max-connections", NULL
};

void
monitor_channel_config_free (MonitorChannelConfig * c)
{
  if (!c)
    return;                     /* taken over by a reloaded configuration */
  g_free (c->name);
  g_free (c->reference);
  g_free (c->distorted);
  g_free (c->distortion);
  g_strfreev (c->inputs);
  g_strfreev (c->labels);
  g_free (c->model);
  g_free (c->features);
  g_free (c->backend);
  g_strfreev (c->histogram_metrics);
  g_free (c->histogram_buckets);
  g_free (c->thresholds);
  g_free (c->align);
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
  /* The message is printed: bytes that are not UTF-8 shown as U+FFFD. */
  gchar *group, *k;

  if (r->error)
    return;
  group = g_utf8_make_valid (r->group, -1);
  k = g_utf8_make_valid (key, -1);
  g_set_error (&r->error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
      "%s: [%s] %s: %s", r->path, group, k, what);
  g_free (group);
  g_free (k);
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
read_seconds (Reader * r, const gchar * key, gdouble min, gdouble * value)
{
  gchar *v, *end = NULL;
  gdouble d;

  if (!has (r, key))
    return;
  v = g_key_file_get_string (r->kf, r->group, key, NULL);
  d = v ? g_ascii_strtod (g_strstrip (v), &end) : -1;
  if (!v || !*v || *end || !(d >= min && d <= 86400)) {
    gchar *what = g_strdup_printf ("\"%s\" is not a number of seconds from "
        "%g to 86400", v ? v : "", min);
    fail (r, key, what);
    g_free (what);
  } else {
    *value = d;
  }
  g_free (v);
}

/* A number from @min to @max (NaN and infinities are none); @what says
 * what it is in the error ("a score"). */
static void
read_number (Reader * r, const gchar * key, const gchar * what, gdouble min,
    gdouble max, gdouble * value)
{
  gchar *v, *end = NULL;
  gdouble d;

  if (!has (r, key))
    return;
  v = g_key_file_get_string (r->kf, r->group, key, NULL);
  d = v ? g_ascii_strtod (g_strstrip (v), &end) : -1;
  if (!v || !*v || *end || !(d >= min && d <= max)) {
    gchar *why = g_strdup_printf ("\"%s\" is not %s from %g to %g",
        v ? v : "", what, min, max);
    fail (r, key, why);
    g_free (why);
  } else {
    *value = d;
  }
  g_free (v);
}

/* A score threshold: any number from 0 to 1000 (VMAF, PSNR, ...). */
static void
read_score (Reader * r, const gchar * key, gdouble * value)
{
  read_number (r, key, "a score", 0, 1000, value);
}

/* The element's black and freeze limits: luma in 8-bit code values, its
 * properties' range (0 to 256). */
static void
read_luma (Reader * r, const gchar * key, gdouble * value)
{
  read_number (r, key, "a luma level (8-bit code values)", 0, 256, value);
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

/* A comma-separated list of finite numbers; @ascending: each above the
 * last (histogram bounds). An empty value is an empty list. */
static void
read_numbers (Reader * r, const gchar * key, gboolean ascending,
    gdouble ** values, guint * n_values)
{
  gchar *v = NULL;
  gchar **items;
  GArray *out;

  read_string (r, key, &v);
  if (!v)
    return;
  out = g_array_new (FALSE, FALSE, sizeof (gdouble));
  items = g_strsplit (v, ",", -1);
  for (guint i = 0; *v && items[i]; i++) {
    gchar *item = g_strstrip (items[i]), *end = NULL;
    gdouble d = g_ascii_strtod (item, &end);

    if (!*item || *end || !isfinite (d)) {
      gchar *what = g_strdup_printf ("\"%s\" is not a number (a list such "
          "as 40,60,80)", item);
      fail (r, key, what);
      g_free (what);
      break;
    }
    if (ascending && out->len &&
        d <= g_array_index (out, gdouble, out->len - 1)) {
      gchar *what = g_strdup_printf ("%s is not above the bound before it "
          "(bounds go up)", item);
      fail (r, key, what);
      g_free (what);
      break;
    }
    g_array_append_val (out, d);
  }
  g_strfreev (items);
  g_free (v);
  g_free (*values);
  *n_values = out->len;
  *values = (gdouble *) g_array_free (out, FALSE);
}

/* A comma-separated list of the "vmaf" message's value names. */
static void
read_names (Reader * r, const gchar * key, gchar *** names)
{
  gchar *v = NULL;
  GPtrArray *out;
  gchar **items;

  read_string (r, key, &v);
  if (!v)
    return;
  out = g_ptr_array_new ();
  items = g_strsplit (v, ",", -1);
  for (guint i = 0; *v && items[i]; i++) {
    gchar *item = g_strstrip (items[i]);

    if (!*item || !g_utf8_validate (item, -1, NULL) ||
        strpbrk (item, "\"\\\n")) {
      fail (r, key, "an empty or unusable name (a list such as vmaf,psnr_y)");
      break;
    }
    g_ptr_array_add (out, g_strdup (item));
  }
  g_strfreev (items);
  g_free (v);
  g_ptr_array_add (out, NULL);
  g_strfreev (*names);
  *names = (gchar **) g_ptr_array_free (out, FALSE);
}

/* pace: none (as fast as the element goes, or as live sources come) or
 * realtime (files played at their frame rate, as a live feed would). */
static void
read_pace (Reader * r, gboolean * realtime)
{
  gchar *v = NULL;

  read_string (r, "pace", &v);
  if (!v)
    return;
  if (!strcmp (v, "realtime"))
    *realtime = TRUE;
  else if (!strcmp (v, "none"))
    *realtime = FALSE;
  else
    fail (r, "pace", "must be none or realtime");
  g_free (v);
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
        !(is_monitor && in_list (channel_only_keys, k));

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
  /* No back-off at all would restart a failing channel in a tight loop. */
  read_seconds (r, "restart-delay", MONITOR_MIN_RESTART_DELAY,
      &c->restart_delay);
  read_seconds (r, "restart-delay-max", MONITOR_MIN_RESTART_DELAY,
      &c->restart_delay_max);
  read_bool (r, "restart-on-eos", &c->restart_on_eos);
  read_seconds (r, "stall-timeout", 0, &c->stall_timeout);
  read_pace (r, &c->pace_realtime);
  read_names (r, "histogram-metrics", &c->histogram_metrics);
  read_numbers (r, "histogram-buckets", TRUE, &c->histogram_buckets,
      &c->n_histogram_buckets);
  if (c->n_histogram_buckets == 0)
    fail (r, "histogram-buckets", "no bound (a list such as 10,20,...,100)");
  read_numbers (r, "thresholds", FALSE, &c->thresholds, &c->n_thresholds);
  read_seconds (r, "min-window", 0.1, &c->min_window);
  /* The element's, checked by the element (when it has them). */
  read_score (r, "low-score-threshold", &c->low_score_threshold);
  read_int (r, "low-score-min-frames", 1, G_MAXUINT, &c->low_score_min_frames);
  read_luma (r, "black-threshold", &c->black_threshold);
  read_luma (r, "black-spread", &c->black_spread);
  read_seconds (r, "black-min-duration", 0, &c->black_min_duration);
  read_luma (r, "freeze-threshold", &c->freeze_threshold);
  read_seconds (r, "freeze-min-duration", 0, &c->freeze_min_duration);
  read_int (r, "window-frames", 1, G_MAXUINT, &c->window_frames);
  read_string (r, "align", &c->align);
  if (c->align && strcmp (c->align, "timestamps") && strcmp (c->align,
          "content"))
    fail (r, "align", "must be timestamps or content");
  read_seconds (r, "align-window", 0.04, &c->align_window);
  if (c->align_window > 600)
    fail (r, "align-window", "more than 600 seconds (the element's limit)");
}

/* A ladder: distorted (or distortion) as a list split at ';' (launch
 * lines use commas in caps), and labels, one per input, split at ','. */
static void
read_ladder (Reader * r, MonitorChannelConfig * c)
{
  const gchar *key = c->distortion && *c->distortion ? "distortion" :
      "distorted";
  const gchar *value = c->distortion && *c->distortion ? c->distortion :
      c->distorted;
  g_auto (GStrv) items = NULL;
  GPtrArray *inputs;
  g_autoptr (GHashTable) seen = NULL;

  if (r->error || !value)
    return;
  items = g_strsplit (value, ";", -1);
  inputs = g_ptr_array_new ();
  for (guint i = 0; items[i]; i++) {
    gchar *item = g_strstrip (items[i]);

    if (!*item) {
      fail (r, key, "an empty input in the list (inputs are separated by "
          "';')");
      break;
    }
    g_ptr_array_add (inputs, g_strdup (item));
  }
  g_ptr_array_add (inputs, NULL);
  c->inputs = (gchar **) g_ptr_array_free (inputs, FALSE);
  g_clear_pointer (&c->labels, g_strfreev);
  if (!has (r, "labels") || r->error)
    return;
  read_names (r, "labels", &c->labels);
  if (r->error)
    return;
  if (g_strv_length (c->inputs) < 2) {
    fail (r, "labels", "labels name the renditions of a ladder: give two "
        "or more distorted inputs (separated by ';')");
    return;
  }
  if (g_strv_length (c->labels) != g_strv_length (c->inputs)) {
    g_autofree gchar *what = g_strdup_printf ("%u labels for %u distorted "
        "inputs (one each, separated by ',')", g_strv_length (c->labels),
        g_strv_length (c->inputs));

    fail (r, "labels", what);
    return;
  }
  seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; c->labels[i]; i++) {
    if (!g_hash_table_add (seen, c->labels[i])) {
      g_autofree gchar *what = g_strdup_printf ("\"%s\" is given twice "
          "(each rendition's label is its own)", c->labels[i]);

      fail (r, "labels", what);
      return;
    }
  }
}

gboolean
monitor_channel_config_is_ladder (const MonitorChannelConfig * c)
{
  return c->inputs && c->inputs[0] && c->inputs[1];
}

gchar *
monitor_channel_config_pad_name (guint i)
{
  return i ? g_strdup_printf ("dist_sink_%u", i) : g_strdup ("dist_sink");
}

static MonitorChannelConfig *
channel_config_copy (const MonitorChannelConfig * src, const gchar * name)
{
  MonitorChannelConfig *c = g_memdup2 (src, sizeof (*src));

  c->name = g_strdup (name);
  c->reference = g_strdup (src->reference);
  c->distorted = g_strdup (src->distorted);
  c->distortion = g_strdup (src->distortion);
  c->inputs = g_strdupv (src->inputs);
  c->labels = g_strdupv (src->labels);
  c->model = g_strdup (src->model);
  c->features = g_strdup (src->features);
  c->backend = g_strdup (src->backend);
  c->histogram_metrics = g_strdupv (src->histogram_metrics);
  c->histogram_buckets = g_memdup2 (src->histogram_buckets,
      src->n_histogram_buckets * sizeof (gdouble));
  c->thresholds = g_memdup2 (src->thresholds,
      src->n_thresholds * sizeof (gdouble));
  c->align = g_strdup (src->align);
  return c;
}

/* GKeyFile merges a group given twice and keeps the last of a key given
 * twice: both are mistakes in a configuration (a channel pasted twice, a
 * key overridden further down), so the text is scanned for them. */
static gboolean
check_duplicates (const gchar * path, const gchar * text, GError ** error)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr (GHashTable) groups =
      g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) keys =
      g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree gchar *group = NULL;

  for (guint i = 0; lines[i]; i++) {
    gchar *line = g_strstrip (lines[i]);
    guint first;

    if (!*line || *line == '#')
      continue;
    if (*line == '[') {
      gchar *end = strrchr (line, ']');

      if (!end)
        continue;               /* GKeyFile says what is wrong */
      g_free (group);
      group = g_strndup (line + 1, end - line - 1);
      first = GPOINTER_TO_UINT (g_hash_table_lookup (groups, group));
      if (first) {
        g_autofree gchar *shown = g_utf8_make_valid (group, -1);

        g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_PARSE,
            "%s: line %u: [%s] is given a second time (first on line %u)",
            path, i + 1, shown, first);
        return FALSE;
      }
      g_hash_table_insert (groups, g_strdup (group),
          GUINT_TO_POINTER (i + 1));
    } else if (group && strchr (line, '=')) {
      g_autofree gchar *key = g_strndup (line, strchr (line, '=') - line);
      g_autofree gchar *id = NULL;

      g_strchomp (key);
      id = g_strdup_printf ("%s\n%s", group, key);
      first = GPOINTER_TO_UINT (g_hash_table_lookup (keys, id));
      if (first) {
        g_autofree gchar *shown_group = g_utf8_make_valid (group, -1);
        g_autofree gchar *shown_key = g_utf8_make_valid (key, -1);

        g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_PARSE,
            "%s: line %u: [%s] %s: given a second time (first on line %u)",
            path, i + 1, shown_group, shown_key, first);
        return FALSE;
      }
      g_hash_table_insert (keys, g_steal_pointer (&id),
          GUINT_TO_POINTER (i + 1));
    }
  }
  return TRUE;
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
    .min_window = MONITOR_DEFAULT_MIN_WINDOW,
    .low_score_threshold = -1,
    .black_threshold = -1,
    .black_spread = -1,
    .black_min_duration = -1,
    .freeze_threshold = -1,
    .freeze_min_duration = -1,
    .align_window = -1,
  };
  static const gdouble default_buckets[] = {
    10, 20, 30, 40, 50, 60, 70, 80, 90, 100
  };
  static const gdouble default_thresholds[] = { 40, 60, 80 };
  Reader r = { kf, path, "monitor", NULL };
  gint64 port = MONITOR_DEFAULT_PORT;
  gint64 max_connections = 0;
  GHashTable *names;
  g_autofree gchar *text = NULL;
  gsize length;

  config->listen = g_strdup (MONITOR_DEFAULT_LISTEN);
  config->channels =
      g_ptr_array_new_with_free_func ((GDestroyNotify)
      monitor_channel_config_free);
  if (!g_file_get_contents (path, &text, &length, error))
    return NULL;                /* the message names the file */
  if (!g_key_file_load_from_data (kf, text, length, G_KEY_FILE_NONE, error)) {
    g_prefix_error (error, "%s: ", path);
    return NULL;
  }
  if (!check_duplicates (path, text, error))
    return NULL;

  /* Defaults: strings duplicated so that reading can replace them. */
  defaults.model = g_strdup (defaults.model);
  defaults.features = g_strdup (defaults.features);
  defaults.backend = g_strdup (defaults.backend);
  defaults.histogram_metrics = g_strsplit ("vmaf", ",", -1);
  defaults.histogram_buckets = g_memdup2 (default_buckets,
      sizeof (default_buckets));
  defaults.n_histogram_buckets = G_N_ELEMENTS (default_buckets);
  defaults.thresholds = g_memdup2 (default_thresholds,
      sizeof (default_thresholds));
  defaults.n_thresholds = G_N_ELEMENTS (default_thresholds);
  if (g_key_file_has_group (kf, "monitor")) {
    check_keys (&r, TRUE);
    read_string (&r, "listen", &config->listen);
    if (!monitor_config_listen_is_address (config->listen))
      fail (&r, "listen", "not an IP address (such as 127.0.0.1, ::1 or "
          "0.0.0.0; host names are not looked up)");
    read_int (&r, "port", 0, 65535, &port);
    read_int (&r, "max-connections", 0, 4096, &max_connections);
    read_channel_keys (&r, &defaults);
  }
  config->port = port;
  config->max_connections = max_connections;

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
    else if (!g_utf8_validate (c->name, -1, NULL))
      fail (&r, "group", "the channel name is not valid UTF-8 (it is a "
          "label of every metric)");
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
    read_ladder (&r, c);
  }
  g_hash_table_unref (names);
  g_free (defaults.model);
  g_free (defaults.features);
  g_free (defaults.backend);
  g_free (defaults.reference);
  g_free (defaults.distorted);
  g_free (defaults.distortion);
  g_strfreev (defaults.histogram_metrics);
  g_free (defaults.histogram_buckets);
  g_free (defaults.thresholds);
  g_free (defaults.align);

  if (!r.error && config->channels->len == 0)
    g_set_error (&r.error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_GROUP_NOT_FOUND,
        "%s: no [channel NAME] group", path);
  if (r.error) {
    g_propagate_error (error, r.error);
    return NULL;
  }
  return g_steal_pointer (&config);
}

gboolean
monitor_config_listen_is_address (const gchar * listen)
{
  GInetAddress *inet = listen ? g_inet_address_new_from_string (listen) : NULL;

  if (!inet)
    return FALSE;
  g_object_unref (inet);
  return TRUE;
}

gboolean
monitor_config_try_listen (const gchar * listen, guint port, GError ** error)
{
  GInetAddress *inet = g_inet_address_new_from_string (listen);
  GSocketAddress *addr;
  GSocket *socket;
  GError *err = NULL;
  gboolean ok;

  if (!inet) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
        "listen: \"%s\" is not an IP address", listen);
    return FALSE;
  }
  addr = g_inet_socket_address_new (inet, port);
  socket = g_socket_new (g_inet_address_get_family (inet),
      G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &err);
  ok = socket && g_socket_bind (socket, addr, TRUE, &err);
  /* Taken now (by the running service, say) is not wrong in the file. */
  if (!ok && g_error_matches (err, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE)) {
    g_clear_error (&err);
    ok = TRUE;
  }
  if (!ok) {
    g_set_error (error, G_IO_ERROR, err->code, "cannot listen on %s port "
        "%u: %s", listen, port, err->message);
    g_error_free (err);
  }
  g_clear_object (&socket);
  g_object_unref (addr);
  g_object_unref (inet);
  return ok;
}

static gboolean
numbers_equal (const gdouble * a, guint n_a, const gdouble * b, guint n_b)
{
  return n_a == n_b && (n_a == 0 || !memcmp (a, b, n_a * sizeof (gdouble)));
}

/* NULL-safe: NULL equals NULL only. */
static gboolean
strv_equal0 (gchar ** a, gchar ** b)
{
  if (!a || !b)
    return a == b;
  return g_strv_equal ((const gchar * const *) a, (const gchar * const *) b);
}

gboolean
monitor_channel_config_equal (const MonitorChannelConfig * a,
    const MonitorChannelConfig * b)
{
  return !g_strcmp0 (a->name, b->name) &&
      !g_strcmp0 (a->reference, b->reference) &&
      !g_strcmp0 (a->distorted, b->distorted) &&
      !g_strcmp0 (a->distortion, b->distortion) &&
      strv_equal0 (a->labels, b->labels) &&
      !g_strcmp0 (a->model, b->model) &&
      !g_strcmp0 (a->features, b->features) &&
      !g_strcmp0 (a->backend, b->backend) &&
      a->device == b->device && a->threads == b->threads &&
      a->subsample == b->subsample && a->latency_ms == b->latency_ms &&
      a->restart_delay == b->restart_delay &&
      a->restart_delay_max == b->restart_delay_max &&
      a->restart_on_eos == b->restart_on_eos &&
      a->pace_realtime == b->pace_realtime &&
      a->stall_timeout == b->stall_timeout &&
      g_strv_equal ((const gchar * const *) a->histogram_metrics,
      (const gchar * const *) b->histogram_metrics) &&
      numbers_equal (a->histogram_buckets, a->n_histogram_buckets,
      b->histogram_buckets, b->n_histogram_buckets) &&
      numbers_equal (a->thresholds, a->n_thresholds, b->thresholds,
      b->n_thresholds) && a->min_window == b->min_window &&
      a->low_score_threshold == b->low_score_threshold &&
      a->low_score_min_frames == b->low_score_min_frames &&
      a->black_threshold == b->black_threshold &&
      a->black_spread == b->black_spread &&
      a->black_min_duration == b->black_min_duration &&
      a->freeze_threshold == b->freeze_threshold &&
      a->freeze_min_duration == b->freeze_min_duration &&
      a->window_frames == b->window_frames &&
      !g_strcmp0 (a->align, b->align) && a->align_window == b->align_window;
}
