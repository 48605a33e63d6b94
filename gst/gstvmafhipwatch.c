/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The monitoring settings, and what watches a run for them. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipwatch.h"
#include "gstvmafhipevents.h"
#include "gstvmafhiplag.h"
#include "gstvmafhipwindow.h"

void
gst_vmaf_hip_watch_settings_init (GstVmafHipWatchSettings * s)
{
  s->window_frames = DEFAULT_WINDOW_FRAMES;
  s->window_duration = DEFAULT_WINDOW_DURATION;
  s->percentiles = g_strdup (DEFAULT_PERCENTILES);
  s->thresholds = g_strdup (DEFAULT_THRESHOLDS);
  s->black_threshold = DEFAULT_BLACK_THRESHOLD;
  s->black_spread = DEFAULT_BLACK_SPREAD;
  s->black_min_duration = DEFAULT_BLACK_MIN_DURATION;
  s->freeze_threshold = DEFAULT_FREEZE_THRESHOLD;
  s->freeze_min_duration = DEFAULT_FREEZE_MIN_DURATION;
  s->low_score_threshold = DEFAULT_LOW_SCORE_THRESHOLD;
  s->low_score_min_frames = DEFAULT_LOW_SCORE_MIN_FRAMES;
  s->lag_warning = DEFAULT_LAG_WARNING;
  s->results_percentiles = DEFAULT_RESULTS_PERCENTILES;
}

void
gst_vmaf_hip_watch_settings_copy (GstVmafHipWatchSettings * dst,
    const GstVmafHipWatchSettings * src)
{
  *dst = *src;
  dst->percentiles = g_strdup (src->percentiles);
  dst->thresholds = g_strdup (src->thresholds);
}

void
gst_vmaf_hip_watch_settings_clear (GstVmafHipWatchSettings * s)
{
  g_clear_pointer (&s->percentiles, g_free);
  g_clear_pointer (&s->thresholds, g_free);
}

struct _GstVmafHipWatch
{
  GstElement *element;          /* not owned */
  GstVmafHipWindows *windows;
  GstVmafHipEvents *events;
  GstVmafHipLag *lag;
  gchar *score_name;            /* set before the first frame */
  GQuark score_field;           /* its quark, 0 without one */
  /* the frame fields read, as quarks: no string lookups a frame */
  GQuark q_stream_time, q_running_time, q_duration, q_lag;
  GPtrArray *finished;          /* windows to post; frame-ready callback */
};

GstVmafHipWatch *
gst_vmaf_hip_watch_new (GstElement * element,
    const GstVmafHipWatchSettings * s, GError ** error)
{
  GstVmafHipWindows *windows = gst_vmaf_hip_windows_new (s, error);
  GstVmafHipWatch *watch;

  if (!windows)
    return NULL;
  watch = g_new0 (GstVmafHipWatch, 1);
  watch->element = element;
  watch->windows = windows;
  watch->events = gst_vmaf_hip_events_new (element, s);
  watch->lag = gst_vmaf_hip_lag_new (element, s->lag_warning, s->align_wait);
  watch->finished = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_structure_free);
  watch->q_stream_time = g_quark_from_static_string ("stream-time");
  watch->q_running_time = g_quark_from_static_string ("running-time");
  watch->q_duration = g_quark_from_static_string ("duration");
  watch->q_lag = g_quark_from_static_string ("lag");
  return watch;
}

void
gst_vmaf_hip_watch_free (GstVmafHipWatch * watch)
{
  if (!watch)
    return;
  gst_vmaf_hip_windows_free (watch->windows);
  gst_vmaf_hip_events_free (watch->events);
  gst_vmaf_hip_lag_free (watch->lag);
  g_free (watch->score_name);
  g_ptr_array_unref (watch->finished);
  g_free (watch);
}

void
gst_vmaf_hip_watch_set_outputs (GstVmafHipWatch * watch,
    const gchar * score_name, const gchar * const *model_outputs)
{
  g_free (watch->score_name);
  watch->score_name = g_strdup (score_name);
  watch->score_field = score_name ? g_quark_from_string (score_name) : 0;
  if (score_name)
    gst_vmaf_hip_events_set_metric (watch->events, score_name);
  gst_vmaf_hip_windows_set_models (watch->windows, model_outputs);
}

