/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* vmafhipcompare as a GStreamer user meets it: the format an unconstrained
 * source negotiates, the error of a mismatch, an unwritable results file
 * found before scoring, results in a FIFO, models first, and pairs that
 * show one moment. test-vmafhip-inspect.c holds the rest of the tour. */

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-glib/json-glib.h>

#include "vh-gst-check.h"
#include "vh-gst-pads.h"


/* Every double of every "vmaf" message equal in both runs. */
static void
assert_same_scores (GList * a, GList * b)
{
  GPtrArray *fa = vh_gst_structures (a, "vmaf");
  GPtrArray *fb = vh_gst_structures (b, "vmaf");

  g_assert_true (fa->len > 0);
  g_assert_cmpuint (vh_gst_assert_same_doubles (fa, fb), >, 5);
  g_ptr_array_unref (fa);
  g_ptr_array_unref (fb);
}

static GstPadProbeReturn
keep_format (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT (info);
  gchar **format = user_data;

  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    GstCaps *caps;
    gst_event_parse_caps (event, &caps);
    g_free (*format);
    *format = g_strdup (gst_structure_get_string (gst_caps_get_structure
            (caps, 0), "format"));
  }
  return GST_PAD_PROBE_OK;
}

/* Sources free to choose negotiate 8-bit 4:2:0 (I420), so the score is
 * that of their native frames, not of a 16-bit conversion. */
static void
test_unconstrained_sources_score_i420 (void)
{
  gchar *desc = vh_gst_test_sources (NULL, NULL, 4, "features=psnr");
  GstElement *p = gst_parse_launch (desc, NULL);
  GstElement *c = gst_bin_get_by_name (GST_BIN (p), "c");
  gchar *format[2] = { NULL, NULL };
  GList *free_run, *i420;

  for (guint i = 0; i < 2; i++) {
    GstPad *pad = gst_element_get_static_pad (c, i ? "dist_sink" : "ref_sink");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, keep_format,
        &format[i], NULL);
    gst_object_unref (pad);
  }
  free_run = vh_gst_run (p, 120 * GST_SECOND);
  g_assert_true (vh_gst_find_type (free_run, GST_MESSAGE_ERROR) < 0);
  g_assert_cmpstr (format[0], ==, "I420");
  g_assert_cmpstr (format[1], ==, "I420");
  i420 = vh_gst_run_test_sources ("video/x-raw,format=I420",
      "video/x-raw,format=I420", 4, "features=psnr");
  assert_same_scores (free_run, i420);
  vh_gst_free_messages (free_run);
  vh_gst_free_messages (i420);
  g_free (format[0]);
  g_free (format[1]);
  gst_object_unref (c);
  gst_object_unref (p);
  g_free (desc);
}


/* A FIFO as the results file: without a reader the state change fails
 * at once, naming it (it used to wait for a reader for ever); with one,
 * the log is written to it once, at the end. */
