/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "output.h"
#include "output-escape.h"
#include "errors.h"
#include "feature-alias.h"
#include "pool.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#ifndef VH_VERSION
#define VH_VERSION "0.1.0"
#endif

/* The layouts are libvmaf's, byte for byte, quirks included, so that tools
 * reading its logs read ours. Numbers never depend on the locale. */

#define NUMBER_BUF 512          /* enough for "%.16f" of any double */

/* Pooled metrics come in this order in libvmaf's logs. */
static const VhPoolMethod pooled_order[] = {
  VH_POOL_MIN, VH_POOL_MAX, VH_POOL_MEAN, VH_POOL_HARMONIC_MEAN
};

gboolean
vh_output_format_from_string (const gchar * str, VhOutputFormat * format)
{
  static const gchar *const names[] = {
    [VH_OUTPUT_JSON] = "json",
    [VH_OUTPUT_XML] = "xml",
    [VH_OUTPUT_CSV] = "csv",
    [VH_OUTPUT_SUB] = "sub",
  };

  for (guint i = 0; str && i < G_N_ELEMENTS (names); i++) {
    if (!g_ascii_strcasecmp (str, names[i])) {
      *format = (VhOutputFormat) i;
      return TRUE;
    }
  }
  return FALSE;
}

/* Zeros right after the decimal point (0 for an integer or beyond the int
 * range, where libvmaf's conversion to int gives nothing useful). */
static gint
fraction_leading_zeros (gdouble x)
{
  gdouble frac;
  gint n = 0;

  x = fabs (x);
  if (!(x < 2147483648.0))
    return 0;
  frac = x - trunc (x);
  while (frac < 1.0 && frac != 0) {
    frac *= 10;
    n++;
  }
  return n;
}

/* Six decimals, or sixteen for values that six would show as zero. NaN
 * and infinities come out as the C library prints them ("-nan", "inf"),
 * as in libvmaf's XML, CSV and SUB logs. */
static const gchar *
format_value (gchar * buf, gdouble v)
{
  return g_ascii_formatd (buf, NUMBER_BUF,
      fraction_leading_zeros (v) <= 6 ? "%.6f" : "%.16f", v);
}

static gboolean
is_finite_value (gdouble v)
{
  return isfinite (v);
}

typedef struct
{
  VhFeatureCollector *fc;
  const VhOutputInfo *info;
  FILE *out;
  guint n_features;
  gdouble *row;                 /* one frame's values */
  gboolean *present;
  gchar **names;                /* output names escaped for the layout */
} Writer;

/* Loads frame @index; FALSE if it holds no value at all or is skipped. */
static gboolean
load_frame (Writer * w, guint index)
{
  gboolean any = FALSE;

  if (w->info->subsample > 1 && index % w->info->subsample)
    return FALSE;
  for (guint j = 0; j < w->n_features; j++) {
    w->present[j] = vh_feature_collector_get (w->fc,
        vh_feature_collector_feature_name (w->fc, j), index, &w->row[j]);
    any |= w->present[j];
  }
  return any;
}

static const gchar *
feature_alias (Writer * w, guint j)
{
  return w->names[j];
}

/* Names come from users too (a model's name=): each layout gets them
 * escaped as it needs. */
static gchar **
escaped_names (VhFeatureCollector * fc, guint n, gchar * (*escape) (const
        gchar *))
{
  gchar **names = g_new0 (gchar *, n + 1);

  for (guint j = 0; j < n; j++)
    names[j] = escape (vh_feature_name_alias (vh_feature_collector_feature_name
            (fc, j)));
  return names;
}

/* Frames past info->n_frames may be partly scored (a log written while
 * scoring goes on): they are left out. */
static guint
frames_to_write (Writer * w)
{
  return MIN (vh_feature_collector_n_frames (w->fc), w->info->n_frames);
}

static gboolean
pool (Writer * w, guint j, VhPoolMethod method, gdouble * v)
{
  if (w->info->n_frames == 0)
    return FALSE;
  return vh_pool_feature (w->fc, vh_feature_collector_feature_name (w->fc, j),
      method, 0, w->info->n_frames - 1, MAX (w->info->subsample, 1), v, NULL);
}

