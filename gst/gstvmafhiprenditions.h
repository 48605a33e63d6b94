/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_RENDITIONS_H__
#define __GST_VMAF_HIP_RENDITIONS_H__

#include <gst/gst.h>

#include "gstvmafhipconfig.h"
#include "gstvmafhipscoring.h"

G_BEGIN_DECLS

/**
 * GstVmafHipRenditions:
 *
 * The distorted pads scored against the one reference (dist_sink, then
 * each dist_sink_%u), each with a scoring of its own (GstVmafHipScoring:
 * context, temporal state, report, results file, messages and tags named
 * by the pad and its label), numbered as the inputs number their matches.
 * What a run's scorings are built from is taken once at start, so that a
 * pad requested while the element runs is scored alike; its scoring is
 * made ready on its first pair.
 *
 * Adding a pad is thread-safe (any thread); the rest runs on the
 * streaming thread or in state changes.
 */
typedef struct _GstVmafHipRenditions GstVmafHipRenditions;

/* What every rendition of a run is built from (the element's properties
 * at start). */
typedef struct
{
  GstVmafHipSettings settings;
  gchar *features;              /* NULL: settings' */
  gchar *results_filename;      /* may hold %s, the label */
  GstVmafHipResultsFormat results_format;
  guint results_interval;
  GstVmafHipPassthrough passthrough;
  GstVmafHipScaleMethod scale;
  GstVmafHipWatchSettings watch;  /* windows, events, lag */
} GstVmafHipRunConfig;

void         gst_vmaf_hip_run_config_clear (GstVmafHipRunConfig * config);

/* @first: dist_sink's scoring, taken; its live settings are shared. */
GstVmafHipRenditions *gst_vmaf_hip_renditions_new (GstElement * element,
                                           GstVmafHipGpu * gpu,
                                           GstVmafHipScoring * first,
                                           GstPad * first_pad);

void         gst_vmaf_hip_renditions_free (GstVmafHipRenditions * r);

/* A new distorted pad's scoring, numbered @index (its match's). */
void         gst_vmaf_hip_renditions_add  (GstVmafHipRenditions * r,
                                           guint index, GstPad * pad);

guint        gst_vmaf_hip_renditions_n    (GstVmafHipRenditions * r);

/* Distorted pads not given back. */
guint        gst_vmaf_hip_renditions_n_scored (GstVmafHipRenditions * r);

GstVmafHipScoring *gst_vmaf_hip_renditions_get (GstVmafHipRenditions * r,
                                           guint index);

GstPad      *gst_vmaf_hip_renditions_pad  (GstVmafHipRenditions * r,
                                           guint index);

/* A request pad given back: not scored in later runs (its scoring stays
 * until the element goes, so that a run in progress may end it). */
void         gst_vmaf_hip_renditions_release (GstVmafHipRenditions * r,
                                           guint index);

/* A new run with @config (taken). With several distorted pads the results
 * file needs %s (the label) or each pad one of its own. Every
 * rendition's report is made (its results file checked): FALSE after an
 * element error. */
gboolean     gst_vmaf_hip_renditions_start (GstVmafHipRenditions * r,
                                           GstVmafHipRunConfig * config);

/* Builds the scorings made ready at start (after the GPU opened). */
gboolean     gst_vmaf_hip_renditions_build (GstVmafHipRenditions * r);

/* Rendition @index's scoring, made ready for this run first if it was
 * added while the element ran; NULL after an element error. */
GstVmafHipScoring *gst_vmaf_hip_renditions_ready (GstVmafHipRenditions * r,
                                           guint index);

/* Whether rendition @index was made ready in this run. */
gboolean     gst_vmaf_hip_renditions_is_ready (GstVmafHipRenditions * r,
                                           guint index);

/* The run ends: every scoring made ready goes back. */
void         gst_vmaf_hip_renditions_stop (GstVmafHipRenditions * r);

G_END_DECLS

#endif /* __GST_VMAF_HIP_RENDITIONS_H__ */
