/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Live check: a live source at WxH and F fps is split by a tee; one branch
 * is the reference, the other goes through a distortion; vmafhipcompare
 * scores them with per-frame messages on and a synchronised sink renders
 * the output. After the given time it reports whether the pipeline kept
 * real time: every frame rendered, none dropped or late at the sink, none
 * missing in the timestamps, every pair scored. With --sources-only the
 * element is left out (the reference branch goes to the sink, the
 * distorted one to a second synchronised sink): what the sources and the
 * distortion alone cost, and how many of them a machine keeps in real
 * time.
 *
 * The source's own speed is measured first (the same source, not live, on
 * one thread): a live source slower than the frame rate falls behind the
 * clock and its frames come too late, whatever follows it. videotestsrc's
 * ball pattern is too slow for a live 1080p60; the default moving SMPTE
 * bars are several times faster (docs/performance.md, "Live streams").
 *
 * Run from the build directory so that the plugin is found, e.g.
 *   GST_PLUGIN_PATH=gst bench/bench-live --seconds 60
 */

#include <gst/gst.h>
#include <gst/base/gstbasesink.h>
#include <stdlib.h>
#include <sys/resource.h>

typedef struct
{
  GstClockTime latency;
  GstElement *sink;
  GstClockTime frame_duration;
  GstClockTime first_pts;
  GstClockTime last_pts;
  guint64 rendered;
  guint64 gaps;                 /* frames missing between two outputs */
  guint64 late;                 /* arrived at the sink after their time */
  guint64 before_latency;       /* arrived before the sink knew the latency */
  GstClockTimeDiff max_lateness;
  GstElement *pipeline;
  GMutex lock;
} Probe;

static GstPadProbeReturn
on_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Probe *p = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstEvent *seg_ev = gst_pad_get_sticky_event (pad, GST_EVENT_SEGMENT, 0);
  GstClock *clock = gst_element_get_clock (p->pipeline);
  const GstSegment *seg;
  GstClockTime pts = GST_BUFFER_PTS (buf), rt, now, latency;
  GstClockTimeDiff lateness;

  if (!seg_ev || !clock) {
    if (seg_ev)
      gst_event_unref (seg_ev);
    if (clock)
      gst_object_unref (clock);
    return GST_PAD_PROBE_OK;
  }
  gst_event_parse_segment (seg_ev, &seg);
  rt = gst_segment_to_running_time (seg, GST_FORMAT_TIME, pts);
  now = gst_clock_get_time (clock) - gst_element_get_base_time (p->pipeline);
  /* The sink renders at running time + the latency it was configured
   * with; arriving later is late. A live pipeline's first frame can reach
   * the sink before the pipeline has distributed its latency: such frames
   * are counted apart. */
  latency = gst_base_sink_get_latency (GST_BASE_SINK (p->sink));
  lateness = GST_CLOCK_DIFF (rt + latency, now);

  g_mutex_lock (&p->lock);
  if (p->rendered < 3 && g_getenv ("BENCH_LIVE_VERBOSE"))
    g_printerr ("output %" G_GUINT64_FORMAT ": pts %" GST_TIME_FORMAT
        ", running time %" GST_TIME_FORMAT ", arrived at %" GST_TIME_FORMAT
        "\n", p->rendered, GST_TIME_ARGS (pts), GST_TIME_ARGS (rt),
        GST_TIME_ARGS (now));
  if (p->rendered > 0 && GST_CLOCK_TIME_IS_VALID (p->last_pts) &&
      pts > p->last_pts + p->frame_duration + p->frame_duration / 2)
    p->gaps += (pts - p->last_pts) / p->frame_duration - 1;
  if (p->rendered == 0)
    p->first_pts = pts;
  p->last_pts = pts;
  p->rendered++;
  if (latency == 0) {
    p->before_latency++;
  } else if (lateness > 0) {
    p->late++;
    g_printerr ("late: frame at %" GST_TIME_FORMAT " (output %" G_GUINT64_FORMAT
        ") arrived %.1f ms after its render time\n", GST_TIME_ARGS (pts),
        p->rendered, lateness / 1e6);
  }
  if (latency > 0 && (p->max_lateness == 0 || lateness > p->max_lateness))
    p->max_lateness = lateness;
  g_mutex_unlock (&p->lock);

  gst_event_unref (seg_ev);
  gst_object_unref (clock);
  return GST_PAD_PROBE_OK;
}

