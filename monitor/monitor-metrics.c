/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "monitor-metrics.h"
#include "monitor-channel.h"

#include <math.h>
#include <string.h>

/* libvmaf's names for the pooling methods of a "pooled" structure. */
static const struct
{
  const gchar *field;
  const gchar *label;
} pools[] = {
  {"mean", "mean"},
  {"harmonic-mean", "harmonic_mean"},
  {"min", "min"},
  {"max", "max"},
};

gchar *
monitor_metrics_escape_label (const gchar * value)
{
  GString *s = g_string_new (NULL);

  for (const gchar * p = value ? value : ""; *p; p++) {
    if (*p == '\\')
      g_string_append (s, "\\\\");
    else if (*p == '"')
      g_string_append (s, "\\\"");
    else if (*p == '\n')
      g_string_append (s, "\\n");
    else
      g_string_append_c (s, *p);
  }
  return g_string_free (s, FALSE);
}

void
monitor_metrics_append_value (GString * out, gdouble value)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (value))
    g_string_append (out, "NaN");
  else if (isinf (value))
    g_string_append (out, value > 0 ? "+Inf" : "-Inf");
  else
    g_string_append (out, g_ascii_dtostr (buf, sizeof (buf), value));
}

/* One channel's snapshot with its escaped name. */
typedef struct
{
  MonitorChannel *channel;
  gchar *label;
  MonitorChannelSnapshot snap;
  gchar *rendition;             /* pad="...",label="..." while a ladder's
                                 * rendition is written; else NULL */
} Row;

static void
family (GString * out, const gchar * name, const gchar * type,
    const gchar * help)
{
  g_string_append_printf (out, "# HELP %s %s\n# TYPE %s %s\n", name, help,
      name, type);
}

/* name{channel="..."[,extra]} value */
static void
sample (GString * out, const gchar * name, const Row * row,
    const gchar * extra, gdouble value)
{
  g_string_append_printf (out, "%s{channel=\"%s\"%s%s%s%s} ", name,
      row->label, row->rendition ? "," : "", row->rendition ?
      row->rendition : "", extra ? "," : "", extra ? extra : "");
  monitor_metrics_append_value (out, value);
  g_string_append_c (out, '\n');
}

static void
channel_info (GString * out, const Row * row)
{
  const MonitorChannelConfig *c = monitor_channel_get_config (row->channel);
  gchar *model = monitor_metrics_escape_label (c->model);
  gchar *features = monitor_metrics_escape_label (c->features);
  gchar *extra = g_strdup_printf ("model=\"%s\",features=\"%s\","
      "backend=\"%s\",device=\"%d\"", model, features, c->backend, c->device);

  sample (out, "vmafhip_channel_info", row, extra, 1);
  g_free (extra);
  g_free (model);
  g_free (features);
}

/* Fields of a "vmaf" message that are no score: "score" repeats the first
 * model's value under its own name; the others are times, shown by their
 * own metrics. */
static gboolean
is_not_score (const gchar * field)
{
  static const gchar *const others[] = {
    "score", "lag", "align-offset", "align-offset-frames", NULL
  };

  return g_strv_contains (others, field);
}

/* Every score of the last "vmaf" message. */
static void
latest_scores (GString * out, const Row * row)
{
  const GstStructure *s = row->snap.latest;

  for (gint i = 0; s && i < gst_structure_n_fields (s); i++) {
    const gchar *field = gst_structure_nth_field_name (s, i);
    const GValue *v = gst_structure_get_value (s, field);
    gchar *label, *extra;

    if (!G_VALUE_HOLDS_DOUBLE (v) || is_not_score (field))
      continue;
    label = monitor_metrics_escape_label (field);
    extra = g_strdup_printf ("metric=\"%s\"", label);
    sample (out, "vmafhip_channel_score", row, extra, g_value_get_double (v));
    g_free (extra);
    g_free (label);
  }
}

