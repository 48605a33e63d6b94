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
 * found before scoring, pad properties, what gst-inspect-1.0 documents,
 * the plugin's origin, and the properties and messages of GStreamer's own
 * vmaf element. */

#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-glib/json-glib.h>

#include "vh-gst-check.h"
#include "model.h"


static void
free_messages (GList * msgs)
{
  g_list_free_full (msgs, (GDestroyNotify) gst_message_unref);
}

/* Two videotestsrc branches into vmafhipcompare name=c; @ref_caps and
 * @dist_caps may be NULL (the source chooses). */
static gchar *
pipeline (const gchar * ref_caps, const gchar * dist_caps, guint frames,
    const gchar * props)
{
  return g_strdup_printf ("videotestsrc num-buffers=%u %s%s ! c.ref_sink "
      "videotestsrc num-buffers=%u pattern=ball %s%s ! c.dist_sink "
      "vmafhipcompare name=c %s ! fakesink", frames, ref_caps ? "! " : "",
      ref_caps ? ref_caps : "", frames, dist_caps ? "! " : "",
      dist_caps ? dist_caps : "", props ? props : "");
}

static GList *
run (const gchar * ref_caps, const gchar * dist_caps, guint frames,
    const gchar * props)
{
  gchar *desc = pipeline (ref_caps, dist_caps, frames, props);
  GList *msgs = vh_gst_run_launch (desc, 120 * GST_SECOND);

  g_free (desc);
  return msgs;
}

/* Every double of every "vmaf" message equal in both runs. */
static void
assert_same_scores (GList * a, GList * b)
{
  GPtrArray *fa = vh_gst_structures (a, "vmaf");
  GPtrArray *fb = vh_gst_structures (b, "vmaf");
  guint n = 0;

  fail_unless (fa->len > 0);
  fail_unless_equals_int (fa->len, fb->len);
  for (guint i = 0; i < fa->len; i++) {
    const GstStructure *sa = g_ptr_array_index (fa, i);
    const GstStructure *sb = g_ptr_array_index (fb, i);

    for (gint f = 0; f < gst_structure_n_fields (sa); f++) {
      const gchar *name = gst_structure_nth_field_name (sa, f);
      gdouble va, vb;

      if (!gst_structure_get_double (sa, name, &va))
        continue;
      fail_unless (gst_structure_get_double (sb, name, &vb), "%s", name);
      fail_unless (va == vb, "frame %u %s: %.17g != %.17g", i, name, va, vb);
      n++;
    }
  }
  fail_unless (n > fa->len * 5);
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
GST_START_TEST (test_unconstrained_sources_score_i420)
{
  gchar *desc = pipeline (NULL, NULL, 4, "features=psnr");
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
  fail_unless (vh_gst_find_type (free_run, GST_MESSAGE_ERROR) < 0);
  fail_unless_equals_string (format[0], "I420");
  fail_unless_equals_string (format[1], "I420");
  i420 = run ("video/x-raw,format=I420", "video/x-raw,format=I420", 4,
      "features=psnr");
  assert_same_scores (free_run, i420);
  free_messages (free_run);
  free_messages (i420);
  g_free (format[0]);
  g_free (format[1]);
  gst_object_unref (c);
  gst_object_unref (p);
  g_free (desc);
}

GST_END_TEST;

/* A FIFO as the results file: without a reader the state change fails
 * at once, naming it (it used to wait for a reader for ever); with one,
 * the log is written to it once, at the end. */
GST_START_TEST (test_results_fifo)
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

  fail_unless (mkfifo (fifo, 0600) == 0);
  g_object_set (e, "results-filename", fifo, NULL);
  start = g_get_monotonic_time ();
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  fail_unless (g_get_monotonic_time () - start < 5 * G_USEC_PER_SEC);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (e);

  msgs = run ("video/x-raw,format=I420", "video/x-raw,format=I420", 5, props);
  err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);
  fail_unless (err != NULL);
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_OPEN_WRITE), "%s", err->message);
  fail_unless (strstr (err->message, fifo) != NULL, "%s", err->message);
  fail_unless (strstr (err->message, "no reader") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  free_messages (msgs);

  /* A reader opened first (without waiting for a writer); five frames of
   * log fit in the FIFO's buffer, read once the pipeline ends. */
  fd = open (fifo, O_RDONLY | O_NONBLOCK);
  fail_unless (fd >= 0);
  msgs = run ("video/x-raw,format=I420", "video/x-raw,format=I420", 5, props);
  fail_unless (vh_gst_find_type (msgs, GST_MESSAGE_ERROR) < 0);
  fail_unless_equals_int (vh_gst_count (msgs, "vmaf"), 5);
  while ((n = read (fd, buf, sizeof (buf))) > 0)
    g_string_append_len (log, buf, n);
  close (fd);
  parser = json_parser_new ();
  fail_unless (json_parser_load_from_data (parser, log->str, log->len, &err),
      "%s: %s", err ? err->message : "", log->str);
  root = json_node_get_object (json_parser_get_root (parser));
  fail_unless_equals_int (json_array_get_length (json_object_get_array_member
          (root, "frames")), 5);
  fail_unless (json_object_has_member (root, "pooled_metrics"));
  g_object_unref (parser);
  free_messages (msgs);

  g_string_free (log, TRUE);
  g_unlink (fifo);
  g_free (props);
  g_free (fifo);
}

