/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of integer VIF against the CPU twin, bit for bit on every
 * output (the debug numerators and denominators included): the golden
 * pairs at the default and the neg model's gain limit, synthetic frames of
 * odd sizes at 8 to 16 bits with extreme patterns, skipped scale 0; then
 * the kernels' time per frame at 1080p and 2160p. Skips (77) where there
 * is no GPU. */

#include "hip-test-gpu.h"
#include "hip-features.h"
#include "hip-picture.h"
#include "hip-integer-vif-launch.h"
#include "extractor-check.h"

static VhHipDevice *device;

static VhFeatureExtractor *
new_vif (VhBackend backend, const VhPictureInfo * info,
    const gchar * const *opts)
{
  const VhFeatureExtractorClass *klass =
      vh_extractor_set_find (vh_hip_extractor_set (), "vif", backend);
  VhFeatureExtractor *fex;
  g_autoptr (GError) error = NULL;

  g_assert_nonnull (klass);
  g_assert_cmpint (klass->backend, ==, backend);
  fex = vh_feature_extractor_new (klass);
  for (guint i = 0; opts && opts[i]; i += 2) {
    g_assert_true (vh_feature_extractor_set_option (fex, opts[i],
            opts[i + 1], &error));
    g_assert_no_error (error);
  }
  if (backend == VH_BACKEND_HIP)
    fex->device = device;
  g_assert_true (vh_feature_extractor_init (fex, info, &error));
  g_assert_no_error (error);
  return fex;
}

/* Runs both twins over @n frame pairs and demands identical values;
 * returns how many were compared. */
static guint
compare_twins (const VhPictureInfo * info, const gchar * const *opts,
    VhPicture ** refs, VhPicture ** dists, guint n, const gchar * what)
{
  g_autoptr (VhFeatureExtractor) cpu = new_vif (VH_BACKEND_CPU, info, opts);
  g_autoptr (VhFeatureExtractor) gpu = new_vif (VH_BACKEND_HIP, info, opts);
  g_autoptr (VhFeatureCollector) fc_cpu = vh_feature_collector_new ();
  g_autoptr (VhFeatureCollector) fc_gpu = vh_feature_collector_new ();
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < n; i++) {
    g_autoptr (VhPicture) dref = vh_hip_picture_upload (device, refs[i],
        &error);
    g_assert_no_error (error);
    g_autoptr (VhPicture) ddist = vh_hip_picture_upload (device, dists[i],
        &error);
    g_assert_no_error (error);

    g_assert_true (vh_feature_extractor_extract (cpu, refs[i], dists[i], i,
            fc_cpu, &error));
    g_assert_no_error (error);
    g_assert_true (vh_feature_extractor_extract (gpu, dref, ddist, i,
            fc_gpu, &error));
    g_assert_no_error (error);
  }
  g_assert_true (vh_feature_extractor_flush (gpu, fc_gpu, &error));
  g_assert_no_error (error);

  return vh_check_collectors_identical (fc_cpu, fc_gpu, n, FALSE, what);
}

static void
free_frames (VhPicture ** pics, guint n)
{
  for (guint i = 0; i < n; i++)
    vh_picture_unref (pics[i]);
  g_free (pics);
}

static void
check_golden (const gchar * const *opts, const gchar * label)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  guint n_values = 0;

  if (!pairs || pairs->len == 0) {
    g_test_skip ("no golden data");
    return;
  }
  for (guint p = 0; p < pairs->len; p++) {
    const VhGoldenPair *pair = g_ptr_array_index (pairs, p);
    VhPicture **refs = g_new0 (VhPicture *, pair->n_frames);
    VhPicture **dists = g_new0 (VhPicture *, pair->n_frames);
    g_autoptr (GError) error = NULL;
    VhPictureInfo info;
    gchar *what = g_strdup_printf ("%s %s", pair->name, label);

    g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420,
            pair->bpc, pair->width, pair->height, &error));
    for (guint i = 0; i < pair->n_frames; i++) {
      refs[i] = vh_golden_read_frame (pair, TRUE, i, &error);
      g_assert_no_error (error);
      dists[i] = vh_golden_read_frame (pair, FALSE, i, &error);
      g_assert_no_error (error);
    }
    n_values += compare_twins (&info, opts, refs, dists, pair->n_frames, what);
    g_print ("# %s: %u frames identical\n", what, pair->n_frames);
    g_free (what);
    free_frames (refs, pair->n_frames);
    free_frames (dists, pair->n_frames);
  }
  g_print ("# golden %s: %u values, max |GPU - CPU| 0\n", label, n_values);
}

static void
test_golden (void)
{
  const gchar *const opts[] = { "debug", "true", NULL };

  check_golden (opts, "default");
}

