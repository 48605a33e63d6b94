/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "golden.h"
#include "output.h"
#include "pool.h"
#include "test-data.h"

static gchar *
write_to_string (VhFeatureCollector * fc, VhOutputFormat format,
    const VhOutputInfo * info)
{
  g_autoptr (GError) err = NULL;
  gchar *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream (&buf, &len);

  g_assert_nonnull (out);
  g_assert_true (vh_output_write_info (fc, format, info, out, &err));
  g_assert_no_error (err);
  fclose (out);
  return buf;
}

static void
test_format_names (void)
{
  VhOutputFormat f;

  g_assert_true (vh_output_format_from_string ("json", &f));
  g_assert_cmpint (f, ==, VH_OUTPUT_JSON);
  g_assert_true (vh_output_format_from_string ("xml", &f));
  g_assert_cmpint (f, ==, VH_OUTPUT_XML);
  g_assert_true (vh_output_format_from_string ("csv", &f));
  g_assert_cmpint (f, ==, VH_OUTPUT_CSV);
  g_assert_true (vh_output_format_from_string ("sub", &f));
  g_assert_cmpint (f, ==, VH_OUTPUT_SUB);
  g_assert_false (vh_output_format_from_string ("yaml", &f));
}

/* ------------------------------------------------------------------ */
/* Layout against libvmaf. tests/data/output/libvmaf-* are logs written by
 * libvmaf 3.2's vmaf command line tool for the first frames of the golden
 * pair a_576x324_8bit_x264 (reference a_576x324_8bit_ref), 576x324 8-bit
 * 4:2:0 raw input:
 *   libvmaf-a4.{json,xml,csv,sub}: --model version=vmaf_v0.6.1
 *       --feature psnr --frame_cnt 4, one run per format
 *   libvmaf-a5-sub2.json: --model version=vmaf_v0.6.1 --frame_cnt 5
 *       --subsample 2
 * We load the per-frame values of the JSON log, write every format and
 * compare with libvmaf's text. The only differences allowed: the version
 * string, the fps measured by each run (we write the one it logged), and
 * the last digit of pooled values, which libvmaf computed from unrounded
 * values (test-pool checks those against a derived bound). */

#define POOLED_TOLERANCE 5e-6

typedef struct
{
  VhFeatureCollector *fc;
  guint n_frames;
} Loaded;

static Loaded
load_log (const gchar * name)
{
  g_autofree gchar *path = vh_test_data_path (name);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) err = NULL;
  JsonArray *frames;
  Loaded l = { vh_feature_collector_new (), 0 };

  g_assert_true (json_parser_load_from_file (parser, path, &err));
  g_assert_no_error (err);
  frames = json_object_get_array_member (json_node_get_object
      (json_parser_get_root (parser)), "frames");
  for (guint i = 0; i < json_array_get_length (frames); i++) {
    JsonObject *fr = json_array_get_object_element (frames, i);
    guint num = json_object_get_int_member (fr, "frameNum");
    JsonObject *metrics = json_object_get_object_member (fr, "metrics");
    g_autoptr (GList) names = json_object_get_members (metrics);

    for (GList * n = names; n; n = n->next) {
      vh_feature_collector_append (l.fc, n->data, num,
          json_object_get_double_member (metrics, n->data), &err);
      g_assert_no_error (err);
    }
    l.n_frames = MAX (l.n_frames, num + 1);
  }
  return l;
}

/* The fps a log states, from `"fps": X` or `fps="X"`. */
static gdouble
log_fps (const gchar * text)
{
  const gchar *p = strstr (text, "fps");

  g_assert_nonnull (p);
  p += 3;
  while (*p && !g_ascii_isdigit (*p))
    p++;
  return g_ascii_strtod (p, NULL);
}

