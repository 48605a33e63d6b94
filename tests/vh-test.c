/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "vh-test.h"

#include <glib/gstdio.h>
#include <math.h>

void
vh_test_check_failed (const gchar * file, gint line, const gchar * format,
    ...)
{
  va_list args;
  g_autofree gchar *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_test_message ("FAIL %s:%d: %s", file, line, message);
  g_test_fail ();
}

void
vh_test_add_cases (const gchar * prefix, gconstpointer table, gsize n_rows,
    gsize row_size, VhTestCaseName name, GTestDataFunc func)
{
  for (gsize i = 0; i < n_rows; i++) {
    gconstpointer row = (const guint8 *) table + i * row_size;
    g_autofree gchar *row_name = name ? name (row, (guint) i) :
        g_strdup_printf ("%" G_GSIZE_FORMAT, i);
    g_autofree gchar *path = g_strconcat (prefix, "/", row_name, NULL);

    g_test_add_data_func (path, row, func);
  }
}

gboolean
vh_test_score_clip (VhContext * ctx, GPtrArray * refs, GPtrArray * dists,
    VhTestPrepareFunc prepare, GError ** error)
{
  const VhPicture *first = g_ptr_array_index (refs, 0);

  g_return_val_if_fail (refs->len == dists->len, FALSE);
  if (!vh_context_start (ctx, &first->info, error))
    return FALSE;
  for (guint i = 0; i < refs->len; i++) {
    VhPicture *r = g_ptr_array_index (refs, i);
    VhPicture *d = g_ptr_array_index (dists, i);
    g_autoptr (VhPicture) ref = prepare ? prepare (r) : vh_picture_ref (r);
    g_autoptr (VhPicture) dist = prepare ? prepare (d) : vh_picture_ref (d);

    if (!vh_context_submit (ctx, ref, dist, NULL, error))
      return FALSE;
  }
  return vh_context_finish (ctx, error);
}

GArray *
vh_test_collect_values (VhContext * ctx, const gchar * name, guint n_frames)
{
  VhFeatureCollector *fc = vh_context_get_collector (ctx);
  GArray *values = g_array_sized_new (FALSE, FALSE, sizeof (gdouble),
      n_frames);

  for (guint i = 0; i < n_frames; i++) {
    gdouble v;
    if (!vh_feature_collector_get (fc, name, i, &v))
      v = NAN;
    g_array_append_val (values, v);
  }
  return values;
}

VhPicture *
vh_test_noise_picture (VhPixFmt pix_fmt, guint bpc, guint width,
    guint height, GRand * rand)
{
  VhPictureInfo info;
  VhPicture *pic;

  g_assert_true (vh_picture_info_init (&info, pix_fmt, bpc, width, height,
          NULL));
  pic = vh_picture_new (&info);
  for (guint p = 0; p < pic->n_planes; p++) {
    for (guint y = 0; y < pic->height[p]; y++) {
      guint8 *row = vh_picture_row (pic, p, y);
      for (guint x = 0; x < pic->width[p]; x++) {
        guint v = g_rand_int_range (rand, 0, 1 << bpc);
        if (bpc == 8)
          row[x] = v;
        else
          ((guint16 *) row)[x] = v;
      }
    }
  }
  return pic;
}

void
vh_test_remove_dir (const gchar * path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const gchar *name;

  while (dir && (name = g_dir_read_name (dir))) {
    g_autofree gchar *child = g_build_filename (path, name, NULL);
    if (g_file_test (child, G_FILE_TEST_IS_DIR) &&
        !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
      vh_test_remove_dir (child);
    else
      g_remove (child);
  }
  if (dir)
    g_dir_close (dir);
  g_rmdir (path);
}
