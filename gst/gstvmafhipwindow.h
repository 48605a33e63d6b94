/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_WINDOW_H__
#define __GST_VMAF_HIP_WINDOW_H__

#include <gst/gst.h>

#include "gstvmafhipwatch.h"

G_BEGIN_DECLS

/**
 * GstVmafHipWindows:
 *
 * The statistics of a run's scored frames, made from their "vmaf"
 * messages: per window of window-frames frames or window-duration of
 * stream time, a "vmaf-window" message (min, max, mean, harmonic mean,
 * percentiles, counts under the thresholds, worst frame's time), and the
 * same percentiles and counts over the whole run for the summary. Every
 * double field of a frame's message is a metric, but "score" (the first
 * model's, under its own name as well).
 *
 * The whole run's values are kept for its percentiles: 8 bytes per frame
 * and metric (none when the percentile list is empty), but not in a live
 * pipeline, which may run for ever: there the summary has the threshold
 * counts and no percentiles (the windows have theirs). Fed in frame
 * order; thread-safe.
 */
typedef struct _GstVmafHipWindows GstVmafHipWindows;

/* Fails on a bad percentile or threshold list, naming the property. */
GstVmafHipWindows *gst_vmaf_hip_windows_new (const GstVmafHipWatchSettings * s,
                                            GError ** error);

void         gst_vmaf_hip_windows_free    (GstVmafHipWindows * windows);

/* The distorted pad the windows are of, named in their messages. */
void         gst_vmaf_hip_windows_set_pad (GstVmafHipWindows * windows,
                                           const gchar * pad);

/* The models' outputs (names as in the messages), which get threshold
 * counts and the worst frame's time. */
void         gst_vmaf_hip_windows_set_models (GstVmafHipWindows * windows,
                                           const gchar * const *names);

/* The pipeline is live (its values stop being kept for the run's
 * percentiles, and those kept so far go). */
void         gst_vmaf_hip_windows_set_live (GstVmafHipWindows * windows,
                                           gboolean live);

/* Whether any window is asked for (else only the summary's statistics). */
gboolean     gst_vmaf_hip_windows_enabled (GstVmafHipWindows * windows);

/* Adds one scored frame's "vmaf" message; appends to @finished the
 * "vmaf-window" structures of the windows it completes. */
void         gst_vmaf_hip_windows_add     (GstVmafHipWindows * windows,
                                           const GstStructure * frame,
                                           GPtrArray * finished);

/* The partial window at the end of the stream, or NULL. */
GstStructure *gst_vmaf_hip_windows_flush  (GstVmafHipWindows * windows);

/* Adds the run's percentiles and threshold counts to the summary's
 * nested structure of each metric. */
void         gst_vmaf_hip_windows_add_to_summary (GstVmafHipWindows * windows,
                                           GstStructure * summary);

G_END_DECLS

#endif /* __GST_VMAF_HIP_WINDOW_H__ */
