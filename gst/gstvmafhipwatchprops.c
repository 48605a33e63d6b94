/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The element's monitoring properties. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipwatchprops.h"

enum
{
  PROP_WINDOW_FRAMES,
  PROP_WINDOW_DURATION,
  PROP_PERCENTILES,
  PROP_THRESHOLDS,
  PROP_BLACK_THRESHOLD,
  PROP_BLACK_SPREAD,
  PROP_BLACK_MIN_DURATION,
  PROP_FREEZE_THRESHOLD,
  PROP_FREEZE_MIN_DURATION,
  PROP_LOW_SCORE_THRESHOLD,
  PROP_LOW_SCORE_MIN_FRAMES,
  PROP_LAG_WARNING,
  PROP_RESULTS_PERCENTILES,
};

void
gst_vmaf_hip_watch_install_properties (GObjectClass * klass, guint first)
{
  const GParamFlags ready = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;

  g_object_class_install_property (klass, first + PROP_WINDOW_FRAMES,
      g_param_spec_uint ("window-frames", "Window frames",
          "Post a \"vmaf-window\" message with the statistics of every N "
          "scored frames (0: no frame-count windows)", 0, G_MAXINT,
          DEFAULT_WINDOW_FRAMES, ready));
  g_object_class_install_property (klass, first + PROP_WINDOW_DURATION,
      g_param_spec_uint64 ("window-duration", "Window duration",
          "Post a \"vmaf-window\" message with the statistics of every span "
          "of this many nanoseconds of stream time (0: no time windows)",
          0, G_MAXUINT64, DEFAULT_WINDOW_DURATION, ready));
  g_object_class_install_property (klass, first + PROP_PERCENTILES,
      g_param_spec_string ("percentiles", "Percentiles",
          "Comma-separated percentiles (0..100) in the windows and the "
          "summary, fields p<N> ('.' written '_'), linear interpolation "
          "between closest ranks as numpy's default; empty: none",
          DEFAULT_PERCENTILES, ready));
  g_object_class_install_property (klass, first + PROP_THRESHOLDS,
      g_param_spec_string ("thresholds", "Thresholds",
          "Comma-separated model scores (0..100): the windows and the "
          "summary count the frames below each (fields below-<T>); empty: "
          "none", DEFAULT_THRESHOLDS, ready));
  g_object_class_install_property (klass, first + PROP_BLACK_THRESHOLD,
      g_param_spec_double ("black-threshold", "Black threshold",
          "A frame is black when its luma mean (8-bit code values) is below "
          "this and its spread below black-spread (0: no black detection)",
          0.0, 256.0, DEFAULT_BLACK_THRESHOLD, ready));
  g_object_class_install_property (klass, first + PROP_BLACK_SPREAD,
      g_param_spec_double ("black-spread", "Black spread",
          "Largest luma standard deviation (8-bit code values) of a black "
          "frame", 0.0, 256.0, DEFAULT_BLACK_SPREAD, ready));
  g_object_class_install_property (klass, first + PROP_BLACK_MIN_DURATION,
      g_param_spec_uint64 ("black-min-duration", "Black minimum duration",
          "Nanoseconds black frames must last to make a \"black\" event",
          0, G_MAXUINT64, DEFAULT_BLACK_MIN_DURATION, ready));
  g_object_class_install_property (klass, first + PROP_FREEZE_THRESHOLD,
      g_param_spec_double ("freeze-threshold", "Freeze threshold",
          "A frame repeats the one before when the mean absolute difference "
          "of their luma (8-bit code values) is below this (0: no freeze "
          "detection)", 0.0, 256.0, DEFAULT_FREEZE_THRESHOLD, ready));
  g_object_class_install_property (klass, first + PROP_FREEZE_MIN_DURATION,
      g_param_spec_uint64 ("freeze-min-duration", "Freeze minimum duration",
          "Nanoseconds a picture must stay frozen to make a \"freeze\" event",
          0, G_MAXUINT64, DEFAULT_FREEZE_MIN_DURATION, ready));
  g_object_class_install_property (klass, first + PROP_LOW_SCORE_THRESHOLD,
      g_param_spec_double ("low-score-threshold", "Low score threshold",
          "A \"low-score\" event when the first model's score stays below "
          "this for low-score-min-frames frames (0: none)", 0.0, G_MAXDOUBLE,
          DEFAULT_LOW_SCORE_THRESHOLD, ready));
  g_object_class_install_property (klass, first + PROP_LOW_SCORE_MIN_FRAMES,
      g_param_spec_uint ("low-score-min-frames", "Low score minimum frames",
          "Scored frames the score must stay below low-score-threshold to "
          "make a \"low-score\" event", 1, G_MAXINT,
          DEFAULT_LOW_SCORE_MIN_FRAMES, ready));
  g_object_class_install_property (klass, first + PROP_LAG_WARNING,
      g_param_spec_uint64 ("lag-warning", "Lag warning",
          "Live pipelines: warn when scoring falls this many nanoseconds "
          "behind real time, once per episode (0: never)", 0, G_MAXUINT64,
          DEFAULT_LAG_WARNING, ready));
  g_object_class_install_property (klass, first + PROP_RESULTS_PERCENTILES,
      g_param_spec_boolean ("results-percentiles", "Results percentiles",
          "Add the percentiles (property percentiles) to each metric's "
          "pooled values in the results file (JSON, XML); off: libvmaf's "
          "layout", DEFAULT_RESULTS_PERCENTILES, ready));
}

