/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* vmafhip-score with several distorted inputs against one reference (an
 * encoding ladder): each scored as it is alone (every value of every
 * frame), one log each (-o with %s, or one -o per -d), a rendition that
 * ends early ending alone, and ambiguous combinations refused. */

#include "cli-test.h"
#include "scale.h"

#include <glib/gstdio.h>
#include <string.h>

#define REF_W 160
#define REF_H 96
#define N_FRAMES 4

/* The reference, or a rendition of it: downscaled to @w x @h (bilinear),
 * with some samples changed so that no rendition is the reference, as Y4M
 * (@y4m) or raw, @n_frames long. */
static gchar *
write_rendition (const gchar * name, guint w, guint h, guint n_frames,
    gboolean y4m, guint damage)
{
  gchar *path = g_build_filename (tmpdir, name, NULL);
  GString *s = g_string_new (NULL);
  VhPictureInfo ref_info, info;
  g_autoptr (VhScaler) down = NULL;

  vh_picture_info_init (&ref_info, VH_PIX_FMT_YUV420, 8, REF_W, REF_H, NULL);
  vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, w, h, NULL);
  if (w != REF_W || h != REF_H)
    down = vh_scaler_new (VH_SCALE_BILINEAR, &ref_info, &info, NULL);
  if (y4m)
    g_string_append_printf (s, "YUV4MPEG2 W%u H%u F25:1 Ip A1:1 C420jpeg\n",
        w, h);
  for (guint t = 0; t < n_frames; t++) {
    g_autoptr (VhPicture) ref = make_moving_frame (REF_W, REF_H, t);
    g_autoptr (VhPicture) pic = down ? vh_scaler_scale (down, ref, NULL) :
        vh_picture_ref (ref);
    gsize at;

    if (y4m)
      g_string_append (s, "FRAME\n");
    at = s->len;
    append_picture (s, pic);
    for (gsize i = at; damage && i < s->len; i += damage)
      s->str[i] = (gchar) (s->str[i] ^ 0x0f);
  }
  g_assert_true (g_file_set_contents (path, s->str, s->len, NULL));
  g_string_free (s, TRUE);
  return path;
}

/* Two logs hold the same values: every frame's, the pooled ones and the
 * scaler line (the speed and the version aside). */
static void
assert_same_scores (const gchar * a, const gchar * b)
{
  g_autoptr (JsonParser) pa = json_parser_new ();
  g_autoptr (JsonParser) pb = json_parser_new ();
  JsonObject *oa, *ob;
  const gchar *members[] = { "frames", "pooled_metrics", "scaler" };

  g_assert_true (json_parser_load_from_file (pa, a, NULL));
  g_assert_true (json_parser_load_from_file (pb, b, NULL));
  oa = json_node_get_object (json_parser_get_root (pa));
  ob = json_node_get_object (json_parser_get_root (pb));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (oa,
              "frames")), >, 0);
  for (guint i = 0; i < G_N_ELEMENTS (members); i++) {
    JsonNode *na = json_object_get_member (oa, members[i]);
    JsonNode *nb = json_object_get_member (ob, members[i]);

    g_assert_true ((na == NULL) == (nb == NULL));
    if (na && !json_node_equal (na, nb))
      g_error ("%s and %s differ in \"%s\"", a, b, members[i]);
  }
}

static gchar *
tmp_path (const gchar * name)
{
  return g_build_filename (tmpdir, name, NULL);
}

/* Three renditions of one reference (its own size damaged, 112x64 and
 * 80x48) in one run equal three separate runs, every value; logs named by
 * %s (the base names), by --label, or by one -o per -d. */
