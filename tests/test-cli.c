/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* vmafhip-score end to end: parity of its JSON log with libvmaf on a golden
 * pair, and a clear error with a non-zero exit for each kind of bad input. */

#include "golden.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <stdlib.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static gchar *tmpdir;

typedef struct
{
  gint status;
  gchar *out;
  gchar *err;
} Result;

static void
result_clear (Result * r)
{
  g_free (r->out);
  g_free (r->err);
}

static Result
run_score (const gchar * first, ...)
{
  GPtrArray *argv = g_ptr_array_new ();
  Result r = { 0 };
  GError *error = NULL;
  va_list ap;

  g_ptr_array_add (argv, (gpointer) g_getenv ("VH_SCORE"));
  va_start (ap, first);
  for (const gchar * a = first; a; a = va_arg (ap, const gchar *))
    g_ptr_array_add (argv, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (gchar **) argv->pdata, NULL, 0, NULL,
          NULL, &r.out, &r.err, &r.status, &error));
  g_assert_no_error (error);
  g_ptr_array_free (argv, TRUE);
  return r;
}

static gboolean
exited_with (const Result * r, gint code)
{
  return WIFEXITED (r->status) && WEXITSTATUS (r->status) == code;
}

/* A Y4M file of @n frames of a gradient, @frac of a last frame cut off. */
static gchar *
write_y4m (const gchar * name, guint w, guint h, guint bpc, guint n)
{
  gchar *path = g_build_filename (tmpdir, name, NULL);
  GString *s = g_string_new (NULL);
  guint bps = bpc > 8 ? 2 : 1;
  gsize frame = (gsize) (w * h + 2 * ((w + 1) / 2) * ((h + 1) / 2)) * bps;

  g_string_append_printf (s, "YUV4MPEG2 W%u H%u F25:1 Ip A1:1 C420%s\n", w,
      h, bpc == 10 ? "p10" : "jpeg");
  for (guint f = 0; f < n; f++) {
    g_string_append (s, "FRAME\n");
    for (gsize i = 0; i < frame; i++)
      g_string_append_c (s, (gchar) ((i * 7 + f * 13) & (bps == 2 && i % 2 ?
                  0x03 : 0xff)));
  }
  g_assert_true (g_file_set_contents (path, s->str, s->len, NULL));
  g_string_free (s, TRUE);
  return path;
}

/* VH_SCORE_BACKEND=hip runs the parity check only, on the GPU (page-locked
 * reader pictures uploaded without staging); it skips without a GPU. */
static const gchar *backend = "auto";

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

