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
 * The element's results file (results-filename) for one run: checked
 * before scoring, rewritten as frames are scored (a regular file) or
 * written once at the end (/dev/null, /dev/stdout, a pipe or a FIFO,
 * opened at the check and held open), and its errors, said once as
 * element errors naming the file.
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

/* The file configured, or NULL. */
const gchar *gst_vmaf_hip_results_filename (GstVmafHipResults * results);

/* Before any frame is scored: whether the file can be written, said as
 * an element error (RESOURCE, OPEN_WRITE) naming the file if not. A
 * regular file is opened without truncating and removed again if this
 * made it; a stream target is opened now, without waiting (a FIFO
 * without a reader fails at once) and kept open for the end. */
gboolean     gst_vmaf_hip_results_check   (GstVmafHipResults * results);

/* Writes every frame of @report (see gst_vmaf_hip_report_update_results())
 * when the interval passed, or at once with @force; a failure is said
 * once (later calls return FALSE without a word). */
gboolean     gst_vmaf_hip_results_update  (GstVmafHipResults * results,
                                           GstVmafHipReport * report,
                                           const VhOutputInfo * info,
                                           gdouble secs, gboolean force);

/* The run ends: the file (or stream) is closed. */
void         gst_vmaf_hip_results_close   (GstVmafHipResults * results);

G_END_DECLS

#endif /* __GST_VMAF_HIP_RESULTS_H__ */
