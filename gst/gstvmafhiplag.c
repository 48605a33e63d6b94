/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Scoring behind real time, in live pipelines. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhiplag.h"

struct _GstVmafHipLag
{
  GstElement *element;          /* not owned */
  GstClockTime warning;
  GstClockTime allowed_wait;
  GMutex lock;                  /* the fields below */
  GstClockTime latency;         /* NONE: not live */
  gboolean measured;
  GstClockTime max;
  gboolean behind;              /* in an episode, warned */
};

GstVmafHipLag *
gst_vmaf_hip_lag_new (GstElement * element, GstClockTime warning,
    GstClockTime allowed_wait)
{
  GstVmafHipLag *lag = g_new0 (GstVmafHipLag, 1);

  lag->element = element;
  lag->warning = warning;
  lag->allowed_wait = allowed_wait;
  lag->latency = GST_CLOCK_TIME_NONE;
  g_mutex_init (&lag->lock);
  return lag;
}

void
gst_vmaf_hip_lag_free (GstVmafHipLag * lag)
{
  if (!lag)
    return;
  g_mutex_clear (&lag->lock);
  g_free (lag);
}

void
gst_vmaf_hip_lag_set_latency (GstVmafHipLag * lag, GstClockTime latency)
{
  g_mutex_lock (&lag->lock);
  lag->latency = latency;
  g_mutex_unlock (&lag->lock);
}

gboolean
gst_vmaf_hip_lag_measure (GstVmafHipLag * lag, GstClockTime running_time,
    GstClockTime * result)
{
  GstClockTime latency, now, base, due, behind;
  GstClock *clock;
  gboolean warn = FALSE;

  g_mutex_lock (&lag->lock);
  latency = lag->latency;
  g_mutex_unlock (&lag->lock);
  if (!GST_CLOCK_TIME_IS_VALID (latency) ||
      !GST_CLOCK_TIME_IS_VALID (running_time))
    return FALSE;
  clock = gst_element_get_clock (lag->element);
  if (!clock)
    return FALSE;
  base = gst_element_get_base_time (lag->element);
  now = gst_clock_get_time (clock);
  gst_object_unref (clock);
  if (!GST_CLOCK_TIME_IS_VALID (now) || now < base)
    return FALSE;
  now -= base;
  due = running_time + latency + lag->allowed_wait;
  behind = now > due ? now - due : 0;

  g_mutex_lock (&lag->lock);
  lag->max = lag->measured ? MAX (lag->max, behind) : behind;
  lag->measured = TRUE;
  if (lag->warning > 0 && !lag->behind && behind > lag->warning) {
    lag->behind = TRUE;
    warn = TRUE;
  } else if (lag->behind && behind < lag->warning / 2) {
    lag->behind = FALSE;
  }
  g_mutex_unlock (&lag->lock);
  if (warn)
    GST_ELEMENT_WARNING_WITH_DETAILS (lag->element, CORE, CLOCK,
        ("Scoring is %.1f s behind real time (lag-warning %.1f s): the "
            "pipeline cannot score this live input as fast as it comes.",
            (gdouble) behind / GST_SECOND,
            (gdouble) lag->warning / GST_SECOND), (NULL),
        ("lag", G_TYPE_UINT64, behind, NULL));
  *result = behind;
  return TRUE;
}

void
gst_vmaf_hip_lag_add_to_summary (GstVmafHipLag * lag, GstStructure * summary)
{
  g_mutex_lock (&lag->lock);
  if (lag->measured)
    gst_structure_set (summary, "max-lag", G_TYPE_UINT64, lag->max, NULL);
  g_mutex_unlock (&lag->lock);
}
