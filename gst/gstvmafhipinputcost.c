/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Where a run's time goes while frames come in (see the header). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipinputcost.h"

#include <string.h>

/* Names in the line, in GstVmafHipInputStep's order. */
static const gchar *const step_names[GST_VMAF_HIP_INPUT_N_STEPS] = {
  "own-hip-upload", "own-hip", "gsthip-early", "gsthip-map", "gsthip-sync",
  "cuda", "host", "pair", "submit",
};

struct _GstVmafHipInputCost
{
  GMutex lock;
  gint64 start;                 /* the run's start (µs, monotonic) */
  gint64 first_pair, last_pair; /* when the first and last pair ended */
  gint64 total[GST_VMAF_HIP_INPUT_N_STEPS];     /* µs */
  guint64 count[GST_VMAF_HIP_INPUT_N_STEPS];
};

GstVmafHipInputCost *
gst_vmaf_hip_input_cost_new (void)
{
  GstVmafHipInputCost *cost = g_new0 (GstVmafHipInputCost, 1);

  g_mutex_init (&cost->lock);
  gst_vmaf_hip_input_cost_reset (cost);
  return cost;
}

void
gst_vmaf_hip_input_cost_free (GstVmafHipInputCost * cost)
{
  if (!cost)
    return;
  g_mutex_clear (&cost->lock);
  g_free (cost);
}

void
gst_vmaf_hip_input_cost_reset (GstVmafHipInputCost * cost)
{
  g_mutex_lock (&cost->lock);
  cost->start = g_get_monotonic_time ();
  cost->first_pair = cost->last_pair = 0;
  memset (cost->total, 0, sizeof (cost->total));
  memset (cost->count, 0, sizeof (cost->count));
  g_mutex_unlock (&cost->lock);
}

gint64
gst_vmaf_hip_input_cost_now (void)
{
  return g_get_monotonic_time ();
}

void
gst_vmaf_hip_input_cost_add (GstVmafHipInputCost * cost,
    GstVmafHipInputStep step, gint64 since)
{
  gint64 now = g_get_monotonic_time ();

  g_return_if_fail (step < GST_VMAF_HIP_INPUT_N_STEPS);
  g_mutex_lock (&cost->lock);
  cost->total[step] += now - since;
  cost->count[step]++;
  if (step == GST_VMAF_HIP_INPUT_STEP_PAIR) {
    if (!cost->first_pair)
      cost->first_pair = now;
    cost->last_pair = now;
  }
  g_mutex_unlock (&cost->lock);
}

/* Milliseconds per call of @step. */
static gdouble
ms_each (const GstVmafHipInputCost * cost, GstVmafHipInputStep step)
{
  return cost->count[step] ?
      cost->total[step] / 1e3 / (gdouble) cost->count[step] : 0.0;
}

gchar *
gst_vmaf_hip_input_cost_describe (GstVmafHipInputCost * cost)
{
  GString *s;
  guint64 pairs;
  gdouble span;

  g_mutex_lock (&cost->lock);
  pairs = cost->count[GST_VMAF_HIP_INPUT_STEP_PAIR];
  if (!pairs) {
    g_mutex_unlock (&cost->lock);
    return NULL;
  }
  /* The rate leaves out the first pair, whose wait is the start-up's. */
  span = (cost->last_pair - cost->first_pair) / 1e6;
  s = g_string_new (NULL);
  g_string_append_printf (s, "start-to-first-pair=%.3fs pairs=%"
      G_GUINT64_FORMAT " first-to-last=%.3fs rate=%.1f/s",
      (cost->first_pair - cost->start) / 1e6, pairs, span,
      pairs > 1 && span > 0 ? (pairs - 1) / span : 0.0);
  /* The share of the time between pairs the aggregating thread worked:
   * the rest it waited for input. */
  if (pairs > 1 && span > 0)
    g_string_append_printf (s, " aggregating-busy=%.0f%%",
        100.0 * ms_each (cost, GST_VMAF_HIP_INPUT_STEP_PAIR) * (pairs - 1)
        / 1e3 / span);
  for (guint i = 0; i < GST_VMAF_HIP_INPUT_N_STEPS; i++)
    if (cost->count[i])
      g_string_append_printf (s, " %s=%" G_GUINT64_FORMAT "x%.3fms",
          step_names[i], cost->count[i], ms_each (cost, i));
  g_mutex_unlock (&cost->lock);
  return g_string_free (s, FALSE);
}
