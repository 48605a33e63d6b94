/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* vmafhip-score --feature ssimulacra2 takes the range from each Y4M
 * header (ffmpeg's XCOLORRANGE=FULL|LIMITED; "C420jpeg" says where chroma
 * is sited, not the range), where its options do not give it: the same
 * frames as Y4M and as raw YUV with the matching options score alike,
 * options win over the header, and each input keeps its own range. */

#include "cli-test.h"

#include <string.h>
#include <glib/gstdio.h>

#define W 64
#define H 48
#define N_FRAMES 2

/* The moving pattern (@distort: one step on), as raw YUV (@y4m_params
 * NULL) or as Y4M with @y4m_params after the colour space tag. */
static gchar *
write_clip (const gchar * name, gboolean distort, const gchar * y4m_params)
{
  gchar *path = g_build_filename (tmpdir, name, NULL);
  GString *s = g_string_new (NULL);

  if (y4m_params)
    g_string_append_printf (s, "YUV4MPEG2 W%u H%u F25:1 Ip A1:1 %s\n", W, H,
        y4m_params);
  for (guint f = 0; f < N_FRAMES; f++) {
    VhPicture *pic = make_moving_frame (W, H, 2 * f + (distort ? 1 : 0));

    if (y4m_params)
      g_string_append (s, "FRAME\n");
    append_picture (s, pic);
    vh_picture_unref (pic);
  }
  g_assert_true (g_file_set_contents (path, s->str, s->len, NULL));
  g_string_free (s, TRUE);
  return path;
}

/* Each frame's ssimulacra2 of @ref against @dist (raw: with -w -h -p -b)
 * with --feature @feature. */
static GArray *
scores (const gchar * ref, const gchar * dist, const gchar * feature)
{
  g_autofree gchar *out = g_build_filename (tmpdir, "log.json", NULL);
  g_autofree gchar *w = g_strdup_printf ("%u", W);
  g_autofree gchar *h = g_strdup_printf ("%u", H);
  g_autoptr (JsonParser) parser = json_parser_new ();
  GArray *values = g_array_new (FALSE, FALSE, sizeof (gdouble));
  gboolean raw = g_str_has_suffix (ref, ".yuv");
  JsonArray *frames;
  Result r;

  if (raw)
    r = run_score ("-r", ref, "-d", dist, "-w", w, "-h", h, "-p", "420",
        "-b", "8", "-n", "--feature", feature, "--json", "-o", out, "-q",
        "--backend", backend, NULL);
  else
    r = run_score ("-r", ref, "-d", dist, "-n", "--feature", feature,
        "--json", "-o", out, "-q", "--backend", backend, NULL);
  if (!exited_with (&r, 0))
    g_error ("vmafhip-score %s %s %s: %s", ref, dist, feature, r.err);
  result_clear (&r);
  frames = load_frames (parser, out);
  g_assert_cmpuint (json_array_get_length (frames), ==, N_FRAMES);
  for (guint i = 0; i < N_FRAMES; i++) {
    JsonObject *m = json_object_get_object_member
        (json_array_get_object_element (frames, i), "metrics");
    gdouble v = json_object_get_double_member (m, "ssimulacra2");

    g_array_append_val (values, v);
  }
  g_remove (out);
  return values;
}

/* Whether @a and @b hold the same values (@same) or differ in every
 * frame (!@same); frees both. */
static void
assert_values (GArray * a, GArray * b, gboolean same, const gchar * what)
{
  for (guint i = 0; i < N_FRAMES; i++) {
    const gdouble x = g_array_index (a, gdouble, i);
    const gdouble y = g_array_index (b, gdouble, i);

    if ((x == y) != same)
      g_error ("%s: frame %u: %.6f and %.6f", what, i, x, y);
  }
  g_array_unref (a);
  g_array_unref (b);
}

static gchar *raw_ref, *raw_dist;

static void
make_raw (void)
{
  if (!raw_ref) {
    raw_ref = write_clip ("ref.yuv", FALSE, NULL);
    raw_dist = write_clip ("dist.yuv", TRUE, NULL);
  }
}

static void
test_y4m_range (void)
{
  g_autofree gchar *ref = write_clip ("full-ref.y4m", FALSE,
      "C420 XCOLORRANGE=FULL");
  g_autofree gchar *dist = write_clip ("full-dist.y4m", TRUE,
      "C420mpeg2 XCOLORRANGE=FULL");
  g_autofree gchar *lref = write_clip ("limited-ref.y4m", FALSE,
      "C420 XCOLORRANGE=LIMITED");
  g_autofree gchar *ldist = write_clip ("limited-dist.y4m", TRUE,
      "C420 XCOLORRANGE=LIMITED");

  make_raw ();
  assert_values (scores (ref, dist, "ssimulacra2"), scores (raw_ref, raw_dist,
          "ssimulacra2=range=full"), TRUE, "XCOLORRANGE=FULL");
  assert_values (scores (ref, dist, "ssimulacra2"), scores (raw_ref, raw_dist,
          "ssimulacra2"), FALSE, "XCOLORRANGE=FULL against raw defaults");
  assert_values (scores (lref, ldist, "ssimulacra2"), scores (raw_ref,
          raw_dist, "ssimulacra2=matrix=bt709:range=limited"), TRUE,
      "XCOLORRANGE=LIMITED");
  /* the matrix is the default's: Y4M has no field for it */
  assert_values (scores (ref, dist, "ssimulacra2=range=full"),
      scores (raw_ref, raw_dist, "ssimulacra2=matrix=bt709:range=full"),
      TRUE, "Y4M's matrix");
  g_remove (ref);
  g_remove (dist);
  g_remove (lref);
  g_remove (ldist);
}

