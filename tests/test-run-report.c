/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* The run report (src/run-report.h) on contexts of fake extractors: its
 * running pooled values against src/pool.c's final pooling, reads while
 * frames complete, the results file's rewrite pacing, the data carried
 * with each frame, and values let go when no results file is wanted. */

#include "context.h"
#include "errors.h"
#include "results-file.h"
#include "run-report.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

static gchar *tmpdir;

/* A parallel extractor whose values are spread out (fractions, a wide
 * range), so that pooling in another order would show. */
static const gchar *wave_provides[] = { "wave", NULL };

static gboolean
wave_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  guint8 v = *(guint8 *) ref->data[0];

  /* Workers finish out of order. */
  if (index % 3 == 0)
    g_usleep (500);
  return vh_feature_extractor_append (fex, fc, "wave", index,
      50.0 + 40.0 * sin (index * 0.7) + v / 7.0, error);
}

static const VhFeatureExtractorClass wave_class = {
  .name = "wave",
  .provides = wave_provides,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .extract = wave_extract,
};

/* A temporal extractor with one frame of look-ahead: frame i's value is
 * known once frame i+1 is seen (the last one at flush). */
typedef struct
{
  gboolean have_prev;
  guint prev_index;
  gdouble prev_value;
} LagPriv;

static const gchar *lag_provides[] = { "lag", NULL };

static gboolean
lag_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  LagPriv *p = fex->priv;
  gdouble v = *(guint8 *) ref->data[0] / 3.0;

  if (p->have_prev && !vh_feature_extractor_append (fex, fc, "lag",
          p->prev_index, p->prev_value + v, error))
    return FALSE;
  p->have_prev = TRUE;
  p->prev_index = index;
  p->prev_value = v;
  return TRUE;
}

static gboolean
lag_flush (VhFeatureExtractor * fex, VhFeatureCollector * fc, GError ** error)
{
  LagPriv *p = fex->priv;

  if (!p->have_prev)
    return TRUE;
  p->have_prev = FALSE;
  return vh_feature_extractor_append (fex, fc, "lag", p->prev_index,
      p->prev_value, error);
}

static const VhFeatureExtractorClass lag_class = {
  .name = "lag",
  .provides = lag_provides,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = VH_EXTRACTOR_FLAG_TEMPORAL,
  .lookahead = 1,
  .priv_size = sizeof (LagPriv),
  .extract = lag_extract,
  .flush = lag_flush,
};

static VhExtractorSet *
fake_set (void)
{
  static VhExtractorSet *set;

  if (g_once_init_enter (&set)) {
    VhExtractorSet *s = vh_extractor_set_new_builtin ();
    vh_extractor_set_add (s, &wave_class);
    vh_extractor_set_add (s, &lag_class);
    g_once_init_leave (&set, s);
  }
  return set;
}

static VhPicture *
make_picture (guint8 value)
{
  VhPictureInfo info;
  VhPicture *pic;

  vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, 16, 16, NULL);
  pic = vh_picture_new (&info);
  memset (pic->data[0], value, pic->stride[0] * pic->height[0]);
  memset (pic->data[1], 128, pic->stride[1] * pic->height[1]);
  memset (pic->data[2], 128, pic->stride[2] * pic->height[2]);
  return pic;
}

/* A started context running both fakes. */
static VhContext *
fake_context_new (guint n_threads, guint subsample)
{
  VhContextConfig cfg = { n_threads, subsample, VH_BACKEND_CPU, 0 };
  VhPicture *pic = make_picture (0);
  GError *err = NULL;
  VhContext *ctx;

  cfg.extractors = fake_set ();
  ctx = vh_context_new (&cfg);
  g_assert_true (vh_context_add_feature (ctx, "wave", NULL, &err));
  g_assert_true (vh_context_add_feature (ctx, "lag", NULL, &err));
  g_assert_no_error (err);
  g_assert_true (vh_context_start (ctx, &pic->info, &err));
  g_assert_no_error (err);
  vh_picture_unref (pic);
  return ctx;
}

static void
on_ready_report (VhContext * ctx, guint index, gboolean scored, gpointer data)
{
  vh_run_report_frame_ready (data, index, scored);
}

