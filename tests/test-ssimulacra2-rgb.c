/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* ssimulacra2's Y'CbCr to R'G'B' by whole rows (vh_ssimu2_rgb16_row(),
 * with the portable kernels and each SIMD set this CPU runs) against a
 * per-sample reference written here from the rule the HIP twin
 * follows (ssimulacra2.h, ssimulacra2-color.c): every chroma layout, 8,
 * 10 and 16 bits, odd sizes, packed and strided samples, and the
 * reference's and distorted's own matrix and range. */

#include "extractor-check.h"
#include "ssimulacra2-private.h"

#include <string.h>

static const gchar *const rgb_matrices[] = { "bt601", "bt709", "bt2020" };
static const gchar *const rgb_ranges[] = { "limited", "full" };

static const VhPixFmt rgb_formats[] = {
  VH_PIX_FMT_YUV400, VH_PIX_FMT_YUV420, VH_PIX_FMT_YUV422, VH_PIX_FMT_YUV444,
};

static const guint rgb_depths[] = { 8, 10, 16 };

/* At least 8 x 8 (the extractor's minimum); odd and even, around the
 * vector widths. */
static const guint rgb_sizes[][2] = {
  {8, 8}, {9, 8}, {8, 9}, {13, 11}, {17, 23}, {33, 19}, {65, 9},
};

/* The reference: one sample at a time. */
static guint
ref_sample (const VhPicture * pic, guint p, guint x, guint y)
{
  const guint8 *row = vh_picture_row (pic, p, y);
  const guint step = pic->step[p] ? pic->step[p] : 1;

  if (pic->info.bpc > 8)
    return ((const guint16 *) row)[(gsize) x * step];
  return row[(gsize) x * step];
}

/* Twice the chroma at luma column @x of chroma row @cy: co-sited with
 * the even columns, the mean of two neighbours at the odd ones. */
static guint
ref_chroma_h2 (const VhSsimu2Yuv * yuv, const VhPicture * pic, guint p,
    guint x, guint cy)
{
  const guint k = x >> 1;

  if (!yuv->ssx)
    return 2 * ref_sample (pic, p, x, cy);
  if (!(x & 1))
    return 2 * ref_sample (pic, p, k, cy);
  return ref_sample (pic, p, k, cy) + ref_sample (pic, p,
      MIN (k + 1, pic->width[p] - 1), cy);
}

/* Eight times the chroma at luma (@x, @y): 4:2:0 chroma lies half way
 * between two luma rows, 3/4 of the nearer row and 1/4 of the other. */
static guint
ref_chroma_num (const VhSsimu2Yuv * yuv, const VhPicture * pic, guint p,
    guint x, guint y)
{
  const guint k = y >> 1;
  guint other;

  if (!yuv->ssy)
    return 4 * ref_chroma_h2 (yuv, pic, p, x, y);
  if (!(y & 1))
    other = k > 0 ? k - 1 : 0;
  else
    other = MIN (k + 1, pic->height[p] - 1);
  return 3 * ref_chroma_h2 (yuv, pic, p, x, k) + ref_chroma_h2 (yuv, pic, p,
      x, other);
}

static guint16
ref_quantise (gfloat v)
{
  v = v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
  return (guint16) (v * 65535.0f + 0.5f);
}

static void
ref_rgb16 (const VhSsimu2Yuv * yuv, const VhPicture * pic, guint x, guint y,
    guint16 rgb[3])
{
  const gfloat luma = ((gfloat) ref_sample (pic, 0, x, y) - yuv->y_offset) *
      yuv->y_scale;
  gfloat cb = 0.0f, cr = 0.0f;

  if (!yuv->grey) {
    cb = ((gfloat) ref_chroma_num (yuv, pic, 1, x, y) * 0.125f -
        yuv->c_offset) * yuv->c_scale;
    cr = ((gfloat) ref_chroma_num (yuv, pic, 2, x, y) * 0.125f -
        yuv->c_offset) * yuv->c_scale;
  }
  rgb[0] = ref_quantise (luma + yuv->cr_r * cr);
  rgb[1] = ref_quantise ((luma - yuv->cb_g * cb) - yuv->cr_g * cr);
  rgb[2] = ref_quantise (luma + yuv->cb_b * cb);
}

