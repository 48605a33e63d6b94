/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* vmafhip-print: compares two videos with vmafhipcompare (or runs a given
 * pipeline that has one) and prints one short line per scored frame and a
 * pooled summary with the models first, from the element's bus messages. */

#include <gst/gst.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  gchar **metrics;              /* per-frame columns; NULL: models + psnr_y */
  gboolean all_pooled;          /* summary: every output, not only columns */
  gboolean quiet_frames;
  gint exit_status;
} PrintOptions;

/* Model scores are named after their model: "vmaf", "vmaf_neg", ...;
 * libvmaf's own motion feature "VMAF_integer_feature_..." is upper case.
 * Bootstrap members and intervals ("vmaf_b_0001", "_stddev") are detail. */
static gboolean
is_model_score (const gchar * name)
{
  static const gchar *detail[] = { "_bagging", "_stddev", "_ci_p95_lo",
    "_ci_p95_hi", NULL
  };
  gsize len = strlen (name);
  gint i;

  if (strcmp (name, "vmaf") && !g_str_has_prefix (name, "vmaf_"))
    return FALSE;
  for (i = 0; detail[i]; i++)
    if (g_str_has_suffix (name, detail[i]))
      return FALSE;
  /* a bootstrap member: NAME_0001 */
  if (len > 5 && name[len - 5] == '_' && g_ascii_isdigit (name[len - 4]) &&
      g_ascii_isdigit (name[len - 1]))
    return FALSE;
  return TRUE;
}

static gboolean
is_column (const PrintOptions * opt, const gchar * name)
{
  if (opt->metrics)
    return g_strv_contains ((const gchar * const *) opt->metrics, name);
  return is_model_score (name) || !strcmp (name, "psnr_y");
}

typedef struct
{
  const PrintOptions *opt;
  GString *line;
  gboolean models;              /* this pass prints model scores */
} FrameLine;

static gboolean
add_frame_value (GQuark field, const GValue * value, gpointer user_data)
{
  FrameLine *fl = user_data;
  const gchar *name = g_quark_to_string (field);

  if (!G_VALUE_HOLDS_DOUBLE (value) || !is_column (fl->opt, name) ||
      is_model_score (name) != fl->models)
    return TRUE;
  g_string_append_printf (fl->line, "  %s %.6f", name,
      g_value_get_double (value));
  return TRUE;
}

static void
print_frame (const PrintOptions * opt, const GstStructure * s)
{
  guint64 index = 0, ts = GST_CLOCK_TIME_NONE;
  FrameLine fl = { opt, g_string_new (NULL), TRUE };

  gst_structure_get_uint64 (s, "index", &index);
  gst_structure_get_uint64 (s, "timestamp", &ts);
  g_string_append_printf (fl.line, "frame %5" G_GUINT64_FORMAT
      "  %" GST_TIME_FORMAT, index, GST_TIME_ARGS (ts));
  gst_structure_foreach (s, add_frame_value, &fl);
  fl.models = FALSE;
  gst_structure_foreach (s, add_frame_value, &fl);
  g_print ("%s\n", fl.line->str);
  g_string_free (fl.line, TRUE);
}

typedef struct
{
  const PrintOptions *opt;
  gboolean models;
} PooledPass;

static gboolean
print_pooled (GQuark field, const GValue * value, gpointer user_data)
{
  PooledPass *pass = user_data;
  const gchar *name = g_quark_to_string (field);
  const GstStructure *pooled;
  gdouble mean = 0, hmean = 0, min = 0, max = 0;

  if (!GST_VALUE_HOLDS_STRUCTURE (value) ||
      is_model_score (name) != pass->models)
    return TRUE;
  if (!pass->opt->all_pooled && !pass->models && !is_column (pass->opt, name))
    return TRUE;
  pooled = gst_value_get_structure (value);
  gst_structure_get (pooled, "mean", G_TYPE_DOUBLE, &mean, "harmonic-mean",
      G_TYPE_DOUBLE, &hmean, "min", G_TYPE_DOUBLE, &min, "max",
      G_TYPE_DOUBLE, &max, NULL);
  g_print ("  %-24s mean %11.6f  harmonic %11.6f  min %11.6f  max %11.6f\n",
      name, mean, hmean, min, max);
  return TRUE;
}

static void
print_summary (const PrintOptions * opt, const GstStructure * s)
{
  guint64 scored = 0, unpaired_ref = 0, unpaired_dist = 0;
  PooledPass pass = { opt, TRUE };

  gst_structure_get (s, "scored", G_TYPE_UINT64, &scored,
      "unpaired-reference", G_TYPE_UINT64, &unpaired_ref,
      "unpaired-distorted", G_TYPE_UINT64, &unpaired_dist, NULL);
  g_print ("pooled over %" G_GUINT64_FORMAT " frames", scored);
  if (unpaired_ref || unpaired_dist)
    g_print (" (%" G_GUINT64_FORMAT " reference and %" G_GUINT64_FORMAT
        " distorted frames unpaired)", unpaired_ref, unpaired_dist);
  g_print (":\n");
  gst_structure_foreach (s, print_pooled, &pass);
  pass.models = FALSE;
  gst_structure_foreach (s, print_pooled, &pass);
}