static void
submit_frames (VhContext * ctx, guint first, guint n)
{
  GError *err = NULL;

  for (guint i = first; i < first + n; i++) {
    VhPicture *ref = make_picture ((guint8) (i * 37 % 251));
    VhPicture *dist = make_picture ((guint8) (i * 11 % 251));

    g_assert_true (vh_context_submit (ctx, ref, dist, NULL, &err));
    g_assert_no_error (err);
    vh_picture_unref (ref);
    vh_picture_unref (dist);
  }
}

static gchar *
tmp_path (const gchar * name)
{
  return g_build_filename (tmpdir, name, NULL);
}

/* The running values are src/pool.c's final pooling of the same frames,
 * to the bit, for every method, with subsampling and several workers. */
static void
test_pooled_equals_pool (void)
{
  static const guint subsamples[] = { 1, 3 };

  for (guint s = 0; s < G_N_ELEMENTS (subsamples); s++) {
    guint sub = subsamples[s], n = 40;
    VhContext *ctx = fake_context_new (4, sub);
    g_autofree gchar *path = tmp_path ("pooled.json");
    /* A results file keeps the values, so that src/pool.c can pool them
     * afterwards. */
    VhRunReportConfig cfg = { path, VH_OUTPUT_JSON, 0, FALSE };
    GError *err = NULL;
    VhRunReport *report = vh_run_report_new (ctx, &cfg, &err);
    VhRunReportTotals *totals;
    const gchar *names[] = { "wave", "lag" };

    g_assert_no_error (err);
    g_assert_true (vh_run_report_keeps_values (report));
    vh_context_set_frame_ready_func (ctx, on_ready_report, report, NULL);
    submit_frames (ctx, 0, n);
    g_assert_true (vh_context_finish (ctx, &err));
    g_assert_no_error (err);

    totals = vh_run_report_get_totals (report);
    g_assert_cmpuint (totals->n_reported, ==, n);
    g_assert_cmpuint (totals->n_scored, ==, (n + sub - 1) / sub);
    g_assert_cmpuint (totals->n_skipped, ==, n - totals->n_scored);
    /* The context's declared order, whatever worker appended first. */
    g_assert_cmpuint (totals->n_pools, ==, 2);
    g_assert_cmpstr (totals->pools[0].name, ==, "wave");
    g_assert_cmpstr (totals->pools[1].name, ==, "lag");
    for (guint i = 0; i < G_N_ELEMENTS (names); i++) {
      g_assert_cmpuint (totals->pools[i].acc.n, ==, totals->n_scored);
      for (VhPoolMethod m = VH_POOL_MEAN; m <= VH_POOL_MAX; m++) {
        gdouble running, final;

        g_assert_true (vh_run_report_get_pooled (report, names[i], m,
                &running));
        g_assert_true (vh_pool_feature (vh_context_get_collector (ctx),
                names[i], m, 0, n - 1, sub, &final, &err));
        g_assert_no_error (err);
        g_assert_cmpmem (&running, sizeof (running), &final, sizeof (final));
      }
    }
    g_assert_false (vh_run_report_get_pooled (report, "absent", VH_POOL_MEAN,
            &(gdouble) { 0 }));
    vh_run_report_totals_free (totals);
    vh_context_free (ctx);
    vh_run_report_free (report);
    g_unlink (path);
  }
}

typedef struct
{
  VhRunReport *report;
  gint stop;
  guint n_reads;
  gboolean consistent;
} Reader;

/* Reads while frames complete: every snapshot pools the frames it
 * counts, and counts never go back. */
static gpointer
read_while_scoring (gpointer data)
{
  Reader *r = data;
  guint64 last = 0;

  while (!g_atomic_int_get (&r->stop)) {
    VhRunReportTotals *t = vh_run_report_get_totals (r->report);
    gdouble mean;

    if (t->n_scored < last || t->n_reported < t->n_scored)
      r->consistent = FALSE;
    for (guint i = 0; i < t->n_pools; i++) {
      if (t->pools[i].acc.n != t->n_scored)
        r->consistent = FALSE;
    }
    if (vh_run_report_get_pooled (r->report, "wave", VH_POOL_MEAN, &mean) &&
        (mean < 0.0 || mean > 140.0))
      r->consistent = FALSE;
    last = t->n_scored;
    vh_run_report_totals_free (t);
    r->n_reads++;
  }
  return NULL;
}

