/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* vmafhip-score on bad input: a clear error with a non-zero exit for each
 * kind (sizes, truncated clips, models, features, options, devices). */

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

void
test_size_mismatch (void)
{
  g_autofree gchar *a = write_y4m ("a.y4m", 64, 64, 8, 2);
  g_autofree gchar *b = write_y4m ("b.y4m", 64, 48, 8, 2);
  g_autofree gchar *c = write_y4m ("c.y4m", 64, 64, 10, 2);
  const gchar *size[] = { "64x64", "64x48", NULL };
  const gchar *depth[] = { "8-bit", "10-bit", NULL };

  /* other sizes are scaled by default (test-cli-scale.c) */
  expect_error (run_score ("-r", a, "-d", b, "--scale", "none", "-q", NULL),
      size);
  expect_error (run_score ("-r", a, "-d", c, "-q", NULL), depth);
}

void
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

void
test_too_small (void)
{
  g_autofree gchar *a = write_y4m ("s.y4m", 8, 8, 8, 1);
  const gchar *needles[] = { "needs frames of at least", "8x8", NULL };

  expect_error (run_score ("-r", a, "-d", a, "-q", NULL), needles);
}

void
test_unknown_model (void)
{
  g_autofree gchar *a = write_y4m ("m.y4m", 64, 64, 8, 1);
  const gchar *needles[] = { "no_such_model", "vmaf_v0.6.1", "vmaf_b_v0.6.3",
    NULL
  };

  expect_error (run_score ("-r", a, "-d", a, "--model",
          "version=no_such_model", "-q", NULL), needles);
}

void
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

void
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

void
test_unknown_feature (void)
{
  g_autofree gchar *a = write_y4m ("f.y4m", 64, 64, 8, 1);
  const gchar *needles[] = { "no_such_feature", "psnr", NULL };

  expect_error (run_score ("-r", a, "-d", a, "--feature", "no_such_feature",
          "-q", NULL), needles);
}

void
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

/* Bad command lines and files: each is an error that names the cause. */
void
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
void
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
