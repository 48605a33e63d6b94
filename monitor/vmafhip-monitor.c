/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* vmafhip-monitor: scores many live channels with vmafhipcompare, one
 * pipeline per channel, and serves the scores to Prometheus. */

#include "monitor-channel.h"
#include "monitor-config.h"
#include "monitor-devices.h"
#include "monitor-http.h"
#include "monitor-metrics.h"
#include "monitor-reload.h"

#include <glib-unix.h>
#include <gst/gst.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static const gchar description[] =
    "The configuration is a key file. [monitor] says where to serve\n"
    "/metrics and gives defaults for every channel; each [channel NAME]\n"
    "group is one comparison (NAME is the \"channel\" label):\n"
    "\n"
    "  [monitor]\n"
    "  listen = 127.0.0.1        # address to serve /metrics on\n"
    "  port = 9580               # 0: any free port (printed at start)\n"
    "  max-connections = 0       # HTTP connections at once, 0: automatic\n"
    "\n"
    "  [channel news]\n"
    "  reference = srt://contribution:9000    # a URI, or a launch-line\n"
    "  distorted = udpsrc port=5004 ! tsdemux ! h264parse ! avdec_h264\n"
    "  # or, instead of distorted, what a processing chain makes of the\n"
    "  # reference itself (split by a tee):\n"
    "  # distortion = x264enc tune=zerolatency ! avdec_h264\n"
    "  # a ladder: several distorted inputs (or distortions), separated\n"
    "  # by ';', named by labels (one each): labels = 720p,540p,360p\n"
    "  model = vmaf_v0.6.1       # vmafhipcompare's model property\n"
    "  features = psnr,float_ssim\n"
    "  backend = auto            # auto, cpu or hip\n"
    "  device = 0                # GPU; channels on one GPU share it\n"
    "  threads = 0               # scoring threads, 0: one per processor\n"
    "  subsample = 1\n"
    "  latency = 0               # extra milliseconds to pair live inputs\n"
    "  restart-delay = 1         # seconds before the first restart\n"
    "  restart-delay-max = 60    # the back-off doubles up to this\n"
    "  restart-on-eos = false    # restart a channel that ends (no back-off)\n"
    "  pace = none               # realtime: files played at their frame rate\n"
    "  stall-timeout = 30        # restart after this long without a frame\n"
    "  histogram-metrics = vmaf  # per-frame values kept as histograms,\n"
    "  histogram-buckets = 10,20,30,40,50,60,70,80,90,100  # minimums and\n"
    "  thresholds = 40,60,80     # counts of frames below each threshold\n"
    "  min-window = 10           # seconds of the sliding minimum\n"
    "  # the element's events and windows, when it has them:\n"
    "  # low-score-threshold, low-score-min-frames, black-threshold,\n"
    "  # black-spread, freeze-threshold (8-bit luma, 0 to 256),\n"
    "  # black-min-duration, freeze-min-duration (seconds), window-frames\n"
    "\n"
    "A failing channel is restarted with exponential back-off; every\n"
    "restart is logged and counted. Metrics (vmafhip_channel_*): settings,\n"
    "up, state, restarts, frames scored/skipped/unpaired/dropped, the\n"
    "latest frame's and the pooled scores and features, the time of the\n"
    "latest frame, and whether each feature runs on the CPU or the GPU;\n"
    "histograms, the sliding minimum and frames below thresholds of every\n"
    "frame (a dip between two scrapes shows), the element's events (black,\n"
    "freeze, low score) and windows, the lag behind real time.\n"
    "SIGINT or SIGTERM stops every channel and exits. SIGHUP reloads the\n"
    "configuration: unchanged channels go on, changed ones restart, removed\n"
    "ones stop, new ones start (listen and port need a restart); a file\n"
    "that does not load changes nothing. --check binds the\n"
    "address, builds every pipeline, opens the files they read and scores\n"
    "test frames with each channel's settings.\n"
    "See docs/monitor.md.";

typedef struct
{
  gchar *config_path;
  MonitorConfig *config;
  MonitorDevices *devices;
  GPtrArray *channels;          /* MonitorChannel* */
  GMainLoop *loop;
} Service;

static gchar *
render_metrics (gpointer user_data)
{
  Service *service = user_data;

  return monitor_metrics_render (service->channels, service->devices);
}

/* SIGHUP (systemctl reload): the configuration read again; a file that
 * does not load leaves the service as it was. */
static gboolean
on_hangup (gpointer user_data)
{
  Service *service = user_data;
  GError *err = NULL;

  g_message ("SIGHUP: reloading %s", service->config_path);
  if (!monitor_reload (service->config_path, &service->config,
          service->channels, service->devices, &err)) {
    g_warning ("configuration not reloaded, every channel goes on as it "
        "was: %s", err->message);
    g_error_free (err);
  }
  return G_SOURCE_CONTINUE;
}

static gboolean
on_signal (gpointer user_data)
{
  Service *service = user_data;

  g_message ("stopping");
  g_main_loop_quit (service->loop);
  return G_SOURCE_CONTINUE;
}

/* --check: the address can be bound, every channel's pipeline builds
 * (elements exist, fragments parse), the files it reads open and its
 * element scores test frames with its settings; no channel is started. */
