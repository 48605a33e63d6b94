/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* vmafhip-score end to end: parity of its JSON log with libvmaf on a golden
 * pair, the GPU path on the fake driver, the console and presets; the
 * errors are in test-cli-errors.c, pipes, output streams and signals in
 * test-cli-io.c, what they share in cli-test.c. */

#include "cli-test.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <stdlib.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void
test_parity_json (void)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  VhGoldenPair *pair = vh_golden_pair_find (pairs, "d_321x241_8bit_x264");
  g_autofree gchar *out = g_build_filename (tmpdir, "d.json", NULL);
  g_autofree gchar *w = NULL, *h = NULL;
  VhGoldenScores *gs;
  JsonParser *parser;
  JsonArray *frames;
  Result r;
  gdouble maxdiff = 0;

  g_assert_nonnull (pair);
  w = g_strdup_printf ("%u", pair->width);
  h = g_strdup_printf ("%u", pair->height);
  r = run_score ("-r", pair->ref_path, "-d", pair->dist_path, "-w", w, "-h",
      h, "-p", "420", "-b", "8", "--feature", "psnr", "--threads", "2",
      "--json", "-o", out, "-q", "--backend", backend, NULL);
  if (!exited_with (&r, 0) && !strcmp (backend, "hip") &&
      strstr (r.err, "no usable GPU")) {
    g_print ("SKIP: %s", r.err);
    exit (77);
  }
  g_assert_true (exited_with (&r, 0));
  /* As libvmaf's tool: nothing on stdout, and with stderr not a terminal
   * no progress and no score line either. */
  g_assert_cmpstr (r.out, ==, "");
  g_assert_null (strstr (r.err, "vmaf"));
  g_assert_null (strstr (r.err, "FPS"));
  result_clear (&r);

  gs = vh_golden_scores_load (pair, "vmaf_v0.6.1+psnr.json", NULL);
  parser = json_parser_new ();
  g_assert_true (json_parser_load_from_file (parser, out, NULL));
  frames = json_object_get_array_member (json_node_get_object
      (json_parser_get_root (parser)), "frames");
  g_assert_cmpuint (json_array_get_length (frames), ==, pair->n_frames);
  for (guint f = 0; f < pair->n_frames; f++) {
    JsonObject *m = json_object_get_object_member
        (json_array_get_object_element (frames, f), "metrics");
    const gchar *const *names = vh_golden_scores_metrics (gs);
    for (guint i = 0; names[i]; i++) {
      gdouble want;
      g_assert_true (vh_golden_scores_get (gs, f, names[i], &want));
      g_assert_true (json_object_has_member (m, names[i]));
      maxdiff = MAX (maxdiff, fabs (json_object_get_double_member (m,
                  names[i]) - want));
    }
  }
  g_test_message ("max difference to libvmaf: %g", maxdiff);
  g_assert_cmpfloat (maxdiff, <=, 1e-4);
  g_object_unref (parser);
  vh_golden_scores_free (gs);
}

/* With no feature that reads chroma, only the luma is read (the start-up
 * log says so); the scores are those of a run that reads every plane
 * because psnr is asked for too, value for value, and libvmaf's. */
