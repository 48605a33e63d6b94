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
#include "model.h"

GST_DEBUG_CATEGORY_EXTERN (gst_vmaf_hip_compare_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_compare_debug

struct _GstVmafHipReport
{
  VhRunReport *run;             /* thread-safe on its own */
  GMutex lock;                  /* the fields below */
  gchar *score_name;
  GQuark score_quark;           /* of score_name; 0 without one */
  GQuark score_field;           /* "score" */
  GPtrArray *order;             /* gchar*: names reported first */
  GHashTable *in_order;         /* the same names, as a set */
  GPtrArray *shown;             /* gchar*: message and summary order */
  guint n_models_shown;         /* the model outputs heading shown */
  gboolean shown_as_logged;     /* shown's features follow the log's
                                 * order (known from the first frame) */
  /* Each frame's message is built from these, not from names: the
   * field of each of shown (its alias, as a quark), and how many
   * features the collector had when shown took them all in. */
  GArray *shown_fields;         /* GQuark */
  guint n_features_logged;
};

GstVmafHipReport *
gst_vmaf_hip_report_new (const VhRunReportConfig * results, GError ** error)
{
  /* A regular file is made by its first update, after a frame is scored,
   * so that a run that scores nothing leaves none; a stream is opened
   * now. */
  VhRunReport *run = vh_run_report_new (NULL, results, error);
  GstVmafHipReport *report;

  if (!run)
    return NULL;
  report = g_new0 (GstVmafHipReport, 1);
  g_mutex_init (&report->lock);
  report->run = run;
  report->order = g_ptr_array_new_with_free_func (g_free);
  report->in_order = g_hash_table_new (g_str_hash, g_str_equal);
  report->shown = g_ptr_array_new_with_free_func (g_free);
  report->shown_fields = g_array_new (FALSE, FALSE, sizeof (GQuark));
  report->score_field = g_quark_from_static_string ("score");
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
  g_ptr_array_unref (report->shown);
  g_array_unref (report->shown_fields);
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
  report->score_quark = name ? g_quark_from_string (name) : 0;
  g_mutex_unlock (&report->lock);
}

/* shown_fields anew from shown. */
static void
index_shown (GstVmafHipReport * report)
{
  g_array_set_size (report->shown_fields, 0);
  for (guint i = 0; i < report->shown->len; i++) {
    GQuark field = g_quark_from_string (vh_feature_name_alias
        (g_ptr_array_index (report->shown, i)));

    g_array_append_val (report->shown_fields, field);
  }
}

/* Appends @name to shown unless @seen has it. */
static void
show (GstVmafHipReport * report, GHashTable * seen, const gchar * name)
{
  gchar *copy;

  if (g_hash_table_contains (seen, name))
    return;
  copy = g_strdup (name);
  g_ptr_array_add (report->shown, copy);
  g_hash_table_add (seen, copy);
}

/* @ctx's model outputs among @names come first in the messages and the
 * summary, in model order: the scores a reader looks for before the
 * features that make them. The features follow in @names' order until
 * the first frame tells the log's (follow_log_order()). */
static void
order_models_first (GstVmafHipReport * report, VhContext * ctx)
{
  GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);

  g_ptr_array_set_size (report->shown, 0);
  for (guint m = 0; ctx && m < vh_context_n_models (ctx); m++) {
    const gchar *const *out =
        vh_model_output_names (vh_context_get_model (ctx, m));

    for (guint j = 0; out && out[j]; j++) {
      if (g_hash_table_contains (report->in_order, out[j]))
        show (report, seen, out[j]);
    }
  }
  report->n_models_shown = report->shown->len;
  for (guint i = 0; i < report->order->len; i++)
    show (report, seen, g_ptr_array_index (report->order, i));
  report->shown_as_logged = FALSE;
  report->n_features_logged = G_MAXUINT;
  index_shown (report);
  g_hash_table_unref (seen);
}

/* After the models, the features in the results file's order: the
 * collector's (libvmaf's log order), settled once a frame holds every
 * value. With the lock held. */
