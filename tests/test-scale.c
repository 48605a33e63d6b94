/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* The resampler (src/scale.c): its filters, its integer arithmetic
 * against a floating-point model of the same filters, flat pictures
 * kept flat, sizes kept, interleaved chroma, bad input refused. */

#include "scale.h"
#include "errors.h"

#include <math.h>
#include <string.h>

static const VhScaleMethod methods[] = {
  VH_SCALE_BICUBIC, VH_SCALE_BILINEAR, VH_SCALE_LANCZOS
};

static const VhPixFmt formats[] = {
  VH_PIX_FMT_YUV420, VH_PIX_FMT_YUV422, VH_PIX_FMT_YUV444
};

static const guint depths[] = { 8, 10, 12, 16 };

/* in and out sizes: odd factors up and down, odd sizes */
static const guint sizes[][4] = {
  {64, 36, 96, 54},
  {32, 18, 96, 54},
  {63, 35, 128, 72},
  {96, 54, 41, 23},
  {97, 61, 97, 61},
};

static guint32 rng_state;

static guint32
next_random (void)
{
  rng_state = rng_state * 1664525u + 1013904223u;
  return rng_state >> 8;
}

static VhPicture *
new_picture (VhPixFmt fmt, guint bpc, guint w, guint h, gboolean noise)
{
  VhPictureInfo info;
  VhPicture *pic;
  guint max = (1u << bpc) - 1;

  g_assert_true (vh_picture_info_init (&info, fmt, bpc, w, h, NULL));
  pic = vh_picture_new (&info);
  for (guint p = 0; p < pic->n_planes; p++) {
    for (guint y = 0; y < pic->height[p]; y++) {
      gpointer row = vh_picture_row (pic, p, y);
      for (guint x = 0; x < pic->width[p]; x++) {
        /* a smooth pattern with edges, or noise from black to white */
        guint v = noise ? next_random () % (max + 1) :
            (guint) ((max / 2) + (max / 3) * sin (x * 0.3 + p) *
            cos (y * 0.2)) + ((x / 7 + y / 5) % 2 ? max / 8 : 0);
        v = MIN (v, max);
        if (bpc > 8)
          ((guint16 *) row)[x] = (guint16) v;
        else
          ((guint8 *) row)[x] = (guint8) v;
      }
    }
  }
  return pic;
}

static gint64
sample (const VhPicture * pic, guint p, guint x, guint y)
{
  const guint8 *row = vh_picture_row (pic, p, y);
  guint step = pic->step[p] ? pic->step[p] : 1;

  if (pic->info.bpc > 8)
    return ((const guint16 *) row)[(gsize) x * step];
  return row[(gsize) x * step];
}

static void
test_filters_sum_to_one (void)
{
  for (guint m = 0; m < G_N_ELEMENTS (methods); m++) {
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
      VhPictureInfo in, out;
      g_autoptr (VhScaler) scaler = NULL;

      vh_picture_info_init (&in, VH_PIX_FMT_YUV420, 8, sizes[s][0],
          sizes[s][1], NULL);
      vh_picture_info_init (&out, VH_PIX_FMT_YUV420, 8, sizes[s][2],
          sizes[s][3], NULL);
      scaler = vh_scaler_new (methods[m], &in, &out, NULL);
      g_assert_nonnull (scaler);
      for (guint p = 0; p < 3; p++) {
        for (guint v = 0; v < 2; v++) {
          const VhScaleFilter *f = vh_scaler_get_filter (scaler, p, v);
          for (guint i = 0; i < f->n_out; i++) {
            gint sum = 0;
            for (guint j = 0; j < f->taps; j++)
              sum += f->coeff[i * f->taps + j];
            g_assert_cmpint (sum, ==, 1 << f->bits);
            /* a window in or next to the input */
            g_assert_cmpint (f->first[i], >, -(gint) f->taps);
            g_assert_cmpint (f->first[i], <, (gint) f->n_in);
          }
        }
      }
    }
  }
}