static void
test_results_fifo (void)
{
  gchar *fifo = vh_gst_tmp_path ("results.fifo");
  gchar *props = g_strdup_printf ("features=psnr results-filename=\"%s\"",
      fifo);
  GstElement *e = gst_element_factory_make ("vmafhipcompare", NULL);
  GError *err = NULL;
  GString *log = g_string_new (NULL);
  GList *msgs;
  gint64 start;
  JsonParser *parser;
  JsonObject *root;
  gint fd;
  gchar buf[4096];
  gssize n;

  g_assert_true (mkfifo (fifo, 0600) == 0);
  g_object_set (e, "results-filename", fifo, NULL);
  start = g_get_monotonic_time ();
  g_assert_cmpint (gst_element_set_state (e, GST_STATE_PAUSED), ==,
      GST_STATE_CHANGE_FAILURE);
  g_assert_true (g_get_monotonic_time () - start < 5 * G_USEC_PER_SEC);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (e);

  msgs = vh_gst_run_test_sources ("video/x-raw,format=I420",
      "video/x-raw,format=I420", 5, props);
  err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);
  g_assert_true (err != NULL);
  vh_assert_msg (g_error_matches (err, GST_RESOURCE_ERROR,
      GST_RESOURCE_ERROR_OPEN_WRITE), "%s", err->message);
  vh_assert_msg (strstr (err->message, fifo) != NULL, "%s", err->message);
  vh_assert_msg (strstr (err->message, "no reader") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  vh_gst_free_messages (msgs);

  /* A reader opened first (without waiting for a writer); five frames of
   * log fit in the FIFO's buffer, read once the pipeline ends. */
  fd = open (fifo, O_RDONLY | O_NONBLOCK);
  g_assert_true (fd >= 0);
  msgs = vh_gst_run_test_sources ("video/x-raw,format=I420",
      "video/x-raw,format=I420", 5, props);
  g_assert_true (vh_gst_find_type (msgs, GST_MESSAGE_ERROR) < 0);
  g_assert_cmpint (vh_gst_count (msgs, "vmaf"), ==, 5);
  while ((n = read (fd, buf, sizeof (buf))) > 0)
    g_string_append_len (log, buf, n);
  close (fd);
  parser = json_parser_new ();
  vh_assert_msg (json_parser_load_from_data (parser, log->str, log->len, &err),
      "%s: %s", err ? err->message : "", log->str);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_array_get_length (json_object_get_array_member (root,
      "frames")), ==, 5);
  g_assert_true (json_object_has_member (root, "pooled_metrics"));
  g_object_unref (parser);
  vh_gst_free_messages (msgs);

  g_string_free (log, TRUE);
  g_unlink (fifo);
  g_free (props);
  g_free (fifo);
}


/* The same through a tee and queues, which proxy the caps query and put
 * the source's own order first (videotestsrc lists 16-bit formats first):
 * still I420 on both pads, scored as an I420 run scores, never as the
 * up-converted Y444_16LE that was negotiated before. */
static void
test_unconstrained_tee_scores_i420 (void)
{
  const gchar *tee = "videotestsrc pattern=ball num-buffers=6 %s ! tee "
      "name=t t. ! queue ! c.ref_sink t. ! queue ! queue ! c.dist_sink "
      "vmafhipcompare name=c features=psnr ! fakesink";
  gchar *desc = g_strdup_printf (tee, "");
  gchar *fixed = g_strdup_printf (tee, "! video/x-raw,format=I420");
  gchar *up = g_strdup_printf (tee, "! video/x-raw,format=Y444_16LE");
  GstElement *p = gst_parse_launch (desc, NULL);
  GstElement *c = gst_bin_get_by_name (GST_BIN (p), "c");
  gchar *format[2] = { NULL, NULL };
  GList *free_run, *i420, *y444;
  GPtrArray *fa, *fy;

  for (guint i = 0; i < 2; i++) {
    GstPad *pad = gst_element_get_static_pad (c, i ? "dist_sink" : "ref_sink");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, keep_format,
        &format[i], NULL);
    gst_object_unref (pad);
  }
  free_run = vh_gst_run (p, 120 * GST_SECOND);
  g_assert_true (vh_gst_find_type (free_run, GST_MESSAGE_ERROR) < 0);
  g_assert_cmpstr (format[0], ==, "I420");
  g_assert_cmpstr (format[1], ==, "I420");
  i420 = vh_gst_run_launch (fixed, 120 * GST_SECOND);
  assert_same_scores (free_run, i420);
  /* and the up-conversion scores differently: the test tells them apart */
  y444 = vh_gst_run_launch (up, 120 * GST_SECOND);
  fa = vh_gst_structures (free_run, "vmaf");
  fy = vh_gst_structures (y444, "vmaf");
  g_assert_cmpint (fa->len, ==, fy->len);
  g_assert_true (vh_gst_get_double (g_ptr_array_index (fa, 1), "vmaf") !=
      vh_gst_get_double (g_ptr_array_index (fy, 1), "vmaf"));
  g_ptr_array_unref (fa);
  g_ptr_array_unref (fy);
  vh_gst_free_messages (free_run);
  vh_gst_free_messages (i420);
  vh_gst_free_messages (y444);
  g_free (format[0]);
  g_free (format[1]);
  gst_object_unref (c);
  gst_object_unref (p);
  g_free (up);
  g_free (fixed);
  g_free (desc);
}