static void
pooled_scores (GString * out, const Row * row)
{
  const GstStructure *s = row->snap.pooled;

  for (gint i = 0; s && i < gst_structure_n_fields (s); i++) {
    const gchar *field = gst_structure_nth_field_name (s, i);
    const GValue *v = gst_structure_get_value (s, field);
    const GstStructure *pooled;
    gchar *label;

    if (!GST_VALUE_HOLDS_STRUCTURE (v))
      continue;
    pooled = gst_value_get_structure (v);
    label = monitor_metrics_escape_label (field);
    for (guint p = 0; p < G_N_ELEMENTS (pools); p++) {
      gdouble d;
      gchar *extra;

      if (!gst_structure_get_double (pooled, pools[p].field, &d))
        continue;
      extra = g_strdup_printf ("metric=\"%s\",pool=\"%s\"", label,
          pools[p].label);
      sample (out, "vmafhip_channel_score_pooled", row, extra, d);
      g_free (extra);
    }
    g_free (label);
  }
}

/* The frame counters of the element's stats. */
static void
frames_scored (GString * out, const Row * row)
{
  sample (out, "vmafhip_channel_frames_scored_total", row, NULL,
      row->snap.frames.scored);
}

static void
frames_skipped (GString * out, const Row * row)
{
  sample (out, "vmafhip_channel_frames_skipped_total", row, NULL,
      row->snap.frames.skipped);
}

static void
frames_unpaired (GString * out, const Row * row)
{
  sample (out, "vmafhip_channel_frames_unpaired_total", row,
      "input=\"reference\"", row->snap.frames.unpaired_reference);
  sample (out, "vmafhip_channel_frames_unpaired_total", row,
      "input=\"distorted\"", row->snap.frames.unpaired_distorted);
}

static void
frames_dropped (GString * out, const Row * row)
{
  sample (out, "vmafhip_channel_frames_dropped_total", row,
      "input=\"reference\"", row->snap.frames.dropped_reference);
  sample (out, "vmafhip_channel_frames_dropped_total", row,
      "input=\"distorted\"", row->snap.frames.dropped_distorted);
}

/* @write for the channel, or for each rendition of a ladder with its
 * latest frame, frame counters, scores and pooled values, labelled by pad
 * and label. */
static void
per_rendition (GString * out, Row * row, void (*write) (GString *,
        const Row *))
{
  GstStructure *latest = row->snap.latest;
  GstStructure *pooled = row->snap.pooled;
  GPtrArray *scores = row->snap.scores;
  MonitorFrameCounts frames = row->snap.frames;

  if (!row->snap.renditions) {
    write (out, row);
    return;
  }
  for (guint i = 0; i < row->snap.renditions->len; i++) {
    MonitorRenditionSnapshot *r = g_ptr_array_index (row->snap.renditions, i);
    g_autofree gchar *pad = monitor_metrics_escape_label (r->pad);
    g_autofree gchar *label = monitor_metrics_escape_label (r->label);

    row->rendition = g_strdup_printf ("pad=\"%s\",label=\"%s\"", pad,
        label);
    row->snap.latest = r->latest;
    row->snap.scores = r->scores;
    row->snap.pooled = r->pooled;
    row->snap.frames = r->frames;
    write (out, row);
    g_clear_pointer (&row->rendition, g_free);
  }
  row->snap.latest = latest;
  row->snap.pooled = pooled;
  row->snap.scores = scores;
  row->snap.frames = frames;
}

/* A label value given as a number, as Prometheus' own clients write
 * "le" (10, 37.5). */
static gchar *
number_label (gdouble value)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_dtostr (buf, sizeof (buf), value));
}

