/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_RESULTS_H__
#define __GST_VMAF_HIP_RESULTS_H__

#include <gst/gst.h>

#include "gstvmafhipenums.h"
#include "gstvmafhipreport.h"

G_BEGIN_DECLS

/**
 * GstVmafHipResults:
 *
 * The element's results file (results-filename) for one run, kept by the
 * engine's run report: checked before scoring, rewritten as frames are
 * scored (a regular file) or written once at the end (/dev/null,
 * /dev/stdout, a pipe or a FIFO, opened at the check and held open until
 * the report goes), and its errors, said once as element errors naming
 * the file.
 *
 * The check runs on the state change; updates on the worker that reports
 * frames or on the streaming thread, never both at once.
 */
typedef struct _GstVmafHipResults GstVmafHipResults;

/* @element: errors, not owned. */
GstVmafHipResults *gst_vmaf_hip_results_new (GstElement * element);

void         gst_vmaf_hip_results_free    (GstVmafHipResults * results);

/* A run's file (NULL: none) and its format and least rewrite interval. */
void         gst_vmaf_hip_results_configure (GstVmafHipResults * results,
                                           const gchar * filename,
                                           GstVmafHipResultsFormat format,
                                           guint interval_ms);

/* Percentiles (the percentiles property's list) the file adds to each
 * pooled metric; NULL or "": none, libvmaf's layout. */
void         gst_vmaf_hip_results_set_percentiles (GstVmafHipResults * results,
                                           const gchar * list);

/* The file configured, or NULL. */
const gchar *gst_vmaf_hip_results_filename (GstVmafHipResults * results);

/* Before any frame is scored: the run's report (gstvmafhipreport.h),
 * its run report keeping this results file, or NULL after an element
 * error (RESOURCE, OPEN_WRITE) naming the file if it cannot be written.
 * A regular file is opened without truncating and removed again if this
 * made it (the run report makes it with the first frame); a stream
 * target is opened by the run report now, without waiting (a FIFO
 * without a reader fails at once), kept open and written once at the
 * end. */
GstVmafHipReport *gst_vmaf_hip_results_make_report
                                          (GstVmafHipResults * results);

/* Writes every frame of @report's run (vh_run_report_update_results())
 * when the interval passed, or at once with @force; a failure is said
 * once (later calls return FALSE without a word). Without a file: TRUE. */
gboolean     gst_vmaf_hip_results_update  (GstVmafHipResults * results,
                                           GstVmafHipReport * report,
                                           gboolean force);

G_END_DECLS

#endif /* __GST_VMAF_HIP_RESULTS_H__ */
