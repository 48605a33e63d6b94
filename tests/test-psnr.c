/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "errors.h"

#include <math.h>
#include "extractor-check.h"
#include "libvmaf-reference.h"

#include <string.h>

#define TOLERANCE 1e-4

static const gchar *const psnr_metrics[] = {
  "psnr_y", "psnr_cb", "psnr_cr", NULL
};

/* Every golden pair and frame, odd sizes included, SIMD and plain C. */
static void
test_golden (void)
{
  for (guint simd = 0; simd < 2; simd++) {
    const VhGoldenCheck check = {
      .label = simd ? "psnr SIMD" : "psnr C",
      .file = "feat_psnr.json",
      .metrics = psnr_metrics,
      .tolerance = TOLERANCE,
      .extractor = "psnr",
      .portable = !simd,
    };

    vh_check_golden (&check);
  }
}

/* Runs one frame; returns the collector. */
static VhFeatureCollector *
run_one (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist)
{
  VhFeatureCollector *fc = vh_feature_collector_new ();
  GError *error = NULL;

  g_assert_true (vh_feature_extractor_init (fex, &ref->info, &error));
  g_assert_true (vh_feature_extractor_extract (fex, ref, dist, 0, fc,
          &error));
  g_assert_no_error (error);
  return fc;
}

/* Identical pictures saturate at 6 * bpc + 12 dB, 4:0:0 has luma only. */
static void
test_saturation (void)
{
  static const guint depths[] = { 8, 10, 12, 16 };
  static const VhPixFmt fmts[] = { VH_PIX_FMT_YUV400, VH_PIX_FMT_YUV420,
    VH_PIX_FMT_YUV422, VH_PIX_FMT_YUV444
  };
  g_autoptr (GRand) rand = g_rand_new_with_seed (11);

  for (guint d = 0; d < G_N_ELEMENTS (depths); d++) {
    for (guint f = 0; f < G_N_ELEMENTS (fmts); f++) {
      g_autoptr (VhPicture) pic =
          vh_test_noise_picture (fmts[f], depths[d], 37, 21, rand);
      const gdouble want = 6 * depths[d] + 12;

      for (guint simd = 0; simd < 2; simd++) {
        g_autoptr (VhFeatureExtractor) fex =
            vh_check_extractor_new ("psnr", NULL);
        g_autoptr (VhFeatureExtractor) ffex =
            vh_check_extractor_new ("float_psnr", NULL);
        g_autoptr (VhFeatureCollector) fc = NULL;
        g_autoptr (VhFeatureCollector) ffc = NULL;
        guint n = fmts[f] == VH_PIX_FMT_YUV400 ? 1 : 3;
        gdouble v;

        fex->cpu_mask = ffex->cpu_mask = simd ? 0 : VH_CPU_MASK_PORTABLE;
        fc = run_one (fex, pic, pic);
        ffc = run_one (ffex, pic, pic);
        g_assert_cmpuint (vh_feature_collector_n_features (fc), ==, n);
        for (guint m = 0; m < n; m++) {
          g_assert_true (vh_feature_collector_get (fc, psnr_metrics[m], 0,
                  &v));
          g_assert_cmpfloat (v, ==, want);
        }
        g_assert_true (vh_feature_collector_get (ffc, "float_psnr", 0, &v));
        g_assert_cmpfloat (v, ==, want);
      }
    }
  }
}

/* NV12-style chroma (interleaved, step 2) is read in place and scores the
 * same as planar chroma; odd sizes keep libvmaf's floor-size region. */
static VhPicture *
interleave_chroma (const VhPicture * src)
{
  const gsize bps = vh_picture_bytes_per_sample (src);
  const guint cw = src->width[1], ch = src->height[1];
  const gsize uv_stride = 2 * cw * bps + 24;    /* padded rows */
  guint8 *buf = g_malloc0 (src->stride[0] * src->height[0] +
      uv_stride * ch);
  guint8 *uv = buf + src->stride[0] * src->height[0];
  gpointer data[3] = { buf, uv, uv + bps };
  const gsize stride[3] = { src->stride[0], uv_stride, uv_stride };
  const guint step[3] = { 1, 2, 2 };

  memcpy (buf, src->data[0], src->stride[0] * src->height[0]);
  for (guint y = 0; y < ch; y++) {
    for (guint x = 0; x < cw; x++) {
      for (guint p = 1; p < 3; p++) {
        const guint8 *s = (guint8 *) vh_picture_row (src, p, y) + x * bps;
        memcpy (uv + y * uv_stride + (2 * x + p - 1) * bps, s, bps);
      }
    }
  }
  return vh_picture_new_wrapped (&src->info, data, stride, step,
      VH_MEMORY_HOST, buf, g_free);
}

