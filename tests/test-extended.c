/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* The extended parity set (tests/data/extended): every case of cases.tsv is
 * scored by vmafhip-score with the command line libvmaf's log was made
 * with, and every per-frame and pooled value of that log must be in ours,
 * equal within 1e-4 (null where libvmaf wrote null). */

#include "vh-test.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#define TOLERANCE 1e-4

typedef struct
{
  gchar *name;
  gchar **argv;                 /* vmafhip-score's arguments, no program */
  gchar *log;
} Case;

static gchar *datadir;
static gchar *tmpdir;

static void
case_free (gpointer data)
{
  Case *c = data;

  g_free (c->name);
  g_strfreev (c->argv);
  g_free (c->log);
  g_free (c);
}

/* cases.tsv: name, ref, dist, width, height, pixfmt, bitdepth, log,
 * options (as given to libvmaf's tool, split on spaces). */
static GPtrArray *
load_cases (void)
{
  GPtrArray *cases = g_ptr_array_new_with_free_func (case_free);
  gchar *path = g_build_filename (datadir, "cases.tsv", NULL);
  gchar *text = NULL;
  gchar **lines;
  GError *error = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 1; lines[i]; i++) {
    gchar **f;
    GPtrArray *argv;
    Case *c;

    if (!*lines[i] || lines[i][0] == '#')
      continue;
    f = g_strsplit (lines[i], "\t", -1);
    g_assert_cmpuint (g_strv_length (f), ==, 9);
    c = g_new0 (Case, 1);
    c->name = g_strdup (f[0]);
    c->log = g_build_filename (datadir, f[7], NULL);
    argv = g_ptr_array_new ();
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
    {
      gchar **opts = g_strsplit (f[8], " ", -1);
      for (guint j = 0; opts[j]; j++)
        if (*opts[j])
          g_ptr_array_add (argv, g_strdup (opts[j]));
      g_strfreev (opts);
    }
    g_ptr_array_add (argv, NULL);
    c->argv = (gchar **) g_ptr_array_free (argv, FALSE);
    g_ptr_array_add (cases, c);
    g_strfreev (f);
  }
  g_strfreev (lines);
  g_free (text);
  g_free (path);
  return cases;
}

static JsonObject *
load_json (JsonParser * parser, const gchar * path)
{
  GError *error = NULL;

  if (!json_parser_load_from_file (parser, path, &error))
    g_error ("%s: %s", path, error->message);
  return json_node_get_object (json_parser_get_root (parser));
}

/* The members of @got (ours) in the order of @want (libvmaf's): libvmaf's
 * tools and scripts read logs by position too. */
static void
compare_order (const gchar * what, JsonObject * want, JsonObject * got)
{
  GList *w = json_object_get_members (want);
  GList *g = json_object_get_members (got);
  GString *ws = g_string_new (NULL), *gs = g_string_new (NULL);

  for (GList * l = w; l; l = l->next)
    g_string_append_printf (ws, " %s", (const gchar *) l->data);
  for (GList * l = g; l; l = l->next)
    g_string_append_printf (gs, " %s", (const gchar *) l->data);
  if (strcmp (ws->str, gs->str))
    g_error ("%s: keys in another order than libvmaf's:\n  ours:   %s\n"
        "  libvmaf:%s", what, gs->str, ws->str);
  g_string_free (ws, TRUE);
  g_string_free (gs, TRUE);
  g_list_free (w);
  g_list_free (g);
}

/* Compares every member of @want (libvmaf's) with @got (ours). */
static void
compare_members (const gchar * what, JsonObject * want, JsonObject * got,
    gdouble * maxdiff, guint * n_values)
{
  GList *names = json_object_get_members (want);

  for (GList * l = names; l; l = l->next) {
    const gchar *name = l->data;
    JsonNode *w = json_object_get_member (want, name);
    JsonNode *g = json_object_get_member (got, name);

    if (!g)
      g_error ("%s: '%s' is in libvmaf's log, not in ours", what, name);
    (*n_values)++;
    if (JSON_NODE_HOLDS_NULL (w) || JSON_NODE_HOLDS_NULL (g)) {
      if (!JSON_NODE_HOLDS_NULL (w) || !JSON_NODE_HOLDS_NULL (g))
        g_error ("%s: '%s' is null in one log only", what, name);
      continue;
    }
    {
      gdouble d = fabs (json_node_get_double (w) - json_node_get_double (g));
      if (!(d <= TOLERANCE))
        g_error ("%s: '%s' is %.6f, libvmaf's %.6f", what, name,
            json_node_get_double (g), json_node_get_double (w));
      *maxdiff = MAX (*maxdiff, d);
    }
  }
  g_list_free (names);
}

