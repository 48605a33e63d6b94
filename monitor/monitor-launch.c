/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The channel's launch line: its sources, the element with the channel's
 * settings, and what an element of the pipeline reads. */

#include "monitor-launch.h"

#include <string.h>

/* A URI becomes a decoding source; anything else is a launch-line
 * fragment ending in the element whose video goes to the comparison. */
static gchar *
source_fragment (const gchar * value, gboolean realtime)
{
  /* clocksync holds each frame until its running time on the pipeline
   * clock: a file plays at its frame rate, as a live feed comes. */
  const gchar *pace = realtime ? " ! clocksync" : "";

  if (gst_uri_is_valid (value) && !strpbrk (value, " \t!\"'"))
    return g_strdup_printf ("uridecodebin uri=\"%s\"%s", value, pace);
  return g_strdup_printf ("%s%s", value, pace);
}

static gboolean
thresholds_are_scores (const MonitorChannelConfig * config)
{
  for (guint i = 0; i < config->n_thresholds; i++)
    if (!(config->thresholds[i] >= 0 && config->thresholds[i] <= 100))
      return FALSE;
  return TRUE;
}

/* "40,60,80" */
static gchar *
join_numbers (const gdouble * values, guint n)
{
  GString *out = g_string_new (NULL);
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  for (guint i = 0; i < n; i++)
    g_string_append_printf (out, "%s%s", i ? "," : "",
        g_ascii_dtostr (buf, sizeof (buf), values[i]));
  return g_string_free (out, FALSE);
}

/* The element's window, event and alignment properties the channel
 * gives, as
 * name and value strings (name, value, name, value, ..., NULL), those the
 * element has only: an element without windows and events (an older
 * build) is left as it is. */
static gchar **
event_properties (const MonitorChannelConfig * config)
{
  GstElementFactory *factory = gst_element_factory_find ("vmafhipcompare");
  GstPluginFeature *loaded = factory ?
      gst_plugin_feature_load (GST_PLUGIN_FEATURE (factory)) : NULL;
  GObjectClass *klass = NULL;
  GPtrArray *out = g_ptr_array_new ();
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (loaded)
    klass = g_type_class_ref (gst_element_factory_get_element_type
        (GST_ELEMENT_FACTORY (loaded)));
#define ADD(name, value) G_STMT_START {                                 \
    if (klass && g_object_class_find_property (klass, name)) {          \
      g_ptr_array_add (out, g_strdup (name));                           \
      g_ptr_array_add (out, value);                                     \
    }                                                                   \
  } G_STMT_END
  if (config->low_score_threshold >= 0)
    ADD ("low-score-threshold", g_strdup (g_ascii_dtostr (buf, sizeof (buf),
                config->low_score_threshold)));
  if (config->low_score_min_frames > 0)
    ADD ("low-score-min-frames", g_strdup_printf ("%" G_GINT64_FORMAT,
            config->low_score_min_frames));
  if (config->black_threshold >= 0)
    ADD ("black-threshold", g_strdup (g_ascii_dtostr (buf, sizeof (buf),
                config->black_threshold)));
  if (config->black_spread >= 0)
    ADD ("black-spread", g_strdup (g_ascii_dtostr (buf, sizeof (buf),
                config->black_spread)));
  if (config->black_min_duration >= 0)
    ADD ("black-min-duration", g_strdup_printf ("%" G_GUINT64_FORMAT,
            (guint64) (config->black_min_duration * GST_SECOND)));
  if (config->freeze_threshold >= 0)
    ADD ("freeze-threshold", g_strdup (g_ascii_dtostr (buf, sizeof (buf),
                config->freeze_threshold)));
  if (config->freeze_min_duration >= 0)
    ADD ("freeze-min-duration", g_strdup_printf ("%" G_GUINT64_FORMAT,
            (guint64) (config->freeze_min_duration * GST_SECOND)));
  if (config->window_frames > 0)
    ADD ("window-frames", g_strdup_printf ("%" G_GINT64_FORMAT,
            config->window_frames));
  /* The element's windows count the frames of its model scores below the
   * same thresholds as the monitor (scores from 0 to 100 only: other
   * thresholds are for other metrics). */
  if (thresholds_are_scores (config))
    ADD ("thresholds", join_numbers (config->thresholds,
            config->n_thresholds));
  if (config->align)
    ADD ("align", g_strdup (config->align));
  if (config->align_window >= 0)
    ADD ("align-window", g_strdup_printf ("%" G_GUINT64_FORMAT,
            (guint64) (config->align_window * GST_SECOND)));
#undef ADD
  if (klass)
    g_type_class_unref (klass);
  if (loaded)
    gst_object_unref (loaded);
  if (factory)
    gst_object_unref (factory);
  g_ptr_array_add (out, NULL);
  return (gchar **) g_ptr_array_free (out, FALSE);
}

/* The properties monitor_channel_build sets on the element, as a
 * launch line gives them. */
