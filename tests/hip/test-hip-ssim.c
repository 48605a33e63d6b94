/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twins of float_ssim and float_ms_ssim against their CPU twins,
 * frame for frame: the golden pairs, and synthetic frames of odd sizes and
 * 8 to 16 bits, with every option that changes the path (downscaling
 * factors, lcs outputs, dB). Then the kernel time per frame at 1080p and
 * 2160p, from events. The class checks run everywhere; the rest skips
 * (77) without a GPU.
 *
 * VH_TEST_SSIM_QUICK=1 keeps to small frames and skips the timing (for
 * runs under compute-sanitizer). */

#include "hip-test-gpu.h"
#include "hip-features.h"
#include "hip-picture.h"
#include "hip-ssim-common.h"
#include "errors.h"
#include "golden.h"

#include <math.h>
#include <string.h>

#define TOLERANCE 1e-4

static VhHipDevice *device;
static gboolean quick;

/* Largest |GPU - CPU| per extractor, over everything compared. */
static gdouble worst[2];
static guint n_values[2];
static guint n_equal[2];

static const VhFeatureExtractorClass *
gpu_class (guint which)
{
  return which ? &vh_hip_fex_float_ms_ssim : &vh_hip_fex_float_ssim;
}

/* ---- classes (no GPU needed) ---------------------------------------- */

static void
check_class_matches_cpu (const VhFeatureExtractorClass * gpu)
{
  const VhFeatureExtractorClass *cpu =
      vh_feature_extractor_find (gpu->name, VH_BACKEND_CPU);
  guint i;

  g_assert_nonnull (cpu);
  g_assert_cmpint (gpu->backend, ==, VH_BACKEND_HIP);
  g_assert_cmpint (gpu->mem_type, ==, VH_MEMORY_HIP_DEVICE);
  g_assert_cmpuint (gpu->min_width, ==, cpu->min_width);
  g_assert_cmpuint (gpu->min_height, ==, cpu->min_height);
  /* Which planes go to the device is the twin's own business. */
  g_assert_cmpuint (gpu->flags & ~VH_EXTRACTOR_FLAG_LUMA_ONLY, ==,
      cpu->flags & ~VH_EXTRACTOR_FLAG_LUMA_ONLY);
  for (i = 0; cpu->provides[i]; i++)
    g_assert_cmpstr (gpu->provides[i], ==, cpu->provides[i]);
  g_assert_null (gpu->provides[i]);
  for (i = 0; cpu->options[i].name; i++) {
    const VhOptionSpec *a = &cpu->options[i], *b = &gpu->options[i];

    g_assert_cmpstr (b->name, ==, a->name);
    g_assert_cmpstr (b->alias, ==, a->alias);
    g_assert_cmpint (b->type, ==, a->type);
    g_assert_cmpfloat (b->default_value, ==, a->default_value);
    g_assert_cmpfloat (b->min, ==, a->min);
    g_assert_cmpfloat (b->max, ==, a->max);
    g_assert_cmpint (b->flags, ==, a->flags);
  }
  g_assert_null (gpu->options[i].name);
  g_assert_true (vh_extractor_set_find (vh_hip_extractor_set (), gpu->name,
          VH_BACKEND_HIP) == gpu);
  g_assert_true (vh_extractor_set_find (vh_hip_extractor_set (), gpu->name,
          VH_BACKEND_HIP | VH_BACKEND_CPU) == gpu);
}

static void
test_classes (void)
{
  check_class_matches_cpu (&vh_hip_fex_float_ssim);
  check_class_matches_cpu (&vh_hip_fex_float_ms_ssim);
}

/* ---- comparing with the CPU twins ----------------------------------- */

static VhFeatureExtractor *
new_extractor (const VhFeatureExtractorClass * klass,
    const gchar * const *opts, const VhPictureInfo * info)
{
  VhFeatureExtractor *fex = vh_feature_extractor_new (klass);
  GError *error = NULL;

  for (guint i = 0; opts && opts[i]; i += 2)
    g_assert_true (vh_feature_extractor_set_option (fex, opts[i],
            opts[i + 1], &error));
  if (klass->backend == VH_BACKEND_HIP)
    fex->device = device;
  g_assert_true (vh_feature_extractor_init (fex, info, &error));
  g_assert_no_error (error);
  return fex;
}

