/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Prints the scores vmafhipcompare posts on the bus: one line per frame,
 * then the pooled summary.
 *
 *   print-scores REF.yuv DIST.yuv WIDTH HEIGHT [FORMAT [FRAMERATE]]
 *   print-scores --pipeline "DESCRIPTION WITH A vmafhipcompare"
 *
 * FORMAT is a GStreamer raw format name (default I420), FRAMERATE a
 * fraction (default 25/1). */

#include <gst/gst.h>
#include <stdlib.h>
#include <string.h>

static void
print_frame (const GstStructure * s)
{
  guint64 index = 0, ts = GST_CLOCK_TIME_NONE;
  gdouble score = 0, psnr;

  gst_structure_get_uint64 (s, "index", &index);
  gst_structure_get_uint64 (s, "timestamp", &ts);
  g_print ("frame %5" G_GUINT64_FORMAT "  %" GST_TIME_FORMAT, index,
      GST_TIME_ARGS (ts));
  if (gst_structure_get_double (s, "score", &score))
    g_print ("  VMAF %8.4f", score);
  if (gst_structure_get_double (s, "psnr_y", &psnr))
    g_print ("  PSNR-Y %7.3f dB", psnr);
  g_print ("\n");
}

static gboolean
print_pooled (GQuark field, const GValue * value, gpointer user_data)
{
  const GstStructure *pooled;
  gdouble mean = 0, hmean = 0, min = 0, max = 0;

  if (!GST_VALUE_HOLDS_STRUCTURE (value))
    return TRUE;
  pooled = gst_value_get_structure (value);
  gst_structure_get (pooled, "mean", G_TYPE_DOUBLE, &mean, "harmonic-mean",
      G_TYPE_DOUBLE, &hmean, "min", G_TYPE_DOUBLE, &min, "max",
      G_TYPE_DOUBLE, &max, NULL);
  g_print ("  %-40s mean %10.4f  harmonic %10.4f  min %10.4f  max %10.4f\n",
      g_quark_to_string (field), mean, hmean, min, max);
  return TRUE;
}

static void
print_summary (const GstStructure * s)
{
  guint64 scored = 0, skipped = 0, unpaired_ref = 0, unpaired_dist = 0;

  gst_structure_get (s, "scored", G_TYPE_UINT64, &scored, "skipped",
      G_TYPE_UINT64, &skipped, "unpaired-reference", G_TYPE_UINT64,
      &unpaired_ref, "unpaired-distorted", G_TYPE_UINT64, &unpaired_dist, NULL);
  g_print ("summary: %" G_GUINT64_FORMAT " frames scored, %" G_GUINT64_FORMAT
      " skipped, %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " unpaired\n",
      scored, skipped, unpaired_ref, unpaired_dist);
  gst_structure_foreach (s, print_pooled, NULL);
}

/* Raw .yuv files pack rows tightly, while GStreamer's default planar 4:2:0
 * layout pads each row to 4 bytes: describe the planes of odd-width 4:2:0
 * clips explicitly, or rawvideoparse would read them skewed. */
static const gchar *
tight_420_layout (const gchar * format, gint w, gint h)
{
  static gchar layout[256];
  gint bps = g_str_has_prefix (format, "i420-1") ? 2 : 1;
  gint cw = (w + 1) / 2, ch = (h + 1) / 2;
  gsize y = (gsize) w * h * bps, c = (gsize) cw * ch * bps;

  if (strcmp (format, "i420") && strcmp (format, "i420-10le") &&
      strcmp (format, "i420-12le"))
    return "";
  g_snprintf (layout, sizeof (layout), " plane-strides=<%d,%d,%d> "
      "plane-offsets=<0,%" G_GSIZE_FORMAT ",%" G_GSIZE_FORMAT "> "
      "frame-size=%" G_GSIZE_FORMAT, w * bps, cw * bps, cw * bps, y, y + c,
      y + 2 * c);
  return layout;
}

int
main (int argc, char **argv)
{
  GstElement *pipeline;
  GstBus *bus;
  GError *err = NULL;
  gchar *desc;
  int ret = 0;

  gst_init (&argc, &argv);
  if (argc == 3 && !g_strcmp0 (argv[1], "--pipeline")) {
    desc = g_strdup (argv[2]);
  } else if (argc >= 5) {
    /* rawvideoparse names formats in lower case with dashes: i420-10le */
    gchar *format = g_ascii_strdown (argc > 5 ? argv[5] : "I420", -1);
    const gchar *rate = argc > 6 ? argv[6] : "25/1";
    gchar *parse;

    g_strdelimit (format, "_", '-');
    parse = g_strdup_printf ("rawvideoparse width=%s height=%s format=%s "
        "framerate=%s%s", argv[3], argv[4], format, rate,
        tight_420_layout (format, atoi (argv[3]), atoi (argv[4])));
    g_free (format);

    desc = g_strdup_printf ("filesrc location=\"%s\" ! %s ! c.ref_sink "
        "filesrc location=\"%s\" ! %s ! c.dist_sink "
        "vmafhipcompare name=c features=psnr ! fakesink", argv[1], parse,
        argv[2], parse);
    g_free (parse);
  } else {
    g_printerr ("usage: %s REF DIST WIDTH HEIGHT [FORMAT [FRAMERATE]]\n"
        "       %s --pipeline DESCRIPTION\n", argv[0], argv[0]);
    return 2;
  }

  pipeline = gst_parse_launch (desc, &err);
  if (!pipeline) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);

  for (;;) {
    GstMessage *msg = gst_bus_timed_pop (bus, GST_CLOCK_TIME_NONE);
    const GstStructure *s = gst_message_get_structure (msg);
    gboolean done = FALSE;

    switch (GST_MESSAGE_TYPE (msg)) {
      case GST_MESSAGE_ELEMENT:
        if (gst_structure_has_name (s, "vmaf"))
          print_frame (s);
        else if (gst_structure_has_name (s, "vmaf-summary"))
          print_summary (s);
        break;
      case GST_MESSAGE_WARNING:
        gst_message_parse_warning (msg, &err, NULL);
        g_printerr ("warning: %s\n", err->message);
        g_clear_error (&err);
        break;
      case GST_MESSAGE_ERROR:
        gst_message_parse_error (msg, &err, NULL);
        g_printerr ("error: %s\n", err->message);
        g_clear_error (&err);
        ret = 1;
        done = TRUE;
        break;
      case GST_MESSAGE_EOS:
        done = TRUE;
        break;
      default:
        break;
    }
    gst_message_unref (msg);
    if (done)
      break;
  }

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  g_free (desc);
  return ret;
}