GST_END_TEST;

/* The same through a tee and queues, which proxy the caps query and put
 * the source's own order first (videotestsrc lists 16-bit formats first):
 * still I420 on both pads, scored as an I420 run scores, never as the
 * up-converted Y444_16LE that was negotiated before. */
GST_START_TEST (test_unconstrained_tee_scores_i420)
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
  fail_unless (vh_gst_find_type (free_run, GST_MESSAGE_ERROR) < 0);
  fail_unless_equals_string (format[0], "I420");
  fail_unless_equals_string (format[1], "I420");
  i420 = vh_gst_run_launch (fixed, 120 * GST_SECOND);
  assert_same_scores (free_run, i420);
  /* and the up-conversion scores differently: the test tells them apart */
  y444 = vh_gst_run_launch (up, 120 * GST_SECOND);
  fa = vh_gst_structures (free_run, "vmaf");
  fy = vh_gst_structures (y444, "vmaf");
  fail_unless_equals_int (fa->len, fy->len);
  fail_unless (vh_gst_get_double (g_ptr_array_index (fa, 1), "vmaf") !=
      vh_gst_get_double (g_ptr_array_index (fy, 1), "vmaf"));
  g_ptr_array_unref (fa);
  g_ptr_array_unref (fy);
  free_messages (free_run);
  free_messages (i420);
  free_messages (y444);
  g_free (format[0]);
  g_free (format[1]);
  gst_object_unref (c);
  gst_object_unref (p);
  g_free (up);
  g_free (fixed);
  g_free (desc);
}

GST_END_TEST;

/* A mismatch names both sides and how to convert one to the other. */
GST_START_TEST (test_mismatch_says_how_to_fix)
{
  GList *msgs = run ("video/x-raw,format=Y444,width=320,height=240",
      "video/x-raw,format=I420,width=176,height=144", 3, NULL);
  GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);

  fail_unless (err != NULL);
  fail_unless (g_error_matches (err, GST_CORE_ERROR,
          GST_CORE_ERROR_NEGOTIATION), "%s", err->message);
  for (guint i = 0; i < 7; i++) {
    static const gchar *words[] = { "ref_sink: 320x240 Y444",
      "dist_sink: 176x144 I420", "videoconvert", "videoscale",
      "format=Y444", "width=320,height=240", "c.dist_sink"
    };
    fail_unless (strstr (err->message, words[i]) != NULL, "no '%s' in: %s",
        words[i], err->message);
  }
  g_error_free (err);
  free_messages (msgs);
}

GST_END_TEST;

/* An unwritable results file fails the READY to PAUSED change, before any
 * frame is scored; the check leaves no file behind and does not truncate
 * an existing one. */
