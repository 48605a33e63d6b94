/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "monitor-channel.h"
#include "monitor-launch.h"
#include "monitor-state.h"

#include <math.h>
#include <string.h>

struct _MonitorChannel
{
  MonitorChannelConfig *config; /* borrowed */
  MonitorDevices *devices;      /* borrowed */

  /* Main context only. */
  MonitorStateQueue *states;    /* the pipelines' state changes */
  GstElement *pipeline;
  GstElement *compare;
  guint bus_watch;
  guint restart_source;
  guint watchdog_source;
  guint failures_in_row;        /* for the back-off */
  gboolean restart_after_eos;   /* the pending restart follows an end */
  gint64 run_started_us;        /* monotonic */

  /* Under lock: written by the main context and, for the latest frame, by
   * the element's scoring threads through the bus sync handler. */
  GMutex lock;
  MonitorChannelState state;
  guint64 restarts;             /* after failures */
  guint64 eos_restarts;         /* after ends of stream (restart-on-eos) */
  MonitorFrameCounts past;      /* finished runs */
  GstStructure *last_stats;     /* the last finished run with frames */
  gboolean fell_back;           /* the current run went over to the CPU */
  gboolean last_fell_back;      /* the run of last_stats did */
  guint64 fallbacks;            /* runs that went over to the CPU */
  guint64 lag_warnings;         /* the element's "behind real time" */
  /* The last "vmaf" message, kept whole: its structure is the latest
   * frame's values, without a copy a frame. */
  GstMessage *latest;
  gdouble latest_time;
  gint64 latest_us;             /* monotonic */
  MonitorScores *scores;        /* over every run */
  MonitorEvents *events;        /* over every run */
  gboolean has_lag;             /* of the current run */
  gdouble lag;
  gint align_locked;            /* of the current run; -1: unknown */
  GHashTable *windows;          /* pad name -> its last vmaf-window */
  GPtrArray *renditions;        /* a ladder: Rendition*; else NULL */
};

/* A ladder's distorted pad: its own latest frame and statistics. */
typedef struct
{
  gchar *pad;
  gchar *label;
  GstStructure *latest;
  gdouble latest_time;
  MonitorFrameCounts past;      /* finished runs */
  MonitorScores *scores;        /* over every run */
} Rendition;

static void
rendition_free (Rendition * r)
{
  g_free (r->pad);
  g_free (r->label);
  if (r->latest)
    gst_structure_free (r->latest);
  monitor_scores_free (r->scores);
  g_free (r);
}

static GPtrArray *
renditions_new (const MonitorChannelConfig * config)
{
  GPtrArray *out;

  if (!monitor_channel_config_is_ladder (config))
    return NULL;
  out = g_ptr_array_new_with_free_func ((GDestroyNotify) rendition_free);
  for (guint i = 0; config->inputs[i]; i++) {
    Rendition *r = g_new0 (Rendition, 1);

    r->pad = monitor_channel_config_pad_name (i);
    r->label = g_strdup (config->labels ? config->labels[i] : r->pad);
    r->scores = monitor_scores_new (config);
    g_ptr_array_add (out, r);
  }
  return out;
}

/* The rendition a "vmaf" message is about (its "pad"), or NULL. */
static Rendition *
rendition_of (GPtrArray * renditions, const GstStructure * frame)
{
  const gchar *pad = gst_structure_get_string (frame, "pad");

  for (guint i = 0; renditions && pad && i < renditions->len; i++) {
    Rendition *r = g_ptr_array_index (renditions, i);

    if (!strcmp (r->pad, pad))
      return r;
  }
  return NULL;
}

static const gchar *const state_names[] = {
  "stopped", "starting", "playing", "restarting", "ended"
};

const gchar *
monitor_channel_state_name (MonitorChannelState state)
{
  return state < MONITOR_CHANNEL_N_STATES ? state_names[state] : "unknown";
}

