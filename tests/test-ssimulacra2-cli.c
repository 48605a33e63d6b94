/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* vmafhip-score --feature ssimulacra2 on the backend VH_SCORE_BACKEND
 * names (ssimulacra2-cli: auto; ssimulacra2-gpu: hip, skipped without a
 * GPU) against libjxl's tool's values (tests/data/ssimulacra2/
 * expected.tsv, whole frames), and every frame equal to --backend cpu's. */

#include "cli-test.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

/* libjxl's value against ours, printed with 6 decimals. */
#define SSIMU2_TOLERANCE 1e-4

static gdouble
frame_value (JsonArray * frames, guint i)
{
  JsonObject *f = json_array_get_object_element (frames, i);
  JsonObject *m = json_object_get_object_member (f, "metrics");

  return json_object_get_double_member (m, "ssimulacra2");
}

/* Scores @pair's first @n frames with @options on @on; the JSON log. */
static gchar *
score (const VhGoldenPair * pair, const gchar * options, guint n,
    const gchar * on)
{
  g_autofree gchar *w = g_strdup_printf ("%u", pair->width);
  g_autofree gchar *h = g_strdup_printf ("%u", pair->height);
  g_autofree gchar *b = g_strdup_printf ("%u", pair->bpc);
  g_autofree gchar *cnt = g_strdup_printf ("%u", n);
  g_autofree gchar *feature = strcmp (options, "-") ?
      g_strdup_printf ("ssimulacra2=%s", options) : g_strdup ("ssimulacra2");
  g_autofree gchar *name = g_strdup_printf ("%s-%s.json", pair->name, on);
  gchar *out = g_build_filename (tmpdir, name, NULL);
  Result r = run_score ("-r", pair->ref_path, "-d", pair->dist_path, "-w", w,
      "-h", h, "-p", "420", "-b", b, "-n", "--feature", feature,
      "--frame_cnt", cnt, "--json", "-o", out, "-q", "--backend", on, NULL);

  if (!exited_with (&r, 0) && !strcmp (on, "hip") &&
      strstr (r.err, "no usable GPU")) {
    g_print ("SKIP: %s", r.err);
    exit (77);
  }
  if (!exited_with (&r, 0))
    g_error ("vmafhip-score --backend %s: %s", on, r.err);
  result_clear (&r);
  return out;
}

static void
test_against_libjxl (void)
{
  g_autofree gchar *path = g_build_filename (VH_SOURCE_ROOT, "tests", "data",
      "ssimulacra2", "expected.tsv", NULL);
  g_autofree gchar *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  gdouble worst = 0.0;
  guint n = 0, missing = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++) {
    g_auto (GStrv) f = NULL;
    g_autofree gchar *ours = NULL;
    g_autofree gchar *cpu = NULL;
    g_autoptr (JsonParser) po = json_parser_new ();
    g_autoptr (JsonParser) pc = json_parser_new ();
    JsonArray *fo, *fc;
    VhGoldenPair *pair;
    guint frames = 0;

    if (lines[i][0] == '#' || lines[i][0] == '\0')
      continue;
    f = g_strsplit (lines[i], "\t", -1);
    /* Crops need files of their own: test-ssimulacra2 covers them. */
    if (strcmp (f[1], "-") != 0 || strcmp (f[3], "0") != 0)
      continue;
    /* The rows of this pair and options, frames 0, 1, ... */
    while (lines[i + frames]) {
      g_auto (GStrv) g = g_strsplit (lines[i + frames], "\t", -1);
      if (g_strv_length (g) != 5 || strcmp (g[0], f[0]) ||
          strcmp (g[1], f[1]) || strcmp (g[2], f[2]))
        break;
      frames++;
    }
    pair = vh_golden_pair_find (pairs, f[0]);
    /* The extended golden set (../shared) is not everywhere: the GPU
     * machine has the in-tree clips only. */
    if (!pair) {
      g_test_message ("%s: its clips are not here, not checked", f[0]);
      missing++;
      continue;
    }
    ours = score (pair, f[2], frames, backend);
    cpu = score (pair, f[2], frames, "cpu");
    fo = load_frames (po, ours);
    fc = load_frames (pc, cpu);
    g_assert_cmpuint (json_array_get_length (fo), ==, frames);
    for (guint k = 0; k < frames; k++) {
      g_auto (GStrv) g = g_strsplit (lines[i + k], "\t", -1);
      const gdouble want = g_ascii_strtod (g[4], NULL);
      const gdouble got = frame_value (fo, k);

      g_assert_cmpfloat (got, ==, frame_value (fc, k));
      if (fabs (got - want) > SSIMU2_TOLERANCE)
        g_error ("%s %s frame %u on %s: %.6f, libjxl %.8f", f[0], f[2], k,
            backend, got, want);
      worst = MAX (worst, fabs (got - want));
      n++;
    }
    g_remove (ours);
    g_remove (cpu);
  }
  if (n == 0) {
    g_test_skip ("none of the golden clips of expected.tsv is here");
    return;
  }
  /* every pair checked where the golden set is whole */
  if (missing == 0)
    g_assert_cmpuint (n, >=, 10);
  g_test_message ("%u frames on %s, largest |ours - libjxl| %.3g", n,
      backend, worst);
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("VH_SCORE_BACKEND"))
    backend = g_getenv ("VH_SCORE_BACKEND");
  tmpdir = g_dir_make_tmp ("vh-ssimu2-cli-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);
  g_test_add_func ("/ssimulacra2-cli/against-libjxl", test_against_libjxl);
  ret = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return ret;
}