/* Frame metrics of a JSON log, by frame. */
static JsonArray *
load_frames (JsonParser * parser, const gchar * path)
{
  g_assert_true (json_parser_load_from_file (parser, path, NULL));
  return json_object_get_array_member (json_node_get_object
      (json_parser_get_root (parser)), "frames");
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

static void
expect_error (Result r, const gchar * const *needles)
{
  if (!exited_with (&r, 1))
    g_error ("expected exit 1, got status %d; stderr: %s", r.status, r.err);
  for (guint i = 0; needles[i]; i++) {
    if (!strstr (r.err, needles[i]))
      g_error ("stderr lacks '%s': %s", needles[i], r.err);
  }
  result_clear (&r);
}

static void
test_size_mismatch (void)
{
  g_autofree gchar *a = write_y4m ("a.y4m", 64, 64, 8, 2);
  g_autofree gchar *b = write_y4m ("b.y4m", 64, 48, 8, 2);
  g_autofree gchar *c = write_y4m ("c.y4m", 64, 64, 10, 2);
  const gchar *size[] = { "64x64", "64x48", NULL };
  const gchar *depth[] = { "8-bit", "10-bit", NULL };

  expect_error (run_score ("-r", a, "-d", b, "-q", NULL), size);
  expect_error (run_score ("-r", a, "-d", c, "-q", NULL), depth);
}

static void
test_truncated (void)
{
  g_autofree gchar *ref = g_build_filename (tmpdir, "t.yuv", NULL);
  g_autofree gchar *dist = g_build_filename (tmpdir, "t2.yuv", NULL);
  gsize frame = 200 * 200 * 3 / 2;
  g_autofree gchar *data = g_malloc0 (frame * 3);
  const gchar *needles[] = { "t2.yuv", "middle of frame 2", NULL };

  for (gsize i = 0; i < frame * 3; i++)
    data[i] = (gchar) (i * 31 >> 3);
  g_assert_true (g_file_set_contents (ref, data, frame * 3, NULL));
  g_assert_true (g_file_set_contents (dist, data, frame * 2 + 100, NULL));
  expect_error (run_score ("-r", ref, "-d", dist, "-w", "200", "-h", "200",
          "-p", "420", "-b", "8", "-q", NULL), needles);
}

static void
test_too_small (void)
{
  g_autofree gchar *a = write_y4m ("s.y4m", 8, 8, 8, 1);
  const gchar *needles[] = { "needs frames of at least", "8x8", NULL };

  expect_error (run_score ("-r", a, "-d", a, "-q", NULL), needles);
}

static void
test_unknown_model (void)
{
  g_autofree gchar *a = write_y4m ("m.y4m", 64, 64, 8, 1);
  const gchar *needles[] = { "no_such_model", "vmaf_v0.6.1", "vmaf_b_v0.6.3",
    NULL
  };

  expect_error (run_score ("-r", a, "-d", a, "--model",
          "version=no_such_model", "-q", NULL), needles);
}

static void
test_malformed_model (void)
{
  g_autofree gchar *a = write_y4m ("m.y4m", 64, 64, 8, 1);
  g_autofree gchar *model = g_build_filename (tmpdir, "bad-model.json", NULL);
  g_autofree gchar *spec = g_strdup_printf ("path=%s", model);
  const gchar *needles[] = { "bad-model.json", NULL };

  g_assert_true (g_file_set_contents (model,
          "{\"model_dict\": {\"model_type\": \"LIBSVMNUSVR\",", -1, NULL));
  expect_error (run_score ("-r", a, "-d", a, "--model", spec, "-q", NULL),
      needles);
}

static void
test_model_override (void)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  VhGoldenPair *pair = vh_golden_pair_find (pairs, "d_321x241_8bit_x264");
  g_autofree gchar *out = g_build_filename (tmpdir, "o.json", NULL);
  g_autofree gchar *contents = NULL;
  const gchar *unused[] = { "uses no feature of 'cambi'", NULL };
  const gchar *bad[] = { "adm_enhn_gain_limit", NULL };
  Result r;

  r = run_score ("-r", pair->ref_path, "-d", pair->dist_path, "-w", "321",
      "-h", "241", "-p", "420", "-b", "8", "--frame_cnt", "2", "--model",
      "version=vmaf_v0.6.1:name=v12:adm.adm_enhn_gain_limit=1.2", "--json",
      "-o", out, "-q", NULL);
  g_assert_true (exited_with (&r, 0));
  result_clear (&r);
  g_assert_true (g_file_get_contents (out, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\"integer_adm2_egl_1.2\""));
  g_assert_nonnull (strstr (contents, "\"v12\""));
  expect_error (run_score ("-r", pair->ref_path, "-d", pair->dist_path,
          "-w", "321", "-h", "241", "-p", "420", "-b", "8", "--model",
          "version=vmaf_v0.6.1:cambi.topk=0.5", "-q", NULL), unused);
  expect_error (run_score ("-r", pair->ref_path, "-d", pair->dist_path,
          "-w", "321", "-h", "241", "-p", "420", "-b", "8", "--model",
          "version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=0.5", "-q", NULL), bad);
}

static void
test_unknown_feature (void)
{
  g_autofree gchar *a = write_y4m ("f.y4m", 64, 64, 8, 1);
  const gchar *needles[] = { "no_such_feature", "psnr", NULL };

  expect_error (run_score ("-r", a, "-d", a, "--feature", "no_such_feature",
          "-q", NULL), needles);
}

