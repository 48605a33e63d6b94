/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* vmafhip-score --align on a chain the test knows: a moving pattern, its
 * distorted version starting 37 frames late, 3 frames dropped at one
 * point and 2 repeated at another, encoded with x264. Every frame scored
 * must equal vmafhip-score on files this test pairs itself; the unmatched
 * frames and the offsets are checked. Also frame rates that differ. Needs
 * ffmpeg with libx264 (exit 77 without). */

#include "cli-test.h"

#include <glib/gstdio.h>
#include <string.h>

#define W 320
#define H 180
#define N_REF 150
#define FRAME_BYTES (W * H * 3 / 2)

static gboolean
ffmpeg (const gchar * args)
{
  g_autofree gchar *cmd = g_strdup_printf ("nice ffmpeg -nostdin -v error "
      "-y %s", args);
  gint status = 0;

  if (!g_spawn_command_line_sync (cmd, NULL, NULL, &status, NULL))
    return FALSE;
  return g_spawn_check_wait_status (status, NULL);
}

static gchar *
path_of (const gchar * name)
{
  return g_build_filename (tmpdir, name, NULL);
}

/* The frames of an 8-bit 4:2:0 Y4M file of W x H. */
static GPtrArray *
read_y4m (const gchar * path, gchar ** header)
{
  g_autofree gchar *text = NULL;
  gsize len, pos;
  GPtrArray *frames = g_ptr_array_new_with_free_func (g_free);

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  pos = strchr (text, '\n') - text + 1;
  *header = g_strndup (text, pos);
  while (pos < len) {
    const gchar *nl = memchr (text + pos, '\n', len - pos);
    g_assert_nonnull (nl);
    pos = nl - text + 1;
    g_assert_cmpuint (pos + FRAME_BYTES, <=, len);
    g_ptr_array_add (frames, g_memdup2 (text + pos, FRAME_BYTES));
    pos += FRAME_BYTES;
  }
  return frames;
}

static void
write_y4m_frames (const gchar * path, const gchar * header,
    GPtrArray * frames, const GArray * order)
{
  GString *s = g_string_new (header);

  for (guint i = 0; i < order->len; i++) {
    g_string_append (s, "FRAME\n");
    g_string_append_len (s, g_ptr_array_index (frames,
            g_array_index (order, guint, i)), FRAME_BYTES);
  }
  g_assert_true (g_file_set_contents (path, s->str, s->len, NULL));
  g_string_free (s, TRUE);
}

static void
assert_same_frames (const gchar * aligned, const gchar * paired,
    guint n_pairs)
{
  g_autoptr (JsonParser) pa = json_parser_new ();
  g_autoptr (JsonParser) pb = json_parser_new ();
  JsonArray *a = load_frames (pa, aligned);
  JsonArray *b = load_frames (pb, paired);

  g_assert_cmpuint (json_array_get_length (a), ==, n_pairs);
  g_assert_cmpuint (json_array_get_length (b), ==, n_pairs);
  for (guint f = 0; f < n_pairs; f++) {
    JsonObject *ma = json_object_get_object_member
        (json_array_get_object_element (a, f), "metrics");
    JsonObject *mb = json_object_get_object_member
        (json_array_get_object_element (b, f), "metrics");
    g_autoptr (GList) names = json_object_get_members (mb);

    g_assert_cmpuint (json_object_get_size (ma), ==, g_list_length (names));
    for (GList * l = names; l; l = l->next) {
      const gchar *name = l->data;
      if (json_object_get_double_member (ma, name) !=
          json_object_get_double_member (mb, name))
        g_error ("frame %u, %s: %f aligned, %f paired by the test", f, name,
            json_object_get_double_member (ma, name),
            json_object_get_double_member (mb, name));
    }
  }
}

/* The alignment member's ranges of one input, as "first-last:reason". */
static gchar *
ranges_of (JsonObject * alignment, const gchar * member)
{
  JsonArray *ranges = json_object_get_array_member (alignment, member);
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (ranges); i++) {
    JsonObject *r = json_array_get_object_element (ranges, i);
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT
        ":%s", i ? " " : "", json_object_get_int_member (r, "first"),
        json_object_get_int_member (r, "last"),
        json_object_get_string_member (r, "reason"));
  }
  return g_string_free (s, FALSE);
}

static gchar *
offsets_of (JsonObject * alignment)
{
  JsonArray *events = json_object_get_array_member (alignment, "offsets");
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (events); i++) {
    JsonObject *e = json_array_get_object_element (events, i);
    g_string_append_printf (s, "%s%s@%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT,
        i ? " " : "", json_object_get_string_member (e, "event"),
        json_object_get_int_member (e, "distorted"),
        json_object_get_int_member (e, "offset"));
  }
  return g_string_free (s, FALSE);
}