static void
test_golden_egl1 (void)
{
  const gchar *const opts[] = { "debug", "true", "vif_enhn_gain_limit",
    "1.0", NULL
  };

  check_golden (opts, "egl_1");
}

#define N_SYNTH_FRAMES 5

static guint
check_synthetic_size (guint w, guint h, guint bpc, GRand * rand)
{
  const gchar *const debug[] = { "debug", "true", NULL };
  const gchar *const egl[] = { "debug", "true", "vif_enhn_gain_limit",
    "1.5", NULL
  };
  const gchar *const skip0[] = { "debug", "true", "vif_skip_scale0", "true",
    NULL
  };
  const gchar *const *const opt_sets[] = { debug, egl, skip0 };
  VhPicture *refs[N_SYNTH_FRAMES], *dists[N_SYNTH_FRAMES];
  VhPictureInfo info;
  guint n_values = 0;

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, bpc, w, h,
          NULL));
  for (guint i = 0; i < N_SYNTH_FRAMES; i++) {
    refs[i] = vh_picture_new (&info);
    dists[i] = vh_picture_new (&info);
    vh_check_fill_luma (refs[i], rand, i);
    vh_check_fill_luma (dists[i], rand, i == 2 ? 2 : (i + 3) % 5);
  }
  for (guint o = 0; o < G_N_ELEMENTS (opt_sets); o++) {
    g_autofree gchar *what = g_strdup_printf ("%ux%u %u-bit options %u", w,
        h, bpc, o);

    n_values += compare_twins (&info, opt_sets[o], refs, dists,
        N_SYNTH_FRAMES, what);
  }
  for (guint i = 0; i < N_SYNTH_FRAMES; i++) {
    vh_picture_unref (refs[i]);
    vh_picture_unref (dists[i]);
  }
  return n_values;
}

static void
check_synthetic (const guint (*sizes)[2], guint n_sizes, const guint * depths,
    guint n_depths)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (11);
  guint n_values = 0;

  for (guint s = 0; s < n_sizes; s++) {
    for (guint d = 0; d < n_depths; d++)
      n_values += check_synthetic_size (sizes[s][0], sizes[s][1], depths[d],
          rand);
  }
  g_print ("# synthetic: %u sizes x %u depths, %u values identical\n",
      n_sizes, n_depths, n_values);
}

/* Small odd sizes, tile edges and the minimum: quick enough for a memory
 * checker. */
static void
test_synthetic_small (void)
{
  static const guint sizes[][2] = { {16, 16}, {17, 19}, {95, 31}, {113, 33},
  };
  static const guint depths[] = { 8, 16 };

  check_synthetic (sizes, G_N_ELEMENTS (sizes), depths, G_N_ELEMENTS (depths));
}

/* The smallest case, for the slowest checkers. */
static void
test_synthetic_tiny (void)
{
  static const guint sizes[][2] = { {17, 19}, {113, 33} };
  static const guint depths[] = { 10 };

  check_synthetic (sizes, G_N_ELEMENTS (sizes), depths, G_N_ELEMENTS (depths));
}

static void
test_synthetic (void)
{
  static const guint sizes[][2] = { {16, 16}, {17, 19}, {33, 64}, {95, 31},
  {113, 33}, {226, 40}, {321, 241}, {1921, 1081},
  };
  static const guint depths[] = { 8, 10, 12, 16 };

  check_synthetic (sizes, G_N_ELEMENTS (sizes), depths, G_N_ELEMENTS (depths));
}

/* ---- timing ------------------------------------------------------------ */

#define N_TIMED 50
#define N_STREAMS 4

static VhPicture *
timing_picture (guint w, guint h, guint bpc, guint seed)
{
  VhPictureInfo info;
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr (VhPicture) pic = NULL;
  g_autoptr (GError) error = NULL;
  const guint max = (1u << bpc) - 1;
  VhPicture *dev;

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, bpc, w, h,
          NULL));
  pic = vh_picture_new (&info);
  /* Textured content: most pixels take the logarithmic branch. */
  for (guint y = 0; y < h; y++) {
    gpointer row = vh_picture_row (pic, 0, y);

    for (guint x = 0; x < w; x++) {
      guint v = ((x / 7 + y / 5) * 37 % 200 + g_rand_int_range (rand, 0,
              40)) * max / 255;

      if (bpc == 8)
        ((guint8 *) row)[x] = MIN (v, max);
      else
        ((guint16 *) row)[x] = MIN (v, max);
    }
  }
  dev = vh_hip_picture_upload (device, pic, &error);
  g_assert_no_error (error);
  return dev;
}