/* Raw .yuv files pack rows tightly, while GStreamer's default planar 4:2:0
 * layout pads each row to 4 bytes: odd-width 4:2:0 planes are described
 * explicitly, or rawvideoparse would read them skewed. */
static gchar *
tight_420_layout (const gchar * format, gint w, gint h)
{
  gint bps = g_str_has_prefix (format, "i420-1") ? 2 : 1;
  gint cw = (w + 1) / 2, ch = (h + 1) / 2;
  gsize y = (gsize) w * h * bps, c = (gsize) cw * ch * bps;

  if (strcmp (format, "i420") && strcmp (format, "i420-10le") &&
      strcmp (format, "i420-12le") && strcmp (format, "i420-16le"))
    return g_strdup ("");
  return g_strdup_printf (" plane-strides=<%d,%d,%d> plane-offsets=<0,%"
      G_GSIZE_FORMAT ",%" G_GSIZE_FORMAT "> frame-size=%" G_GSIZE_FORMAT,
      w * bps, cw * bps, cw * bps, y, y + c, y + 2 * c);
}

/* One input of the comparison: any file decodebin reads, or raw planar
 * YUV when a size is given (rows packed tightly, as .yuv files are). */
static gchar *
input_branch (const gchar * location, const gchar * size,
    const gchar * format, const gchar * rate, const gchar * pad)
{
  gchar *quoted = g_strescape (location, NULL);
  gchar *branch;

  if (size) {
    gint w = 0, h = 0;
    gchar *fmt = g_ascii_strdown (format, -1), *layout;

    sscanf (size, "%dx%d", &w, &h);
    g_strdelimit (fmt, "_", '-');
    layout = tight_420_layout (fmt, w, h);
    branch = g_strdup_printf ("filesrc location=\"%s\" ! rawvideoparse "
        "width=%d height=%d format=%s framerate=%s%s ! c.%s", quoted, w, h,
        fmt, rate, layout, pad);
    g_free (layout);
    g_free (fmt);
  } else {
    branch = g_strdup_printf ("filesrc location=\"%s\" ! decodebin ! "
        "videoconvert ! c.%s", quoted, pad);
  }
  g_free (quoted);
  return branch;
}

static gboolean
size_is_valid (const gchar * size)
{
  gint w = 0, h = 0;
  gchar end = 0;

  return sscanf (size, "%dx%d%c", &w, &h, &end) == 2 && w > 0 && h > 0;
}

static gint
run_pipeline (const gchar * desc, PrintOptions * opt)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);
  GstBus *bus;
  gboolean done = FALSE, summary = FALSE;

  if (!pipeline) {
    g_printerr ("vmafhip-print: %s\n", err->message);
    g_error_free (err);
    return 2;
  }
  bus = gst_element_get_bus (pipeline);
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE)
    opt->exit_status = 1;       /* the error message below says why */

  while (!done) {
    GstMessage *msg = gst_bus_timed_pop (bus, GST_CLOCK_TIME_NONE);
    const GstStructure *s = gst_message_get_structure (msg);
    gchar *debug = NULL;

    switch (GST_MESSAGE_TYPE (msg)) {
      case GST_MESSAGE_ELEMENT:
        if (gst_structure_has_name (s, "vmaf") && !opt->quiet_frames)
          print_frame (opt, s);
        else if (gst_structure_has_name (s, "vmaf-summary")) {
          print_summary (opt, s);
          summary = TRUE;
        }
        break;
      case GST_MESSAGE_WARNING:
        gst_message_parse_warning (msg, &err, &debug);
        g_printerr ("warning: %s\n", err->message);
        break;
      case GST_MESSAGE_ERROR:
        gst_message_parse_error (msg, &err, &debug);
        g_printerr ("error from %s: %s\n", GST_OBJECT_NAME (msg->src),
            err->message);
        if (debug)
          g_printerr ("  (%s)\n", debug);
        opt->exit_status = 1;
        done = TRUE;
        break;
      case GST_MESSAGE_EOS:
        done = TRUE;
        break;
      default:
        break;
    }
    g_clear_error (&err);
    g_free (debug);
    gst_message_unref (msg);
  }
  if (!opt->exit_status && !summary) {
    g_printerr ("vmafhip-print: the pipeline ended without a vmaf-summary "
        "message (has it a vmafhipcompare?)\n");
    opt->exit_status = 1;
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
  return opt->exit_status;
}