static void
follow_log_order (GstVmafHipReport * report, VhFeatureCollector * fc)
{
  GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *before = report->shown;
  guint n_features = vh_feature_collector_n_features (fc);

  report->shown = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < report->n_models_shown; i++)
    show (report, seen, g_ptr_array_index (before, i));
  for (guint j = 0; j < n_features; j++)
    show (report, seen, vh_feature_collector_feature_name (fc, j));
  for (guint i = report->n_models_shown; i < before->len; i++)
    show (report, seen, g_ptr_array_index (before, i));
  g_ptr_array_unref (before);
  g_hash_table_unref (seen);
  report->shown_as_logged = TRUE;
  report->n_features_logged = n_features;
  index_shown (report);
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

/* One value of the frame, in the message under @field (the alias of
 * its name). */
static void
message_value (GstVmafHipReport * report, GstStructure * s, GQuark field,
    gdouble v)
{
  if (report->score_quark && field == report->score_quark)
    gst_structure_id_set (s, report->score_field, G_TYPE_DOUBLE, v, NULL);
  gst_structure_id_set (s, field, G_TYPE_DOUBLE, v, NULL);
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

  if (stamp->repeated)
    gst_structure_set (s, "repeated", G_TYPE_BOOLEAN, TRUE, NULL);
  if (stamp->aligned)
    gst_structure_set (s, "align-offset-frames", G_TYPE_INT64,
        stamp->align_offset_frames, "align-offset", G_TYPE_INT64,
        (gint64) stamp->align_offset, NULL);

  for (guint j = 0; j < report->shown->len; j++) {
    const gchar *name = g_ptr_array_index (report->shown, j);
    gdouble v;

    if (vh_feature_collector_get (fc, name, ctx_index, &v))
      message_value (report, s, g_array_index (report->shown_fields, GQuark,
              j), v);
  }
  /* The collector's features are all in shown unless one came since. */
  n_features = vh_feature_collector_n_features (fc);
  for (guint j = 0; n_features != report->n_features_logged &&
      j < n_features; j++) {
    const gchar *name = vh_feature_collector_feature_name (fc, j);
    const gchar *alias = vh_feature_name_alias (name);
    gdouble v;

    /* one that came after the first frame */
    if (!gst_structure_has_field (s, alias) &&
        vh_feature_collector_get (fc, name, ctx_index, &v))
      message_value (report, s, g_quark_from_string (alias), v);
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
  } else if (scored) {
    g_mutex_lock (&report->lock);
    if (!report->shown_as_logged)
      follow_log_order (report, vh_context_get_collector (ctx));
    if (want_message)
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

/* @totals' pools in the messages' order: the model outputs first, then
 * the features; with the lock held. */
static const VhRunReportPool **
pools_shown_first (GstVmafHipReport * report,
    const VhRunReportTotals * totals)
{
  const VhRunReportPool **pools = g_new (const VhRunReportPool *,
      MAX (totals->n_pools, 1));
  GHashTable *by_name = g_hash_table_new (g_str_hash, g_str_equal);
  guint n = 0;

  for (guint i = 0; i < totals->n_pools; i++)
    g_hash_table_insert (by_name, (gpointer) totals->pools[i].name,
        (gpointer) & totals->pools[i]);
  for (guint j = 0; j < report->shown->len; j++) {
    const VhRunReportPool *pool = g_hash_table_lookup (by_name,
        g_ptr_array_index (report->shown, j));

    if (pool && g_hash_table_remove (by_name, pool->name))
      pools[n++] = pool;
  }
  for (guint i = 0; i < totals->n_pools; i++) {
    if (g_hash_table_contains (by_name, totals->pools[i].name))
      pools[n++] = &totals->pools[i];
  }
  g_hash_table_unref (by_name);
  return pools;
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
  const VhRunReportPool **pools;

  s = gst_structure_new ("vmaf-summary",
      "scored", G_TYPE_UINT64, totals->n_scored,
      "skipped", G_TYPE_UINT64, totals->n_skipped,
      "pool-method", G_TYPE_STRING,
      gst_vmaf_hip_enum_nick (GST_TYPE_VMAF_HIP_POOL_METHOD, method), NULL);
  g_mutex_lock (&report->lock);
  score = score_pool (report, totals);
  pools = pools_shown_first (report, totals);
  g_mutex_unlock (&report->lock);
  if (score)
    gst_structure_set (s, "score", G_TYPE_DOUBLE, pooled (score, method),
        NULL);
  for (guint i = 0; i < totals->n_pools; i++) {
    const VhRunReportPool *pool = pools[i];
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
  g_free (pools);
  vh_run_report_totals_free (totals);
  return s;
}