static void
test_shorter_reference (void)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  VhGoldenPair *pair = vh_golden_pair_find (pairs, "d_321x241_8bit_x264");
  g_autofree gchar *data = NULL;
  gsize len;
  g_autofree gchar *short_ref = g_build_filename (tmpdir, "short.yuv", NULL);
  Result r;

  g_assert_true (g_file_get_contents (pair->ref_path, &data, &len, NULL));
  g_assert_true (g_file_set_contents (short_ref, data, len / 2, NULL));
  r = run_score ("-r", short_ref, "-d", pair->dist_path, "-w", "321", "-h",
      "241", "-p", "420", "-b", "8", "-q", NULL);
  g_assert_true (exited_with (&r, 0));
  g_assert_nonnull (strstr (r.err, "ended after 5 frames"));
  result_clear (&r);
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

/* Bad command lines and files: each is an error that names the cause. */
static void
test_bad_input (void)
{
  g_autofree gchar *ok = write_y4m ("ok.y4m", 64, 64, 8, 2);
  g_autofree gchar *empty = g_build_filename (tmpdir, "empty.yuv", NULL);
  g_autofree gchar *wide = g_build_filename (tmpdir, "wide.y4m", NULL);
  g_autofree gchar *ok_data = NULL;
  gsize len;
  const gchar *stray[] = { "unexpected argument 'stray'", NULL };
  const gchar *no_name[] = { "--feature ''", "no feature name", NULL };
  const gchar *nan[] = { "vif_enhn_gain_limit", "not a finite number", NULL };
  const gchar *threads[] = { "--threads 100000", NULL };
  const gchar *dir[] = { "is a directory", NULL };
  const gchar *is_empty[] = { "empty.yuv is empty", NULL };
  const gchar *short_file[] = { "less than one 32768x32768", NULL };
  const gchar *width[] = { "width '4294967456'", NULL };
  Result r;

  r = run_score ("-r", ok, "-d", ok, "-q", "stray", NULL);
  g_assert_true (exited_with (&r, 2));
  g_assert_nonnull (strstr (r.err, stray[0]));
  result_clear (&r);
  expect_error (run_score ("-r", ok, "-d", ok, "-q", "--feature", "", NULL),
      no_name);
  expect_error (run_score ("-r", ok, "-d", ok, "-q", "--feature",
          "vif=vif_enhn_gain_limit=nan", NULL), nan);
  expect_error (run_score ("-r", ok, "-d", ok, "-q", "--threads", "100000",
          NULL), threads);
  expect_error (run_score ("-r", tmpdir, "-d", tmpdir, "-w", "64", "-h", "64",
          "-p", "420", "-b", "8", "-q", NULL), dir);
  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  expect_error (run_score ("-r", empty, "-d", empty, "-w", "64", "-h", "64",
          "-p", "420", "-b", "8", "-q", NULL), is_empty);
  g_assert_true (g_file_set_contents (empty, "1234567890", 10, NULL));
  expect_error (run_score ("-r", empty, "-d", empty, "-w", "32768", "-h",
          "32768",
          "-p", "420", "-b", "8", "-q", "--no_prediction", "--feature",
          "psnr", NULL), short_file);
  /* The width wraps to 160 through a 32-bit atoi(). */
  g_assert_true (g_file_get_contents (ok, &ok_data, &len, NULL));
  {
    g_auto (GStrv) parts = g_strsplit (ok_data, "W64", 2);
    g_autofree gchar *bad = g_strconcat (parts[0], "W4294967456", parts[1],
        NULL);
    g_assert_true (g_file_set_contents (wide, bad, -1, NULL));
  }
  expect_error (run_score ("-r", wide, "-d", wide, "-q", NULL), width);
  /* A 4 KB Y4M file whose header says 32768x32768 fails at once; colour
   * tags with more after a known one are refused. */
  {
    g_autofree gchar *huge = g_build_filename (tmpdir, "huge.y4m", NULL);
    GString *bytes = g_string_new ("YUV4MPEG2 W32768 H32768 F25:1 Ip "
        "C420jpeg\nFRAME\n");
    const gchar *too_big[] = { "after its Y4M header", "32768x32768",
      "is the header right?", NULL
    };
    gint64 start = g_get_monotonic_time ();

    while (bytes->len < 4096)
      g_string_append_c (bytes, 0x10);
    g_assert_true (g_file_set_contents (huge, bytes->str, bytes->len, NULL));
    g_string_free (bytes, TRUE);
    expect_error (run_score ("-r", huge, "-d", huge, "-q", NULL), too_big);
    g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
  }
  {
    g_auto (GStrv) parts = g_strsplit (ok_data, "C420jpeg", 2);
    g_autofree gchar *alpha_data = g_strconcat (parts[0], "C444alpha",
        parts[1], NULL);
    g_autofree gchar *xyz_data = g_strconcat (parts[0], "C420xyz", parts[1],
        NULL);
    g_autofree gchar *alpha_path = g_build_filename (tmpdir, "alpha.y4m",
        NULL);
    g_autofree gchar *xyz_path = g_build_filename (tmpdir, "xyz.y4m", NULL);
    const gchar *alpha[] = { "unsupported Y4M colour space '444alpha'",
      "alpha plane", NULL
    };
    const gchar *xyz[] = { "unsupported Y4M colour space '420xyz'", NULL };

    g_assert_true (g_file_set_contents (alpha_path, alpha_data, -1, NULL));
    g_assert_true (g_file_set_contents (xyz_path, xyz_data, -1, NULL));
    expect_error (run_score ("-r", alpha_path, "-d", alpha_path, "-q", NULL),
        alpha);
    expect_error (run_score ("-r", xyz_path, "-d", xyz_path, "-q", NULL), xyz);
  }
}

