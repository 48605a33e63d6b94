/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* vmafhip-score with a distorted of another size: scored as the file that
 * the engine's scaler makes from it is (every value of every frame), the
 * results file naming the scaler, --scale none and bad options refused. */

#include "cli-test.h"
#include "scale.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>

#define REF_W 160
#define REF_H 96
#define DIST_W 97
#define DIST_H 61
#define N_FRAMES 3

static gchar *
write_file (const gchar * name, const GString * s)
{
  gchar *path = g_build_filename (tmpdir, name, NULL);

  g_assert_true (g_file_set_contents (path, s->str, s->len, NULL));
  return path;
}

/* The reference, a blurred smaller distorted, and that distorted scaled
 * to the reference's size by the engine (raw 8-bit 4:2:0). */
static void
write_inputs (gchar ** ref_path, gchar ** small_path, gchar ** y4m_path,
    gchar ** scaled_path)
{
  GString *ref = g_string_new (NULL), *small = g_string_new (NULL);
  GString *y4m = g_string_new (NULL), *scaled = g_string_new (NULL);
  VhPictureInfo ref_info, small_info;
  g_autoptr (VhScaler) down = NULL;
  g_autoptr (VhScaler) up = NULL;

  vh_picture_info_init (&ref_info, VH_PIX_FMT_YUV420, 8, REF_W, REF_H, NULL);
  vh_picture_info_init (&small_info, VH_PIX_FMT_YUV420, 8, DIST_W, DIST_H,
      NULL);
  down = vh_scaler_new (VH_SCALE_BILINEAR, &ref_info, &small_info, NULL);
  up = vh_scaler_new (VH_SCALE_BICUBIC, &small_info, &ref_info, NULL);
  g_string_append_printf (y4m, "YUV4MPEG2 W%u H%u F25:1 Ip A1:1 C420jpeg\n",
      DIST_W, DIST_H);
  for (guint t = 0; t < N_FRAMES; t++) {
    g_autoptr (VhPicture) frame = make_moving_frame (REF_W, REF_H, t);
    g_autoptr (VhPicture) reduced = vh_scaler_scale (down, frame, NULL);
    g_autoptr (VhPicture) back = vh_scaler_scale (up, reduced, NULL);

    append_picture (ref, frame);
    append_picture (small, reduced);
    g_string_append (y4m, "FRAME\n");
    append_picture (y4m, reduced);
    append_picture (scaled, back);
  }
  *ref_path = write_file ("ref.yuv", ref);
  *small_path = write_file ("small.yuv", small);
  *y4m_path = write_file ("small.y4m", y4m);
  *scaled_path = write_file ("scaled.yuv", scaled);
  g_string_free (ref, TRUE);
  g_string_free (small, TRUE);
  g_string_free (y4m, TRUE);
  g_string_free (scaled, TRUE);
}

/* The log's lines from "frames" on: every per-frame and pooled value. */
static gchar *
read_values (const gchar * path)
{
  gchar *text = NULL, *values;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  values = strstr (text, "\"frames\"");
  g_assert_nonnull (values);
  values = g_strdup (values);
  g_free (text);
  return values;
}

