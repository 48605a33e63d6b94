/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* vmafhip-monitor's per-channel statistics without a pipeline: the
 * histograms, below-threshold counts and sliding minimum of
 * monitor-scores.c at chosen times, and the event counts of
 * monitor-events.c from made-up vmaf-event structures. */

#include <gst/gst.h>
#include <math.h>

#include "monitor-events.h"
#include "monitor-scores.h"

#define US(seconds) ((gint64) ((seconds) * G_USEC_PER_SEC))

static const gdouble bounds[] = { 10, 50, 90 };
static const gdouble thresholds[] = { 50, 60 };

static MonitorChannelConfig *
config_new (const gchar * metrics, gdouble window)
{
  MonitorChannelConfig *c = g_new0 (MonitorChannelConfig, 1);

  c->histogram_metrics = g_strsplit (metrics, ",", -1);
  c->histogram_buckets = g_memdup2 (bounds, sizeof (bounds));
  c->n_histogram_buckets = G_N_ELEMENTS (bounds);
  c->thresholds = g_memdup2 (thresholds, sizeof (thresholds));
  c->n_thresholds = G_N_ELEMENTS (thresholds);
  c->min_window = window;
  return c;
}

static void
config_free (MonitorChannelConfig * c)
{
  g_strfreev (c->histogram_metrics);
  g_free (c->histogram_buckets);
  g_free (c->thresholds);
  g_free (c);
}

static void
add (MonitorScores * scores, const gchar * metric, gdouble v, gdouble at)
{
  GstStructure *s = gst_structure_new ("vmaf", metric, G_TYPE_DOUBLE, v,
      "index", G_TYPE_UINT64, (guint64) 0, NULL);

  monitor_scores_add_frame (scores, s, US (at));
  gst_structure_free (s);
}

static const MonitorScoreSnapshot *
find (GPtrArray * snap, const gchar * metric)
{
  for (guint i = 0; i < snap->len; i++) {
    const MonitorScoreSnapshot *s = g_ptr_array_index (snap, i);

    if (!g_strcmp0 (s->metric, metric))
      return s;
  }
  return NULL;
}

/* A value on a bound is in that bound's bucket (le: less or equal); above
 * every bound only in +Inf; below a threshold means strictly below; NaN
 * and metrics not asked for are left out. */
static void
test_histogram (void)
{
  MonitorChannelConfig *c = config_new ("vmaf,psnr_y", 60);
  MonitorScores *scores = monitor_scores_new (c);
  const gdouble values[] = { 5, 10, 10.5, 50, 60, 89.9, 90, 95, NAN };
  GPtrArray *snap;
  const MonitorScoreSnapshot *s;

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    add (scores, "vmaf", values[i], i * 0.04);
  add (scores, "integer_adm2", 0.9, 1);
  snap = monitor_scores_snapshot (scores, US (1));
  /* psnr_y never came: no snapshot for it. */
  g_assert_cmpuint (snap->len, ==, 1);
  s = find (snap, "vmaf");
  g_assert_nonnull (s);
  g_assert_cmpuint (s->cumulative[0], ==, 2);   /* 5, 10 */
  g_assert_cmpuint (s->cumulative[1], ==, 4);   /* + 10.5, 50 */
  g_assert_cmpuint (s->cumulative[2], ==, 7);   /* + 60, 89.9, 90 */
  g_assert_cmpuint (s->count, ==, 8);   /* + 95; not NaN */
  g_assert_cmpfloat_with_epsilon (s->sum, 5 + 10 + 10.5 + 50 + 60 + 89.9 +
      90 + 95, 1e-9);
  g_assert_cmpuint (s->below[0], ==, 3);        /* < 50: 5, 10, 10.5 */
  g_assert_cmpuint (s->below[1], ==, 4);        /* < 60: + 50 */
  g_assert_true (s->has_min);
  g_assert_cmpfloat (s->min, ==, 5);
  g_ptr_array_unref (snap);
  monitor_scores_free (scores);
  config_free (c);
}

/* The sliding minimum against the lowest value of the last window
 * seconds, computed the slow way, at every frame and in between. */
static void
test_window_min (void)
{
  MonitorChannelConfig *c = config_new ("vmaf", 2);
  MonitorScores *scores = monitor_scores_new (c);
  GRand *rand = g_rand_new_with_seed (30);
  GArray *times = g_array_new (FALSE, FALSE, sizeof (gdouble));
  GArray *values = g_array_new (FALSE, FALSE, sizeof (gdouble));
  gdouble t = 0, step = 0.1;

  for (guint i = 0; i < 600; i++) {
    /* Mostly high, with dips; repeated values too. */
    gdouble v = g_rand_int_range (rand, 0, 10) == 0 ?
        g_rand_int_range (rand, 0, 40) : g_rand_int_range (rand, 80, 100);
    GPtrArray *snap;
    const MonitorScoreSnapshot *s;
    gdouble at, want;
    gboolean any;

    t += step;
    add (scores, "vmaf", v, t);
    g_array_append_val (times, t);
    g_array_append_val (values, v);
    /* A scrape between this frame and the next (the clock goes on). */
    step = g_rand_double_range (rand, 0.01, 0.5);
    at = t + g_rand_double_range (rand, 0, step);
    want = INFINITY;
    any = FALSE;
    for (guint j = 0; j < times->len; j++) {
      if (US (g_array_index (times, gdouble, j)) >= US (at) - US (2)) {
        want = MIN (want, g_array_index (values, gdouble, j));
        any = TRUE;
      }
    }
    snap = monitor_scores_snapshot (scores, US (at));
    s = find (snap, "vmaf");
    g_assert_cmpint (s->has_min, ==, any);
    if (any)
      g_assert_cmpfloat (s->min, ==, want);
    g_ptr_array_unref (snap);
  }
  /* Long after the last frame: nothing in the window, counts stay. */
  {
    GPtrArray *snap = monitor_scores_snapshot (scores, US (t + 2.5));
    const MonitorScoreSnapshot *s = find (snap, "vmaf");

    g_assert_false (s->has_min);
    g_assert_cmpuint (s->count, ==, 600);
    g_ptr_array_unref (snap);
  }
  g_array_unref (times);
  g_array_unref (values);
  g_rand_free (rand);
  monitor_scores_free (scores);
  config_free (c);
}

