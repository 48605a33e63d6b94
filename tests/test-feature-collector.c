/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "feature-collector.h"
#include "errors.h"

static void
test_append_get (void)
{
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  GError *error = NULL;
  gdouble v;

  g_assert_true (vh_feature_collector_append (fc, "b", 3, 1.5, &error));
  g_assert_true (vh_feature_collector_append (fc, "a", 0, 2.5, &error));
  g_assert_cmpuint (vh_feature_collector_n_features (fc), ==, 2);
  g_assert_cmpstr (vh_feature_collector_feature_name (fc, 0), ==, "b");
  g_assert_cmpuint (vh_feature_collector_n_frames (fc), ==, 4);
  g_assert_true (vh_feature_collector_get (fc, "b", 3, &v));
  g_assert_cmpfloat (v, ==, 1.5);
  g_assert_false (vh_feature_collector_get (fc, "b", 2, &v));
  g_assert_false (vh_feature_collector_get (fc, "c", 0, &v));
  g_assert_false (vh_feature_collector_append (fc, "b", 3, 1.0, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_FAILED);
  g_clear_error (&error);
}

static void
test_release (void)
{
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  GError *error = NULL;
  gdouble v;

  for (guint i = 0; i < 2000; i++) {
    g_assert_true (vh_feature_collector_append (fc, "x", i, i, &error));
    vh_feature_collector_release (fc, i + 1);
  }
  /* Old frames are gone, recent ones are intact, whatever the batching. */
  g_assert_false (vh_feature_collector_get (fc, "x", 0, &v));
  g_assert_false (vh_feature_collector_get (fc, "x", 1500, &v));
  g_assert_true (vh_feature_collector_get (fc, "x", 1999, &v));
  g_assert_cmpfloat (v, ==, 1999);
  g_assert_false (vh_feature_collector_append (fc, "x", 10, 1.0, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_FAILED);
  g_clear_error (&error);
  g_assert_true (vh_feature_collector_append (fc, "x", 2000, 7.0, &error));
  g_assert_true (vh_feature_collector_get (fc, "x", 2000, &v));
  g_assert_cmpfloat (v, ==, 7.0);
  g_assert_cmpuint (vh_feature_collector_n_frames (fc), ==, 2001);
}

static void
test_declared_order (void)
{
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();

  vh_feature_collector_declare (fc, "first");
  vh_feature_collector_declare (fc, "never");
  vh_feature_collector_declare (fc, "second");
  /* Appended in the other order, e.g. by two worker threads. */
  g_assert_true (vh_feature_collector_append (fc, "second", 0, 2, NULL));
  g_assert_true (vh_feature_collector_append (fc, "undeclared", 0, 3, NULL));
  g_assert_true (vh_feature_collector_append (fc, "first", 0, 1, NULL));
  /* Declared order; a declared feature that never got a value is left out. */
  g_assert_cmpuint (vh_feature_collector_n_features (fc), ==, 3);
  g_assert_cmpstr (vh_feature_collector_feature_name (fc, 0), ==, "first");
  g_assert_cmpstr (vh_feature_collector_feature_name (fc, 1), ==, "second");
  g_assert_cmpstr (vh_feature_collector_feature_name (fc, 2), ==,
      "undeclared");
}

/* libvmaf's log order: by the smallest key of a feature's writes (frame,
 * extractor, write), whatever order workers write in; unkeyed ones (model
 * scores) after them in declared order. */
static void
test_log_order (void)
{
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  VhLogKey k;

  vh_feature_collector_declare (fc, "vmaf");
  /* Frame 1 of extractor 0 arrives before frame 0 of both extractors. */
  vh_log_key_init (&k, "adm", "integer_adm2", 1, 0, 0, FALSE, FALSE);
  g_assert_true (vh_feature_collector_append_keyed (fc, "integer_adm2", 1,
          1, &k, NULL));
  vh_log_key_init (&k, "vif", "integer_vif_scale0", 0, 1, 0, FALSE, FALSE);
  g_assert_true (vh_feature_collector_append_keyed (fc, "integer_vif_scale0",
          0, 1, &k, NULL));
  g_assert_true (vh_feature_collector_append (fc, "vmaf", 0, 50, NULL));
  /* The integer motion's motion2 is listed after every frame's values. */
  vh_log_key_init (&k, "motion", "integer_motion2", 0, 0, 1, FALSE, FALSE);
  g_assert_true (vh_feature_collector_append_keyed (fc, "integer_motion2", 0,
          1, &k, NULL));
  g_assert_cmpstr (vh_feature_collector_feature_name (fc, 0), ==,
      "integer_vif_scale0");
  vh_log_key_init (&k, "adm", "integer_adm2", 0, 0, 0, FALSE, FALSE);
  g_assert_true (vh_feature_collector_append_keyed (fc, "integer_adm2", 0,
          1, &k, NULL));
  g_assert_cmpuint (vh_feature_collector_n_features (fc), ==, 4);
  g_assert_cmpstr (vh_feature_collector_feature_name (fc, 0), ==,
      "integer_adm2");
  g_assert_cmpstr (vh_feature_collector_feature_name (fc, 1), ==,
      "integer_vif_scale0");
  g_assert_cmpstr (vh_feature_collector_feature_name (fc, 2), ==,
      "integer_motion2");
  g_assert_cmpstr (vh_feature_collector_feature_name (fc, 3), ==, "vmaf");

  /* With libvmaf's thread pool, psnr (run on the calling thread) leads. */
  vh_feature_collector_clear (fc);
  vh_log_key_init (&k, "adm", "integer_adm2", 0, 0, 0, TRUE, FALSE);
  g_assert_true (vh_feature_collector_append_keyed (fc, "integer_adm2", 0,
          1, &k, NULL));
  vh_log_key_init (&k, "psnr", "psnr_y", 0, 5, 0, TRUE, FALSE);
  g_assert_true (vh_feature_collector_append_keyed (fc, "psnr_y", 0, 1, &k,
          NULL));
  g_assert_cmpstr (vh_feature_collector_feature_name (fc, 0), ==, "psnr_y");

  /* A value first written by a flush (float_motion's motion3 of a
   * one-frame stream) comes after every frame's, even the pool's
   * workers': libvmaf flushes once its pool has drained. Written while
   * extracting frame 1 it would lead. */
  vh_log_key_init (&k, "float_motion", "motion3", 0, 5, 2, TRUE, TRUE);
  g_assert_true (vh_feature_collector_append_keyed (fc, "motion3", 0, 1, &k,
          NULL));
  g_assert_cmpstr (vh_feature_collector_feature_name (fc, 2), ==, "motion3");
  vh_feature_collector_clear (fc);
  vh_log_key_init (&k, "adm", "integer_adm2", 0, 0, 0, TRUE, FALSE);
  g_assert_true (vh_feature_collector_append_keyed (fc, "integer_adm2", 0,
          1, &k, NULL));
  vh_log_key_init (&k, "float_motion", "motion3", 0, 5, 2, TRUE, FALSE);
  g_assert_true (vh_feature_collector_append_keyed (fc, "motion3", 0, 1, &k,
          NULL));
  g_assert_cmpstr (vh_feature_collector_feature_name (fc, 0), ==, "motion3");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/feature-collector/append-get", test_append_get);
  g_test_add_func ("/feature-collector/release", test_release);
  g_test_add_func ("/feature-collector/declared-order", test_declared_order);
  g_test_add_func ("/feature-collector/log-order", test_log_order);
  return g_test_run ();
}
