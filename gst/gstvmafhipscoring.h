/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_SCORING_H__
#define __GST_VMAF_HIP_SCORING_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "gstvmafhipconfig.h"
#include "gstvmafhipenums.h"
#include "gstvmafhipgpu.h"
#include "gstvmafhippairing.h"
#include "gstvmafhipwatch.h"

G_BEGIN_DECLS

/**
 * GstVmafHipScoring:
 *
 * One run's scoring: the settings copied at start, the engine's context
 * (built at start, started with the first pair's geometry, finished at a
 * flush, a caps change or the end), the element's frame numbers (a
 * stamp submitted with each frame), the report (GstVmafHipReport over the
 * engine's VhRunReport: pooled values, the results file and its
 * rewrites), the dispatch line,
 * and what the engine's workers post: a "vmaf" message per frame, tags
 * every tag-interval frames, the "vmaf-summary" at the end. Frames reach
 * the GPU through the element's GstVmafHipGpu.
 *
 * Streaming thread, except the frame-ready callback (a worker) and the
 * report, dispatch and stats (under the element's object lock).
 */
typedef struct _GstVmafHipScoring GstVmafHipScoring;

/* Properties the workers read while the element runs, each accessed
 * atomically (the element's properties write them). */
typedef struct
{
  gint pool_method;             /* GstVmafHipPoolMethod */
  gint frame_message;           /* gboolean */
  gint tag_interval;            /* guint */
  gint message_layout;          /* GstVmafHipMessageLayout */
} GstVmafHipLiveSettings;

/* @element: posts and errors, not owned; @gpu: not owned. */
GstVmafHipScoring *gst_vmaf_hip_scoring_new (GstElement * element,
                                           GstVmafHipGpu * gpu);

/* Another rendition's scoring, against the same reference: the live
 * settings are @first's (which outlives it). */
GstVmafHipScoring *gst_vmaf_hip_scoring_new_sharing (GstElement * element,
                                           GstVmafHipGpu * gpu,
                                           GstVmafHipScoring * first);

void         gst_vmaf_hip_scoring_free    (GstVmafHipScoring * scoring);

/* The distorted pad scored: its name and label go into the vmaf and
 * vmaf-summary messages (fields pad and label, vmafhip layout); the tags
 * are posted from @tag_source (NULL: the element). */
void         gst_vmaf_hip_scoring_set_rendition (GstVmafHipScoring * scoring,
                                           const gchar * pad_name,
                                           const gchar * label,
                                           GstObject * tag_source);

GstVmafHipLiveSettings *gst_vmaf_hip_scoring_live (GstVmafHipScoring * scoring);

/* Copies what a run uses; with the element's object lock held. @features:
 * NULL for @settings'. */
void         gst_vmaf_hip_scoring_configure (GstVmafHipScoring * scoring,
                                           const GstVmafHipSettings * settings,
                                           const gchar * features,
                                           const gchar * results_filename,
                                           GstVmafHipResultsFormat format,
                                           guint results_interval_ms,
                                           GstVmafHipPassthrough passthrough);

/* The scale property, for the next run; at start, after configure. */
void         gst_vmaf_hip_scoring_set_scale (GstVmafHipScoring * scoring,
                                           GstVmafHipScaleMethod method);

/* The results file configured, or NULL. */
const gchar *gst_vmaf_hip_scoring_results_filename (GstVmafHipScoring * scoring);
/* The monitoring settings (windows, events, lag), copied; with the
 * element's object lock held, before start. */
void         gst_vmaf_hip_scoring_configure_watch (GstVmafHipScoring * scoring,
                                           const GstVmafHipWatchSettings * settings);

/* The pads this scoring's messages name (windows, events): by default
 * "ref_sink" and "dist_sink"; an element with several distorted pads
 * gives each scoring its own. Before start. */
void         gst_vmaf_hip_scoring_set_pads (GstVmafHipScoring * scoring,
                                           const gchar * ref_pad,
                                           const gchar * dist_pad);

