/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Encoding ladders through one element: request pads dist_sink_%u, each
 * scored against the one reference with its own size and scoring. A
 * 4-rung ladder equals each rung scored alone (every value of every
 * frame); messages, summaries, tags and results files per pad, named by
 * the pad and its label; results-filename without %s refused with several
 * distorted pads; a rendition that ends early ends alone; pads requested
 * while paused join the run; a released pad is gone. */

#include <string.h>

#include "vh-gst-check.h"
#include "vh-gst-pads.h"

#define SOURCE_PAIR "a_576x324_8bit_x264"
#define N_FRAMES 5

static const struct
{
  const gchar *pad;
  const gchar *label;
  guint width, height;
} rungs[] = {
  {"dist_sink", "324p", 576, 324},
  {"dist_sink_0", "216p", 384, 216},
  {"dist_sink_1", "162p", 288, 162},
  {"dist_sink_2", "108p", 192, 108},
};

/* One side of the golden pair, its first frames. */
static gchar *
golden_source (const VhGoldenPair * pair, gboolean ref)
{
  return g_strdup_printf ("filesrc location=\"%s\" blocksize=%u "
      "num-buffers=%u ! rawvideoparse width=%u height=%u format=i420 "
      "framerate=25/1", ref ? pair->ref_path : pair->dist_path,
      pair->width * pair->height * 3 / 2, N_FRAMES, pair->width,
      pair->height);
}

/* The distorted video resized by videoscale for rung @r (the element
 * scales it back); the reference's size passes untouched. */
static gchar *
rung_branch (guint r)
{
  if (r == 0)
    return g_strdup ("queue");
  return g_strdup_printf ("queue ! videoscale ! "
      "video/x-raw,width=%u,height=%u", rungs[r].width, rungs[r].height);
}

#define PROPS "threads=2 features=psnr"

/* Sets @prop of @element's pad @pad_name. gst-launch's c.dist_sink::label=
 * works too, but GStreamer 1.22's parser keeps a reference to a pad that
 * exists when it sets the property (seen under valgrind; the delayed set
 * of a request pad, and gst_child_proxy_set (), keep none). */
static void
set_pad_property (GstElement * pipeline, const gchar * pad_name,
    const gchar * prop, const gchar * value)
{
  GstElement *c = gst_bin_get_by_name (GST_BIN (pipeline), "c");
  GstPad *pad = gst_element_get_static_pad (c, pad_name);

  g_assert_nonnull (pad);
  g_object_set (pad, prop, value, NULL);
  gst_object_unref (pad);
  gst_object_unref (c);
}

static GList *
run_pipeline (const gchar * desc, const gchar * pad_name, const gchar * prop,
    const gchar * value)
{
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GList *msgs;

  g_assert_nonnull (pipeline);
  if (pad_name)
    set_pad_property (pipeline, pad_name, prop, value);
  msgs = vh_gst_run (pipeline, 300 * GST_SECOND);
  gst_object_unref (pipeline);
  return msgs;
}

static GList *
run_ladder (const VhGoldenPair * pair, const gchar * results)
{
  gchar *ref = golden_source (pair, TRUE), *dist = golden_source (pair,
      FALSE);
  GString *desc = g_string_new (NULL);
  GList *msgs;

  g_string_append_printf (desc, "%s ! c.ref_sink %s ! tee name=t ", ref,
      dist);
  for (guint r = 0; r < G_N_ELEMENTS (rungs); r++) {
    gchar *branch = rung_branch (r);

    g_string_append_printf (desc, "t. ! %s ! c.%s ", branch, rungs[r].pad);
    g_free (branch);
  }
  g_string_append (desc, "vmafhipcompare name=c " PROPS);
  for (guint r = 1; r < G_N_ELEMENTS (rungs); r++)
    g_string_append_printf (desc, " %s::label=%s", rungs[r].pad,
        rungs[r].label);
  g_string_append_printf (desc, " results-filename=\"%s\" ! fakesink",
      results);
  msgs = run_pipeline (desc->str, rungs[0].pad, "label", rungs[0].label);
  g_string_free (desc, TRUE);
  g_free (ref);
  g_free (dist);
  return msgs;
}

