/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* ssimulacra2's colorimetry from the caps: the same raw frames, told
 * BT.709 or BT.601, limited or full range by rawvideoparse, score
 * differently, each exactly as vmafhip-score with the matching options;
 * explicit options win over the caps, the reference and the distorted
 * input are each converted with their own caps' colorimetry, a matrix
 * without a conversion (SMPTE 240M) falls back to BT.709, and caps that
 * change mid-stream change the conversion from the next frame. */

#include <string.h>

#include <json-glib/json-glib.h>

#include "vh-gst-check.h"
#include "vh-gst-pads.h"

#define WIDTH 96
#define HEIGHT 64
#define N_FRAMES 3

static gchar *ref_path, *dist_path;

static gchar *
write_frames (gboolean distort)
{
  gchar *path = vh_gst_tmp_path (distort ? "dist.yuv" : "ref.yuv");
  GString *bytes = g_string_new (NULL);
  GError *err = NULL;

  for (guint i = 0; i < N_FRAMES; i++) {
    GstBuffer *buf = vh_gst_synth_buffer (GST_VIDEO_FORMAT_I420, WIDTH,
        HEIGHT, i, distort);
    GstMapInfo map;

    g_assert_true (gst_buffer_map (buf, &map, GST_MAP_READ));
    g_string_append_len (bytes, (const gchar *) map.data, map.size);
    gst_buffer_unmap (buf, &map);
    gst_buffer_unref (buf);
  }
  g_file_set_contents (path, bytes->str, bytes->len, &err);
  g_assert_no_error (err);
  g_string_free (bytes, TRUE);
  return path;
}

static void
make_inputs (void)
{
  if (!ref_path) {
    ref_path = write_frames (FALSE);
    dist_path = write_frames (TRUE);
  }
}

/* The element's per-frame ssimulacra2 (full precision, from its
 * messages) with the caps' colorimetry @ref_color and @dist_color and
 * @feature; its results file goes to @results. */
static GArray *
element_scores (const gchar * ref_color, const gchar * dist_color,
    const gchar * feature, const gchar * results)
{
  gchar *desc = g_strdup_printf ("filesrc location=\"%s\" ! rawvideoparse "
      "width=%u height=%u format=i420 framerate=25/1 colorimetry=%s ! "
      "c.ref_sink filesrc location=\"%s\" ! rawvideoparse width=%u "
      "height=%u format=i420 framerate=25/1 colorimetry=%s ! c.dist_sink "
      "vmafhipcompare name=c backend=cpu threads=2 model=\"\" "
      "features=\"%s\" results-filename=\"%s\" ! fakesink", ref_path, WIDTH,
      HEIGHT, ref_color, dist_path, WIDTH, HEIGHT, dist_color, feature,
      results);
  GList *msgs = vh_gst_run_launch (desc, 120 * GST_SECOND);
  GPtrArray *frames = vh_gst_structures (msgs, "vmaf");
  GArray *scores = g_array_new (FALSE, FALSE, sizeof (gdouble));
  GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);

  vh_assert_msg (err == NULL, "%s: %s", desc, err ? err->message : "");
  g_assert_cmpuint (frames->len, ==, N_FRAMES);
  for (guint i = 0; i < frames->len; i++) {
    gdouble v = vh_gst_get_double (g_ptr_array_index (frames, i),
        "ssimulacra2");

    g_array_append_val (scores, v);
  }
  g_ptr_array_unref (frames);
  vh_gst_free_messages (msgs);
  g_free (desc);
  return scores;
}

/* vmafhip-score on the same files with --feature @feature, JSON to
 * @out. */
static void
cli_scores (const gchar * feature, const gchar * out)
{
  gchar *w = g_strdup_printf ("%u", WIDTH), *h = g_strdup_printf ("%u",
      HEIGHT);
  const gchar *args[] = { "-r", ref_path, "-d", dist_path, "-w", w,
    "-h", h, "-p", "420", "-b", "8", "--no_prediction", "--feature",
    feature, "--threads", "2", "--json", "-o", out, "-q", NULL
  };

  vh_gst_run_score (args);
  g_free (w);
  g_free (h);
}

