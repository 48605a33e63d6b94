/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* Runs a launch line to its end of stream or its first error, printing
 * the errors and warnings as gst-launch-1.0 does; exit status 1 after an
 * error. For the tests that look for an element's error: gst-launch-1.0
 * (1.22 to at least 1.26) quits its main loop from the bus's sync handler,
 * and an error posted before that loop runs (a pipeline that fails as it
 * starts) is lost, the rest of the pipeline waiting for ever. Here the
 * bus is read directly: no message can come too early.
 *
 *   run-pipeline [-q] PIPELINE-DESCRIPTION... */

#include <gst/gst.h>

#include <stdio.h>
#include <string.h>

static void
print_message (GstMessage * msg, const gchar * what)
{
  GError *err = NULL;
  gchar *debug = NULL;
  gchar *path = gst_object_get_path_string (GST_MESSAGE_SRC (msg));

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    gst_message_parse_error (msg, &err, &debug);
  else
    gst_message_parse_warning (msg, &err, &debug);
  fprintf (stderr, "%s: from element %s: %s\n", what, path, err->message);
  if (debug)
    fprintf (stderr, "Additional debug info:\n%s\n", debug);
  g_error_free (err);
  g_free (debug);
  g_free (path);
}

int
main (int argc, char **argv)
{
  GError *error = NULL;
  GstElement *pipeline;
  GstBus *bus;
  gboolean failed = FALSE, done = FALSE;
  gint first = 1;

  gst_init (&argc, &argv);
  if (argc > 1 && !strcmp (argv[1], "-q"))
    first = 2;
  if (argc <= first) {
    fprintf (stderr, "usage: %s [-q] PIPELINE-DESCRIPTION...\n", argv[0]);
    return 2;
  }
  pipeline = gst_parse_launchv ((const gchar **) argv + first, &error);
  if (!pipeline || error) {
    fprintf (stderr, "ERROR: pipeline could not be constructed: %s.\n",
        error ? error->message : "unknown error");
    g_clear_error (&error);
    gst_clear_object (&pipeline);
    return 1;
  }
  bus = gst_element_get_bus (pipeline);
  /* A state change that fails posts its error: read below. */
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while (!done) {
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);

    switch (GST_MESSAGE_TYPE (msg)) {
      case GST_MESSAGE_ERROR:
        print_message (msg, "ERROR");
        failed = done = TRUE;
        break;
      case GST_MESSAGE_WARNING:
        print_message (msg, "WARNING");
        break;
      default:
        done = TRUE;
        break;
    }
    gst_message_unref (msg);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  gst_deinit ();
  return failed ? 1 : 0;
}