/* Flat pictures stay flat, exactly, and a picture of the same size is
 * returned unchanged, in every format, depth and method. */
static void
test_flat_and_identity (void)
{
  for (guint m = 0; m < G_N_ELEMENTS (methods); m++)
    for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
      for (guint d = 0; d < G_N_ELEMENTS (depths); d++)
        for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
          guint bpc = depths[d];
          g_autoptr (VhPicture) src = new_picture (formats[f], bpc,
              sizes[s][0], sizes[s][1], TRUE);
          g_autoptr (VhPicture) flat = new_picture (formats[f], bpc,
              sizes[s][0], sizes[s][1], FALSE);
          g_autoptr (VhPicture) out = NULL;
          g_autoptr (VhPicture) same = NULL;
          g_autoptr (VhScaler) scaler = NULL;
          g_autoptr (VhScaler) identity = NULL;
          VhPictureInfo dst = src->info;
          gint64 level = (1 << bpc) - 37;

          for (guint p = 0; p < flat->n_planes; p++)
            for (guint y = 0; y < flat->height[p]; y++)
              for (guint x = 0; x < flat->width[p]; x++) {
                gpointer row = vh_picture_row (flat, p, y);
                if (bpc > 8)
                  ((guint16 *) row)[x] = (guint16) (level - p);
                else
                  ((guint8 *) row)[x] = (guint8) (level - p);
              }
          dst.width = sizes[s][2];
          dst.height = sizes[s][3];
          scaler = vh_scaler_new (methods[m], &src->info, &dst, NULL);
          out = vh_scaler_scale (scaler, flat, NULL);
          g_assert_nonnull (out);
          g_assert_cmpuint (out->info.width, ==, dst.width);
          g_assert_cmpuint (out->info.height, ==, dst.height);
          for (guint p = 0; p < out->n_planes; p++)
            for (guint y = 0; y < out->height[p]; y++)
              for (guint x = 0; x < out->width[p]; x++)
                g_assert_cmpint (sample (out, p, x, y), ==, level - p);

          identity = vh_scaler_new (methods[m], &src->info, &src->info,
              NULL);
          same = vh_scaler_scale (identity, src, NULL);
          for (guint p = 0; p < src->n_planes; p++)
            for (guint y = 0; y < src->height[p]; y++)
              for (guint x = 0; x < src->width[p]; x++)
                g_assert_cmpint (sample (same, p, x, y), ==,
                    sample (src, p, x, y));
        }
}

/* The same filters in floating point, without the intermediate's
 * rounding (with its cap): the integer result is within a sample of it
 * (8-bit: truncated tap by tap with a bias, as ffmpeg's x86 code does;
 * two for 16-bit, whose intermediate drops 3 bits), before clamping. */
static void
test_against_float_model (void)
{
  for (guint m = 0; m < G_N_ELEMENTS (methods); m++)
    for (guint d = 0; d < G_N_ELEMENTS (depths); d++)
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
        guint bpc = depths[d];
        g_autoptr (VhPicture) src = new_picture (VH_PIX_FMT_YUV420, bpc,
            sizes[s][0], sizes[s][1], s % 2 == 0);
        g_autoptr (VhPicture) out = NULL;
        g_autoptr (VhScaler) scaler = NULL;
        VhPictureInfo dst = src->info;
        gdouble max = (1 << bpc) - 1;
        VhScaleShifts shifts;
        gdouble row_max;

        vh_scale_shifts_for_bpc (bpc, &shifts);
        row_max = (gdouble) shifts.mid_max / (1 << (shifts.v_shift - 12));

        dst.width = sizes[s][2];
        dst.height = sizes[s][3];
        scaler = vh_scaler_new (methods[m], &src->info, &dst, NULL);
        out = vh_scaler_scale (scaler, src, NULL);
        for (guint p = 0; p < out->n_planes; p++) {
          const VhScaleFilter *h = vh_scaler_get_filter (scaler, p, FALSE);
          const VhScaleFilter *v = vh_scaler_get_filter (scaler, p, TRUE);
          for (guint y = 0; y < out->height[p]; y++)
            for (guint x = 0; x < out->width[p]; x++) {
              gdouble want = 0.0;
              for (guint i = 0; i < v->taps; i++) {
                gint yy = CLAMP (v->first[y] + (gint) i, 0, (gint) v->n_in - 1);
                gdouble row = 0.0;
                for (guint j = 0; j < h->taps; j++) {
                  gint xx = CLAMP (h->first[x] + (gint) j, 0,
                      (gint) h->n_in - 1);
                  row += h->coeff[x * h->taps + j] / 16384.0 *
                      sample (src, p, (guint) xx, (guint) yy);
                }
                /* the intermediate's cap, in samples */
                want += v->coeff[y * v->taps + i] / 4096.0 * MIN (row,
                    row_max);
              }
              want = CLAMP (want, 0.0, max);
              g_assert_cmpfloat (fabs (sample (out, p, x, y) - want), <=,
                  bpc == 16 ? 2.0 : 1.0);
            }
        }
      }
}