/* The metric's values over the pooled frames, sorted, for the
 * percentiles; NULL when none are asked for or the metric cannot pool. */
static GArray *
sorted_values (Writer * w, guint j)
{
  GArray *values;

  if (w->info->n_percentiles == 0 || w->info->n_frames == 0)
    return NULL;
  values = g_array_new (FALSE, FALSE, sizeof (gdouble));
  if (!vh_pool_feature_sorted (w->fc,
          vh_feature_collector_feature_name (w->fc, j), 0,
          w->info->n_frames - 1, MAX (w->info->subsample, 1), values, NULL))
    g_clear_pointer (&values, g_array_unref);
  return values;
}

static gdouble
percentile (Writer * w, GArray * values, guint p)
{
  return vh_pool_percentile ((const gdouble *) values->data, values->len,
      w->info->percentiles[p]);
}

static void
write_json (Writer * w)
{
  gchar buf[NUMBER_BUF];
  guint n_frames = frames_to_write (w);
  guint n_aggregates = vh_feature_collector_n_aggregates (w->fc);

  fprintf (w->out, "{\n");
  fprintf (w->out, "  \"version\": \"%s\",\n", VH_VERSION);
  if (is_finite_value (w->info->fps))
    fprintf (w->out, "  \"fps\": %s,\n", g_ascii_formatd (buf, sizeof (buf),
            "%.2f", w->info->fps));
  else
    fprintf (w->out, "  \"fps\": null,\n");
  if (w->info->dispatch) {
    g_autofree gchar *esc = vh_escape_json (w->info->dispatch);
    fprintf (w->out, "  \"dispatch\": \"%s\",\n", esc);
  }
  if (w->info->scaler) {
    g_autofree gchar *esc = vh_escape_json (w->info->scaler);
    fprintf (w->out, "  \"scaler\": \"%s\",\n", esc);
  }
  if (w->info->alignment_json)
    fprintf (w->out, "  \"alignment\": %s,\n", w->info->alignment_json);

  fprintf (w->out, "  \"frames\": [");
  for (guint i = 0; i < n_frames; i++) {
    guint count = 0, written = 0;

    if (!load_frame (w, i))
      continue;
    for (guint j = 0; j < w->n_features; j++)
      count += w->present[j];
    /* libvmaf separates by frame number, not by frames written. */
    fprintf (w->out, "%s", i > 0 ? ",\n" : "\n");
    fprintf (w->out, "    {\n");
    fprintf (w->out, "      \"frameNum\": %u,\n", i);
    fprintf (w->out, "      \"metrics\": {\n");
    for (guint j = 0; j < w->n_features; j++) {
      if (!w->present[j])
        continue;
      written++;
      /* libvmaf ends a null line without a newline. */
      if (is_finite_value (w->row[j]))
        fprintf (w->out, "        \"%s\": %s%s\n", feature_alias (w, j),
            format_value (buf, w->row[j]), written < count ? "," : "");
      else
        fprintf (w->out, "        \"%s\": null%s", feature_alias (w, j),
            written < count ? "," : "");
    }
    fprintf (w->out, "      }\n");
    fprintf (w->out, "    }");
  }
  fprintf (w->out, "\n  ],\n");

  fprintf (w->out, "  \"pooled_metrics\": {");
  for (guint j = 0; j < w->n_features; j++) {
    GArray *values;

    fprintf (w->out, "%s", j > 0 ? ",\n" : "\n");
    fprintf (w->out, "    \"%s\": {", feature_alias (w, j));
    for (guint m = 0; m < G_N_ELEMENTS (pooled_order); m++) {
      gdouble v;
      if (!pool (w, j, pooled_order[m], &v))
        continue;
      fprintf (w->out, "%s", m > 0 ? ",\n" : "\n");
      if (is_finite_value (v))
        fprintf (w->out, "      \"%s\": %s",
            vh_pool_method_to_string (pooled_order[m]), format_value (buf, v));
      else
        fprintf (w->out, "      \"%s\": null",
            vh_pool_method_to_string (pooled_order[m]));
    }
    values = sorted_values (w, j);
    for (guint p = 0; values && p < w->info->n_percentiles; p++) {
      gdouble v = percentile (w, values, p);

      if (is_finite_value (v))
        fprintf (w->out, ",\n      \"%s\": %s",
            w->info->percentile_names[p], format_value (buf, v));
      else
        fprintf (w->out, ",\n      \"%s\": null",
            w->info->percentile_names[p]);
    }
    if (values)
      g_array_unref (values);
    fprintf (w->out, "\n");
    fprintf (w->out, "    }");
  }
  fprintf (w->out, "\n  },\n");

  fprintf (w->out, "  \"aggregate_metrics\": {");
  for (guint i = 0; i < n_aggregates; i++) {
    gdouble v;
    const gchar *name = vh_feature_collector_aggregate (w->fc, i, &v);
    if (is_finite_value (v))
      fprintf (w->out, "\n    \"%s\": %s", name, format_value (buf, v));
    else
      fprintf (w->out, "\n    \"%s\": null", name);
    fprintf (w->out, "%s", i + 1 < n_aggregates ? "," : "");
  }
  fprintf (w->out, "\n  }\n");
  fprintf (w->out, "}\n");
}