MonitorChannel *
monitor_channel_new (const MonitorChannelConfig * config,
    MonitorDevices * devices)
{
  MonitorChannel *ch = g_new0 (MonitorChannel, 1);

  ch->config = (MonitorChannelConfig *) config;
  ch->devices = devices;
  ch->scores = monitor_scores_new (config);
  ch->renditions = renditions_new (config);
  ch->events = monitor_events_new ();
  ch->states = monitor_state_queue_new ();
  ch->align_locked = -1;
  ch->windows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      (GDestroyNotify) gst_structure_free);
  g_mutex_init (&ch->lock);
  return ch;
}

const MonitorChannelConfig *
monitor_channel_get_config (MonitorChannel * channel)
{
  return channel->config;
}

static void
set_state (MonitorChannel * ch, MonitorChannelState state)
{
  g_mutex_lock (&ch->lock);
  ch->state = state;
  g_mutex_unlock (&ch->lock);
}

static MonitorChannelState
get_state (MonitorChannel * ch)
{
  MonitorChannelState state;

  g_mutex_lock (&ch->lock);
  state = ch->state;
  g_mutex_unlock (&ch->lock);
  return state;
}

/* The error's message, and what the element that posted it reads when the
 * message does not say ("Resource not found." alone names nothing). */
static gchar *
error_text (GstMessage * msg, const GError * err)
{
  GstObject *src = GST_MESSAGE_SRC (msg);
  gchar *input = GST_IS_ELEMENT (src) ? monitor_launch_element_input (GST_ELEMENT (src)) :
      NULL;
  gchar *text;

  if (input && !strstr (err->message, input))
    text = g_strdup_printf ("%s (%s)", err->message, input);
  else
    text = g_strdup (err->message);
  g_free (input);
  return text;
}

/* ---------------------------------------------------------------------- */
/* Runs                                                                    */

static void start_run (MonitorChannel * ch);

static guint64
stats_count (const GstStructure * s, const gchar * field)
{
  guint64 n = 0;

  if (s)
    gst_structure_get_uint64 (s, field, &n);
  return n;
}

/* Adds the frames counted in @stats (NULL: none) to @counts. */
static void
frame_counts_add (MonitorFrameCounts * counts, const GstStructure * stats)
{
  counts->scored += stats_count (stats, "scored");
  counts->skipped += stats_count (stats, "skipped");
  counts->unpaired_reference += stats_count (stats, "unpaired-reference");
  counts->unpaired_distorted += stats_count (stats, "unpaired-distorted");
  counts->dropped_reference += stats_count (stats, "dropped-reference");
  counts->dropped_distorted += stats_count (stats, "dropped-distorted");
}

/* A ladder's rendition in the element's stats: the entry of its
 * "renditions" whose "pad" is @pad, or NULL. */
static const GstStructure *
rendition_stats (const GstStructure * stats, const gchar * pad)
{
  const GValue *list = stats ? gst_structure_get_value (stats,
      "renditions") : NULL;

  for (guint k = 0; list && GST_VALUE_HOLDS_ARRAY (list) &&
      k < gst_value_array_get_size (list); k++) {
    const GValue *v = gst_value_array_get_value (list, k);
    const GstStructure *one = GST_VALUE_HOLDS_STRUCTURE (v) ?
        gst_value_get_structure (v) : NULL;

    if (one && !g_strcmp0 (gst_structure_get_string (one, "pad"), pad))
      return one;
  }
  return NULL;
}

/* The running element's stats, or NULL. */
static GstStructure *
current_stats (MonitorChannel * ch)
{
  GstStructure *s = NULL;

  if (ch->compare)
    g_object_get (ch->compare, "stats", &s, NULL);
  return s;
}

/* Keeps what the run counted, then takes its pipeline down (on the state
 * queue: its streaming threads may take a while to stop). Frames still in
 * flight when a run fails are lost with it. Returns the frames the run
 * scored. */
