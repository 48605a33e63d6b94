/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* What the vmafhip-score tests share: running it, writing clips, reading
 * its logs. */

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

gchar *tmpdir;

void
result_clear (Result * r)
{
  g_free (r->out);
  g_free (r->err);
}

Result
run_score (const gchar * first, ...)
{
  GPtrArray *argv = g_ptr_array_new ();
  Result r = { 0 };
  GError *error = NULL;
  va_list ap;

  g_ptr_array_add (argv, (gpointer) g_getenv ("VH_SCORE"));
  va_start (ap, first);
  for (const gchar * a = first; a; a = va_arg (ap, const gchar *))
    g_ptr_array_add (argv, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (gchar **) argv->pdata, NULL, 0, NULL,
          NULL, &r.out, &r.err, &r.status, &error));
  g_assert_no_error (error);
  g_ptr_array_free (argv, TRUE);
  return r;
}

gboolean
exited_with (const Result * r, gint code)
{
  return WIFEXITED (r->status) && WEXITSTATUS (r->status) == code;
}

/* A Y4M file of @n frames of a gradient, @frac of a last frame cut off. */
gchar *
write_y4m (const gchar * name, guint w, guint h, guint bpc, guint n)
{
  gchar *path = g_build_filename (tmpdir, name, NULL);
  GString *s = g_string_new (NULL);
  guint bps = bpc > 8 ? 2 : 1;
  gsize frame = (gsize) (w * h + 2 * ((w + 1) / 2) * ((h + 1) / 2)) * bps;

  g_string_append_printf (s, "YUV4MPEG2 W%u H%u F25:1 Ip A1:1 C420%s\n", w,
      h, bpc == 10 ? "p10" : "jpeg");
  for (guint f = 0; f < n; f++) {
    g_string_append (s, "FRAME\n");
    for (gsize i = 0; i < frame; i++)
      g_string_append_c (s, (gchar) ((i * 7 + f * 13) & (bps == 2 && i % 2 ?
                  0x03 : 0xff)));
  }
  g_assert_true (g_file_set_contents (path, s->str, s->len, NULL));
  g_string_free (s, TRUE);
  return path;
}

/* VH_SCORE_BACKEND=hip runs the parity check only, on the GPU (page-locked
 * reader pictures uploaded without staging); it skips without a GPU. */
const gchar *backend = "auto";

void
expect_error (Result r, const gchar * const *needles)
{
  if (!exited_with (&r, 1))
    g_error ("expected exit 1, got status %d; stderr: %s", r.status, r.err);
  for (guint i = 0; needles[i]; i++) {
    if (!strstr (r.err, needles[i]))
      g_error ("stderr lacks '%s': %s", needles[i], r.err);
  }
  result_clear (&r);
}

/* Frame metrics of a JSON log, by frame. */
JsonArray *
load_frames (JsonParser * parser, const gchar * path)
{
  g_assert_true (json_parser_load_from_file (parser, path, NULL));
  return json_object_get_array_member (json_node_get_object
      (json_parser_get_root (parser)), "frames");
}

VhPicture *
make_moving_frame (guint w, guint h, guint t)
{
  VhPictureInfo info;
  VhPicture *pic;

  vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, w, h, NULL);
  pic = vh_picture_new (&info);
  for (guint p = 0; p < 3; p++)
    for (guint y = 0; y < pic->height[p]; y++)
      for (guint x = 0; x < pic->width[p]; x++) {
        gdouble v = 128 + 70 * sin ((x + 3 * t) * 0.21 + p) * cos (y * 0.17)
            + (((x + t) / 9 + y / 6) % 2 ? 30 : -30);
        ((guint8 *) vh_picture_row (pic, p, y))[x] = (guint8) CLAMP (v, 0,
            255);
      }
  return pic;
}

void
append_picture (GString * s, const VhPicture * pic)
{
  for (guint p = 0; p < pic->n_planes; p++)
    for (guint y = 0; y < pic->height[p]; y++)
      g_string_append_len (s, vh_picture_row (pic, p, y), pic->width[p]);
}