static void
test_luma_only_parity (void)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  VhGoldenPair *pair = vh_golden_pair_find (pairs, "d_321x241_8bit_x264");
  g_autofree gchar *luma_out = g_build_filename (tmpdir, "l.json", NULL);
  g_autofree gchar *whole_out = g_build_filename (tmpdir, "w.json", NULL);
  g_autoptr (JsonParser) luma_parser = json_parser_new ();
  g_autoptr (JsonParser) whole_parser = json_parser_new ();
  const gchar *outs[] = { luma_out, whole_out };
  const gchar *logged[] = { "reading the luma only", "reading every plane" };
  VhGoldenScores *gs;
  JsonArray *luma, *whole;
  guint n_compared = 0;

  g_assert_nonnull (pair);
  g_setenv ("G_MESSAGES_DEBUG", "vmafhip-startup", TRUE);
  for (guint i = 0; i < 2; i++) {
    Result r = run_score ("-r", pair->ref_path, "-d", pair->dist_path, "-w",
        "321", "-h", "241", "-p", "420", "-b", "8", "--feature",
        i ? "psnr" : "float_ssim", "--threads", "2", "--json", "-o", outs[i],
        "-q", "--backend", backend, NULL);
    if (!exited_with (&r, 0))
      g_error ("%s: %s", outs[i], r.err);
    /* GLib writes debug messages to stdout. */
    if (!strstr (r.out, logged[i]))
      g_error ("no \"%s\" in: %s", logged[i], r.out);
    result_clear (&r);
  }
  g_unsetenv ("G_MESSAGES_DEBUG");

  luma = load_frames (luma_parser, luma_out);
  whole = load_frames (whole_parser, whole_out);
  gs = vh_golden_scores_load (pair, "vmaf_v0.6.1+psnr.json", NULL);
  g_assert_cmpuint (json_array_get_length (luma), ==, pair->n_frames);
  g_assert_cmpuint (json_array_get_length (whole), ==, pair->n_frames);
  for (guint f = 0; f < pair->n_frames; f++) {
    JsonObject *lm = json_object_get_object_member
        (json_array_get_object_element (luma, f), "metrics");
    JsonObject *wm = json_object_get_object_member
        (json_array_get_object_element (whole, f), "metrics");
    const gchar *const *names = vh_golden_scores_metrics (gs);
    for (guint i = 0; names[i]; i++) {
      gdouble want;
      g_assert_true (vh_golden_scores_get (gs, f, names[i], &want));
      g_assert_true (json_object_has_member (wm, names[i]));
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (wm,
              names[i]), want, 1e-4);
      /* psnr's chroma scores: read from the chroma, in the whole run. */
      if (!json_object_has_member (lm, names[i])) {
        g_assert_true (g_str_has_prefix (names[i], "psnr_"));
        continue;
      }
      g_assert_cmpfloat (json_object_get_double_member (lm, names[i]), ==,
          json_object_get_double_member (wm, names[i]));
      n_compared++;
    }
  }
  g_assert_cmpuint (n_compared, >=, pair->n_frames * 10);
  vh_golden_scores_free (gs);
}

/* VH_TEST_MODE=fake: the GPU path (--backend hip) on the fake CUDA driver
 * (or the fake AMD HIP runtime with VH_TEST_VENDOR=amd),
 * whose kernels run nothing, so the numbers are not checked: what is
 * checked is that vmafhip-score frees every device and page-locked
 * allocation before it exits (the driver's exit check fails it with status
 * 86 otherwise, as compute-sanitizer's leak check does on a GPU). */
static void
test_gpu_memory_freed (void)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  VhGoldenPair *pair = vh_golden_pair_find (pairs, "d_321x241_8bit_x264");
  g_autofree gchar *out = g_build_filename (tmpdir, "d.json", NULL);
  const gchar *threads[] = { "0", "2" };
  gchar *json = NULL;
  const gchar *twins[] = { "float_motion: hip", "float_vif: hip",
    "float_adm: hip", "psnr_hvs: hip", "cambi: hip"
  };

  g_assert_nonnull (pair);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++) {
    Result r = run_score ("-r", pair->ref_path, "-d", pair->dist_path,
        "-w", "321", "-h", "241", "-p", "420", "-b", "8", "--feature", "psnr",
        "--feature", "float_motion=motion_add_uv=1:motion_add_scale1=1",
        "--feature", "float_vif=vif_prescale=1.5:vif_prescale_method=lanczos4",
        "--feature", "float_adm", "--feature", "psnr_hvs",
        "--feature", "cambi=full_ref=true:src_width=400:src_height=300",
        "--threads", threads[i], "--frame_cnt", "4", "--json", "-o", out, "-q",
        "--backend", "hip", NULL);
    if (!exited_with (&r, 0))
      g_error ("--backend hip --threads %s on the fake driver: %s",
          threads[i], r.err);
    g_assert_null (strstr (r.err, "fake CUDA driver"));
    g_assert_null (strstr (r.err, "fake AMD HIP runtime"));
    g_assert_true (g_file_get_contents (out, &json, NULL, NULL));
    /* Every feature asked for ran on its twin. */
    for (guint f = 0; f < G_N_ELEMENTS (twins); f++)
      g_assert_nonnull (strstr (json, twins[f]));
    g_clear_pointer (&json, g_free);
    result_clear (&r);
  }
  /* The model alone: the luma only, read into page-locked pictures. */
  {
    Result r = run_score ("-r", pair->ref_path, "-d", pair->dist_path,
        "-w", "321", "-h", "241", "-p", "420", "-b", "8", "--threads", "2",
        "--json", "-o", out, "-q", "--backend", "hip", NULL);
    if (!exited_with (&r, 0))
      g_error ("the model alone on the fake driver: %s", r.err);
    result_clear (&r);
  }
}

/* The CLI gives the driver one hardware work queue unless the user chose
 * a number (the fake driver's cuInit fails unless it sees the value the
 * test wants; the last case checks that it does fail). */