/* Character devices are no clips: /dev/null read as empty ("no frames to
 * score") and /dev/zero as endless black. */
static void
test_devices (void)
{
  g_autofree gchar *ok = write_y4m ("dev.y4m", 64, 64, 8, 2);
  const gchar *null_dev[] = { "/dev/null is a character device", NULL };
  const gchar *zero_dev[] = { "/dev/zero is a character device", NULL };

  expect_error (run_score ("-r", "/dev/null", "-d", ok, "-w", "64", "-h",
          "64", "-p", "420", "-b", "8", "-q", NULL), null_dev);
  expect_error (run_score ("-r", ok, "-d", "/dev/zero", "-w", "64", "-h",
          "64", "-p", "420", "-b", "8", "-q", NULL), zero_dev);
}

typedef struct
{
  const gchar *fifo;
  const gchar *data;
  gsize len;
} FifoFeed;

/* Opening for writing waits for the reader; closing ends its input. */
static gpointer
feed_fifo (gpointer data)
{
  FifoFeed *f = data;
  gint fd = open (f->fifo, O_WRONLY);

  g_assert_cmpint (fd, >=, 0);
  if (f->len)
    g_assert_cmpint (write (fd, f->data, f->len), ==, (gssize) f->len);
  close (fd);
  return NULL;
}

/* Raw frames through a pipe score as from the file (the bytes read to
 * tell Y4M from raw are put back: they were lost, shifting every frame),
 * a pipe that closes at once is said to be empty, and Y4M from a pipe is
 * told by its header. */