static guint64
finish_run (MonitorChannel * ch)
{
  GstStructure *stats = current_stats (ch);
  guint64 run_scored = stats_count (stats, "scored");
  GstBus *bus;

  g_mutex_lock (&ch->lock);
  if (stats) {
    frame_counts_add (&ch->past, stats);
    for (guint i = 0; ch->renditions && i < ch->renditions->len; i++) {
      Rendition *r = g_ptr_array_index (ch->renditions, i);

      frame_counts_add (&r->past, rendition_stats (stats, r->pad));
    }
    if (stats_count (stats, "scored") > 0) {
      if (ch->last_stats)
        gst_structure_free (ch->last_stats);
      ch->last_stats = g_steal_pointer (&stats);
      ch->last_fell_back = ch->fell_back;
    }
  }
  monitor_events_end_run (ch->events);
  g_mutex_unlock (&ch->lock);
  if (stats)
    gst_structure_free (stats);

  if (!ch->pipeline)
    return run_scored;
  bus = gst_element_get_bus (ch->pipeline);
  /* A message posted meanwhile may still reach the sync handler, which
   * only reads what stays valid (the channel, its element until then). */
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  if (ch->bus_watch)
    gst_bus_remove_watch (bus);
  ch->bus_watch = 0;
  gst_object_unref (bus);
  monitor_state_queue_set (ch->states, ch->pipeline, GST_STATE_NULL);
  gst_clear_object (&ch->compare);
  gst_clear_object (&ch->pipeline);
  return run_scored;
}

static gboolean
on_restart (gpointer user_data)
{
  MonitorChannel *ch = user_data;

  ch->restart_source = 0;
  g_mutex_lock (&ch->lock);
  if (ch->restart_after_eos)
    ch->eos_restarts++;
  else
    ch->restarts++;
  g_mutex_unlock (&ch->lock);
  if (ch->restart_after_eos)
    g_message ("channel %s: restarting after its end (%" G_GUINT64_FORMAT
        " so far)", ch->config->name, ch->eos_restarts);
  else
    g_message ("channel %s: restarting (restart %" G_GUINT64_FORMAT ")",
        ch->config->name, ch->restarts);
  ch->restart_after_eos = FALSE;
  start_run (ch);
  return G_SOURCE_REMOVE;
}

/* Exponential back-off: restart-delay, doubled for every failure in a row,
 * at most restart-delay-max. A run that lasted restart-delay-max counts as
 * a success, so the next failure starts over from restart-delay. */
static void
schedule_restart (MonitorChannel * ch, const gchar * why)
{
  const MonitorChannelConfig *c = ch->config;
  gdouble lasted = ch->run_started_us ?
      (g_get_monotonic_time () - ch->run_started_us) / 1e6 : 0;
  gdouble delay;

  if (lasted >= c->restart_delay_max)
    ch->failures_in_row = 0;
  delay = c->restart_delay * pow (2.0, MIN (ch->failures_in_row, 30));
  delay = MIN (delay, c->restart_delay_max);
  ch->failures_in_row++;
  set_state (ch, MONITOR_CHANNEL_RESTARTING);
  g_message ("channel %s: %s; restart in %.3g s (failure %u in a row)",
      c->name, why, delay, ch->failures_in_row);
  ch->restart_source = g_timeout_add ((guint) (delay * 1000), on_restart, ch);
}

static void
fail_run (MonitorChannel * ch, const gchar * why)
{
  finish_run (ch);
  schedule_restart (ch, why);
}

/* An end of stream is no failure: with restart-on-eos (a looped file, a
 * live source that hangs up) the channel starts again at once, without
 * back-off. A run that ended before scoring any frame (an empty file, a
 * source that ends at once) is a failure, or it would restart in a tight
 * loop. */
static void
end_run (MonitorChannel * ch)
{
  guint64 run_scored = finish_run (ch);

  if (ch->config->restart_on_eos && run_scored == 0) {
    schedule_restart (ch, "end of stream before any frame was scored");
  } else if (ch->config->restart_on_eos) {
    g_message ("channel %s: end of stream after %" G_GUINT64_FORMAT
        " frames; restarting", ch->config->name, run_scored);
    ch->failures_in_row = 0;
    ch->restart_after_eos = TRUE;
    set_state (ch, MONITOR_CHANNEL_RESTARTING);
    ch->restart_source = g_idle_add (on_restart, ch);
  } else {
    g_message ("channel %s: end of stream", ch->config->name);
    set_state (ch, MONITOR_CHANNEL_ENDED);
  }
}