static void
test_cuda_connections (void)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  VhGoldenPair *pair = vh_golden_pair_find (pairs, "d_321x241_8bit_x264");
  g_autofree gchar *out = g_build_filename (tmpdir, "c.json", NULL);
  const struct
  {
    const gchar *user;
    const gchar *want;
    gboolean ok;
  } cases[] = {
    {NULL, "CUDA_DEVICE_MAX_CONNECTIONS=1", TRUE},
    {"8", "CUDA_DEVICE_MAX_CONNECTIONS=8", TRUE},
    {NULL, "CUDA_DEVICE_MAX_CONNECTIONS=2", FALSE},
  };

  g_assert_nonnull (pair);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    Result r;

    if (cases[i].user)
      g_setenv ("CUDA_DEVICE_MAX_CONNECTIONS", cases[i].user, TRUE);
    else
      g_unsetenv ("CUDA_DEVICE_MAX_CONNECTIONS");
    g_setenv ("VH_FAKE_CUDA_WANT_ENV", cases[i].want, TRUE);
    r = run_score ("-r", pair->ref_path, "-d", pair->dist_path, "-w", "321",
        "-h", "241", "-p", "420", "-b", "8", "--frame_cnt", "2", "--json",
        "-o", out, "-q", "--backend", "hip", NULL);
    if (exited_with (&r, 0) != cases[i].ok)
      g_error ("CUDA_DEVICE_MAX_CONNECTIONS %s, driver wants %s: exit %d: %s",
          cases[i].user ? cases[i].user : "unset", cases[i].want, r.status,
          r.err);
    if (!cases[i].ok)
      g_assert_nonnull (strstr (r.err, "cuInit saw "
              "CUDA_DEVICE_MAX_CONNECTIONS=1"));
    result_clear (&r);
  }
  g_unsetenv ("VH_FAKE_CUDA_WANT_ENV");
  g_unsetenv ("CUDA_DEVICE_MAX_CONNECTIONS");
}

static void
test_other_formats (void)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  VhGoldenPair *pair = vh_golden_pair_find (pairs, "d_321x241_8bit_x264");
  const gchar *formats[][2] = { {"--xml", "<VMAF"}, {"--csv", "Frame,"} };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++) {
    g_autofree gchar *out = g_build_filename (tmpdir, "d.out", NULL);
    g_autofree gchar *contents = NULL;
    Result r = run_score ("-r", pair->ref_path, "-d", pair->dist_path,
        "-w", "321", "-h", "241", "-p", "420", "-b", "8", "--frame_cnt", "2",
        formats[i][0], "-o", out, "-q", NULL);
    g_assert_true (exited_with (&r, 0));
    g_assert_true (g_file_get_contents (out, &contents, NULL, NULL));
    g_assert_nonnull (strstr (contents, formats[i][1]));
    result_clear (&r);
  }
}

/* Console as libvmaf's tool: usage on no arguments, errors that name the
 * missing option, bad presets named. */
static void
test_console (void)
{
  g_autofree gchar *a = write_y4m ("c.y4m", 64, 64, 8, 1);
  const gchar *usage[] = { "Usage:", "--reference", "--aom_ctc", NULL };
  const gchar *no_b[] = { "-b/--bitdepth", NULL };
  const gchar *no_wb[] = { "-w/--width", "-b/--bitdepth", NULL };
  const gchar *no_d[] = { "-d/--distorted", NULL };
  const gchar *bad_ctc[] = { "aom_ctc", "v9.0", NULL };
  const gchar *bad_mask[] = { "--cpumask", "abc", NULL };
  Result r = run_score (NULL);

  expect_error (r, usage);
  expect_error (run_score ("-r", "x.yuv", "-d", "y.yuv", "-w", "8", "-h", "8",
          "-p", "420", NULL), no_b);
  expect_error (run_score ("-r", "x.yuv", "-d", "y.yuv", "-h", "8", "-p",
          "420", NULL), no_wb);
  expect_error (run_score ("-r", a, NULL), no_d);
  /* Without geometry options, raw input and a .y4m name on raw bytes are
   * each said for what they are. */
  {
    g_autofree gchar *raw = g_build_filename (tmpdir, "c.yuv", NULL);
    g_autofree gchar *named = g_build_filename (tmpdir, "raw-named.y4m",
        NULL);
    const gchar *no_header[] = { "c.yuv has no Y4M header", "-w, -h, -p "
          "and -b", NULL
    };
    const gchar *misnamed[] = { "raw-named.y4m is named .y4m but does not "
          "start with the Y4M signature", NULL
    };

    g_assert_true (g_file_set_contents (raw, "0123456789abcdef", 16, NULL));
    g_assert_true (g_file_set_contents (named, "0123456789abcdef", 16, NULL));
    expect_error (run_score ("-r", raw, "-d", raw, NULL), no_header);
    expect_error (run_score ("-r", named, "-d", a, NULL), misnamed);
  }
  r = run_score ("-r", a, "-d", a, "--aom_ctc", "v9.0", NULL);
  g_assert_false (exited_with (&r, 0));
  g_assert_nonnull (strstr (r.err, bad_ctc[0]));
  g_assert_nonnull (strstr (r.err, bad_ctc[1]));
  result_clear (&r);
  expect_error (run_score ("-r", a, "-d", a, "--cpumask", "abc", NULL),
      bad_mask);
}