static void
test_pipes (void)
{
  g_autofree gchar *y4m = write_y4m ("pipe.y4m", 64, 64, 8, 3);
  g_autofree gchar *raw = g_build_filename (tmpdir, "pipe.yuv", NULL);
  g_autofree gchar *fifo = g_build_filename (tmpdir, "raw-fifo", NULL);
  g_autofree gchar *from_file = g_build_filename (tmpdir, "file.csv", NULL);
  g_autofree gchar *from_pipe = g_build_filename (tmpdir, "pipe.csv", NULL);
  g_autofree gchar *data = NULL, *a = NULL, *b = NULL;
  gsize header, frame = 64 * 64 * 3 / 2;
  GString *frames_only = g_string_new (NULL);
  const gchar *is_empty[] = { "raw-fifo is empty", NULL };
  FifoFeed feed;
  GThread *thread;
  gsize len;
  Result r;

  /* The raw file is the Y4M file without its header and FRAME lines. */
  g_assert_true (g_file_get_contents (y4m, &data, &len, NULL));
  header = strchr (data, '\n') - data + 1;
  for (guint i = 0; i < 3; i++)
    g_string_append_len (frames_only, data + header + i * (6 + frame) + 6,
        frame);
  g_assert_true (g_file_set_contents (raw, frames_only->str,
          frames_only->len, NULL));
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  feed = (FifoFeed) { fifo, frames_only->str, frames_only->len };
  thread = g_thread_new ("feed", feed_fifo, &feed);
  r = run_score ("-r", raw, "-d", fifo, "-w", "64", "-h", "64", "-p", "420",
      "-b", "8", "-q", "--feature", "psnr", "--csv", "-o", from_pipe, NULL);
  g_thread_join (thread);
  g_assert_true (exited_with (&r, 0));
  result_clear (&r);
  r = run_score ("-r", raw, "-d", raw, "-w", "64", "-h", "64", "-p", "420",
      "-b", "8", "-q", "--feature", "psnr", "--csv", "-o", from_file, NULL);
  g_assert_true (exited_with (&r, 0));
  result_clear (&r);
  g_assert_true (g_file_get_contents (from_pipe, &a, NULL, NULL));
  g_assert_true (g_file_get_contents (from_file, &b, NULL, NULL));
  g_assert_nonnull (strstr (a, "\n2,"));
  g_assert_cmpstr (a, ==, b);

  feed = (FifoFeed) { fifo, NULL, 0 };
  thread = g_thread_new ("feed", feed_fifo, &feed);
  r = run_score ("-r", fifo, "-d", raw, "-w", "64", "-h", "64", "-p", "420",
      "-b", "8", "-q", NULL);
  g_thread_join (thread);
  expect_error (r, is_empty);
  g_string_free (frames_only, TRUE);

  /* Y4M through a pipe whose name says nothing (as from ffmpeg through
   * "-d <(ffmpeg ... -f yuv4mpegpipe -)"): told by its header, with no
   * geometry options, and scored as the file is. */
  feed = (FifoFeed) { fifo, data, len };
  thread = g_thread_new ("feed", feed_fifo, &feed);
  r = run_score ("-r", y4m, "-d", fifo, "-q", "--feature", "psnr", "--csv",
      "-o", from_pipe, NULL);
  g_thread_join (thread);
  g_assert_true (exited_with (&r, 0));
  result_clear (&r);
  g_free (a);
  a = NULL;
  g_assert_true (g_file_get_contents (from_pipe, &a, NULL, NULL));
  g_assert_cmpstr (a, ==, b);
}

/* Output paths as libvmaf's tool takes them: /dev/stdout (here a pipe to
 * the test) gets exactly one complete JSON log, /dev/null takes it, and a
 * FIFO that nobody reads is an error at once instead of a hang. */
static void
test_output_streams (void)
{
  g_autofree gchar *a = write_y4m ("streams.y4m", 64, 64, 8, 3);
  g_autofree gchar *fifo = g_build_filename (tmpdir, "unread-fifo", NULL);
  const gchar *no_reader[] = { "unread-fifo", "no reader", NULL };
  JsonParser *parser = json_parser_new ();
  GError *error = NULL;
  JsonObject *root;
  gint64 start;
  Result r;

  r = run_score ("-r", a, "-d", a, "--feature", "psnr", "--json", "-o",
      "/dev/stdout", "-q", NULL);
  g_assert_true (exited_with (&r, 0));
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member
          (root, "frames")), ==, 3);
  g_assert_true (json_object_has_member (json_object_get_object_member (root,
              "pooled_metrics"), "psnr_y"));
  result_clear (&r);
  g_object_unref (parser);

  /* Without -q too: off a terminal a run prints nothing, and a machine
   * without a GPU is no notice worth (it goes to the info log). */
  r = run_score ("-r", a, "-d", a, "--json", "-o", "/dev/null", NULL);
  g_assert_true (exited_with (&r, 0));
  g_assert_null (strstr (r.err, "no usable GPU"));
  if (!g_getenv ("G_MESSAGES_DEBUG"))
    g_assert_cmpstr (r.err, ==, "");
  result_clear (&r);

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  start = g_get_monotonic_time ();
  expect_error (run_score ("-r", a, "-d", a, "--json", "-o", fifo, "-q",
          NULL), no_reader);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
}