/* Frame source for compare(). */
typedef VhPicture *(*FrameFunc) (gpointer data, gboolean ref, guint index);

static void
compare (guint which, const VhPictureInfo * info, guint n_frames,
    FrameFunc frame, gpointer data, const gchar * const *opts,
    const gchar * label)
{
  const VhFeatureExtractorClass *gpu_klass = gpu_class (which);
  const VhFeatureExtractorClass *cpu_klass =
      vh_feature_extractor_find (gpu_klass->name, VH_BACKEND_CPU);
  g_autoptr (VhFeatureExtractor) cpu = new_extractor (cpu_klass, opts, info);
  g_autoptr (VhFeatureExtractor) gpu = new_extractor (gpu_klass, opts, info);
  g_autoptr (VhFeatureCollector) fc_cpu = vh_feature_collector_new ();
  g_autoptr (VhFeatureCollector) fc_gpu = vh_feature_collector_new ();
  GError *error = NULL;
  gdouble local = 0.0;

  for (guint i = 0; i < n_frames; i++) {
    g_autoptr (VhPicture) ref = frame (data, TRUE, i);
    g_autoptr (VhPicture) dist = frame (data, FALSE, i);
    g_autoptr (VhPicture) d_ref = vh_hip_picture_upload (device, ref, &error);
    g_assert_no_error (error);
    g_autoptr (VhPicture) d_dist = vh_hip_picture_upload (device, dist, &error);
    g_assert_no_error (error);

    g_assert_true (vh_feature_extractor_extract (cpu, ref, dist, i, fc_cpu,
            &error));
    g_assert_true (vh_feature_extractor_extract (gpu, d_ref, d_dist, i,
            fc_gpu, &error));
    g_assert_no_error (error);
  }

  g_assert_cmpuint (vh_feature_collector_n_features (fc_gpu), ==,
      vh_feature_collector_n_features (fc_cpu));
  for (guint f = 0; f < vh_feature_collector_n_features (fc_cpu); f++) {
    const gchar *name = vh_feature_collector_feature_name (fc_cpu, f);

    for (guint i = 0; i < n_frames; i++) {
      gdouble a, b, d;

      g_assert_true (vh_feature_collector_get (fc_cpu, name, i, &a));
      if (!vh_feature_collector_get (fc_gpu, name, i, &b))
        g_error ("%s: the GPU twin gave no %s for frame %u", label, name, i);
      d = fabs (a - b);
      if (!(d <= TOLERANCE))
        g_error ("%s: %s frame %u: CPU %.17g, GPU %.17g (difference %.3g)",
            label, name, i, a, b, d);
      local = MAX (local, d);
      n_values[which]++;
      n_equal[which] += a == b;
    }
  }
  worst[which] = MAX (worst[which], local);
  printf ("# %-14s %-40s %u frames, max |GPU - CPU| %.3g\n",
      gpu_klass->name, label, n_frames, local);
}

static VhPicture *
golden_frame (gpointer data, gboolean ref, guint index)
{
  GError *error = NULL;
  VhPicture *pic = vh_golden_read_frame (data, ref, index, &error);

  g_assert_no_error (error);
  return pic;
}

static void
test_golden (void)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  static const gchar *const lcs[] = { "enable_lcs", "1", NULL };

  if (pairs->len == 0) {
    g_test_skip ("no golden data");
    return;
  }
  for (guint p = 0; p < pairs->len; p++) {
    VhGoldenPair *pair = g_ptr_array_index (pairs, p);
    guint n = quick ? MIN (pair->n_frames, 2) : pair->n_frames;
    VhPictureInfo info;

    g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420,
            pair->bpc, pair->width, pair->height, NULL));
    for (guint w = 0; w < 2; w++) {
      if (pair->width < gpu_class (w)->min_width ||
          pair->height < gpu_class (w)->min_height)
        continue;
      compare (w, &info, n, golden_frame, pair, lcs, pair->name);
    }
  }
}

/* ---- synthetic frames ------------------------------------------------ */

typedef struct
{
  VhPictureInfo info;
  guint seed;
  guint kind;                   /* 0: textured, 1: flat and equal, 2: extremes */
} Synth;

/* Smooth texture plus noise; the distorted frame is blurred and noisier,
 * so that SSIM lands well inside (0, 1). */