static void
test_scaled_equals_prescaled (void)
{
  g_autofree gchar *ref = NULL, *small = NULL, *y4m = NULL, *scaled = NULL;
  g_autofree gchar *out_a = g_build_filename (tmpdir, "a.json", NULL);
  g_autofree gchar *out_b = g_build_filename (tmpdir, "b.json", NULL);
  g_autofree gchar *out_c = g_build_filename (tmpdir, "c.json", NULL);
  g_autofree gchar *out_x = g_build_filename (tmpdir, "x.xml", NULL);
  g_autofree gchar *a = NULL, *b = NULL, *c = NULL, *text = NULL;
  Result r;

  write_inputs (&ref, &small, &y4m, &scaled);
  r = run_score ("-r", ref, "-d", scaled, "-w", "160", "-h", "96", "-p",
      "420", "-b", "8", "--json", "-o", out_a, "-q", NULL);
  g_assert_true (exited_with (&r, 0));
  result_clear (&r);
  r = run_score ("-r", ref, "-d", small, "-w", "160", "-h", "96", "-p",
      "420", "-b", "8", "--dist_w", "97", "--dist_h", "61", "--json", "-o",
      out_b, "-q", NULL);
  g_assert_true (exited_with (&r, 0));
  result_clear (&r);
  /* Y4M tells its size; the scaler named explicitly */
  r = run_score ("-r", ref, "-d", y4m, "-w", "160", "-h", "96", "-p",
      "420", "-b", "8", "--scale", "bicubic", "--json", "-o", out_c, "-q",
      NULL);
  g_assert_true (exited_with (&r, 0));
  result_clear (&r);

  a = read_values (out_a);
  b = read_values (out_b);
  c = read_values (out_c);
  g_assert_cmpstr (a, ==, b);
  g_assert_cmpstr (a, ==, c);
  /* and the distorted was not scored as the reference */
  g_assert_null (strstr (a, "\"vmaf\": 100.0"));

  g_assert_true (g_file_get_contents (out_b, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\"scaler\": \"bicubic from 97x61\""));
  g_clear_pointer (&text, g_free);
  g_assert_true (g_file_get_contents (out_a, &text, NULL, NULL));
  g_assert_null (strstr (text, "\"scaler\""));
  g_clear_pointer (&text, g_free);

  /* another method scores otherwise; XML names it */
  r = run_score ("-r", ref, "-d", small, "-w", "160", "-h", "96", "-p",
      "420", "-b", "8", "--dist_w", "97", "--dist_h", "61", "--scale",
      "lanczos", "--xml", "-o", out_x, "-q", NULL);
  g_assert_true (exited_with (&r, 0));
  result_clear (&r);
  g_assert_true (g_file_get_contents (out_x, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "scaler=\"lanczos from 97x61\""));
}

static void
test_refusals (void)
{
  g_autofree gchar *ref = NULL, *small = NULL, *y4m = NULL, *scaled = NULL;
  Result r;

  write_inputs (&ref, &small, &y4m, &scaled);
  /* none: today's refusal, naming both geometries */
  r = run_score ("-r", ref, "-d", y4m, "-w", "160", "-h", "96", "-p",
      "420", "-b", "8", "--scale", "none", "-q", NULL);
  g_assert_true (exited_with (&r, 1));
  g_assert_nonnull (strstr (r.err, "reference and distorted differ"));
  g_assert_nonnull (strstr (r.err, "97x61"));
  result_clear (&r);

  r = run_score ("-r", ref, "-d", y4m, "-w", "160", "-h", "96", "-p",
      "420", "-b", "8", "--scale", "spline", "-q", NULL);
  g_assert_true (exited_with (&r, 1));
  g_assert_nonnull (strstr (r.err, "--scale 'spline'"));
  result_clear (&r);

  r = run_score ("-r", ref, "-d", small, "-w", "160", "-h", "96", "-p",
      "420", "-b", "8", "--dist_w", "97", "-q", NULL);
  g_assert_true (exited_with (&r, 1));
  g_assert_nonnull (strstr (r.err, "--dist_w and --dist_h go together"));
  result_clear (&r);

  r = run_score ("-r", y4m, "-d", small, "--dist_w", "97", "--dist_h", "61",
      "-q", NULL);
  g_assert_true (exited_with (&r, 1));
  g_assert_nonnull (strstr (r.err, "describe raw input"));
  result_clear (&r);

  r = run_score ("-r", ref, "-d", small, "-w", "160", "-h", "96", "-p",
      "420", "-b", "8", "--dist_w", "-97", "--dist_h", "61", "-q", NULL);
  g_assert_true (exited_with (&r, 1));
  g_assert_nonnull (strstr (r.err, "expected positive sizes"));
  result_clear (&r);
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("vh-cli-scale-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);
  g_test_add_func ("/cli-scale/scaled-equals-prescaled",
      test_scaled_equals_prescaled);
  g_test_add_func ("/cli-scale/refusals", test_refusals);
  ret = g_test_run ();
  {
    const gchar *names[] = { "ref.yuv", "small.yuv", "small.y4m",
      "scaled.yuv", "a.json", "b.json", "c.json", "x.xml", NULL
    };
    for (guint i = 0; names[i]; i++) {
      g_autofree gchar *path = g_build_filename (tmpdir, names[i], NULL);
      g_remove (path);
    }
    g_rmdir (tmpdir);
    g_free (tmpdir);
  }
  return ret;
}