void
gst_vmaf_hip_watch_set_pads (GstVmafHipWatch * watch, const gchar * ref_pad,
    const gchar * dist_pad)
{
  gst_vmaf_hip_windows_set_pad (watch->windows, dist_pad);
  gst_vmaf_hip_events_set_pads (watch->events, ref_pad, dist_pad);
}

void
gst_vmaf_hip_watch_set_device (GstVmafHipWatch * watch, gpointer device)
{
  gst_vmaf_hip_events_set_device (watch->events, device);
}

void
gst_vmaf_hip_watch_pictures (GstVmafHipWatch * watch, const VhPicture * ref,
    GstClockTime ref_time, GstClockTime ref_duration, const VhPicture * dist,
    GstClockTime dist_time, GstClockTime dist_duration)
{
  gst_vmaf_hip_events_picture (watch->events, TRUE, ref, ref_time,
      ref_duration);
  gst_vmaf_hip_events_picture (watch->events, FALSE, dist, dist_time,
      dist_duration);
}

void
gst_vmaf_hip_watch_set_latency (GstVmafHipWatch * watch, GstClockTime latency)
{
  gst_vmaf_hip_lag_set_latency (watch->lag, latency);
  gst_vmaf_hip_windows_set_live (watch->windows,
      GST_CLOCK_TIME_IS_VALID (latency));
}

static void
post_window (GstVmafHipWatch * watch, GstStructure * s)
{
  gst_element_post_message (watch->element,
      gst_message_new_element (GST_OBJECT_CAST (watch->element), s));
}

/* The frame's guint64 @field, or GST_CLOCK_TIME_NONE. */
static guint64
frame_time (const GstStructure * frame, GQuark field)
{
  const GValue *v = gst_structure_id_get_value (frame, field);

  return v && G_VALUE_HOLDS_UINT64 (v) ? g_value_get_uint64 (v) :
      GST_CLOCK_TIME_NONE;
}

void
gst_vmaf_hip_watch_frame (GstVmafHipWatch * watch, GstStructure * frame)
{
  guint64 running_time, t, duration;
  const GValue *score = NULL;
  GstClockTime lag;

  gst_vmaf_hip_windows_add (watch->windows, frame, watch->finished);

  t = frame_time (frame, watch->q_stream_time);
  duration = frame_time (frame, watch->q_duration);
  if (watch->score_field)
    score = gst_structure_id_get_value (frame, watch->score_field);
  if (score && G_VALUE_HOLDS_DOUBLE (score))
    gst_vmaf_hip_events_score (watch->events, g_value_get_double (score), t,
        duration);

  running_time = frame_time (frame, watch->q_running_time);
  if (gst_vmaf_hip_lag_measure (watch->lag, running_time, &lag))
    gst_structure_id_set (frame, watch->q_lag, G_TYPE_UINT64, lag, NULL);
}

void
gst_vmaf_hip_watch_post_windows (GstVmafHipWatch * watch)
{
  for (guint i = 0; i < watch->finished->len; i++)
    post_window (watch, g_ptr_array_steal_index (watch->finished, i--));
}

void
gst_vmaf_hip_watch_end (GstVmafHipWatch * watch)
{
  GstStructure *s = gst_vmaf_hip_windows_flush (watch->windows);

  if (s)
    post_window (watch, s);
  gst_vmaf_hip_events_finish (watch->events);
}

void
gst_vmaf_hip_watch_flush (GstVmafHipWatch * watch)
{
  gst_vmaf_hip_events_reset (watch->events);
}

void
gst_vmaf_hip_watch_add_to_summary (GstVmafHipWatch * watch,
    GstStructure * summary)
{
  gst_vmaf_hip_windows_add_to_summary (watch->windows, summary);
  gst_vmaf_hip_lag_add_to_summary (watch->lag, summary);
}
