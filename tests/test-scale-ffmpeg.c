/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* The scaler against the machine's ffmpeg (scale=W:H:flags=METHOD): noisy
 * pictures made by ffmpeg, scaled by ffmpeg and by src/scale.c, equal
 * sample for sample (Debian 12's ffmpeg 5.1 on x86). Skipped without
 * ffmpeg. */

#include "scale.h"
#include "vh-test.h"
#include "video-reader.h"

#include <glib/gstdio.h>
#include <stdlib.h>

static gchar *tmpdir;

static gboolean
ffmpeg (const gchar * args)
{
  g_autofree gchar *cmd = g_strdup_printf ("ffmpeg -hide_banner -loglevel "
      "error -nostdin -y %s", args);
  gint status;

  return g_spawn_command_line_sync (cmd, NULL, NULL, &status, NULL) &&
      g_spawn_check_wait_status (status, NULL);
}

typedef struct
{
  const gchar *method;
  guint in_w, in_h, out_w, out_h;
  const gchar *pix_fmt;
} Case;

/* How many samples differ (printing the first few). */
static guint64
compare (const Case * c)
{
  g_autofree gchar *in = g_build_filename (tmpdir, "in.y4m", NULL);
  g_autofree gchar *out = g_build_filename (tmpdir, "out.y4m", NULL);
  g_autofree gchar *make = g_strdup_printf ("-f lavfi -i testsrc2=size=%ux%u:"
      "rate=25,noise=alls=40:allf=t -frames:v 2 -pix_fmt %s -strict -1 %s",
      c->in_w, c->in_h, c->pix_fmt, in);
  g_autofree gchar *scale = g_strdup_printf ("-i %s -vf scale=%u:%u:flags=%s "
      "-pix_fmt %s -strict -1 %s", in, c->out_w, c->out_h, c->method,
      c->pix_fmt, out);
  g_autoptr (VhVideoReader) a = NULL;
  g_autoptr (VhVideoReader) b = NULL;
  g_autoptr (VhScaler) scaler = NULL;
  VhScaleMethod method;
  guint64 differ = 0;
  GError *error = NULL;

  g_assert_true (ffmpeg (make));
  g_assert_true (ffmpeg (scale));
  a = vh_video_reader_open (in, NULL, &error);
  g_assert_no_error (error);
  b = vh_video_reader_open (out, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (vh_scale_method_from_string (c->method, &method));
  scaler = vh_scaler_new (method, vh_video_reader_get_info (a),
      vh_video_reader_get_info (b), &error);
  g_assert_no_error (error);
  for (guint f = 0; f < 2; f++) {
    g_autoptr (VhPicture) pa = vh_video_reader_read (a, &error);
    g_autoptr (VhPicture) pb = vh_video_reader_read (b, &error);
    g_autoptr (VhPicture) ours = NULL;
    gboolean wide = pb->info.bpc > 8;

    g_assert_no_error (error);
    ours = vh_scaler_scale (scaler, pa, &error);
    g_assert_no_error (error);
    for (guint p = 0; p < ours->n_planes; p++)
      for (guint y = 0; y < ours->height[p]; y++)
        for (guint x = 0; x < ours->width[p]; x++) {
          guint u = wide ? ((const guint16 *) vh_picture_row (ours, p,
                  y))[x] : ((const guint8 *) vh_picture_row (ours, p, y))[x];
          guint v = wide ? ((const guint16 *) vh_picture_row (pb, p, y))[x]
              : ((const guint8 *) vh_picture_row (pb, p, y))[x];

          if (u != v && differ++ < 3)
            g_printerr ("%s %ux%u to %ux%u %s: frame %u plane %u (%u, %u): "
                "%u, ffmpeg %u\n", c->method, c->in_w, c->in_h, c->out_w,
                c->out_h, c->pix_fmt, f, p, x, y, u, v);
        }
  }
  g_remove (in);
  g_remove (out);
  return differ;
}

static void
test_equal_to_ffmpeg (void)
{
  static const Case cases[] = {
    {"bicubic", 1280, 720, 1920, 1080, "yuv420p"},
    {"bicubic", 97, 61, 160, 96, "yuv420p"},
    {"bicubic", 160, 96, 97, 61, "yuv420p"},
    {"bicubic", 640, 360, 97, 55, "yuv420p"},
    {"bicubic", 160, 96, 240, 135, "yuv444p"},
    {"bicubic", 160, 96, 240, 135, "yuv422p"},
    {"bicubic", 160, 96, 240, 136, "yuv420p10le"},
    {"bicubic", 240, 136, 160, 96, "yuv420p10le"},
    {"bilinear", 97, 61, 160, 96, "yuv420p"},
    {"bilinear", 160, 96, 97, 61, "yuv420p"},
    {"lanczos", 97, 61, 160, 96, "yuv420p"},
    {"lanczos", 160, 96, 240, 136, "yuv420p10le"},
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpuint (compare (&cases[i]), ==, 0);
}

int
main (int argc, char **argv)
{
  g_autofree gchar *found = g_find_program_in_path ("ffmpeg");
  gint ret;

  g_test_init (&argc, &argv, NULL);
  /* Skipped as a whole (77), before the run: without ffmpeg, or off x86,
   * whose 8-bit vertical pass src/scale.c follows. */
  if (!found)
    return VH_TEST_SKIP;
#if !defined (__x86_64__) && !defined (__i386__)
  return VH_TEST_SKIP;
#endif
  tmpdir = g_dir_make_tmp ("vh-scale-ffmpeg-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);
  g_test_add_func ("/scale-ffmpeg/equal-to-ffmpeg", test_equal_to_ffmpeg);
  ret = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return ret;
}
