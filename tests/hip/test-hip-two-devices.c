/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Two scoring contexts on two devices in one process, at once (a thread
 * each), on the fake CUDA driver with two devices (or the fake AMD
 * runtime, VH_TEST_VENDOR=amd): each context has its
 * own transfer (hip/features/hip-picture.c) and hands its device to its
 * extractors. A device extractor of the test's own (the fake driver runs no
 * kernels) reads each frame back through its context's device; psnr runs
 * on the CPU beside it. The driver counts every allocation, copy and
 * memset of device memory made outside its own device's context: there
 * must be none, each device must have done work, the values must equal a
 * CPU run, and nothing may stay allocated afterwards. */

#include "context.h"
#include "errors.h"
#include "fake-cuda-counters.h"
#include "hip-picture.h"
#include "vhhip.h"
#include "vh-test.h"

#include <dlfcn.h>
#include <math.h>
#include <string.h>

#define N_DEVICES 2
#define N_FRAMES 16
#define WIDTH 53
#define HEIGHT 37

/* Sum of absolute luma differences of two host planes. */
static gdouble
luma_sad (const guint8 * a, gsize a_stride, const guint8 * b, gsize b_stride)
{
  gdouble sad = 0;

  for (guint y = 0; y < HEIGHT; y++)
    for (guint x = 0; x < WIDTH; x++)
      sad += ABS ((gint) a[y * a_stride + x] - (gint) b[y * b_stride + x]);
  return sad;
}

/* Reads the luma of device pictures back through the context's device. */
static gboolean
device_sad_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  guint8 a[WIDTH * HEIGHT], b[WIDTH * HEIGHT];

  g_assert_cmpint (ref->mem_type, ==, VH_MEMORY_HIP_DEVICE);
  g_assert_nonnull (fex->device);
  if (!vh_hip_memcpy_2d (fex->device, VH_HIP_COPY_DEVICE_TO_HOST, a, WIDTH,
          ref->data[0], ref->stride[0], WIDTH, HEIGHT, error) ||
      !vh_hip_memcpy_2d (fex->device, VH_HIP_COPY_DEVICE_TO_HOST, b, WIDTH,
          dist->data[0], dist->stride[0], WIDTH, HEIGHT, error))
    return FALSE;
  return vh_feature_extractor_append (fex, fc, "device_sad", index,
      luma_sad (a, WIDTH, b, WIDTH), error);
}

static const gchar *device_sad_provides[] = { "device_sad", NULL };

static const VhFeatureExtractorClass device_sad_class = {
  .name = "device_sad",
  .provides = device_sad_provides,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .min_width = 1,
  .min_height = 1,
  .extract = device_sad_extract,
};

static VhPicture *
make_picture (guint seed)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed);

  return vh_test_noise_picture (VH_PIX_FMT_YUV420, 8, WIDTH, HEIGHT, rand);
}

typedef struct
{
  VhPictureTransfer *transfer;  /* NULL: CPU only */
  VhExtractorSet *extractors;   /* the built-in classes and device_sad */
  gdouble sad[N_FRAMES];
  gdouble psnr[N_FRAMES];
  GError *error;
} Run;

/* Scores N_FRAMES pairs (the same for every run) on @run's device. */
static gpointer
score (gpointer data)
{
  Run *run = data;
  VhContextConfig cfg = { 0 };
  VhContext *ctx;
  VhPictureInfo info;
  gboolean ok;

  cfg.n_threads = 2;
  cfg.backends = run->transfer ? VH_BACKEND_HIP | VH_BACKEND_CPU :
      VH_BACKEND_CPU;
  cfg.transfer = run->transfer;
  cfg.extractors = run->extractors;
  ctx = vh_context_new (&cfg);
  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, WIDTH,
          HEIGHT, NULL));
  ok = (!run->transfer || vh_context_add_feature (ctx, "device_sad", NULL,
          &run->error)) &&
      vh_context_add_feature (ctx, "psnr", NULL, &run->error) &&
      vh_context_start (ctx, &info, &run->error);
  for (guint i = 0; ok && i < N_FRAMES; i++) {
    g_autoptr (VhPicture) ref = make_picture (2 * i);
    g_autoptr (VhPicture) dist = make_picture (2 * i + 1);
    ok = vh_context_submit (ctx, ref, dist, NULL, &run->error);
  }
  ok = ok && vh_context_finish (ctx, &run->error);
  if (ok) {
    g_autoptr (GArray) psnr = vh_test_collect_values (ctx, "psnr_y",
        N_FRAMES);
    g_autoptr (GArray) sad = run->transfer ? vh_test_collect_values (ctx,
        "device_sad", N_FRAMES) : NULL;
    for (guint i = 0; i < N_FRAMES; i++) {
      run->psnr[i] = g_array_index (psnr, gdouble, i);
      g_assert_false (isnan (run->psnr[i]));
      if (sad) {
        run->sad[i] = g_array_index (sad, gdouble, i);
        g_assert_false (isnan (run->sad[i]));
      }
    }
  }
  vh_context_free (ctx);
  return NULL;
}

