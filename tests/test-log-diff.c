/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* Logs as a drop-in writes them: every case of tests/data/extended/logs.tsv
 * is run through vmafhip-score with the command line libvmaf's tool wrote
 * the committed log with, and the two files must be the same text, byte
 * for byte, but for the version string, the measured speed (fps) and
 * vmafhip's own "dispatch" entry: same metrics, same order, same numbers,
 * same layout (JSON, XML, CSV, SUB), NaN and infinities included.
 * One exception: float_adm divides by x86's reciprocal estimate (rcpps),
 * as libvmaf's does, and its last bits differ between processor makers;
 * in the cases that run float_adm, a number that differs from the log's
 * must be within 1e-6 of it (relative), all else still byte for byte. */

#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>

static gchar *datadir;
static gchar *tmpdir;

/* What may differ: the version, the speed, and the dispatch entry. */
static gchar *
normalise (const gchar * text)
{
  static const gchar *const rules[][2] = {
    {"^  \"version\": \"[^\"]*\",$", "  \"version\": \"\","},
    {"^  \"fps\": [^,]*,$", "  \"fps\": 0,"},
    {"^  \"dispatch\": \"[^\"]*\",\\n", ""},
    {"<VMAF version=\"[^\"]*\">", "<VMAF version=\"\">"},
    {"<fyi fps=\"[^\"]*\"", "<fyi fps=\"\""},
    {" dispatch=\"[^\"]*\"", ""},
  };
  gchar *out = g_strdup (text);

  for (guint i = 0; i < G_N_ELEMENTS (rules); i++) {
    GRegex *re = g_regex_new (rules[i][0], G_REGEX_MULTILINE, 0, NULL);
    gchar *next = g_regex_replace (re, out, -1, 0, rules[i][1], 0, NULL);

    g_assert_nonnull (next);
    g_free (out);
    out = next;
    g_regex_unref (re);
  }
  return out;
}

/* First line where @a and @b differ, for the failure message. */
static gchar *
first_difference (const gchar * a, const gchar * b)
{
  g_auto (GStrv) la = g_strsplit (a, "\n", -1);
  g_auto (GStrv) lb = g_strsplit (b, "\n", -1);

  for (guint i = 0; la[i] || lb[i]; i++) {
    if (!la[i] || !lb[i] || strcmp (la[i], lb[i]))
      return g_strdup_printf ("line %u:\n  libvmaf:  %s\n  vmafhip:  %s",
          i + 1, la[i] ? la[i] : "(end)", lb[i] ? lb[i] : "(end)");
  }
  return g_strdup ("(no difference)");
}

/* Whether @a and @b are the same text but for numbers that are each within
 * a relative 1e-6 (the processor-dependent cases); counts those in @n. */
static gboolean
same_within_rcp (const gchar * a, const gchar * b, guint * n)
{
  GRegex *number = g_regex_new ("-?[0-9]+\\.[0-9]+(?:e[-+]?[0-9]+)?", 0, 0,
      NULL);
  g_auto (GStrv) ta = g_regex_split (number, a, 0);
  g_auto (GStrv) tb = g_regex_split (number, b, 0);
  GMatchInfo *ma = NULL, *mb = NULL;
  gboolean same = g_strv_equal ((const gchar * const *) ta,
      (const gchar * const *) tb);

  *n = 0;
  g_regex_match (number, a, 0, &ma);
  g_regex_match (number, b, 0, &mb);
  while (same && g_match_info_matches (ma) && g_match_info_matches (mb)) {
    g_autofree gchar *sa = g_match_info_fetch (ma, 0);
    g_autofree gchar *sb = g_match_info_fetch (mb, 0);
    gdouble va = g_ascii_strtod (sa, NULL), vb = g_ascii_strtod (sb, NULL);

    if (strcmp (sa, sb)) {
      same = fabs (va - vb) <= 1e-6 * MAX (fabs (va), 1.0);
      (*n)++;
    }
    g_match_info_next (ma, NULL);
    g_match_info_next (mb, NULL);
  }
  same = same && !g_match_info_matches (ma) && !g_match_info_matches (mb);
  g_match_info_free (ma);
  g_match_info_free (mb);
  g_regex_unref (number);
  return same;
}

