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
#include "gstvmafhiptags.h"
#include "errors.h"
#include "feature-alias.h"

GST_DEBUG_CATEGORY_EXTERN (gst_vmaf_hip_compare_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_compare_debug

struct _GstVmafHipReport
{
  VhRunReport *run;             /* thread-safe on its own */
  GMutex lock;                  /* the fields below */
  gchar *score_name;
  GPtrArray *order;             /* gchar*: names reported first */
  GHashTable *in_order;         /* the same names, as a set */
};

GstVmafHipReport *
gst_vmaf_hip_report_new (const VhRunReportConfig * results)
{
  GstVmafHipReport *report = g_new0 (GstVmafHipReport, 1);

  g_mutex_init (&report->lock);
  /* The file is made by its first update, after a frame is scored, so
   * that a run that scores nothing leaves none: never fails. */
  report->run = vh_run_report_new (NULL, results, NULL);
  g_assert (report->run != NULL);
  report->order = g_ptr_array_new_with_free_func (g_free);
  report->in_order = g_hash_table_new (g_str_hash, g_str_equal);
  return report;
}

void
gst_vmaf_hip_report_free (GstVmafHipReport * report)
{
  if (!report)
    return;
  vh_run_report_free (report->run);
  g_free (report->score_name);
  g_hash_table_unref (report->in_order);
  g_ptr_array_unref (report->order);
  g_mutex_clear (&report->lock);
  g_free (report);
}

VhRunReport *
gst_vmaf_hip_report_run (GstVmafHipReport * report)
{
  return report->run;
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

void
gst_vmaf_hip_report_set_order (GstVmafHipReport * report, GPtrArray * names)
{
  g_mutex_lock (&report->lock);
  g_hash_table_remove_all (report->in_order);
  g_ptr_array_set_size (report->order, 0);
  for (guint i = 0; i < names->len; i++) {
    gchar *name = g_strdup (g_ptr_array_index (names, i));
    g_ptr_array_add (report->order, name);
    g_hash_table_add (report->in_order, name);
  }
  g_mutex_unlock (&report->lock);
}

/* One value of the frame, in the message. */
static void
message_value (GstVmafHipReport * report, GstStructure * s,
    const gchar * name, gdouble v)
{
  const gchar *alias = vh_feature_name_alias (name);

  if (report->score_name && !g_strcmp0 (alias, report->score_name))
    gst_structure_set (s, "score", G_TYPE_DOUBLE, v, NULL);
  gst_structure_set (s, alias, G_TYPE_DOUBLE, v, NULL);
}

/* The "vmaf" message of engine frame @ctx_index, with the lock held. */
static GstStructure *
make_message (GstVmafHipReport * report, VhFeatureCollector * fc,
    const GstVmafHipStamp * stamp, guint ctx_index)
{
  GstStructure *s = gst_structure_new ("vmaf",
      "timestamp", G_TYPE_UINT64, stamp->pts,
      "stream-time", G_TYPE_UINT64, stamp->stream_time,
      "running-time", G_TYPE_UINT64, stamp->running_time,
      "duration", G_TYPE_UINT64, stamp->duration,
      "index", G_TYPE_UINT64, stamp->index, NULL);
  guint n_features;

  for (guint j = 0; j < report->order->len; j++) {
    const gchar *name = g_ptr_array_index (report->order, j);
    gdouble v;

    if (vh_feature_collector_get (fc, name, ctx_index, &v))
      message_value (report, s, name, v);
  }
  n_features = vh_feature_collector_n_features (fc);
  for (guint j = 0; j < n_features; j++) {
    const gchar *name = vh_feature_collector_feature_name (fc, j);
    gdouble v;

    if (!g_hash_table_contains (report->in_order, name) &&
        vh_feature_collector_get (fc, name, ctx_index, &v))
      message_value (report, s, name, v);
  }
  return s;
}

GstStructure *
gst_vmaf_hip_report_frame_ready (GstVmafHipReport * report,
    VhContext * ctx, guint ctx_index, gboolean scored,
    gboolean want_message, guint64 * n_scored)
{
  GstVmafHipStamp *stamp = vh_context_get_frame_data (ctx, ctx_index);
  GstStructure *s = NULL;

  /* The frame's values stay readable in the collector until the next
   * frame is reported. */
  vh_run_report_frame_ready (report->run, ctx_index, scored);
  if (!stamp) {
    GST_ERROR ("frame %u came without its stamp", ctx_index);
  } else if (scored && want_message) {
    g_mutex_lock (&report->lock);
    s = make_message (report, vh_context_get_collector (ctx), stamp,
        ctx_index);
    g_mutex_unlock (&report->lock);
  }
  if (n_scored)
    *n_scored = vh_run_report_n_scored (report->run);
  return s;
}

guint64
gst_vmaf_hip_report_n_scored (GstVmafHipReport * report)
{
  return vh_run_report_n_scored (report->run);
}

static gdouble
pooled (const VhRunReportPool * pool, GstVmafHipPoolMethod method)
{
  /* The GEnum's values are the engine's (gstvmafhipenums.h). */
  return vh_pool_accumulator_get (&pool->acc, (VhPoolMethod) method);
}

/* The pool the score stands for, or NULL. */
static const VhRunReportPool *
score_pool (GstVmafHipReport * report, const VhRunReportTotals * totals)
{
  for (guint i = 0; report->score_name && i < totals->n_pools; i++) {
    if (!g_strcmp0 (vh_feature_name_alias (totals->pools[i].name),
            report->score_name))
      return &totals->pools[i];
  }
  return NULL;
}

GstTagList *
gst_vmaf_hip_report_make_tags (GstVmafHipReport * report,
    GstVmafHipPoolMethod method)
{
  VhRunReportTotals *totals = vh_run_report_get_totals (report->run);
  const VhRunReportPool *score;
  GstTagList *tags = NULL;

  if (totals->n_scored == 0)
    goto out;
  tags = gst_tag_list_new_empty ();
  gst_tag_list_add (tags, GST_TAG_MERGE_REPLACE, GST_TAG_VMAFHIP_FRAMES,
      (guint) MIN (totals->n_scored, G_MAXUINT), NULL);
  g_mutex_lock (&report->lock);
  score = score_pool (report, totals);
  g_mutex_unlock (&report->lock);
  if (score)
    gst_tag_list_add (tags, GST_TAG_MERGE_REPLACE, GST_TAG_VMAFHIP_SCORE,
        pooled (score, method), NULL);
  for (guint i = 0; i < totals->n_pools; i++) {
    const gchar *name = vh_feature_name_alias (totals->pools[i].name);
    const gchar *tag = gst_vmaf_hip_tag_for_output (name);

    if (tag)
      gst_tag_list_add (tags, GST_TAG_MERGE_REPLACE, tag,
          pooled (&totals->pools[i], method), NULL);
  }
out:
  vh_run_report_totals_free (totals);
  return tags;
}

GstStructure *
gst_vmaf_hip_report_make_summary (GstVmafHipReport * report,
    GstVmafHipPoolMethod method)
{
  VhRunReportTotals *totals = vh_run_report_get_totals (report->run);
  const VhRunReportPool *score;
  GstStructure *s;

  s = gst_structure_new ("vmaf-summary",
      "scored", G_TYPE_UINT64, totals->n_scored,
      "skipped", G_TYPE_UINT64, totals->n_skipped,
      "pool-method", G_TYPE_STRING,
      gst_vmaf_hip_enum_nick (GST_TYPE_VMAF_HIP_POOL_METHOD, method), NULL);
  g_mutex_lock (&report->lock);
  score = score_pool (report, totals);
  g_mutex_unlock (&report->lock);
  if (score)
    gst_structure_set (s, "score", G_TYPE_DOUBLE, pooled (score, method),
        NULL);
  for (guint i = 0; i < totals->n_pools; i++) {
    const VhRunReportPool *pool = &totals->pools[i];
    GstStructure *p = gst_structure_new ("pooled",
        "frames", G_TYPE_UINT64, pool->acc.n,
        "mean", G_TYPE_DOUBLE, pooled (pool, GST_VMAF_HIP_POOL_MEAN),
        "harmonic-mean", G_TYPE_DOUBLE,
        pooled (pool, GST_VMAF_HIP_POOL_HARMONIC_MEAN),
        "min", G_TYPE_DOUBLE, pooled (pool, GST_VMAF_HIP_POOL_MIN),
        "max", G_TYPE_DOUBLE, pooled (pool, GST_VMAF_HIP_POOL_MAX), NULL);

    gst_structure_set (s, vh_feature_name_alias (pool->name),
        GST_TYPE_STRUCTURE, p, NULL);
    gst_structure_free (p);
  }
  vh_run_report_totals_free (totals);
  return s;
}
