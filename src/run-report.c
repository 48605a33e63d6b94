/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "run-report.h"
#include "errors.h"
#include "results-file.h"

struct _VhRunReport
{
  VhContext *ctx;               /* borrowed; NULL between contexts */
  VhFeatureCollector *fc;       /* the context's */
  guint base;                   /* the run's number of the context's
                                 * frame 0 */
  guint subsample;
  /* Only once a run went on in a second context with a results file:
   * the earlier contexts' values and, from then on, each frame's, at the
   * run's frame numbers. NULL otherwise: the file is written from the
   * context's own collector. */
  VhFeatureCollector *merged;

  /* Fed by the frame-ready callback, read by anyone. */
  GMutex lock;
  GPtrArray *pools;             /* VhRunReportPool*, in report order */
  GHashTable *by_name;          /* name -> VhRunReportPool* */
  GPtrArray *order;             /* gchar*: the context's outputs */
  GHashTable *in_order;         /* the same names, as a set */
  guint64 n_scored;
  guint64 n_skipped;
  guint n_reported;
  gchar *dispatch;
  gchar *scaler;
  gchar *alignment;
  gchar *alignment_json;
  gdouble *percentiles;         /* set before the first update */
  gchar **percentile_names;
  guint n_percentiles;
  guint width;
  guint height;
  gint64 start_us;              /* monotonic; 0 until the clock starts */

  /* The results file; one update at a time. */
  GMutex results_lock;
  gchar *results_path;          /* NULL: none, values not kept */
  VhOutputFormat results_format;
  gint64 results_interval;
  VhResultsFile *results;       /* NULL until made when late */
  GError *results_error;        /* the first failed write */
};

static void
pool_free (VhRunReportPool * pool)
{
  g_free ((gchar *) pool->name);
  g_free (pool);
}

static gboolean
open_results (VhRunReport * report, GError ** error)
{
  report->results = vh_results_file_new (report->results_path,
      report->results_format, error);
  if (!report->results)
    return FALSE;
  vh_results_file_set_interval (report->results, report->results_interval);
  return TRUE;
}

/* The context's outputs come first in the pools and the messages. */
static void
take_order (VhRunReport * report, VhContext * ctx)
{
  GPtrArray *names = vh_context_output_names (ctx);

  g_hash_table_remove_all (report->in_order);
  g_ptr_array_set_size (report->order, 0);
  for (guint i = 0; i < names->len; i++) {
    gchar *name = g_strdup (g_ptr_array_index (names, i));

    g_ptr_array_add (report->order, name);
    g_hash_table_add (report->in_order, name);
  }
  g_ptr_array_unref (names);
}

VhRunReport *
vh_run_report_new (VhContext * ctx, const VhRunReportConfig * config,
    GError ** error)
{
  VhRunReport *report = g_new0 (VhRunReport, 1);

  g_mutex_init (&report->lock);
  g_mutex_init (&report->results_lock);
  report->pools = g_ptr_array_new_with_free_func ((GDestroyNotify) pool_free);
  report->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  report->order = g_ptr_array_new_with_free_func (g_free);
  report->in_order = g_hash_table_new (g_str_hash, g_str_equal);
  report->subsample = 1;
  if (ctx)
    vh_run_report_attach (report, ctx, 0);

  if (config && config->results_path) {
    report->results_path = g_strdup (config->results_path);
    report->results_format = config->results_format;
    report->results_interval = config->results_interval_us;
    /* A stream (a pipe, a FIFO, /dev/stdout) is written once, at the
     * end: opened now even when late, without waiting, so that a FIFO
     * without a reader fails here and its reader waits for that write. */
    if ((!config->results_late ||
            vh_results_file_is_stream (config->results_path)) &&
        !open_results (report, error)) {
      vh_run_report_free (report);
      return NULL;
    }
  }
  return report;
}

void
vh_run_report_free (VhRunReport * report)
{
  if (!report)
    return;
  vh_results_file_free (report->results);
  if (report->merged)
    vh_feature_collector_free (report->merged);
  g_clear_error (&report->results_error);
  g_free (report->results_path);
  g_free (report->dispatch);
  g_free (report->scaler);
  g_free (report->alignment);
  g_free (report->alignment_json);
  g_free (report->percentiles);
  g_strfreev (report->percentile_names);
  g_hash_table_unref (report->in_order);
  g_ptr_array_unref (report->order);
  g_hash_table_unref (report->by_name);
  g_ptr_array_unref (report->pools);
  g_mutex_clear (&report->results_lock);
  g_mutex_clear (&report->lock);
  g_free (report);
}

gboolean
vh_run_report_keeps_values (VhRunReport * report)
{
  return report->results_path != NULL;
}

void
vh_run_report_set_dispatch (VhRunReport * report, const gchar * dispatch)
{
  g_mutex_lock (&report->lock);
  g_free (report->dispatch);
  report->dispatch = g_strdup (dispatch);
  g_mutex_unlock (&report->lock);
}

