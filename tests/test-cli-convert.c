/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* Format normalisation (src/convert.c, vmafhip-score --convert
 * reference-format): the arithmetic's bounds, and the CLI scoring exactly
 * what the element's convert=reference-format scores: 8-bit distorted
 * against a 10-bit reference and the other way round, 4:4:4 against
 * 4:2:0. */

#include "cli-test.h"
#include "convert.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#define W 160
#define H 96
#define N_FRAMES 5

/* A moving pattern with fine detail, @bpc bits, frame @t; @blur softens
 * it (a distorted). Sample (x, y) of plane @p. */
static guint
pattern (guint p, guint x, guint y, guint t, guint bpc, gboolean blur)
{
  gdouble v = 0.5 + 0.3 * sin ((x + 2 * t) * (blur ? 0.11 : 0.23) + p) *
      cos (y * 0.19) + (((x + t) / 7 + y / 5) % 2 ? 0.1 : -0.1) +
      (blur ? 0.0 : 0.03 * sin (x * 1.7 + y * 2.3 + t));

  return (guint) CLAMP (v * ((1 << bpc) - 1), 0, (1 << bpc) - 1);
}

/* Raw frames (for rawvideoparse) and the same as Y4M, 4:2:0 or (@y444)
 * 4:4:4. */
static void
write_clip_layout (const gchar * name, guint bpc, gboolean blur,
    gboolean y444, gchar ** raw_path, gchar ** y4m_path)
{
  GString *raw = g_string_new (NULL);
  GString *y4m = g_string_new (NULL);
  g_autofree gchar *raw_name = g_strdup_printf ("%s.yuv", name);
  g_autofree gchar *y4m_name = g_strdup_printf ("%s.y4m", name);

  g_string_append_printf (y4m, "YUV4MPEG2 W%u H%u F25:1 Ip A1:1 C%s%s\n",
      W, H, y444 ? "444" : "420", bpc == 8 ? (y444 ? "" : "jpeg") :
      bpc == 10 ? "p10" : "p12");
  for (guint t = 0; t < N_FRAMES; t++) {
    gsize at = raw->len;

    for (guint p = 0; p < 3; p++) {
      guint w = p && !y444 ? W / 2 : W, h = p && !y444 ? H / 2 : H;

      for (guint y = 0; y < h; y++)
        for (guint x = 0; x < w; x++) {
          guint v = pattern (p, x, y, t, bpc, blur);

          g_string_append_c (raw, (gchar) (v & 0xff));
          if (bpc > 8)
            g_string_append_c (raw, (gchar) (v >> 8));
        }
    }
    g_string_append (y4m, "FRAME\n");
    g_string_append_len (y4m, raw->str + at, raw->len - at);
  }
  *raw_path = g_build_filename (tmpdir, raw_name, NULL);
  *y4m_path = g_build_filename (tmpdir, y4m_name, NULL);
  g_assert_true (g_file_set_contents (*raw_path, raw->str, raw->len, NULL));
  g_assert_true (g_file_set_contents (*y4m_path, y4m->str, y4m->len, NULL));
  g_string_free (raw, TRUE);
  g_string_free (y4m, TRUE);
}

static void
write_clip (const gchar * name, guint bpc, gboolean blur, gchar ** raw_path,
    gchar ** y4m_path)
{
  write_clip_layout (name, bpc, blur, FALSE, raw_path, y4m_path);
}

/* Every 8-bit value at every place of the 16x16 dither: to 10 bits it
 * lands on v * 257 / 64 or the step above (the dither adds less than one
 * step), 0 and 255 go to 0 and 1023; over the 256 places the dither
 * rounds without bias (its entries spread evenly over a step). Every
 * 10-bit value to 8 bits is its top 8 bits (v >> 2, no dither: what
 * videoconvert gives), and the round trip is within 1 of where it
 * started. */