gboolean
gst_vmaf_hip_watch_set_property (GstVmafHipWatchSettings * s, guint first,
    guint prop_id, const GValue * value)
{
  if (prop_id < first)
    return FALSE;
  switch (prop_id - first) {
    case PROP_WINDOW_FRAMES:
      s->window_frames = g_value_get_uint (value);
      break;
    case PROP_WINDOW_DURATION:
      s->window_duration = g_value_get_uint64 (value);
      break;
    case PROP_PERCENTILES:
      g_free (s->percentiles);
      s->percentiles = g_value_dup_string (value);
      break;
    case PROP_THRESHOLDS:
      g_free (s->thresholds);
      s->thresholds = g_value_dup_string (value);
      break;
    case PROP_BLACK_THRESHOLD:
      s->black_threshold = g_value_get_double (value);
      break;
    case PROP_BLACK_SPREAD:
      s->black_spread = g_value_get_double (value);
      break;
    case PROP_BLACK_MIN_DURATION:
      s->black_min_duration = g_value_get_uint64 (value);
      break;
    case PROP_FREEZE_THRESHOLD:
      s->freeze_threshold = g_value_get_double (value);
      break;
    case PROP_FREEZE_MIN_DURATION:
      s->freeze_min_duration = g_value_get_uint64 (value);
      break;
    case PROP_LOW_SCORE_THRESHOLD:
      s->low_score_threshold = g_value_get_double (value);
      break;
    case PROP_LOW_SCORE_MIN_FRAMES:
      s->low_score_min_frames = g_value_get_uint (value);
      break;
    case PROP_LAG_WARNING:
      s->lag_warning = g_value_get_uint64 (value);
      break;
    case PROP_RESULTS_PERCENTILES:
      s->results_percentiles = g_value_get_boolean (value);
      break;
    default:
      return FALSE;
  }
  return TRUE;
}

gboolean
gst_vmaf_hip_watch_get_property (const GstVmafHipWatchSettings * s,
    guint first, guint prop_id, GValue * value)
{
  if (prop_id < first)
    return FALSE;
  switch (prop_id - first) {
    case PROP_WINDOW_FRAMES:
      g_value_set_uint (value, s->window_frames);
      break;
    case PROP_WINDOW_DURATION:
      g_value_set_uint64 (value, s->window_duration);
      break;
    case PROP_PERCENTILES:
      g_value_set_string (value, s->percentiles);
      break;
    case PROP_THRESHOLDS:
      g_value_set_string (value, s->thresholds);
      break;
    case PROP_BLACK_THRESHOLD:
      g_value_set_double (value, s->black_threshold);
      break;
    case PROP_BLACK_SPREAD:
      g_value_set_double (value, s->black_spread);
      break;
    case PROP_BLACK_MIN_DURATION:
      g_value_set_uint64 (value, s->black_min_duration);
      break;
    case PROP_FREEZE_THRESHOLD:
      g_value_set_double (value, s->freeze_threshold);
      break;
    case PROP_FREEZE_MIN_DURATION:
      g_value_set_uint64 (value, s->freeze_min_duration);
      break;
    case PROP_LOW_SCORE_THRESHOLD:
      g_value_set_double (value, s->low_score_threshold);
      break;
    case PROP_LOW_SCORE_MIN_FRAMES:
      g_value_set_uint (value, s->low_score_min_frames);
      break;
    case PROP_LAG_WARNING:
      g_value_set_uint64 (value, s->lag_warning);
      break;
    case PROP_RESULTS_PERCENTILES:
      g_value_set_boolean (value, s->results_percentiles);
      break;
    default:
      return FALSE;
  }
  return TRUE;
}
