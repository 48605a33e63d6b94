/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "monitor-events.h"

#include <string.h>

struct _MonitorEvents
{
  GPtrArray *counts;            /* MonitorEventCount* */
};

/* Shown at 0 from the start, so that increase() and rate() see the first
 * event as a change. A low score is the distorted input's. */
static const struct
{
  const gchar *type, *input;
} known[] = {
  {"black", "reference"}, {"black", "distorted"},
  {"freeze", "reference"}, {"freeze", "distorted"},
  {"low-score", "distorted"},
};

/* The pad of an input when the event does not say. */
static const gchar *
input_pad (const gchar * input)
{
  return !strcmp (input, "reference") ? "ref_sink" : "dist_sink";
}

static void
count_free (MonitorEventCount * c)
{
  g_free (c->type);
  g_free (c->input);
  g_free (c->pad);
  g_free (c);
}

static MonitorEventCount *
find_count (MonitorEvents * events, const gchar * type, const gchar * input,
    const gchar * pad)
{
  MonitorEventCount *c;

  for (guint i = 0; i < events->counts->len; i++) {
    c = g_ptr_array_index (events->counts, i);
    if (!strcmp (c->type, type) && !strcmp (c->input, input) &&
        !strcmp (c->pad, pad))
      return c;
  }
  c = g_new0 (MonitorEventCount, 1);
  c->type = g_strdup (type);
  c->input = g_strdup (input);
  c->pad = g_strdup (pad);
  g_ptr_array_add (events->counts, c);
  return c;
}

MonitorEvents *
monitor_events_new (void)
{
  MonitorEvents *events = g_new0 (MonitorEvents, 1);

  events->counts = g_ptr_array_new_with_free_func ((GDestroyNotify)
      count_free);
  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    find_count (events, known[i].type, known[i].input,
        input_pad (known[i].input));
  return events;
}

void
monitor_events_free (MonitorEvents * events)
{
  if (!events)
    return;
  g_ptr_array_unref (events->counts);
  g_free (events);
}

gboolean
monitor_events_add (MonitorEvents * events, const GstStructure * event)
{
  const gchar *type = gst_structure_get_string (event, "type");
  const gchar *state = gst_structure_get_string (event, "state");
  const gchar *input = gst_structure_get_string (event, "input");
  const gchar *pad = gst_structure_get_string (event, "pad");
  MonitorEventCount *c;
  guint64 duration;

  if (!type || !state || !g_utf8_validate (type, -1, NULL) ||
      (input && !g_utf8_validate (input, -1, NULL)) ||
      (pad && !g_utf8_validate (pad, -1, NULL)))
    return FALSE;
  if (!input)
    input = "distorted";
  c = find_count (events, type, input, pad ? pad : input_pad (input));
  if (!strcmp (state, "start")) {
    c->count++;
    c->active = TRUE;
  } else if (!strcmp (state, "end")) {
    /* An end whose start this service did not see (it began before a
     * reload, say) is still one event. */
    if (!c->active)
      c->count++;
    c->active = FALSE;
    if (gst_structure_get_uint64 (event, "duration", &duration))
      c->seconds += duration / 1e9;
  } else {
    return FALSE;
  }
  return TRUE;
}

void
monitor_events_end_run (MonitorEvents * events)
{
  for (guint i = 0; i < events->counts->len; i++)
    ((MonitorEventCount *) g_ptr_array_index (events->counts, i))->active =
        FALSE;
}

GPtrArray *
monitor_events_snapshot (MonitorEvents * events)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify)
      count_free);

  for (guint i = 0; i < events->counts->len; i++) {
    MonitorEventCount *c = g_ptr_array_index (events->counts, i);
    MonitorEventCount *copy = g_memdup2 (c, sizeof (*c));

    copy->type = g_strdup (c->type);
    copy->input = g_strdup (c->input);
    copy->pad = g_strdup (c->pad);
    g_ptr_array_add (out, copy);
  }
  return out;
}