GST_START_TEST (test_results_file_checked_at_start)
{
  gchar *missing = vh_gst_tmp_path ("no-such-dir/out.json");
  gchar *props = g_strdup_printf ("results-filename=\"%s\"", missing);
  GList *msgs = run (NULL, NULL, 30, props);
  GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);
  gchar *fresh = vh_gst_tmp_path ("fresh.json");
  gchar *existing = vh_gst_tmp_path ("existing.json");
  gchar *contents = NULL;
  GstElement *e;

  fail_unless (err != NULL);
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_OPEN_WRITE), "%s", err->message);
  fail_unless (strstr (err->message, "out.json") != NULL, "%s", err->message);
  fail_unless_equals_int (vh_gst_count (msgs, "vmaf"), 0);
  fail_unless_equals_int (vh_gst_count (msgs, "vmaf-summary"), 0);
  g_error_free (err);
  free_messages (msgs);

  /* the state change itself fails */
  e = gst_element_factory_make ("vmafhipcompare", NULL);
  g_object_set (e, "results-filename", missing, NULL);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  gst_element_set_state (e, GST_STATE_NULL);

  /* a writable name passes and is not left behind by the check */
  g_object_set (e, "results-filename", fresh, NULL);
  fail_unless (gst_element_set_state (e, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  fail_if (g_file_test (fresh, G_FILE_TEST_EXISTS));
  gst_element_set_state (e, GST_STATE_NULL);

  /* an existing file keeps its contents until the results replace them */
  fail_unless (g_file_set_contents (existing, "earlier run", -1, NULL));
  g_object_set (e, "results-filename", existing, NULL);
  fail_unless (gst_element_set_state (e, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (g_file_get_contents (existing, &contents, NULL, NULL));
  fail_unless_equals_string (contents, "earlier run");
  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (e);

  g_free (contents);
  g_free (existing);
  g_free (fresh);
  g_free (props);
  g_free (missing);
}

GST_END_TEST;

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

  fail_unless (fields->len > 2, "%s", what);
  fail_unless_equals_string (g_ptr_array_index (fields, 0), "vmaf");
  fail_unless (g_str_has_prefix (g_ptr_array_index (fields, 1),
          "vmaf_b_v0.6.3"), "%s: %s", what,
      (gchar *) g_ptr_array_index (fields, 1));
  while (i < fields->len && g_str_has_prefix (g_ptr_array_index (fields, i),
          "vmaf"))
    i++;
  for (GList * l = file; l; l = l->next) {
    if (g_str_has_prefix (l->data, "vmaf"))
      continue;
    fail_unless (i < fields->len, "%s: %s missing", what, (gchar *) l->data);
    fail_unless_equals_string (g_ptr_array_index (fields, i), l->data);
    i++;
  }
  fail_unless_equals_int (i, fields->len);
  g_list_free (file);
}

/* The vmaf and vmaf-summary messages list the model scores first, then
 * the features in the results file's order, which stays libvmaf's. */
GST_START_TEST (test_models_first)
{
  gchar *results = vh_gst_tmp_path ("order.json");
  gchar *props = g_strdup_printf ("model=vmaf_v0.6.1,vmaf_b_v0.6.3 "
      "features=psnr results-filename=%s", results);
  gchar *desc = pipeline ("video/x-raw,width=64,height=48",
      "video/x-raw,width=64,height=48", 3, props);
  GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
  GPtrArray *frames = vh_gst_structures (msgs, "vmaf");
  GPtrArray *summary = vh_gst_structures (msgs, "vmaf-summary");
  JsonParser *parser = json_parser_new ();
  JsonObject *metrics;
  GPtrArray *fields;
  GList *file;

  fail_unless (json_parser_load_from_file (parser, results, NULL));
  metrics = json_object_get_object_member (json_array_get_object_element
      (json_object_get_array_member (json_node_get_object
              (json_parser_get_root (parser)), "frames"), 0), "metrics");
  /* the file keeps libvmaf's order: features, then models */
  file = json_object_get_members (metrics);
  fail_if (g_str_has_prefix (file->data, "vmaf"));
  g_list_free (file);
  fail_unless_equals_int (frames->len, 3);
  fail_unless_equals_int (summary->len, 1);
  fail_unless_equals_string (gst_structure_nth_field_name (frames->pdata[0],
          5), "score");
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
  free_messages (msgs);
  g_free (desc);
  g_free (props);
  g_free (results);
}

GST_END_TEST;

/* What gst-inspect-1.0 shows: each enum value once (the vmaf element's
 * spellings are taken from strings without entries of their own), the
 * defaults under their names, the built-in models in the model blurb. */
GST_START_TEST (test_inspect_tidy)
{
  static const struct
  {
    const gchar *prop, *alias, *alias_means, *default_nick;
  } enums[] = {
    {"results-format", "none", "json", "json"},
    {"pool-method", "harmonic_mean", "harmonic-mean", "mean"},
  };
  GstElement *e = gst_element_factory_make ("vmafhipcompare", NULL);
  GParamSpec *model = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      "model");
  const gchar *const *builtin = vh_model_list_builtin ();

  for (guint i = 0; i < G_N_ELEMENTS (enums); i++) {
    GParamSpec *spec = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
        enums[i].prop);
    GEnumClass *klass = G_PARAM_SPEC_ENUM (spec)->enum_class;
    gint def = G_PARAM_SPEC_ENUM (spec)->default_value;
    gint value;

    for (guint a = 0; a < klass->n_values; a++) {
      fail_if (!strcmp (klass->values[a].value_nick, enums[i].alias));
      for (guint b = a + 1; b < klass->n_values; b++)
        fail_if (klass->values[a].value == klass->values[b].value,
            "%s: %s and %s", enums[i].prop, klass->values[a].value_nick,
            klass->values[b].value_nick);
    }
    fail_unless_equals_string (g_enum_get_value (klass, def)->value_nick,
        enums[i].default_nick);
    gst_util_set_object_arg (G_OBJECT (e), enums[i].prop, enums[i].alias);
    g_object_get (e, enums[i].prop, &value, NULL);
    fail_unless_equals_string (g_enum_get_value (klass, value)->value_nick,
        enums[i].alias_means);
    gst_util_set_object_arg (G_OBJECT (e), enums[i].prop,
        enums[i].default_nick);
    g_object_get (e, enums[i].prop, &value, NULL);
    fail_unless_equals_int (value, def);
  }
  fail_unless (builtin && builtin[0]);
  for (guint i = 0; builtin[i]; i++)
    fail_unless (strstr (g_param_spec_get_blurb (model), builtin[i]), "%s",
        builtin[i]);
  gst_object_unref (e);
}