static GList *
run_alone (const VhGoldenPair * pair, guint r)
{
  gchar *ref = golden_source (pair, TRUE), *dist = golden_source (pair,
      FALSE), *branch = rung_branch (r);
  gchar *desc = g_strdup_printf ("%s ! c.ref_sink %s ! %s ! c.dist_sink "
      "vmafhipcompare name=c " PROPS " ! fakesink", ref, dist, branch);
  GList *msgs = vh_gst_run_launch (desc, 300 * GST_SECOND);

  g_free (desc);
  g_free (branch);
  g_free (ref);
  g_free (dist);
  return msgs;
}

static void
assert_no_error (GList * msgs)
{
  GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);

  vh_assert_msg (err == NULL, "error: %s", err ? err->message : "");
}

/* The structures named @name whose pad field is @pad. */
static GPtrArray *
of_pad (GList * msgs, const gchar * name, const gchar * pad)
{
  GPtrArray *all = vh_gst_structures (msgs, name);
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; i < all->len; i++)
    if (!g_strcmp0 (gst_structure_get_string (g_ptr_array_index (all, i),
                "pad"), pad))
      g_ptr_array_add (out, g_ptr_array_index (all, i));
  g_ptr_array_unref (all);
  return out;
}

typedef struct
{
  const GstStructure *other;
  const gchar *what;
  guint n;
} SameFields;

static gboolean
same_field (GQuark field, const GValue * value, gpointer data)
{
  SameFields *same = data;
  const gchar *name = g_quark_to_string (field);
  const GValue *other;

  if (!strcmp (name, "pad") || !strcmp (name, "label"))
    return TRUE;
  other = gst_structure_id_get_value (same->other, field);
  vh_assert_msg (other != NULL, "%s: %s missing alone", same->what, name);
  vh_assert_msg (gst_value_compare (value, other) == GST_VALUE_EQUAL,
      "%s: %s is %s in the ladder, %s alone", same->what, name,
      gst_value_serialize (value), gst_value_serialize (other));
  same->n++;
  return TRUE;
}

/* Every field but pad and label equal, the same fields in both. */
static guint
assert_same (const GstStructure * a, const GstStructure * b,
    const gchar * what)
{
  SameFields same = { b, what, 0 };

  gst_structure_foreach (a, same_field, &same);
  g_assert_cmpuint (gst_structure_n_fields (b), ==, same.n + 2);
  return same.n;
}

