/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The luma statistics black and freeze detection read, alone: mean,
 * standard deviation and samples equal a plain walk over the sample grid
 * (every k-th sample of every k-th row, k = ceil(width / 480) and
 * ceil(height / 270)) on 8 to 16 bits and sizes that do not divide. */

#include <math.h>
#include <string.h>
#include <gst/gst.h>

#include "gstvmafhipevents.h"

GST_DEBUG_CATEGORY (gst_vmaf_hip_compare_debug);

static void
check_size (GRand * rand, guint width, guint height, guint bpc)
{
  VhPictureInfo info = { VH_PIX_FMT_YUV400, bpc, width, height };
  VhPicture *pic = vh_picture_new (&info);
  guint step_x = MAX ((width + 479) / 480, 1);
  guint step_y = MAX ((height + 269) / 270, 1);
  guint64 sum = 0, sum_sq = 0, n = 0;
  GArray *samples = g_array_new (FALSE, FALSE, sizeof (guint16));
  GArray *expected = g_array_new (FALSE, FALSE, sizeof (guint16));
  gdouble mean, stddev, mean_alone, stddev_alone, m, scale;

  for (guint y = 0; y < height; y++) {
    guint8 *row = vh_picture_row (pic, 0, y);

    for (guint x = 0; x < width; x++) {
      guint v = g_rand_int_range (rand, 0, 1 << bpc);

      if (bpc > 8)
        ((guint16 *) row)[x] = v;
      else
        row[x] = v;
    }
  }
  for (guint y = step_y / 2; y < height; y += step_y) {
    const guint8 *row = vh_picture_row (pic, 0, y);

    for (guint x = step_x / 2; x < width; x += step_x) {
      guint16 v = bpc > 8 ? ((const guint16 *) row)[x] : row[x];

      sum += v;
      sum_sq += (guint64) v * v;
      n++;
      g_array_append_val (expected, v);
    }
  }
  scale = 1u << (bpc - 8);
  m = (gdouble) sum / n;

  gst_vmaf_hip_luma_stats (pic, &mean, &stddev, samples);
  gst_vmaf_hip_luma_stats (pic, &mean_alone, &stddev_alone, NULL);
  g_assert_cmpfloat (mean, ==, m / scale);
  g_assert_cmpfloat (stddev, ==, sqrt (MAX ((gdouble) sum_sq / n - m * m,
              0.0)) / scale);
  g_assert_cmpfloat (mean_alone, ==, mean);
  g_assert_cmpfloat (stddev_alone, ==, stddev);
  g_assert_cmpuint (samples->len, ==, expected->len);
  g_assert_cmpmem (samples->data, samples->len * 2, expected->data,
      expected->len * 2);
  g_array_unref (samples);
  g_array_unref (expected);
  vh_picture_unref (pic);
}

static void
test_grid (void)
{
  static const guint sizes[][2] = {
    {1920, 1080}, {1280, 720}, {481, 271}, {320, 180}, {7, 3}, {1, 1},
  };
  static const guint depths[] = { 8, 10, 12, 16 };
  GRand *rand = g_rand_new_with_seed (30);

  for (guint d = 0; d < G_N_ELEMENTS (depths); d++)
    for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
      check_size (rand, sizes[i][0], sizes[i][1], depths[d]);
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  GST_DEBUG_CATEGORY_INIT (gst_vmaf_hip_compare_debug, "vmafhipcompare", 0,
      "test");
  g_test_add_func ("/vmafhipcompare/events/luma-stats", test_grid);
  return g_test_run ();
}