/* Random samples, a few of them 0 or the maximum (the clamps at both
 * ends, whatever the range). */
static guint
rgb_random_sample (GRand * rand, guint bpc)
{
  const guint max = (1u << bpc) - 1;

  switch (g_rand_int_range (rand, 0, 8)) {
    case 0:
      return 0;
    case 1:
      return max;
    default:
      return g_rand_int_range (rand, 0, (gint32) max + 1);
  }
}

/* A host picture of @info with random samples @step apart (junk in
 * between). */
static VhPicture *
rgb_random_picture (const VhPictureInfo * info, guint step, GRand * rand,
    GPtrArray * buffers)
{
  g_autoptr (VhPicture) shape = vh_picture_new (info);
  const gsize bps = info->bpc > 8 ? 2 : 1;
  gpointer data[3] = { NULL, NULL, NULL };
  gsize stride[3] = { 0, 0, 0 };
  guint steps[3] = { 0, 0, 0 };

  for (guint p = 0; p < shape->n_planes; p++) {
    guint8 *plane;

    /* One spare sample a row: strides need not be tight. */
    stride[p] = ((gsize) shape->width[p] * step + 1) * bps;
    steps[p] = step;
    plane = g_malloc (stride[p] * shape->height[p]);
    g_ptr_array_add (buffers, plane);
    data[p] = plane;
    for (gsize i = 0; i < stride[p] * shape->height[p] / bps; i++) {
      const guint v = rgb_random_sample (rand, info->bpc);

      if (bps == 2)
        ((guint16 *) plane)[i] = (guint16) v;
      else
        plane[i] = (guint8) v;
    }
  }
  return vh_picture_new_wrapped (info, data, stride, steps, VH_MEMORY_HOST,
      NULL, NULL);
}

/* The two streams' conversions of ssimulacra2 set up with @opts. */
static void
rgb_setup (VhSsimu2 * s, const VhPictureInfo * info,
    const gchar * const *opts)
{
  g_autoptr (VhFeatureExtractor) fex =
      vh_check_extractor_new ("ssimulacra2", opts);
  g_autoptr (GError) error = NULL;

  g_assert_true (vh_ssimu2_setup (s, fex, info, &error));
  g_assert_no_error (error);
}

typedef struct
{
  const gchar *name;
  const VhSsimu2Kernels *k;
} RgbImpl;

/* The portable kernels and the SIMD ones this CPU runs. */
static guint
rgb_impls (RgbImpl * out)
{
  guint n = 0;

  out[n++] = (RgbImpl) {
  "portable", &vh_ssimu2_kernels_c};
  if (vh_ssimu2_kernels_avx2 ())
    out[n++] = (RgbImpl) {
    "avx2", vh_ssimu2_kernels_avx2 ()};
  if (vh_ssimu2_kernels_avx512 ())
    out[n++] = (RgbImpl) {
    "avx512", vh_ssimu2_kernels_avx512 ()};
  return n;
}

static void
rgb_check (const RgbImpl * impl, const VhSsimu2Yuv * yuv,
    const VhPicture * pic, const gchar * what)
{
  const guint w = pic->info.width;
  g_autofree gint32 *scratch = g_new (gint32, VH_SSIMU2_RGB_SCRATCH (w));
  g_autofree guint16 *row = g_new (guint16, (gsize) 3 * w);

  for (guint y = 0; y < pic->info.height; y++) {
    /* Junk in, so that nothing counts on scratch or output starting at 0. */
    memset (scratch, 0x5a, VH_SSIMU2_RGB_SCRATCH (w) * sizeof (gint32));
    memset (row, 0xa5, (gsize) 3 * w * sizeof (guint16));
    vh_ssimu2_rgb16_row (impl->k, yuv, pic, y, scratch, row, row + w,
        row + 2 * w);
    for (guint x = 0; x < w; x++) {
      guint16 want[3];

      ref_rgb16 (yuv, pic, x, y, want);
      for (guint c = 0; c < 3; c++)
        if (row[c * w + x] != want[c])
          g_error ("%s, %s: channel %u at (%u, %u) is %u, the per-sample "
              "reference %u", impl->name, what, c, x, y, row[c * w + x],
              want[c]);
    }
  }
}