/* The window's start rounded towards zero as ffmpeg's C division rounds
 * it: upscaling 18 to 27 rows, output row 1 sits half-way between input
 * rows 0 and 1, its window starts at row 0 and the tap that would read row
 * -1 is left out (the rest renormalised, so rows 0 and 1 weigh the same),
 * not folded onto row 0; row 0's window starts at 0 too. Debian's ffmpeg
 * 5.1 (scale=16:27:flags=bicubic) weighs rows 0, 1, 2 of output row 1 at
 * 0.53, 0.53, -0.07 on an impulse; folding gave 0.50, 0.58, -0.07, and
 * the second output row of a noisy picture up to 8 apart. */
static void
test_left_edge_as_ffmpeg (void)
{
  VhPictureInfo src, dst;
  g_autoptr (VhScaler) scaler = NULL;
  const VhScaleFilter *v;
  gint sum = 0;

  g_assert_true (vh_picture_info_init (&src, VH_PIX_FMT_YUV420, 8, 16, 18,
          NULL));
  dst = src;
  dst.height = 27;
  scaler = vh_scaler_new (VH_SCALE_BICUBIC, &src, &dst, NULL);
  v = vh_scaler_get_filter (scaler, 0, TRUE);
  g_assert_cmpint (v->first[0], ==, 0);
  g_assert_cmpint (v->first[1], ==, 0);
  g_assert_cmpint (v->coeff[v->taps], ==, v->coeff[v->taps + 1]);
  for (guint j = 0; j < v->taps; j++)
    sum += v->coeff[v->taps + j];
  g_assert_cmpint (sum, ==, 4096);
  /* 0.575 / 1.075 of 4096, give or take the carried rounding */
  g_assert_cmpint (ABS (v->coeff[v->taps] - 2191), <=, 1);
}

/* 8-bit: the rows ffmpeg draws with the last two luma rows come from its
 * C code, which rounds each sum once, where its x86 code truncates each
 * product (vh_scale_8bit_bias()). Upscaling 18 to 27 rows, a row of 228
 * among rows of 128 at input row 16 gives 185 in output row 25 (Debian's
 * ffmpeg 5.1; the truncating sum gave 186), and 4:2:0 chroma rounds from
 * its row 13, drawn with luma row 26. Other depths always round. */