GST_END_TEST;

/* The compositing properties of GstVideoAggregatorPad are read-only on
 * the sink pads and say what they are fixed at. */
GST_START_TEST (test_pad_properties)
{
  GstElement *e = gst_element_factory_make ("vmafhipcompare", NULL);

  for (guint p = 0; p < 2; p++) {
    GstPad *pad = gst_element_get_static_pad (e, p ? "dist_sink" : "ref_sink");

    for (guint i = 0; i < 3; i++) {
      static const gchar *names[] = { "zorder", "repeat-after-eos",
        "max-last-buffer-repeat"
      };
      GParamSpec *spec = g_object_class_find_property (G_OBJECT_GET_CLASS
          (pad), names[i]);

      fail_unless (spec != NULL, "%s", names[i]);
      fail_if (spec->flags & G_PARAM_WRITABLE, "%s is writable", names[i]);
      fail_unless (g_str_has_prefix (g_param_spec_get_blurb (spec),
              "Always ") && strstr (g_param_spec_get_blurb (spec),
              "read-only here"), "%s: %s", names[i],
          g_param_spec_get_blurb (spec));
    }
    gst_object_unref (pad);
  }
  gst_object_unref (e);
}

GST_END_TEST;

/* gst-inspect-1.0 shows every field that the element's messages carry and
 * every tag; the plugin's origin is a URL. */
