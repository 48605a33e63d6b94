/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Windowed and whole-run statistics of the scored frames. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>

#include "gstvmafhipwindow.h"
#include "gstvmafhiplevels.h"
#include "pool.h"

/* One metric's values: in the current window, and over the run. */
typedef struct
{
  gchar *name;
  gboolean is_model;
  /* the window */
  VhPoolAccumulator acc;
  GArray *values;               /* gdouble */
  guint *below;                 /* per threshold */
  GstClockTime worst_time;
  /* the run */
  GArray *all;                  /* gdouble, for the percentiles */
  guint64 *all_below;
} Metric;

struct _GstVmafHipWindows
{
  GMutex lock;
  guint window_frames;
  GstClockTime window_duration;
  GArray *percentiles;          /* gdouble */
  GPtrArray *percentile_names;  /* "p1", ... */
  GArray *thresholds;           /* gdouble */
  GPtrArray *threshold_names;   /* "below-40", ... */
  gchar *pad;
  gboolean live;                /* no run percentiles */
  GHashTable *models;           /* names of model outputs */
  GPtrArray *metrics;           /* Metric*, in the order first seen */
  GHashTable *by_field;         /* GQuark of its name -> Metric* */
  /* the frame fields read, as quarks: no string lookups a frame */
  GQuark q_score, q_stream_time, q_running_time, q_timestamp, q_duration,
      q_index;

  /* the window being filled */
  guint frames;
  GstClockTime nominal_start;   /* window-duration: where its span starts */
  GstClockTime first_time, last_time;
  guint64 first_frame, last_frame;
};

static void
metric_free (Metric * m)
{
  g_free (m->name);
  g_array_unref (m->values);
  g_array_unref (m->all);
  g_free (m->below);
  g_free (m->all_below);
  g_free (m);
}

GstVmafHipWindows *
gst_vmaf_hip_windows_new (const GstVmafHipWatchSettings * s, GError ** error)
{
  GstVmafHipWindows *w = g_new0 (GstVmafHipWindows, 1);

  g_mutex_init (&w->lock);
  w->window_frames = s->window_frames;
  w->window_duration = s->window_duration;
  w->percentiles = g_array_new (FALSE, FALSE, sizeof (gdouble));
  w->percentile_names = g_ptr_array_new_with_free_func (g_free);
  w->thresholds = g_array_new (FALSE, FALSE, sizeof (gdouble));
  w->threshold_names = g_ptr_array_new_with_free_func (g_free);
  w->pad = g_strdup ("dist_sink");
  w->models = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  w->metrics = g_ptr_array_new_with_free_func ((GDestroyNotify) metric_free);
  w->by_field = g_hash_table_new (g_direct_hash, g_direct_equal);
  w->q_score = g_quark_from_static_string ("score");
  w->q_stream_time = g_quark_from_static_string ("stream-time");
  w->q_running_time = g_quark_from_static_string ("running-time");
  w->q_timestamp = g_quark_from_static_string ("timestamp");
  w->q_duration = g_quark_from_static_string ("duration");
  w->q_index = g_quark_from_static_string ("index");
  w->nominal_start = GST_CLOCK_TIME_NONE;
  if (!gst_vmaf_hip_parse_levels (s->percentiles, "percentiles", "p",
          w->percentiles, w->percentile_names, error) ||
      !gst_vmaf_hip_parse_levels (s->thresholds, "thresholds", "below-",
          w->thresholds, w->threshold_names, error)) {
    gst_vmaf_hip_windows_free (w);
    return NULL;
  }
  return w;
}

void
gst_vmaf_hip_windows_free (GstVmafHipWindows * w)
{
  if (!w)
    return;
  g_array_unref (w->percentiles);
  g_ptr_array_unref (w->percentile_names);
  g_array_unref (w->thresholds);
  g_ptr_array_unref (w->threshold_names);
  g_free (w->pad);
  g_hash_table_unref (w->models);
  g_hash_table_unref (w->by_field);
  g_ptr_array_unref (w->metrics);
  g_mutex_clear (&w->lock);
  g_free (w);
}

void
gst_vmaf_hip_windows_set_pad (GstVmafHipWindows * w, const gchar * pad)
{
  g_mutex_lock (&w->lock);
  g_free (w->pad);
  w->pad = g_strdup (pad);
  g_mutex_unlock (&w->lock);
}

void
gst_vmaf_hip_windows_set_models (GstVmafHipWindows * w,
    const gchar * const *names)
{
  g_mutex_lock (&w->lock);
  g_hash_table_remove_all (w->models);
  for (guint i = 0; names && names[i]; i++)
    g_hash_table_add (w->models, g_strdup (names[i]));
  for (guint i = 0; i < w->metrics->len; i++) {
    Metric *m = g_ptr_array_index (w->metrics, i);
    m->is_model = g_hash_table_contains (w->models, m->name);
  }
  g_mutex_unlock (&w->lock);
}

