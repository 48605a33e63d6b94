/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "picture.h"
#include "errors.h"

#include <string.h>

static void
test_geometry_odd (void)
{
  VhPictureInfo info;
  g_autoptr (VhPicture) pic = NULL;
  GError *error = NULL;

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 10, 321, 241,
          &error));
  pic = vh_picture_new (&info);
  g_assert_cmpuint (pic->n_planes, ==, 3);
  g_assert_cmpuint (pic->width[1], ==, 161);
  g_assert_cmpuint (pic->height[2], ==, 121);
  g_assert_cmpuint (pic->stride[0] % 64, ==, 0);
  g_assert_cmpuint (pic->stride[0], >=, 321 * 2);
  g_assert_cmpuint (vh_picture_bytes_per_sample (pic), ==, 2);
}

static void
test_geometry_formats (void)
{
  VhPictureInfo info;
  VhPicture *pic;

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV400, 8, 16, 8,
          NULL));
  pic = vh_picture_new (&info);
  g_assert_cmpuint (pic->n_planes, ==, 1);
  vh_picture_unref (pic);
  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV422, 12, 17, 9,
          NULL));
  pic = vh_picture_new (&info);
  g_assert_cmpuint (pic->width[1], ==, 9);
  g_assert_cmpuint (pic->height[1], ==, 9);
  vh_picture_unref (pic);
  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV444, 16, 17, 9,
          NULL));
  pic = vh_picture_new (&info);
  g_assert_cmpuint (pic->width[2], ==, 17);
  vh_picture_unref (pic);
}

static void
test_bad_info (void)
{
  VhPictureInfo info;
  GError *error = NULL;

  g_assert_false (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 9, 16, 16,
          &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "bit depth 9"));
  g_clear_error (&error);
  g_assert_false (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, 0, 16,
          &error));
  g_clear_error (&error);
}

static gboolean notified;

static void
on_release (gpointer data)
{
  notified = TRUE;
}

static void
test_wrapped (void)
{
  VhPictureInfo info;
  guint8 buf[3][64];
  gpointer data[3] = { buf[0], buf[1], buf[1] + 1 };
  gsize stride[3] = { 8, 8, 8 };
  guint step[3] = { 1, 2, 2 };
  VhPicture *pic;

  vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, 8, 8, NULL);
  pic = vh_picture_new_wrapped (&info, data, stride, step, VH_MEMORY_HOST,
      NULL, on_release);
  g_assert_cmpuint (pic->step[1], ==, 2);
  vh_picture_ref (pic);
  vh_picture_unref (pic);
  g_assert_false (notified);
  vh_picture_unref (pic);
  g_assert_true (notified);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/picture/geometry-odd", test_geometry_odd);
  g_test_add_func ("/picture/geometry-formats", test_geometry_formats);
  g_test_add_func ("/picture/bad-info", test_bad_info);
  g_test_add_func ("/picture/wrapped", test_wrapped);
  return g_test_run ();
}