static void
test_interleaved (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (13);
  static const guint depths[] = { 8, 10 };

  for (guint d = 0; d < G_N_ELEMENTS (depths); d++) {
    g_autoptr (VhPicture) a =
        vh_test_noise_picture (VH_PIX_FMT_YUV420, depths[d], 45, 27, rand);
    g_autoptr (VhPicture) b =
        vh_test_noise_picture (VH_PIX_FMT_YUV420, depths[d], 45, 27, rand);
    g_autoptr (VhPicture) a2 = interleave_chroma (a);
    g_autoptr (VhPicture) b2 = interleave_chroma (b);
    g_autoptr (VhFeatureExtractor) f1 = vh_check_extractor_new ("psnr", NULL);
    g_autoptr (VhFeatureExtractor) f2 = vh_check_extractor_new ("psnr", NULL);
    g_autoptr (VhFeatureExtractor) f3 = vh_check_extractor_new ("psnr", NULL);
    g_autoptr (VhFeatureCollector) planar = run_one (f1, a, b);
    g_autoptr (VhFeatureCollector) nv12 = run_one (f2, a2, b2);
    g_autoptr (VhFeatureCollector) mixed = run_one (f3, a, b2);

    for (guint m = 0; psnr_metrics[m]; m++) {
      gdouble v1, v2, v3;
      g_assert_true (vh_feature_collector_get (planar, psnr_metrics[m], 0,
              &v1));
      g_assert_true (vh_feature_collector_get (nv12, psnr_metrics[m], 0,
              &v2));
      g_assert_true (vh_feature_collector_get (mixed, psnr_metrics[m], 0,
              &v3));
      g_assert_cmpfloat (v1, ==, v2);
      g_assert_cmpfloat (v1, ==, v3);
    }
  }
}

/* The last chroma column and row of an odd-sized picture do not count. */
static void
test_odd_chroma_region (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (17);
  g_autoptr (VhPicture) a =
      vh_test_noise_picture (VH_PIX_FMT_YUV420, 8, 9, 7, rand);
  g_autoptr (VhPicture) b =
      vh_test_noise_picture (VH_PIX_FMT_YUV420, 8, 9, 7, rand);
  g_autoptr (VhFeatureExtractor) f1 = vh_check_extractor_new ("psnr", NULL);
  g_autoptr (VhFeatureExtractor) f2 = vh_check_extractor_new ("psnr", NULL);
  g_autoptr (VhFeatureCollector) fc1 = run_one (f1, a, b);
  g_autoptr (VhFeatureCollector) fc2 = NULL;
  gdouble v1, v2;

  /* Change only the extra chroma column (x = 4) and row (y = 3). */
  for (guint p = 1; p < 3; p++) {
    for (guint y = 0; y < b->height[p]; y++)
      ((guint8 *) vh_picture_row (b, p, y))[4] ^= 0x55;
    for (guint x = 0; x < b->width[p]; x++)
      ((guint8 *) vh_picture_row (b, p, 3))[x] ^= 0x55;
  }
  fc2 = run_one (f2, a, b);
  for (guint m = 1; psnr_metrics[m]; m++) {
    g_assert_true (vh_feature_collector_get (fc1, psnr_metrics[m], 0, &v1));
    g_assert_true (vh_feature_collector_get (fc2, psnr_metrics[m], 0, &v2));
    g_assert_cmpfloat (v1, ==, v2);
  }
}

/* reduced_hbd_peak, min_sse and enable_mse against libvmaf 3.2.0 (commit
 * f85a8536) logs stored under tests/data/psnr-options. */
