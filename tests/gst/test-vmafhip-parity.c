/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Golden parity through the element: every golden pair, read by
 * filesrc ! rawvideoparse, scored by vmafhipcompare with every model and
 * feature libvmaf's logs hold; every per-frame message and the JSON
 * results file must match libvmaf within 1e-4. */

#include <string.h>

#include "vh-gst-check.h"

#define TOL 1e-4

static const gchar *score_files[] = {
  "vmaf_v0.6.1+psnr.json", "feat_adm.json", "feat_vif.json",
  "feat_motion.json", "feat_psnr.json", "feat_float_ssim.json",
  "feat_float_ms_ssim.json", "feat_cambi.json", "models_extra.json",
};

/* models_extra.json also holds libvmaf's float twin model and its float
 * features; that model is not shipped here. */
static gboolean
not_shipped (const gchar * metric)
{
  static const gchar *names[] = {
    "vmaf_float", "motion", "motion2", "motion3", "adm2", "aim", "adm3",
    "adm_scale0", "adm_scale1", "adm_scale2", "adm_scale3", "vif_scale0",
    "vif_scale1", "vif_scale2", "vif_scale3", NULL
  };

  return g_strv_contains (names, metric);
}

static void
check_pair (const VhGoldenPair * pair)
{
  GString *features = g_string_new ("psnr,float_ssim");
  gchar *results = vh_gst_tmp_path ("results.json");
  gchar *props, *desc;
  GList *msgs;
  GPtrArray *frames;
  GError *err;
  guint compared = 0;

  if (vh_golden_scores_has_frames (pair, "feat_float_ms_ssim.json"))
    g_string_append (features, ",float_ms_ssim");
  if (vh_golden_scores_has_frames (pair, "feat_cambi.json"))
    g_string_append (features, ",cambi");
  props = g_strdup_printf ("model=\"vmaf_v0.6.1,"
      "version=vmaf_v0.6.1neg:name=vmaf_neg,"
      "version=vmaf_4k_v0.6.1:name=vmaf_4k,"
      "version=vmaf_v0.6.1:name=vmaf_transform:enable_transform,"
      "version=vmaf_b_v0.6.3:name=vmaf_b\" features=\"%s\" threads=2 "
      "results-filename=\"%s\"", features->str, results);
  desc = vh_gst_pair_pipeline (pair, props, NULL);
  msgs = vh_gst_run_launch (desc, 600 * GST_SECOND);
  err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);
  vh_assert_msg (err == NULL, "%s: %s", pair->name, err ? err->message : "");

  frames = vh_gst_structures (msgs, "vmaf");
  for (guint i = 0; i < G_N_ELEMENTS (score_files); i++) {
    if (!vh_golden_scores_has_frames (pair, score_files[i]))
      continue;
    compared += vh_gst_compare_frames (pair, score_files[i], frames, TOL,
        not_shipped);
    compared += vh_gst_compare_results_json (pair, score_files[i], results,
        TOL, not_shipped);
  }
  GST_INFO ("%s: %u values within %g", pair->name, compared, TOL);
  g_print ("%-40s %3u frames, %6u values within %g\n", pair->name,
      frames->len, compared, TOL);
  vh_assert_msg (compared >= pair->n_frames * 40, "%s: only %u values",
      pair->name, compared);

  g_ptr_array_unref (frames);
  g_list_free_full (msgs, (GDestroyNotify) gst_message_unref);
  g_free (desc);
  g_free (props);
  g_free (results);
  g_string_free (features, TRUE);
}

static void
test_golden_parity (void)
{
  GPtrArray *pairs = vh_golden_pairs ();

  vh_assert_msg (pairs->len > 0, "no golden pairs");
  for (guint i = 0; i < pairs->len; i++)
    check_pair (g_ptr_array_index (pairs, i));
  g_ptr_array_unref (pairs);
}


int
main (int argc, char **argv)
{
  vh_gst_test_init (&argc, &argv);
  g_test_add_func ("/vmafhipcompare/golden-parity", test_golden_parity);
  return g_test_run ();
}