static gchar *
compare_properties (const MonitorChannelConfig * config)
{
  gchar *model = g_strescape (config->model, NULL);
  gchar *features = g_strescape (config->features, NULL);
  gchar *props = g_strdup_printf ("model=\"%s\" features=\"%s\" "
      "backend=%s threads=%u subsample=%u device-id=%d frame-message=true "
      "tag-interval=0 latency=%" G_GUINT64_FORMAT, model, features,
      config->backend, config->threads, config->subsample, config->device,
      (guint64) config->latency_ms * GST_MSECOND);

  gchar **events = event_properties (config);

  for (guint i = 0; events[i] && events[i + 1]; i += 2) {
    /* A list ("40,60,80") or nothing, quoted as a launch line needs. */
    gboolean quote = !*events[i + 1] || strchr (events[i + 1], ',');
    gchar *more = g_strdup_printf ("%s %s=%s%s%s", props, events[i],
        quote ? "\"" : "", events[i + 1], quote ? "\"" : "");

    g_free (props);
    props = more;
  }
  g_strfreev (events);
  g_free (model);
  g_free (features);
  return props;
}

static gchar *
describe (const MonitorChannelConfig * config, gboolean with_properties)
{
  gchar *ref = source_fragment (config->reference, config->pace_realtime);
  gchar *props = with_properties ? compare_properties (config) : NULL;
  gchar *compare = g_strdup_printf ("vmafhipcompare name=compare%s%s "
      "! fakesink sync=false async=false", props ? " " : "",
      props ? props : "");
  gchar *desc;

  if (config->distortion && *config->distortion) {
    /* One feed and what a processing chain makes of it: the frames of
     * both inputs are the same frames, timestamps and all. A ladder: one
     * chain per rendition, each into its own pad. */
    GString *out = g_string_new (NULL);

    g_string_append_printf (out, "%s ! tee name=feed "
        "feed. ! queue ! compare.ref_sink ", ref);
    for (guint i = 0; config->inputs && config->inputs[i]; i++) {
      g_autofree gchar *pad = monitor_channel_config_pad_name (i);

      g_string_append_printf (out, "feed. ! queue ! %s ! compare.%s ",
          config->inputs[i], pad);
    }
    g_string_append (out, compare);
    desc = g_string_free (out, FALSE);
  } else {
    GString *out = g_string_new (NULL);

    g_string_append_printf (out, "%s ! queue ! compare.ref_sink ", ref);
    for (guint i = 0; config->inputs && config->inputs[i]; i++) {
      g_autofree gchar *dist = source_fragment (config->inputs[i],
          config->pace_realtime);
      g_autofree gchar *pad = monitor_channel_config_pad_name (i);

      g_string_append_printf (out, "%s ! queue ! compare.%s ", dist, pad);
    }
    g_string_append (out, compare);
    desc = g_string_free (out, FALSE);
  }
  g_free (ref);
  g_free (props);
  g_free (compare);
  return desc;
}

gchar *
monitor_channel_describe (const MonitorChannelConfig * config)
{
  return describe (config, TRUE);
}

/* What an element reads, when it says: its URI (uridecodebin, filesrc and
 * other URI sources) or its location. Newly allocated, or NULL. */
gchar *
monitor_launch_element_input (GstElement * element)
{
  GParamSpec *pspec;
  gchar *value = NULL;

  if (GST_IS_URI_HANDLER (element) &&
      gst_uri_handler_get_uri_type (GST_URI_HANDLER (element)) == GST_URI_SRC)
    value = gst_uri_handler_get_uri (GST_URI_HANDLER (element));
  if (!value) {
    pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (element), "uri");
    if (pspec && pspec->value_type == G_TYPE_STRING &&
        (pspec->flags & G_PARAM_READABLE))
      g_object_get (element, "uri", &value, NULL);
  }
  if (!value) {
    pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (element),
        "location");
    if (pspec && pspec->value_type == G_TYPE_STRING &&
        (pspec->flags & G_PARAM_READABLE))
      g_object_get (element, "location", &value, NULL);
  }
  return value;
}


GstElement *
monitor_channel_build (const MonitorChannelConfig * config, GError ** error)
{
  /* The element's properties are set below, from their values. */
  gchar *desc = describe (config, FALSE);
  GstElement *pipeline, *compare;
  gchar **events;

  pipeline = gst_parse_launch_full (desc, NULL, GST_PARSE_FLAG_FATAL_ERRORS,
      error);
  g_free (desc);
  if (!pipeline)
    return NULL;
  compare = gst_bin_get_by_name (GST_BIN (pipeline), "compare");
  g_object_set (compare, "model", config->model, "features", config->features,
      "threads", config->threads, "subsample", config->subsample,
      "device-id", config->device, "frame-message", TRUE,
      /* Tags would only repeat on the bus what the stats property gives. */
      "tag-interval", 0,
      "latency", (GstClockTime) config->latency_ms * GST_MSECOND, NULL);
  gst_util_set_object_arg (G_OBJECT (compare), "backend", config->backend);
  events = event_properties (config);
  for (guint i = 0; events[i] && events[i + 1]; i += 2)
    gst_util_set_object_arg (G_OBJECT (compare), events[i], events[i + 1]);
  g_strfreev (events);
  /* A ladder's labels, on the pads the launch line requested: the
   * element's messages, summaries and windows carry them. */
  for (guint i = 0; config->labels && config->labels[i]; i++) {
    g_autofree gchar *name = monitor_channel_config_pad_name (i);
    GstPad *pad = gst_element_get_static_pad (compare, name);

    if (pad) {
      g_object_set (pad, "label", config->labels[i], NULL);
      gst_object_unref (pad);
    }
  }
  gst_object_unref (compare);
  return pipeline;
}
