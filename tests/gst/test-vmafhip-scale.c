/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The scale property: a 1280x720 distorted video scored against a
 * 1920x1080 reference through the element equals vmafhip-score --scale
 * on the same raw files (every value of every frame, exactly), and the
 * results file and stats name the scaler; scale=none refuses the sizes,
 * naming the property. */

#include <string.h>

#include <json-glib/json-glib.h>

#include "vh-gst-check.h"
#include "vh-gst-pads.h"

#define SOURCE_PAIR "a_576x324_8bit_x264"
#define N_FRAMES 4

static gchar *ref_path, *dist_path;

/* The golden pair's first frames resized by videoscale into raw files: a
 * 1080p reference and a 720p rendition. */
static gchar *
write_resized (const VhGoldenPair * pair, gboolean ref, guint w, guint h)
{
  gchar *path = vh_gst_tmp_path (ref ? "ref.yuv" : "dist.yuv");
  gsize frame = (gsize) pair->width * pair->height * 3 / 2;
  gchar *desc = g_strdup_printf ("filesrc location=\"%s\" blocksize=%"
      G_GSIZE_FORMAT " num-buffers=%u ! rawvideoparse width=%u height=%u "
      "format=i420 framerate=25/1 ! videoscale ! video/x-raw,width=%u,"
      "height=%u ! filesink location=\"%s\"", ref ? pair->ref_path :
      pair->dist_path, frame, N_FRAMES, pair->width, pair->height, w, h,
      path);
  GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);

  g_assert_null (vh_gst_first_error (msgs, GST_MESSAGE_ERROR));
  vh_gst_free_messages (msgs);
  g_free (desc);
  return path;
}

static gboolean
make_inputs (void)
{
  const VhGoldenPair *pair = vh_gst_golden_pair (SOURCE_PAIR);

  if (!pair)
    return FALSE;
  if (!ref_path) {
    ref_path = write_resized (pair, TRUE, 1920, 1080);
    dist_path = write_resized (pair, FALSE, 1280, 720);
  }
  return TRUE;
}

static gchar *
element_pipeline (const gchar * props)
{
  return g_strdup_printf ("filesrc location=\"%s\" ! rawvideoparse "
      "width=1920 height=1080 format=i420 framerate=25/1 ! c.ref_sink "
      "filesrc location=\"%s\" ! rawvideoparse width=1280 height=720 "
      "format=i420 framerate=25/1 ! c.dist_sink vmafhipcompare name=c "
      "threads=2 %s ! fakesink", ref_path, dist_path, props);
}

/* The frames of a JSON results file. */
static JsonArray *
results_frames (JsonParser * parser, const gchar * path, JsonObject ** root)
{
  GError *err = NULL;

  json_parser_load_from_file (parser, path, &err);
  g_assert_no_error (err);
  *root = json_node_get_object (json_parser_get_root (parser));
  return json_object_get_array_member (*root, "frames");
}

/* Every metric of every frame equal, the same metrics in both. */
static void
assert_same_frames (JsonArray * a, JsonArray * b)
{
  g_assert_cmpuint (json_array_get_length (a), ==, N_FRAMES);
  g_assert_cmpuint (json_array_get_length (b), ==, N_FRAMES);
  for (guint i = 0; i < N_FRAMES; i++) {
    JsonObject *ma = json_object_get_object_member
        (json_array_get_object_element (a, i), "metrics");
    JsonObject *mb = json_object_get_object_member
        (json_array_get_object_element (b, i), "metrics");
    GList *names = json_object_get_members (ma);

    g_assert_cmpuint (json_object_get_size (ma), ==,
        json_object_get_size (mb));
    g_assert_cmpuint (g_list_length (names), >, 5);
    for (GList * l = names; l; l = l->next) {
      vh_assert_msg (json_object_has_member (mb, l->data), "frame %u: %s "
          "only in the element's results", i, (gchar *) l->data);
      vh_assert_msg (json_object_get_double_member (ma, l->data) ==
          json_object_get_double_member (mb, l->data), "frame %u: %s %.17g "
          "through the element, %.17g through vmafhip-score", i,
          (gchar *) l->data, json_object_get_double_member (ma, l->data),
          json_object_get_double_member (mb, l->data));
    }
    g_list_free (names);
  }
}

static void
run_score (const gchar * scale, const gchar * out)
{
  const gchar *args[] = { "-r", ref_path, "-d", dist_path, "-w",
    "1920", "-h", "1080", "-p", "420", "-b", "8", "--dist_w", "1280",
    "--dist_h", "720", "--scale", scale, "--threads", "2", "--json", "-o",
    out, "-q", NULL
  };

  vh_gst_run_score (args);
}