/* The fake driver's counters, from the copy the HIP layer loaded. */
static gpointer
fake_symbol (const gchar * name)
{
  gpointer lib = vh_fake_cuda_library ();
  gpointer sym = lib ? dlsym (lib, name) : NULL;

  g_assert_nonnull (sym);
  return sym;
}

static void
test_two_devices (void)
{
  guint (*n_foreign) (void);
  guint (*n_allocations) (void);
  void (*device_counts) (gint, guint *, gsize *);
  Run cpu = { 0 }, runs[N_DEVICES] = { {0} };
  GThread *threads[N_DEVICES];
  GError *error = NULL;
  g_autoptr (VhExtractorSet) extractors = vh_extractor_set_new_builtin ();
  VhHipVendor vendor = g_strcmp0 (g_getenv ("VH_TEST_VENDOR"), "amd") == 0 ?
      VH_HIP_VENDOR_AMD : VH_HIP_VENDOR_NVIDIA;

  vh_extractor_set_add (extractors, &device_sad_class);
  cpu.extractors = extractors;
  for (guint d = 0; d < N_DEVICES; d++) {
    runs[d].extractors = extractors;
    VhHipDevice *device = vh_hip_device_open (vendor, d,
        &error);
    g_assert_no_error (error);
    runs[d].transfer = vh_hip_picture_transfer_new (device);
    vh_hip_device_unref (device);
  }
  g_assert_true (vh_picture_transfer_get_device (runs[0].transfer) !=
      vh_picture_transfer_get_device (runs[1].transfer));
  n_foreign = fake_symbol ("vh_fake_cuda_n_foreign");
  n_allocations = fake_symbol ("vh_fake_cuda_n_allocations");
  device_counts = fake_symbol ("vh_fake_cuda_device_counts");

  /* both devices at once */
  for (guint d = 0; d < N_DEVICES; d++)
    threads[d] = g_thread_new ("score", score, &runs[d]);
  score (&cpu);
  g_assert_no_error (cpu.error);
  for (guint d = 0; d < N_DEVICES; d++) {
    g_thread_join (threads[d]);
    g_assert_no_error (runs[d].error);
  }

  for (guint i = 0; i < N_FRAMES; i++) {
    g_autoptr (VhPicture) ref = make_picture (2 * i);
    g_autoptr (VhPicture) dist = make_picture (2 * i + 1);
    gdouble sad = luma_sad (ref->data[0], ref->stride[0], dist->data[0],
        dist->stride[0]);
    g_assert_cmpfloat (sad, >, 0);
    for (guint d = 0; d < N_DEVICES; d++) {
      g_assert_cmpfloat (runs[d].sad[i], ==, sad);
      g_assert_cmpfloat (runs[d].psnr[i], ==, cpu.psnr[i]);
    }
  }

  /* every allocation and copy on its own device, and both did work */
  g_assert_cmpuint (n_foreign (), ==, 0);
  for (guint d = 0; d < N_DEVICES; d++) {
    guint allocs;
    gsize copied;
    device_counts (d, &allocs, &copied);
    g_test_message ("device %u: %u allocations, %" G_GSIZE_FORMAT
        " bytes copied", d, allocs, copied);
    /* two planes sets per frame at most (pooled), and both ways */
    g_assert_cmpuint (allocs, >=, 3);
    g_assert_cmpuint (copied, >=, 2 * N_FRAMES * WIDTH * HEIGHT * 2);
  }
  for (guint d = 0; d < N_DEVICES; d++)
    vh_picture_transfer_unref (runs[d].transfer);
  /* the transfers' pools are gone, and every picture's planes with them */
  g_assert_cmpuint (n_allocations (), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/hip/two-devices/score-at-once", test_two_devices);
  return g_test_run ();
}
