/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "monitor-scores.h"

#include <math.h>
#include <string.h>

typedef struct
{
  gint64 time_us;
  gdouble value;
} WindowEntry;

typedef struct
{
  gchar *metric;
  guint64 *buckets;             /* frames in (bound[i-1], bound[i]] */
  guint64 count;
  gdouble sum;
  guint64 *below;
  /* The sliding minimum: entries in time order whose values go up, each
   * the lowest since its time (a later, lower value makes the earlier,
   * higher ones useless). The first is the window's minimum. */
  GQueue window;
} Track;

struct _MonitorScores
{
  const MonitorChannelConfig *config;
  GPtrArray *tracks;            /* Track*, in the order of the config */
};

static void
track_free (Track * t)
{
  g_free (t->metric);
  g_free (t->buckets);
  g_free (t->below);
  g_queue_clear_full (&t->window, g_free);
  g_free (t);
}

MonitorScores *
monitor_scores_new (const MonitorChannelConfig * config)
{
  MonitorScores *scores = g_new0 (MonitorScores, 1);

  scores->config = config;
  scores->tracks = g_ptr_array_new_with_free_func ((GDestroyNotify)
      track_free);
  for (guint i = 0; config->histogram_metrics &&
      config->histogram_metrics[i]; i++) {
    Track *t = g_new0 (Track, 1);

    t->metric = g_strdup (config->histogram_metrics[i]);
    t->buckets = g_new0 (guint64, config->n_histogram_buckets);
    t->below = g_new0 (guint64, config->n_thresholds);
    g_queue_init (&t->window);
    g_ptr_array_add (scores->tracks, t);
  }
  return scores;
}

void
monitor_scores_free (MonitorScores * scores)
{
  if (!scores)
    return;
  g_ptr_array_unref (scores->tracks);
  g_free (scores);
}

/* Entries older than the window go. */
static void
window_expire (Track * t, gint64 now_us, gdouble window_s)
{
  gint64 oldest = now_us - (gint64) (window_s * G_USEC_PER_SEC);
  WindowEntry *e;

  while ((e = g_queue_peek_head (&t->window)) && e->time_us < oldest)
    g_free (g_queue_pop_head (&t->window));
}

static void
track_add (const MonitorChannelConfig * c, Track * t, gdouble v,
    gint64 now_us)
{
  WindowEntry *e;
  guint b;

  /* The first bound at or above the value; above every bound: only
   * the +Inf bucket (the count). */
  for (b = 0; b < c->n_histogram_buckets && v > c->histogram_buckets[b];
      b++);
  if (b < c->n_histogram_buckets)
    t->buckets[b]++;
  t->count++;
  t->sum += v;
  for (guint i = 0; i < c->n_thresholds; i++)
    if (v < c->thresholds[i])
      t->below[i]++;

  while ((e = g_queue_peek_tail (&t->window)) && e->value >= v)
    g_free (g_queue_pop_tail (&t->window));
  e = g_new (WindowEntry, 1);
  e->time_us = now_us;
  e->value = v;
  g_queue_push_tail (&t->window, e);
  window_expire (t, now_us, c->min_window);
}

void
monitor_scores_add_frame (MonitorScores * scores, const GstStructure * frame,
    gint64 now_us)
{
  for (guint i = 0; i < scores->tracks->len; i++) {
    Track *t = g_ptr_array_index (scores->tracks, i);
    gdouble v;

    if (gst_structure_get_double (frame, t->metric, &v) && !isnan (v))
      track_add (scores->config, t, v, now_us);
  }
}

static void
score_snapshot_free (MonitorScoreSnapshot * s)
{
  g_free (s->metric);
  g_free (s->cumulative);
  g_free (s->below);
  g_free (s);
}

GPtrArray *
monitor_scores_snapshot (MonitorScores * scores, gint64 now_us)
{
  const MonitorChannelConfig *c = scores->config;
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify)
      score_snapshot_free);

  for (guint i = 0; i < scores->tracks->len; i++) {
    Track *t = g_ptr_array_index (scores->tracks, i);
    MonitorScoreSnapshot *s;
    WindowEntry *first;
    guint64 running = 0;

    /* A metric the element never gave (a feature not asked for). */
    if (t->count == 0)
      continue;
    s = g_new0 (MonitorScoreSnapshot, 1);
    s->metric = g_strdup (t->metric);
    s->cumulative = g_new (guint64, c->n_histogram_buckets);
    for (guint b = 0; b < c->n_histogram_buckets; b++) {
      running += t->buckets[b];
      s->cumulative[b] = running;
    }
    s->count = t->count;
    s->sum = t->sum;
    s->below = g_memdup2 (t->below, c->n_thresholds * sizeof (guint64));
    window_expire (t, now_us, c->min_window);
    first = g_queue_peek_head (&t->window);
    s->has_min = first != NULL;
    s->min = first ? first->value : NAN;
    g_ptr_array_add (out, s);
  }
  return out;
}
