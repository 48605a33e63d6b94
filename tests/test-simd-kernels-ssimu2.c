/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* SSIMULACRA 2's SIMD kernels (AVX2, AVX-512) against the portable ones,
 * bit for bit: each step on planes of sizes around the vector and tile
 * sizes (8 and 16 lanes, 32 partial sums), then whole frames. */

#include "simd-kernels-test.h"
#include "ssimulacra2-private.h"

#include <string.h>

typedef struct
{
  const gchar *name;
  const VhSsimu2Kernels *k;
} Ssimu2Impl;

static guint
ssimu2_impls (Ssimu2Impl * out)
{
  guint n = 0;

  if (vh_ssimu2_kernels_avx2 ())
    out[n++] = (Ssimu2Impl) {
    "avx2", vh_ssimu2_kernels_avx2 ()};
  else
    g_test_message ("no AVX2 ssimulacra2 kernels on this CPU");
  if (vh_ssimu2_kernels_avx512 ())
    out[n++] = (Ssimu2Impl) {
    "avx512", vh_ssimu2_kernels_avx512 ()};
  else
    g_test_message ("no AVX-512 ssimulacra2 kernels on this CPU");
  return n;
}

/* Sizes (at least 8 x 8, as the extractor asks) around 8 and 16 lanes,
 * 16 rows a tile and 32 partial sums a row. */
static const guint ssimu2_sizes[][2] = {
  {8, 8}, {9, 8}, {8, 9}, {13, 11}, {15, 17}, {16, 16}, {17, 23},
  {31, 15}, {32, 32}, {33, 19}, {47, 8}, {65, 33}, {130, 21}, {259, 9},
};

static VhSsimu2 *
ssimu2_new (void)
{
  const VhFeatureExtractorClass *klass =
      vh_feature_extractor_find ("ssimulacra2", VH_BACKEND_CPU);
  g_autoptr (VhFeatureExtractor) fex = vh_feature_extractor_new (klass);
  g_autoptr (GError) error = NULL;
  VhSsimu2 *s = g_new0 (VhSsimu2, 1);
  VhPictureInfo info;

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, 64, 64,
          NULL));
  g_assert_true (vh_ssimu2_setup (s, fex, &info, &error));
  g_assert_no_error (error);
  return s;
}

static void
ssimu2_free (VhSsimu2 * s)
{
  vh_ssimu2_clear (s);
  g_free (s);
}

/* Linear light in [0, 1] as @fill draws it; FILL_SPARSE also strays a
 * little outside (negative mixes: the clamp before the cube root). */
static gfloat
ssimu2_linear_sample (GRand * rand, Fill fill)
{
  if (fill == FILL_SPARSE && g_rand_int_range (rand, 0, 4) == 0)
    return (gfloat) g_rand_double_range (rand, -0.05, 1.05);
  return sample (rand, fill, 65535) / 65535.0f;
}

/* Downsampling, XYB, the five blurs and the sums of each channel on
 * @w x @h, then the blurs and sums in one sweep. */
static void
ssimu2_check_steps (const Ssimu2Impl * impl, const VhSsimu2 * s,
    GRand * rand, guint w, guint h, Fill fill)
{
  const VhSsimu2Kernels *c = &vh_ssimu2_kernels_c;
  const gsize n = (gsize) w * h;
  g_autofree gchar *what = g_strdup_printf ("ssimulacra2 %s, %u x %u, "
      "fill %d", impl->name, w, h, fill);
  VhSsimu2Planes pa, pb;

  vh_ssimu2_planes_init (&pa, w, h);
  vh_ssimu2_planes_init (&pb, w, h);
  for (guint side = 0; side < 2; side++)
    for (guint ch = 0; ch < 3; ch++)
      for (gsize i = 0; i < n; i++) {
        const gboolean moves = side == 1 && fill_varies (fill);

        pa.lin[side][0][ch][i] = pb.lin[side][0][ch][i] = moves ||
            side == 0 ? ssimu2_linear_sample (rand, fill) :
            pa.lin[0][0][ch][i];
      }
  for (guint ch = 0; ch < 3; ch++) {
    const gsize half = (gsize) ((w + 1) / 2) * ((h + 1) / 2);

    c->downsample (pa.lin[0][0][ch], w, h, pa.lin[0][1][ch]);
    impl->k->downsample (pb.lin[0][0][ch], w, h, pb.lin[0][1][ch]);
    assert_mem_equal (pa.lin[0][1][ch], pb.lin[0][1][ch],
        half * sizeof (gfloat), what, "downsampling");
  }
  for (guint side = 0; side < 2; side++) {
    c->xyb (s, pa.lin[side][0], pa.xyb[side], n);
    impl->k->xyb (s, pb.lin[side][0], pb.xyb[side], n);
    for (guint ch = 0; ch < 3; ch++)
      assert_mem_equal (pa.xyb[side][ch], pb.xyb[side][ch],
          n * sizeof (gfloat), what, "XYB");
  }
  for (guint ch = 0; ch < 3; ch++) {
    const gfloat *a1 = pa.xyb[0][ch], *a2 = pa.xyb[1][ch];
    const gfloat *b1 = pb.xyb[0][ch], *b2 = pb.xyb[1][ch];
    const gfloat *first[] = { a1, a2, a1, a1, a2 };
    const gfloat *second[] = { a1, a2, a2, NULL, NULL };
    const gfloat *first_b[] = { b1, b2, b1, b1, b2 };
    const gfloat *second_b[] = { b1, b2, b2, NULL, NULL };
    gdouble sums_a[VH_SSIMU2_SUMS_PER_CHANNEL];
    gdouble sums_b[VH_SSIMU2_SUMS_PER_CHANNEL];

    for (guint j = 0; j < 5; j++) {
      c->blur (&s->gauss, &pa, first[j], second[j], w, h, pa.tmp[2 + j]);
      impl->k->blur (&s->gauss, &pb, first_b[j], second_b[j], w, h,
          pb.tmp[2 + j]);
      assert_mem_equal (pa.tmp[2 + j], pb.tmp[2 + j], n * sizeof (gfloat),
          what, "blur");
    }
    c->sums (a1, a2, pa.tmp, w, h, sums_a);
    impl->k->sums (b1, b2, pb.tmp, w, h, sums_b);
    assert_mem_equal (sums_a, sums_b, sizeof (sums_a), what, "sums");
    /* the blurs and the sums in one sweep */
    impl->k->channel (&s->gauss, &pb, b1, b2, w, h, sums_b);
    assert_mem_equal (sums_a, sums_b, sizeof (sums_a), what, "channel");
  }
  vh_ssimu2_planes_clear (&pa);
  vh_ssimu2_planes_clear (&pb);
}

