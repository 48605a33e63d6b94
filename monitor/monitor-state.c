/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "monitor-state.h"

struct _MonitorStateQueue
{
  GThreadPool *pool;            /* one thread at most: changes in order */
};

typedef struct
{
  GstElement *pipeline;
  GstState state;
} StateChange;

/* Starts one at a time over every queue: the first pipeline on a GPU
 * opens it and announces it while it starts, for the next to share
 * (monitor-devices.h); started side by side, each opened its own. A start
 * waits this long at most for the one before, which may block for good
 * (a source that never connects, when the GPU was opened before it). */
#define START_WAIT_US (2 * G_TIME_SPAN_SECOND)

static GMutex start_lock;
static GCond start_done;
static gboolean starting;

/* TRUE: the caller starts alone and must call start_end(). */
static gboolean
start_begin (void)
{
  gint64 deadline = g_get_monotonic_time () + START_WAIT_US;
  gboolean alone;

  g_mutex_lock (&start_lock);
  while (starting && g_cond_wait_until (&start_done, &start_lock, deadline));
  alone = !starting;
  starting = TRUE;
  g_mutex_unlock (&start_lock);
  return alone;
}

static void
start_end (void)
{
  g_mutex_lock (&start_lock);
  starting = FALSE;
  g_cond_broadcast (&start_done);
  g_mutex_unlock (&start_lock);
}

static void
run_change (gpointer data, gpointer user_data)
{
  StateChange *change = data;
  gboolean start = change->state == GST_STATE_PLAYING;
  gboolean alone = start && start_begin ();
  GstStateChangeReturn ret;

  ret = gst_element_set_state (change->pipeline, change->state);
  if (alone)
    start_end ();
  if (ret == GST_STATE_CHANGE_FAILURE && start)
    gst_element_post_message (change->pipeline,
        gst_message_new_application (GST_OBJECT (change->pipeline),
            gst_structure_new_empty (MONITOR_STATE_START_FAILED)));
  gst_object_unref (change->pipeline);
  g_free (change);
}

MonitorStateQueue *
monitor_state_queue_new (void)
{
  MonitorStateQueue *queue = g_new0 (MonitorStateQueue, 1);

  /* not exclusive: threads are shared with other queues, one at a time
   * for this one */
  queue->pool = g_thread_pool_new (run_change, NULL, 1, FALSE, NULL);
  return queue;
}

void
monitor_state_queue_set (MonitorStateQueue * queue, GstElement * pipeline,
    GstState state)
{
  StateChange *change = g_new0 (StateChange, 1);

  change->pipeline = gst_object_ref (pipeline);
  change->state = state;
  g_thread_pool_push (queue->pool, change, NULL);
}

void
monitor_state_queue_free (MonitorStateQueue * queue)
{
  if (!queue)
    return;
  g_thread_pool_free (queue->pool, FALSE, TRUE);
  g_free (queue);
}