static gboolean
check_channels (MonitorConfig * config)
{
  gboolean ok = TRUE;
  GError *err = NULL;

  if (!monitor_config_try_listen (config->listen, config->port, &err)) {
    fprintf (stderr, "vmafhip-monitor: %s\n", err->message);
    g_clear_error (&err);
    ok = FALSE;
  }
  for (guint i = 0; i < config->channels->len; i++) {
    MonitorChannelConfig *c = g_ptr_array_index (config->channels, i);
    GstElement *pipeline = monitor_channel_build (c, &err);
    gchar *desc = monitor_channel_describe (c);

    if (pipeline && monitor_channel_check_inputs (pipeline, &err) &&
        monitor_channel_check_scoring (c, &err)) {
      printf ("channel %s: %s\n", c->name, desc);
    } else {
      fprintf (stderr, "channel %s: %s\n  %s\n", c->name, err->message, desc);
      g_clear_error (&err);
      ok = FALSE;
    }
    if (pipeline)
      gst_object_unref (pipeline);
    g_free (desc);
  }
  return ok;
}

int
main (int argc, char **argv)
{
  gchar *config_path = NULL, *listen = NULL;
  gint port = -1;
  gboolean check = FALSE, version = FALSE;
  GOptionEntry entries[] = {
    {"config", 'c', 0, G_OPTION_ARG_FILENAME, &config_path,
        "The configuration key file (required)", "FILE"},
    {"listen", 'l', 0, G_OPTION_ARG_STRING, &listen,
        "Address to serve /metrics on (overrides [monitor] listen)", "ADDR"},
    {"port", 'p', 0, G_OPTION_ARG_INT, &port,
        "Port to serve /metrics on, 0 for any free one (overrides "
          "[monitor] port)", "PORT"},
    {"check", 0, 0, G_OPTION_ARG_NONE, &check,
        "Check the configuration and print each channel's pipeline, then "
          "exit", NULL},
    {"version", 0, 0, G_OPTION_ARG_NONE, &version, "Print the version", NULL},
    {NULL}
  };
  GOptionContext *ctx;
  GError *err = NULL;
  Service service = { 0 };
  MonitorHttp *http;
  gchar *url;
  int status = EXIT_SUCCESS;

  ctx = g_option_context_new ("- score live channels for Prometheus");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  g_option_context_set_description (ctx, description);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    fprintf (stderr, "vmafhip-monitor: %s\n", err->message);
    g_error_free (err);
    g_option_context_free (ctx);
    return 2;
  }
  g_option_context_free (ctx);
  if (version) {
    printf ("vmafhip-monitor %s\n", VH_VERSION);
    return EXIT_SUCCESS;
  }
  if (!config_path && argc == 2)
    config_path = g_strdup (argv[1]);
  if (!config_path) {
    fprintf (stderr, "vmafhip-monitor: no configuration: give --config FILE "
        "(--help describes it)\n");
    return 2;
  }
  if (port > 65535) {
    fprintf (stderr, "vmafhip-monitor: --port %d is not a port\n", port);
    return 2;
  }

  service.config = monitor_config_load (config_path, &err);
  if (!service.config) {
    fprintf (stderr, "vmafhip-monitor: %s\n", err->message);
    g_error_free (err);
    g_free (config_path);
    return 2;
  }
  service.config_path = config_path;
  if (listen) {
    g_free (service.config->listen);
    service.config->listen = listen;
  }
  if (port >= 0)
    service.config->port = port;
  if (!monitor_config_listen_is_address (service.config->listen)) {
    fprintf (stderr, "vmafhip-monitor: --listen \"%s\" is not an IP address "
        "(such as 127.0.0.1, ::1 or 0.0.0.0)\n", service.config->listen);
    monitor_config_free (service.config);
    g_free (service.config_path);
    return 2;
  }
  if (check) {
    status = check_channels (service.config) ? EXIT_SUCCESS : EXIT_FAILURE;
    monitor_config_free (service.config);
    g_free (service.config_path);
    return status;
  }

  service.devices = monitor_devices_new ();
  service.channels =
      g_ptr_array_new_with_free_func ((GDestroyNotify) monitor_channel_free);
  service.loop = g_main_loop_new (NULL, FALSE);
  http = monitor_http_new (service.config->listen, service.config->port,
      service.config->max_connections, render_metrics, &service, &err);
  if (!http) {
    fprintf (stderr, "vmafhip-monitor: %s\n", err->message);
    g_error_free (err);
    status = EXIT_FAILURE;
    goto out;
  }
  /* Before the line that tells scripts the service is up. */
  g_unix_signal_add (SIGINT, on_signal, &service);
  g_unix_signal_add (SIGTERM, on_signal, &service);
  g_unix_signal_add (SIGHUP, on_hangup, &service);
  url = monitor_http_metrics_url (http);
  /* Scripts read the port from this line when it was chosen freely. */
  printf ("vmafhip-monitor: serving %s\n", url);
  fflush (stdout);
  g_free (url);

  for (guint i = 0; i < service.config->channels->len; i++) {
    MonitorChannel *ch =
        monitor_channel_new (g_ptr_array_index (service.config->channels, i),
        service.devices);
    g_ptr_array_add (service.channels, ch);
    monitor_channel_start (ch);
  }
  g_main_loop_run (service.loop);

out:
  /* Channels first: their pipelines hold the shared devices. */
  g_ptr_array_unref (service.channels);
  monitor_http_free (http);
  monitor_devices_free (service.devices);
  g_main_loop_unref (service.loop);
  monitor_config_free (service.config);
  g_free (service.config_path);
  gst_deinit ();
  return status;
}
