/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* vmafhipcompare as a GStreamer user meets it, continued from
 * test-vmafhip-home.c: pad properties, what gst-inspect-1.0 documents,
 * the plugin's origin, and the properties and messages of GStreamer's own
 * vmaf element. */

#include <string.h>

#include "vh-gst-check.h"
#include "vh-gst-pads.h"
#include "model.h"

/* What gst-inspect-1.0 shows: each enum value once (the vmaf element's
 * spellings are taken from strings without entries of their own), the
 * defaults under their names, the built-in models in the model blurb. */
static void
test_inspect_tidy (void)
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
      g_assert_false (!strcmp (klass->values[a].value_nick, enums[i].alias));
      for (guint b = a + 1; b < klass->n_values; b++)
        vh_assert_msg (!(klass->values[a].value == klass->values[b].value),
            "%s: %s and %s", enums[i].prop, klass->values[a].value_nick,
            klass->values[b].value_nick);
    }
    g_assert_cmpstr (g_enum_get_value (klass, def)->value_nick, ==,
        enums[i].default_nick);
    gst_util_set_object_arg (G_OBJECT (e), enums[i].prop, enums[i].alias);
    g_object_get (e, enums[i].prop, &value, NULL);
    g_assert_cmpstr (g_enum_get_value (klass, value)->value_nick, ==,
        enums[i].alias_means);
    gst_util_set_object_arg (G_OBJECT (e), enums[i].prop,
        enums[i].default_nick);
    g_object_get (e, enums[i].prop, &value, NULL);
    g_assert_cmpint (value, ==, def);
  }
  g_assert_true (builtin && builtin[0]);
  for (guint i = 0; builtin[i]; i++)
    vh_assert_msg (strstr (g_param_spec_get_blurb (model), builtin[i]), "%s",
        builtin[i]);
  gst_object_unref (e);
}


/* The compositing properties of GstVideoAggregatorPad are read-only on
 * the sink pads and say what they are fixed at. */
static void
test_pad_properties (void)
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

      vh_assert_msg (spec != NULL, "%s", names[i]);
      vh_assert_msg (!(spec->flags & G_PARAM_WRITABLE), "%s is writable",
          names[i]);
      vh_assert_msg (g_str_has_prefix (g_param_spec_get_blurb (spec),
          "Always ") && strstr (g_param_spec_get_blurb (spec),
          "read-only here"), "%s: %s", names[i], g_param_spec_get_blurb
          (spec));
    }
    gst_object_unref (pad);
  }
  gst_object_unref (e);
}


/* gst-inspect-1.0 shows every field that the element's messages carry and
 * every tag; the plugin's origin is a URL. */