static void
test_rows_equal_samples (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (2026);
  RgbImpl impls[3];
  const guint n_impls = rgb_impls (impls);
  guint checked = 0;

  for (guint f = 0; f < G_N_ELEMENTS (rgb_formats); f++)
    for (guint d = 0; d < G_N_ELEMENTS (rgb_depths); d++)
      for (guint z = 0; z < G_N_ELEMENTS (rgb_sizes); z++)
        for (guint m = 0; m < G_N_ELEMENTS (rgb_matrices); m++)
          for (guint r = 0; r < G_N_ELEMENTS (rgb_ranges); r++)
            for (guint step = 1; step <= 2; step++) {
              /* The distorted gets another matrix and range than the
               * reference's: each stream converts with its own. */
              const gchar *opts[] = {
                "matrix", rgb_matrices[m], "range", rgb_ranges[r],
                "dist_matrix", rgb_matrices[(m + 1) % 3],
                "dist_range", rgb_ranges[1 - r], NULL
              };
              g_autoptr (GPtrArray) buffers =
                  g_ptr_array_new_with_free_func (g_free);
              g_autoptr (VhPicture) pic = NULL;
              VhPictureInfo info;
              VhSsimu2 s = { 0 };

              g_assert_true (vh_picture_info_init (&info, rgb_formats[f],
                      rgb_depths[d], rgb_sizes[z][0], rgb_sizes[z][1],
                      NULL));
              rgb_setup (&s, &info, opts);
              pic = rgb_random_picture (&info, step, rand, buffers);
              for (guint i = 0; i < 2; i++) {
                g_autofree gchar *what = g_strdup_printf ("format %d, %u "
                    "bits, %ux%u, step %u, %s %s %s", rgb_formats[f],
                    rgb_depths[d], info.width, info.height, step,
                    i ? "distorted" : "reference",
                    opts[i ? 5 : 1], opts[i ? 7 : 3]);

                for (guint j = 0; j < n_impls; j++)
                  rgb_check (&impls[j], &s.yuv[i], pic, what);
                checked++;
              }
              vh_ssimu2_clear (&s);
            }
  g_assert_cmpuint (checked, ==, 2 * G_N_ELEMENTS (rgb_formats) *
      G_N_ELEMENTS (rgb_depths) * G_N_ELEMENTS (rgb_sizes) *
      G_N_ELEMENTS (rgb_matrices) * G_N_ELEMENTS (rgb_ranges) * 2);
}

/* The two streams' conversions differ where their colorimetry does: the
 * test above compares each against its own, not twice the same. */
static void
test_streams_own_colorimetry (void)
{
  const gchar *opts[] = {
    "matrix", "bt709", "range", "limited",
    "dist_matrix", "bt2020", "dist_range", "full", NULL
  };
  VhPictureInfo info;
  VhSsimu2 s = { 0 };

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 10, 16, 16,
          NULL));
  rgb_setup (&s, &info, opts);
  g_assert_cmpfloat (s.yuv[0].y_offset, !=, s.yuv[1].y_offset);
  g_assert_cmpfloat (s.yuv[0].cr_r, !=, s.yuv[1].cr_r);
  vh_ssimu2_clear (&s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ssimulacra2-rgb/rows-equal-samples",
      test_rows_equal_samples);
  g_test_add_func ("/ssimulacra2-rgb/streams-own-colorimetry",
      test_streams_own_colorimetry);
  return g_test_run ();
}