void
gst_vmaf_hip_windows_set_live (GstVmafHipWindows * w, gboolean live)
{
  g_mutex_lock (&w->lock);
  if (live && !w->live) {
    for (guint i = 0; i < w->metrics->len; i++) {
      Metric *m = g_ptr_array_index (w->metrics, i);
      g_array_set_size (m->all, 0);
    }
  }
  w->live = live;
  g_mutex_unlock (&w->lock);
}

gboolean
gst_vmaf_hip_windows_enabled (GstVmafHipWindows * w)
{
  return w->window_frames > 0 || w->window_duration > 0;
}

static Metric *
get_metric (GstVmafHipWindows * w, GQuark field)
{
  Metric *m = g_hash_table_lookup (w->by_field, GUINT_TO_POINTER (field));
  guint n_thresholds = w->thresholds->len;

  if (m)
    return m;
  m = g_new0 (Metric, 1);
  m->name = g_strdup (g_quark_to_string (field));
  m->is_model = g_hash_table_contains (w->models, m->name);
  m->values = g_array_new (FALSE, FALSE, sizeof (gdouble));
  m->all = g_array_new (FALSE, FALSE, sizeof (gdouble));
  m->below = g_new0 (guint, MAX (n_thresholds, 1));
  m->all_below = g_new0 (guint64, MAX (n_thresholds, 1));
  g_ptr_array_add (w->metrics, m);
  g_hash_table_insert (w->by_field, GUINT_TO_POINTER (field), m);
  return m;
}

static gint
compare_doubles (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return (x > y) - (x < y);
}

/* The percentiles of @values into @s. */
static void
set_percentiles (GstVmafHipWindows * w, GstStructure * s, GArray * values)
{
  gdouble *sorted;

  if (values->len == 0 || w->percentiles->len == 0)
    return;
  sorted = g_memdup2 (values->data, values->len * sizeof (gdouble));
  qsort (sorted, values->len, sizeof (gdouble), compare_doubles);
  for (guint i = 0; i < w->percentiles->len; i++)
    gst_structure_set (s, g_ptr_array_index (w->percentile_names, i),
        G_TYPE_DOUBLE, vh_pool_percentile (sorted, values->len,
            g_array_index (w->percentiles, gdouble, i)), NULL);
  g_free (sorted);
}

/* @m's statistics over the window, in a structure named after it. */
static GstStructure *
window_metric (GstVmafHipWindows * w, Metric * m)
{
  GstStructure *s = gst_structure_new (m->name,
      "min", G_TYPE_DOUBLE, vh_pool_accumulator_get (&m->acc, VH_POOL_MIN),
      "max", G_TYPE_DOUBLE, vh_pool_accumulator_get (&m->acc, VH_POOL_MAX),
      "mean", G_TYPE_DOUBLE, vh_pool_accumulator_get (&m->acc, VH_POOL_MEAN),
      "harmonic-mean", G_TYPE_DOUBLE,
      vh_pool_accumulator_get (&m->acc, VH_POOL_HARMONIC_MEAN), NULL);

  set_percentiles (w, s, m->values);
  if (m->is_model) {
    for (guint i = 0; i < w->thresholds->len; i++)
      gst_structure_set (s, g_ptr_array_index (w->threshold_names, i),
          G_TYPE_UINT, m->below[i], NULL);
    gst_structure_set (s, "worst-time", G_TYPE_UINT64, m->worst_time, NULL);
  }
  return s;
}

/* The window filled so far as a message, and a new one started. */
static GstStructure *
close_window (GstVmafHipWindows * w)
{
  GstStructure *s;

  if (w->frames == 0)
    return NULL;
  s = gst_structure_new ("vmaf-window",
      "pad", G_TYPE_STRING, w->pad,
      "window-start", G_TYPE_UINT64, w->first_time,
      "window-end", G_TYPE_UINT64, w->last_time,
      "first-frame", G_TYPE_UINT64, w->first_frame,
      "last-frame", G_TYPE_UINT64, w->last_frame,
      "frames", G_TYPE_UINT, w->frames, NULL);
  for (guint i = 0; i < w->metrics->len; i++) {
    Metric *m = g_ptr_array_index (w->metrics, i);
    GstStructure *ms;

    if (m->acc.n == 0)
      continue;
    ms = window_metric (w, m);
    gst_structure_set (s, m->name, GST_TYPE_STRUCTURE, ms, NULL);
    gst_structure_free (ms);
    memset (&m->acc, 0, sizeof (m->acc));
    g_array_set_size (m->values, 0);
    memset (m->below, 0, MAX (w->thresholds->len, 1) * sizeof (guint));
  }
  w->frames = 0;
  return s;
}

/* The frame's guint64 @field, or GST_CLOCK_TIME_NONE. */
static guint64
frame_time (const GstStructure * frame, GQuark field)
{
  const GValue *v = gst_structure_id_get_value (frame, field);

  return v && G_VALUE_HOLDS_UINT64 (v) ? g_value_get_uint64 (v) :
      GST_CLOCK_TIME_NONE;
}