static void
check_case (gconstpointer data)
{
  const Case *c = data;
  gchar *out = g_build_filename (tmpdir, "out.json", NULL);
  GPtrArray *argv = g_ptr_array_new ();
  JsonParser *pw = json_parser_new (), *pg = json_parser_new ();
  JsonObject *want, *got, *pooled_w, *pooled_g;
  JsonArray *fw, *fg;
  gchar *stdout_text = NULL, *stderr_text = NULL;
  gint status = 0;
  GError *error = NULL;
  gdouble maxdiff = 0;
  guint n_values = 0;
  GList *methods;

  g_ptr_array_add (argv, (gpointer) g_getenv ("VH_SCORE"));
  for (guint i = 0; c->argv[i]; i++)
    g_ptr_array_add (argv, c->argv[i]);
  g_ptr_array_add (argv, (gpointer) "--json");
  g_ptr_array_add (argv, (gpointer) "-o");
  g_ptr_array_add (argv, out);
  g_ptr_array_add (argv, (gpointer) "-q");
  g_ptr_array_add (argv, NULL);
  /* In the data folder, where model paths in the options are relative to,
   * as for the commands in its README. */
  g_assert_true (g_spawn_sync (datadir, (gchar **) argv->pdata, NULL, 0,
          NULL, NULL, &stdout_text, &stderr_text, &status, &error));
  g_assert_no_error (error);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    g_error ("%s: vmafhip-score failed: %s", c->name, stderr_text);

  want = load_json (pw, c->log);
  got = load_json (pg, out);
  fw = json_object_get_array_member (want, "frames");
  fg = json_object_get_array_member (got, "frames");
  g_assert_cmpuint (json_array_get_length (fg), ==,
      json_array_get_length (fw));
  for (guint f = 0; f < json_array_get_length (fw); f++) {
    gchar *what = g_strdup_printf ("%s frame %u", c->name, f);
    JsonObject *mw =
        json_object_get_object_member (json_array_get_object_element (fw, f),
        "metrics");
    JsonObject *mg =
        json_object_get_object_member (json_array_get_object_element (fg, f),
        "metrics");
    compare_members (what, mw, mg, &maxdiff, &n_values);
    compare_order (what, mw, mg);
    g_free (what);
  }

  pooled_w = json_object_get_object_member (want, "pooled_metrics");
  pooled_g = json_object_get_object_member (got, "pooled_metrics");
  methods = json_object_get_members (pooled_w);
  for (GList * l = methods; l; l = l->next) {
    gchar *what = g_strdup_printf ("%s pooled %s", c->name,
        (const gchar *) l->data);
    if (!json_object_has_member (pooled_g, l->data))
      g_error ("%s: missing from our log", what);
    compare_members (what, json_object_get_object_member (pooled_w, l->data),
        json_object_get_object_member (pooled_g, l->data), &maxdiff,
        &n_values);
    compare_order (what, json_object_get_object_member (pooled_w, l->data),
        json_object_get_object_member (pooled_g, l->data));
    g_free (what);
  }
  g_list_free (methods);
  g_test_message ("%s: %u values, max |ours - libvmaf| %.3g", c->name,
      n_values, maxdiff);

  g_object_unref (pw);
  g_object_unref (pg);
  g_ptr_array_free (argv, TRUE);
  g_free (stdout_text);
  g_free (stderr_text);
  g_remove (out);
  g_free (out);
}

typedef struct
{
  const gchar *feature;
  const gchar *geometry[8];     /* -w W -h H -p P -b B */
  const gchar *message;         /* what the error must say */
} Refusal;

/* Where libvmaf refuses, or has no defined value, vmafhip stops with an
 * error that says why. */