/* A mismatch names both sides and how to convert one to the other. */
static void
test_mismatch_says_how_to_fix (void)
{
  GList *msgs = vh_gst_run_test_sources
      ("video/x-raw,format=Y444,width=320,height=240",
      "video/x-raw,format=I420,width=176,height=144", 3, "scale=none");
  GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);

  g_assert_true (err != NULL);
  vh_assert_msg (g_error_matches (err, GST_CORE_ERROR,
      GST_CORE_ERROR_NEGOTIATION), "%s", err->message);
  for (guint i = 0; i < 7; i++) {
    static const gchar *words[] = { "ref_sink: 320x240 Y444",
      "dist_sink: 176x144 I420", "videoconvert", "videoscale",
      "format=Y444", "width=320,height=240", "c.dist_sink"
    };
    vh_assert_msg (strstr (err->message, words[i]) != NULL, "no '%s' in: %s",
        words[i], err->message);
  }
  g_error_free (err);
  vh_gst_free_messages (msgs);
}


/* An unwritable results file fails the READY to PAUSED change, before any
 * frame is scored; the check leaves no file behind and does not truncate
 * an existing one. */
static void
test_results_file_checked_at_start (void)
{
  gchar *missing = vh_gst_tmp_path ("no-such-dir/out.json");
  gchar *props = g_strdup_printf ("results-filename=\"%s\"", missing);
  GList *msgs = vh_gst_run_test_sources (NULL, NULL, 30, props);
  GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);
  gchar *fresh = vh_gst_tmp_path ("fresh.json");
  gchar *existing = vh_gst_tmp_path ("existing.json");
  gchar *contents = NULL;
  GstElement *e;

  g_assert_true (err != NULL);
  vh_assert_msg (g_error_matches (err, GST_RESOURCE_ERROR,
      GST_RESOURCE_ERROR_OPEN_WRITE), "%s", err->message);
  vh_assert_msg (strstr (err->message, "out.json") != NULL, "%s", err->message);
  g_assert_cmpint (vh_gst_count (msgs, "vmaf"), ==, 0);
  g_assert_cmpint (vh_gst_count (msgs, "vmaf-summary"), ==, 0);
  g_error_free (err);
  vh_gst_free_messages (msgs);

  /* the state change itself fails */
  e = gst_element_factory_make ("vmafhipcompare", NULL);
  g_object_set (e, "results-filename", missing, NULL);
  g_assert_cmpint (gst_element_set_state (e, GST_STATE_PAUSED), ==,
      GST_STATE_CHANGE_FAILURE);
  gst_element_set_state (e, GST_STATE_NULL);

  /* a writable name passes and is not left behind by the check */
  g_object_set (e, "results-filename", fresh, NULL);
  g_assert_true (gst_element_set_state (e, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  g_assert_false (g_file_test (fresh, G_FILE_TEST_EXISTS));
  gst_element_set_state (e, GST_STATE_NULL);

  /* an existing file keeps its contents until the results replace them */
  g_assert_true (g_file_set_contents (existing, "earlier run", -1, NULL));
  g_object_set (e, "results-filename", existing, NULL);
  g_assert_true (gst_element_set_state (e, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  g_assert_true (g_file_get_contents (existing, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "earlier run");
  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (e);

  g_free (contents);
  g_free (existing);
  g_free (fresh);
  g_free (props);
  g_free (missing);
}


/* The double fields of @s, in order (the pooled structures of a summary
 * count as values). */
static GPtrArray *
value_fields (const GstStructure * s)
{
  GPtrArray *names = g_ptr_array_new ();

  for (gint i = 0; i < gst_structure_n_fields (s); i++) {
    const gchar *name = gst_structure_nth_field_name (s, i);
    GType type = gst_structure_get_field_type (s, name);

    if ((type == G_TYPE_DOUBLE || type == GST_TYPE_STRUCTURE) &&
        strcmp (name, "score"))
      g_ptr_array_add (names, (gpointer) name);
  }
  return names;
}

/* @fields: the model outputs first (the first model's "vmaf", then the
 * second's), then the features in the results file's order. */
static void
assert_models_first (GPtrArray * fields, JsonObject * metrics,
    const gchar * what)
{
  GList *file = json_object_get_members (metrics);
  guint i = 0;

  vh_assert_msg (fields->len > 2, "%s", what);
  g_assert_cmpstr (g_ptr_array_index (fields, 0), ==, "vmaf");
  vh_assert_msg (g_str_has_prefix (g_ptr_array_index (fields, 1),
      "vmaf_b_v0.6.3"), "%s: %s", what, (gchar *) g_ptr_array_index (fields,
      1));
  while (i < fields->len && g_str_has_prefix (g_ptr_array_index (fields, i),
          "vmaf"))
    i++;
  for (GList * l = file; l; l = l->next) {
    if (g_str_has_prefix (l->data, "vmaf"))
      continue;
    vh_assert_msg (i < fields->len, "%s: %s missing", what, (gchar *) l->data);
    g_assert_cmpstr (g_ptr_array_index (fields, i), ==, l->data);
    i++;
  }
  g_assert_cmpint (i, ==, fields->len);
  g_list_free (file);
}

/* The vmaf and vmaf-summary messages list the model scores first, then
 * the features in the results file's order, which stays libvmaf's. */
static void
test_models_first (void)
{
  gchar *results = vh_gst_tmp_path ("order.json");
  gchar *props = g_strdup_printf ("model=vmaf_v0.6.1,vmaf_b_v0.6.3 "
      "features=psnr results-filename=%s", results);
  gchar *desc = vh_gst_test_sources ("video/x-raw,width=64,height=48",
      "video/x-raw,width=64,height=48", 3, props);
  GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
  GPtrArray *frames = vh_gst_structures (msgs, "vmaf");
  GPtrArray *summary = vh_gst_structures (msgs, "vmaf-summary");
  JsonParser *parser = json_parser_new ();
  JsonObject *metrics;
  GPtrArray *fields;
  GList *file;

  g_assert_true (json_parser_load_from_file (parser, results, NULL));
  metrics = json_object_get_object_member (json_array_get_object_element
      (json_object_get_array_member (json_node_get_object
              (json_parser_get_root (parser)), "frames"), 0), "metrics");
  /* the file keeps libvmaf's order: features, then models */
  file = json_object_get_members (metrics);
  g_assert_false (g_str_has_prefix (file->data, "vmaf"));
  g_list_free (file);
  g_assert_cmpint (frames->len, ==, 3);
  g_assert_cmpint (summary->len, ==, 1);
  g_assert_cmpstr (gst_structure_nth_field_name (frames->pdata[0], 5), ==,
      "score");
  for (guint i = 0; i < frames->len; i++) {
    fields = value_fields (frames->pdata[i]);
    assert_models_first (fields, metrics, "vmaf message");
    g_ptr_array_unref (fields);
  }
  fields = value_fields (summary->pdata[0]);
  assert_models_first (fields, metrics, "vmaf-summary");
  g_ptr_array_unref (fields);

  g_object_unref (parser);
  g_ptr_array_unref (summary);
  g_ptr_array_unref (frames);
  vh_gst_free_messages (msgs);
  g_free (desc);
  g_free (props);
  g_free (results);
}


/* Frames are scored together only when they show the same moment, by
 * running time, whatever output slot the aggregator gave them: a distorted
 * stream whose timestamps sit 10 ms off pairs with the same frames; 25 ms
 * off (of 40 ms frames), each distorted frame pairs with the nearest
 * reference frame, the next one; exactly half a frame off, no frame is
 * nearer than the other and none is paired with a neighbour (that would be
 * a wrong score): they are counted as unpaired and the warning says how to
 * fix a late branch. */
static GList *
run_offset (gint64 offset)
{
  /* The reference passes through: its timestamps stamp the messages. */
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=6 ! "
      "video/x-raw,format=I420,framerate=25/1 ! c.ref_sink "
      "videotestsrc num-buffers=6 pattern=ball timestamp-offset=%"
      G_GINT64_FORMAT " ! video/x-raw,format=I420,framerate=25/1 ! "
      "c.dist_sink vmafhipcompare name=c features=psnr passthrough=reference ! "
      "fakesink", offset);
  GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);

  g_free (desc);
  return msgs;
}

static void
test_pairs_show_one_moment (void)
{
  GList *near = run_offset (10 * GST_MSECOND);
  GList *half = run_offset (20 * GST_MSECOND);
  GList *next = run_offset (25 * GST_MSECOND);
  GPtrArray *s_near = vh_gst_structures (near, "vmaf-summary");
  GPtrArray *s_half = vh_gst_structures (half, "vmaf-summary");
  GPtrArray *s_next = vh_gst_structures (next, "vmaf-summary");
  GPtrArray *f_next = vh_gst_structures (next, "vmaf");
  GError *warning = vh_gst_first_error (half, GST_MESSAGE_WARNING);
  const GstStructure *sum;

  g_assert_cmpint (s_near->len, ==, 1);
  g_assert_cmpint (s_half->len, ==, 1);
  g_assert_cmpint (s_next->len, ==, 1);
  g_assert_cmpuint (vh_gst_get_uint64 (g_ptr_array_index (s_near, 0), "scored"),
      ==, 6);

  sum = g_ptr_array_index (s_half, 0);
  g_assert_cmpint (vh_gst_count (half, "vmaf"), ==, 0);
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "scored"), ==, 0);
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "unpaired-distorted"), ==, 6);
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "unpaired-reference"), ==, 6);
  g_assert_true (warning != NULL);
  vh_assert_msg (strstr (warning->message, "latency") != NULL, "%s",
      warning->message);

  /* Reference 1 (40 ms) with distorted 0 (25 ms), and so on. */
  sum = g_ptr_array_index (s_next, 0);
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "scored"), ==, 5);
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "unpaired-reference"), ==, 1);
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "unpaired-distorted"), ==, 1);
  g_assert_cmpint (f_next->len, ==, 5);
  g_assert_cmpuint (vh_gst_get_uint64 (g_ptr_array_index (f_next, 0),
      "timestamp"), ==, 40 * GST_MSECOND);

  g_error_free (warning);
  g_ptr_array_unref (s_near);
  g_ptr_array_unref (s_half);
  g_ptr_array_unref (s_next);
  g_ptr_array_unref (f_next);
  vh_gst_free_messages (near);
  vh_gst_free_messages (half);
  vh_gst_free_messages (next);
}


int
main (int argc, char **argv)
{
  vh_gst_test_init (&argc, &argv);
  g_test_add_func ("/vmafhipcompare/unconstrained-sources-score-i420",
      test_unconstrained_sources_score_i420);
  g_test_add_func ("/vmafhipcompare/unconstrained-tee-scores-i420",
      test_unconstrained_tee_scores_i420);
  g_test_add_func ("/vmafhipcompare/mismatch-says-how-to-fix",
      test_mismatch_says_how_to_fix);
  g_test_add_func ("/vmafhipcompare/results-file-checked-at-start",
      test_results_file_checked_at_start);
  g_test_add_func ("/vmafhipcompare/results-fifo", test_results_fifo);
  g_test_add_func ("/vmafhipcompare/models-first", test_models_first);
  g_test_add_func ("/vmafhipcompare/pairs-show-one-moment",
      test_pairs_show_one_moment);
  return g_test_run ();
}