int
main (int argc, char **argv)
{
  gchar *pipeline_desc = NULL, *size = NULL, *format = NULL, *rate = NULL;
  gchar *model = NULL, *features = NULL, *backend = NULL, *results = NULL;
  gchar **files = NULL;
  gboolean version = FALSE;
  PrintOptions opt = { 0 };
  GOptionEntry entries[] = {
    {"pipeline", 0, 0, G_OPTION_ARG_STRING, &pipeline_desc,
        "Run this gst-launch description (with a vmafhipcompare) instead",
        "DESCRIPTION"},
    {"metric", 'm', 0, G_OPTION_ARG_STRING_ARRAY, &opt.metrics,
          "A value to print per frame (repeatable; default: the models' "
          "scores and psnr_y)", "NAME"},
    {"model", 0, 0, G_OPTION_ARG_STRING, &model,
        "The element's model property (default vmaf_v0.6.1)", "MODELS"},
    {"features", 0, 0, G_OPTION_ARG_STRING, &features,
        "The element's features property (default psnr)", "FEATURES"},
    {"backend", 0, 0, G_OPTION_ARG_STRING, &backend,
        "auto, cpu or hip (default auto)", "BACKEND"},
    {"results", 'o', 0, G_OPTION_ARG_FILENAME, &results,
        "Also write libvmaf's JSON log there", "FILE"},
    {"size", 's', 0, G_OPTION_ARG_STRING, &size,
        "Raw planar YUV inputs of this size (no container)", "WxH"},
    {"format", 0, 0, G_OPTION_ARG_STRING, &format,
        "Raw inputs' GStreamer format (default I420; e.g. I420_10LE)", "FMT"},
    {"framerate", 0, 0, G_OPTION_ARG_STRING, &rate,
        "Raw inputs' frame rate (default 25/1)", "N/D"},
    {"all", 'a', 0, G_OPTION_ARG_NONE, &opt.all_pooled,
        "Pool every output in the summary, not only the printed ones", NULL},
    {"summary-only", 'q', 0, G_OPTION_ARG_NONE, &opt.quiet_frames,
        "Print the summary only", NULL},
    {"version", 0, 0, G_OPTION_ARG_NONE, &version,
        "Print the version and exit", NULL},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL,
        NULL},
    {NULL}
  };
  GOptionContext *ctx;
  GError *err = NULL;
  gchar *desc;
  gint status;

  setlocale (LC_ALL, "");
  ctx = g_option_context_new ("REFERENCE DISTORTED");
  g_option_context_set_summary (ctx, "Compares DISTORTED with REFERENCE "
      "(files decodebin reads: MP4, MKV, TS, Y4M, ...; raw YUV with --size) "
      "through vmafhipcompare and prints one line per frame and the pooled "
      "scores, models first.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("vmafhip-print: %s (see --help)\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  if (version) {
    g_print ("vmafhip-print " VH_VERSION "\n");
    return 0;
  }

  if (pipeline_desc && files) {
    g_printerr ("vmafhip-print: give either two files or --pipeline\n");
    return 2;
  }
  if (!pipeline_desc && (!files || g_strv_length (files) != 2)) {
    g_printerr ("vmafhip-print: give a reference and a distorted file "
        "(see --help)\n");
    return 2;
  }
  if (size && !size_is_valid (size)) {
    g_printerr ("vmafhip-print: --size '%s' is not WIDTHxHEIGHT\n", size);
    return 2;
  }

  if (pipeline_desc) {
    desc = g_strdup (pipeline_desc);
  } else {
    gchar *ref = input_branch (files[0], size, format ? format : "I420",
        rate ? rate : "25/1", "ref_sink");
    gchar *dist = input_branch (files[1], size, format ? format : "I420",
        rate ? rate : "25/1", "dist_sink");
    gchar *out = results ? g_strescape (results, NULL) : NULL;

    desc = g_strdup_printf ("%s %s vmafhipcompare name=c model=\"%s\" "
        "features=\"%s\" backend=%s%s%s%s ! fakesink", ref, dist,
        model ? model : "vmaf_v0.6.1", features ? features : "psnr",
        backend ? backend : "auto", out ? " results-filename=\"" : "",
        out ? out : "", out ? "\"" : "");
    g_free (ref);
    g_free (dist);
    g_free (out);
  }

  status = run_pipeline (desc, &opt);
  g_free (desc);
  g_strfreev (files);
  g_strfreev (opt.metrics);
  g_free (pipeline_desc);
  g_free (size);
  g_free (format);
  g_free (rate);
  g_free (model);
  g_free (features);
  g_free (backend);
  g_free (results);
  return status;
}