static void
test_last_rows_as_ffmpeg (void)
{
  VhPictureInfo src, dst;
  g_autoptr (VhScaler) scaler = NULL;
  g_autoptr (VhScaler) wide = NULL;
  g_autoptr (VhPicture) in = NULL;
  g_autoptr (VhPicture) out = NULL;

  g_assert_true (vh_picture_info_init (&src, VH_PIX_FMT_YUV420, 8, 16, 18,
          NULL));
  dst = src;
  dst.height = 27;
  scaler = vh_scaler_new (VH_SCALE_BICUBIC, &src, &dst, NULL);
  g_assert_cmpuint (vh_scaler_get_filter (scaler, 0, TRUE)->rounded_from, ==,
      25);
  g_assert_cmpuint (vh_scaler_get_filter (scaler, 1, TRUE)->rounded_from, ==,
      13);
  g_assert_cmpuint (vh_scaler_get_filter (scaler, 0, FALSE)->rounded_from, ==,
      16);
  in = vh_picture_new (&src);
  for (guint p = 0; p < 3; p++)
    for (guint y = 0; y < in->height[p]; y++)
      memset (vh_picture_row (in, p, y), p == 0 && y == 16 ? 228 : 128,
          in->width[p]);
  out = vh_scaler_scale (scaler, in, NULL);
  g_assert_cmpuint (((guint8 *) vh_picture_row (out, 0, 25))[3], ==, 185);

  src.bpc = dst.bpc = 10;
  wide = vh_scaler_new (VH_SCALE_BICUBIC, &src, &dst, NULL);
  g_assert_cmpuint (vh_scaler_get_filter (wide, 0, TRUE)->rounded_from, ==,
      27);
}

/* Bilinear doubling of a ramp: output samples sit a quarter of an input
 * sample from their neighbours, centred as ffmpeg centres them. */
static void
test_bilinear_ramp (void)
{
  VhPictureInfo in, out_info;
  g_autoptr (VhPicture) src = NULL;
  g_autoptr (VhPicture) out = NULL;
  g_autoptr (VhScaler) scaler = NULL;

  vh_picture_info_init (&in, VH_PIX_FMT_YUV444, 8, 32, 8, NULL);
  vh_picture_info_init (&out_info, VH_PIX_FMT_YUV444, 8, 64, 16, NULL);
  src = vh_picture_new (&in);
  for (guint p = 0; p < 3; p++)
    for (guint y = 0; y < 8; y++)
      for (guint x = 0; x < 32; x++)
        ((guint8 *) vh_picture_row (src, p, y))[x] = (guint8) (8 * x);
  scaler = vh_scaler_new (VH_SCALE_BILINEAR, &in, &out_info, NULL);
  out = vh_scaler_scale (scaler, src, NULL);
  /* output x at input x / 2 - 0.25: 8 * that is 4x - 2 */
  for (guint x = 1; x < 63; x++)
    g_assert_cmpint (sample (out, 0, x, 5), ==, 4 * (gint) x - 2);
  /* the edges repeat the first and last samples */
  g_assert_cmpint (sample (out, 0, 0, 5), ==, 0);
  g_assert_cmpint (sample (out, 0, 63, 5), ==, 8 * 31);
}

/* NV12-style chroma (interleaved, read with a step of 2) scales as the
 * planar picture does. */
static void
test_interleaved_chroma (void)
{
  g_autoptr (VhPicture) planar = new_picture (VH_PIX_FMT_YUV420, 10, 63,
      35, TRUE);
  g_autoptr (VhPicture) wrapped = NULL;
  g_autoptr (VhPicture) a = NULL;
  g_autoptr (VhPicture) b = NULL;
  g_autoptr (VhScaler) scaler = NULL;
  guint cw = planar->width[1], ch = planar->height[1];
  guint16 *uv = g_new (guint16, (gsize) cw * 2 * ch);
  gpointer data[3];
  gsize stride[3];
  guint step[3] = { 1, 2, 2 };
  VhPictureInfo dst = planar->info;

  for (guint y = 0; y < ch; y++)
    for (guint x = 0; x < cw; x++) {
      uv[(y * cw + x) * 2] = (guint16) sample (planar, 1, x, y);
      uv[(y * cw + x) * 2 + 1] = (guint16) sample (planar, 2, x, y);
    }
  data[0] = planar->data[0];
  data[1] = uv;
  data[2] = uv + 1;
  stride[0] = planar->stride[0];
  stride[1] = stride[2] = cw * 2 * sizeof (guint16);
  wrapped = vh_picture_new_wrapped (&planar->info, data, stride, step,
      VH_MEMORY_HOST, uv, g_free);
  dst.width = 128;
  dst.height = 72;
  scaler = vh_scaler_new (VH_SCALE_BICUBIC, &planar->info, &dst, NULL);
  a = vh_scaler_scale (scaler, planar, NULL);
  b = vh_scaler_scale (scaler, wrapped, NULL);
  for (guint p = 0; p < 3; p++)
    for (guint y = 0; y < a->height[p]; y++)
      g_assert_cmpmem (vh_picture_row (a, p, y), a->width[p] * 2,
          vh_picture_row (b, p, y), b->width[p] * 2);
}