/* "jpeg" in the colour space is chroma siting (the Y4M convention, and
 * ffmpeg's): the range stays limited without XCOLORRANGE. */
static void
test_jpeg_is_siting (void)
{
  g_autofree gchar *ref = write_clip ("jpeg-ref.y4m", FALSE, "C420jpeg");
  g_autofree gchar *dist = write_clip ("jpeg-dist.y4m", TRUE, "C420jpeg");

  make_raw ();
  assert_values (scores (ref, dist, "ssimulacra2"), scores (raw_ref, raw_dist,
          "ssimulacra2=range=limited"), TRUE, "C420jpeg");
  g_remove (ref);
  g_remove (dist);
}

static void
test_options_win (void)
{
  g_autofree gchar *ref = write_clip ("opt-ref.y4m", FALSE,
      "C420 XCOLORRANGE=FULL");
  g_autofree gchar *dist = write_clip ("opt-dist.y4m", TRUE,
      "C420 XCOLORRANGE=FULL");

  make_raw ();
  assert_values (scores (ref, dist, "ssimulacra2=range=limited:"
          "matrix=bt601"), scores (raw_ref, raw_dist,
          "ssimulacra2=matrix=bt601"), TRUE, "options over XCOLORRANGE");
  g_remove (ref);
  g_remove (dist);
}

/* A full-range reference against a limited-range encode: each converted
 * with its own range. */
static void
test_each_input_its_own (void)
{
  g_autofree gchar *ref = write_clip ("own-ref.y4m", FALSE,
      "C420 XCOLORRANGE=FULL");
  g_autofree gchar *dist = write_clip ("own-dist.y4m", TRUE,
      "C420 XCOLORRANGE=LIMITED");

  make_raw ();
  assert_values (scores (ref, dist, "ssimulacra2"), scores (raw_ref, raw_dist,
          "ssimulacra2=range=full:dist_range=limited"), TRUE,
      "FULL against LIMITED");
  assert_values (scores (ref, dist, "ssimulacra2"), scores (raw_ref, raw_dist,
          "ssimulacra2=range=full"), FALSE, "FULL against LIMITED, one range");
  g_remove (ref);
  g_remove (dist);
}

static void
test_bad_range (void)
{
  g_autofree gchar *ref = write_clip ("bad-ref.y4m", FALSE,
      "C420 XCOLORRANGE=PC");
  g_autofree gchar *dist = write_clip ("bad-dist.y4m", TRUE, "C420");
  const gchar *needles[] = { "bad-ref.y4m", "XCOLORRANGE=PC",
    "XCOLORRANGE=FULL or XCOLORRANGE=LIMITED", NULL
  };

  expect_error (run_score ("-r", ref, "-d", dist, "-n", "--feature",
          "ssimulacra2", "-q", NULL), needles);
  g_remove (ref);
  g_remove (dist);
}

/* Unknown and malformed values of its options are refused, naming them. */
static void
test_bad_options (void)
{
  const gchar *bad[][3] = {
    {"ssimulacra2=matrix=smpte240m", "matrix", "smpte240m"},
    {"ssimulacra2=range=nan", "range", "nan"},
    {"ssimulacra2=dist_matrix=NaN", "dist_matrix", "NaN"},
    {"ssimulacra2=dist_range=", "dist_range", ""},
    {"ssimulacra2=colour=bt709", "colour", "options: matrix, range"},
  };

  make_raw ();
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    const gchar *needles[] = { bad[i][1], bad[i][2], NULL };

    expect_error (run_score ("-r", raw_ref, "-d", raw_dist, "-w", "64", "-h",
            "48", "-p", "420", "-b", "8", "-n", "--feature", bad[i][0],
            "-q", NULL), needles);
  }
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("VH_SCORE_BACKEND"))
    backend = g_getenv ("VH_SCORE_BACKEND");
  tmpdir = g_dir_make_tmp ("vh-ssimu2-color-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);
  g_test_add_func ("/ssimulacra2-color-cli/y4m-range", test_y4m_range);
  g_test_add_func ("/ssimulacra2-color-cli/jpeg-is-siting",
      test_jpeg_is_siting);
  g_test_add_func ("/ssimulacra2-color-cli/options-win", test_options_win);
  g_test_add_func ("/ssimulacra2-color-cli/each-input-its-own",
      test_each_input_its_own);
  g_test_add_func ("/ssimulacra2-color-cli/bad-range", test_bad_range);
  g_test_add_func ("/ssimulacra2-color-cli/bad-options", test_bad_options);
  ret = g_test_run ();
  if (raw_ref) {
    g_remove (raw_ref);
    g_remove (raw_dist);
  }
  g_free (raw_ref);
  g_free (raw_dist);
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return ret;
}