static void
write_xml (Writer * w)
{
  gchar buf[NUMBER_BUF];
  guint n_frames = frames_to_write (w);

  fprintf (w->out, "<VMAF version=\"%s\">\n", VH_VERSION);
  fprintf (w->out, "  <params qualityWidth=\"%u\" qualityHeight=\"%u\" />\n",
      w->info->width, w->info->height);
  fprintf (w->out, "  <fyi fps=\"%s\"", g_ascii_formatd (buf,
          sizeof (buf), "%.2f", w->info->fps));
  if (w->info->dispatch) {
    gchar *esc = vh_escape_xml_value (w->info->dispatch);
    fprintf (w->out, " dispatch=\"%s\"", esc);
    g_free (esc);
  }
  if (w->info->scaler) {
    gchar *esc = vh_escape_xml_value (w->info->scaler);
    fprintf (w->out, " scaler=\"%s\"", esc);
    g_free (esc);
  }
  if (w->info->alignment) {
    gchar *esc = vh_escape_xml_value (w->info->alignment);
    fprintf (w->out, " alignment=\"%s\"", esc);
    g_free (esc);
  }
  fprintf (w->out, " />\n");

  fprintf (w->out, "  <frames>\n");
  for (guint i = 0; i < n_frames; i++) {
    if (!load_frame (w, i))
      continue;
    fprintf (w->out, "    <frame frameNum=\"%u\" ", i);
    for (guint j = 0; j < w->n_features; j++) {
      if (w->present[j])
        fprintf (w->out, "%s=\"%s\" ", feature_alias (w, j),
            format_value (buf, w->row[j]));
    }
    fprintf (w->out, "/>\n");
  }
  fprintf (w->out, "  </frames>\n");

  fprintf (w->out, "  <pooled_metrics>\n");
  for (guint j = 0; j < w->n_features; j++) {
    g_autofree gchar *name = vh_escape_xml_value (vh_feature_name_alias
        (vh_feature_collector_feature_name (w->fc, j)));
    GArray *values;

    fprintf (w->out, "    <metric name=\"%s\" ", name);
    for (guint m = 0; m < G_N_ELEMENTS (pooled_order); m++) {
      gdouble v;
      if (pool (w, j, pooled_order[m], &v))
        fprintf (w->out, "%s=\"%s\" ",
            vh_pool_method_to_string (pooled_order[m]), format_value (buf, v));
    }
    values = sorted_values (w, j);
    for (guint p = 0; values && p < w->info->n_percentiles; p++)
      fprintf (w->out, "%s=\"%s\" ", w->info->percentile_names[p],
          format_value (buf, percentile (w, values, p)));
    if (values)
      g_array_unref (values);
    fprintf (w->out, "/>\n");
  }
  fprintf (w->out, "  </pooled_metrics>\n");

  fprintf (w->out, "  <aggregate_metrics ");
  for (guint i = 0; i < vh_feature_collector_n_aggregates (w->fc); i++) {
    gdouble v;
    const gchar *name = vh_feature_collector_aggregate (w->fc, i, &v);
    fprintf (w->out, "%s=\"%s\" ", name, format_value (buf, v));
  }
  fprintf (w->out, "/>\n");
  fprintf (w->out, "</VMAF>\n");
}