/* The run's settings (backend, device, ...). */
const GstVmafHipSettings *gst_vmaf_hip_scoring_settings (GstVmafHipScoring * scoring);

GstVmafHipPassthrough gst_vmaf_hip_scoring_passthrough (GstVmafHipScoring * scoring);

/* A new run: a new report; fails (said) if the results file cannot be
 * written. */
gboolean     gst_vmaf_hip_scoring_prepare (GstVmafHipScoring * scoring);

/* Builds the context (after the GPU opened): bad settings fail here,
 * said. */
gboolean     gst_vmaf_hip_scoring_build (GstVmafHipScoring * scoring);

VhContext   *gst_vmaf_hip_scoring_context (GstVmafHipScoring * scoring);

/* Reports the frames in flight, writes what was scored if the run ends
 * without EOS, and drops the context (before the GPU closes). */
void         gst_vmaf_hip_scoring_stop    (GstVmafHipScoring * scoring,
                                           gboolean eos_done);

/* After the GPU closed: the report, dispatch and tags go. */
void         gst_vmaf_hip_scoring_clear   (GstVmafHipScoring * scoring);

/* A flush: the frames scored are reported, temporal features restart. */
gboolean     gst_vmaf_hip_scoring_flush   (GstVmafHipScoring * scoring);

/* Submits a pair to the engine (new context on a new geometry, temporal
 * restart on new caps). */
GstFlowReturn gst_vmaf_hip_scoring_score_pair (GstVmafHipScoring * scoring,
                                           const GstVmafHipFrame * ref,
                                           const GstVmafHipFrame * dist);

/* Waits for the frames in flight and flushes temporal features (one side
 * ended; end of stream). */
gboolean     gst_vmaf_hip_scoring_finish  (GstVmafHipScoring * scoring);

/* At end of stream, after the last pair (and gst_vmaf_hip_scoring_finish()
 * if the element's warnings are to come first): writes the results file
 * and returns the summary (without the element's counts), or NULL on
 * error. *@wrote: the results file was written. */
GstStructure *gst_vmaf_hip_scoring_end    (GstVmafHipScoring * scoring,
                                           gboolean * wrote);

/* How frames were paired when by content, for the results file
 * (vh_run_report_set_alignment()); before gst_vmaf_hip_scoring_end(). */
void         gst_vmaf_hip_scoring_set_alignment (GstVmafHipScoring * scoring,
                                           const gchar * text,
                                           const gchar * json);

/* Posts @summary (taken) in the message layout asked for, with the
 * results file's name when @wrote, and returns the pooled tags (posted
 * too), or NULL. */
GstTagList  *gst_vmaf_hip_scoring_post_summary (GstVmafHipScoring * scoring,
                                           GstStructure * summary,
                                           gboolean wrote);

/* Tags for the next output buffer, or NULL. */
GstTagList  *gst_vmaf_hip_scoring_take_tags (GstVmafHipScoring * scoring);

/* How many frames of a pad the context may hold: in flight, and kept for
 * a GPU fall-back. */
guint        gst_vmaf_hip_scoring_frames_held (GstVmafHipScoring * scoring);

/* The summary so far, named "vmaf-stats", without the element's counts;
 * NULL unless running. With the element's object lock held. */
GstStructure *gst_vmaf_hip_scoring_stats  (GstVmafHipScoring * scoring);

/* Adds "pad" and "label" to @s (nothing for a scoring without them). */
void         gst_vmaf_hip_scoring_add_rendition (GstVmafHipScoring * scoring,
                                           GstStructure * s);

/* Adds "dispatch" to @s. With the element's object lock held. */
void         gst_vmaf_hip_scoring_add_dispatch (GstVmafHipScoring * scoring,
                                           GstStructure * s);

G_END_DECLS

#endif /* __GST_VMAF_HIP_SCORING_H__ */