/* Sinks that render on the clock and report QoS when late. */
#define SYNCED "sync=true qos=true max-lateness=20000000"

static GstPadProbeReturn
count_produced (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  g_atomic_pointer_add ((gsize *) user_data, 1);
  return GST_PAD_PROBE_OK;
}

/* Frames per second of the source alone, as fast as it goes: two
 * seconds' worth of frames at @fps. */
static gdouble
measure_source (const gchar * pattern, gint width, gint height, gint fps)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=%d %s ! "
      "video/x-raw,format=I420,width=%d,height=%d,framerate=%d/1 ! "
      "fakesink sync=false", 2 * fps, pattern, width, height, fps);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstMessage *msg;
  GstBus *bus;
  gint64 t0;
  gdouble secs;

  g_free (desc);
  if (!pipeline)
    return 0.0;
  bus = gst_element_get_bus (pipeline);
  t0 = g_get_monotonic_time ();
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  secs = (g_get_monotonic_time () - t0) / 1e6;
  gst_element_set_state (pipeline, GST_STATE_NULL);
  if (msg)
    gst_message_unref (msg);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  return msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS ? 2 * fps / secs :
      0.0;
}

static gdouble
cpu_seconds (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
      ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

int
main (int argc, char **argv)
{
  gint seconds = 60, width = 1280, height = 720, fps = 30, threads = 0;
  gboolean no_messages = FALSE, sources_only = FALSE;
  gchar *distort = NULL;
  gchar *pattern = NULL;
  GOptionEntry entries[] = {
    {"seconds", 's', 0, G_OPTION_ARG_INT, &seconds, "Run time (60)", "S"},
    {"width", 'w', 0, G_OPTION_ARG_INT, &width, "Width (1280)", "W"},
    {"height", 'h', 0, G_OPTION_ARG_INT, &height, "Height (720)", "H"},
    {"fps", 'f', 0, G_OPTION_ARG_INT, &fps, "Frame rate (30)", "F"},
    {"threads", 't', 0, G_OPTION_ARG_INT, &threads,
        "Scoring threads (0: one per processor)", "N"},
    {"distort", 'd', 0, G_OPTION_ARG_STRING, &distort,
        "Distortion: balance (default), jpeg or vp8", "KIND"},
    {"pattern", 'p', 0, G_OPTION_ARG_STRING, &pattern,
        "videotestsrc settings (\"pattern=smpte horizontal-speed=2\")",
        "PROPS"},
    {"no-messages", 0, 0, G_OPTION_ARG_NONE, &no_messages,
        "Turn per-frame messages off", NULL},
    {"sources-only", 0, 0, G_OPTION_ARG_NONE, &sources_only,
        "Leave the element out: the sources and distortion alone", NULL},
    {NULL}
  };
  GOptionContext *octx = g_option_context_new ("- live real-time check of "
      "vmafhipcompare");
  GError *err = NULL;
  const gchar *chain;
  gchar *source, *desc;
  GstElement *pipeline, *sink, *cmp, *src;
  GstPad *pad, *src_pad;
  gsize produced = 0;
  GstBus *bus;
  GstQuery *q;
  Probe p = { 0 };
  guint64 n_frame_msgs = 0, n_qos = 0, scored = 0, unpaired_ref = 0,
      unpaired_dist = 0, dropped_ref = 0, dropped_dist = 0, expected;
  GstStructure *stats = NULL;
  guint64 dropped = 0;
  gboolean ok, got_eos = FALSE;
  gint64 t0, t1;
  gdouble cpu0, cpu1, source_fps;

  g_option_context_add_main_entries (octx, entries, NULL);
  g_option_context_add_group (octx, gst_init_get_option_group ());
  if (!g_option_context_parse (octx, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  g_option_context_free (octx);

  if (!distort || !g_strcmp0 (distort, "balance"))
    chain = "videobalance contrast=0.9 saturation=0.8 brightness=0.02";
  else if (!g_strcmp0 (distort, "jpeg"))
    chain = "jpegenc quality=50 ! jpegdec";
  else if (!g_strcmp0 (distort, "vp8"))
    chain = "vp8enc deadline=1 cpu-used=16 target-bitrate=2000000 "
        "lag-in-frames=0 ! vp8dec";
  else {
    g_printerr ("unknown distortion '%s'\n", distort);
    return 2;
  }

  if (!pattern)
    pattern = g_strdup ("pattern=smpte horizontal-speed=2");
  source_fps = measure_source (pattern, width, height, fps);
  g_print ("source alone (not live, one thread): %.0f fps; real time needs "
      "%d%s\n", source_fps, fps, source_fps < fps ? ": TOO SLOW, the "
      "source cannot keep real time" : "");

  source = g_strdup_printf ("videotestsrc name=src is-live=true %s "
      "! video/x-raw,format=I420,width=%d,height=%d,framerate=%d/1 ! "
      "tee name=t", pattern, width, height, fps);
  if (sources_only)
    desc = g_strdup_printf ("%s t. ! queue ! fakesink name=sink " SYNCED
        " t. ! queue ! %s ! fakesink " SYNCED, source, chain);
  else
    desc = g_strdup_printf ("%s t. ! queue ! c.ref_sink "
        "t. ! queue ! %s ! c.dist_sink "
        "vmafhipcompare name=c threads=%d frame-message=%s ! "
        "fakesink name=sink " SYNCED, source, chain, threads,
        no_messages ? "false" : "true");
  g_free (source);
  pipeline = gst_parse_launch (desc, &err);
  if (!pipeline) {
    g_printerr ("cannot build the pipeline: %s\n", err->message);
    return 2;
  }
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  cmp = gst_bin_get_by_name (GST_BIN (pipeline), "c");
  pad = gst_element_get_static_pad (sink, "sink");
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  src_pad = gst_element_get_static_pad (src, "src");
  gst_pad_add_probe (src_pad, GST_PAD_PROBE_TYPE_BUFFER, count_produced,
      &produced, NULL);
  g_mutex_init (&p.lock);
  p.pipeline = pipeline;
  p.sink = sink;
  p.frame_duration = gst_util_uint64_scale (GST_SECOND, 1, fps);
  p.last_pts = GST_CLOCK_TIME_NONE;
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_buffer, &p, NULL);
  bus = gst_element_get_bus (pipeline);

  g_print ("%s\n", desc);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  if (gst_element_get_state (pipeline, NULL, NULL, 10 * GST_SECOND) !=
      GST_STATE_CHANGE_SUCCESS) {
    g_printerr ("the pipeline did not start\n");
    return 2;
  }
  q = gst_query_new_latency ();
  if (gst_element_query (pipeline, q)) {
    GstClockTime min;
    gst_query_parse_latency (q, NULL, &min, NULL);
    p.latency = min;
  }
  gst_query_unref (q);
  g_print ("pipeline latency %" GST_TIME_FORMAT "\n",
      GST_TIME_ARGS (p.latency));

  t0 = g_get_monotonic_time ();
  cpu0 = cpu_seconds ();
  for (;;) {
    gint64 left = t0 + (gint64) seconds * G_USEC_PER_SEC -
        g_get_monotonic_time ();
    GstMessage *msg;

    if (left <= 0)
      break;
    msg = gst_bus_timed_pop (bus, left * GST_USECOND);
    if (!msg)
      break;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (msg, &err, NULL);
      g_printerr ("error: %s\n", err->message);
      return 1;
    }
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_QOS)
      n_qos++;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT &&
        gst_message_has_name (msg, "vmaf"))
      n_frame_msgs++;
    gst_message_unref (msg);
  }
  t1 = g_get_monotonic_time ();
  cpu1 = cpu_seconds ();

  gst_element_send_event (pipeline, gst_event_new_eos ());
  while (!got_eos) {
    GstMessage *msg = gst_bus_timed_pop (bus, 30 * GST_SECOND);
    const GstStructure *s;

    if (!msg)
      break;
    s = gst_message_get_structure (msg);
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS)
      got_eos = TRUE;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_QOS)
      n_qos++;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT &&
        gst_message_has_name (msg, "vmaf"))
      n_frame_msgs++;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT && s &&
        gst_structure_has_name (s, "vmaf-summary")) {
      gst_structure_get_uint64 (s, "scored", &scored);
      gst_structure_get_uint64 (s, "unpaired-reference", &unpaired_ref);
      gst_structure_get_uint64 (s, "unpaired-distorted", &unpaired_dist);
      gst_structure_get_uint64 (s, "dropped-reference", &dropped_ref);
      gst_structure_get_uint64 (s, "dropped-distorted", &dropped_dist);
    }
    gst_message_unref (msg);
  }
  g_object_get (sink, "stats", &stats, NULL);
  gst_structure_get_uint64 (stats, "dropped", &dropped);
  gst_element_set_state (pipeline, GST_STATE_NULL);

  expected = (p.last_pts - p.first_pts) / p.frame_duration + 1;
  g_print ("ran %.1f s at %dx%d %d fps, %s\n", (t1 - t0) / 1e6, width,
      height, fps, sources_only ? "sources and distortion only, no element"
      : no_messages ? "per-frame messages off" : "per-frame messages on");
  g_print ("rendered %" G_GUINT64_FORMAT " frames (timestamps span %"
      G_GUINT64_FORMAT "), gaps %" G_GUINT64_FORMAT ", dropped by the sink %"
      G_GUINT64_FORMAT ", late %" G_GUINT64_FORMAT ", QoS messages %"
      G_GUINT64_FORMAT "\n", p.rendered, expected, p.gaps, dropped, p.late,
      n_qos);
  g_print ("latest arrival relative to the render time: %+.1f ms "
      "(%" G_GUINT64_FORMAT " frame(s) arrived before the pipeline latency "
      "was configured)\n", p.max_lateness / 1e6, p.before_latency);
  g_print ("source frames %" G_GSIZE_FORMAT ", scored %" G_GUINT64_FORMAT
      ", frame messages %" G_GUINT64_FORMAT ", unpaired %" G_GUINT64_FORMAT
      "/%" G_GUINT64_FORMAT ", dropped before pairing %" G_GUINT64_FORMAT "/%"
      G_GUINT64_FORMAT "\n", produced, scored, n_frame_msgs, unpaired_ref,
      unpaired_dist, dropped_ref, dropped_dist);
  g_print ("process CPU %.2f s in %.1f s wall (%.0f%% of one core)\n",
      cpu1 - cpu0, (t1 - t0) / 1e6, 100.0 * (cpu1 - cpu0) / ((t1 - t0) / 1e6));

  /* Every output on time, none missing (the aggregator may output one
   * frame twice where the input timestamps sit off its output grid, e.g.
   * at EOS; that is not a loss); with the element, every source frame
   * scored too. */
  ok = got_eos && p.rendered == expected && p.gaps == 0 && dropped == 0 &&
      p.late == 0 && p.rendered >= (guint64) (seconds - 2) * fps;
  if (!sources_only)
    ok = ok && unpaired_ref == 0 && unpaired_dist == 0 && dropped_ref == 0 &&
        dropped_dist == 0 && scored == produced &&
        (no_messages || n_frame_msgs == scored);
  g_print ("%s\n", ok ? "REAL TIME: yes" : "REAL TIME: NO");

  gst_structure_free (stats);
  gst_object_unref (bus);
  gst_object_unref (pad);
  gst_object_unref (src_pad);
  gst_object_unref (src);
  if (cmp)
    gst_object_unref (cmp);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (desc);
  g_free (distort);
  g_free (pattern);
  return ok ? 0 : 1;
}
