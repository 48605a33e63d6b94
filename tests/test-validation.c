/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* Bad input to the engine: options, model files and output names. Each
 * case must end in an error that names the cause, or a correct result. */

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "context.h"
#include "errors.h"
#include "feature-collector.h"
#include "feature-extractor.h"
#include "model.h"
#include "output.h"
#include "output-escape.h"
#include "picture-check.h"

static void
expect_option_error (const gchar * feature, const gchar * option,
    const gchar * value, const gchar * needle)
{
  const VhFeatureExtractorClass *klass =
      vh_feature_extractor_find (feature, VH_BACKEND_CPU);
  g_autoptr (GError) err = NULL;
  VhFeatureExtractor *fex;

  g_assert_nonnull (klass);
  fex = vh_feature_extractor_new (klass);
  g_assert_false (vh_feature_extractor_set_option (fex, option, value, &err));
  g_assert_error (err, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (err->message, option));
  g_assert_nonnull (strstr (err->message, needle));
  vh_feature_extractor_free (fex);
}

static void
test_option_values (void)
{
  const gchar *bad[] = { "nan", "NaN", "-nan", "inf", "-inf", "infinity",
    "1e999", NULL
  };
  const VhFeatureExtractorClass *klass;
  VhFeatureExtractor *fex;
  g_autofree gchar *name = NULL;

  for (guint i = 0; bad[i]; i++) {
    expect_option_error ("vif", "vif_enhn_gain_limit", bad[i], "finite");
    expect_option_error ("psnr", "min_sse", bad[i], "finite");
    expect_option_error ("adm", "adm_noise_weight", bad[i], "finite");
  }
  expect_option_error ("vif", "vif_enhn_gain_limit", "0.5", "outside");
  expect_option_error ("motion", "motion_force_zero", "2", "cannot parse");

  /* -0 is 0: it names outputs as 0 does. */
  klass = vh_feature_extractor_find ("adm", VH_BACKEND_CPU);
  fex = vh_feature_extractor_new (klass);
  g_assert_true (vh_feature_extractor_set_option (fex, "adm_noise_weight",
          "-0", NULL));
  name = vh_feature_extractor_output_name (fex, "integer_adm2");
  g_assert_cmpstr (strstr (name, "-0"), ==, NULL);
  vh_feature_extractor_free (fex);
}

static gchar *
builtin_json (const gchar * version)
{
  g_autofree gchar *path = g_build_filename (VH_SOURCE_ROOT, "models",
      version, NULL);
  gchar *data = NULL;

  g_assert_true (g_file_get_contents (path, &data, NULL, NULL));
  return data;
}

static void
expect_model_error (const gchar * json, const gchar * needle)
{
  g_autoptr (GError) err = NULL;
  VhModel *model = vh_model_new_from_data (json, -1, "test.json", NULL, &err);

  if (model)
    g_error ("a model with '%s' expected to fail loaded", needle);
  g_assert_nonnull (err);
  if (!strstr (err->message, needle))
    g_error ("expected '%s' in: %s", needle, err->message);
}

static gchar *
replace (const gchar * text, const gchar * from, const gchar * to)
{
  g_auto (GStrv) parts = g_strsplit (text, from, 2);

  g_assert_nonnull (parts[1]);
  return g_strconcat (parts[0], to, parts[1], NULL);
}

static gchar *
replace_last (const gchar * text, const gchar * from, const gchar * to)
{
  const gchar *at = g_strrstr (text, from);
  g_autofree gchar *head = NULL;

  g_assert_nonnull (at);
  head = g_strndup (text, at - text);
  return g_strconcat (head, to, at + strlen (from), NULL);
}