static void
test_depth_arithmetic (void)
{
  VhPictureInfo info8, info10;
  g_autoptr (VhPicture) in = NULL;
  g_autoptr (VhPicture) up = NULL;
  g_autoptr (VhPicture) back = NULL;
  g_autoptr (VhFormatConverter) to10 = NULL;
  g_autoptr (VhFormatConverter) to8 = NULL;
  gdouble excess = 0.0;

  g_assert_true (vh_picture_info_init (&info8, VH_PIX_FMT_YUV420, 8, 256 *
          16, 16, NULL));
  in = vh_picture_new (&info8);
  for (guint p = 0; p < 3; p++)
    for (guint y = 0; y < in->height[p]; y++)
      for (guint x = 0; x < in->width[p]; x++)
        ((guint8 *) vh_picture_row (in, p, y))[x] = (guint8) (x / 16);
  to10 = vh_format_converter_new (&info8, VH_PIX_FMT_YUV420, 10, NULL);
  up = vh_format_converter_convert (to10, in, NULL);
  g_assert_nonnull (up);
  info10 = *vh_format_converter_get_output_info (to10);
  g_assert_cmpuint (info10.bpc, ==, 10);
  g_assert_cmpuint (up->info.bpc, ==, 10);
  for (guint y = 0; y < 16; y++)
    for (guint x = 0; x < up->width[0]; x++) {
      guint v = x / 16, low = v * 257 / 64;
      guint got = ((const guint16 *) vh_picture_row (up, 0, y))[x];

      g_assert_cmpuint (got, >=, low);
      g_assert_cmpuint (got, <=, MIN (low + 1, 1023));
      if (v == 0 || v == 255)
        g_assert_cmpuint (got, ==, v == 0 ? 0 : 1023);
      excess += (got * 64.0 - v * 257.0);
    }
  /* in 16-bit units, of a step of 64 */
  excess /= 16.0 * up->width[0];
  g_assert_cmpfloat (fabs (excess), <, 1.0);

  to8 = vh_format_converter_new (&info10, VH_PIX_FMT_YUV420, 8, NULL);
  back = vh_format_converter_convert (to8, up, NULL);
  for (guint p = 0; p < 3; p++)
    for (guint y = 0; y < back->height[p]; y++)
      for (guint x = 0; x < back->width[p]; x++)
        g_assert_cmpint (ABS (((const guint8 *) vh_picture_row (back, p,
                        y))[x] - ((const guint8 *) vh_picture_row (in, p,
                        y))[x]), <=, 1);
  for (guint y = 0; y < up->height[0]; y++)
    for (guint x = 0; x < up->width[0]; x++)
      ((guint16 *) vh_picture_row (up, 0, y))[x] = (guint16) ((x + y) % 1024);
  g_clear_pointer (&back, vh_picture_unref);
  back = vh_format_converter_convert (to8, up, NULL);
  for (guint y = 0; y < back->height[0]; y++)
    for (guint x = 0; x < back->width[0]; x++)
      g_assert_cmpuint (((const guint8 *) vh_picture_row (back, 0, y))[x],
          ==, ((x + y) % 1024) >> 2);

  /* A luma-only picture gives a luma-only one. */
  vh_picture_drop_chroma (in);
  g_clear_pointer (&up, vh_picture_unref);
  up = vh_format_converter_convert (to10, in, NULL);
  g_assert_true (vh_picture_is_luma_only (up));
}

/* Two results files hold the same per-frame and pooled values (every
 * metric of every frame, exactly). */
static void
assert_same_values (const gchar * a, const gchar * b)
{
  g_autoptr (JsonParser) pa = json_parser_new ();
  g_autoptr (JsonParser) pb = json_parser_new ();
  JsonArray *fa = load_frames (pa, a), *fb = load_frames (pb, b);

  g_assert_cmpuint (json_array_get_length (fa), ==, N_FRAMES);
  g_assert_cmpuint (json_array_get_length (fb), ==, N_FRAMES);
  for (guint f = 0; f < N_FRAMES; f++) {
    JsonObject *ma =
        json_object_get_object_member (json_array_get_object_element (fa, f),
        "metrics");
    JsonObject *mb =
        json_object_get_object_member (json_array_get_object_element (fb, f),
        "metrics");
    g_autoptr (GList) names = json_object_get_members (ma);

    g_assert_nonnull (names);
    g_assert_true (json_object_has_member (ma, "vmaf"));
    for (GList * l = names; l; l = l->next) {
      if (!json_object_has_member (mb, l->data))
        g_error ("frame %u: %s lacks %s", f, b, (const gchar *) l->data);
      if (json_object_get_double_member (ma, l->data) !=
          json_object_get_double_member (mb, l->data))
        g_error ("frame %u %s: %.9f in %s, %.9f in %s", f,
            (const gchar *) l->data, json_object_get_double_member (ma,
                l->data), a, json_object_get_double_member (mb, l->data), b);
    }
  }
}

/* The element (gst-launch-1.0, the build's plugin) with
 * convert=reference-format and vmafhip-score --convert reference-format
 * on the same frames give the same values; skipped where either is not
 * there to run. */
