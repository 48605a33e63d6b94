/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Start-up's time line: where a short pipeline's whole-process time goes.
 * It runs one pipeline description to EOS and prints, in milliseconds
 * since the given start (the caller's clock reading just before it
 * started this process; by default this process's main), when each step
 * ended:
 *
 *   main         the process reached main (exec and the loader)
 *   init         gst_init returned (the plugin registry read)
 *   built        the pipeline was parsed and its elements made
 *   ready        the pipeline reached READY
 *   paused       ... PAUSED (vmafhipcompare opens the GPU going there)
 *   playing      ... PLAYING
 *   first-score  the first per-frame message (frame-message=true)
 *   eos          EOS reached the bus
 *   null         the pipeline was set to NULL and freed (the element's
 *                stop: the GPU context released)
 *
 * What the process spends after "null" is its exit, which the caller
 * measures as the rest of its wall time. One line, "key value" pairs:
 *
 *   bench/bench-startup --since $(date +%s%N) PIPELINE-DESCRIPTION
 */

#include <gst/gst.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static gint64 since_ns;

static gint64
realtime_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_REALTIME, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

/* The time line, written by the thread that posts each message. */
typedef struct
{
  GMutex lock;
  GString *line;
  GstElement *pipeline;
  gboolean scored;
} TimeLine;

static void
stamp (TimeLine * tl, const gchar * step)
{
  gint64 now = realtime_ns ();

  g_mutex_lock (&tl->lock);
  g_string_append_printf (tl->line, "%s%s %.1f", tl->line->len ? " " : "",
      step, (now - since_ns) / 1e6);
  g_mutex_unlock (&tl->lock);
}

static const gchar *
state_step (GstState state)
{
  switch (state) {
    case GST_STATE_READY:
      return "ready";
    case GST_STATE_PAUSED:
      return "paused";
    case GST_STATE_PLAYING:
      return "playing";
    default:
      return NULL;
  }
}

/* Stamps each step as its message is posted, not when the main thread
 * gets to it (it is inside gst_element_set_state() meanwhile). */
static GstBusSyncReply
on_message (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  TimeLine *tl = user_data;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_STATE_CHANGED:
      if (GST_MESSAGE_SRC (msg) == GST_OBJECT (tl->pipeline)) {
        GstState new_state;

        gst_message_parse_state_changed (msg, NULL, &new_state, NULL);
        if (state_step (new_state))
          stamp (tl, state_step (new_state));
      }
      break;
    case GST_MESSAGE_ELEMENT:
      if (!tl->scored && gst_message_has_name (msg, "vmaf")) {
        tl->scored = TRUE;
        stamp (tl, "first-score");
      }
      break;
    case GST_MESSAGE_EOS:
      stamp (tl, "eos");
      break;
    default:
      break;
  }
  return GST_BUS_PASS;
}

/* Runs the pipeline to EOS; FALSE on an error or without a score. */
static gboolean
run_to_eos (TimeLine * tl)
{
  GstBus *bus = gst_element_get_bus (tl->pipeline);
  gboolean ok = FALSE, done = FALSE;

  gst_bus_set_sync_handler (bus, on_message, tl, NULL);
  /* A refused state change has posted its error: the loop prints it. */
  if (gst_element_set_state (tl->pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE)
    g_printerr ("the pipeline would not start\n");
  while (!done) {
    GstMessage *msg = gst_bus_timed_pop (bus, GST_SECOND);

    if (!msg) {
      GstState state;

      /* Nothing in a second: a failed start leaves no EOS to wait for. */
      if (gst_element_get_state (tl->pipeline, &state, NULL, 0) ==
          GST_STATE_CHANGE_FAILURE)
        break;
      continue;
    }
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS) {
      ok = done = TRUE;
    } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;
      gchar *debug = NULL;

      gst_message_parse_error (msg, &err, &debug);
      g_printerr ("error from %s: %s\n%s\n", GST_OBJECT_NAME (msg->src),
          err->message, debug ? debug : "");
      g_clear_error (&err);
      g_free (debug);
      done = TRUE;
    }
    gst_message_unref (msg);
  }
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  gst_object_unref (bus);
  if (ok && !tl->scored)
    g_printerr ("no \"vmaf\" message: is frame-message=true set?\n");
  return ok && tl->scored;
}

int
main (int argc, char **argv)
{
  TimeLine tl = { 0 };
  GError *err = NULL;
  gboolean ok;
  int first = 1;

  since_ns = realtime_ns ();
  if (argc > 2 && strcmp (argv[1], "--since") == 0) {
    since_ns = g_ascii_strtoll (argv[2], NULL, 10);
    first = 3;
  }
  if (first >= argc) {
    g_printerr ("usage: %s [--since EPOCH-NS] PIPELINE-DESCRIPTION\n",
        argv[0]);
    return 2;
  }
  g_mutex_init (&tl.lock);
  tl.line = g_string_new (NULL);
  stamp (&tl, "main");
  gst_init (NULL, NULL);
  stamp (&tl, "init");

  tl.pipeline = gst_parse_launchv ((const gchar **) argv + first, &err);
  if (!tl.pipeline) {
    g_printerr ("cannot build the pipeline: %s\n", err->message);
    g_error_free (err);
    g_string_free (tl.line, TRUE);
    return 1;
  }
  g_clear_error (&err);         /* a warning with a pipeline still made */
  stamp (&tl, "built");

  ok = run_to_eos (&tl);
  gst_element_set_state (tl.pipeline, GST_STATE_NULL);
  gst_object_unref (tl.pipeline);
  stamp (&tl, "null");

  g_print ("%s\n", tl.line->str);
  g_string_free (tl.line, TRUE);
  g_mutex_clear (&tl.lock);
  return ok ? 0 : 1;
}