static void
test_options (void)
{
  static const gchar *const pairs[] = {
    "a_576x324_8bit_ref", "c_640x360_10bit_x264",
    "golden_src01_576x324_16bit_3f",
  };
  g_autoptr (GRand) rand = g_rand_new_with_seed (19);
  g_autoptr (VhPicture) pic =
      vh_test_noise_picture (VH_PIX_FMT_YUV420, 8, 16, 16, rand);
  GError *error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++) {
    g_autofree gchar *file = g_strdup_printf ("psnr-options/%s.json",
        pairs[i]);
    if (vh_libvmaf_reference_check (file, pairs[i], 1e-4, 0) < 0)
      g_print ("%s: no golden pair, skipped\n", pairs[i]);
  }

  {
    g_autoptr (VhFeatureExtractor) fex = vh_check_extractor_new ("psnr", NULL);
    g_autoptr (VhFeatureCollector) fc = NULL;
    g_assert_true (vh_feature_extractor_set_option (fex, "enable_chroma",
            "false", &error));
    fc = run_one (fex, pic, pic);
    g_assert_cmpuint (vh_feature_collector_n_features (fc), ==, 1);
    g_assert_cmpstr (vh_feature_collector_feature_name (fc, 0), ==,
        "psnr_y");
  }
  {
    /* enable_apsnr: the instance turns temporal and sets the stream
     * aggregates at flush; identical pictures give libvmaf's cap,
     * ceil (10 log10 (peak^2 * samples * 2)). */
    g_autoptr (VhFeatureExtractor) fex = vh_check_extractor_new ("psnr", NULL);
    g_autoptr (VhFeatureCollector) fc = NULL;
    const gdouble n = (gdouble) pic->info.width * pic->info.height;
    const gdouble peak = (1u << pic->info.bpc) - 1;
    gdouble v = 0.0;

    g_assert_false (vh_feature_extractor_is_temporal (fex));
    g_assert_true (vh_feature_extractor_set_option (fex, "enable_apsnr",
            "true", &error));
    g_assert_true (vh_feature_extractor_is_temporal (fex));
    fc = run_one (fex, pic, pic);
    g_assert_true (vh_feature_extractor_flush (fex, fc, &error));
    g_assert_cmpuint (vh_feature_collector_n_aggregates (fc), ==, 3);
    g_assert_cmpstr (vh_feature_collector_aggregate (fc, 0, &v), ==,
        "apsnr_y");
    g_assert_cmpfloat (v, ==, ceil (10 * log10 (peak * peak * n * 2)));
  }
}

/* float_psnr against libvmaf 3.2.0 (commit f85a8536) logs stored under
 * tests/data/float-psnr: 8, 10, 12 and 16 bits. */
static void
test_float_psnr (void)
{
  static const gchar *const pairs[] = {
    "a_576x324_8bit_x264", "c_640x360_10bit_noise",
    "golden_src01_576x324_12bit_3f", "golden_src01_576x324_16bit_3f",
  };

  for (guint simd = 0; simd < 2; simd++) {
    for (guint i = 0; i < G_N_ELEMENTS (pairs); i++) {
      g_autofree gchar *file = g_strdup_printf ("float-psnr/%s.json",
          pairs[i]);
      if (vh_libvmaf_reference_check (file, pairs[i], 1e-4,
              simd ? 0 : VH_CPU_MASK_PORTABLE) < 0)
        g_print ("%s: no golden pair, skipped\n", pairs[i]);
    }
  }
}

static void
test_bad_input (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (23);
  g_autoptr (VhPicture) a =
      vh_test_noise_picture (VH_PIX_FMT_YUV420, 8, 16, 16, rand);
  g_autoptr (VhPicture) b =
      vh_test_noise_picture (VH_PIX_FMT_YUV420, 8, 18, 16, rand);
  g_autoptr (VhPicture) c =
      vh_test_noise_picture (VH_PIX_FMT_YUV444, 8, 16, 16, rand);
  static const gchar *const names[] = { "psnr", "float_psnr" };
  GError *error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++) {
    g_autoptr (VhFeatureExtractor) fex =
        vh_check_extractor_new (names[i], NULL);
    g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();

    g_assert_true (vh_feature_extractor_init (fex, &a->info, &error));
    g_assert_false (vh_feature_extractor_extract (fex, a, b, 0, fc, &error));
    g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    if (i == 0) {
      g_assert_false (vh_feature_extractor_extract (fex, c, c, 0, fc,
              &error));
      g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
      g_clear_error (&error);
    }
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/psnr/golden", test_golden);
  g_test_add_func ("/psnr/saturation", test_saturation);
  g_test_add_func ("/psnr/interleaved", test_interleaved);
  g_test_add_func ("/psnr/odd-chroma-region", test_odd_chroma_region);
  g_test_add_func ("/psnr/options", test_options);
  g_test_add_func ("/psnr/float-psnr", test_float_psnr);
  g_test_add_func ("/psnr/bad-input", test_bad_input);
  return g_test_run ();
}