/* A time in nanoseconds of @s, whatever integer type the element gives it
 * (a double is taken as nanoseconds too). */
static gboolean
field_ns (const GstStructure * s, const gchar * field, gint64 * ns)
{
  const GValue *v = gst_structure_get_value (s, field);

  if (!v)
    return FALSE;
  if (G_VALUE_HOLDS_UINT64 (v))
    *ns = (gint64) MIN (g_value_get_uint64 (v), (guint64) G_MAXINT64);
  else if (G_VALUE_HOLDS_INT64 (v))
    *ns = g_value_get_int64 (v);
  else if (G_VALUE_HOLDS_INT (v))
    *ns = g_value_get_int (v);
  else if (G_VALUE_HOLDS_UINT (v))
    *ns = g_value_get_uint (v);
  else if (G_VALUE_HOLDS_DOUBLE (v) && isfinite (g_value_get_double (v)))
    *ns = (gint64) g_value_get_double (v);
  else
    return FALSE;
  return TRUE;
}

/* Without the element's own "lag": how far the pipeline clock's running
 * time is past the frame's, when it is scored. A file scored faster than
 * real time is ahead, never behind: 0. */
static gboolean
clock_lag (GstElement * compare, const GstStructure * frame, gint64 * ns)
{
  GstClock *clock = gst_element_get_clock (compare);
  guint64 frame_time;
  GstClockTime now;

  if (!clock)
    return FALSE;
  now = gst_clock_get_time (clock);
  gst_object_unref (clock);
  if (!gst_structure_get_uint64 (frame, "running-time", &frame_time) ||
      !GST_CLOCK_TIME_IS_VALID (frame_time) || !GST_CLOCK_TIME_IS_VALID (now))
    return FALSE;
  now = GST_CLOCK_DIFF (gst_element_get_base_time (compare), now);
  *ns = MAX ((gint64) now - (gint64) frame_time, 0);
  return TRUE;
}

/* Whether @msg comes from the channel's vmafhipcompare (named "compare" in
 * every pipeline it builds). Any thread: a message of a run being taken
 * down may come while the main context clears ch->compare. */
static gboolean
from_compare (GstMessage * msg)
{
  GstObject *src = GST_MESSAGE_SRC (msg);

  return src && GST_IS_ELEMENT (src) &&
      !g_strcmp0 (GST_OBJECT_NAME (src), "compare");
}

/* Any thread: the per-frame values, and the GPU shared between channels,
 * handled where they are posted; everything else goes to on_bus_message. */
static GstBusSyncReply
on_sync_message (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  MonitorChannel *ch = user_data;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT &&
      from_compare (msg) && gst_message_has_name (msg, "vmaf")) {
    const GstStructure *latest = gst_message_get_structure (msg);
    gint64 now_us = g_get_monotonic_time ();
    gint64 lag_ns;
    gboolean has_lag = field_ns (latest, "lag", &lag_ns) ||
        clock_lag (GST_ELEMENT (GST_MESSAGE_SRC (msg)), latest, &lag_ns);

    g_mutex_lock (&ch->lock);
    /* The dropped message is the handler's: kept as the latest. */
    gst_message_take (&ch->latest, msg);
    ch->latest_time = g_get_real_time () / 1e6;
    ch->latest_us = now_us;
    if (ch->renditions) {
      /* a ladder: each rendition's values apart, never mixed */
      Rendition *r = rendition_of (ch->renditions, latest);

      if (r) {
        if (r->latest)
          gst_structure_free (r->latest);
        r->latest = gst_structure_copy (latest);
        r->latest_time = ch->latest_time;
        monitor_scores_add_frame (r->scores, latest, now_us);
      }
    } else {
      monitor_scores_add_frame (ch->scores, latest, now_us);
    }
    ch->has_lag = has_lag;
    ch->lag = has_lag ? lag_ns / 1e9 : 0;
    g_mutex_unlock (&ch->lock);
    return GST_BUS_DROP;
  }
  if (monitor_devices_handle_message (ch->devices, msg, ch->config->device)) {
    gst_message_unref (msg);
    return GST_BUS_DROP;
  }
  return GST_BUS_PASS;
}