static VhPicture *
synth_frame (gpointer data, gboolean ref, guint index)
{
  const Synth *sy = data;
  VhPicture *pic = vh_picture_new (&sy->info);
  const guint max = (1u << sy->info.bpc) - 1;
  g_autoptr (GRand) rand = g_rand_new_with_seed (sy->seed * 131 + index);
  g_autoptr (GRand) noise = g_rand_new_with_seed (sy->seed * 977 + index +
      (ref ? 0 : 7));

  for (guint p = 0; p < pic->n_planes; p++) {
    for (guint y = 0; y < pic->height[p]; y++) {
      guint8 *row = vh_picture_row (pic, p, y);

      for (guint x = 0; x < pic->width[p]; x++) {
        gdouble v;
        guint s;

        if (sy->kind == 1) {
          v = 0.37;
        } else if (sy->kind == 2) {
          v = ((x / 7 + y / 5 + index) % 3) ? 1.0 : 0.0;
          if (!ref && (x * 31 + y * 17) % 23 == 0)
            v = 1.0 - v;
        } else {
          gdouble fx = ref ? x : x + 0.6, fy = ref ? y : y + 0.4;

          v = 0.5 + 0.3 * sin (fx * 0.05 + index) * cos (fy * 0.031) +
              0.1 * sin ((fx + fy) * 0.4);
          v += (g_rand_double (noise) - 0.5) * (ref ? 0.05 : 0.12);
          v += (g_rand_double (rand) - 0.5) * 0.02;
        }
        v = CLAMP (v, 0.0, 1.0);
        s = (guint) (v * max + 0.5);
        if (sy->info.bpc == 8)
          row[x] = s;
        else
          ((guint16 *) row)[x] = s;
      }
    }
  }
  return pic;
}

static void
run_synth (guint which, guint bpc, guint w, guint h, guint kind,
    const gchar * const *opts, const gchar * what)
{
  Synth sy = { 0 };
  g_autofree gchar *label = g_strdup_printf ("%ux%u %u-bit %s", w, h, bpc,
      what);

  g_assert_true (vh_picture_info_init (&sy.info, VH_PIX_FMT_YUV420, bpc, w,
          h, NULL));
  sy.seed = w * 7 + h * 3 + bpc + kind;
  sy.kind = kind;
  compare (which, &sy.info, 2, synth_frame, &sy, opts, label);
}

static void
test_synthetic (void)
{
  static const gchar *const lcs[] = { "enable_lcs", "1", NULL };
  static const gchar *const db[] = { "enable_db", "1", "clip_db", "1",
    NULL
  };
  static const gchar *const db_noclip[] = { "enable_db", "1", NULL };
  static const struct
  {
    guint bpc, w, h;
  } sizes[] = {
    {8, 333, 199}, {10, 641, 359}, {12, 1001, 577}, {16, 1283, 721},
    {8, 1921, 1081}, {10, 177, 181}, {8, 176, 176},
  };
  static const gchar *const scales[] = { "1", "2", "3", "5", "10" };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
    if (quick && sizes[i].w > 700)
      continue;
    for (guint w = 0; w < 2; w++)
      run_synth (w, sizes[i].bpc, sizes[i].w, sizes[i].h, 0, lcs, "lcs");
  }

  /* Every downscaling path of float_ssim, odd and even factors. */
  for (guint i = 0; i < G_N_ELEMENTS (scales); i++) {
    const gchar *opts[] = { "scale", scales[i], "enable_lcs", "1", NULL };
    g_autofree gchar *what = g_strdup_printf ("scale=%s", scales[i]);

    run_synth (0, 8, 333, 247, 0, opts, what);
    run_synth (0, 12, 301, 223, 0, opts, what);
    if (!quick)
      run_synth (0, 16, 997, 541, 0, opts, what);
  }

  /* The smallest frames each accepts. */
  run_synth (0, 8, 11, 11, 0, lcs, "smallest");
  run_synth (0, 12, 13, 17, 0, lcs, "small");

  /* Flat identical frames (the covariance clamp) and extreme values. */
  for (guint w = 0; w < 2; w++) {
    run_synth (w, 8, 201, 187, 1, lcs, "flat equal");
    run_synth (w, 16, 201, 187, 1, lcs, "flat equal");
    run_synth (w, 8, 203, 179, 2, lcs, "extremes");
    run_synth (w, 16, 203, 179, 2, lcs, "extremes");
    run_synth (w, 10, 259, 193, 0, db, "dB clipped");
    run_synth (w, 10, 259, 193, 0, db_noclip, "dB");
  }
}