GST_START_TEST (test_inspect_documents_messages_and_tags)
{
  GstElementFactory *f = gst_element_factory_find ("vmafhipcompare");
  GstPlugin *plugin;
  const gchar *messages, *tags;
  GList *msgs = run (NULL, NULL, 3, "features=psnr,float_ssim "
      "tag-interval=1");
  const gchar *const names[] = { "vmaf", "vmaf-summary" };

  fail_unless (f != NULL);
  messages = gst_element_factory_get_metadata (f, "messages");
  tags = gst_element_factory_get_metadata (f, "tags");
  fail_unless (messages != NULL && tags != NULL);
  for (guint n = 0; n < G_N_ELEMENTS (names); n++) {
    GPtrArray *all = vh_gst_structures (msgs, names[n]);
    gchar *quoted = g_strdup_printf ("\"%s\"", names[n]);

    fail_unless (strstr (messages, quoted) != NULL, "%s", names[n]);
    fail_unless (all->len > 0);
    for (guint i = 0; i < all->len; i++) {
      const GstStructure *s = g_ptr_array_index (all, i);
      for (gint k = 0; k < gst_structure_n_fields (s); k++) {
        const gchar *field = gst_structure_nth_field_name (s, k);
        GType type = gst_structure_get_field_type (s, field);
        /* values named after an output: documented as a group */
        gboolean output = type == GST_TYPE_STRUCTURE ||
            (type == G_TYPE_DOUBLE && strcmp (field, "score") != 0);
        fail_unless (output || strstr (messages, field) != NULL,
            "field %s of %s is not documented", field, names[n]);
      }
    }
    g_ptr_array_unref (all);
    g_free (quoted);
  }
  for (GList * l = msgs; l; l = l->next) {
    GstTagList *list;

    if (GST_MESSAGE_TYPE (l->data) != GST_MESSAGE_TAG)
      continue;
    gst_message_parse_tag (l->data, &list);
    for (gint i = 0; i < gst_tag_list_n_tags (list); i++)
      fail_unless (strstr (tags, gst_tag_list_nth_tag_name (list, i)) !=
          NULL, "tag %s is not documented", gst_tag_list_nth_tag_name (list,
              i));
    gst_tag_list_unref (list);
  }
  plugin = gst_plugin_feature_get_plugin (GST_PLUGIN_FEATURE (f));
  fail_unless (g_str_has_prefix (gst_plugin_get_origin (plugin),
          "https://"), "%s", gst_plugin_get_origin (plugin));
  gst_object_unref (plugin);
  free_messages (msgs);
  gst_object_unref (f);
}

GST_END_TEST;

/* GStreamer's vmaf element's properties work, and its message layout
 * carries the same values as ours. */
GST_START_TEST (test_vmaf_element_names)
{
  GList *ours = run (NULL, NULL, 4, "features=psnr,float_ssim,float_ms_ssim "
      "pool-method=harmonic-mean");
  GList *theirs = run (NULL, NULL, 4, "model-filename=vmaf_v0.6.1 psnr=true "
      "ssim=true ms-ssim=true pool-method=harmonic_mean phone-model=false "
      "log-level=none results-format=none message-layout=vmaf");
  GPtrArray *frames = vh_gst_structures (ours, "vmaf");
  GPtrArray *vmaf = vh_gst_structures (theirs, "VMAF");
  GPtrArray *summary = vh_gst_structures (ours, "vmaf-summary");
  const GstStructure *pooled;
  const GValue *psnr;

  fail_unless (vh_gst_find_type (theirs, GST_MESSAGE_ERROR) < 0);
  fail_unless_equals_int (vh_gst_count (theirs, "vmaf"), 0);
  fail_unless_equals_int (vh_gst_count (theirs, "vmaf-summary"), 0);
  fail_unless_equals_int (vmaf->len, frames->len + 1);
  for (guint i = 0; i < frames->len; i++) {
    const GstStructure *a = g_ptr_array_index (frames, i);
    const GstStructure *b = g_ptr_array_index (vmaf, i);
    gint index;

    fail_unless_equals_string (gst_structure_get_string (b, "type"), "frame");
    fail_unless (gst_structure_get_int (b, "index", &index));
    fail_unless_equals_int (index, vh_gst_get_uint64 (a, "index"));
    fail_unless_equals_uint64 (vh_gst_get_uint64 (b, "timestamp"),
        vh_gst_get_uint64 (a, "timestamp"));
    fail_unless (vh_gst_get_double (b, "score") ==
        vh_gst_get_double (a, "vmaf"));
    fail_unless (vh_gst_get_double (b, "psnr-y") ==
        vh_gst_get_double (a, "psnr_y"));
    fail_unless (vh_gst_get_double (b, "ssim") ==
        vh_gst_get_double (a, "float_ssim"));
    fail_unless (vh_gst_get_double (b, "ms-ssim") ==
        vh_gst_get_double (a, "float_ms_ssim"));
  }
  pooled = g_ptr_array_index (vmaf, frames->len);
  fail_unless_equals_string (gst_structure_get_string (pooled, "type"),
      "pooled");
  fail_unless_equals_int (summary->len, 1);
  fail_unless (vh_gst_get_double (pooled, "score") ==
      vh_gst_get_double (g_ptr_array_index (summary, 0), "score"));
  psnr = gst_structure_get_value (g_ptr_array_index (summary, 0), "psnr_y");
  fail_unless (vh_gst_get_double (pooled, "psnr-y") ==
      vh_gst_get_double (gst_value_get_structure (psnr), "harmonic-mean"));

  g_ptr_array_unref (frames);
  g_ptr_array_unref (vmaf);
  g_ptr_array_unref (summary);
  free_messages (ours);
  free_messages (theirs);
}

