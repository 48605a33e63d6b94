/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_EVENTS_H__
#define __GST_VMAF_HIP_EVENTS_H__

#include <gst/gst.h>

#include "picture.h"
#include "gstvmafhipwatch.h"

G_BEGIN_DECLS

/**
 * GstVmafHipEvents:
 *
 * Black, freeze and low-score detection, posted as "vmaf-event" element
 * messages (a "start" once a stretch lasted its minimum, an "end" when it
 * ends or at the end of the stream).
 *
 * Black and freeze look at each input's luma alone (no reference needed)
 * through a strided sample of at most 480 x 270 luma samples per frame
 * (every frame's rows and columns at a fixed step): a frame is black when
 * the sample's mean is below black-threshold and its standard deviation
 * below black-spread (8-bit code values; deeper video is scaled down),
 * and it repeats the one before when the mean absolute difference of the
 * two samples is below freeze-threshold (a black frame is reported as
 * black only, never as frozen). Frames held only in GPU memory
 * (no host copy) are sampled there (hip/features/hip-frame-probe.h,
 * the element's device: gst_vmaf_hip_events_set_device()) with the same
 * numbers, and judged when the input's next frame comes (or at the end),
 * so that their sums arrive without a wait; where that cannot run they
 * are not looked at, said once on the bus.
 *
 * Black and freeze run on the streaming thread, low-score on the
 * engine's frame-ready callback (in frame order): each detector is used
 * from one thread only.
 */
typedef struct _GstVmafHipEvents GstVmafHipEvents;

/* @element: posts, not owned. */
GstVmafHipEvents *gst_vmaf_hip_events_new (GstElement * element,
                                           const GstVmafHipWatchSettings * s);

void         gst_vmaf_hip_events_free     (GstVmafHipEvents * events);

/* The pads named in the messages (reference, distorted). */
void         gst_vmaf_hip_events_set_pads (GstVmafHipEvents * events,
                                           const gchar * ref_pad,
                                           const gchar * dist_pad);

/* The name of the score low-score watches (the first model's). */
void         gst_vmaf_hip_events_set_metric (GstVmafHipEvents * events,
                                           const gchar * metric);

/* The element's GPU (a VhHipDevice, not owned; NULL for none): frames
 * only in its memory are sampled on it. Streaming thread. */
void         gst_vmaf_hip_events_set_device (GstVmafHipEvents * events,
                                           gpointer device);

/* A frame of one input at stream time @t, shown for @duration (or
 * GST_CLOCK_TIME_NONE). Streaming thread. */
void         gst_vmaf_hip_events_picture  (GstVmafHipEvents * events,
                                           gboolean reference,
                                           const VhPicture * pic,
                                           GstClockTime t,
                                           GstClockTime duration);

/* A scored frame's first model score. Frame-ready callback. */
void         gst_vmaf_hip_events_score    (GstVmafHipEvents * events,
                                           gdouble score, GstClockTime t,
                                           GstClockTime duration);

/* The end of the stream: open events end here. Neither thread may feed
 * the detectors any more. */
void         gst_vmaf_hip_events_finish   (GstVmafHipEvents * events);

/* A flush (seek): open events are dropped without an end, and freeze
 * detection forgets the last frame. */
void         gst_vmaf_hip_events_reset    (GstVmafHipEvents * events);

/* The luma statistics of @pic (host memory) on the sample grid: mean and
 * standard deviation in 8-bit code values, and the samples (guint16)
 * into @samples when not NULL. Exposed for the tests. */
void         gst_vmaf_hip_luma_stats      (const VhPicture * pic,
                                           gdouble * mean, gdouble * stddev,
                                           GArray * samples);

G_END_DECLS

#endif /* __GST_VMAF_HIP_EVENTS_H__ */