/* The per-frame ssimulacra2 of a JSON results file. */
static GArray *
file_scores (const gchar * path)
{
  JsonParser *parser = json_parser_new ();
  GArray *scores = g_array_new (FALSE, FALSE, sizeof (gdouble));
  GError *err = NULL;
  JsonArray *frames;

  json_parser_load_from_file (parser, path, &err);
  g_assert_no_error (err);
  frames = json_object_get_array_member (json_node_get_object
      (json_parser_get_root (parser)), "frames");
  for (guint i = 0; i < json_array_get_length (frames); i++) {
    JsonObject *m = json_object_get_object_member
        (json_array_get_object_element (frames, i), "metrics");
    gdouble v = json_object_get_double_member (m, "ssimulacra2");

    g_array_append_val (scores, v);
  }
  g_object_unref (parser);
  return scores;
}

static void
assert_same (GArray * a, GArray * b, const gchar * what)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    vh_assert_msg (g_array_index (a, gdouble, i) == g_array_index (b,
            gdouble, i), "%s: frame %u: %.17g against %.17g", what, i,
        g_array_index (a, gdouble, i), g_array_index (b, gdouble, i));
}

static void
assert_all_differ (GArray * a, GArray * b, const gchar * what)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    vh_assert_msg (g_array_index (a, gdouble, i) != g_array_index (b,
            gdouble, i), "%s: frame %u: both %.17g", what, i,
        g_array_index (a, gdouble, i));
}

/* The element with caps @ref_color / @dist_color and no options equals
 * vmafhip-score with @cli_feature, value for value in the results files;
 * returns the element's full-precision scores. */
static GArray *
check_against_cli (const gchar * ref_color, const gchar * dist_color,
    const gchar * cli_feature)
{
  gchar *results = vh_gst_tmp_path ("element.json");
  gchar *cli = vh_gst_tmp_path ("cli.json");
  GArray *scores = element_scores (ref_color, dist_color, "ssimulacra2",
      results);
  GArray *from_file, *from_cli;

  cli_scores (cli_feature, cli);
  from_file = file_scores (results);
  from_cli = file_scores (cli);
  g_assert_cmpuint (from_file->len, ==, N_FRAMES);
  assert_same (from_file, from_cli, cli_feature);
  g_array_unref (from_file);
  g_array_unref (from_cli);
  g_free (cli);
  g_free (results);
  return scores;
}

/* The element with caps colorimetry @ref_a/@dist_a equals vmafhip-score
 * with @cli_a, likewise for the b's, and the two give other values in
 * every frame. */
static void
check_and_differ (const gchar * ref_a, const gchar * dist_a,
    const gchar * cli_a, const gchar * ref_b, const gchar * dist_b,
    const gchar * cli_b, const gchar * what)
{
  GArray *a, *b;

  make_inputs ();
  a = check_against_cli (ref_a, dist_a, cli_a);
  b = check_against_cli (ref_b, dist_b, cli_b);
  assert_all_differ (a, b, what);
  g_array_unref (a);
  g_array_unref (b);
}

static void
test_matrix_from_caps (void)
{
  check_and_differ ("bt709", "bt709", "ssimulacra2=matrix=bt709:range=limited",
      "bt601", "bt601", "ssimulacra2=matrix=bt601:range=limited",
      "bt709 against bt601 caps");
}

static void
test_range_from_caps (void)
{
  /* 1:3:5:1: range 0-255, BT.709 matrix, transfer and primaries */
  check_and_differ ("bt709", "bt709", "ssimulacra2=matrix=bt709:range=limited",
      "1:3:5:1", "1:3:5:1", "ssimulacra2=matrix=bt709:range=full",
      "limited against full range caps");
}

/* Each input is converted with its own caps' colorimetry (as libjxl's
 * tool converts each image with its own colour profile). */
static void
test_each_input_its_own (void)
{
  check_and_differ ("bt709", "bt601",
      "ssimulacra2=matrix=bt709:range=limited:dist_matrix=bt601",
      "bt709", "bt709", "ssimulacra2=matrix=bt709:range=limited",
      "bt709/bt601 against bt709/bt709 caps");
}

/* matrix and range given: the caps are not asked. */
static void
test_options_win (void)
{
  gchar *results = vh_gst_tmp_path ("element.json");
  GArray *caps, *options, *partial;

  make_inputs ();
  caps = element_scores ("bt709", "bt709", "ssimulacra2", results);
  options = element_scores ("bt601", "1:4:0:0",
      "ssimulacra2=matrix=bt709:range=limited", results);
  assert_same (caps, options, "options over bt601 caps");
  /* matrix given, range from the caps (full) */
  g_array_unref (options);
  options = element_scores ("1:4:0:0", "1:4:0:0",
      "ssimulacra2=matrix=bt709", results);
  partial = element_scores ("1:3:5:1", "1:3:5:1", "ssimulacra2", results);
  assert_same (partial, options, "matrix option, full-range caps");
  g_array_unref (caps);
  g_array_unref (options);
  g_array_unref (partial);
  g_free (results);
}