static void
test_read_while_scoring (void)
{
  VhContext *ctx = fake_context_new (4, 1);
  VhRunReport *report = vh_run_report_new (ctx, NULL, NULL);
  Reader r = { report, 0, 0, TRUE };
  GThread *readers[2];
  GError *err = NULL;
  gdouble mean;

  vh_context_set_frame_ready_func (ctx, on_ready_report, report, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (readers); i++)
    readers[i] = g_thread_new ("reader", read_while_scoring, &r);
  submit_frames (ctx, 0, 300);
  g_assert_true (vh_context_finish (ctx, &err));
  g_assert_no_error (err);
  g_atomic_int_set (&r.stop, 1);
  for (guint i = 0; i < G_N_ELEMENTS (readers); i++)
    g_thread_join (readers[i]);

  g_assert_true (r.consistent);
  g_assert_cmpuint (r.n_reads, >, 0);
  g_assert_cmpuint (vh_run_report_n_scored (report), ==, 300);
  g_assert_cmpuint (vh_run_report_n_reported (report), ==, 300);
  g_assert_true (vh_run_report_get_pooled (report, "wave", VH_POOL_MEAN,
          &mean));
  vh_context_free (ctx);
  vh_run_report_free (report);
}

static ino_t
file_inode (const gchar * path)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return st.st_ino;
}

static guint
json_frames_in (const gchar * path)
{
  g_autofree gchar *text = NULL;
  guint n = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  for (const gchar * p = text; (p = strstr (p, "\"frameNum\"")); p++)
    n++;
  return n;
}

/* Rewrites during a run wait for the interval and for ten times the last
 * rewrite's cost; forced ones never wait; 0 writes only when forced. */
static void
test_rewrite_pacing (void)
{
  g_autofree gchar *path = tmp_path ("paced.json");
  VhContext *ctx = fake_context_new (2, 1);
  VhRunReportConfig cfg = { path, VH_OUTPUT_JSON, (gint64) 3600 * G_USEC_PER_SEC,
    FALSE
  };
  GError *err = NULL;
  VhRunReport *report = vh_run_report_new (ctx, &cfg, &err);
  gint64 before, cost;
  ino_t ino;

  g_assert_no_error (err);
  /* Checked at once: an empty log is there before any frame. */
  g_assert_cmpuint (json_frames_in (path), ==, 0);
  vh_context_set_frame_ready_func (ctx, on_ready_report, report, NULL);
  vh_run_report_start_clock (report);
  submit_frames (ctx, 0, 20);
  g_assert_true (vh_context_finish (ctx, &err));

  /* Within the interval: not rewritten. */
  ino = file_inode (path);
  g_assert_true (vh_run_report_update_results (report, FALSE, &err));
  g_assert_no_error (err);
  g_assert_cmpuint (file_inode (path), ==, ino);
  g_assert_cmpuint (json_frames_in (path), ==, 0);

  /* Forced: rewritten whatever the interval, every frame reported. */
  g_assert_true (vh_run_report_update_results (report, TRUE, &err));
  g_assert_cmpuint (json_frames_in (path), ==, 20);
  g_assert_cmpuint (file_inode (path), !=, ino);
  vh_run_report_free (report);

  /* A short interval: the rewrite's own cost paces the next one. */
  cfg.results_interval_us = 1;
  report = vh_run_report_new (ctx, &cfg, &err);
  g_assert_no_error (err);
  vh_context_set_frame_ready_func (ctx, on_ready_report, report, NULL);
  /* The context numbers on from frame 20. */
  submit_frames (ctx, 20, 2000);
  g_assert_true (vh_context_finish (ctx, &err));
  before = g_get_monotonic_time ();
  g_assert_true (vh_run_report_update_results (report, FALSE, &err));
  cost = g_get_monotonic_time () - before;
  g_assert_cmpuint (json_frames_in (path), ==, 2020);
  ino = file_inode (path);
  /* That a rewrite at once after it is held back is not asserted: how
   * long this thread was held up between the calls is not ours to know
   * on a loaded machine (a sanitizer build, CI). */
  /* Once ten times the cost has passed: rewritten. */
  g_usleep (10 * cost + 20000);
  g_assert_true (vh_run_report_update_results (report, FALSE, &err));
  g_assert_no_error (err);
  g_assert_cmpuint (file_inode (path), !=, ino);
  vh_run_report_free (report);

  /* 0: written only when forced. */
  cfg.results_interval_us = 0;
  report = vh_run_report_new (ctx, &cfg, &err);
  g_assert_no_error (err);
  ino = file_inode (path);
  g_usleep (1000);
  g_assert_true (vh_run_report_update_results (report, FALSE, &err));
  g_assert_cmpuint (file_inode (path), ==, ino);
  vh_run_report_free (report);

  vh_context_free (ctx);
  g_unlink (path);
}