/* Histograms of the per-frame values: cumulative buckets, _sum, _count. */
static void
score_histograms (GString * out, const Row * row)
{
  const MonitorChannelConfig *c = monitor_channel_get_config (row->channel);

  for (guint i = 0; row->snap.scores && i < row->snap.scores->len; i++) {
    const MonitorScoreSnapshot *sc = g_ptr_array_index (row->snap.scores, i);
    gchar *metric = monitor_metrics_escape_label (sc->metric);
    gchar *extra;

    for (guint b = 0; b <= c->n_histogram_buckets; b++) {
      gchar *le = b < c->n_histogram_buckets ?
          number_label (c->histogram_buckets[b]) : g_strdup ("+Inf");

      extra = g_strdup_printf ("metric=\"%s\",le=\"%s\"", metric, le);
      sample (out, "vmafhip_channel_score_histogram_bucket", row, extra,
          b < c->n_histogram_buckets ? sc->cumulative[b] : sc->count);
      g_free (extra);
      g_free (le);
    }
    extra = g_strdup_printf ("metric=\"%s\"", metric);
    sample (out, "vmafhip_channel_score_histogram_sum", row, extra, sc->sum);
    sample (out, "vmafhip_channel_score_histogram_count", row, extra,
        sc->count);
    g_free (extra);
    g_free (metric);
  }
}

static void
score_window_min (GString * out, const Row * row)
{
  for (guint i = 0; row->snap.scores && i < row->snap.scores->len; i++) {
    const MonitorScoreSnapshot *sc = g_ptr_array_index (row->snap.scores, i);
    gchar *metric, *extra;

    if (!sc->has_min)
      continue;
    metric = monitor_metrics_escape_label (sc->metric);
    extra = g_strdup_printf ("metric=\"%s\"", metric);
    sample (out, "vmafhip_channel_score_window_min", row, extra, sc->min);
    g_free (extra);
    g_free (metric);
  }
}

static void
frames_below (GString * out, const Row * row)
{
  const MonitorChannelConfig *c = monitor_channel_get_config (row->channel);

  for (guint i = 0; row->snap.scores && i < row->snap.scores->len; i++) {
    const MonitorScoreSnapshot *sc = g_ptr_array_index (row->snap.scores, i);
    gchar *metric = monitor_metrics_escape_label (sc->metric);

    for (guint t = 0; t < c->n_thresholds; t++) {
      gchar *threshold = number_label (c->thresholds[t]);
      gchar *extra = g_strdup_printf ("metric=\"%s\",threshold=\"%s\"",
          metric, threshold);

      sample (out, "vmafhip_channel_frames_below_total", row, extra,
          sc->below[t]);
      g_free (extra);
      g_free (threshold);
    }
    g_free (metric);
  }
}

/* name{type,input,pad} for each event kind: its count (@what 0), its
 * seconds (1) or whether one goes on (2). */
static void
events (GString * out, const Row * row, const gchar * name, gint what)
{
  for (guint i = 0; row->snap.events && i < row->snap.events->len; i++) {
    const MonitorEventCount *ev = g_ptr_array_index (row->snap.events, i);
    gchar *type = monitor_metrics_escape_label (ev->type);
    gchar *input = monitor_metrics_escape_label (ev->input);
    gchar *pad = monitor_metrics_escape_label (ev->pad);
    gchar *extra = g_strdup_printf ("type=\"%s\",input=\"%s\",pad=\"%s\"",
        type, input, pad);

    sample (out, name, row, extra, what == 0 ? (gdouble) ev->count :
        what == 1 ? ev->seconds : (gdouble) ev->active);
    g_free (extra);
    g_free (type);
    g_free (input);
    g_free (pad);
  }
}

/* The element's last vmaf-window of each pad: every double of each
 * metric's statistics (min, max, mean, harmonic-mean, p1, p5, p50, ...),
 * and its frames below each threshold. */
