/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The deadline behind the input-timeout property. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipinputwait.h"

struct _GstVmafHipInputWait
{
  GstVmafHipInputWaitFunc expired;
  gpointer data;
  GMutex lock;
  GCond cond;
  GThread *thread;
  GstClockTime timeout;
  gint64 deadline;              /* monotonic µs; 0: not armed */
  gboolean quit;
};

GstVmafHipInputWait *
gst_vmaf_hip_input_wait_new (GstVmafHipInputWaitFunc expired, gpointer data)
{
  GstVmafHipInputWait *wait = g_new0 (GstVmafHipInputWait, 1);

  wait->expired = expired;
  wait->data = data;
  g_mutex_init (&wait->lock);
  g_cond_init (&wait->cond);
  return wait;
}

void
gst_vmaf_hip_input_wait_free (GstVmafHipInputWait * wait)
{
  if (!wait)
    return;
  gst_vmaf_hip_input_wait_stop (wait);
  g_cond_clear (&wait->cond);
  g_mutex_clear (&wait->lock);
  g_free (wait);
}

static gpointer
wait_thread (gpointer user_data)
{
  GstVmafHipInputWait *wait = user_data;
  gboolean expired = FALSE;

  g_mutex_lock (&wait->lock);
  while (!wait->quit && !expired) {
    if (!wait->deadline)
      g_cond_wait (&wait->cond, &wait->lock);
    else if (!g_cond_wait_until (&wait->cond, &wait->lock, wait->deadline))
      expired = !wait->quit;
  }
  g_mutex_unlock (&wait->lock);
  /* Outside the lock: the callback posts on the bus, and a stop waiting
   * for this thread must not wait for the lock too. */
  if (expired)
    wait->expired (wait->data, wait->timeout);
  return NULL;
}

void
gst_vmaf_hip_input_wait_start (GstVmafHipInputWait * wait,
    GstClockTime timeout)
{
  gst_vmaf_hip_input_wait_stop (wait);
  if (timeout == 0 || !GST_CLOCK_TIME_IS_VALID (timeout))
    return;
  wait->timeout = timeout;
  wait->deadline = 0;
  wait->quit = FALSE;
  wait->thread = g_thread_new ("vmafhip-input-wait", wait_thread, wait);
}

void
gst_vmaf_hip_input_wait_arm (GstVmafHipInputWait * wait)
{
  g_mutex_lock (&wait->lock);
  if (wait->thread && !wait->deadline && !wait->quit) {
    wait->deadline = g_get_monotonic_time () +
        (gint64) (wait->timeout / GST_USECOND);
    g_cond_signal (&wait->cond);
  }
  g_mutex_unlock (&wait->lock);
}

void
gst_vmaf_hip_input_wait_stop (GstVmafHipInputWait * wait)
{
  GThread *thread;

  g_mutex_lock (&wait->lock);
  wait->quit = TRUE;
  thread = wait->thread;
  wait->thread = NULL;
  g_cond_signal (&wait->cond);
  g_mutex_unlock (&wait->lock);
  /* A bus sync handler may stop the element from the error the wait
   * posted, on the wait's own thread: that one ends by itself. */
  if (thread && thread == g_thread_self ())
    g_thread_unref (thread);
  else if (thread)
    g_thread_join (thread);
}

void
gst_vmaf_hip_input_wait_say_silent (GstElement * element, GstPad * pad,
    gboolean reference, GstPad * ended, GstClockTime waited)
{
  const gchar *other = reference ? "dist_sink" : "ref_sink";
  gchar *when = ended ? g_strdup_printf ("%s ended", GST_PAD_NAME (ended)) :
      g_strdup_printf ("input-timeout (%.3g s) passed since the first caps "
      "on %s", (gdouble) waited / GST_SECOND, other);

  if (!gst_pad_is_linked (pad))
    GST_ELEMENT_ERROR (element, CORE, PAD,
        ("%s was never linked: %s, and %s's frames have nothing to be "
            "paired with. Link a %s branch to %s.%s.", GST_PAD_NAME (pad),
            when, other, reference ? "reference" : "distorted",
            GST_OBJECT_NAME (element), GST_PAD_NAME (pad)), (NULL));
  else
    GST_ELEMENT_ERROR (element, CORE, NEGOTIATION,
        ("%s never got caps: %s, and its branch sent no video (it failed "
            "before its caps, or has no video stream: see the messages "
            "before this one). Check the branch linked to %s.%s.",
            GST_PAD_NAME (pad), when, GST_OBJECT_NAME (element),
            GST_PAD_NAME (pad)), (NULL));
  g_free (when);
}