/* Made late: no file before the first update, which writes at once; a
 * failed write says why, names the path, and later updates fail alike
 * without trying again. */
static void
test_results_late_and_failure (void)
{
  g_autofree gchar *path = tmp_path ("late.json");
  g_autofree gchar *bad = tmp_path ("no-such-dir/late.json");
  VhContext *ctx = fake_context_new (2, 1);
  VhRunReportConfig cfg = { path, VH_OUTPUT_JSON, G_USEC_PER_SEC, TRUE };
  GError *err = NULL;
  VhRunReport *report = vh_run_report_new (ctx, &cfg, &err);

  g_assert_no_error (err);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  vh_context_set_frame_ready_func (ctx, on_ready_report, report, NULL);
  submit_frames (ctx, 0, 5);
  g_assert_true (vh_context_finish (ctx, &err));
  g_assert_true (vh_run_report_update_results (report, FALSE, &err));
  g_assert_no_error (err);
  g_assert_cmpuint (json_frames_in (path), ==, 5);
  vh_run_report_free (report);
  g_unlink (path);

  /* Made now: the path is checked by vh_run_report_new() itself. */
  cfg.results_path = bad;
  cfg.results_late = FALSE;
  g_assert_null (vh_run_report_new (ctx, &cfg, &err));
  g_assert_error (err, VH_ERROR, VH_ERROR_IO);
  g_assert_nonnull (strstr (err->message, bad));
  g_clear_error (&err);

  cfg.results_late = TRUE;
  report = vh_run_report_new (ctx, &cfg, &err);
  g_assert_no_error (err);
  g_assert_false (vh_run_report_update_results (report, TRUE, &err));
  g_assert_error (err, VH_ERROR, VH_ERROR_IO);
  g_assert_nonnull (strstr (err->message, bad));
  g_clear_error (&err);
  g_assert_false (vh_run_report_update_results (report, FALSE, &err));
  g_assert_error (err, VH_ERROR, VH_ERROR_IO);
  g_clear_error (&err);
  vh_run_report_free (report);
  vh_context_free (ctx);
}

/* A stream target is opened by vh_run_report_new() even when late: a FIFO
 * without a reader fails there at once, naming it. */
static void
test_results_late_stream (void)
{
  g_autofree gchar *fifo = tmp_path ("late.fifo");
  VhRunReportConfig cfg = { fifo, VH_OUTPUT_JSON, G_USEC_PER_SEC, TRUE };
  GError *err = NULL;

  g_unlink (fifo);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_true (vh_results_file_is_stream (fifo));
  g_assert_null (vh_run_report_new (NULL, &cfg, &err));
  g_assert_nonnull (err);
  g_assert_nonnull (strstr (err->message, fifo));
  g_clear_error (&err);
  g_unlink (fifo);
}

/* What a front end knew of each frame, as the element's stamps. */
typedef struct
{
  guint64 number;
  guint64 pts;
} Stamp;

typedef struct
{
  GMutex lock;
  guint n_seen;
  guint n_wrong;
  guint n_missing;
  gint n_freed;
} StampCheck;

static StampCheck *stamp_check;

static void
stamp_free (gpointer data)
{
  g_atomic_int_inc (&stamp_check->n_freed);
  g_free (data);
}

