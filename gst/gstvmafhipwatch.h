/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_WATCH_H__
#define __GST_VMAF_HIP_WATCH_H__

#include <gst/gst.h>

#include "picture.h"

G_BEGIN_DECLS

#define DEFAULT_WINDOW_FRAMES         0
#define DEFAULT_WINDOW_DURATION       0
#define DEFAULT_PERCENTILES           "1,5,50"
#define DEFAULT_THRESHOLDS            "40,60,80"
#define DEFAULT_BLACK_THRESHOLD       32.0
#define DEFAULT_BLACK_SPREAD          8.0
#define DEFAULT_BLACK_MIN_DURATION    (2 * GST_SECOND)
#define DEFAULT_FREEZE_THRESHOLD      0.25
#define DEFAULT_FREEZE_MIN_DURATION   (2 * GST_SECOND)
#define DEFAULT_LOW_SCORE_THRESHOLD   0.0
#define DEFAULT_LOW_SCORE_MIN_FRAMES  1
#define DEFAULT_LAG_WARNING           (2 * GST_SECOND)
#define DEFAULT_RESULTS_PERCENTILES   FALSE

/* What the monitoring properties say (windows, percentiles, events, lag);
 * copied when the element starts, as GstVmafHipSettings is. */
typedef struct
{
  guint window_frames;          /* 0: no frame-count windows */
  guint64 window_duration;      /* ns, 0: no time windows */
  gchar *percentiles;           /* "1,5,50" */
  gchar *thresholds;            /* "40,60,80" */
  gdouble black_threshold;      /* luma mean, 8-bit code values; 0: off */
  gdouble black_spread;         /* luma standard deviation bound */
  guint64 black_min_duration;   /* ns */
  gdouble freeze_threshold;     /* mean absolute difference; 0: off */
  guint64 freeze_min_duration;  /* ns */
  gdouble low_score_threshold;  /* first model's score; 0: off */
  guint low_score_min_frames;
  guint64 lag_warning;          /* ns, 0: no warning */
  gboolean results_percentiles; /* the results file gets the percentiles */
  /* Not a property: with align=content the align-window, which a frame
   * may wait for its decision on top of the latency (until the lock, and
   * for a partner that far behind); the lag does not count it. */
  guint64 align_wait;           /* ns, 0: aligned by timestamps */
} GstVmafHipWatchSettings;

void         gst_vmaf_hip_watch_settings_init  (GstVmafHipWatchSettings * s);

void         gst_vmaf_hip_watch_settings_copy  (GstVmafHipWatchSettings * dst,
                                                const GstVmafHipWatchSettings * src);

void         gst_vmaf_hip_watch_settings_clear (GstVmafHipWatchSettings * s);


/**
 * GstVmafHipWatch:
 *
 * What the element watches beside the scores, for monitoring: windows
 * and the run's percentiles (GstVmafHipWindows), black, freeze and
 * low-score events (GstVmafHipEvents) and the lag behind real time
 * (GstVmafHipLag). One per run, made when the element starts; the
 * scoring feeds it pictures (streaming thread) and each scored frame's
 * "vmaf" structure (frame-ready callback, in frame order).
 */
typedef struct _GstVmafHipWatch GstVmafHipWatch;

/* Fails on bad settings (a percentile or threshold list), said in
 * @error. @element: posts and clock, not owned. */
GstVmafHipWatch *gst_vmaf_hip_watch_new     (GstElement * element,
                                             const GstVmafHipWatchSettings * s,
                                             GError ** error);

void         gst_vmaf_hip_watch_free        (GstVmafHipWatch * watch);

/* The score low-score watches (the first model's output, or NULL for
 * none) and every model output (threshold counts), as named in the
 * messages. */
void         gst_vmaf_hip_watch_set_outputs (GstVmafHipWatch * watch,
                                             const gchar * score_name,
                                             const gchar * const *model_outputs);

/* The pads named in the messages ("ref_sink", "dist_sink" unless
 * told): windows name the distorted one, events their input's. */
void         gst_vmaf_hip_watch_set_pads    (GstVmafHipWatch * watch,
                                             const gchar * ref_pad,
                                             const gchar * dist_pad);

/* The element's GPU (a VhHipDevice, not owned; NULL for none), on which
 * black and freeze detection read frames only in its memory. Streaming
 * thread. */
void         gst_vmaf_hip_watch_set_device  (GstVmafHipWatch * watch,
                                             gpointer device);

/* Both sides of a pair, before it is submitted: black and freeze
 * detection. Streaming thread. */
void         gst_vmaf_hip_watch_pictures    (GstVmafHipWatch * watch,
                                             const VhPicture * ref,
                                             GstClockTime ref_time,
                                             GstClockTime ref_duration,
                                             const VhPicture * dist,
                                             GstClockTime dist_time,
                                             GstClockTime dist_duration);

/* The aggregator's latency, GST_CLOCK_TIME_NONE when not live. */
void         gst_vmaf_hip_watch_set_latency (GstVmafHipWatch * watch,
                                             GstClockTime latency);

/* A scored frame's "vmaf" structure (the element's own layout): its
 * "lag" field added when live, low-score followed, the windows it
 * completes kept for gst_vmaf_hip_watch_post_windows(). Frame-ready
 * callback. */
void         gst_vmaf_hip_watch_frame       (GstVmafHipWatch * watch,
                                             GstStructure * frame);

/* Posts the windows the last frame completed: after that frame's own
 * message, so that a window follows the messages of its frames. */
void         gst_vmaf_hip_watch_post_windows (GstVmafHipWatch * watch);

/* End of stream, every frame reported: the partial window posted, open
 * events ended. */
void         gst_vmaf_hip_watch_end         (GstVmafHipWatch * watch);

/* A flush: open events dropped. */
void         gst_vmaf_hip_watch_flush       (GstVmafHipWatch * watch);

/* Percentiles, threshold counts and "max-lag" into the summary. */
void         gst_vmaf_hip_watch_add_to_summary (GstVmafHipWatch * watch,
                                             GstStructure * summary);

G_END_DECLS

#endif /* __GST_VMAF_HIP_WATCH_H__ */