static GstStructure *
event (const gchar * type, const gchar * input, const gchar * state,
    guint64 duration)
{
  GstStructure *s = gst_structure_new_empty ("vmaf-event");

  if (type)
    gst_structure_set (s, "type", G_TYPE_STRING, type, NULL);
  if (input)
    gst_structure_set (s, "input", G_TYPE_STRING, input, NULL);
  if (state)
    gst_structure_set (s, "state", G_TYPE_STRING, state, "start",
        G_TYPE_UINT64, (guint64) 0, NULL);
  if (duration)
    gst_structure_set (s, "duration", G_TYPE_UINT64, duration, NULL);
  return s;
}

static const MonitorEventCount *
find_event_on (GPtrArray * snap, const gchar * type, const gchar * input,
    const gchar * pad)
{
  for (guint i = 0; i < snap->len; i++) {
    const MonitorEventCount *c = g_ptr_array_index (snap, i);

    if (!g_strcmp0 (c->type, type) && !g_strcmp0 (c->input, input) &&
        !g_strcmp0 (c->pad, pad))
      return c;
  }
  return NULL;
}

/* On the input's first pad. */
static const MonitorEventCount *
find_event (GPtrArray * snap, const gchar * type, const gchar * input)
{
  return find_event_on (snap, type, input, !g_strcmp0 (input, "reference") ?
      "ref_sink" : "dist_sink");
}

static gboolean
feed (MonitorEvents * events, GstStructure * s)
{
  gboolean ok = monitor_events_add (events, s);

  gst_structure_free (s);
  return ok;
}

static void
test_events (void)
{
  MonitorEvents *events = monitor_events_new ();
  GPtrArray *snap;
  const MonitorEventCount *c;

  /* Every known kind at 0 before any event. */
  snap = monitor_events_snapshot (events);
  g_assert_cmpuint (snap->len, ==, 5);
  c = find_event (snap, "low-score", "distorted");
  g_assert_nonnull (c);
  g_assert_cmpuint (c->count, ==, 0);
  g_ptr_array_unref (snap);

  /* Black on the distorted input for 2 s; a freeze that is going on. */
  g_assert_true (feed (events, event ("black", "distorted", "start", 0)));
  snap = monitor_events_snapshot (events);
  c = find_event (snap, "black", "distorted");
  g_assert_cmpuint (c->count, ==, 1);
  g_assert_true (c->active);
  g_ptr_array_unref (snap);
  g_assert_true (feed (events, event ("black", "distorted", "end",
              2 * GST_SECOND)));
  g_assert_true (feed (events, event ("freeze", "reference", "start", 0)));
  /* A low score whose start came before (a reload): still one event. */
  g_assert_true (feed (events, event ("low-score", NULL, "end",
              GST_SECOND + 40 * GST_MSECOND)));
  /* Not events: no type, no state, an unknown state. */
  g_assert_false (feed (events, event (NULL, "distorted", "start", 0)));
  g_assert_false (feed (events, event ("black", "distorted", NULL, 0)));
  g_assert_false (feed (events, event ("black", "distorted", "middle", 0)));

  snap = monitor_events_snapshot (events);
  c = find_event (snap, "black", "distorted");
  g_assert_cmpuint (c->count, ==, 1);
  g_assert_false (c->active);
  g_assert_cmpfloat (c->seconds, ==, 2.0);
  c = find_event (snap, "freeze", "reference");
  g_assert_cmpuint (c->count, ==, 1);
  g_assert_true (c->active);
  c = find_event (snap, "low-score", "distorted");
  g_assert_cmpuint (c->count, ==, 1);
  g_assert_cmpfloat_with_epsilon (c->seconds, 1.04, 1e-12);
  g_ptr_array_unref (snap);

  /* Two renditions of a ladder: counted apart, by their pads. */
  {
    GstStructure *ev = event ("black", "distorted", "start", 0);

    gst_structure_set (ev, "pad", G_TYPE_STRING, "dist_sink_1", NULL);
    g_assert_true (feed (events, ev));
  }
  snap = monitor_events_snapshot (events);
  g_assert_cmpuint (find_event_on (snap, "black", "distorted",
          "dist_sink_1")->count, ==, 1);
  g_assert_cmpuint (find_event (snap, "black", "distorted")->count, ==, 1);
  g_ptr_array_unref (snap);

  /* The run ends: the freeze with it, counted, unmeasured. */
  monitor_events_end_run (events);
  snap = monitor_events_snapshot (events);
  c = find_event (snap, "freeze", "reference");
  g_assert_false (c->active);
  g_assert_cmpuint (c->count, ==, 1);
  g_assert_cmpfloat (c->seconds, ==, 0);
  g_ptr_array_unref (snap);
  monitor_events_free (events);
}

int
main (int argc, char **argv)
{
  int status;

  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/monitor/scores/histogram", test_histogram);
  g_test_add_func ("/monitor/scores/window-min", test_window_min);
  g_test_add_func ("/monitor/events", test_events);
  status = g_test_run ();
  gst_deinit ();
  return status;
}