/* backend=auto: the element's warning that the GPU failed and scoring goes
 * on on the CPU. Its details (when it gives them) say "backend" = "cpu";
 * without details, the warning's own text says it. */
static gboolean
is_cpu_fallback (GstMessage * msg, const GError * err)
{
  const GstStructure *details = NULL;
  const gchar *backend;

  gst_message_parse_warning_details (msg, &details);
  backend = details ? gst_structure_get_string (details, "backend") : NULL;
  if (backend)
    return strcmp (backend, "cpu") == 0;
  return g_error_matches (err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED)
      && g_str_has_prefix (err->message, "Scoring goes on on the CPU");
}

/* The element's events (black, frozen, low score: counted and logged)
 * and its alignment's lock (align = content). */
static void
on_element_message (MonitorChannel * ch, const GstStructure * s)
{
  if (gst_structure_has_name (s, "vmaf-event")) {
    gboolean counted;
    const gchar *state = gst_structure_get_string (s, "state");
    guint64 start = GST_CLOCK_TIME_NONE, duration = GST_CLOCK_TIME_NONE;

    g_mutex_lock (&ch->lock);
    counted = monitor_events_add (ch->events, s);
    g_mutex_unlock (&ch->lock);
    if (!counted)
      return;
    gst_structure_get_uint64 (s, "start", &start);
    gst_structure_get_uint64 (s, "duration", &duration);
    if (!g_strcmp0 (state, "end"))
      g_message ("channel %s: %s on %s ended: %.3f s from %" GST_TIME_FORMAT,
          ch->config->name, gst_structure_get_string (s, "type"),
          GST_STR_NULL (gst_structure_get_string (s, "input")),
          GST_CLOCK_TIME_IS_VALID (duration) ? duration / 1e9 : 0.0,
          GST_TIME_ARGS (start));
    else
      g_message ("channel %s: %s on %s from %" GST_TIME_FORMAT,
          ch->config->name, gst_structure_get_string (s, "type"),
          GST_STR_NULL (gst_structure_get_string (s, "input")),
          GST_TIME_ARGS (start));
  } else if (gst_structure_has_name (s, "vmaf-window")) {
    const gchar *pad = gst_structure_get_string (s, "pad");

    if (pad && !g_utf8_validate (pad, -1, NULL))
      return;
    g_mutex_lock (&ch->lock);
    g_hash_table_replace (ch->windows, g_strdup (pad ? pad : ""),
        gst_structure_copy (s));
    g_mutex_unlock (&ch->lock);
  } else if (gst_structure_has_name (s, "vmaf-align")) {
    gboolean locked;
    const gchar *state = gst_structure_get_string (s, "state");
    gint value = -1;

    if (gst_structure_get_boolean (s, "locked", &locked))
      value = locked;
    else if (state)
      value = !strcmp (state, "locked") || !strcmp (state, "changed");
    g_mutex_lock (&ch->lock);
    if (value >= 0)
      ch->align_locked = value;
    g_mutex_unlock (&ch->lock);
  }
}

/* The element's warning that scoring fell behind real time (once an
 * episode): its details carry the "lag". */
static gboolean
is_lag_warning (GstMessage * msg)
{
  const GstStructure *details = NULL;

  gst_message_parse_warning_details (msg, &details);
  return details && gst_structure_has_field (details, "lag");
}