static void
test_refusals (void)
{
  VhPictureInfo a, b;
  g_autoptr (VhPicture) pic = NULL;
  g_autoptr (VhScaler) scaler = NULL;
  GError *error = NULL;
  VhScaleMethod method;

  vh_picture_info_init (&a, VH_PIX_FMT_YUV420, 8, 64, 36, NULL);
  vh_picture_info_init (&b, VH_PIX_FMT_YUV420, 10, 96, 54, NULL);
  g_assert_null (vh_scaler_new (VH_SCALE_BICUBIC, &a, &b, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "8-bit cannot become"));
  g_clear_error (&error);
  b.bpc = 8;
  g_assert_null (vh_scaler_new (VH_SCALE_NONE, &a, &b, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* a picture of another geometry than the scaler's */
  scaler = vh_scaler_new (VH_SCALE_LANCZOS, &a, &b, NULL);
  pic = vh_picture_new (&b);
  g_assert_null (vh_scaler_scale (scaler, pic, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  g_assert_true (vh_scale_method_from_string ("Bicubic", &method));
  g_assert_cmpint (method, ==, VH_SCALE_BICUBIC);
  g_assert_false (vh_scale_method_from_string ("spline", &method));
  g_assert_false (vh_scale_method_from_string (NULL, &method));
  g_assert_cmpstr (vh_scale_method_to_string (VH_SCALE_LANCZOS), ==,
      "lanczos");
}

/* A luma-only picture gives a luma-only picture. */
static void
test_luma_only (void)
{
  g_autoptr (VhPicture) src = new_picture (VH_PIX_FMT_YUV420, 8, 64, 36,
      TRUE);
  g_autoptr (VhPicture) full = NULL;
  g_autoptr (VhPicture) luma = NULL;
  g_autoptr (VhScaler) scaler = NULL;
  VhPictureInfo dst = src->info;

  dst.width = 96;
  dst.height = 54;
  scaler = vh_scaler_new (VH_SCALE_BICUBIC, &src->info, &dst, NULL);
  full = vh_scaler_scale (scaler, src, NULL);
  vh_picture_drop_chroma (src);
  luma = vh_scaler_scale (scaler, src, NULL);
  g_assert_true (vh_picture_is_luma_only (luma));
  for (guint y = 0; y < 54; y++)
    g_assert_cmpmem (vh_picture_row (full, 0, y), 96,
        vh_picture_row (luma, 0, y), 96);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  rng_state = 12345;
  g_test_add_func ("/scale/filters-sum-to-one", test_filters_sum_to_one);
  g_test_add_func ("/scale/flat-and-identity", test_flat_and_identity);
  g_test_add_func ("/scale/against-float-model", test_against_float_model);
  g_test_add_func ("/scale/bilinear-ramp", test_bilinear_ramp);
  g_test_add_func ("/scale/left-edge-as-ffmpeg", test_left_edge_as_ffmpeg);
  g_test_add_func ("/scale/last-rows-as-ffmpeg", test_last_rows_as_ffmpeg);
  g_test_add_func ("/scale/interleaved-chroma", test_interleaved_chroma);
  g_test_add_func ("/scale/refusals", test_refusals);
  g_test_add_func ("/scale/luma-only", test_luma_only);
  return g_test_run ();
}