static void
test_ladder_equals_separate_runs (void)
{
  g_autofree gchar *ref = write_rendition ("ref.y4m", REF_W, REF_H, N_FRAMES,
      TRUE, 0);
  g_autofree gchar *full = write_rendition ("full.y4m", REF_W, REF_H,
      N_FRAMES, TRUE, 7);
  g_autofree gchar *mid = write_rendition ("mid.y4m", 112, 64, N_FRAMES,
      TRUE, 11);
  g_autofree gchar *low = write_rendition ("low.y4m", 80, 48, N_FRAMES, TRUE,
      0);
  const gchar *names[] = { "full", "mid", "low" };
  const gchar *paths[] = { full, mid, low };
  g_autofree gchar *pattern = tmp_path ("ladder-%s.json");
  g_autofree gchar *labelled = tmp_path ("labelled-%s.json");
  Result r;

  r = run_score ("-r", ref, "-d", full, "-d", mid, "-d", low, "--feature",
      "psnr", "--feature", "float_ssim", "--threads", "2", "--json", "-o",
      pattern, "-q", NULL);
  if (!exited_with (&r, 0))
    g_error ("ladder run: status %d: %s", r.status, r.err);
  result_clear (&r);
  r = run_score ("-r", ref, "-d", full, "-d", mid, "-d", low, "--label",
      "1080p", "--label", "720p-3000k", "--label", "360p", "--feature",
      "psnr", "--feature", "float_ssim", "--json", "-o", labelled, "-q",
      NULL);
  g_assert_true (exited_with (&r, 0));
  result_clear (&r);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++) {
    g_autofree gchar *alone_name = g_strdup_printf ("alone-%s.json",
        names[i]);
    g_autofree gchar *alone = tmp_path (alone_name);
    g_autofree gchar *in_ladder_name = g_strdup_printf ("ladder-%s.json",
        names[i]);
    g_autofree gchar *in_ladder = tmp_path (in_ladder_name);
    const gchar *labels[] = { "1080p", "720p-3000k", "360p" };
    g_autofree gchar *by_label_name = g_strdup_printf ("labelled-%s.json",
        labels[i]);
    g_autofree gchar *by_label = tmp_path (by_label_name);

    r = run_score ("-r", ref, "-d", paths[i], "--feature", "psnr",
        "--feature", "float_ssim", "--json", "-o", alone, "-q", NULL);
    g_assert_true (exited_with (&r, 0));
    result_clear (&r);
    assert_same_scores (in_ladder, alone);
    assert_same_scores (by_label, alone);
  }

  /* One -o per -d, in their order. */
  {
    g_autofree gchar *a = tmp_path ("first.json");
    g_autofree gchar *b = tmp_path ("second.json");
    g_autofree gchar *alone_low = tmp_path ("alone-low.json");
    g_autofree gchar *alone_mid = tmp_path ("alone-mid.json");

    r = run_score ("-r", ref, "-d", low, "-d", mid, "--feature", "psnr",
        "--feature", "float_ssim", "--json", "-o", a, "-o", b, "-q", NULL);
    g_assert_true (exited_with (&r, 0));
    result_clear (&r);
    assert_same_scores (a, alone_low);
    assert_same_scores (b, alone_mid);
  }
}

/* Raw inputs, each distorted with its own --dist_w/--dist_h (one each, in
 * the order of the -d), scored as each alone; a rendition shorter than the
 * reference ends alone, said once, while the others go on. */
static void
test_raw_sizes_and_early_end (void)
{
  g_autofree gchar *ref = write_rendition ("ref.yuv", REF_W, REF_H, N_FRAMES,
      FALSE, 0);
  g_autofree gchar *mid = write_rendition ("mid.yuv", 112, 64, N_FRAMES,
      FALSE, 5);
  g_autofree gchar *low = write_rendition ("low.yuv", 80, 48, N_FRAMES - 2,
      FALSE, 0);
  g_autofree gchar *pattern = tmp_path ("raw-%s.json");
  g_autofree gchar *mid_log = tmp_path ("raw-mid.json");
  g_autofree gchar *low_log = tmp_path ("raw-low.json");
  g_autofree gchar *alone = tmp_path ("raw-alone.json");
  g_autoptr (JsonParser) parser = json_parser_new ();
  Result r;

  r = run_score ("-r", ref, "-d", mid, "-d", low, "-w", "160", "-h", "96",
      "-p", "420", "-b", "8", "--dist_w", "112", "--dist_h", "64",
      "--dist_w", "80", "--dist_h", "48", "--feature", "psnr", "--json",
      "-o", pattern, "-q", NULL);
  if (!exited_with (&r, 0))
    g_error ("raw ladder: status %d: %s", r.status, r.err);
  g_assert_nonnull (strstr (r.err, "low.yuv\" ended after 2 frames"));
  result_clear (&r);
  g_assert_cmpuint (json_array_get_length (load_frames (parser, mid_log)),
      ==, N_FRAMES);
  g_assert_cmpuint (json_array_get_length (load_frames (parser, low_log)),
      ==, N_FRAMES - 2);

  r = run_score ("-r", ref, "-d", mid, "-w", "160", "-h", "96", "-p", "420",
      "-b", "8", "--dist_w", "112", "--dist_h", "64", "--feature", "psnr",
      "--json", "-o", alone, "-q", NULL);
  g_assert_true (exited_with (&r, 0));
  result_clear (&r);
  assert_same_scores (mid_log, alone);
  r = run_score ("-r", ref, "-d", low, "-w", "160", "-h", "96", "-p", "420",
      "-b", "8", "--dist_w", "80", "--dist_h", "48", "--feature", "psnr",
      "--json", "-o", alone, "-q", NULL);
  g_assert_true (exited_with (&r, 0));
  result_clear (&r);
  assert_same_scores (low_log, alone);
}