static void
on_ready_stamp (VhContext * ctx, guint index, gboolean scored, gpointer data)
{
  StampCheck *check = data;
  Stamp *stamp = vh_context_get_frame_data (ctx, index);

  g_mutex_lock (&check->lock);
  check->n_seen++;
  if (!stamp)
    check->n_missing++;
  else if (stamp->number != 1000 + index || stamp->pts != index * 40)
    check->n_wrong++;
  g_mutex_unlock (&check->lock);
}

static gboolean
submit_stamped (VhContext * ctx, VhPicture * ref, VhPicture * dist,
    guint64 number, GError ** error)
{
  Stamp *stamp = g_new (Stamp, 1);

  stamp->number = number;
  stamp->pts = (number - 1000) * 40;
  return vh_context_submit_full (ctx, ref, dist, stamp, stamp_free, NULL,
      error);
}

/* Each frame's data comes back in its own frame-ready callback, in
 * frame order on any worker, and is freed after it; a refused
 * submission frees it at once. */
static void
test_frame_data (void)
{
  StampCheck check = { 0 };
  VhContext *ctx = fake_context_new (4, 2);
  VhPicture *big;
  VhPictureInfo info;
  GError *err = NULL;
  guint n = 60;

  stamp_check = &check;
  g_mutex_init (&check.lock);
  vh_context_set_frame_ready_func (ctx, on_ready_stamp, &check, NULL);
  for (guint i = 0; i < n; i++) {
    VhPicture *ref = make_picture ((guint8) i);
    VhPicture *dist = make_picture ((guint8) (i + 1));

    g_assert_true (submit_stamped (ctx, ref, dist, 1000 + i, &err));
    g_assert_no_error (err);
    vh_picture_unref (ref);
    vh_picture_unref (dist);
  }
  g_assert_true (vh_context_finish (ctx, &err));
  g_assert_no_error (err);
  g_assert_cmpuint (check.n_seen, ==, n);
  g_assert_cmpuint (check.n_missing, ==, 0);
  g_assert_cmpuint (check.n_wrong, ==, 0);
  g_assert_cmpint (g_atomic_int_get (&check.n_freed), ==, (gint) n);
  /* Outside a callback, nothing is held. */
  g_assert_null (vh_context_get_frame_data (ctx, 0));

  /* Refused (another geometry): freed at once, nothing reported. */
  vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, 32, 32, NULL);
  big = vh_picture_new (&info);
  g_assert_false (submit_stamped (ctx, big, big, 2000, &err));
  g_assert_error (err, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_clear_error (&err);
  g_assert_cmpint (g_atomic_int_get (&check.n_freed), ==, (gint) n + 1);
  g_assert_cmpuint (check.n_seen, ==, n);
  vh_picture_unref (big);

  /* Without data: NULL in the callback. */
  check.n_seen = 0;
  submit_frames (ctx, 0, 3);
  g_assert_true (vh_context_finish (ctx, &err));
  g_assert_cmpuint (check.n_seen, ==, 3);
  g_assert_cmpuint (check.n_missing, ==, 3);
  vh_context_free (ctx);
  g_assert_cmpint (g_atomic_int_get (&check.n_freed), ==, (gint) n + 1);
  g_mutex_clear (&check.lock);
  stamp_check = NULL;
}

/* Without a results file the collector lets reported frames go (the
 * pooled values are all that is kept); with one, every frame stays. */
