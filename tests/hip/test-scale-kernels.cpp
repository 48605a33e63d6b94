/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The resampling kernels (hip/features/kernels/scale.hip) run on the host
 * through kernel-emu.h with the CPU twin's filters, launched in the
 * layout of hip-scale.c (with a smaller grid, which the kernels stride
 * over): every sample equal to the CPU twin's (src/scale.c), for the
 * ladder sizes of issue 28 up and down, 8, 10 and 16 bits (12 too),
 * 4:2:0, 4:2:2 and 4:4:4, the three methods, and NV12-style chroma.
 * Needs no GPU. */

#include "kernel-emu.h"
#include "scale.hip"

extern "C"
{
#include "scale.h"
}

#include <glib.h>
#include <stdio.h>
#include <string.h>

static int failures;

/* Random samples, with runs of black and white to reach the clamps. */
static void
fill (VhPicture * pic, guint seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  const guint max = (1u << pic->info.bpc) - 1;

  for (guint p = 0; p < pic->n_planes; p++)
    for (guint y = 0; y < pic->height[p]; y++) {
      guint8 *row = (guint8 *) vh_picture_row (pic, p, y);
      for (guint x = 0; x < pic->width[p]; x++) {
        guint band = (x / 16 + y / 8) % 4;
        guint v = band == 0 ? 0 : band == 1 ? max :
            (guint) g_rand_int_range (rand, 0, (gint32) max + 1);
        if (pic->info.bpc > 8)
          ((guint16 *) row)[x * pic->step[p]] = (guint16) v;
        else
          row[x * pic->step[p]] = (guint8) v;
      }
    }
  g_rand_free (rand);
}

static struct vh_scale_filter
kernel_filter (const VhScaleFilter * f)
{
  struct vh_scale_filter k = { f->first, f->coeff, f->n_in, f->n_out,
    f->taps, f->rounded_from
  };
  return k;
}

/* @src through the kernels into a new picture of the scaler's output. */
static VhPicture *
emulate (const VhScaler * scaler, const VhPicture * src)
{
  const VhPictureInfo *info = vh_scaler_get_output_info (scaler);
  VhPicture *dst = vh_picture_new (info);
  VhScaleShifts sh;
  const dim3 block = { 32, 8, 1 };
  const dim3 grid = { 6, 5, 1 };
  const bool wide = info->bpc > 8;
  int *mid = g_new (int, (gsize) info->width * src->info.height);

  vh_scale_shifts_for_bpc (info->bpc, &sh);
  for (guint p = 0; p < dst->n_planes; p++) {
    struct vh_scale_filter h = kernel_filter (vh_scaler_get_filter (scaler,
            p, FALSE));
    struct vh_scale_filter v = kernel_filter (vh_scaler_get_filter (scaler,
            p, TRUE));
    const unsigned char *s = (const unsigned char *) src->data[p];
    unsigned char *d = (unsigned char *) dst->data[p];
    unsigned int step = MAX (src->step[p], 1u);
    int bias = vh_scale_8bit_bias (v.taps);

    vh_emu_launch (grid, block, [&] {
          if (wide)
            vh_scale_rows_u16 (s, src->stride[p], step, v.n_in, h, sh.h_shift,
                sh.mid_max, mid, h.n_out);
          else
            vh_scale_rows_u8 (s, src->stride[p], step, v.n_in, h, sh.h_shift,
                sh.mid_max, mid, h.n_out);
        });
    vh_emu_launch (grid, block, [&] {
          if (wide)
            vh_scale_cols_u16 (mid, h.n_out, h.n_out, v, sh.v_shift,
                sh.out_max, bias, d, dst->stride[p]);
          else
            vh_scale_cols_u8 (mid, h.n_out, h.n_out, v, sh.v_shift,
                sh.out_max, bias, d, dst->stride[p]);
        });
  }
  g_free (mid);
  return dst;
}

static void
check (VhScaleMethod method, VhPixFmt fmt, guint bpc, guint sw, guint sh,
    guint dw, guint dh, bool interleaved)
{
  VhPictureInfo in, out;
  VhScaler *scaler;
  VhPicture *src, *cpu, *gpu;
  guint16 *uv = NULL;
  guint bad = 0;

  vh_picture_info_init (&in, fmt, bpc, sw, sh, NULL);
  vh_picture_info_init (&out, fmt, bpc, dw, dh, NULL);
  scaler = vh_scaler_new (method, &in, &out, NULL);
  g_assert (scaler);
  src = vh_picture_new (&in);
  if (interleaved) {
    /* NV12-style: both chroma planes in one, read with a step of 2 */
    VhPicture *planar = src;
    gpointer data[3];
    gsize stride[3];
    const guint step[3] = { 1, 2, 2 };
    guint cw = planar->width[1];
    uv = g_new0 (guint16, (gsize) cw * 2 * planar->height[1]);
    data[0] = planar->data[0];
    data[1] = uv;
    data[2] = uv + 1;
    stride[0] = planar->stride[0];
    stride[1] = stride[2] = cw * 2 * sizeof (guint16);
    src = vh_picture_new_wrapped (&in, data, stride, step, VH_MEMORY_HOST,
        planar, (GDestroyNotify) vh_picture_unref);
  }
  fill (src, sw * 7 + dh + bpc);
  cpu = vh_scaler_scale (scaler, src, NULL);
  gpu = emulate (scaler, src);
  for (guint p = 0; p < cpu->n_planes; p++)
    for (guint y = 0; y < cpu->height[p]; y++)
      if (memcmp (vh_picture_row (cpu, p, y), vh_picture_row (gpu, p, y),
              cpu->width[p] * (bpc > 8 ? 2 : 1)) != 0)
        bad++;
  printf ("%s %s %u-bit %ux%u -> %ux%u%s: %s\n",
      vh_scale_method_to_string (method), vh_pix_fmt_to_string (fmt), bpc,
      sw, sh, dw, dh, interleaved ? " (interleaved chroma)" : "",
      bad ? "DIFFERENT" : "equal");
  if (bad) {
    printf ("FAIL: %u rows differ\n", bad);
    failures++;
  }
  vh_picture_unref (cpu);
  vh_picture_unref (gpu);
  vh_picture_unref (src);
  g_free (uv);
  vh_scaler_free (scaler);
}

int
main (void)
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
  const bool fewer = g_getenv ("VH_TEST_FEWER_CASES") != NULL;

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
      for (guint d = 0; d < G_N_ELEMENTS (depths); d++) {
        if (fewer && (s != 1 || f != d))
          continue;
        check (VH_SCALE_BICUBIC, formats[f], depths[d], sizes[s][0],
            sizes[s][1], sizes[s][2], sizes[s][3], false);
      }
  check (VH_SCALE_BILINEAR, VH_PIX_FMT_YUV420, 12, 641, 359, 1280, 720,
      false);
  check (VH_SCALE_LANCZOS, VH_PIX_FMT_YUV420, 8, 641, 359, 1280, 720, false);
  check (VH_SCALE_LANCZOS, VH_PIX_FMT_YUV444, 16, 1280, 720, 427, 241, false);
  check (VH_SCALE_BICUBIC, VH_PIX_FMT_YUV420, 10, 963, 541, 1920, 1080,
      true);
  return failures ? 1 : 0;
}
