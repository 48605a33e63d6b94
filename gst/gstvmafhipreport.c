/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipreport.h"
#include "gstvmafhipstats.h"
#include "gstvmafhiptags.h"
#include "errors.h"
#include "feature-alias.h"
#include "context.h"

GST_DEBUG_CATEGORY_EXTERN (gst_vmaf_hip_compare_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_compare_debug

struct _GstVmafHipReport
{
  GMutex lock;
  GQueue stamps;                /* GstVmafHipStamp*, in submission order */
  GstVmafHipStats *stats;
  VhFeatureCollector *results;  /* NULL unless a results file is wanted */
  gchar *score_name;
  GPtrArray *order;             /* gchar*: names reported first */
  GHashTable *in_order;         /* the same names, as a set */
  GPtrArray *shown;             /* the same, models first (not owned) */
  guint64 n_scored;
  guint64 n_skipped;
  guint n_reported;             /* element frame number after the last */
};

GstVmafHipReport *
gst_vmaf_hip_report_new (gboolean keep_results)
{
  GstVmafHipReport *report = g_new0 (GstVmafHipReport, 1);

  g_mutex_init (&report->lock);
  g_queue_init (&report->stamps);
  report->stats = gst_vmaf_hip_stats_new ();
  report->order = g_ptr_array_new_with_free_func (g_free);
  report->in_order = g_hash_table_new (g_str_hash, g_str_equal);
  report->shown = g_ptr_array_new ();
  if (keep_results)
    report->results = vh_feature_collector_new ();
  return report;
}

void
gst_vmaf_hip_report_free (GstVmafHipReport * report)
{
  if (!report)
    return;
  g_queue_clear_full (&report->stamps, g_free);
  gst_vmaf_hip_stats_free (report->stats);
  if (report->results)
    vh_feature_collector_free (report->results);
  g_free (report->score_name);
  g_hash_table_unref (report->in_order);
  g_ptr_array_unref (report->shown);
  g_ptr_array_unref (report->order);
  g_mutex_clear (&report->lock);
  g_free (report);
}

void
gst_vmaf_hip_report_set_score_name (GstVmafHipReport * report,
    const gchar * name)
{
  g_mutex_lock (&report->lock);
  g_free (report->score_name);
  report->score_name = g_strdup (name);
  g_mutex_unlock (&report->lock);
}

/* @ctx's model outputs among @names come first in the messages and the
 * summary, in model order: the scores a reader looks for before the
 * features that make them. */
static void
order_models_first (GstVmafHipReport * report, VhContext * ctx)
{
  GHashTable *models = g_hash_table_new (g_str_hash, g_str_equal);

  g_ptr_array_set_size (report->shown, 0);
  for (guint m = 0; ctx && m < vh_context_n_models (ctx); m++) {
    const gchar *const *out =
        vh_model_output_names (vh_context_get_model (ctx, m));

    for (guint j = 0; out && out[j]; j++) {
      gchar *name = g_hash_table_lookup (report->in_order, out[j]);
      if (name && g_hash_table_add (models, name))
        g_ptr_array_add (report->shown, name);
    }
  }
  for (guint i = 0; i < report->order->len; i++) {
    gchar *name = g_ptr_array_index (report->order, i);
    if (!g_hash_table_contains (models, name))
      g_ptr_array_add (report->shown, name);
  }
  g_hash_table_unref (models);
}

void
gst_vmaf_hip_report_set_order (GstVmafHipReport * report, GPtrArray * names,
    VhContext * ctx)
{
  g_mutex_lock (&report->lock);
  g_hash_table_remove_all (report->in_order);
  g_ptr_array_set_size (report->shown, 0);
  g_ptr_array_set_size (report->order, 0);
  for (guint i = 0; i < names->len; i++) {
    gchar *name = g_strdup (g_ptr_array_index (names, i));
    g_ptr_array_add (report->order, name);
    g_hash_table_insert (report->in_order, name, name);
  }
  order_models_first (report, ctx);
  g_mutex_unlock (&report->lock);
}

/* One value of the frame: pooled and put in the message. */
static void
report_value (GstVmafHipReport * report, GstStructure * s,
    const gchar * name, gdouble v)
{
  const gchar *alias = vh_feature_name_alias (name);

  gst_vmaf_hip_stats_add (report->stats, alias, v);
  if (s) {
    if (report->score_name && !g_strcmp0 (alias, report->score_name))
      gst_structure_set (s, "score", G_TYPE_DOUBLE, v, NULL);
    gst_structure_set (s, alias, G_TYPE_DOUBLE, v, NULL);
  }
}

/* Every value of the frame, for the results file, in the engine's order
 * (libvmaf's: features, then models). */
static void
keep_results (GstVmafHipReport * report, VhFeatureCollector * fc,
    guint ctx_index, guint64 index)
{
  guint n_features = vh_feature_collector_n_features (fc);
  gdouble v;

  for (guint j = 0; j < report->order->len; j++) {
    const gchar *name = g_ptr_array_index (report->order, j);
    if (vh_feature_collector_get (fc, name, ctx_index, &v))
      vh_feature_collector_append (report->results, name, index, v, NULL);
  }
  for (guint j = 0; j < n_features; j++) {
    const gchar *name = vh_feature_collector_feature_name (fc, j);
    if (!g_hash_table_contains (report->in_order, name) &&
        vh_feature_collector_get (fc, name, ctx_index, &v))
      vh_feature_collector_append (report->results, name, index, v, NULL);
  }
}

void
gst_vmaf_hip_report_push_stamp (GstVmafHipReport * report,
    const GstVmafHipStamp * stamp)
{
  g_mutex_lock (&report->lock);
  g_queue_push_tail (&report->stamps, g_memdup2 (stamp, sizeof (*stamp)));
  g_mutex_unlock (&report->lock);
}

void
gst_vmaf_hip_report_drop_last_stamp (GstVmafHipReport * report)
{
  g_mutex_lock (&report->lock);
  g_free (g_queue_pop_tail (&report->stamps));
  g_mutex_unlock (&report->lock);
}

/* The stamp of engine frame @ctx_index. Frames come back in submission
 * order, so it is the oldest one. */
static GstVmafHipStamp *
pop_stamp (GstVmafHipReport * report, guint ctx_index)
{
  GstVmafHipStamp *stamp;

  while ((stamp = g_queue_pop_head (&report->stamps))) {
    if (stamp->ctx_index == ctx_index)
      return stamp;
    GST_ERROR ("frame %u reported out of order (expected %u)", ctx_index,
        stamp->ctx_index);
    g_free (stamp);
  }
  return NULL;
}

GstStructure *
gst_vmaf_hip_report_frame_ready (GstVmafHipReport * report,
    VhFeatureCollector * fc, guint ctx_index, gboolean scored,
    gboolean want_message, guint64 * n_scored)
{
  GstStructure *s = NULL;
  GstVmafHipStamp *stamp;
  guint n_features;

  g_mutex_lock (&report->lock);
  stamp = pop_stamp (report, ctx_index);
  if (!stamp) {
    g_mutex_unlock (&report->lock);
    GST_ERROR ("no stamp for frame %u", ctx_index);
    return NULL;
  }
  report->n_reported = (guint) MIN (stamp->index + 1, G_MAXUINT);
  if (!scored) {
    report->n_skipped++;
    goto done;
  }

  if (want_message) {
    s = gst_structure_new ("vmaf",
        "timestamp", G_TYPE_UINT64, stamp->pts,
        "stream-time", G_TYPE_UINT64, stamp->stream_time,
        "running-time", G_TYPE_UINT64, stamp->running_time,
        "duration", G_TYPE_UINT64, stamp->duration,
        "index", G_TYPE_UINT64, stamp->index, NULL);
  }
  for (guint j = 0; j < report->shown->len; j++) {
    const gchar *name = g_ptr_array_index (report->shown, j);
    gdouble v;

    if (vh_feature_collector_get (fc, name, ctx_index, &v))
      report_value (report, s, name, v);
  }
  n_features = vh_feature_collector_n_features (fc);
  for (guint j = 0; j < n_features; j++) {
    const gchar *name = vh_feature_collector_feature_name (fc, j);
    gdouble v;

    if (!g_hash_table_contains (report->in_order, name) &&
        vh_feature_collector_get (fc, name, ctx_index, &v))
      report_value (report, s, name, v);
  }
  if (report->results)
    keep_results (report, fc, ctx_index, stamp->index);
  report->n_scored++;

done:
  if (n_scored)
    *n_scored = report->n_scored;
  g_mutex_unlock (&report->lock);
  g_free (stamp);
  return s;
}

guint64
gst_vmaf_hip_report_n_scored (GstVmafHipReport * report)
{
  guint64 n;

  g_mutex_lock (&report->lock);
  n = report->n_scored;
  g_mutex_unlock (&report->lock);
  return n;
}

GstTagList *
gst_vmaf_hip_report_make_tags (GstVmafHipReport * report,
    GstVmafHipPoolMethod method)
{
  GstTagList *tags = NULL;
  gdouble v;

  g_mutex_lock (&report->lock);
  if (report->n_scored == 0)
    goto out;
  tags = gst_tag_list_new_empty ();
  gst_tag_list_add (tags, GST_TAG_MERGE_REPLACE, GST_TAG_VMAFHIP_FRAMES,
      (guint) MIN (report->n_scored, G_MAXUINT), NULL);
  if (report->score_name && gst_vmaf_hip_stats_get (report->stats,
          report->score_name, method, &v))
    gst_tag_list_add (tags, GST_TAG_MERGE_REPLACE, GST_TAG_VMAFHIP_SCORE, v,
        NULL);
  for (guint i = 0; i < gst_vmaf_hip_stats_n_names (report->stats); i++) {
    const gchar *name = gst_vmaf_hip_stats_name (report->stats, i);
    const gchar *tag = gst_vmaf_hip_tag_for_output (name);

    if (tag && gst_vmaf_hip_stats_get (report->stats, name, method, &v))
      gst_tag_list_add (tags, GST_TAG_MERGE_REPLACE, tag, v, NULL);
  }
out:
  g_mutex_unlock (&report->lock);
  return tags;
}

GstStructure *
gst_vmaf_hip_report_make_summary (GstVmafHipReport * report,
    GstVmafHipPoolMethod method)
{
  GstStructure *s;
  gdouble v;

  g_mutex_lock (&report->lock);
  s = gst_structure_new ("vmaf-summary",
      "scored", G_TYPE_UINT64, report->n_scored,
      "skipped", G_TYPE_UINT64, report->n_skipped,
      "pool-method", G_TYPE_STRING,
      gst_vmaf_hip_enum_nick (GST_TYPE_VMAF_HIP_POOL_METHOD, method), NULL);
  if (report->score_name && gst_vmaf_hip_stats_get (report->stats,
          report->score_name, method, &v))
    gst_structure_set (s, "score", G_TYPE_DOUBLE, v, NULL);
  for (guint i = 0; i < gst_vmaf_hip_stats_n_names (report->stats); i++) {
    const gchar *name = gst_vmaf_hip_stats_name (report->stats, i);
    GstStructure *pooled = gst_vmaf_hip_stats_to_structure (report->stats,
        name);

    if (pooled) {
      gst_structure_set (s, name, GST_TYPE_STRUCTURE, pooled, NULL);
      gst_structure_free (pooled);
    }
  }
  g_mutex_unlock (&report->lock);
  return s;
}

gboolean
gst_vmaf_hip_report_update_results (GstVmafHipReport * report,
    VhResultsFile * file, const VhOutputInfo * info, gdouble secs,
    gboolean force, GError ** error)
{
  VhOutputInfo at = *info;
  gboolean ok;

  g_return_val_if_fail (report->results != NULL, FALSE);
  g_mutex_lock (&report->lock);
  if (at.n_frames == 0)
    at.n_frames = report->n_reported;
  at.fps = secs > 0 ? at.n_frames / secs : 0.0;
  ok = vh_results_file_update (file, report->results, &at, force, error);
  g_mutex_unlock (&report->lock);
  return ok;
}