void
vh_run_report_set_scaler (VhRunReport * report, const gchar * scaler)
{
  g_mutex_lock (&report->lock);
  g_free (report->scaler);
  report->scaler = g_strdup (scaler);
  g_mutex_unlock (&report->lock);
}

void
vh_run_report_set_alignment (VhRunReport * report, const gchar * text,
    const gchar * json)
{
  g_mutex_lock (&report->lock);
  g_free (report->alignment);
  report->alignment = g_strdup (text);
  g_free (report->alignment_json);
  report->alignment_json = g_strdup (json);
  g_mutex_unlock (&report->lock);
}

void
vh_run_report_set_percentiles (VhRunReport * report,
    const gdouble * percentiles, const gchar * const *names, guint n)
{
  g_mutex_lock (&report->lock);
  g_free (report->percentiles);
  g_strfreev (report->percentile_names);
  report->percentiles = n ? g_memdup2 (percentiles, n * sizeof (gdouble)) :
      NULL;
  report->percentile_names = g_new0 (gchar *, n + 1);
  for (guint i = 0; i < n; i++)
    report->percentile_names[i] = g_strdup (names[i]);
  report->n_percentiles = n;
  g_mutex_unlock (&report->lock);
}

void
vh_run_report_set_picture_info (VhRunReport * report,
    const VhPictureInfo * info)
{
  g_mutex_lock (&report->lock);
  report->width = info->width;
  report->height = info->height;
  g_mutex_unlock (&report->lock);
}

void
vh_run_report_start_clock (VhRunReport * report)
{
  g_mutex_lock (&report->lock);
  if (report->start_us == 0)
    report->start_us = g_get_monotonic_time ();
  g_mutex_unlock (&report->lock);
}

void
vh_run_report_attach (VhRunReport * report, VhContext * ctx, guint first)
{
  g_mutex_lock (&report->results_lock);
  g_mutex_lock (&report->lock);
  report->ctx = ctx;
  report->fc = vh_context_get_collector (ctx);
  report->base = first;
  report->subsample = MAX (vh_context_get_subsample (ctx), 1);
  take_order (report, ctx);
  g_mutex_unlock (&report->lock);
  g_mutex_unlock (&report->results_lock);
}

/* Frame @index of the context, in the report's order, into @to at
 * @number. With the lock held. */
static void
copy_frame (VhRunReport * report, VhFeatureCollector * to, guint index,
    guint number)
{
  guint n_features = vh_feature_collector_n_features (report->fc);
  gdouble v;

  for (guint i = 0; i < report->order->len; i++) {
    const gchar *name = g_ptr_array_index (report->order, i);

    if (vh_feature_collector_get (report->fc, name, index, &v))
      vh_feature_collector_append (to, name, number, v, NULL);
  }
  for (guint i = 0; i < n_features; i++) {
    const gchar *name = vh_feature_collector_feature_name (report->fc, i);

    if (!g_hash_table_contains (report->in_order, name) &&
        vh_feature_collector_get (report->fc, name, index, &v))
      vh_feature_collector_append (to, name, number, v, NULL);
  }
}

void
vh_run_report_detach (VhRunReport * report, gboolean run_goes_on)
{
  g_mutex_lock (&report->results_lock);
  g_mutex_lock (&report->lock);
  /* The values kept in the context's collector would go with it: they
   * move into the report's own store, which takes every later frame. */
  if (run_goes_on && report->results_path && report->fc && !report->merged) {
    report->merged = vh_feature_collector_new ();
    for (guint n = report->base; n < report->n_reported; n++)
      copy_frame (report, report->merged, n - report->base, n);
  }
  report->ctx = NULL;
  report->fc = NULL;
  g_mutex_unlock (&report->lock);
  g_mutex_unlock (&report->results_lock);
}

/* With the lock held. */
static void
pool_value (VhRunReport * report, const gchar * name, gdouble value)
{
  VhRunReportPool *pool = g_hash_table_lookup (report->by_name, name);

  if (!pool) {
    pool = g_new0 (VhRunReportPool, 1);
    pool->name = g_strdup (name);
    g_ptr_array_add (report->pools, pool);
    g_hash_table_insert (report->by_name, (gchar *) pool->name, pool);
  }
  vh_pool_accumulator_add (&pool->acc, value);
}

