/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A channel's pipeline state changes, made one after the other on a
 * thread of their own instead of the main context: a state change may
 * block for seconds (a source that connects, streaming threads joined on
 * the way down), and the main context answers Prometheus' scrapes. In
 * order, so that a restart's new pipeline starts only once the old one
 * has let go of what they share (a port, a device, a file). Restarts do
 * not wait; a channel removed (a reload, the end of the service) waits
 * for its pipeline to be down. */

#ifndef __MONITOR_STATE_H__
#define __MONITOR_STATE_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* Posted on a pipeline's bus when its change to PLAYING failed (most
 * elements post an error first, which then comes before it). */
#define MONITOR_STATE_START_FAILED "vmafhip-monitor-start-failed"

typedef struct _MonitorStateQueue MonitorStateQueue;

MonitorStateQueue *monitor_state_queue_new  (void);

/* Sets @pipeline to @state after the changes queued before (a reference
 * is taken until then). */
void         monitor_state_queue_set        (MonitorStateQueue * queue,
                                             GstElement * pipeline,
                                             GstState state);

/* Waits for the changes queued: once a pipeline is down, nothing of it
 * calls its channel's bus handlers any more. */
void         monitor_state_queue_free       (MonitorStateQueue * queue);

G_END_DECLS

#endif /* __MONITOR_STATE_H__ */
