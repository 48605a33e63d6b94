/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_REPORT_H__
#define __GST_VMAF_HIP_REPORT_H__

#include <gst/gst.h>

#include "context.h"
#include "run-report.h"
#include "gstvmafhipenums.h"

G_BEGIN_DECLS

/* What the element knew about a frame when it submitted it: carried with
 * the frame through the engine (vh_context_submit_full()), handed back in
 * its frame-ready callback. */
typedef struct
{
  guint64 index;                /* the element's frame number */
  GstClockTime pts;
  GstClockTime duration;
  GstClockTime stream_time;
  GstClockTime running_time;
  /* align=content: the offset the pair was matched at (reference minus
   * distorted), in frames and in running time. */
  gboolean aligned;
  gint64 align_offset_frames;
  GstClockTimeDiff align_offset;
  /* unpaired=repeat: scored against the last distorted frame shown. */
  gboolean repeated;
} GstVmafHipStamp;

/**
 * GstVmafHipReport:
 *
 * What the element makes of the engine's run report (VhRunReport, which
 * pools, counts and keeps the results file): the per-frame "vmaf"
 * message, the pooled tags and the "vmaf-summary" structure, under the
 * element's names. Fed in frame order from the engine's frame-ready
 * callback (a worker thread), read by the streaming thread. Thread-safe.
 */
typedef struct _GstVmafHipReport GstVmafHipReport;

/* @results: the results file, or NULL for none. Fails only where the
 * run report opens the file at once (a stream target, see
 * vh_run_report_new()). */
GstVmafHipReport *gst_vmaf_hip_report_new  (const VhRunReportConfig * results,
                                            GError ** error);

void         gst_vmaf_hip_report_free      (GstVmafHipReport * report);

/* The engine's report: contexts attached and detached, dispatch, the
 * clock and the results file's updates. */
VhRunReport *gst_vmaf_hip_report_run       (GstVmafHipReport * report);

/* The output that "score" fields and the score tag stand for (the first
 * model's name), or NULL for none. */
void         gst_vmaf_hip_report_set_score_name (GstVmafHipReport * report,
                                            const gchar * name);

/* The order of a frame's message fields and of the summary: @ctx's model
 * outputs among @names (copied) first, in model order, then the rest of
 * @names, then any other value the engine holds, in its order. Keeps
 * field order the same from run to run whatever the worker threads'
 * timing. (The results file is the run report's, in libvmaf's order.) */
void         gst_vmaf_hip_report_set_order (GstVmafHipReport * report,
                                            GPtrArray * names,
                                            VhContext * ctx);

/* Frame @ctx_index of @ctx is final: the run report pools it, and when
 * @scored and @want_message, its "vmaf" message structure is returned.
 * *@n_scored gets the number of frames scored so far. */
GstStructure *gst_vmaf_hip_report_frame_ready (GstVmafHipReport * report,
                                            VhContext * ctx,
                                            guint ctx_index, gboolean scored,
                                            gboolean want_message,
                                            guint64 * n_scored);

guint64      gst_vmaf_hip_report_n_scored  (GstVmafHipReport * report);

/* Pooled tags over every frame scored so far; NULL before the first. */
GstTagList  *gst_vmaf_hip_report_make_tags (GstVmafHipReport * report,
                                            GstVmafHipPoolMethod method);

/* The "vmaf-summary" structure, without the fields only the element knows
 * (unpaired counts, results file). */
GstStructure *gst_vmaf_hip_report_make_summary (GstVmafHipReport * report,
                                            GstVmafHipPoolMethod method);

G_END_DECLS

#endif /* __GST_VMAF_HIP_REPORT_H__ */