static void
test_cli_equals_element (void)
{
  /* reference depth, distorted depth, distorted 4:4:4 */
  static const guint cases[][3] = {
    {10, 8, 0}, {8, 10, 0}, {12, 10, 0}, {8, 8, 1}, {10, 8, 1}, {10, 10, 1},
  };
  g_autofree gchar *launch = g_find_program_in_path ("gst-launch-1.0");

  if (!launch || !g_getenv ("GST_PLUGIN_PATH_1_0")) {
    g_test_skip ("no gst-launch-1.0 or no plugin directory");
    return;
  }
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++) {
    guint ref_bpc = cases[c][0], dist_bpc = cases[c][1];
    gboolean y444 = cases[c][2];
    g_autofree gchar *ref_raw = NULL, *ref_y4m = NULL;
    g_autofree gchar *dist_raw = NULL, *dist_y4m = NULL;
    g_autofree gchar *element_log = g_build_filename (tmpdir, "element.json",
        NULL);
    g_autofree gchar *cli_log = g_build_filename (tmpdir, "cli.json", NULL);
    g_autofree gchar *pipeline = NULL;
    g_autofree gchar *out = NULL, *err = NULL;
    g_auto (GStrv) argv = NULL;
    const gchar *formats[] = { [8] = "i420",[10] = "i420-10le",
      [12] = "i420-12le"
    };
    const gchar *formats444[] = { [8] = "y444",[10] = "y444-10le",
      [12] = "y444-12le"
    };
    gint status;
    Result r;

    write_clip ("ref", ref_bpc, FALSE, &ref_raw, &ref_y4m);
    write_clip_layout ("dist", dist_bpc, TRUE, y444, &dist_raw, &dist_y4m);
    pipeline = g_strdup_printf ("%s -q filesrc location=%s ! rawvideoparse "
        "width=%u height=%u format=%s framerate=25/1 ! c.ref_sink "
        "filesrc location=%s ! rawvideoparse width=%u height=%u format=%s "
        "framerate=25/1 ! c.dist_sink vmafhipcompare name=c "
        "convert=reference-format features=psnr results-filename=%s ! "
        "fakesink", launch, ref_raw, W, H, formats[ref_bpc], dist_raw, W, H,
        y444 ? formats444[dist_bpc] : formats[dist_bpc], element_log);
    g_assert_true (g_shell_parse_argv (pipeline, NULL, &argv, NULL));
    g_assert_true (g_spawn_sync (NULL, argv, NULL, 0, NULL, NULL, &out,
            &err, &status, NULL));
    if (!g_spawn_check_wait_status (status, NULL)) {
      if (strstr (err, "no element")) {
        g_test_skip ("the element or rawvideoparse is not there");
        return;
      }
      g_error ("gst-launch-1.0: %s", err);
    }
    r = run_score ("-r", ref_y4m, "-d", dist_y4m, "--convert",
        "reference-format", "--feature", "psnr", "--json", "-o", cli_log,
        "-q", NULL);
    if (!exited_with (&r, 0))
      g_error ("vmafhip-score: %s", r.err);
    result_clear (&r);
    assert_same_values (element_log, cli_log);
  }
}

/* Without --convert, depths that differ are refused with the option
 * named; a change of chroma layout is refused with it; a bad value too. */
static void
test_refusals (void)
{
  g_autofree gchar *ref_raw = NULL, *ref_y4m = NULL;
  g_autofree gchar *dist_raw = NULL, *dist_y4m = NULL;
  g_autofree gchar *ref444_raw = NULL, *ref444_y4m = NULL;
  const gchar *hint[] = { "differ", "--convert reference-format", NULL };
  const gchar *layout[] = { "no conversion of 4:2:0 8-bit to 4:4:4 10-bit",
    "never to more samples", NULL
  };
  const gchar *bad[] = { "--convert 'yes'", "reference-format", NULL };

  write_clip ("ref", 10, FALSE, &ref_raw, &ref_y4m);
  write_clip ("dist", 8, TRUE, &dist_raw, &dist_y4m);
  write_clip_layout ("ref444", 10, FALSE, TRUE, &ref444_raw, &ref444_y4m);

  expect_error (run_score ("-r", ref_y4m, "-d", dist_y4m, "-q", NULL), hint);
  expect_error (run_score ("-r", ref444_y4m, "-d", dist_y4m, "--convert",
          "reference-format", "-q", NULL), layout);
  expect_error (run_score ("-r", ref_y4m, "-d", dist_y4m, "--convert", "yes",
          "-q", NULL), bad);
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("vh-cli-convert-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);
  g_test_add_func ("/cli-convert/depth-arithmetic", test_depth_arithmetic);
  g_test_add_func ("/cli-convert/cli-equals-element",
      test_cli_equals_element);
  g_test_add_func ("/cli-convert/refusals", test_refusals);
  ret = g_test_run ();
  {
    const gchar *names[] = { "ref.yuv", "ref.y4m", "dist.yuv", "dist.y4m",
      "ref444.yuv", "ref444.y4m", "element.json", "cli.json", NULL
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