/* SMPTE 240M has no conversion here: the default, BT.709 (its range,
 * limited, is still the caps'). */
static void
test_unconvertible_matrix (void)
{
  gchar *results = vh_gst_tmp_path ("element.json");
  GArray *bt709, *smpte240m;

  make_inputs ();
  bt709 = element_scores ("bt709", "bt709", "ssimulacra2", results);
  smpte240m = element_scores ("smpte240m", "smpte240m", "ssimulacra2",
      results);
  assert_same (bt709, smpte240m, "smpte240m caps");
  g_array_unref (bt709);
  g_array_unref (smpte240m);
  g_free (results);
}

/* Frames 0 and 1 with caps colorimetry @first, 2 and 3 with @second,
 * through harnesses: the per-frame ssimulacra2. */
static GArray *
harness_scores (const gchar * first, const gchar * second)
{
  const gchar *props[] = { "backend", "cpu", "model", "", "features",
    "ssimulacra2", "threads", "2", NULL
  };
  const gchar *colorimetry[] = { first, first, second, second };
  GArray *scores = g_array_new (FALSE, FALSE, sizeof (gdouble));
  GPtrArray *frames;
  VhGstPads t;
  GList *msgs;

  vh_gst_pads_setup (&t, props);
  for (guint i = 0; i < 4; i++) {
    if (i == 0 || strcmp (colorimetry[i], colorimetry[i - 1])) {
      gchar *caps = g_strdup_printf ("video/x-raw,format=I420,width=%u,"
          "height=%u,framerate=25/1,colorimetry=%s", WIDTH, HEIGHT,
          colorimetry[i]);

      gst_harness_set_src_caps_str (t.ref, caps);
      gst_harness_set_src_caps_str (t.dist, caps);
      g_free (caps);
    }
    vh_gst_pads_push_synth (&t, GST_VIDEO_FORMAT_I420, WIDTH, HEIGHT, i, i);
  }
  msgs = vh_gst_pads_finish (&t);
  g_assert_null (vh_gst_first_error (msgs, GST_MESSAGE_ERROR));
  frames = vh_gst_structures (msgs, "vmaf");
  g_assert_cmpuint (frames->len, ==, 4);
  for (guint i = 0; i < frames->len; i++) {
    gdouble v = vh_gst_get_double (g_ptr_array_index (frames, i),
        "ssimulacra2");

    g_array_append_val (scores, v);
  }
  g_ptr_array_unref (frames);
  vh_gst_free_messages (msgs);
  vh_gst_pads_teardown (&t);
  return scores;
}

/* Caps whose colorimetry changes mid-stream: the frames after the change
 * are converted with the new one. */
static void
test_caps_change (void)
{
  GArray *changed = harness_scores ("bt709", "bt601");
  GArray *bt709 = harness_scores ("bt709", "bt709");
  GArray *bt601 = harness_scores ("bt601", "bt601");

  for (guint i = 0; i < 4; i++) {
    const gdouble want = g_array_index (i < 2 ? bt709 : bt601, gdouble, i);

    vh_assert_msg (g_array_index (changed, gdouble, i) == want, "frame %u: "
        "%.17g, want %.17g", i, g_array_index (changed, gdouble, i), want);
    vh_assert_msg (g_array_index (bt709, gdouble, i) != g_array_index (bt601,
            gdouble, i), "frame %u: bt709 and bt601 alike", i);
  }
  g_array_unref (changed);
  g_array_unref (bt709);
  g_array_unref (bt601);
}

int
main (int argc, char **argv)
{
  gint ret;

  vh_gst_test_init (&argc, &argv);
  g_test_add_func ("/colorimetry/matrix-from-caps", test_matrix_from_caps);
  g_test_add_func ("/colorimetry/range-from-caps", test_range_from_caps);
  g_test_add_func ("/colorimetry/each-input-its-own",
      test_each_input_its_own);
  g_test_add_func ("/colorimetry/options-win", test_options_win);
  g_test_add_func ("/colorimetry/unconvertible-matrix",
      test_unconvertible_matrix);
  g_test_add_func ("/colorimetry/caps-change", test_caps_change);
  ret = g_test_run ();
  g_free (ref_path);
  g_free (dist_path);
  return ret;
}
