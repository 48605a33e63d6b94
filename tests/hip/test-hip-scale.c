/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The GPU resampler's host side (hip/features/hip-scale.c). On a GPU:
 * every sample equal to the CPU twin's (src/scale.c) on the ladder sizes
 * of issue 28, 8 to 16 bits, every chroma layout. On the fake driver
 * (VH_TEST_MODE=fake, kernels that run nothing): filters uploaded,
 * kernels found and launched, bad pictures refused, every allocation
 * freed. */

#include "hip-test-gpu.h"
#include "hip-picture.h"
#include "hip-scale.h"
#include "errors.h"

#include <string.h>

static VhHipDevice *device;
static gboolean fake;

static VhPicture *
random_picture (VhPixFmt fmt, guint bpc, guint w, guint h)
{
  VhPictureInfo info;
  VhPicture *pic;
  guint max = (1u << bpc) - 1;

  g_assert_true (vh_picture_info_init (&info, fmt, bpc, w, h, NULL));
  pic = vh_picture_new (&info);
  for (guint p = 0; p < pic->n_planes; p++)
    for (guint y = 0; y < pic->height[p]; y++)
      for (guint x = 0; x < pic->width[p]; x++) {
        guint v = (x / 16 + y / 8) % 3 ? (guint) g_random_int_range (0, max + 1) :
            (x / 16) % 2 ? max : 0;
        if (bpc == 8)
          ((guint8 *) vh_picture_row (pic, p, y))[x] = (guint8) v;
        else
          ((guint16 *) vh_picture_row (pic, p, y))[x] = (guint16) v;
      }
  return pic;
}

static void
check (VhScaleMethod method, VhPixFmt fmt, guint bpc, guint sw, guint sh,
    guint dw, guint dh)
{
  g_autoptr (VhPicture) src = random_picture (fmt, bpc, sw, sh);
  g_autoptr (VhPicture) blank = NULL;
  g_autoptr (VhPicture) cpu = NULL;
  g_autoptr (VhPicture) d_src = NULL;
  g_autoptr (VhPicture) d_dst = NULL;
  g_autoptr (VhPicture) gpu = NULL;
  g_autoptr (VhScaler) scaler = NULL;
  g_autoptr (VhHipScaler) hip = NULL;
  g_autoptr (VhHipStream) stream = NULL;
  GError *error = NULL;
  VhPictureInfo out = src->info;

  out.width = dw;
  out.height = dh;
  scaler = vh_scaler_new (method, &src->info, &out, &error);
  g_assert_no_error (error);
  blank = vh_picture_new (&out);
  cpu = vh_scaler_scale (scaler, src, &error);
  g_assert_no_error (error);
  hip = vh_hip_scaler_new (device, scaler, &error);
  g_assert_no_error (error);
  stream = vh_hip_stream_new (device, &error);
  g_assert_no_error (error);
  d_src = vh_hip_picture_upload (device, src, &error);
  g_assert_no_error (error);
  d_dst = vh_hip_picture_upload (device, blank, &error);
  g_assert_no_error (error);
  g_assert_true (vh_hip_scaler_scale_async (hip, stream, d_src, d_dst,
          &error));
  g_assert_no_error (error);
  g_assert_true (vh_hip_stream_synchronize (stream, &error));
  gpu = vh_hip_picture_download (device, d_dst, &error);
  g_assert_no_error (error);
  if (fake)
    return;
  for (guint p = 0; p < cpu->n_planes; p++)
    for (guint y = 0; y < cpu->height[p]; y++)
      g_assert_cmpmem (vh_picture_row (cpu, p, y), cpu->width[p] *
          (bpc > 8 ? 2 : 1), vh_picture_row (gpu, p, y), gpu->width[p] *
          (bpc > 8 ? 2 : 1));
}

static void
test_ladder (void)
{
  static const guint sizes[][4] = {
    {1280, 720, 1920, 1080},
    {640, 360, 1920, 1080},
    {1919, 1079, 3840, 2160},
    {1920, 1080, 641, 359},
  };
  static const VhPixFmt formats[] = {
    VH_PIX_FMT_YUV420, VH_PIX_FMT_YUV422, VH_PIX_FMT_YUV444
  };
  static const guint depths[] = { 8, 10, 16 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
      for (guint d = 0; d < G_N_ELEMENTS (depths); d++) {
        /* the driver's plumbing is the same for every case */
        if (fake && (s != 1 || f != d))
          continue;
        check (VH_SCALE_BICUBIC, formats[f], depths[d], sizes[s][0],
            sizes[s][1], sizes[s][2], sizes[s][3]);
      }
  check (VH_SCALE_LANCZOS, VH_PIX_FMT_YUV420, 8, 641, 359, 1280, 720);
  check (VH_SCALE_BILINEAR, VH_PIX_FMT_YUV444, 12, 1280, 720, 427, 241);
}

static void
test_refusals (void)
{
  g_autoptr (VhPicture) src = random_picture (VH_PIX_FMT_YUV420, 8, 64, 36);
  g_autoptr (VhPicture) other = random_picture (VH_PIX_FMT_YUV420, 8, 96,
      54);
  g_autoptr (VhPicture) d_src = NULL;
  g_autoptr (VhScaler) scaler = NULL;
  g_autoptr (VhHipScaler) hip = NULL;
  g_autoptr (VhHipStream) stream = NULL;
  GError *error = NULL;

  scaler = vh_scaler_new (VH_SCALE_BICUBIC, &src->info, &other->info, NULL);
  hip = vh_hip_scaler_new (device, scaler, &error);
  g_assert_no_error (error);
  stream = vh_hip_stream_new (device, &error);
  g_assert_no_error (error);
  /* host pictures */
  g_assert_false (vh_hip_scaler_scale_async (hip, stream, src, other,
          &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  /* the output the size of the input */
  d_src = vh_hip_picture_upload (device, src, &error);
  g_assert_no_error (error);
  g_assert_false (vh_hip_scaler_scale_async (hip, stream, d_src, d_src,
          &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "not 64x36 to 64x36"));
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  fake = g_strcmp0 (g_getenv ("VH_TEST_MODE"), "fake") == 0;
  device = vh_hip_test_open_gpu_or_skip ();
  g_test_add_func ("/hip/scale/ladder", test_ladder);
  g_test_add_func ("/hip/scale/refusals", test_refusals);
  ret = g_test_run ();
  vh_hip_device_unref (device);
  return ret;
}