/* SIGTERM halfway: the frames scored until then are in a valid results
 * file, and the message says so. The input comes through pipes so that
 * the run is halfway for as long as the test wants. */
static void
test_sigterm_keeps_results (void)
{
  g_autofree gchar *src = write_y4m ("src.y4m", 64, 64, 8, 12);
  g_autofree gchar *ref = g_build_filename (tmpdir, "ref-fifo.y4m", NULL);
  g_autofree gchar *dist = g_build_filename (tmpdir, "dist-fifo.y4m", NULL);
  g_autofree gchar *out = g_build_filename (tmpdir, "sig.json", NULL);
  g_autofree gchar *data = NULL;
  g_autofree gchar *err_text = NULL;
  const gchar *argv[] = { g_getenv ("VH_SCORE"), "-r", ref, "-d", dist,
    "--json", "-o", out, "-q", NULL
  };
  gsize len, header, frame = 6 + 64 * 64 * 3 / 2;
  gint err_fd, status, ref_w, dist_w;
  GPid pid;
  guint n_frames = 0;
  JsonParser *parser;

  g_assert_true (g_file_get_contents (src, &data, &len, NULL));
  header = strchr (data, '\n') - data + 1;
  g_assert_cmpint (mkfifo (ref, 0600), ==, 0);
  g_assert_cmpint (mkfifo (dist, 0600), ==, 0);
  g_assert_true (g_spawn_async_with_pipes (NULL, (gchar **) argv, NULL,
          G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, NULL, NULL, &err_fd,
          NULL));
  /* Read-write: opening never waits for the reader. */
  ref_w = open (ref, O_RDWR);
  dist_w = open (dist, O_RDWR);
  /* Ten frames now, then one more after the first rewrite is due: the
   * file then shows the frames final by then (motion waits for the next). */
  g_assert_cmpint (write (ref_w, data, header + 10 * frame), >, 0);
  g_assert_cmpint (write (dist_w, data, header + 10 * frame), >, 0);
  g_usleep (2500 * G_TIME_SPAN_MILLISECOND);
  g_assert_cmpint (write (ref_w, data + header, frame), >, 0);
  g_assert_cmpint (write (dist_w, data + header, frame), >, 0);
  for (guint i = 0; i < 200 && n_frames < 5; i++) {
    g_autofree gchar *log = NULL;
    g_usleep (50 * G_TIME_SPAN_MILLISECOND);
    if (!g_file_get_contents (out, &log, NULL, NULL))
      continue;
    parser = json_parser_new ();
    g_assert_true (json_parser_load_from_data (parser, log, -1, NULL));
    n_frames = json_array_get_length (json_object_get_array_member
        (json_node_get_object (json_parser_get_root (parser)), "frames"));
    g_object_unref (parser);
  }
  g_assert_cmpuint (n_frames, >=, 5);
  kill (pid, SIGTERM);
  /* The reader may wait for input in its own thread: end the input too. */
  close (ref_w);
  close (dist_w);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  {
    GIOChannel *ch = g_io_channel_unix_new (err_fd);
    g_io_channel_read_to_end (ch, &err_text, NULL, NULL);
    g_io_channel_unref (ch);
    close (err_fd);
  }
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 1);
  g_assert_nonnull (strstr (err_text, "stopped by SIGTERM after 11 frames"));
  g_clear_pointer (&data, g_free);
  g_assert_true (g_file_get_contents (out, &data, NULL, NULL));
  parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, data, -1, NULL));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member
          (json_node_get_object (json_parser_get_root (parser)), "frames")),
      ==, 11);
  g_object_unref (parser);
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
  g_test_add_func ("/cli/output-streams", test_output_streams);
  g_test_add_func ("/cli/sigterm-keeps-results", test_sigterm_keeps_results);
run:
  ret = g_test_run ();
  {
    g_autofree gchar *cmd = g_strdup_printf ("rm -rf '%s'", tmpdir);
    if (system (cmd) != 0)
      g_printerr ("could not remove %s\n", tmpdir);
  }
  g_free (tmpdir);
  return ret;
}
