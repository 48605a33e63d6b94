/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_RUN_REPORT_H__
#define __VH_RUN_REPORT_H__

#include <glib.h>

#include "context.h"
#include "output.h"
#include "pool.h"

G_BEGIN_DECLS

/**
 * VhRunReport:
 *
 * What one run of a context reports, for any front end: the running
 * pooled values of every output (libvmaf's pooling, src/pool.c, updated
 * frame by frame so that nothing walks the stored frames again), the
 * frame counts, and the results file with its rewrites. The values of
 * each frame stay in the context's own collector only when a results
 * file is wanted; otherwise a frame's values are let go once the next
 * frame is reported, so that a live run does not grow.
 *
 * Fed from the context's frame-ready callback (vh_run_report_frame_ready(),
 * a worker thread, frame order); everything else may be called from any
 * thread at any moment. The report borrows the context, which must
 * outlive it or be detached first. A run may go on in another context (a
 * new picture geometry: vh_run_report_detach(), vh_run_report_attach());
 * pools and counts go on, and frames keep the run's numbers.
 */
typedef struct _VhRunReport VhRunReport;

typedef struct
{
  const gchar *results_path;    /* NULL: no results file, no values kept */
  VhOutputFormat results_format;
  gint64 results_interval_us;   /* least time between two rewrites while
                                 * frames are scored (rewrites also wait
                                 * ten times as long as the last one
                                 * took); 0 or less: written only when
                                 * forced. The CLI's is
                                 * VH_RESULTS_FILE_DEFAULT_INTERVAL_US */
  gboolean results_late;        /* the file is made by the first update,
                                 * which then writes at once, rather than
                                 * by vh_run_report_new() (which checks the
                                 * path by writing an empty log there);
                                 * a stream target (vh_results_file_is_stream())
                                 * is opened by vh_run_report_new() all
                                 * the same, and written once, forced */
} VhRunReportConfig;

/* One output's running pool. */
typedef struct
{
  const gchar *name;            /* the collector's name; the report's */
  VhPoolAccumulator acc;        /* acc.n: the frames pooled */
} VhRunReportPool;

/* The report at one moment: every count and pool after the same frames. */
typedef struct
{
  guint64 n_scored;
  guint64 n_skipped;            /* skipped by subsampling */
  guint n_reported;             /* the run's frames 0 .. n_reported-1
                                 * are final */
  guint n_pools;
  VhRunReportPool *pools;       /* the context's output order, then any
                                 * other value in the order first seen */
} VhRunReportTotals;

/* After @ctx's features and models are added (their outputs give the
 * pools' order); @ctx NULL: attached later. Fails, naming the path, if
 * the results file cannot be written (unless it is made late). */
VhRunReport *vh_run_report_new           (VhContext * ctx,
                                          const VhRunReportConfig * config,
                                          GError ** error);

void         vh_run_report_free          (VhRunReport * report);

/* The run goes on in @ctx (idle, its features and models added): its
 * frame i is the run's frame @first + i, and @first is at least the
 * frames reported so far. */
void         vh_run_report_attach        (VhRunReport * report,
                                          VhContext * ctx, guint first);

/* Before the context goes (idle). @run_goes_on (in another context):
 * with a results file, the context's values move into the report (the
 * one copy of a run that changes context), and every later frame is
 * copied there too. Otherwise the values go with the context, and so
 * does what a later update of the results file would write. */
void         vh_run_report_detach        (VhRunReport * report,
                                          gboolean run_goes_on);

/* Whether each frame's values stay in the context's collector (a results
 * file is wanted). */
gboolean     vh_run_report_keeps_values  (VhRunReport * report);

/* Where extractors ran (vh_context_describe_dispatch()), for the results
 * file; copied. */
void         vh_run_report_set_dispatch  (VhRunReport * report,
                                          const gchar * dispatch);

/* How the distorted pictures were resampled to the reference's size
 * ("bicubic from 1280x720"), for the results file; NULL when they were
 * not. Copied. */
void         vh_run_report_set_scaler    (VhRunReport * report,
                                          const gchar * scaler);

/* How frames were paired when not frame by frame, for the results file
 * (VhOutputInfo's @alignment and @alignment_json); copied. */
void         vh_run_report_set_alignment (VhRunReport * report,
                                          const gchar * text,
                                          const gchar * json);
/* Percentiles (0..100) the results file adds to each pooled metric,
 * under @names ("p1", ...), both copied (VhOutputInfo); none by default,
 * libvmaf's layout. Before the first update of the file. */
void         vh_run_report_set_percentiles (VhRunReport * report,
                                          const gdouble * percentiles,
                                          const gchar * const *names,
                                          guint n);

/* The frame size, for XML results. */
void         vh_run_report_set_picture_info (VhRunReport * report,
                                          const VhPictureInfo * info);

/* The results file's frames per second count from the first call. */
void         vh_run_report_start_clock   (VhRunReport * report);

/* From the context's frame-ready callback: pools frame @index's values
 * (when @scored) and counts it. */
void         vh_run_report_frame_ready   (VhRunReport * report, guint index,
                                          gboolean scored);

/* The running pooled value of @name; FALSE while it has none. */
gboolean     vh_run_report_get_pooled    (VhRunReport * report,
                                          const gchar * name,
                                          VhPoolMethod method,
                                          gdouble * value);

VhRunReportTotals *vh_run_report_get_totals (VhRunReport * report);

void         vh_run_report_totals_free   (VhRunReportTotals * totals);

guint64      vh_run_report_n_scored      (VhRunReport * report);

guint        vh_run_report_n_reported    (VhRunReport * report);

/* Rewrites the results file with the frames reported so far, pooled over
 * them, when the interval has passed, or at once with @force (the end,
 * or a stop; the context idle). Without a results file: TRUE. After a
 * failed write, every later update fails with the same error, without
 * trying again. Any thread, one update at a time. */
gboolean     vh_run_report_update_results (VhRunReport * report,
                                          gboolean force, GError ** error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VhRunReport, vh_run_report_free)

G_END_DECLS

#endif /* __VH_RUN_REPORT_H__ */
