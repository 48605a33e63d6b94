/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What a channel keeps of its per-frame values between two scrapes, so
 * that nothing between them is lost: per metric a histogram, a count of
 * frames below each threshold, and the minimum over a sliding window (the
 * last min-window seconds, the same for every scraper). Not thread-safe:
 * the channel holds its lock. */

#ifndef __MONITOR_SCORES_H__
#define __MONITOR_SCORES_H__

#include <gst/gst.h>

#include "monitor-config.h"

G_BEGIN_DECLS

typedef struct _MonitorScores MonitorScores;

/* One metric at one moment: counters since the service started. */
typedef struct
{
  gchar *metric;
  guint64 *cumulative;          /* frames <= each bound of the config */
  guint64 count;                /* every frame (the +Inf bucket) */
  gdouble sum;
  guint64 *below;               /* frames < each threshold of the config */
  gboolean has_min;             /* a frame in the window */
  gdouble min;                  /* the window's lowest value */
} MonitorScoreSnapshot;

/* Bounds, thresholds and the window come from @config (borrowed: it
 * outlives the scores). */
MonitorScores *monitor_scores_new        (const MonitorChannelConfig * config);

void           monitor_scores_free       (MonitorScores * scores);

/* A "vmaf" message's values of the configured metrics, at @now_us
 * (monotonic). Values that are not numbers are left out. */
void           monitor_scores_add_frame  (MonitorScores * scores,
                                          const GstStructure * frame,
                                          gint64 now_us);

/* MonitorScoreSnapshot* of each metric seen so far, the window's minimum
 * as of @now_us; free with g_ptr_array_unref. */
GPtrArray     *monitor_scores_snapshot   (MonitorScores * scores,
                                          gint64 now_us);

G_END_DECLS

#endif /* __MONITOR_SCORES_H__ */
