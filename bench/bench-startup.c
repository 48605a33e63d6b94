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
 *   bench/bench-startup [--since $(date +%s%N)] [--runs N] PIPELINE-DESCRIPTION
 *
 * With --runs N the same description is built and run N times in the
 * process, one after another, as an application or a service starts
 * another pipeline; each later run prints its own line, "run K:" and the
 * same steps from "built" on, in milliseconds since that run began (the
 * GPU may still be open: what a second pipeline pays).
 */

#include <gst/gst.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static gint64 since_ns;
static gint64 run_start_ns;

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
      step, (now - run_start_ns) / 1e6);
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

/* Builds the pipeline, runs it to EOS and frees it, stamping each step
 * into tl's line; FALSE on any failure. */
static gboolean
build_and_run (TimeLine * tl, const gchar ** description)
{
  GError *err = NULL;
  gboolean ok;

  tl->scored = FALSE;
  tl->pipeline = gst_parse_launchv (description, &err);
  if (!tl->pipeline) {
    g_printerr ("cannot build the pipeline: %s\n", err->message);
    g_error_free (err);
    return FALSE;
  }
  g_clear_error (&err);         /* a warning with a pipeline still made */
  stamp (tl, "built");

  ok = run_to_eos (tl);
  gst_element_set_state (tl->pipeline, GST_STATE_NULL);
  gst_clear_object (&tl->pipeline);
  stamp (tl, "null");
  return ok;
}

int
main (int argc, char **argv)
{
  TimeLine tl = { 0 };
  gboolean ok;
  int first = 1, runs = 1, run;

  since_ns = realtime_ns ();
  while (first + 1 < argc && g_str_has_prefix (argv[first], "--")) {
    if (strcmp (argv[first], "--since") == 0)
      since_ns = g_ascii_strtoll (argv[first + 1], NULL, 10);
    else if (strcmp (argv[first], "--runs") == 0)
      runs = MAX (1, atoi (argv[first + 1]));
    else
      break;
    first += 2;
  }
  if (first >= argc || g_str_has_prefix (argv[first], "--")) {
    g_printerr ("usage: %s [--since EPOCH-NS] [--runs N] "
        "PIPELINE-DESCRIPTION\n", argv[0]);
    return 2;
  }
  run_start_ns = since_ns;
  g_mutex_init (&tl.lock);
  tl.line = g_string_new (NULL);
  stamp (&tl, "main");
  gst_init (NULL, NULL);
  stamp (&tl, "init");

  ok = build_and_run (&tl, (const gchar **) argv + first);
  g_print ("%s\n", tl.line->str);
  for (run = 2; ok && run <= runs; run++) {
    run_start_ns = realtime_ns ();
    g_string_printf (tl.line, "run %d:", run);
    ok = build_and_run (&tl, (const gchar **) argv + first);
    g_print ("%s\n", tl.line->str);
  }
  g_string_free (tl.line, TRUE);
  g_mutex_clear (&tl.lock);
  return ok ? 0 : 1;
}