static void
test_model_files (void)
{
  g_autofree gchar *good = builtin_json ("vmaf_v0.6.1.json");
  g_autofree gchar *deep = NULL;
  GString *nest = g_string_new ("{\"a\": ");
  gchar *bad;

  /* Nested far deeper than any model: refused before json-glib recurses
   * into it. */
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (nest, '[');
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (nest, ']');
  g_string_append_c (nest, '}');
  deep = g_string_free (nest, FALSE);
  expect_model_error (deep, "nested more than");

  /* A support vector count no text can hold: no 16 GiB allocation. */
  bad = replace (good, "total_sv 211", "total_sv 2147483647");
  expect_model_error (bad, "total_sv is 2147483647");
  g_free (bad);

  /* Non-finite numbers in the SVM text and in the dictionary. */
  bad = replace (good, "gamma 0.04", "gamma nan");
  expect_model_error (bad, "finite");
  g_free (bad);
  bad = replace (good, "rho ", "rho inf ");
  expect_model_error (bad, "finite");
  g_free (bad);
  bad = replace (good, "\"slopes\": [", "\"slopes\": [1e999, ");
  expect_model_error (bad, "slopes[0]");
  g_free (bad);
  /* The model's own clip comes last (the first is in param_dict). */
  bad = replace_last (good, "\"score_clip\": [", "\"score_clip\": [0, "
      "-1e308], \"x\": [");
  expect_model_error (bad, "min <= max");
  g_free (bad);
  bad = replace (good, "\"model_dict\": {", "\"model_dict\": {"
      "\"feature_opts_dicts\": [{\"adm_enhn_gain_limit\": \"nan\"}], ");
  expect_model_error (bad, "finite");
  g_free (bad);
}

static void
test_output_clash (void)
{
  VhContext *ctx = vh_context_new (NULL);
  VhModelConfig named_psnr = { "psnr_y", FALSE, FALSE };
  const gchar *no_chroma[] = { "enable_chroma", "false", NULL };
  g_autoptr (GError) err = NULL;

  /* A model named like a feature output. */
  g_assert_true (vh_context_add_feature (ctx, "psnr", NULL, NULL));
  g_assert_true (vh_context_add_model (ctx, vh_model_new_builtin
          ("vmaf_v0.6.1", &named_psnr, NULL), NULL));
  g_assert_false (vh_context_check_outputs (ctx, &err));
  g_assert_nonnull (strstr (err->message, "model 'psnr_y'"));
  g_assert_nonnull (strstr (err->message, "feature 'psnr'"));
  vh_context_free (ctx);
  g_clear_error (&err);

  /* Two models under one name. */
  ctx = vh_context_new (NULL);
  g_assert_true (vh_context_add_model (ctx, vh_model_new_builtin
          ("vmaf_v0.6.1", NULL, NULL), NULL));
  g_assert_true (vh_context_add_model (ctx, vh_model_new_builtin
          ("vmaf_v0.6.1neg", NULL, NULL), NULL));
  g_assert_false (vh_context_check_outputs (ctx, &err));
  g_assert_nonnull (strstr (err->message, "(model 1)"));
  g_assert_nonnull (strstr (err->message, "(model 2)"));
  vh_context_free (ctx);
  g_clear_error (&err);

  /* A feature again, alone or with options that do not rename it, is the
   * same feature (as libvmaf keeps it), not a clash. */
  ctx = vh_context_new (NULL);
  g_assert_true (vh_context_add_feature (ctx, "psnr", NULL, NULL));
  g_assert_true (vh_context_add_feature (ctx, "psnr", NULL, NULL));
  g_assert_true (vh_context_add_feature (ctx, "psnr", no_chroma, NULL));
  g_assert_true (vh_context_check_outputs (ctx, NULL));
  g_assert_false (vh_context_add_feature (ctx, "", NULL, &err));
  vh_context_free (ctx);
}

static const gchar *const nasty = "a\"b\\c<&>, d\n'e|f\x01";