/* ---- timing ---------------------------------------------------------- */

static void
time_one (guint which, guint bpc, guint w, guint h,
    const gchar * const *opts, const gchar * what)
{
  const guint n = 30;
  Synth sy = { 0 };
  g_autoptr (VhFeatureExtractor) gpu = NULL;
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  GError *error = NULL;
  gdouble kernel_ms = 0.0, best = G_MAXDOUBLE;
  gint64 t0;
  VhHipSsim *ss;

  g_assert_true (vh_picture_info_init (&sy.info, VH_PIX_FMT_YUV420, bpc, w,
          h, NULL));
  sy.seed = 5;
  gpu = new_extractor (gpu_class (which), opts, &sy.info);
  ss = vh_hip_ssim_from_extractor (gpu);
  g_assert_true (vh_hip_ssim_enable_timing (ss, &error));

  g_autoptr (VhPicture) ref = synth_frame (&sy, TRUE, 0);
  g_autoptr (VhPicture) dist = synth_frame (&sy, FALSE, 0);
  g_autoptr (VhPicture) d_ref = vh_hip_picture_upload (device, ref, &error);
  g_autoptr (VhPicture) d_dist = vh_hip_picture_upload (device, dist, &error);
  g_assert_no_error (error);

  /* Warm-up: module loads, first launches. */
  for (guint i = 0; i < 3; i++)
    g_assert_true (vh_feature_extractor_extract (gpu, d_ref, d_dist, i, fc,
            &error));
  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < n; i++) {
    gfloat ms;

    g_assert_true (vh_feature_extractor_extract (gpu, d_ref, d_dist, 3 + i,
            fc, &error));
    g_assert_true (vh_hip_ssim_last_ms (ss, &ms, &error));
    kernel_ms += ms;
    best = MIN (best, ms);
  }
  printf ("# timing %-14s %4ux%-4u %2u-bit %-8s kernels %.3f ms/frame "
      "(best %.3f), extract incl. copy and wait %.3f ms/frame\n",
      gpu_class (which)->name, w, h, bpc, what, kernel_ms / n, best,
      (g_get_monotonic_time () - t0) / 1000.0 / n);
}

static void
test_timing (void)
{
  static const gchar *const scale1[] = { "scale", "1", NULL };
  static const guint sizes[][2] = { {1920, 1080}, {3840, 2160} };

  if (quick) {
    g_test_skip ("quick mode");
    return;
  }
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
    for (guint bpc = 8; bpc <= 10; bpc += 2) {
      time_one (0, bpc, sizes[s][0], sizes[s][1], NULL, "auto");
      time_one (0, bpc, sizes[s][0], sizes[s][1], scale1, "scale=1");
      time_one (1, bpc, sizes[s][0], sizes[s][1], NULL, "");
    }
  }
}

static void
test_summary (void)
{
  for (guint w = 0; w < 2; w++)
    printf ("# %s: %u values, %u equal to the CPU twin's, max |GPU - CPU| "
        "%.3g (tolerance %g)\n", gpu_class (w)->name, n_values[w],
        n_equal[w], worst[w], TOLERANCE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  quick = g_strcmp0 (g_getenv ("VH_TEST_SSIM_QUICK"), "1") == 0;

  /* The classes need no GPU. */
  test_classes ();
  device = vh_hip_test_open_gpu_or_skip ();
  for (guint i = 0; i < 2; i++) {
    const VhHipKernelSource *src = i ? &vh_hip_kernel_ssim_decimate :
        &vh_hip_kernel_ssim;
    GError *error = NULL;
    VhHipModule *module = vh_hip_module_get (device, src, &error);

    g_assert_no_error (error);
    printf ("# module %s: %s\n", src->name, vh_hip_module_describe (module));
  }

  g_test_add_func ("/hip-ssim/golden", test_golden);
  g_test_add_func ("/hip-ssim/synthetic", test_synthetic);
  g_test_add_func ("/hip-ssim/summary", test_summary);
  g_test_add_func ("/hip-ssim/timing", test_timing);
  return g_test_run ();
}