/* The frame's moment: its stream time, else its running time or PTS. */
static GstClockTime
frame_moment (GstVmafHipWindows * w, const GstStructure * frame)
{
  GstClockTime t = frame_time (frame, w->q_stream_time);

  if (!GST_CLOCK_TIME_IS_VALID (t))
    t = frame_time (frame, w->q_running_time);
  if (!GST_CLOCK_TIME_IS_VALID (t))
    t = frame_time (frame, w->q_timestamp);
  return t;
}

static void
add_value (GstVmafHipWindows * w, GQuark field, gdouble v, GstClockTime t)
{
  Metric *m = get_metric (w, field);
  gboolean worst = m->acc.n == 0 || v < m->acc.min;

  vh_pool_accumulator_add (&m->acc, v);
  if (gst_vmaf_hip_windows_enabled (w))
    g_array_append_val (m->values, v);
  if (w->percentiles->len > 0 && !w->live)
    g_array_append_val (m->all, v);
  if (worst)
    m->worst_time = t;
  for (guint i = 0; m->is_model && i < w->thresholds->len; i++) {
    if (v < g_array_index (w->thresholds, gdouble, i)) {
      m->below[i]++;
      m->all_below[i]++;
    }
  }
}

typedef struct
{
  GstVmafHipWindows *w;
  GstClockTime t;
} FrameValues;

/* Every double of the frame but "score" (the first model's again). */
static gboolean
add_field (GQuark field, const GValue * v, gpointer user_data)
{
  FrameValues *f = user_data;

  if (G_VALUE_TYPE (v) == G_TYPE_DOUBLE && field != f->w->q_score)
    add_value (f->w, field, g_value_get_double (v), f->t);
  return TRUE;
}

void
gst_vmaf_hip_windows_add (GstVmafHipWindows * w, const GstStructure * frame,
    GPtrArray * finished)
{
  GstClockTime t = frame_moment (w, frame);
  GstClockTime dur = frame_time (frame, w->q_duration);
  guint64 index = frame_time (frame, w->q_index);
  GstClockTime span = w->window_duration;
  FrameValues values = { w, t };

  if (index == GST_CLOCK_TIME_NONE)
    index = 0;
  g_mutex_lock (&w->lock);
  /* window-duration: a frame past the window's span closes it; the next
   * span starts where the frame falls on the grid of the first. */
  if (span > 0 && w->frames > 0 && GST_CLOCK_TIME_IS_VALID (t) &&
      t >= w->nominal_start + span) {
    GstStructure *s = close_window (w);
    if (s)
      g_ptr_array_add (finished, s);
  }
  if (w->frames == 0) {
    if (span > 0 && GST_CLOCK_TIME_IS_VALID (t)) {
      if (!GST_CLOCK_TIME_IS_VALID (w->nominal_start) ||
          t < w->nominal_start)
        w->nominal_start = t;
      else
        w->nominal_start += (t - w->nominal_start) / span * span;
    }
    w->first_time = t;
    w->first_frame = index;
  }
  w->frames++;
  w->last_time = t;
  w->last_frame = index;

  gst_structure_foreach (frame, add_field, &values);

  /* Closed at once when it is full, not at the next frame: a live
   * window is posted when its last frame is scored. */
  if ((w->window_frames > 0 && w->frames >= w->window_frames) ||
      (span > 0 && GST_CLOCK_TIME_IS_VALID (t) &&
          GST_CLOCK_TIME_IS_VALID (dur) && t + dur >= w->nominal_start + span)) {
    GstStructure *s = close_window (w);
    if (s)
      g_ptr_array_add (finished, s);
    if (span > 0)
      w->nominal_start += span;
  }
  g_mutex_unlock (&w->lock);
}

GstStructure *
gst_vmaf_hip_windows_flush (GstVmafHipWindows * w)
{
  GstStructure *s = NULL;

  g_mutex_lock (&w->lock);
  if (gst_vmaf_hip_windows_enabled (w))
    s = close_window (w);
  g_mutex_unlock (&w->lock);
  return s;
}

void
gst_vmaf_hip_windows_add_to_summary (GstVmafHipWindows * w,
    GstStructure * summary)
{
  g_mutex_lock (&w->lock);
  for (guint i = 0; i < w->metrics->len; i++) {
    Metric *m = g_ptr_array_index (w->metrics, i);
    const GValue *v = gst_structure_get_value (summary, m->name);
    GstStructure *pooled;

    if (!v || G_VALUE_TYPE (v) != GST_TYPE_STRUCTURE)
      continue;
    pooled = gst_structure_copy (gst_value_get_structure (v));
    if (!w->live)
      set_percentiles (w, pooled, m->all);
    for (guint j = 0; m->is_model && j < w->thresholds->len; j++)
      gst_structure_set (pooled, g_ptr_array_index (w->threshold_names, j),
          G_TYPE_UINT64, m->all_below[j], NULL);
    gst_structure_set (summary, m->name, GST_TYPE_STRUCTURE, pooled, NULL);
    gst_structure_free (pooled);
  }
  g_mutex_unlock (&w->lock);
}
