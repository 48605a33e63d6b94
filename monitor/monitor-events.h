/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The element's "vmaf-event" messages (black, frozen, low score) counted
 * per type, input and pad (each rendition of a ladder has its own): how many began, how long the finished ones lasted,
 * which are going on. Not thread-safe: the channel holds its lock. */

#ifndef __MONITOR_EVENTS_H__
#define __MONITOR_EVENTS_H__

#include <gst/gst.h>

G_BEGIN_DECLS

typedef struct
{
  gchar *type;                  /* black, freeze, low-score */
  gchar *input;                 /* reference, distorted */
  gchar *pad;                   /* the element's pad: ref_sink, dist_sink,
                                 * dist_sink_1, ... */
  guint64 count;                /* events begun (or ended unseen begun) */
  gdouble seconds;              /* durations of the finished ones */
  gboolean active;              /* one has begun and not ended */
} MonitorEventCount;

typedef struct _MonitorEvents MonitorEvents;

MonitorEvents *monitor_events_new       (void);

void           monitor_events_free      (MonitorEvents * events);

/* A "vmaf-event" structure; FALSE (and nothing counted) when it lacks a
 * type or a state. Without an input, the distorted one; without a pad,
 * the input's first (ref_sink, dist_sink). */
gboolean       monitor_events_add       (MonitorEvents * events,
                                         const GstStructure * event);

/* A run ended: whatever was going on ends with it (unmeasured). */
void           monitor_events_end_run   (MonitorEvents * events);

/* Copies of every MonitorEventCount (those of black, freeze and low-score
 * always, at 0 before any); free with g_ptr_array_unref. */
GPtrArray     *monitor_events_snapshot  (MonitorEvents * events);

G_END_DECLS

#endif /* __MONITOR_EVENTS_H__ */