static void
run_case (gconstpointer data)
{
  const gchar *line = data;
  g_auto (GStrv) f = g_strsplit (line, "\t", -1);
  g_auto (GStrv) opts = NULL;
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree gchar *expected = NULL, *actual = NULL, *out = NULL;
  g_autofree gchar *norm_expected = NULL, *norm_actual = NULL;
  g_autofree gchar *stderr_text = NULL, *log = NULL;
  const gchar *ext;
  GError *error = NULL;
  gint status;

  g_assert_cmpuint (g_strv_length (f), ==, 9);
  log = g_build_filename (datadir, f[7], NULL);
  ext = strrchr (f[7], '.') + 1;
  out = g_build_filename (tmpdir, f[7], NULL);
  g_ptr_array_add (argv, g_strdup (g_getenv ("VH_SCORE")));
  g_ptr_array_add (argv, g_strdup ("-r"));
  g_ptr_array_add (argv, g_build_filename (datadir, f[1], NULL));
  g_ptr_array_add (argv, g_strdup ("-d"));
  g_ptr_array_add (argv, g_build_filename (datadir, f[2], NULL));
  g_ptr_array_add (argv, g_strdup ("-w"));
  g_ptr_array_add (argv, g_strdup (f[3]));
  g_ptr_array_add (argv, g_strdup ("-h"));
  g_ptr_array_add (argv, g_strdup (f[4]));
  g_ptr_array_add (argv, g_strdup ("-p"));
  g_ptr_array_add (argv, g_strdup (f[5]));
  g_ptr_array_add (argv, g_strdup ("-b"));
  g_ptr_array_add (argv, g_strdup (f[6]));
  opts = g_strsplit (f[8], " ", -1);
  for (guint i = 0; opts[i]; i++) {
    if (*opts[i])
      g_ptr_array_add (argv, g_strdup (opts[i]));
  }
  g_ptr_array_add (argv, g_strdup_printf ("--%s", ext));
  g_ptr_array_add (argv, g_strdup ("-o"));
  g_ptr_array_add (argv, g_strdup (out));
  g_ptr_array_add (argv, g_strdup ("-q"));
  g_ptr_array_add (argv, NULL);

  g_assert_true (g_spawn_sync (NULL, (gchar **) argv->pdata, NULL, 0, NULL,
          NULL, NULL, &stderr_text, &status, &error));
  g_assert_no_error (error);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    g_error ("%s: vmafhip-score failed: %s", f[0], stderr_text);

  g_assert_true (g_file_get_contents (log, &expected, NULL, NULL));
  g_assert_true (g_file_get_contents (out, &actual, NULL, NULL));
  norm_expected = normalise (expected);
  norm_actual = normalise (actual);
  if (strcmp (norm_expected, norm_actual)) {
    g_autofree gchar *where = first_difference (norm_expected, norm_actual);
    guint n_rcp = 0;

    if (!strstr (f[8], "float_adm") || !same_within_rcp (norm_expected,
            norm_actual, &n_rcp))
      g_error ("%s: %s differs from libvmaf's log at %s", f[0], f[7], where);
    g_test_message ("%s: %u numbers differ from the log within 1e-6 "
        "(float_adm's reciprocal estimate on this processor), first at %s",
        f[0], n_rcp, where);
  }
  g_unlink (out);
}

int
main (int argc, char **argv)
{
  g_autofree gchar *path = NULL, *text = NULL;
  g_auto (GStrv) lines = NULL;
  gint ret;

  g_test_init (&argc, &argv, NULL);
  datadir = g_strdup (g_getenv ("VH_EXTENDED_DIR"));
  if (!datadir || !g_getenv ("VH_SCORE"))
    g_error ("VH_EXTENDED_DIR and VH_SCORE must be set");
  path = g_build_filename (datadir, "logs.tsv", NULL);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  tmpdir = g_dir_make_tmp ("vmafhip-logs-XXXXXX", NULL);
  for (guint i = 1; lines[i]; i++) {
    gchar *name;

    if (!*lines[i] || lines[i][0] == '#')
      continue;
    name = g_strdup_printf ("/log-diff/%.*s",
        (gint) (strchr (lines[i], '\t') - lines[i]), lines[i]);
    g_test_add_data_func (name, lines[i], run_case);
    g_free (name);
  }
  ret = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);
  g_free (datadir);
  return ret;
}