static void
test_align_x264_chain (void)
{
  g_autofree gchar *ref = path_of ("ref.y4m");
  g_autofree gchar *chain = path_of ("chain.y4m");
  g_autofree gchar *mkv = path_of ("chain.mkv");
  g_autofree gchar *dist = path_of ("dist.y4m");
  g_autofree gchar *ref_paired = path_of ("ref-paired.y4m");
  g_autofree gchar *dist_paired = path_of ("dist-paired.y4m");
  g_autofree gchar *aligned_log = path_of ("aligned.json");
  g_autofree gchar *paired_log = path_of ("paired.json");
  g_autofree gchar *args = NULL, *header = NULL, *dist_header = NULL;
  g_autofree gchar *ref_ranges = NULL, *dist_ranges = NULL, *offsets = NULL;
  g_autoptr (GPtrArray) ref_frames = NULL;
  g_autoptr (GPtrArray) dist_frames = NULL;
  g_autoptr (GArray) shown = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) pair_ref = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) pair_dist = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *alignment;
  Result r;

  args = g_strdup_printf ("-f lavfi -i testsrc2=size=%ux%u:rate=25 "
      "-frames:v %u -pix_fmt yuv420p \"%s\"", W, H, N_REF, ref);
  g_assert_true (ffmpeg (args));
  ref_frames = read_y4m (ref, &header);
  g_assert_cmpuint (ref_frames->len, ==, N_REF);

  /* The chain: from reference frame 37 on, 80-82 dropped, 120 shown
   * three times. */
  for (guint f = 37; f < N_REF; f++) {
    if (f >= 80 && f <= 82)
      continue;
    g_array_append_val (shown, f);
    if (f == 120) {
      g_array_append_val (shown, f);
      g_array_append_val (shown, f);
    }
  }
  write_y4m_frames (chain, header, ref_frames, shown);
  g_clear_pointer (&args, g_free);
  args = g_strdup_printf ("-i \"%s\" -c:v libx264 -preset ultrafast "
      "-crf 30 \"%s\"", chain, mkv);
  g_assert_true (ffmpeg (args));
  g_clear_pointer (&args, g_free);
  args = g_strdup_printf ("-i \"%s\" -fps_mode passthrough "
      "-f yuv4mpegpipe \"%s\"", mkv, dist);
  g_assert_true (ffmpeg (args));
  dist_frames = read_y4m (dist, &dist_header);
  g_assert_cmpuint (dist_frames->len, ==, shown->len);

  /* The right pairs: each reference frame shown against the first
   * distorted frame that shows it. */
  for (guint j = 0; j < shown->len; j++) {
    guint f = g_array_index (shown, guint, j);
    if (j > 0 && g_array_index (shown, guint, j - 1) == f)
      continue;
    g_array_append_val (pair_ref, f);
    g_array_append_val (pair_dist, j);
  }
  write_y4m_frames (ref_paired, header, ref_frames, pair_ref);
  write_y4m_frames (dist_paired, dist_header, dist_frames, pair_dist);

  r = run_score ("-r", ref_paired, "-d", dist_paired, "--feature", "psnr",
      "--feature", "float_ssim", "--feature", "ciede", "--json", "-o",
      paired_log, NULL);
  g_assert_true (exited_with (&r, 0));
  result_clear (&r);
  r = run_score ("-r", ref, "-d", dist, "--align", "--align_window", "60",
      "--feature", "psnr", "--feature", "float_ssim", "--feature", "ciede",
      "--json", "-o", aligned_log, NULL);
  g_assert_true (exited_with (&r, 0));
  /* The summary on stderr. */
  g_assert_nonnull (strstr (r.err, "aligned by content: 110 pairs"));
  g_assert_nonnull (strstr (r.err, "3 dropped"));
  g_assert_nonnull (strstr (r.err, "2 repeated"));
  result_clear (&r);

  assert_same_frames (aligned_log, paired_log, pair_ref->len);

  g_assert_true (json_parser_load_from_file (parser, aligned_log, NULL));
  alignment = json_object_get_object_member (json_node_get_object
      (json_parser_get_root (parser)), "alignment");
  g_assert_nonnull (alignment);
  g_assert_cmpint (json_object_get_int_member (alignment, "pairs"), ==,
      pair_ref->len);
  /* The offset before and after each change: 37 from the start, 40 from
   * the first frame after the drop (distorted 43 shows reference 83), 38
   * from the second repeat of reference 120 (distorted 82). */
  offsets = offsets_of (alignment);
  g_assert_cmpstr (offsets, ==,
      "locked@0:37 offset-changed@43:40 offset-changed@82:38");
  ref_ranges = ranges_of (alignment, "reference_unmatched");
  g_assert_cmpstr (ref_ranges, ==, "0-36:not-locked 80-82:dropped");
  dist_ranges = ranges_of (alignment, "distorted_unmatched");
  g_assert_cmpstr (dist_ranges, ==, "81-82:repeated");

  /* XML says it as a sentence. */
  {
    g_autofree gchar *xml = path_of ("aligned.xml");
    g_autofree gchar *text = NULL;

    r = run_score ("-r", ref, "-d", dist, "--align", "--align_window", "60",
        "-q", "--xml", "-o", xml, NULL);
    g_assert_true (exited_with (&r, 0));
    result_clear (&r);
    g_assert_true (g_file_get_contents (xml, &text, NULL, NULL));
    g_assert_nonnull (strstr (text, " alignment=\"aligned by content: 110 "
            "pairs; offset +37 from distorted frame 0; offset +40 from "
            "distorted frame 43; offset +38 from distorted frame 82; "
            "reference frames unscored: 37 not-locked, 3 dropped"));
  }
}