/* A 4-rung ladder through one element equals each rung scored alone. */
static void
test_ladder_equals_each_alone (void)
{
  const VhGoldenPair *pair = vh_gst_golden_pair (SOURCE_PAIR);
  gchar *results;
  GList *ladder;
  guint compared = 0;

  VH_SKIP_WITHOUT (pair);
  results = vh_gst_tmp_path ("ladder-%s.json");
  ladder = run_ladder (pair, results);
  g_assert_null (vh_gst_first_error (ladder, GST_MESSAGE_ERROR));
  g_assert_cmpuint (vh_gst_count (ladder, "vmaf"), ==,
      N_FRAMES * G_N_ELEMENTS (rungs));
  for (guint r = 0; r < G_N_ELEMENTS (rungs); r++) {
    GList *alone = run_alone (pair, r);
    GPtrArray *lf = of_pad (ladder, "vmaf", rungs[r].pad);
    GPtrArray *ls = of_pad (ladder, "vmaf-summary", rungs[r].pad);
    GPtrArray *af = vh_gst_structures (alone, "vmaf");
    GPtrArray *as = vh_gst_structures (alone, "vmaf-summary");
    gchar *path = g_strdup (results), *file;
    gchar **parts = g_strsplit (path, "%s", -1);

    g_assert_null (vh_gst_first_error (alone, GST_MESSAGE_ERROR));
    g_assert_cmpuint (lf->len, ==, N_FRAMES);
    g_assert_cmpuint (af->len, ==, N_FRAMES);
    for (guint i = 0; i < N_FRAMES; i++) {
      gchar *what = g_strdup_printf ("%s frame %u", rungs[r].pad, i);

      g_assert_cmpstr (gst_structure_get_string (g_ptr_array_index (lf, i),
              "label"), ==, rungs[r].label);
      compared += assert_same (g_ptr_array_index (lf, i),
          g_ptr_array_index (af, i), what);
      g_free (what);
    }
    /* the summary: the same counts and pooled values */
    g_assert_cmpuint (ls->len, ==, 1);
    g_assert_cmpuint (as->len, ==, 1);
    g_assert_cmpstr (gst_structure_get_string (g_ptr_array_index (ls, 0),
            "label"), ==, rungs[r].label);
    g_assert_cmpfloat (vh_gst_get_double (g_ptr_array_index (ls, 0),
            "score"), ==, vh_gst_get_double (g_ptr_array_index (as, 0),
            "score"));
    /* its own results file, named by its label */
    file = g_strjoinv (rungs[r].label, parts);
    g_assert_cmpstr (gst_structure_get_string (g_ptr_array_index (ls, 0),
            "results-filename"), ==, file);
    g_assert_true (g_file_test (file, G_FILE_TEST_IS_REGULAR));
    g_test_message ("%s (%s): pooled VMAF %.4f", rungs[r].pad,
        rungs[r].label, vh_gst_get_double (g_ptr_array_index (ls, 0),
            "score"));
    g_free (file);
    g_strfreev (parts);
    g_free (path);
    g_ptr_array_unref (lf);
    g_ptr_array_unref (ls);
    g_ptr_array_unref (af);
    g_ptr_array_unref (as);
    vh_gst_free_messages (alone);
  }
  g_assert_cmpuint (compared, >, N_FRAMES * G_N_ELEMENTS (rungs) * 10);
  vh_gst_free_messages (ladder);
  g_free (results);
}

#define SMALL "video/x-raw,format=I420,width=64,height=48,framerate=25/1"
#define SMALLER "video/x-raw,format=I420,width=32,height=24,framerate=25/1"

/* ref, dist_sink and dist_sink_0 from videotestsrc; @dist0_n frames on
 * dist_sink_0, 6 on the others. */
static gchar *
three_sources (guint dist0_n, const gchar * props)
{
  return g_strdup_printf ("videotestsrc num-buffers=6 ! " SMALL " ! "
      "c.ref_sink videotestsrc num-buffers=6 pattern=ball ! " SMALL " ! "
      "c.dist_sink videotestsrc num-buffers=%u pattern=ball "
      "horizontal-speed=2 ! " SMALLER " ! c.dist_sink_0 vmafhipcompare "
      "name=c features=psnr model=\"\" %s ! fakesink", dist0_n, props);
}

/* One file for several pads is refused at start, saying what to do; each
 * pad's own results-filename, or a %s, works. */
static void
test_results_file_per_pad (void)
{
  gchar *one = vh_gst_tmp_path ("one.json");
  gchar *a = vh_gst_tmp_path ("a.json"), *b = vh_gst_tmp_path ("b.json");
  gchar *props = g_strdup_printf ("results-filename=\"%s\"", one);
  gchar *desc = three_sources (6, props);
  GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
  GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);

  g_assert_nonnull (err);
  vh_assert_msg (strstr (err->message, "%s") && strstr (err->message,
          "2 distorted pads") && strstr (err->message, "results-filename"),
      "%s", err->message);
  g_assert_cmpuint (vh_gst_count (msgs, "vmaf"), ==, 0);
  g_assert_false (g_file_test (one, G_FILE_TEST_EXISTS));
  g_error_free (err);
  vh_gst_free_messages (msgs);
  g_free (desc);
  g_free (props);

  /* the pads' own files win over the element's */
  props = g_strdup_printf ("results-filename=\"%s\" "
      "dist_sink_0::results-filename=\"%s\"", one, b);
  desc = three_sources (6, props);
  msgs = run_pipeline (desc, "dist_sink", "results-filename", a);
  g_assert_null (vh_gst_first_error (msgs, GST_MESSAGE_ERROR));
  g_assert_cmpuint (vh_gst_count (msgs, "vmaf-summary"), ==, 2);
  g_assert_true (g_file_test (a, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (b, G_FILE_TEST_IS_REGULAR));
  g_assert_false (g_file_test (one, G_FILE_TEST_EXISTS));
  vh_gst_free_messages (msgs);
  g_free (desc);
  g_free (props);
  g_free (one);
  g_free (a);
  g_free (b);
}