/* What cannot be told apart is refused before anything is scored, with
 * what to do instead. */
static void
test_ambiguous_refused (void)
{
  g_autofree gchar *ref = write_rendition ("ref.y4m", REF_W, REF_H, 2, TRUE,
      0);
  g_autofree gchar *low = write_rendition ("low.y4m", 80, 48, 2, TRUE, 0);
  g_autofree gchar *other_dir = tmp_path ("other");
  g_autofree gchar *low_again = NULL;
  g_autofree gchar *one = tmp_path ("one.json");
  g_autofree gchar *pattern = tmp_path ("x-%s.json");
  const gchar *no_pattern[] = { "one -o", "without %s", "once per -d", NULL };
  const gchar *counts[] = { "-o/--output is given 2 times for 3", NULL };
  const gchar *labels[] = { "--label is given 1 time for 2", NULL };
  const gchar *same_log[] = { "would both write their log to", "--label",
    NULL
  };
  const gchar *sizes[] = { "--dist_w is given 2 times for 3", NULL };
  const gchar *not_number[] = { "--dist_w 'wide'", NULL };

  g_assert_cmpint (g_mkdir_with_parents (other_dir, 0700), ==, 0);
  low_again = g_build_filename (other_dir, "low.y4m", NULL);
  g_assert_true (g_file_set_contents (low_again, "", 0, NULL));

  expect_error (run_score ("-r", ref, "-d", low, "-d", ref, "--json", "-o",
          one, "-q", NULL), no_pattern);
  expect_error (run_score ("-r", ref, "-d", low, "-d", ref, "-d", low, "-o",
          one, "-o", one, "-q", NULL), counts);
  expect_error (run_score ("-r", ref, "-d", low, "-d", ref, "--label", "a",
          "-q", NULL), labels);
  expect_error (run_score ("-r", ref, "-d", low, "-d", low_again, "-o",
          pattern, "-q", NULL), same_log);
  expect_error (run_score ("-r", ref, "-d", low, "-d", ref, "-d", low,
          "--dist_w", "80", "--dist_w", "80", "-q", NULL), sizes);
  expect_error (run_score ("-r", ref, "-d", low, "--dist_w", "wide",
          "--dist_h", "48", "-q", NULL), not_number);
  /* Nothing was written by the refused runs. */
  g_assert_false (g_file_test (one, G_FILE_TEST_EXISTS));
}

static void
remove_tree (const gchar * path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const gchar *name;

  while (dir && (name = g_dir_read_name (dir))) {
    g_autofree gchar *child = g_build_filename (path, name, NULL);

    if (g_file_test (child, G_FILE_TEST_IS_DIR))
      remove_tree (child);
    else
      g_remove (child);
  }
  if (dir)
    g_dir_close (dir);
  g_rmdir (path);
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("vh-cli-ladder-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);
  g_test_add_func ("/cli-ladder/ladder-equals-separate-runs",
      test_ladder_equals_separate_runs);
  g_test_add_func ("/cli-ladder/raw-sizes-and-early-end",
      test_raw_sizes_and_early_end);
  g_test_add_func ("/cli-ladder/ambiguous-refused", test_ambiguous_refused);
  ret = g_test_run ();
  remove_tree (tmpdir);
  g_free (tmpdir);
  return ret;
}