/* A distorted at twice the reference's rate (each frame twice): every
 * second frame scored, equal to the same rate; 25 against 30 refused with
 * the fix. */
static void
test_frame_rates (void)
{
  g_autofree gchar *ref = path_of ("rate-ref.y4m");
  g_autofree gchar *fast = path_of ("rate-50.y4m");
  g_autofree gchar *odd = path_of ("rate-30.y4m");
  g_autofree gchar *log_same = path_of ("rate-same.json");
  g_autofree gchar *log_fast = path_of ("rate-fast.json");
  g_autofree gchar *header = NULL, *fast_header = NULL, *a = NULL, *b = NULL;
  g_autofree gchar *args = NULL;
  g_autoptr (GPtrArray) frames = NULL;
  g_autoptr (GArray) doubled = g_array_new (FALSE, FALSE, sizeof (guint));
  gchar *frames_a, *frames_b;
  Result r;

  args = g_strdup_printf ("-f lavfi -i testsrc2=size=%ux%u:rate=25 "
      "-frames:v 10 -pix_fmt yuv420p \"%s\"", W, H, ref);
  g_assert_true (ffmpeg (args));
  frames = read_y4m (ref, &header);
  for (guint f = 0; f < frames->len; f++) {
    g_array_append_val (doubled, f);
    g_array_append_val (doubled, f);
  }
  g_assert_nonnull (strstr (header, " F25:1 "));
  fast_header = g_strdup (header);
  memcpy (strstr (fast_header, " F25:1 "), " F50:1 ", 7);
  write_y4m_frames (fast, fast_header, frames, doubled);

  r = run_score ("-r", ref, "-d", ref, "--json", "-o", log_same, NULL);
  g_assert_true (exited_with (&r, 0));
  result_clear (&r);
  r = run_score ("-r", ref, "-d", fast, "--json", "-o", log_fast, NULL);
  g_assert_true (exited_with (&r, 0));
  g_assert_nonnull (strstr (r.err, "frame rates differ"));
  g_assert_nonnull (strstr (r.err, "every second frame of the distorted"));
  result_clear (&r);
  g_assert_true (g_file_get_contents (log_same, &a, NULL, NULL));
  g_assert_true (g_file_get_contents (log_fast, &b, NULL, NULL));
  frames_a = strstr (a, "\"frames\"");
  frames_b = strstr (b, "\"frames\"");
  g_assert_nonnull (frames_a);
  g_assert_cmpstr (frames_a, ==, frames_b);

  memcpy (strstr (fast_header, " F50:1 "), " F30:1 ", 7);
  write_y4m_frames (odd, fast_header, frames, doubled);
  {
    const gchar *needles[] = { "frame rates differ", "25 fps", "30 fps",
      "fps=25/1", NULL
    };
    expect_error (run_score ("-r", ref, "-d", odd, NULL), needles);
  }
  {
    const gchar *needles[] = { "--align_window is for --align", NULL };
    expect_error (run_score ("-r", ref, "-d", ref, "--align_window", "9",
            NULL), needles);
  }
  {
    const gchar *needles[] = { "--align reads its inputs twice",
      "no regular file", NULL
    };
    expect_error (run_score ("-r", ref, "-d", "/dev/stdin", "--align",
            NULL), needles);
  }
}