GST_END_TEST;

/* conf-interval asks for a bootstrap model: with one, its interval comes;
 * with another, the state change fails and says why. */
GST_START_TEST (test_conf_interval)
{
  GList *bad = run (NULL, NULL, 2, "conf-interval=true");
  GList *good = run (NULL, NULL, 2, "conf-interval=true "
      "model-filename=vmaf_b_v0.6.3");
  GError *err = vh_gst_first_error (bad, GST_MESSAGE_ERROR);
  GPtrArray *frames = vh_gst_structures (good, "vmaf");

  fail_unless (err != NULL);
  fail_unless (strstr (err->message, "bootstrap") != NULL, "%s", err->message);
  fail_unless (frames->len == 2);
  fail_unless (gst_structure_has_field (g_ptr_array_index (frames, 0),
          "vmaf_ci_p95_lo"));
  g_error_free (err);
  g_ptr_array_unref (frames);
  free_messages (bad);
  free_messages (good);
}

GST_END_TEST;

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

GST_START_TEST (test_pairs_show_one_moment)
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

  fail_unless_equals_int (s_near->len, 1);
  fail_unless_equals_int (s_half->len, 1);
  fail_unless_equals_int (s_next->len, 1);
  fail_unless_equals_uint64 (vh_gst_get_uint64 (g_ptr_array_index (s_near,
              0), "scored"), 6);

  sum = g_ptr_array_index (s_half, 0);
  fail_unless_equals_int (vh_gst_count (half, "vmaf"), 0);
  fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, "scored"), 0);
  fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, "unpaired-distorted"),
      6);
  fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, "unpaired-reference"),
      6);
  fail_unless (warning != NULL);
  fail_unless (strstr (warning->message, "latency") != NULL, "%s",
      warning->message);

  /* Reference 1 (40 ms) with distorted 0 (25 ms), and so on. */
  sum = g_ptr_array_index (s_next, 0);
  fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, "scored"), 5);
  fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, "unpaired-reference"),
      1);
  fail_unless_equals_uint64 (vh_gst_get_uint64 (sum, "unpaired-distorted"),
      1);
  fail_unless_equals_int (f_next->len, 5);
  fail_unless_equals_uint64 (vh_gst_get_uint64 (g_ptr_array_index (f_next,
              0), "timestamp"), 40 * GST_MSECOND);

  g_error_free (warning);
  g_ptr_array_unref (s_near);
  g_ptr_array_unref (s_half);
  g_ptr_array_unref (s_next);
  g_ptr_array_unref (f_next);
  free_messages (near);
  free_messages (half);
  free_messages (next);
}

GST_END_TEST;

static Suite *
vmafhip_home_suite (void)
{
  Suite *s = suite_create ("vmafhip-home");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_unconstrained_sources_score_i420);
  tcase_add_test (tc, test_unconstrained_tee_scores_i420);
  tcase_add_test (tc, test_mismatch_says_how_to_fix);
  tcase_add_test (tc, test_results_file_checked_at_start);
  tcase_add_test (tc, test_results_fifo);
  tcase_add_test (tc, test_pad_properties);
  tcase_add_test (tc, test_inspect_tidy);
  tcase_add_test (tc, test_models_first);
  tcase_add_test (tc, test_inspect_documents_messages_and_tags);
  tcase_add_test (tc, test_vmaf_element_names);
  tcase_add_test (tc, test_conf_interval);
  tcase_add_test (tc, test_pairs_show_one_moment);
  return s;
}

GST_CHECK_MAIN (vmafhip_home);