/* Splits @line into the text around numbers and the numbers. */
static gchar *
skeleton (const gchar * line, GArray * numbers)
{
  GString *s = g_string_new (NULL);

  for (const gchar * p = line; *p;) {
    if (g_ascii_isdigit (*p) || (*p == '-' && g_ascii_isdigit (p[1]))) {
      gchar *end;
      gdouble v = g_ascii_strtod (p, &end);
      g_array_append_val (numbers, v);
      g_string_append_c (s, '#');
      p = end;
    } else {
      g_string_append_c (s, *p++);
    }
  }
  return g_string_free (s, FALSE);
}

static gboolean
is_pooled_line (const gchar * line, gboolean in_pooled_json)
{
  return in_pooled_json || g_str_has_prefix (line, "    <metric ");
}

/* Replaces the version value (after `version` up to the next quote pair)
 * by "V". */
static gchar *
mask_version (const gchar * text)
{
  const gchar *v = strstr (text, "version");
  const gchar *open, *close;

  if (!v)
    return g_strdup (text);
  open = strchr (v + strlen ("version") + 1, '"');
  g_assert_nonnull (open);
  close = strchr (open + 1, '"');
  g_assert_nonnull (close);
  return g_strdup_printf ("%.*sV%s", (gint) (open + 1 - text), text, close);
}

static void
compare_with_libvmaf (const gchar * ours_raw, const gchar * theirs_raw)
{
  g_autofree gchar *ours = mask_version (ours_raw);
  g_autofree gchar *theirs = mask_version (theirs_raw);
  g_auto (GStrv) a = g_strsplit (ours, "\n", -1);
  g_auto (GStrv) b = g_strsplit (theirs, "\n", -1);
  gboolean in_pooled = FALSE;

  g_assert_cmpuint (g_strv_length (a), ==, g_strv_length (b));
  for (guint i = 0; a[i]; i++) {
    g_autoptr (GArray) na = g_array_new (FALSE, FALSE, sizeof (gdouble));
    g_autoptr (GArray) nb = g_array_new (FALSE, FALSE, sizeof (gdouble));
    g_autofree gchar *sa = NULL, *sb = NULL;

    if (g_str_has_prefix (b[i], "  \"pooled_metrics\""))
      in_pooled = TRUE;
    else if (g_str_has_prefix (b[i], "  \"aggregate_metrics\""))
      in_pooled = FALSE;
    if (!strcmp (a[i], b[i]))
      continue;
    /* Only pooled values may differ, and only in the last digit. */
    if (!is_pooled_line (b[i], in_pooled))
      g_error ("line %u differs:\n ours:    %s\n libvmaf: %s", i + 1, a[i],
          b[i]);
    sa = skeleton (a[i], na);
    sb = skeleton (b[i], nb);
    g_assert_cmpstr (sa, ==, sb);
    g_assert_cmpuint (na->len, ==, nb->len);
    for (guint k = 0; k < na->len; k++) {
      if (fabs (g_array_index (na, gdouble, k) - g_array_index (nb, gdouble,
                  k)) > POOLED_TOLERANCE)
        g_error ("line %u: pooled value %u differs:\n ours:    %s\n "
            "libvmaf: %s", i + 1, k, a[i], b[i]);
    }
  }
}

static void
check_layout (const gchar * values_log, const gchar * expected,
    VhOutputFormat format, guint subsample)
{
  Loaded l = load_log (values_log);
  g_autofree gchar *path = vh_test_data_path (expected);
  g_autofree gchar *theirs = NULL;
  g_autofree gchar *ours = NULL;
  VhOutputInfo info = { l.n_frames, subsample, 0.0, 576, 324 };

  g_assert_true (g_file_get_contents (path, &theirs, NULL, NULL));
  if (format == VH_OUTPUT_JSON || format == VH_OUTPUT_XML)
    info.fps = log_fps (theirs);
  ours = write_to_string (l.fc, format, &info);
  compare_with_libvmaf (ours, theirs);
  vh_feature_collector_free (l.fc);
}

static void
test_layout_json (void)
{
  check_layout ("output/libvmaf-a4.json", "output/libvmaf-a4.json",
      VH_OUTPUT_JSON, 1);
}

