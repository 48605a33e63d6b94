/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* Models: the built-in ones, transform and clip worked out by hand,
 * internal feature names and malformed files; against libvmaf in
 * test-model-golden.c. */

#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "errors.h"
#include "feature-extractor.h"
#include "golden.h"
#include "model.h"
#include "model-test.h"
#include "test-data.h"

/* ------------------------------------------------------------------ */
/* Built-in models: names, features, options, outputs. */

static void
test_builtin (void)
{
  const gchar *const *list = vh_model_list_builtin ();
  guint n = 0;

  for (; list[n]; n++) {
    g_autoptr (GError) err = NULL;
    g_autoptr (VhModel) m = vh_model_new_builtin (list[n], NULL, &err);
    g_assert_no_error (err);
    g_assert_cmpstr (vh_model_get_name (m), ==, "vmaf");
    /* cambi, speed_chroma_uv, adm3, motion3 for the v1.0.16 family. */
    g_assert_cmpuint (vh_model_n_features (m), ==,
        g_str_has_prefix (list[n], "vmaf_v1.0.16") ? 4 : 6);
  }
  g_assert_cmpuint (n, ==, 17);
  g_assert_true (g_strv_contains (list, "vmaf_v0.6.1"));
  g_assert_true (g_strv_contains (list, "vmaf_b_v0.6.3"));
  g_assert_true (g_strv_contains (list, "vmaf_float_v0.6.1"));
  g_assert_true (g_strv_contains (list, "vmaf_float_b_v0.6.3"));
  g_assert_true (g_strv_contains (list, "vmaf_v1.0.16_3d0h"));
  g_assert_true (g_strv_contains (list, "vmaf_v1.0.16_hfr_1d5h_2160"));
}

static void
test_builtin_features (void)
{
  static const gchar *const names[] = {
    "integer_adm2", "integer_motion2", "integer_vif_scale0",
    "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3"
  };
  static const gchar *const extractors[] = {
    "adm", "motion", "vif", "vif", "vif", "vif"
  };
  g_autoptr (GError) err = NULL;
  g_autoptr (VhModel) m = vh_model_new_builtin ("vmaf_v0.6.1", NULL, &err);
  g_autoptr (VhModel) neg = NULL;
  VhModelConfig cfg = { "vmaf_neg", FALSE, FALSE };

  g_assert_no_error (err);
  g_assert_false (vh_model_is_bootstrap (m));
  for (guint i = 0; i < 6; i++) {
    g_assert_cmpstr (vh_model_feature_output_name (m, i), ==, names[i]);
    g_assert_cmpstr (vh_model_feature_extractor (m, i), ==, extractors[i]);
    g_assert_null (vh_model_feature_options (m, i)[0]);
  }
  g_assert_cmpstr (vh_model_output_names (m)[0], ==, "vmaf");
  g_assert_null (vh_model_output_names (m)[1]);

  /* The neg model asks for enhancement gain limits of 1.0, which rename
   * the features and come out normalised the way libvmaf prints them. */
  neg = vh_model_new_builtin ("vmaf_v0.6.1neg", &cfg, &err);
  g_assert_no_error (err);
  g_assert_cmpstr (vh_model_get_name (neg), ==, "vmaf_neg");
  g_assert_cmpstr (vh_model_feature_output_name (neg, 0), ==,
      "integer_adm2_egl_1");
  g_assert_cmpstr (vh_model_feature_options (neg, 0)[0], ==,
      "adm_enhn_gain_limit");
  g_assert_cmpstr (vh_model_feature_options (neg, 0)[1], ==, "1");
  g_assert_null (vh_model_feature_options (neg, 0)[2]);
  g_assert_cmpstr (vh_model_feature_output_name (neg, 1), ==,
      "integer_motion2");
  g_assert_null (vh_model_feature_options (neg, 1)[0]);
  g_assert_cmpstr (vh_model_feature_output_name (neg, 5), ==,
      "integer_vif_scale3_egl_1");
  g_assert_cmpstr (vh_model_feature_options (neg, 5)[0], ==,
      "vif_enhn_gain_limit");
}