static gboolean
on_bus_message (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  MonitorChannel *ch = user_data;
  const gchar *name = ch->config->name;
  GError *err = NULL;
  gchar *debug = NULL;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:{
      gchar *why, *text;

      gst_message_parse_error (msg, &err, &debug);
      text = error_text (msg, err);
      g_warning ("channel %s: error from %s: %s (%s)", name,
          GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), text,
          debug ? debug : "no details");
      why = g_strdup_printf ("%s (%s)", get_state (ch) ==
          MONITOR_CHANNEL_STARTING ? "could not start" : "failed", text);
      g_free (text);
      /* Removes this watch: no more messages of this run come here. */
      fail_run (ch, why);
      g_free (why);
      break;
    }
    case GST_MESSAGE_WARNING:
      gst_message_parse_warning (msg, &err, &debug);
      g_message ("channel %s: warning from %s: %s", name,
          GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message);
      if (GST_MESSAGE_SRC (msg) == GST_OBJECT (ch->compare) &&
          is_lag_warning (msg)) {
        g_mutex_lock (&ch->lock);
        ch->lag_warnings++;
        g_mutex_unlock (&ch->lock);
      }
      if (GST_MESSAGE_SRC (msg) == GST_OBJECT (ch->compare) &&
          is_cpu_fallback (msg, err)) {
        g_mutex_lock (&ch->lock);
        /* One a run, however many warnings say it. */
        if (!ch->fell_back)
          ch->fallbacks++;
        ch->fell_back = TRUE;
        g_mutex_unlock (&ch->lock);
      }
      break;
    case GST_MESSAGE_EOS:
      end_run (ch);
      break;
    case GST_MESSAGE_APPLICATION:
      /* the change to PLAYING failed without an error saying why */
      if (gst_message_has_name (msg, MONITOR_STATE_START_FAILED))
        fail_run (ch, "could not start");
      break;
    case GST_MESSAGE_ELEMENT:
      if (GST_MESSAGE_SRC (msg) == GST_OBJECT (ch->compare))
        on_element_message (ch, gst_message_get_structure (msg));
      break;
    case GST_MESSAGE_STATE_CHANGED:{
      GstState old, new;

      if (GST_MESSAGE_SRC (msg) != GST_OBJECT (ch->pipeline))
        break;
      gst_message_parse_state_changed (msg, &old, &new, NULL);
      if (new == GST_STATE_PLAYING && old != GST_STATE_PLAYING) {
        g_message ("channel %s: playing", name);
        set_state (ch, MONITOR_CHANNEL_PLAYING);
      }
      break;
    }
    default:
      break;
  }
  g_clear_error (&err);
  g_free (debug);
  return G_SOURCE_CONTINUE;
}

static void
start_run (MonitorChannel * ch)
{
  GError *err = NULL;
  GstBus *bus;

  ch->run_started_us = g_get_monotonic_time ();
  g_mutex_lock (&ch->lock);
  ch->fell_back = FALSE;
  ch->has_lag = FALSE;
  ch->align_locked = -1;
  g_mutex_unlock (&ch->lock);
  ch->pipeline = monitor_channel_build (ch->config, &err);
  if (!ch->pipeline) {
    gchar *why = g_strdup_printf ("could not build the pipeline (%s)",
        err->message);

    g_warning ("channel %s: %s", ch->config->name, why);
    schedule_restart (ch, why);
    g_free (why);
    g_error_free (err);
    return;
  }
  ch->compare = gst_bin_get_by_name (GST_BIN (ch->pipeline), "compare");
  bus = gst_element_get_bus (ch->pipeline);
  gst_bus_set_sync_handler (bus, on_sync_message, ch, NULL);
  ch->bus_watch = gst_bus_add_watch (bus, on_bus_message, ch);
  set_state (ch, MONITOR_CHANNEL_STARTING);
  gst_object_unref (bus);
  /* Its errors come to on_bus_message: "could not start" while the
   * channel is starting. */
  monitor_state_queue_set (ch->states, ch->pipeline, GST_STATE_PLAYING);
}

/* Once a second: a run that scores nothing for stall-timeout is stuck
 * (a live source that went quiet without an error). */