static void
test_layout_xml (void)
{
  check_layout ("output/libvmaf-a4.json", "output/libvmaf-a4.xml",
      VH_OUTPUT_XML, 1);
}

static void
test_layout_csv (void)
{
  check_layout ("output/libvmaf-a4.json", "output/libvmaf-a4.csv",
      VH_OUTPUT_CSV, 1);
}

static void
test_layout_sub (void)
{
  check_layout ("output/libvmaf-a4.json", "output/libvmaf-a4.sub",
      VH_OUTPUT_SUB, 1);
}

static void
test_layout_subsample (void)
{
  check_layout ("output/libvmaf-a5-sub2.json", "output/libvmaf-a5-sub2.json",
      VH_OUTPUT_JSON, 2);
}

/* ------------------------------------------------------------------ */
/* What we write parses back to the same values, for every golden log. */

static void
check_round_trip (const VhGoldenPair * pair, const gchar * file)
{
  g_autoptr (GError) err = NULL;
  VhGoldenScores *gs = vh_golden_scores_load (pair, file, &err);
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree gchar *text = NULL;
  const gchar *const *metrics;
  JsonObject *root, *pooled;
  JsonArray *frames;
  guint n;
  VhOutputInfo info = { 0, 1, 25.0, pair->width, pair->height };

  g_assert_no_error (err);
  if (!gs)
    return;
  n = vh_golden_scores_n_frames (gs);
  metrics = vh_golden_scores_metrics (gs);
  for (guint f = 0; f < n; f++) {
    for (guint k = 0; metrics[k]; k++) {
      gdouble v;
      g_assert_true (vh_golden_scores_get (gs, f, metrics[k], &v));
      vh_feature_collector_append (fc, metrics[k], f, v, NULL);
    }
  }
  info.n_frames = n;
  text = write_to_string (fc, VH_OUTPUT_JSON, &info);

  g_assert_true (json_parser_load_from_data (parser, text, -1, &err));
  g_assert_no_error (err);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpfloat (json_object_get_double_member (root, "fps"), ==, 25.0);
  g_assert_true (json_object_has_member (root, "version"));
  frames = json_object_get_array_member (root, "frames");
  g_assert_cmpuint (json_array_get_length (frames), ==, n);
  for (guint f = 0; f < n; f++) {
    JsonObject *fr = json_array_get_object_element (frames, f);
    JsonObject *m = json_object_get_object_member (fr, "metrics");

    g_assert_cmpint (json_object_get_int_member (fr, "frameNum"), ==, f);
    g_assert_cmpuint (json_object_get_size (m), ==,
        g_strv_length ((gchar **) metrics));
    for (guint k = 0; metrics[k]; k++) {
      gdouble want;
      vh_golden_scores_get (gs, f, metrics[k], &want);
      /* Six decimals in, six decimals out: exactly the same doubles. */
      g_assert_cmpfloat (json_object_get_double_member (m, metrics[k]), ==,
          want);
    }
  }
  pooled = json_object_get_object_member (root, "pooled_metrics");
  for (guint k = 0; n && metrics[k]; k++) {
    JsonObject *pm = json_object_get_object_member (pooled, metrics[k]);
    static const gchar *const order[] = { "min", "max", "mean",
      "harmonic_mean"
    };
    g_autoptr (GList) members = json_object_get_members (pm);
    GList *l = members;

    for (guint i = 0; i < G_N_ELEMENTS (order); i++, l = l->next) {
      VhPoolMethod method;
      gdouble v;
      g_assert_nonnull (l);
      g_assert_cmpstr (l->data, ==, order[i]);
      g_assert_true (vh_pool_method_from_string (order[i], &method));
      g_assert_true (vh_pool_feature (fc, metrics[k], method, 0, n - 1, 1,
              &v, NULL));
      g_assert_cmpfloat (fabs (json_object_get_double_member (pm, order[i]) -
              v), <=, 5e-7 + 1e-12);
    }
  }
  g_assert_cmpuint (json_object_get_size (json_object_get_object_member (root,
              "aggregate_metrics")), ==, 0);
  vh_golden_scores_free (gs);
}