static void
check_method (const gchar * method)
{
  gchar *results = vh_gst_tmp_path ("element.json");
  gchar *cli = vh_gst_tmp_path ("cli.json");
  gchar *props = g_strdup_printf ("scale=%s results-filename=\"%s\"", method,
      results);
  gchar *desc = element_pipeline (props);
  gchar *scaler = g_strdup_printf ("%s from 1280x720", method);
  GList *msgs = vh_gst_run_launch (desc, 300 * GST_SECOND);
  GPtrArray *frames = vh_gst_structures (msgs, "vmaf");
  JsonParser *pe = json_parser_new (), *pc = json_parser_new ();
  JsonObject *re, *rc;
  JsonArray *fe, *fc;

  g_assert_null (vh_gst_first_error (msgs, GST_MESSAGE_ERROR));
  g_assert_cmpuint (frames->len, ==, N_FRAMES);
  run_score (method, cli);
  fe = results_frames (pe, results, &re);
  fc = results_frames (pc, cli, &rc);
  assert_same_frames (fe, fc);
  /* the messages carry the same numbers (the files round to 6 places) */
  for (guint i = 0; i < N_FRAMES; i++) {
    JsonObject *m = json_object_get_object_member
        (json_array_get_object_element (fc, i), "metrics");

    g_assert_cmpfloat_with_epsilon (vh_gst_get_double (g_ptr_array_index
            (frames, i), "vmaf"), json_object_get_double_member (m, "vmaf"),
        5e-7);
  }
  g_assert_cmpstr (json_object_get_string_member (re, "scaler"), ==, scaler);
  g_assert_cmpstr (json_object_get_string_member (rc, "scaler"), ==, scaler);

  g_object_unref (pe);
  g_object_unref (pc);
  g_ptr_array_unref (frames);
  vh_gst_free_messages (msgs);
  g_free (scaler);
  g_free (desc);
  g_free (props);
  g_free (cli);
  g_free (results);
}

static void
test_bicubic_equals_cli (void)
{
  if (!make_inputs ()) {
    g_test_skip ("golden pair missing");
    return;
  }
  check_method ("bicubic");
}

static void
test_lanczos_equals_cli (void)
{
  if (!make_inputs ()) {
    g_test_skip ("golden pair missing");
    return;
  }
  check_method ("lanczos");
}

/* The default is bicubic, said in the stats with where it ran. */
static void
test_default_and_stats (void)
{
  GstElement *pipeline, *c;
  GstStructure *stats = NULL;
  gchar *desc;
  GList *msgs;
  gint method;

  if (!make_inputs ()) {
    g_test_skip ("golden pair missing");
    return;
  }
  desc = element_pipeline ("features=psnr model=\"\"");
  pipeline = gst_parse_launch (desc, NULL);
  c = gst_bin_get_by_name (GST_BIN (pipeline), "c");
  g_object_get (c, "scale", &method, NULL);
  g_assert_cmpstr (g_enum_get_value (g_type_class_peek (g_type_from_name
              ("GstVmafHipScaleMethod")), method)->value_nick, ==, "bicubic");
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_element_get_state (pipeline, NULL, NULL, GST_CLOCK_TIME_NONE);
  msgs = NULL;
  {
    GstBus *bus = gst_element_get_bus (pipeline);
    GstMessage *m = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);

    g_assert_nonnull (m);
    g_assert_cmpint (GST_MESSAGE_TYPE (m), ==, GST_MESSAGE_EOS);
    gst_message_unref (m);
    gst_object_unref (bus);
  }
  g_object_get (c, "stats", &stats, NULL);
  g_assert_nonnull (stats);
  g_assert_cmpstr (gst_structure_get_string (stats, "scaler"), ==,
      "bicubic from 1280x720 on the cpu");
  gst_structure_free (stats);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (c);
  gst_object_unref (pipeline);
  g_list_free (msgs);
  g_free (desc);
}

/* scale=none: the sizes are refused, the property named. */
static void
test_none_refuses (void)
{
  gchar *desc;
  GList *msgs;
  GError *err;

  if (!make_inputs ()) {
    g_test_skip ("golden pair missing");
    return;
  }
  desc = element_pipeline ("scale=none features=psnr model=\"\"");
  msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
  err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);
  g_assert_nonnull (err);
  g_assert_nonnull (strstr (err->message, "1280x720"));
  g_assert_nonnull (strstr (err->message, "scale=none"));
  g_assert_nonnull (strstr (err->message, "scale=bicubic"));
  g_assert_cmpuint (vh_gst_count (msgs, "vmaf"), ==, 0);
  g_error_free (err);
  vh_gst_free_messages (msgs);
  g_free (desc);
}

/* A difference of format is no matter of size: the scale property does
 * not hide it, and the message says what resamples and what converts. */
static void
test_format_still_refused (void)
{
  gchar *desc;
  GList *msgs;
  GError *err;

  desc = g_strdup_printf ("videotestsrc num-buffers=2 ! video/x-raw,"
      "format=I420,width=64,height=48,framerate=25/1 ! c.ref_sink "
      "videotestsrc num-buffers=2 ! video/x-raw,format=Y444,width=32,"
      "height=24,framerate=25/1 ! c.dist_sink vmafhipcompare name=c "
      "features=psnr model=\"\" ! fakesink");
  msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
  err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);
  g_assert_nonnull (err);
  g_assert_nonnull (strstr (err->message, "chroma subsampling"));
  g_assert_nonnull (strstr (err->message, "convert=reference-format"));
  g_error_free (err);
  vh_gst_free_messages (msgs);
  g_free (desc);
}

int
main (int argc, char **argv)
{
  gint ret;

  vh_gst_test_init (&argc, &argv);
  g_test_add_func ("/vmafhip/scale/bicubic-equals-cli",
      test_bicubic_equals_cli);
  g_test_add_func ("/vmafhip/scale/lanczos-equals-cli",
      test_lanczos_equals_cli);
  g_test_add_func ("/vmafhip/scale/default-and-stats", test_default_and_stats);
  g_test_add_func ("/vmafhip/scale/none-refuses", test_none_refuses);
  g_test_add_func ("/vmafhip/scale/format-still-refused",
      test_format_still_refused);
  ret = g_test_run ();
  g_free (ref_path);
  g_free (dist_path);
  return ret;
}