static void
write_csv (Writer * w)
{
  gchar buf[NUMBER_BUF];
  guint n_frames = frames_to_write (w);

  fprintf (w->out, "Frame,");
  for (guint j = 0; j < w->n_features; j++)
    fprintf (w->out, "%s,", feature_alias (w, j));
  fprintf (w->out, "\n");

  for (guint i = 0; i < n_frames; i++) {
    if (!load_frame (w, i))
      continue;
    fprintf (w->out, "%u,", i);
    /* Missing values are left out, not left empty, as libvmaf does. */
    for (guint j = 0; j < w->n_features; j++) {
      if (w->present[j])
        fprintf (w->out, "%s,", format_value (buf, w->row[j]));
    }
    fprintf (w->out, "\n");
  }
}

static void
write_sub (Writer * w)
{
  gchar buf[NUMBER_BUF];
  guint n_frames = frames_to_write (w);

  for (guint i = 0; i < n_frames; i++) {
    if (!load_frame (w, i))
      continue;
    fprintf (w->out, "{%u}{%u}frame: %u|", i, i + 1, i);
    for (guint j = 0; j < w->n_features; j++) {
      if (w->present[j])
        fprintf (w->out, "%s: %s|", feature_alias (w, j),
            format_value (buf, w->row[j]));
    }
    fprintf (w->out, "\n");
  }
}

gboolean
vh_output_write_info (VhFeatureCollector * fc, VhOutputFormat format,
    const VhOutputInfo * info, FILE * out, GError ** error)
{
  Writer w = { fc, info, out };

  w.n_features = vh_feature_collector_n_features (fc);
  w.row = g_new0 (gdouble, MAX (w.n_features, 1));
  w.present = g_new0 (gboolean, MAX (w.n_features, 1));
  w.names = escaped_names (fc, w.n_features, format == VH_OUTPUT_JSON ?
      vh_escape_json : format == VH_OUTPUT_XML ? vh_escape_xml_name :
      format == VH_OUTPUT_CSV ? vh_escape_csv : vh_escape_sub);
  switch (format) {
    case VH_OUTPUT_JSON:
      write_json (&w);
      break;
    case VH_OUTPUT_XML:
      write_xml (&w);
      break;
    case VH_OUTPUT_CSV:
      write_csv (&w);
      break;
    case VH_OUTPUT_SUB:
      write_sub (&w);
      break;
  }
  g_free (w.row);
  g_free (w.present);
  g_strfreev (w.names);
  if (fflush (out) != 0 || ferror (out)) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "write error: %s",
        g_strerror (errno));
    return FALSE;
  }
  return TRUE;
}

gboolean
vh_output_write_info_file (VhFeatureCollector * fc, VhOutputFormat format,
    const VhOutputInfo * info, const gchar * path, GError ** error)
{
  FILE *out = fopen (path, "w");
  GError *err = NULL;
  gboolean ok;

  if (!out) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "cannot open '%s' for "
        "writing: %s", path, g_strerror (errno));
    return FALSE;
  }
  ok = vh_output_write_info (fc, format, info, out, &err);
  if (fclose (out) != 0 && ok) {
    g_set_error (&err, VH_ERROR, VH_ERROR_IO, "%s", g_strerror (errno));
    ok = FALSE;
  }
  if (!ok) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "cannot write '%s': %s", path,
        err->message);
    g_error_free (err);
  }
  return ok;
}

gboolean
vh_output_write_file (VhFeatureCollector * fc, VhOutputFormat format,
    guint n_frames, guint subsample, gdouble fps, const gchar * path,
    GError ** error)
{
  VhOutputInfo info = { n_frames, subsample, fps, 0, 0 };

  return vh_output_write_info_file (fc, format, &info, path, error);
}
