/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* --check: the files a pipeline reads open, and the element accepts the
 * channel's scoring settings. */

#include "monitor-channel.h"
#include "monitor-launch.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A file:// URI names a file that can be opened for reading (without
 * blocking on a FIFO); other URIs are not checked. */
static gboolean
check_file_uri (const gchar * uri, GError ** error)
{
  gchar *path;
  struct stat st;
  int fd;
  gboolean ok = TRUE;

  if (!gst_uri_has_protocol (uri, "file"))
    return TRUE;
  path = g_filename_from_uri (uri, NULL, NULL);
  if (!path)
    return TRUE;
  fd = g_open (path, O_RDONLY | O_NONBLOCK, 0);
  if (fd < 0) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "cannot open %s: %s", path, g_strerror (errno));
    ok = FALSE;
  } else {
    if (fstat (fd, &st) == 0 && S_ISDIR (st.st_mode)) {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_ISDIR,
          "cannot read %s: it is a directory", path);
      ok = FALSE;
    }
    close (fd);
  }
  g_free (path);
  return ok;
}

gboolean
monitor_channel_check_inputs (GstElement * pipeline, GError ** error)
{
  GstIterator *it = gst_bin_iterate_recurse (GST_BIN (pipeline));
  GValue item = G_VALUE_INIT;
  gboolean ok = TRUE, done = FALSE;

  while (ok && !done) {
    switch (gst_iterator_next (it, &item)) {
      case GST_ITERATOR_OK:{
        GstElement *element = g_value_get_object (&item);
        gchar *input = monitor_launch_element_input (element);

        if (input && (GST_IS_URI_HANDLER (element) ||
                gst_uri_is_valid (input)))
          ok = check_file_uri (input, error);
        else if (input && GST_OBJECT_FLAG_IS_SET (element,
                GST_ELEMENT_FLAG_SOURCE) && !strchr (input, '%')) {
          gchar *uri = gst_filename_to_uri (input, NULL);

          ok = !uri || check_file_uri (uri, error);
          g_free (uri);
        }
        g_free (input);
        g_value_reset (&item);
        break;
      }
      case GST_ITERATOR_RESYNC:
        gst_iterator_resync (it);
        break;
      default:
        done = TRUE;
        break;
    }
  }
  g_value_unset (&item);
  gst_iterator_free (it);
  return ok;
}

gboolean
monitor_channel_check_scoring (const MonitorChannelConfig * config,
    GError ** error)
{
  /* The channel's element on two small test frames: the model, features,
   * backend and device are the element's to judge, and it does so only
   * when it starts. */
  MonitorChannelConfig probe = *config;
  GstElement *pipeline;
  GstBus *bus;
  GstMessage *msg;
  gboolean ok = FALSE;
  guint n_inputs;

  probe.reference = (gchar *) "videotestsrc num-buffers=2 ! "
      "video/x-raw,format=I420,width=176,height=144";
  probe.distorted = NULL;
  probe.distortion = (gchar *) "identity";
  /* as many renditions as the channel has, labelled as it labels them */
  n_inputs = config->inputs ? MAX (g_strv_length (config->inputs), 1) : 1;
  probe.inputs = g_new0 (gchar *, n_inputs + 1);
  for (guint i = 0; i < n_inputs; i++)
    probe.inputs[i] = g_strdup ("identity");
  probe.latency_ms = 0;
  pipeline = monitor_channel_build (&probe, error);
  g_strfreev (probe.inputs);
  if (!pipeline)
    return FALSE;
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  if (!msg) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "the element scored no test frame within 60 s");
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;

    gst_message_parse_error (msg, &err, NULL);
    g_set_error (error, err->domain, err->code, "the element refuses the "
        "scoring settings: %s", err->message);
    g_error_free (err);
  } else {
    ok = TRUE;
  }
  if (msg)
    gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  return ok;
}