static void
window_scores (GString * out, const Row * row, gboolean below)
{
  for (guint w = 0; row->snap.windows && w < row->snap.windows->len; w++) {
    const GstStructure *win = g_ptr_array_index (row->snap.windows, w);
    gchar *pad = monitor_metrics_escape_label (gst_structure_get_string (win,
            "pad"));

    for (gint i = 0; i < gst_structure_n_fields (win); i++) {
      const gchar *name = gst_structure_nth_field_name (win, i);
      const GValue *v = gst_structure_get_value (win, name);
      const GstStructure *stats;
      gchar *metric;

      if (!GST_VALUE_HOLDS_STRUCTURE (v))
        continue;
      stats = gst_value_get_structure (v);
      metric = monitor_metrics_escape_label (name);
      for (gint j = 0; j < gst_structure_n_fields (stats); j++) {
        const gchar *stat = gst_structure_nth_field_name (stats, j);
        const GValue *sv = gst_structure_get_value (stats, stat);
        gchar *label, *extra;

        if (below && G_VALUE_HOLDS_UINT (sv) &&
            g_str_has_prefix (stat, "below-")) {
          /* below-37_5: the element writes a threshold's '.' as '_'. */
          label = g_strdelimit (monitor_metrics_escape_label (stat +
                  strlen ("below-")), "_", '.');
          extra = g_strdup_printf ("pad=\"%s\",metric=\"%s\","
              "threshold=\"%s\"", pad, metric, label);
          sample (out, "vmafhip_channel_window_frames_below", row, extra,
              g_value_get_uint (sv));
        } else if (!below && G_VALUE_HOLDS_DOUBLE (sv)) {
          /* harmonic-mean: harmonic_mean, as the pooled values say. */
          label = g_strdelimit (monitor_metrics_escape_label (stat), "-",
              '_');
          extra = g_strdup_printf ("pad=\"%s\",metric=\"%s\","
              "stat=\"%s\"", pad, metric, label);
          sample (out, "vmafhip_channel_window_score", row, extra,
              g_value_get_double (sv));
        } else {
          continue;
        }
        g_free (extra);
        g_free (label);
      }
      g_free (metric);
    }
    g_free (pad);
  }
}

/* "adm: hip, vif: hip, cambi: cpu": the element's, after a fall-back to
 * the CPU as it goes on. */
static void
feature_backends (GString * out, const Row * row)
{
  const gchar *dispatch = row->snap.dispatch;
  gchar **entries;

  if (!dispatch)
    return;
  entries = g_strsplit (dispatch, ",", -1);
  for (guint i = 0; entries[i]; i++) {
    gchar **kv = g_strsplit (entries[i], ":", 2);

    if (kv[0] && kv[1]) {
      gchar *feature = monitor_metrics_escape_label (g_strstrip (kv[0]));
      gchar *backend = monitor_metrics_escape_label (g_strstrip (kv[1]));
      gchar *extra = g_strdup_printf ("feature=\"%s\",backend=\"%s\"",
          feature, backend);

      sample (out, "vmafhip_channel_feature_backend", row, extra, 1);
      g_free (extra);
      g_free (feature);
      g_free (backend);
    }
    g_strfreev (kv);
  }
  g_strfreev (entries);
}

/* Values of one sample per channel, left out while the channel has none
 * (FALSE). */
static gboolean
lag_seconds (const MonitorChannelSnapshot * snap, gdouble * value)
{
  *value = snap->lag;
  return snap->has_lag;
}

static gboolean
lag_warnings (const MonitorChannelSnapshot * snap, gdouble * value)
{
  *value = snap->lag_warnings;
  return TRUE;
}

static gboolean
offset_seconds (const MonitorChannelSnapshot * snap, gdouble * value)
{
  *value = snap->offset;
  return snap->has_offset;
}

static gboolean
offset_frames (const MonitorChannelSnapshot * snap, gdouble * value)
{
  *value = snap->offset_frames;
  return snap->has_offset_frames;
}

static gboolean
align_locked (const MonitorChannelSnapshot * snap, gdouble * value)
{
  *value = snap->align_locked;
  return snap->align_locked >= 0;
}

static gboolean
last_frame_time (const MonitorChannelSnapshot * snap, gdouble * value)
{
  *value = snap->latest_time;
  return snap->latest != NULL;
}

/* The families of one sample per channel without other labels, in the
 * order they are written. */