/* --nflx_ctc expands to libvmaf's preset (two named models, apsnr, ssim in
 * dB, cambi); --frame_skip_ref drops reference frames; --cpumask 63 and
 * --gpumask 1 keep the numbers and put every feature on the CPU. */
static void
test_presets_and_skips (void)
{
  g_autofree gchar *a = write_y4m ("p.y4m", 224, 64, 8, 3);
  g_autofree gchar *out = g_build_filename (tmpdir, "p.json", NULL);
  g_autofree gchar *text = NULL;
  Result r;

  r = run_score ("-r", a, "-d", a, "--nflx_ctc", "v1.0", "--cpumask", "63",
      "--gpumask", "1", "--json", "-o", out, NULL);
  g_assert_true (exited_with (&r, 0));
  result_clear (&r);
  g_assert_true (g_file_get_contents (out, &text, NULL, NULL));
  for (guint i = 0; i < 5; i++) {
    const gchar *needles[] = { "\"vmaf\":", "\"vmaf_neg\":",
      "\"apsnr_y\":", "\"float_ssim\":", "\"cambi\":"
    };
    if (!strstr (text, needles[i]))
      g_error ("%s lacks %s", out, needles[i]);
  }
  g_assert_nonnull (strstr (text, "\"dispatch\": \"adm: cpu"));
  g_clear_pointer (&text, g_free);

  r = run_score ("-r", a, "-d", a, "--frame_skip_ref", "1", "--feature",
      "psnr", "--no_prediction", "--csv", "-o", out, NULL);
  g_assert_true (exited_with (&r, 0));
  /* One reference frame fewer: two pairs, and a warning. */
  g_assert_nonnull (strstr (r.err, "ended"));
  result_clear (&r);
  g_assert_true (g_file_get_contents (out, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\n1,"));
  g_assert_null (strstr (text, "\n2,"));
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  if (!g_getenv ("VH_SCORE"))
    g_error ("VH_SCORE must name the vmafhip-score binary");
  tmpdir = g_dir_make_tmp ("vmafhip-cli-XXXXXX", NULL);
  if (g_strcmp0 (g_getenv ("VH_TEST_MODE"), "fake") == 0) {
    g_test_add_func ("/cli/gpu-memory-freed", test_gpu_memory_freed);
    /* the CUDA driver's variable: not for AMD's runtime */
    if (g_strcmp0 (g_getenv ("VH_TEST_VENDOR"), "amd") != 0)
      g_test_add_func ("/cli/cuda-connections", test_cuda_connections);
    goto run;
  }
  g_test_add_func ("/cli/parity-json", test_parity_json);
  g_test_add_func ("/cli/luma-only-parity", test_luma_only_parity);
  if (g_getenv ("VH_SCORE_BACKEND")) {
    backend = g_getenv ("VH_SCORE_BACKEND");
    goto run;
  }
  g_test_add_func ("/cli/console", test_console);
  g_test_add_func ("/cli/presets-and-skips", test_presets_and_skips);
  g_test_add_func ("/cli/other-formats", test_other_formats);
  g_test_add_func ("/cli/size-mismatch", test_size_mismatch);
  g_test_add_func ("/cli/truncated", test_truncated);
  g_test_add_func ("/cli/too-small", test_too_small);
  g_test_add_func ("/cli/unknown-model", test_unknown_model);
  g_test_add_func ("/cli/malformed-model", test_malformed_model);
  g_test_add_func ("/cli/model-override", test_model_override);
  g_test_add_func ("/cli/unknown-feature", test_unknown_feature);
  g_test_add_func ("/cli/shorter-reference", test_shorter_reference);
  g_test_add_func ("/cli/bad-input", test_bad_input);
  g_test_add_func ("/cli/devices", test_devices);
  g_test_add_func ("/cli/pipes", test_pipes);
  g_test_add_func ("/cli/stdin", test_stdin);
  g_test_add_func ("/cli/output-streams", test_output_streams);
  g_test_add_func ("/cli/sigterm-keeps-results", test_sigterm_keeps_results);
run:
  ret = g_test_run ();
  vh_test_remove_dir (tmpdir);
  g_free (tmpdir);
  return ret;
}