static void
test_inspect_documents_messages_and_tags (void)
{
  GstElementFactory *f = gst_element_factory_find ("vmafhipcompare");
  GstPlugin *plugin;
  const gchar *messages, *tags;
  GList *msgs = vh_gst_run_test_sources (NULL, NULL, 3,
      "features=psnr,float_ssim " "tag-interval=1");
  const gchar *const names[] = { "vmaf", "vmaf-summary" };

  g_assert_true (f != NULL);
  messages = gst_element_factory_get_metadata (f, "messages");
  tags = gst_element_factory_get_metadata (f, "tags");
  g_assert_true (messages != NULL && tags != NULL);
  for (guint n = 0; n < G_N_ELEMENTS (names); n++) {
    GPtrArray *all = vh_gst_structures (msgs, names[n]);
    gchar *quoted = g_strdup_printf ("\"%s\"", names[n]);

    vh_assert_msg (strstr (messages, quoted) != NULL, "%s", names[n]);
    g_assert_true (all->len > 0);
    for (guint i = 0; i < all->len; i++) {
      const GstStructure *s = g_ptr_array_index (all, i);
      for (gint k = 0; k < gst_structure_n_fields (s); k++) {
        const gchar *field = gst_structure_nth_field_name (s, k);
        GType type = gst_structure_get_field_type (s, field);
        /* values named after an output: documented as a group */
        gboolean output = type == GST_TYPE_STRUCTURE ||
            (type == G_TYPE_DOUBLE && strcmp (field, "score") != 0);
        vh_assert_msg (output || strstr (messages, field) != NULL,
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
      vh_assert_msg (strstr (tags, gst_tag_list_nth_tag_name (list, i)) != NULL,
          "tag %s is not documented", gst_tag_list_nth_tag_name (list, i));
    gst_tag_list_unref (list);
  }
  plugin = gst_plugin_feature_get_plugin (GST_PLUGIN_FEATURE (f));
  vh_assert_msg (g_str_has_prefix (gst_plugin_get_origin (plugin), "https://"),
      "%s", gst_plugin_get_origin (plugin));
  gst_object_unref (plugin);
  vh_gst_free_messages (msgs);
  gst_object_unref (f);
}


/* GStreamer's vmaf element's properties work, and its message layout
 * carries the same values as ours. */
static void
test_vmaf_element_names (void)
{
  GList *ours = vh_gst_run_test_sources (NULL, NULL, 4,
      "features=psnr,float_ssim,float_ms_ssim " "pool-method=harmonic-mean");
  GList *theirs = vh_gst_run_test_sources (NULL, NULL, 4,
      "model-filename=vmaf_v0.6.1 psnr=true "
      "ssim=true ms-ssim=true pool-method=harmonic_mean phone-model=false "
      "log-level=none results-format=none message-layout=vmaf");
  GPtrArray *frames = vh_gst_structures (ours, "vmaf");
  GPtrArray *vmaf = vh_gst_structures (theirs, "VMAF");
  GPtrArray *summary = vh_gst_structures (ours, "vmaf-summary");
  const GstStructure *pooled;
  const GValue *psnr;

  g_assert_true (vh_gst_find_type (theirs, GST_MESSAGE_ERROR) < 0);
  g_assert_cmpint (vh_gst_count (theirs, "vmaf"), ==, 0);
  g_assert_cmpint (vh_gst_count (theirs, "vmaf-summary"), ==, 0);
  g_assert_cmpint (vmaf->len, ==, frames->len + 1);
  for (guint i = 0; i < frames->len; i++) {
    const GstStructure *a = g_ptr_array_index (frames, i);
    const GstStructure *b = g_ptr_array_index (vmaf, i);
    gint index;

    g_assert_cmpstr (gst_structure_get_string (b, "type"), ==, "frame");
    g_assert_true (gst_structure_get_int (b, "index", &index));
    g_assert_cmpint (index, ==, vh_gst_get_uint64 (a, "index"));
    g_assert_cmpuint (vh_gst_get_uint64 (b, "timestamp"), ==,
        vh_gst_get_uint64 (a, "timestamp"));
    g_assert_true (vh_gst_get_double (b, "score") == vh_gst_get_double (a,
        "vmaf"));
    g_assert_true (vh_gst_get_double (b, "psnr-y") == vh_gst_get_double (a,
        "psnr_y"));
    g_assert_true (vh_gst_get_double (b, "ssim") == vh_gst_get_double (a,
        "float_ssim"));
    g_assert_true (vh_gst_get_double (b, "ms-ssim") == vh_gst_get_double (a,
        "float_ms_ssim"));
  }
  pooled = g_ptr_array_index (vmaf, frames->len);
  g_assert_cmpstr (gst_structure_get_string (pooled, "type"), ==, "pooled");
  g_assert_cmpint (summary->len, ==, 1);
  g_assert_true (vh_gst_get_double (pooled, "score") == vh_gst_get_double
      (g_ptr_array_index (summary, 0), "score"));
  psnr = gst_structure_get_value (g_ptr_array_index (summary, 0), "psnr_y");
  g_assert_true (vh_gst_get_double (pooled, "psnr-y") == vh_gst_get_double
      (gst_value_get_structure (psnr), "harmonic-mean"));

  g_ptr_array_unref (frames);
  g_ptr_array_unref (vmaf);
  g_ptr_array_unref (summary);
  vh_gst_free_messages (ours);
  vh_gst_free_messages (theirs);
}


/* conf-interval asks for a bootstrap model: with one, its interval comes;
 * with another, the state change fails and says why. */
static void
test_conf_interval (void)
{
  GList *bad = vh_gst_run_test_sources (NULL, NULL, 2, "conf-interval=true");
  GList *good = vh_gst_run_test_sources (NULL, NULL, 2, "conf-interval=true "
      "model-filename=vmaf_b_v0.6.3");
  GError *err = vh_gst_first_error (bad, GST_MESSAGE_ERROR);
  GPtrArray *frames = vh_gst_structures (good, "vmaf");

  g_assert_true (err != NULL);
  vh_assert_msg (strstr (err->message, "bootstrap") != NULL, "%s",
      err->message);
  g_assert_true (frames->len == 2);
  g_assert_true (gst_structure_has_field (g_ptr_array_index (frames, 0),
      "vmaf_ci_p95_lo"));
  g_error_free (err);
  g_ptr_array_unref (frames);
  vh_gst_free_messages (bad);
  vh_gst_free_messages (good);
}

int
main (int argc, char **argv)
{
  vh_gst_test_init (&argc, &argv);
  g_test_add_func ("/vmafhipcompare/inspect-tidy", test_inspect_tidy);
  g_test_add_func ("/vmafhipcompare/pad-properties", test_pad_properties);
  g_test_add_func ("/vmafhipcompare/inspect-documents-messages-and-tags",
      test_inspect_documents_messages_and_tags);
  g_test_add_func ("/vmafhipcompare/vmaf-element-names",
      test_vmaf_element_names);
  g_test_add_func ("/vmafhipcompare/conf-interval", test_conf_interval);
  return g_test_run ();
}