/* Several -d, each aligned on its own against the one reference (read
 * once): one starting 23 frames late with frames 40-44 dropped, one at
 * twice the rate (every second frame scored) from frame 0. Each log
 * equals the log of a run with that -d alone. */
static void
test_several (void)
{
  g_autofree gchar *ref = path_of ("several-ref.y4m");
  g_autofree gchar *late = path_of ("late.y4m");
  g_autofree gchar *fast = path_of ("fast.y4m");
  g_autofree gchar *pattern = path_of ("several-%s.json");
  g_autofree gchar *header = NULL, *fast_header = NULL, *args = NULL;
  g_autoptr (GPtrArray) frames = NULL;
  g_autoptr (GArray) shown = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) doubled = g_array_new (FALSE, FALSE, sizeof (guint));
  const gchar *labels[] = { "late", "fast" };
  const gchar *dists[] = { late, fast };
  Result r;

  args = g_strdup_printf ("-f lavfi -i testsrc2=size=%ux%u:rate=25 "
      "-frames:v 90 -pix_fmt yuv420p \"%s\"", W, H, ref);
  g_assert_true (ffmpeg (args));
  frames = read_y4m (ref, &header);
  for (guint f = 23; f < frames->len; f++) {
    if (f < 40 || f > 44)
      g_array_append_val (shown, f);
  }
  write_y4m_frames (late, header, frames, shown);
  for (guint f = 0; f < frames->len; f++) {
    g_array_append_val (doubled, f);
    g_array_append_val (doubled, f);
  }
  fast_header = g_strdup (header);
  memcpy (strstr (fast_header, " F25:1 "), " F50:1 ", 7);
  write_y4m_frames (fast, fast_header, frames, doubled);

  r = run_score ("-r", ref, "-d", late, "-d", fast, "--align",
      "--align_window", "40", "--no_prediction", "--feature", "psnr",
      "--json", "-o", pattern, NULL);
  g_assert_true (exited_with (&r, 0));
  g_assert_nonnull (strstr (r.err, "late.y4m: aligned by content"));
  g_assert_nonnull (strstr (r.err, "fast.y4m: aligned by content"));
  g_assert_nonnull (strstr (r.err, "fast.y4m: frame rates differ"));
  g_assert_nonnull (strstr (r.err, "every second frame of the distorted"));
  result_clear (&r);
  for (guint i = 0; i < G_N_ELEMENTS (dists); i++) {
    g_autofree gchar *name = g_strdup_printf ("several-%s.json", labels[i]);
    g_autofree gchar *both = path_of (name);
    g_autofree gchar *alone = path_of ("alone.json");
    g_autofree gchar *a = NULL, *b = NULL;

    r = run_score ("-r", ref, "-d", dists[i], "--align", "--align_window",
        "40", "--no_prediction", "--feature", "psnr", "--json", "-o", alone,
        NULL);
    g_assert_true (exited_with (&r, 0));
    result_clear (&r);
    g_assert_true (g_file_get_contents (both, &a, NULL, NULL));
    g_assert_true (g_file_get_contents (alone, &b, NULL, NULL));
    g_assert_nonnull (strstr (a, "\"alignment\""));
    g_assert_cmpstr (strstr (a, "\"alignment\""), ==,
        strstr (b, "\"alignment\""));
  }
}

static gboolean
have_x264 (void)
{
  g_autofree gchar *out = NULL;
  gint status = 0;

  return g_spawn_command_line_sync ("ffmpeg -hide_banner -encoders", &out,
      NULL, &status, NULL) && g_spawn_check_wait_status (status, NULL) &&
      strstr (out, "libx264");
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  if (!have_x264 ()) {
    g_printerr ("skipped: needs ffmpeg with libx264\n");
    return 77;
  }
  tmpdir = g_dir_make_tmp ("vh-cli-align-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);
  g_test_add_func ("/cli-align/x264-chain", test_align_x264_chain);
  g_test_add_func ("/cli-align/frame-rates", test_frame_rates);
  g_test_add_func ("/cli-align/several", test_several);
  ret = g_test_run ();
  {
    GDir *dir = g_dir_open (tmpdir, 0, NULL);
    const gchar *name;
    while (dir && (name = g_dir_read_name (dir))) {
      g_autofree gchar *path = g_build_filename (tmpdir, name, NULL);
      g_remove (path);
    }
    if (dir)
      g_dir_close (dir);
    g_rmdir (tmpdir);
    g_free (tmpdir);
  }
  return ret;
}