static void
test_round_trip (void)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();

  if (!pairs || !pairs->len) {
    g_test_skip ("no golden data");
    return;
  }
  for (guint p = 0; p < pairs->len; p++) {
    check_round_trip (g_ptr_array_index (pairs, p), "vmaf_v0.6.1+psnr.json");
    check_round_trip (g_ptr_array_index (pairs, p), "models_extra.json");
  }
}

/* ------------------------------------------------------------------ */
/* libvmaf's corner cases, as its writers behave. */

static void
test_corner_cases (void)
{
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  VhOutputInfo info = { 3, 1, NAN, 8, 8 };
  g_autofree gchar *json = NULL, *csv = NULL, *sub = NULL;

  /* Frame 0 holds nothing, frame 2 misses "b"; tiny values get sixteen
   * decimals; an infinity is null in JSON. */
  vh_feature_collector_append (fc, "a", 1, 1.5e-7, NULL);
  vh_feature_collector_append (fc, "b", 1, INFINITY, NULL);
  vh_feature_collector_append (fc, "a", 2, -2.25, NULL);
  vh_feature_collector_append (fc, "VMAF_integer_feature_adm2_score", 2, 1.0,
      NULL);

  json = write_to_string (fc, VH_OUTPUT_JSON, &info);
  g_assert_nonnull (strstr (json, "  \"fps\": null,\n"));
  /* The first frame written is frame 1: libvmaf still puts a comma. */
  g_assert_nonnull (strstr (json, "  \"frames\": [,\n    {\n"
          "      \"frameNum\": 1,\n"));
  g_assert_nonnull (strstr (json, "        \"a\": 0.0000001500000000,\n"));
  /* A null value ends without a newline. */
  g_assert_nonnull (strstr (json, "        \"b\": null      }\n"));
  /* Internal names are logged under their aliases. */
  g_assert_nonnull (strstr (json, "        \"integer_adm2\": 1.000000\n"));
  /* Pooling fails for "a" and "b" (holes): empty objects. */
  g_assert_nonnull (strstr (json, "    \"a\": {\n    },\n"));

  csv = write_to_string (fc, VH_OUTPUT_CSV, &info);
  g_assert_cmpstr (csv, ==, "Frame,a,b,integer_adm2,\n"
      "1,0.0000001500000000,inf,\n" "2,-2.250000,1.000000,\n");

  sub = write_to_string (fc, VH_OUTPUT_SUB, &info);
  g_assert_cmpstr (sub, ==, "{1}{2}frame: 1|a: 0.0000001500000000|b: inf|\n"
      "{2}{3}frame: 2|a: -2.250000|integer_adm2: 1.000000|\n");
}

/* NaN is a value: null in JSON, "-nan"/"nan" as printf writes it in the
 * other layouts; pooling goes through it with libvmaf's comparisons (min
 * and max keep the first frame's NaN, mean and harmonic mean are NaN).
 * Aggregates follow the pooled metrics. */