static gboolean
on_watchdog (gpointer user_data)
{
  MonitorChannel *ch = user_data;
  gdouble timeout = ch->config->stall_timeout;
  gint64 last;
  gdouble quiet;

  if (timeout <= 0 || !ch->pipeline)
    return G_SOURCE_CONTINUE;
  g_mutex_lock (&ch->lock);
  last = MAX (ch->latest_us, ch->run_started_us);
  g_mutex_unlock (&ch->lock);
  quiet = (g_get_monotonic_time () - last) / 1e6;
  if (quiet >= timeout) {
    gchar *why = g_strdup_printf ("no frame scored for %.0f s", quiet);

    g_warning ("channel %s: %s", ch->config->name, why);
    fail_run (ch, why);
    g_free (why);
  }
  return G_SOURCE_CONTINUE;
}

void
monitor_channel_start (MonitorChannel * channel)
{
  g_return_if_fail (channel->pipeline == NULL);
  if (!channel->watchdog_source)
    channel->watchdog_source = g_timeout_add_seconds (1, on_watchdog, channel);
  start_run (channel);
}

void
monitor_channel_stop (MonitorChannel * channel)
{
  if (channel->restart_source)
    g_source_remove (channel->restart_source);
  channel->restart_source = 0;
  channel->restart_after_eos = FALSE;
  if (channel->watchdog_source)
    g_source_remove (channel->watchdog_source);
  channel->watchdog_source = 0;
  finish_run (channel);
  set_state (channel, MONITOR_CHANNEL_STOPPED);
}

void
monitor_channel_free (MonitorChannel * channel)
{
  if (!channel)
    return;
  monitor_channel_stop (channel);
  /* its last pipeline down: nothing calls the bus handlers any more */
  monitor_state_queue_free (channel->states);
  if (channel->last_stats)
    gst_structure_free (channel->last_stats);
  gst_clear_message (&channel->latest);
  monitor_scores_free (channel->scores);
  g_clear_pointer (&channel->renditions, g_ptr_array_unref);
  monitor_events_free (channel->events);
  g_hash_table_unref (channel->windows);
  g_mutex_clear (&channel->lock);
  g_free (channel);
}

/* ---------------------------------------------------------------------- */
/* Snapshot                                                                */

/* The element's dispatch ("adm: hip, vif: hip, cambi: cpu"), with every
 * feature on the CPU once the run fell back to it: the element's stats
 * may go on saying where the run started. */
static gchar *
dispatch_now (const gchar * dispatch, gboolean fell_back)
{
  GString *out;
  gchar **entries;

  if (!dispatch)
    return NULL;
  if (!fell_back)
    return g_strdup (dispatch);
  out = g_string_new (NULL);
  entries = g_strsplit (dispatch, ",", -1);
  for (guint i = 0; entries[i]; i++) {
    gchar **kv = g_strsplit (entries[i], ":", 2);

    if (kv[0] && kv[1])
      g_string_append_printf (out, "%s%s: %s", out->len ? ", " : "",
          g_strstrip (kv[0]), strcmp (g_strstrip (kv[1]), "hip") == 0 ?
          "cpu" : kv[1]);
    g_strfreev (kv);
  }
  g_strfreev (entries);
  return g_string_free (out, FALSE);
}

static void
rendition_snapshot_free (MonitorRenditionSnapshot * r)
{
  g_free (r->pad);
  g_free (r->label);
  if (r->latest)
    gst_structure_free (r->latest);
  g_ptr_array_unref (r->scores);
  if (r->pooled)
    gst_structure_free (r->pooled);
  g_free (r);
}

/* Each rendition's own stats, from the element's "renditions" (one per
 * distorted pad, matched by "pad"). */
static void
renditions_pooled (GPtrArray * renditions, const GstStructure * pooled)
{
  for (guint i = 0; renditions && i < renditions->len; i++) {
    MonitorRenditionSnapshot *r = g_ptr_array_index (renditions, i);
    const GstStructure *one = rendition_stats (pooled, r->pad);

    if (one)
      r->pooled = gst_structure_copy (one);
  }
}