static void
test_builtin_bootstrap (void)
{
  g_autoptr (GError) err = NULL;
  VhModelConfig cfg = { "vmaf_b", FALSE, FALSE };
  g_autoptr (VhModel) m = vh_model_new_builtin ("vmaf_b_v0.6.3", &cfg, &err);
  const gchar *const *out;

  g_assert_no_error (err);
  g_assert_true (vh_model_is_bootstrap (m));
  g_assert_cmpuint (vh_model_n_features (m), ==, 6);
  out = vh_model_output_names (m);
  g_assert_cmpuint (g_strv_length ((gchar **) out), ==, 1 + 20 + 4);
  g_assert_cmpstr (out[0], ==, "vmaf_b");
  g_assert_cmpstr (out[1], ==, "vmaf_b_0001");
  g_assert_cmpstr (out[20], ==, "vmaf_b_0020");
  g_assert_cmpstr (out[21], ==, "vmaf_b_bagging");
  g_assert_cmpstr (out[22], ==, "vmaf_b_stddev");
  g_assert_cmpstr (out[23], ==, "vmaf_b_ci_p95_lo");
  g_assert_cmpstr (out[24], ==, "vmaf_b_ci_p95_hi");
}

static void
test_unknown_builtin (void)
{
  g_autoptr (GError) err = NULL;
  VhModel *m = vh_model_new_builtin ("vmaf_v9", NULL, &err);
  const gchar *const *list = vh_model_list_builtin ();

  g_assert_null (m);
  g_assert_error (err, VH_ERROR, VH_ERROR_UNKNOWN_MODEL);
  g_assert_nonnull (strstr (err->message, "vmaf_v9"));
  for (guint i = 0; list[i]; i++)
    g_assert_nonnull (strstr (err->message, list[i]));
}

/* ------------------------------------------------------------------ */
/* Small hand-made models: the raw SVR output is the constant -rho (one
 * support vector with a zero coefficient), so transform and clip can be
 * checked against values worked out by hand. */

static gchar *
constant_model (gdouble raw, const gchar * extra)
{
  return g_strdup_printf ("{\"model_dict\": {"
      "\"model_type\": \"LIBSVMNUSVR\", \"norm_type\": \"none\","
      "\"feature_names\": [\"VMAF_integer_feature_motion2_score\"],"
      "\"model\": \"svm_type nu_svr\\nkernel_type rbf\\ngamma 0.5\\n"
      "nr_class 2\\ntotal_sv 1\\nrho %.17g\\nSV\\n0 1:0.25 \\n\"%s}}",
      -raw, extra ? extra : "");
}

static gdouble
predict_constant (gdouble raw, const gchar * extra, const VhModelConfig * cfg)
{
  g_autofree gchar *json = constant_model (raw, extra);
  g_autoptr (GError) err = NULL;
  g_autoptr (VhModel) m = vh_model_new_from_data (json, -1, "test", cfg, &err);
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  gdouble v = NAN;

  g_assert_no_error (err);
  vh_feature_collector_append (fc, "integer_motion2", 0, 3.0, &err);
  g_assert_no_error (err);
  g_assert_true (vh_model_predict (m, fc, 0, &err));
  g_assert_no_error (err);
  g_assert_true (vh_feature_collector_get (fc, vh_model_get_name (m), 0, &v));
  return v;
}