/* A rendition that ends early ends alone: the others are scored to the
 * end, its reference frames after its end count as unpaired, and the
 * element's EOS comes once all are done. Tags of a request pad come from
 * that pad. */
static void
test_early_end_alone (void)
{
  gchar *desc = three_sources (2, "");
  GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
  GPtrArray *s0 = of_pad (msgs, "vmaf-summary", "dist_sink");
  GPtrArray *s1 = of_pad (msgs, "vmaf-summary", "dist_sink_0");
  guint pad_tags = 0;

  g_assert_null (vh_gst_first_error (msgs, GST_MESSAGE_ERROR));
  g_assert_cmpint (vh_gst_find_type (msgs, GST_MESSAGE_EOS), >, 0);
  g_assert_cmpuint (s0->len, ==, 1);
  g_assert_cmpuint (s1->len, ==, 1);
  vh_gst_assert_summary_counts (g_ptr_array_index (s0, 0), 6, 0, 0, 0, 0);
  vh_gst_assert_summary_counts (g_ptr_array_index (s1, 0), 2, 4, 0, 0, 0);
  g_assert_cmpstr (gst_structure_get_string (g_ptr_array_index (s1, 0),
          "label"), ==, "dist_sink_0");
  for (GList * l = msgs; l; l = l->next)
    if (GST_MESSAGE_TYPE (l->data) == GST_MESSAGE_TAG &&
        GST_IS_PAD (GST_MESSAGE_SRC (l->data)) &&
        !strcmp (GST_OBJECT_NAME (GST_MESSAGE_SRC (l->data)), "dist_sink_0"))
      pad_tags++;
  g_assert_cmpuint (pad_tags, ==, 1);
  g_ptr_array_unref (s0);
  g_ptr_array_unref (s1);
  vh_gst_free_messages (msgs);
  g_free (desc);
}

/* A pad requested while the pipeline is paused joins the run, with its
 * own summary and label. */
