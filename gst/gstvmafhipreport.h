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

#include "feature-collector.h"
#include "output.h"
#include "results-file.h"
#include "context.h"
#include "gstvmafhipenums.h"

G_BEGIN_DECLS

/* What the element knew about a frame when it submitted it. */
typedef struct
{
  guint64 index;                /* the element's frame number */
  guint ctx_index;              /* the engine's number for it */
  GstClockTime pts;
  GstClockTime duration;
  GstClockTime stream_time;
  GstClockTime running_time;
} GstVmafHipStamp;

/**
 * GstVmafHipReport:
 *
 * Everything a run reports, fed in frame order from the engine's
 * frame-ready callback (a worker thread) and read by the streaming thread:
 * the stamps of frames in flight, the running pooled values, the frame
 * counts and, when a results file is wanted, a copy of every value under
 * the element's frame numbers. Thread-safe.
 */
typedef struct _GstVmafHipReport GstVmafHipReport;

GstVmafHipReport *gst_vmaf_hip_report_new  (gboolean keep_results);

void         gst_vmaf_hip_report_free      (GstVmafHipReport * report);

/* The output that "score" fields and the score tag stand for (the first
 * model's name), or NULL for none. */
void         gst_vmaf_hip_report_set_score_name (GstVmafHipReport * report,
                                            const gchar * name);

/* The order in which a frame's values are first written to the results
 * file: @names (copied), then any other value the engine holds, in its
 * order. The messages, the summary and stats list @ctx's model outputs
 * first, then the rest in that order. Keeps field and column order the
 * same from run to run whatever the worker threads' timing. */
void         gst_vmaf_hip_report_set_order (GstVmafHipReport * report,
                                            GPtrArray * names,
                                            VhContext * ctx);

/* Before submitting a frame; undone with drop_last_stamp if the submission
 * fails. */
void         gst_vmaf_hip_report_push_stamp (GstVmafHipReport * report,
                                            const GstVmafHipStamp * stamp);

void         gst_vmaf_hip_report_drop_last_stamp (GstVmafHipReport * report);

/* Frame @ctx_index of @fc is final. Pools its values and, when @scored and
 * @want_message, returns its "vmaf" message structure. *@n_scored gets the
 * number of frames scored so far. */
GstStructure *gst_vmaf_hip_report_frame_ready (GstVmafHipReport * report,
                                            VhFeatureCollector * fc,
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

/* Rewrites @file (see vh_results_file_update()) with every value kept,
 * frames 0..@info->n_frames-1, in libvmaf's layout; @info->n_frames 0:
 * the frames reported so far. @secs since scoring began gives the fps.
 * Needs keep_results. */
gboolean     gst_vmaf_hip_report_update_results (GstVmafHipReport * report,
                                            VhResultsFile * file,
                                            const VhOutputInfo * info,
                                            gdouble secs, gboolean force,
                                            GError ** error);

G_END_DECLS

#endif /* __GST_VMAF_HIP_REPORT_H__ */