/* Under the channel's lock; @now: the running element's stats, or NULL. */
static GPtrArray *
renditions_snapshot (GPtrArray * renditions, const GstStructure * now,
    gint64 now_us)
{
  GPtrArray *out;

  if (!renditions)
    return NULL;
  out = g_ptr_array_new_with_free_func ((GDestroyNotify)
      rendition_snapshot_free);
  for (guint i = 0; i < renditions->len; i++) {
    Rendition *r = g_ptr_array_index (renditions, i);
    MonitorRenditionSnapshot *s = g_new0 (MonitorRenditionSnapshot, 1);

    s->pad = g_strdup (r->pad);
    s->label = g_strdup (r->label);
    s->latest = r->latest ? gst_structure_copy (r->latest) : NULL;
    s->latest_time = r->latest_time;
    s->frames = r->past;
    frame_counts_add (&s->frames, rendition_stats (now, r->pad));
    s->scores = monitor_scores_snapshot (r->scores, now_us);
    g_ptr_array_add (out, s);
  }
  return out;
}

void
monitor_channel_snapshot (MonitorChannel * channel,
    MonitorChannelSnapshot * snap)
{
  GstStructure *now = current_stats (channel);
  gboolean fell_back = FALSE;

  memset (snap, 0, sizeof (*snap));
  g_mutex_lock (&channel->lock);
  snap->state = channel->state;
  snap->restarts = channel->restarts;
  snap->eos_restarts = channel->eos_restarts;
  snap->cpu_fallbacks = channel->fallbacks;
  snap->frames = channel->past;
  frame_counts_add (&snap->frames, now);
  snap->latest = channel->latest ?
      gst_structure_copy (gst_message_get_structure (channel->latest)) : NULL;
  snap->latest_time = channel->latest_time;
  snap->scores = monitor_scores_snapshot (channel->scores,
      g_get_monotonic_time ());
  snap->renditions = renditions_snapshot (channel->renditions, now,
      g_get_monotonic_time ());
  snap->events = monitor_events_snapshot (channel->events);
  snap->lag_warnings = channel->lag_warnings;
  snap->has_lag = channel->has_lag;
  snap->lag = channel->lag;
  snap->align_locked = channel->align_locked;
  snap->windows = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_structure_free);
  {
    GHashTableIter iter;
    gpointer window;

    g_hash_table_iter_init (&iter, channel->windows);
    while (g_hash_table_iter_next (&iter, NULL, &window))
      g_ptr_array_add (snap->windows, gst_structure_copy (window));
  }
  if (snap->latest) {
    gint64 ns;

    snap->has_offset = field_ns (snap->latest, "align-offset", &ns);
    snap->offset = snap->has_offset ? ns / 1e9 : 0;
    snap->has_offset_frames = field_ns (snap->latest, "align-offset-frames",
        &snap->offset_frames);
  }
  if (stats_count (now, "scored") > 0) {
    snap->pooled = g_steal_pointer (&now);
    fell_back = channel->fell_back;
  } else if (channel->last_stats) {
    snap->pooled = gst_structure_copy (channel->last_stats);
    fell_back = channel->last_fell_back;
  }
  g_mutex_unlock (&channel->lock);
  renditions_pooled (snap->renditions, snap->pooled);
  if (snap->pooled)
    snap->dispatch = dispatch_now (gst_structure_get_string (snap->pooled,
            "dispatch"), fell_back);
  if (now)
    gst_structure_free (now);
}

void
monitor_channel_snapshot_clear (MonitorChannelSnapshot * snap)
{
  g_clear_pointer (&snap->latest, gst_structure_free);
  g_clear_pointer (&snap->pooled, gst_structure_free);
  g_clear_pointer (&snap->dispatch, g_free);
  g_clear_pointer (&snap->scores, g_ptr_array_unref);
  g_clear_pointer (&snap->renditions, g_ptr_array_unref);
  g_clear_pointer (&snap->events, g_ptr_array_unref);
  g_clear_pointer (&snap->windows, g_ptr_array_unref);
}