static void
test_requested_while_paused (void)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=6 ! "
      SMALL " ! c.ref_sink videotestsrc num-buffers=6 pattern=ball ! " SMALL
      " ! c.dist_sink vmafhipcompare name=c features=psnr model=\"\" ! "
      "fakesink", NULL);
  GstElement *c = gst_bin_get_by_name (GST_BIN (pipeline), "c");
  GstElement *src = gst_parse_bin_from_description ("videotestsrc "
      "num-buffers=6 pattern=ball horizontal-speed=2 ! capsfilter caps=\""
      SMALLER "\"", TRUE, NULL);
  GstPad *pad, *srcpad;
  GPtrArray *summaries;
  const GstStructure *sum;
  GList *msgs;

  g_assert_cmpint (gst_element_set_state (pipeline, GST_STATE_PAUSED), !=,
      GST_STATE_CHANGE_FAILURE);
  g_assert_cmpint (gst_element_get_state (pipeline, NULL, NULL,
          10 * GST_SECOND), ==, GST_STATE_CHANGE_SUCCESS);
  pad = gst_element_request_pad_simple (c, "dist_sink_%u");
  g_assert_nonnull (pad);
  g_assert_cmpstr (GST_PAD_NAME (pad), ==, "dist_sink_0");
  g_object_set (pad, "label", "late", NULL);
  gst_bin_add (GST_BIN (pipeline), src);
  srcpad = gst_element_get_static_pad (src, "src");
  g_assert_cmpint (gst_pad_link (srcpad, pad), ==, GST_PAD_LINK_OK);
  g_assert_true (gst_element_sync_state_with_parent (src));
  msgs = vh_gst_run (pipeline, 60 * GST_SECOND);
  assert_no_error (msgs);
  summaries = of_pad (msgs, "vmaf-summary", "dist_sink_0");
  g_assert_cmpuint (summaries->len, ==, 1);
  g_assert_cmpstr (gst_structure_get_string (g_ptr_array_index (summaries,
              0), "label"), ==, "late");
  /* Its frames from the first reference frame after it came are scored;
   * the reference frames that went by before (prerolled) are not kept
   * for it, so its earlier frames count as unpaired. */
  sum = g_ptr_array_index (summaries, 0);
  g_test_message ("late pad: %" G_GUINT64_FORMAT " scored, %"
      G_GUINT64_FORMAT " unpaired", vh_gst_get_uint64 (sum, "scored"),
      vh_gst_get_uint64 (sum, "unpaired-distorted"));
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "scored"), >=, 2);
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "scored") +
      vh_gst_get_uint64 (sum, "unpaired-distorted"), ==, 6);
  g_assert_cmpuint (vh_gst_get_uint64 (sum, "dropped-distorted"), ==, 0);
  g_ptr_array_unref (summaries);
  vh_gst_free_messages (msgs);
  gst_object_unref (srcpad);
  gst_object_unref (pad);
  gst_object_unref (c);
  gst_object_unref (pipeline);
}

/* A request pad given back is gone: the run scores the others, and a new
 * request takes the next number. */
static void
test_release (void)
{
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=4 ! "
      SMALL " ! c.ref_sink videotestsrc num-buffers=4 pattern=ball ! " SMALL
      " ! c.dist_sink vmafhipcompare name=c features=psnr model=\"\" ! "
      "fakesink", NULL);
  GstElement *c = gst_bin_get_by_name (GST_BIN (pipeline), "c");
  GstPad *pad = gst_element_request_pad_simple (c, "dist_sink_%u");
  GstPad *again;
  GList *msgs;

  g_assert_nonnull (pad);
  gst_element_release_request_pad (c, pad);
  gst_object_unref (pad);
  g_assert_null (gst_element_get_static_pad (c, "dist_sink_0"));
  again = gst_element_request_pad_simple (c, "dist_sink_%u");
  g_assert_cmpstr (GST_PAD_NAME (again), ==, "dist_sink_1");
  gst_element_release_request_pad (c, again);
  gst_object_unref (again);
  msgs = vh_gst_run (pipeline, 60 * GST_SECOND);
  g_assert_null (vh_gst_first_error (msgs, GST_MESSAGE_ERROR));
  g_assert_cmpuint (vh_gst_count (msgs, "vmaf-summary"), ==, 1);
  g_assert_cmpuint (vh_gst_count (msgs, "vmaf"), ==, 4);
  vh_gst_free_messages (msgs);
  gst_object_unref (c);
  gst_object_unref (pipeline);
}

int
main (int argc, char **argv)
{
  vh_gst_test_init (&argc, &argv);
  g_test_add_func ("/vmafhip/ladder/equals-each-alone",
      test_ladder_equals_each_alone);
  g_test_add_func ("/vmafhip/ladder/results-file-per-pad",
      test_results_file_per_pad);
  g_test_add_func ("/vmafhip/ladder/early-end-alone", test_early_end_alone);
  g_test_add_func ("/vmafhip/ladder/requested-while-paused",
      test_requested_while_paused);
  g_test_add_func ("/vmafhip/ladder/release", test_release);
  return g_test_run ();
}