static const Refusal refusals[] = {
  {"psnr_hvs", {"-w", "31", "-h", "23", "-p", "444", "-b", "16"},
      "psnr_hvs: unsupported bit depth 16"},
  {"psnr_hvs", {"-w", "34", "-h", "20", "-p", "400", "-b", "8"},
      "psnr_hvs: needs chroma planes"},
  {"ciede", {"-w", "34", "-h", "20", "-p", "400", "-b", "8"},
      "ciede: needs chroma planes"},
  {"ciede", {"-w", "34", "-h", "19", "-p", "420", "-b", "8"},
      "ciede: 4:2:0 with an odd height"},
  {"float_ansnr", {"-w", "2", "-h", "2", "-p", "444", "-b", "8"},
      "at least 3x3"},
  /* SpEED needs one 5x5 block after decimating by 16 (libvmaf crashes). */
  {"speed_chroma", {"-w", "31", "-h", "23", "-p", "444", "-b", "16"},
      "too small for SpEED"},
  {"speed_temporal", {"-w", "31", "-h", "23", "-p", "444", "-b", "16"},
      "too small for SpEED"},
  {"speed_chroma", {"-w", "34", "-h", "20", "-p", "400", "-b", "8"},
      "speed_chroma needs chroma planes"},
  {"speed_chroma=speed_kernelscale=0.7",
        {"-w", "31", "-h", "23", "-p", "444", "-b", "16"},
      "speed_kernelscale 0.7 is not one of the scales"},
  {"speed_temporal=speed_prescale_method=area",
        {"-w", "31", "-h", "23", "-p", "444", "-b", "16"},
      "'area' is not one of nearest, bilinear, bicubic, lanczos4"},
};

static void
check_refusal (gconstpointer data)
{
  const Refusal *r = data;
  gchar *clip = g_build_filename (datadir, "e16_444_31x23_ref.yuv", NULL);
  gchar *out = g_build_filename (tmpdir, "refused.json", NULL);
  /* 21 arguments and the NULL that ends them. */
  const gchar *argv[22] = { g_getenv ("VH_SCORE"), "-r", clip, "-d", clip };
  gchar *stderr_text = NULL;
  gint status = 0, n = 5;
  GError *error = NULL;

  for (guint i = 0; i < 8; i++)
    argv[n++] = r->geometry[i];
  argv[n++] = "--feature";
  argv[n++] = r->feature;
  argv[n++] = "--no_prediction";
  argv[n++] = "--json";
  argv[n++] = "-o";
  argv[n++] = out;
  argv[n++] = "-q";
  g_assert_true (g_spawn_sync (NULL, (gchar **) argv, NULL,
          G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &stderr_text,
          &status, &error));
  g_assert_no_error (error);
  g_assert_false (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  if (!strstr (stderr_text, r->message))
    g_error ("%s: expected an error saying '%s', got: %s", r->feature,
        r->message, stderr_text);
  g_remove (out);
  g_free (out);
  g_free (clip);
  g_free (stderr_text);
}

static gchar *
refusal_name (gconstpointer row, guint index)
{
  return g_strdup_printf ("%u-%s", index, ((const Refusal *) row)->feature);
}

int
main (int argc, char **argv)
{
  GPtrArray *cases;
  gint ret;

  g_test_init (&argc, &argv, NULL);
  datadir = g_strdup (g_getenv ("VH_EXTENDED_DIR"));
  g_assert_nonnull (datadir);
  g_assert_nonnull (g_getenv ("VH_SCORE"));
  tmpdir = g_dir_make_tmp ("vh-extended-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);

  cases = load_cases ();
  for (guint i = 0; i < cases->len; i++) {
    Case *c = g_ptr_array_index (cases, i);
    gchar *path = g_strdup_printf ("/extended/%s", c->name);
    g_test_add_data_func (path, c, check_case);
    g_free (path);
  }
  VH_TEST_ADD_CASES ("/extended/refused", refusals, refusal_name,
      check_refusal);
  ret = g_test_run ();
  g_ptr_array_free (cases, TRUE);
  g_rmdir (tmpdir);
  g_free (tmpdir);
  g_free (datadir);
  return ret;
}