static const struct
{
  const gchar *name;
  const gchar *type;
  const gchar *help;
  gboolean (*get) (const MonitorChannelSnapshot * snap, gdouble * value);
} channel_values[] = {
  {"vmafhip_channel_lag_seconds", "gauge",
      "How far behind the pipeline clock the latest frame was scored.",
      lag_seconds},
  {"vmafhip_channel_lag_warnings_total", "counter",
      "The element's warnings that scoring fell behind real time (one an "
      "episode, past its lag-warning).", lag_warnings},
  {"vmafhip_channel_offset_seconds", "gauge",
      "The element's alignment offset of the distorted input (align = "
      "content).", offset_seconds},
  {"vmafhip_channel_offset_frames", "gauge",
      "The element's alignment offset, frames.", offset_frames},
  {"vmafhip_channel_align_locked", "gauge",
      "1 while the element's alignment is locked, 0 while it is not.",
      align_locked},
  {"vmafhip_channel_last_frame_timestamp_seconds", "gauge",
      "When the latest frame was scored (Unix time).", last_frame_time},
};

gchar *
monitor_metrics_render (GPtrArray * channels, MonitorDevices * devices)
{
  GString *out = g_string_new (NULL);
  GArray *rows = g_array_sized_new (FALSE, TRUE, sizeof (Row), channels->len);

  for (guint i = 0; i < channels->len; i++) {
    Row row = { g_ptr_array_index (channels, i) };

    row.label = monitor_metrics_escape_label (monitor_channel_get_config
        (row.channel)->name);
    monitor_channel_snapshot (row.channel, &row.snap);
    g_array_append_val (rows, row);
  }

#define FOR_ROWS for (guint i = 0; i < rows->len; i++)
#define ROW (&g_array_index (rows, Row, i))

  family (out, "vmafhip_monitor_info", "gauge",
      "The vmafhip-monitor version.");
  g_string_append_printf (out, "vmafhip_monitor_info{version=\"%s\"} 1\n",
      VH_VERSION);

  family (out, "vmafhip_monitor_gpus", "gauge",
      "GPUs opened and shared by the channels that use them.");
  g_string_append_printf (out, "vmafhip_monitor_gpus %u\n",
      monitor_devices_count (devices));

  family (out, "vmafhip_channel_info", "gauge",
      "A channel's settings (always 1).");
  FOR_ROWS channel_info (out, ROW);

  family (out, "vmafhip_channel_up", "gauge",
      "1 while the channel's pipeline is playing, else 0.");
  FOR_ROWS sample (out, "vmafhip_channel_up", ROW, NULL,
      ROW->snap.state == MONITOR_CHANNEL_PLAYING);

  family (out, "vmafhip_channel_state", "gauge",
      "The channel's state: 1 for the current one.");
  FOR_ROWS {
    for (guint s = 0; s < MONITOR_CHANNEL_N_STATES; s++) {
      gchar *extra = g_strdup_printf ("state=\"%s\"",
          monitor_channel_state_name (s));
      sample (out, "vmafhip_channel_state", ROW, extra,
          ROW->snap.state == s);
      g_free (extra);
    }
  }

  family (out, "vmafhip_channel_restarts_total", "counter",
      "Restarts of the channel's pipeline after a failure (an end of "
      "stream is none).");
  FOR_ROWS sample (out, "vmafhip_channel_restarts_total", ROW, NULL,
      ROW->snap.restarts);

  family (out, "vmafhip_channel_eos_restarts_total", "counter",
      "Restarts of the channel's pipeline after its stream ended "
      "(restart-on-eos).");
  FOR_ROWS sample (out, "vmafhip_channel_eos_restarts_total", ROW, NULL,
      ROW->snap.eos_restarts);

  family (out, "vmafhip_channel_cpu_fallbacks_total", "counter",
      "Runs whose GPU failed and that went on on the CPU (backend auto).");
  FOR_ROWS sample (out, "vmafhip_channel_cpu_fallbacks_total", ROW, NULL,
      ROW->snap.cpu_fallbacks);

  family (out, "vmafhip_channel_frames_scored_total", "counter",
      "Frame pairs scored.");
  FOR_ROWS per_rendition (out, ROW, frames_scored);

  family (out, "vmafhip_channel_frames_skipped_total", "counter",
      "Frame pairs left out by subsample.");
  FOR_ROWS per_rendition (out, ROW, frames_skipped);

  family (out, "vmafhip_channel_frames_unpaired_total", "counter",
      "Frames of one input that had no partner in the other.");
  FOR_ROWS per_rendition (out, ROW, frames_unpaired);

  family (out, "vmafhip_channel_frames_dropped_total", "counter",
      "Frames dropped before they could be paired (too late in a live "
      "pipeline).");
  FOR_ROWS per_rendition (out, ROW, frames_dropped);

  family (out, "vmafhip_channel_score", "gauge",
      "The latest scored frame's model scores and features.");
  FOR_ROWS per_rendition (out, ROW, latest_scores);

  family (out, "vmafhip_channel_score_pooled", "gauge",
      "Model scores and features pooled over the current run (the last one "
      "while a restarted run has no frame yet), as the element's "
      "vmaf-summary.");
  FOR_ROWS per_rendition (out, ROW, pooled_scores);

  family (out, "vmafhip_channel_score_histogram", "histogram",
      "Per-frame values of the channel's histogram-metrics, since the "
      "service started.");
  FOR_ROWS per_rendition (out, ROW, score_histograms);

  family (out, "vmafhip_channel_score_window_min", "gauge",
      "The lowest per-frame value over the last min-window seconds (the "
      "same for every scraper).");
  FOR_ROWS per_rendition (out, ROW, score_window_min);

  family (out, "vmafhip_channel_frames_below_total", "counter",
      "Frames whose value was below each of the channel's thresholds.");
  FOR_ROWS per_rendition (out, ROW, frames_below);

  family (out, "vmafhip_channel_events_total", "counter",
      "Events the element reported (black, freeze, low-score) that began.");
  FOR_ROWS events (out, ROW, "vmafhip_channel_events_total", 0);

  family (out, "vmafhip_channel_event_seconds_total", "counter",
      "How long the element's finished events lasted, seconds.");
  FOR_ROWS events (out, ROW, "vmafhip_channel_event_seconds_total", 1);

  family (out, "vmafhip_channel_event_active", "gauge",
      "1 while an event of that type and input goes on.");
  FOR_ROWS events (out, ROW, "vmafhip_channel_event_active", 2);

  family (out, "vmafhip_channel_window_score", "gauge",
      "The element's last window (vmaf-window) of each distorted pad: each "
      "metric's min, max, mean, harmonic mean and percentiles.");
  FOR_ROWS window_scores (out, ROW, FALSE);

  family (out, "vmafhip_channel_window_frames_below", "gauge",
      "Frames of the element's last window below each of its thresholds.");
  FOR_ROWS window_scores (out, ROW, TRUE);

  for (guint g = 0; g < G_N_ELEMENTS (channel_values); g++) {
    family (out, channel_values[g].name, channel_values[g].type,
        channel_values[g].help);
    FOR_ROWS {
      gdouble value;

      if (channel_values[g].get (&ROW->snap, &value))
        sample (out, channel_values[g].name, ROW, NULL, value);
    }
  }

  family (out, "vmafhip_channel_feature_backend", "gauge",
      "Where each feature extractor runs: cpu or hip (always 1).");
  FOR_ROWS feature_backends (out, ROW);

#undef FOR_ROWS
#undef ROW

  for (guint i = 0; i < rows->len; i++) {
    Row *row = &g_array_index (rows, Row, i);
    g_free (row->label);
    monitor_channel_snapshot_clear (&row->snap);
  }
  g_array_unref (rows);
  return g_string_free (out, FALSE);
}