void
vh_run_report_frame_ready (VhRunReport * report, guint index,
    gboolean scored)
{
  g_mutex_lock (&report->lock);
  g_return_if_fail (report->fc != NULL);
  report->n_reported = report->base + index + 1;
  if (!scored) {
    report->n_skipped++;
  } else {
    guint n_features = vh_feature_collector_n_features (report->fc);

    /* The context's outputs first, so that the pools' order is the same
     * whatever thread appended first. */
    for (guint i = 0; i < report->order->len; i++) {
      const gchar *name = g_ptr_array_index (report->order, i);
      gdouble v;

      if (vh_feature_collector_get (report->fc, name, index, &v))
        pool_value (report, name, v);
    }
    for (guint i = 0; i < n_features; i++) {
      const gchar *name = vh_feature_collector_feature_name (report->fc, i);
      gdouble v;

      if (!g_hash_table_contains (report->in_order, name) &&
          vh_feature_collector_get (report->fc, name, index, &v))
        pool_value (report, name, v);
    }
    report->n_scored++;
    if (report->merged)
      copy_frame (report, report->merged, index, report->base + index);
  }
  g_mutex_unlock (&report->lock);

  /* Nothing will write the results file: the frames before this one can
   * go (this one stays readable for the caller's own callback). */
  if (!report->results_path && index > 0)
    vh_feature_collector_release (report->fc, index);
}

gboolean
vh_run_report_get_pooled (VhRunReport * report, const gchar * name,
    VhPoolMethod method, gdouble * value)
{
  VhRunReportPool *pool;
  gboolean found;

  g_mutex_lock (&report->lock);
  pool = g_hash_table_lookup (report->by_name, name);
  found = pool && pool->acc.n > 0;
  if (found)
    *value = vh_pool_accumulator_get (&pool->acc, method);
  g_mutex_unlock (&report->lock);
  return found;
}

VhRunReportTotals *
vh_run_report_get_totals (VhRunReport * report)
{
  VhRunReportTotals *totals = g_new0 (VhRunReportTotals, 1);

  g_mutex_lock (&report->lock);
  totals->n_scored = report->n_scored;
  totals->n_skipped = report->n_skipped;
  totals->n_reported = report->n_reported;
  totals->n_pools = report->pools->len;
  totals->pools = g_new (VhRunReportPool, MAX (totals->n_pools, 1));
  for (guint i = 0; i < totals->n_pools; i++)
    totals->pools[i] = *(VhRunReportPool *) g_ptr_array_index (report->pools,
        i);
  g_mutex_unlock (&report->lock);
  return totals;
}

void
vh_run_report_totals_free (VhRunReportTotals * totals)
{
  if (!totals)
    return;
  g_free (totals->pools);
  g_free (totals);
}

guint64
vh_run_report_n_scored (VhRunReport * report)
{
  guint64 n;

  g_mutex_lock (&report->lock);
  n = report->n_scored;
  g_mutex_unlock (&report->lock);
  return n;
}

guint
vh_run_report_n_reported (VhRunReport * report)
{
  guint n;

  g_mutex_lock (&report->lock);
  n = report->n_reported;
  g_mutex_unlock (&report->lock);
  return n;
}

gboolean
vh_run_report_update_results (VhRunReport * report, gboolean force,
    GError ** error)
{
  VhOutputInfo info = { 0 };
  gchar *dispatch, *scaler, *alignment, *alignment_json;
  gdouble secs;
  gboolean ok;

  if (!report->results_path)
    return TRUE;
  g_mutex_lock (&report->results_lock);
  if (report->results_error) {
    g_propagate_error (error, g_error_copy (report->results_error));
    g_mutex_unlock (&report->results_lock);
    return FALSE;
  }
  if (!report->results) {
    if (!open_results (report, &report->results_error)) {
      g_propagate_error (error, g_error_copy (report->results_error));
      g_mutex_unlock (&report->results_lock);
      return FALSE;
    }
    force = TRUE;               /* made late: the first frames at once */
  }

  g_mutex_lock (&report->lock);
  secs = report->start_us ?
      (g_get_monotonic_time () - report->start_us) / 1e6 : 0.0;
  info.n_frames = report->n_reported;
  info.subsample = report->subsample;
  info.fps = secs > 0 ? info.n_frames / secs : 0.0;
  info.width = report->width;
  info.height = report->height;
  dispatch = g_strdup (report->dispatch);
  info.dispatch = dispatch;
  scaler = g_strdup (report->scaler);
  info.scaler = scaler;
  alignment = g_strdup (report->alignment);
  info.alignment = alignment;
  alignment_json = g_strdup (report->alignment_json);
  info.alignment_json = alignment_json;
  info.percentiles = report->percentiles;
  info.percentile_names = (const gchar * const *) report->percentile_names;
  info.n_percentiles = report->n_percentiles;
  g_mutex_unlock (&report->lock);

  /* Between contexts with nothing merged: no values to write. */
  ok = (report->merged || report->fc) &&
      vh_results_file_update (report->results, report->merged ?
      report->merged : report->fc, &info, force, &report->results_error);
  if (!ok && !report->results_error)
    g_set_error (&report->results_error, VH_ERROR, VH_ERROR_FAILED,
        "cannot write '%s': the run has no context", report->results_path);
  if (!ok)
    g_propagate_error (error, g_error_copy (report->results_error));
  g_mutex_unlock (&report->results_lock);
  g_free (dispatch);
  g_free (scaler);
  g_free (alignment);
  g_free (alignment_json);
  return ok;
}