static void
test_values_kept_only_for_results (void)
{
  for (guint keep = 0; keep < 2; keep++) {
    g_autofree gchar *path = tmp_path ("kept.csv");
    VhRunReportConfig cfg = { keep ? path : NULL, VH_OUTPUT_CSV, 0, FALSE };
    VhContext *ctx = fake_context_new (2, 1);
    VhFeatureCollector *fc = vh_context_get_collector (ctx);
    GError *err = NULL;
    VhRunReport *report = vh_run_report_new (ctx, &cfg, &err);
    gdouble v, mean;

    g_assert_no_error (err);
    g_assert_cmpint (vh_run_report_keeps_values (report), ==, keep);
    vh_context_set_frame_ready_func (ctx, on_ready_report, report, NULL);
    /* More than one of the collector's release batches. */
    submit_frames (ctx, 0, 600);
    g_assert_true (vh_context_finish (ctx, &err));
    g_assert_no_error (err);
    g_assert_cmpint (vh_feature_collector_get (fc, "wave", 0, &v), ==, keep);
    g_assert_cmpint (vh_feature_collector_get (fc, "lag", 300, &v), ==,
        keep);
    /* The last frame stays readable either way. */
    g_assert_true (vh_feature_collector_get (fc, "wave", 599, &v));
    /* Pooled over all 600 either way. */
    g_assert_true (vh_run_report_get_pooled (report, "wave", VH_POOL_MEAN,
            &mean));
    g_assert_cmpuint (vh_run_report_n_scored (report), ==, 600);
    g_assert_true (vh_run_report_update_results (report, TRUE, &err));
    g_assert_no_error (err);
    g_assert_cmpint (g_file_test (path, G_FILE_TEST_EXISTS), ==, keep);
    /* The run ends with its context: the values go with it. */
    vh_run_report_detach (report, FALSE);
    g_assert_cmpint (vh_run_report_update_results (report, TRUE, &err), ==,
        !keep);
    if (keep)
      g_assert_error (err, VH_ERROR, VH_ERROR_FAILED);
    g_clear_error (&err);
    vh_context_free (ctx);
    vh_run_report_free (report);
    g_unlink (path);
  }
}

/* A run that goes on in a second context (a new geometry) keeps its
 * pools, counts and frame numbers, and its results file holds the frames
 * of both. */
static void
test_second_context (void)
{
  g_autofree gchar *path = tmp_path ("two.json");
  VhRunReportConfig cfg = { path, VH_OUTPUT_JSON, 0, TRUE };
  GError *err = NULL;
  VhRunReport *report = vh_run_report_new (NULL, &cfg, &err);
  VhContext *ctx;
  g_autofree gchar *text = NULL;
  gdouble first_mean, mean;

  g_assert_no_error (err);
  for (guint c = 0; c < 2; c++) {
    ctx = fake_context_new (2, 1);
    vh_run_report_attach (report, ctx, c * 10);
    vh_context_set_frame_ready_func (ctx, on_ready_report, report, NULL);
    submit_frames (ctx, 0, c == 0 ? 10 : 6);
    g_assert_true (vh_context_finish (ctx, &err));
    g_assert_no_error (err);
    if (c == 0) {
      g_assert_true (vh_run_report_get_pooled (report, "wave", VH_POOL_MEAN,
              &first_mean));
      vh_run_report_detach (report, TRUE);
      vh_context_free (ctx);
    }
  }
  g_assert_cmpuint (vh_run_report_n_reported (report), ==, 16);
  g_assert_cmpuint (vh_run_report_n_scored (report), ==, 16);
  g_assert_true (vh_run_report_get_pooled (report, "wave", VH_POOL_MEAN,
          &mean));
  g_assert_cmpfloat (mean, !=, first_mean);
  g_assert_true (vh_run_report_update_results (report, TRUE, &err));
  g_assert_no_error (err);
  g_assert_cmpuint (json_frames_in (path), ==, 16);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\"frameNum\": 15"));
  /* The run ends: the merged values are the report's, and stay. */
  vh_run_report_detach (report, FALSE);
  g_assert_true (vh_run_report_update_results (report, TRUE, &err));
  g_assert_no_error (err);
  g_assert_cmpuint (json_frames_in (path), ==, 16);
  g_assert_cmpuint (vh_run_report_n_scored (report), ==, 16);
  vh_context_free (ctx);
  vh_run_report_free (report);
  g_unlink (path);
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("vh-run-report-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);
  g_test_add_func ("/run-report/pooled-equals-pool", test_pooled_equals_pool);
  g_test_add_func ("/run-report/read-while-scoring",
      test_read_while_scoring);
  g_test_add_func ("/run-report/rewrite-pacing", test_rewrite_pacing);
  g_test_add_func ("/run-report/results-late-and-failure",
      test_results_late_and_failure);
  g_test_add_func ("/run-report/results-late-stream",
      test_results_late_stream);
  g_test_add_func ("/run-report/frame-data", test_frame_data);
  g_test_add_func ("/run-report/values-kept-only-for-results",
      test_values_kept_only_for_results);
  g_test_add_func ("/run-report/second-context", test_second_context);
  ret = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return ret;
}