void
test_ssimu2_steps (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (2026);
  VhSsimu2 *s = ssimu2_new ();
  Ssimu2Impl impls[2];
  const guint n_impls = ssimu2_impls (impls);

  for (guint i = 0; i < n_impls; i++)
    for (guint si = 0; si < G_N_ELEMENTS (ssimu2_sizes); si++)
      for (Fill fill = 0; fill < N_FILLS; fill++) {
        if (fewer_cases () && fill != FILL_RANDOM && fill != FILL_SPARSE)
          continue;
        ssimu2_check_steps (&impls[i], s, rand, ssimu2_sizes[si][0],
            ssimu2_sizes[si][1], fill);
      }
  ssimu2_free (s);
}

/* A 4:2:0 picture of random samples; @like: the distorted, some samples
 * moved away from @like's. */
static VhPicture *
ssimu2_random_picture (GRand * rand, guint bpc, guint w, guint h,
    const VhPicture * like)
{
  VhPictureInfo info;
  VhPicture *pic;

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, bpc, w, h,
          NULL));
  pic = vh_picture_new (&info);
  for (guint p = 0; p < pic->n_planes; p++)
    for (guint y = 0; y < pic->height[p]; y++)
      for (guint x = 0; x < pic->width[p]; x++) {
        guint8 *row = (guint8 *) pic->data[p] + y * pic->stride[p];
        const guint8 *like_row = like ? (const guint8 *) like->data[p] +
            y * like->stride[p] : NULL;
        const guint32 max = (1u << bpc) - 1;
        guint32 v = sample (rand, FILL_RANDOM, max);

        if (like_row && g_rand_int_range (rand, 0, 3) != 0)
          v = bpc > 8 ? ((const guint16 *) like_row)[x] : like_row[x];
        if (bpc > 8)
          ((guint16 *) row)[x] = (guint16) v;
        else
          row[x] = (guint8) v;
      }
  return pic;
}

/* Every scale of whole frames: the sums of each kernel set are the
 * portable ones, bit for bit. */
void
test_ssimu2_frames (void)
{
  static const guint depths[] = { 8, 10 };
  g_autoptr (GRand) rand = g_rand_new_with_seed (2027);
  Ssimu2Impl impls[2];
  const guint n_impls = ssimu2_impls (impls);

  for (guint si = 0; si < G_N_ELEMENTS (ssimu2_sizes); si++)
    for (guint di = 0; di < G_N_ELEMENTS (depths); di++) {
      const guint w = ssimu2_sizes[si][0] * 3 + 1;
      const guint h = ssimu2_sizes[si][1] * 2 + 1;
      const VhFeatureExtractorClass *klass =
          vh_feature_extractor_find ("ssimulacra2", VH_BACKEND_CPU);
      g_autoptr (VhFeatureExtractor) fex = vh_feature_extractor_new (klass);
      g_autoptr (VhPicture) ref = ssimu2_random_picture (rand, depths[di],
          w, h, NULL);
      g_autoptr (VhPicture) dist = ssimu2_random_picture (rand, depths[di],
          w, h, ref);
      g_autofree gchar *what = NULL;
      gdouble want[VH_SSIMU2_N_SCALES * VH_SSIMU2_SUMS_PER_SCALE] = { 0 };
      VhSsimu2 s;
      VhSsimu2Planes p;
      guint n_scales;

      g_assert_true (vh_ssimu2_setup (&s, fex, &ref->info, NULL));
      vh_ssimu2_planes_init (&p, w, h);
      n_scales = vh_ssimu2_compute (&s, &p, ref, dist, &vh_ssimu2_kernels_c,
          want);
      for (guint i = 0; i < n_impls; i++) {
        gdouble got[G_N_ELEMENTS (want)] = { 0 };

        g_free (what);
        what = g_strdup_printf ("ssimulacra2 %s, frame %u x %u, %u-bit",
            impls[i].name, w, h, depths[di]);
        g_assert_cmpuint (vh_ssimu2_compute (&s, &p, ref, dist, impls[i].k,
                got), ==, n_scales);
        assert_mem_equal (want, got, sizeof (want), what, "sums");
      }
      vh_ssimu2_planes_clear (&p);
      vh_ssimu2_clear (&s);
    }
}