static void
test_escape (void)
{
  g_autofree gchar *json = vh_escape_json (nasty);
  g_autofree gchar *xml_name = vh_escape_xml_name ("1a b:c");
  g_autofree gchar *csv = vh_escape_csv (nasty);
  g_autofree gchar *plain = vh_escape_csv ("psnr_y");

  g_assert_cmpstr (json, ==, "a\\\"b\\\\c<&>, d\\n'e|f\\u0001");
  g_assert_cmpstr (xml_name, ==, "_1a_b_c");
  g_assert_cmpstr (csv, ==, "\"a\"\"b\\c<&>, d\n'e|f\x01\"");
  g_assert_cmpstr (plain, ==, "psnr_y");
}

/* Every layout stays readable with a hostile output name. */
static void
test_writers_escape (void)
{
  VhFeatureCollector *fc = vh_feature_collector_new ();
  VhOutputInfo info = { 2, 1, 10.0, 16, 16, "psnr: cpu" };

  for (guint i = 0; i < 2; i++) {
    g_assert_true (vh_feature_collector_append (fc, "psnr_y", i, 30.0 + i,
            NULL));
    g_assert_true (vh_feature_collector_append (fc, nasty, i, 90.0 + i,
            NULL));
  }
  for (VhOutputFormat f = VH_OUTPUT_JSON; f <= VH_OUTPUT_CSV; f++) {
    gchar *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream (&buf, &len);

    g_assert_true (vh_output_write_info (fc, f, &info, out, NULL));
    fclose (out);
    if (f == VH_OUTPUT_JSON) {
      g_autoptr (JsonParser) parser = json_parser_new ();
      JsonObject *pooled;
      g_assert_true (json_parser_load_from_data (parser, buf, -1, NULL));
      pooled = json_object_get_object_member (json_node_get_object
          (json_parser_get_root (parser)), "pooled_metrics");
      g_assert_true (json_object_has_member (pooled, nasty));
    } else if (f == VH_OUTPUT_XML) {
      GMarkupParser none = { 0 };
      GMarkupParseContext *mc = g_markup_parse_context_new (&none, 0, NULL,
          NULL);
      g_assert_true (g_markup_parse_context_parse (mc, buf, -1, NULL));
      g_assert_true (g_markup_parse_context_end_parse (mc, NULL));
      g_markup_parse_context_free (mc);
    } else {
      /* Header: Frame, psnr_y, the quoted name (with its line break). */
      g_assert_true (g_str_has_prefix (buf, "Frame,psnr_y,\"a\"\"b"));
    }
    free (buf);
  }
  vh_feature_collector_free (fc);
}

/* 10-bit data holding 1024 is refused with the plane and position. */
static void
test_bit_depth (void)
{
  VhPictureInfo info;
  g_autoptr (VhPicture) pic = NULL;
  g_autoptr (GError) err = NULL;
  guint16 *row;

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 10, 18, 6,
          NULL));
  pic = vh_picture_new (&info);
  for (guint p = 0; p < pic->n_planes; p++)
    for (guint y = 0; y < pic->height[p]; y++) {
      row = vh_picture_row (pic, p, y);
      for (guint x = 0; x < pic->width[p]; x++)
        row[x] = 1023;
    }
  g_assert_true (vh_picture_check_depth (pic, "reference", NULL));
  row = vh_picture_row (pic, 2, 1);
  row[pic->width[2] - 1] = 1024;
  g_assert_false (vh_picture_check_depth (pic, "reference", &err));
  g_assert_cmpstr (err->message, ==, "reference plane V has 1024 at (8, 1), "
      "above the 10-bit maximum 1023 (is the bit depth right?)");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/validation/option-values", test_option_values);
  g_test_add_func ("/validation/model-files", test_model_files);
  g_test_add_func ("/validation/output-clash", test_output_clash);
  g_test_add_func ("/validation/escape", test_escape);
  g_test_add_func ("/validation/writers-escape", test_writers_escape);
  g_test_add_func ("/validation/bit-depth", test_bit_depth);
  return g_test_run ();
}