/* GPU time of @n frames queued back to back on one stream, in ms/frame. */
static gdouble
time_frames (VhHipVifLaunch * l, VhHipStream * stream, VhPicture * ref,
    VhPicture * dist, gboolean skip_scale0, gpointer sums)
{
  g_autoptr (VhHipEvent) start = vh_hip_event_new (device, TRUE, NULL);
  g_autoptr (VhHipEvent) end = vh_hip_event_new (device, TRUE, NULL);
  g_autoptr (GError) error = NULL;
  gfloat ms = 0;

  for (guint i = 0; i < N_TIMED + 3; i++) {
    if (i == 3)
      g_assert_true (vh_hip_event_record (start, stream, &error));
    g_assert_true (vh_hip_vif_launch_frame (l, stream, ref->data[0],
            ref->stride[0], dist->data[0], dist->stride[0], 100.0,
            skip_scale0, sums, &error));
  }
  g_assert_true (vh_hip_event_record (end, stream, &error));
  g_assert_true (vh_hip_event_synchronize (end, &error));
  g_assert_true (vh_hip_event_elapsed_ms (start, end, &ms, &error));
  g_assert_no_error (error);
  return ms / N_TIMED;
}

static void
time_size (guint w, guint h, guint bpc)
{
  g_autoptr (VhPicture) ref = timing_picture (w, h, bpc, 1);
  g_autoptr (VhPicture) dist = timing_picture (w, h, bpc, 2);
  VhHipVifLaunch l[N_STREAMS];
  VhHipStream *streams[N_STREAMS];
  gpointer sums[N_STREAMS];
  g_autoptr (GError) error = NULL;
  gdouble all, rest;
  gint64 t0, t1;
  VhPictureInfo info;

  for (guint s = 0; s < N_STREAMS; s++) {
    g_assert_true (vh_hip_vif_launch_init (&l[s], device, w, h, bpc, &error));
    g_assert_no_error (error);
    streams[s] = vh_hip_stream_new (device, &error);
    g_assert_no_error (error);
    g_assert_true (vh_hip_malloc (device, 256, &sums[s], &error));
  }
  all = time_frames (&l[0], streams[0], ref, dist, FALSE, sums[0]);
  rest = time_frames (&l[0], streams[0], ref, dist, TRUE, sums[0]);

  /* Throughput with frames in flight on several streams, as the context's
   * workers run them (without their host work). */
  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < N_TIMED * N_STREAMS; i++) {
    guint s = i % N_STREAMS;

    g_assert_true (vh_hip_vif_launch_frame (&l[s], streams[s], ref->data[0],
            ref->stride[0], dist->data[0], dist->stride[0], 100.0, FALSE,
            sums[s], &error));
  }
  for (guint s = 0; s < N_STREAMS; s++)
    g_assert_true (vh_hip_stream_synchronize (streams[s], &error));
  t1 = g_get_monotonic_time ();
  g_assert_no_error (error);

  g_print ("# vif %ux%u %u-bit: %.4f ms/frame of GPU time on one stream "
      "(scale 0 statistics %.4f, the rest %.4f); %.0f frames/s on %u "
      "streams\n", w, h, bpc, all, all - rest, rest,
      N_TIMED * N_STREAMS / ((t1 - t0) / 1e6), N_STREAMS);

  /* The extractor itself, one instance: upload excluded, one wait per
   * frame included. */
  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, bpc, w, h,
          NULL));
  {
    g_autoptr (VhFeatureExtractor) gpu = new_vif (VH_BACKEND_HIP, &info, NULL);
    g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();

    t0 = g_get_monotonic_time ();
    for (guint i = 0; i < N_TIMED; i++)
      g_assert_true (vh_feature_extractor_extract (gpu, ref, dist, i, fc,
              &error));
    t1 = g_get_monotonic_time ();
    g_assert_no_error (error);
    g_print ("# vif %ux%u %u-bit: extract() %.4f ms/frame wall, one "
        "instance\n", w, h, bpc, (t1 - t0) / 1e3 / N_TIMED);
  }

  for (guint s = 0; s < N_STREAMS; s++) {
    vh_hip_stream_free (streams[s]);
    vh_hip_free (device, sums[s]);
    vh_hip_vif_launch_clear (&l[s]);
  }
}

static void
test_timing (void)
{
  time_size (1920, 1080, 8);
  time_size (1920, 1080, 10);
  time_size (3840, 2160, 8);
  time_size (3840, 2160, 10);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  device = vh_hip_test_open_gpu_or_skip ();

  g_test_add_func ("/hip-vif/golden", test_golden);
  g_test_add_func ("/hip-vif/golden-egl1", test_golden_egl1);
  g_test_add_func ("/hip-vif/synthetic-tiny", test_synthetic_tiny);
  g_test_add_func ("/hip-vif/synthetic-small", test_synthetic_small);
  g_test_add_func ("/hip-vif/synthetic", test_synthetic);
  g_test_add_func ("/hip-vif/timing", test_timing);
  return g_test_run ();
}