static void
test_transform_and_clip (void)
{
  const gchar *clip = ", \"score_clip\": [0.0, 100.0]";
  const gchar *poly = ", \"score_transform\": {\"p0\": 1.0, \"p1\": 2.0, "
      "\"p2\": -0.01, \"out_gte_in\": \"true\"}";
  const gchar *knots = ", \"score_transform\": {\"enabled\": true, "
      "\"knots\": [[0, 0], [50, 60], [100, 100]]}";
  const gchar *lte = ", \"score_transform\": {\"enabled\": true, "
      "\"p1\": 2.0, \"out_lte_in\": \"true\"}";
  VhModelConfig plain = { NULL, FALSE, FALSE };
  VhModelConfig transform = { NULL, TRUE, FALSE };
  VhModelConfig noclip = { NULL, FALSE, TRUE };
  g_autofree gchar *poly_clip = g_strconcat (poly, clip, NULL);

  g_assert_cmpfloat (predict_constant (42.5, NULL, &plain), ==, 42.5);
  g_assert_cmpfloat (predict_constant (142.5, clip, &plain), ==, 100.0);
  g_assert_cmpfloat (predict_constant (-3.0, clip, &plain), ==, 0.0);
  g_assert_cmpfloat (predict_constant (142.5, clip, &noclip), ==, 142.5);

  /* The polynomial applies only when asked for: 1 + 2x - 0.01x^2, and
   * never below the input (out_gte_in). */
  g_assert_cmpfloat (predict_constant (10.0, poly, &plain), ==, 10.0);
  g_assert_cmpfloat_with_epsilon (predict_constant (10.0, poly, &transform),
      20.0, 1e-12);
  g_assert_cmpfloat (predict_constant (150.0, poly, &transform), ==, 150.0);
  g_assert_cmpfloat (predict_constant (95.0, poly_clip, &transform), ==, 100.0);

  /* Piecewise-linear, extended past both ends. */
  g_assert_cmpfloat_with_epsilon (predict_constant (25.0, knots, &plain),
      30.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (predict_constant (75.0, knots, &plain),
      80.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (predict_constant (120.0, knots, &plain),
      116.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (predict_constant (-10.0, knots, &plain),
      -12.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (predict_constant (50.0, knots, &plain),
      60.0, 1e-12);

  /* Never above the input. */
  g_assert_cmpfloat (predict_constant (30.0, lte, &plain), ==, 30.0);
  g_assert_cmpfloat (predict_constant (-30.0, lte, &plain), ==, -60.0);
}

static void
test_missing_feature (void)
{
  g_autoptr (GError) err = NULL;
  g_autoptr (VhModel) m = vh_model_new_builtin ("vmaf_v0.6.1", NULL, &err);
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  gdouble v;

  g_assert_no_error (err);
  for (guint i = 0; i < vh_model_n_features (m); i++) {
    if (i != 2)
      vh_feature_collector_append (fc, vh_model_feature_output_name (m, i),
          0, 0.5, NULL);
  }
  g_assert_false (vh_model_predict (m, fc, 0, &err));
  g_assert_nonnull (err);
  g_assert_nonnull (strstr (err->message, "integer_vif_scale0"));
  g_assert_false (vh_feature_collector_get (fc, "vmaf", 0, &v));
}

/* libvmaf's internal names mean the extractor that outputs them:
 * "VMAF_feature_motion_score" is float_motion's motion, not the extractor
 * named "motion" (integer motion). With norm_type none the features go to
 * the SVM as they are. tests/data/extended scores the same file against
 * libvmaf's log. */
static void
test_internal_names (void)
{
  g_autofree gchar *path = vh_test_data_path ("model/norm-none.json");
  g_autoptr (GError) err = NULL;
  g_autoptr (VhModel) m = vh_model_new_from_file (path, NULL, &err);
  static const gchar *const want[][2] = {
    {"float_adm", "adm2"}, {"float_motion", "motion"},
    {"float_vif", "vif_scale0"}, {"float_vif", "vif_scale1"},
    {"float_vif", "vif_scale2"}, {"float_vif", "vif_scale3"},
  };

  g_assert_no_error (err);
  g_assert_cmpuint (vh_model_n_features (m), ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++) {
    g_assert_cmpstr (vh_model_feature_extractor (m, i), ==, want[i][0]);
    g_assert_cmpstr (vh_model_feature_output_name (m, i), ==, want[i][1]);
  }
}

/* ------------------------------------------------------------------ */
/* Malformed files. */

typedef struct
{
  const gchar *what;
  const gchar *from;            /* replaced in the constant model ... */
  const gchar *to;              /* ... by this */
  const gchar *expect;          /* in the message */
  VhError code;
} Breakage;

static void
test_malformed (void)
{
  static const Breakage cases[] = {
    {"unknown member type", "\"model_type\": \"LIBSVMNUSVR\"",
        "\"model_type\": 3", "model_dict.model_type", VH_ERROR_MODEL_PARSE},
    {"unknown model type", "LIBSVMNUSVR", "SVM", "model_dict.model_type",
          VH_ERROR_MODEL_PARSE},
    {"missing norm_type", "\"norm_type\": \"none\",", "", "'norm_type'",
          VH_ERROR_MODEL_PARSE},
    {"missing svm", "\"model\":", "\"modle\":", "'model'",
          VH_ERROR_MODEL_PARSE},
    {"names not a list", "[\"VMAF_integer_feature_motion2_score\"]",
        "\"VMAF_integer_feature_motion2_score\"", "model_dict.feature_names",
          VH_ERROR_MODEL_PARSE},
    {"name not a string", "[\"VMAF_integer_feature_motion2_score\"]",
          "[\"VMAF_integer_feature_motion2_score\", 7]",
        "model_dict.feature_names[1]", VH_ERROR_MODEL_PARSE},
    {"unknown feature", "motion2", "motion7", "motion7",
          VH_ERROR_UNKNOWN_FEATURE},
    {"bad kernel", "kernel_type rbf", "kernel_type linear",
        "model_dict.model", VH_ERROR_MODEL_PARSE},
    {"no SV line", "\\nSV\\n", "\\n", "model_dict.model", VH_ERROR_MODEL_PARSE},
    {"short SV section", "total_sv 1", "total_sv 2", "support vectors",
          VH_ERROR_MODEL_PARSE},
    {"rescale without slopes", "\"norm_type\": \"none\"",
        "\"norm_type\": \"linear_rescale\"", "'slopes'", VH_ERROR_MODEL_PARSE},
    /* Values that load but give NaN or nonsense: refused with the reason. */
    {"negative gamma", "gamma 0.5", "gamma -0.05", "gamma > 0",
        VH_ERROR_MODEL_PARSE},
    {"zero gamma", "gamma 0.5", "gamma 0", "gamma > 0", VH_ERROR_MODEL_PARSE},
    {"infinite gamma", "gamma 0.5", "gamma 1e999", "finite",
        VH_ERROR_MODEL_PARSE},
    {"NaN rho", "rho -1", "rho nan", "finite", VH_ERROR_MODEL_PARSE},
    {"NaN coefficient", "\\n0 1:0.25", "\\nnan 1:0.25", "finite coefficient",
        VH_ERROR_MODEL_PARSE},
    {"infinite attribute", "1:0.25", "1:inf", "finite value",
        VH_ERROR_MODEL_PARSE},
    {"attribute past the features", "1:0.25", "1:0.25 2:0.5",
        "attribute 2, but feature_names lists 1", VH_ERROR_MODEL_PARSE},
  };
  static const Breakage extras[] = {
    {"clip not numbers", NULL, ", \"score_clip\": [0, \"a\"]",
        "model_dict.score_clip", VH_ERROR_MODEL_PARSE},
    {"knots decreasing", NULL,
          ", \"score_transform\": {\"knots\": [[0, 0], [50, 60], [40, 70]]}",
        "model_dict.score_transform.knots[2]", VH_ERROR_MODEL_PARSE},
    {"p1 not a number", NULL, ", \"score_transform\": {\"p1\": \"2\"}",
        "model_dict.score_transform.p1", VH_ERROR_MODEL_PARSE},
    {"opts not objects", NULL, ", \"feature_opts_dicts\": [1]",
        "model_dict.feature_opts_dicts[0]", VH_ERROR_MODEL_PARSE},
    {"unknown option", NULL,
          ", \"feature_opts_dicts\": [{\"motion_no_such_option\": 1}]",
        "motion_no_such_option", VH_ERROR_MODEL_PARSE},
    {"slopes too short", NULL,
        ", \"slopes\": [1.0], \"intercepts\": [0.0, 0.0]",
          "model_dict.slopes", VH_ERROR_MODEL_PARSE},
    {"score slope 0", NULL,
        ", \"slopes\": [0.0, 1.0], \"intercepts\": [0.0, 0.0]",
          "model_dict.slopes[0]: is 0", VH_ERROR_MODEL_PARSE},
    {"infinite intercept", NULL,
        ", \"slopes\": [1.0, 1.0], \"intercepts\": [0.0, -1e999]",
          "model_dict.intercepts[1]", VH_ERROR_MODEL_PARSE},
    {"infinite p0", NULL, ", \"score_transform\": {\"p0\": 1e999}",
        "model_dict.score_transform.p0", VH_ERROR_MODEL_PARSE},
    {"clip min above max", NULL, ", \"score_clip\": [100, 0]",
        "model_dict.score_clip", VH_ERROR_MODEL_PARSE},
    {"chroma correction 0", NULL, ", \"chroma_correction_parameter\": 0",
        "model_dict.chroma_correction_parameter", VH_ERROR_MODEL_PARSE},
  };
  g_autofree gchar *good = constant_model (1.0, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases) + G_N_ELEMENTS (extras); i++) {
    const Breakage *b = i < G_N_ELEMENTS (cases) ? &cases[i] :
        &extras[i - G_N_ELEMENTS (cases)];
    g_autofree gchar *json = NULL;
    g_autoptr (GError) err = NULL;
    VhModel *m;

    if (b->from) {
      g_auto (GStrv) parts = g_strsplit (good, b->from, 2);
      g_assert_nonnull (parts[1]);
      json = g_strconcat (parts[0], b->to, parts[1], NULL);
    } else {
      json = constant_model (1.0, b->to);
      /* A slopes list needs linear_rescale to be checked for length. */
      if (strstr (b->to, "slopes")) {
        g_auto (GStrv) parts = g_strsplit (json, "\"none\"", 2);
        g_free (json);
        json = g_strconcat (parts[0], "\"linear_rescale\"", parts[1], NULL);
      }
    }
    m = vh_model_new_from_data (json, -1, "broken.json", NULL, &err);
    g_test_message ("%s: %s", b->what, err ? err->message : "(loaded)");
    g_assert_null (m);
    g_assert_nonnull (err);
    g_assert_error (err, VH_ERROR, (gint) b->code);
    g_assert_nonnull (strstr (err->message, "broken.json"));
    g_assert_nonnull (strstr (err->message, b->expect));
  }
}

static void
test_malformed_file (void)
{
  g_autofree gchar *good = constant_model (1.0, NULL);
  g_autoptr (GError) err = NULL;
  g_autofree gchar *dir = g_dir_make_tmp ("vh-model-XXXXXX", &err);
  g_autofree gchar *path = NULL;
  g_autofree gchar *missing = NULL;
  VhModel *m;

  g_assert_no_error (err);
  path = g_build_filename (dir, "cut.json", NULL);
  missing = g_build_filename (dir, "missing.json", NULL);

  /* Cut in the middle: json-glib's line and column come through. */
  g_assert_true (g_file_set_contents (path, good, strlen (good) / 2, NULL));
  m = vh_model_new_from_file (path, NULL, &err);
  g_assert_null (m);
  g_assert_error (err, VH_ERROR, VH_ERROR_MODEL_PARSE);
  g_test_message ("%s", err->message);
  g_assert_true (g_str_has_prefix (err->message, path));
  g_assert_nonnull (strstr (err->message, ":1:"));
  g_clear_error (&err);

  /* The whole file loads. */
  g_assert_true (g_file_set_contents (path, good, -1, NULL));
  m = vh_model_new_from_file (path, NULL, &err);
  g_assert_no_error (err);
  vh_model_free (m);

  m = vh_model_new_from_file (missing, NULL, &err);
  g_assert_null (m);
  g_assert_error (err, VH_ERROR, VH_ERROR_IO);
  g_assert_nonnull (strstr (err->message, missing));
  g_clear_error (&err);

  /* A bootstrap file needs at least members "0" and "1". */
  {
    g_autofree gchar *one = g_strdup_printf ("{\"0\": %s}", good);
    m = vh_model_new_from_data (one, -1, "boot.json", NULL, &err);
    g_assert_null (m);
    g_assert_error (err, VH_ERROR, VH_ERROR_MODEL_PARSE);
    g_clear_error (&err);
  }

  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/builtin", test_builtin);
  g_test_add_func ("/model/builtin-features", test_builtin_features);
  g_test_add_func ("/model/builtin-bootstrap", test_builtin_bootstrap);
  g_test_add_func ("/model/unknown-builtin", test_unknown_builtin);
  g_test_add_func ("/model/transform-and-clip", test_transform_and_clip);
  g_test_add_func ("/model/missing-feature", test_missing_feature);
  g_test_add_func ("/model/internal-names", test_internal_names);
  g_test_add_func ("/model/malformed", test_malformed);
  g_test_add_func ("/model/malformed-file", test_malformed_file);
  g_test_add_func ("/model/exact", test_exact);
  g_test_add_func ("/model/golden", test_golden);
  g_test_add_func ("/model/golden-no-clip", test_golden_no_clip);
  return g_test_run ();
}
