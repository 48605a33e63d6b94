/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_LAG_H__
#define __GST_VMAF_HIP_LAG_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/**
 * GstVmafHipLag:
 *
 * How far scoring is behind real time in a live pipeline: when a frame's
 * scores are final, the pipeline clock's running time less the frame's
 * running time, the latency the element was configured with (the time a
 * frame may wait for its partner) and, aligned by content, the window
 * (the time a frame may wait for its decision). A warning on the bus
 * when it passes lag-warning, once per episode (an episode ends when the
 * lag falls below half of it). Not live (no latency configured): nothing.
 * Thread-safe.
 */
typedef struct _GstVmafHipLag GstVmafHipLag;

/* @element: its clock and posts, not owned. @warning: ns, 0 for none.
 * @allowed_wait: how long a frame may wait for its partner beyond the
 * latency (align=content's window), not counted as lag. */
GstVmafHipLag *gst_vmaf_hip_lag_new       (GstElement * element,
                                           GstClockTime warning,
                                           GstClockTime allowed_wait);

void         gst_vmaf_hip_lag_free        (GstVmafHipLag * lag);

/* The aggregator's latency (GST_CLOCK_TIME_NONE when not live).
 * Streaming thread. */
void         gst_vmaf_hip_lag_set_latency (GstVmafHipLag * lag,
                                           GstClockTime latency);

/* The lag of the frame at @running_time, scored now; FALSE when not live
 * or not known. Frame-ready callback. */
gboolean     gst_vmaf_hip_lag_measure     (GstVmafHipLag * lag,
                                           GstClockTime running_time,
                                           GstClockTime * result);

/* "max-lag" (guint64 ns) into @summary, if any lag was measured. */
void         gst_vmaf_hip_lag_add_to_summary (GstVmafHipLag * lag,
                                           GstStructure * summary);

G_END_DECLS

#endif /* __GST_VMAF_HIP_LAG_H__ */