static void
test_nan_and_aggregates (void)
{
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  VhOutputInfo info = { 2, 1, 25.0, 8, 8 };
  g_autofree gchar *json = NULL, *xml = NULL, *csv = NULL, *sub = NULL;
  gdouble v = 0.0;

  g_assert_true (vh_feature_collector_append (fc, "a", 0, -NAN, NULL));
  g_assert_true (vh_feature_collector_append (fc, "a", 1, 2.0, NULL));
  g_assert_true (vh_feature_collector_append (fc, "b", 0, 1.0, NULL));
  g_assert_true (vh_feature_collector_append (fc, "b", 1, NAN, NULL));
  /* A NaN is written: a second write fails as for any value. */
  g_assert_false (vh_feature_collector_append (fc, "b", 1, 3.0, NULL));
  g_assert_true (vh_feature_collector_get (fc, "b", 1, &v));
  g_assert_true (isnan (v));
  vh_feature_collector_set_aggregate (fc, "agg_x", 40.5);
  vh_feature_collector_set_aggregate (fc, "agg_y", NAN);

  json = write_to_string (fc, VH_OUTPUT_JSON, &info);
  g_assert_nonnull (strstr (json, "        \"a\": null,        \"b\": 1.0"));
  g_assert_nonnull (strstr (json, "    \"a\": {\n      \"min\": null,\n"
          "      \"max\": null,\n      \"mean\": null,\n"
          "      \"harmonic_mean\": null\n    }"));
  g_assert_nonnull (strstr (json, "    \"b\": {\n      \"min\": 1.000000,\n"
          "      \"max\": 1.000000,\n      \"mean\": null,\n"));
  g_assert_nonnull (strstr (json, "  \"aggregate_metrics\": {\n"
          "    \"agg_x\": 40.500000,\n    \"agg_y\": null\n  }\n}\n"));

  xml = write_to_string (fc, VH_OUTPUT_XML, &info);
  g_assert_nonnull (strstr (xml, "<frame frameNum=\"0\" a=\"-nan\" "
          "b=\"1.000000\" />"));
  g_assert_nonnull (strstr (xml, "<metric name=\"a\" min=\"-nan\" "
          "max=\"-nan\" mean=\"-nan\" harmonic_mean=\"-nan\" />"));
  g_assert_nonnull (strstr (xml, "  <aggregate_metrics agg_x=\"40.500000\" "
          "agg_y=\"nan\" />\n"));

  csv = write_to_string (fc, VH_OUTPUT_CSV, &info);
  g_assert_cmpstr (csv, ==, "Frame,a,b,\n0,-nan,1.000000,\n"
      "1,2.000000,nan,\n");
  sub = write_to_string (fc, VH_OUTPUT_SUB, &info);
  g_assert_cmpstr (sub, ==, "{0}{1}frame: 0|a: -nan|b: 1.000000|\n"
      "{1}{2}frame: 1|a: 2.000000|b: nan|\n");
}

static void
test_write_file (void)
{
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  g_autoptr (GError) err = NULL;
  g_autofree gchar *dir = g_dir_make_tmp ("vh-output-XXXXXX", &err);
  g_autofree gchar *path = NULL, *bad = NULL, *text = NULL;

  g_assert_no_error (err);
  path = g_build_filename (dir, "log.csv", NULL);
  bad = g_build_filename (dir, "missing", "log.csv", NULL);
  vh_feature_collector_append (fc, "vmaf", 0, 50.0, NULL);

  g_assert_true (vh_output_write_file (fc, VH_OUTPUT_CSV, 1, 1, 10.0, path,
          &err));
  g_assert_no_error (err);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "Frame,vmaf,\n0,50.000000,\n");

  g_assert_false (vh_output_write_file (fc, VH_OUTPUT_JSON, 1, 1, 10.0, bad,
          &err));
  g_assert_error (err, VH_ERROR, VH_ERROR_IO);
  g_assert_nonnull (strstr (err->message, bad));

  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/output/format-names", test_format_names);
  g_test_add_func ("/output/layout-json", test_layout_json);
  g_test_add_func ("/output/layout-xml", test_layout_xml);
  g_test_add_func ("/output/layout-csv", test_layout_csv);
  g_test_add_func ("/output/layout-sub", test_layout_sub);
  g_test_add_func ("/output/layout-subsample", test_layout_subsample);
  g_test_add_func ("/output/round-trip", test_round_trip);
  g_test_add_func ("/output/corner-cases", test_corner_cases);
  g_test_add_func ("/output/write-file", test_write_file);
  g_test_add_func ("/output/nan-and-aggregates", test_nan_and_aggregates);
  return g_test_run ();
}
