/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The GPU frame probes (hip/features/hip-frame-probe.c) against the CPU
 * functions they replace for frames in device memory: the alignment
 * signature from the probe's block sums bit for bit equal to
 * vh_align_signature_compute(), and the sampled sums (sum, squares,
 * differences with the previous frame) equal to those of the samples
 * gst_vmaf_hip_luma_stats() takes, on 8 to 16 bits and odd sizes, several
 * frames in a row (the previous samples kept on the device), tickets
 * collected late and out of order. Run on the GPU stand-ins with the
 * kernels' source (VH_FAKE_CUDA_KERNELS=emulate), or on a GPU. */

#include <string.h>
#include <gst/gst.h>

#include "align.h"
#include "errors.h"
#include "hip-frame-probe.h"
#include "hip-picture.h"
#include "gstvmafhipevents.h"
#include "hip-test-gpu.h"

GST_DEBUG_CATEGORY (gst_vmaf_hip_compare_debug);

static VhHipDevice *device;

static VhPicture *
random_picture (GRand * rand, guint w, guint h, guint bpc, const VhPicture *
    like, guint changed_rows)
{
  VhPictureInfo info = { VH_PIX_FMT_YUV400, bpc, w, h };
  VhPicture *pic = vh_picture_new (&info);

  for (guint y = 0; y < h; y++) {
    guint8 *row = vh_picture_row (pic, 0, y);

    /* a frame like @like but for its first @changed_rows rows */
    if (like && y >= changed_rows) {
      memcpy (row, vh_picture_row (like, 0, y),
          (gsize) w * (bpc > 8 ? 2 : 1));
      continue;
    }
    for (guint x = 0; x < w; x++) {
      guint v = g_rand_int_range (rand, 0, 1 << bpc);

      if (bpc > 8)
        ((guint16 *) row)[x] = v;
      else
        row[x] = v;
    }
  }
  return pic;
}

/* The events' sample grid (gstvmafhipevents.c). */
static void
events_grid (guint w, guint h, VhHipProbeGrid * g)
{
  g->step_x = MAX ((w + 479) / 480, 1);
  g->step_y = MAX ((h + 269) / 270, 1);
  g->x0 = g->step_x / 2;
  g->y0 = g->step_y / 2;
  g->per_row = (w - g->x0 + g->step_x - 1) / g->step_x;
  g->rows = (h - g->y0 + g->step_y - 1) / g->step_y;
}

static void
check_size (GRand * rand, guint w, guint h, guint bpc)
{
  enum
  { FRAMES = 3 };
  VhHipFrameProbe *probe = vh_hip_frame_probe_new (device, NULL);
  VhPicture *host[FRAMES];
  VhHipProbeTicket *sig_t[FRAMES], *smp_t[FRAMES];
  GArray *samples[FRAMES];
  VhHipProbeGrid grid;
  GError *error = NULL;

  g_assert_nonnull (probe);
  events_grid (w, h, &grid);
  for (guint f = 0; f < FRAMES; f++) {
    VhPicture *dev;
    gdouble mean, stddev;

    host[f] = random_picture (rand, w, h, bpc, f ? host[f - 1] : NULL,
        f == 1 ? 0 : h / 3);
    samples[f] = g_array_new (FALSE, FALSE, sizeof (guint16));
    gst_vmaf_hip_luma_stats (host[f], &mean, &stddev, samples[f]);
    dev = vh_hip_picture_upload (device, host[f], &error);
    g_assert_no_error (error);
    sig_t[f] = vh_hip_frame_probe_signature (probe, dev, &error);
    g_assert_no_error (error);
    smp_t[f] = vh_hip_frame_probe_samples (probe, dev, &grid, TRUE, &error);
    g_assert_no_error (error);
    /* the tickets hold the picture */
    vh_picture_unref (dev);
  }
  /* collected after all were queued, the last first */
  for (guint k = 0; k < FRAMES; k++) {
    guint f = FRAMES - 1 - k;
    guint64 sums[VH_HIP_PROBE_CELLS];
    VhAlignSignature cpu, gpu;
    VhHipProbeSamples r;
    const guint16 *cur = (const guint16 *) samples[f]->data;
    guint64 sum = 0, sum_sq = 0, diff = 0;

    g_assert_true (vh_hip_probe_ticket_collect_signature (sig_t[f], sums,
            &error));
    g_assert_no_error (error);
    g_assert_true (vh_align_signature_compute (host[f], &cpu, NULL));
    g_assert_true (vh_align_signature_from_sums (sums, w, h, bpc, &gpu,
            NULL));
    if (memcmp (&cpu, &gpu, sizeof (cpu)) != 0)
      g_error ("%ux%u %u-bit frame %u: signatures differ", w, h, bpc, f);

    g_assert_true (vh_hip_probe_ticket_collect_samples (smp_t[f], &r,
            &error));
    g_assert_no_error (error);
    g_assert_cmpuint (samples[f]->len, ==, grid.per_row * grid.rows);
    for (guint i = 0; i < samples[f]->len; i++) {
      sum += cur[i];
      sum_sq += (guint64) cur[i] * cur[i];
      if (f > 0) {
        const guint16 *prev = (const guint16 *) samples[f - 1]->data;
        diff += ABS ((gint) cur[i] - (gint) prev[i]);
      }
    }
    g_assert_cmpuint (r.sum, ==, sum);
    g_assert_cmpuint (r.sum_sq, ==, sum_sq);
    g_assert_cmpint (r.has_diff, ==, f > 0);
    g_assert_cmpuint (r.sum_abs_diff, ==, diff);
    /* frame 1 repeats frame 0 */
    if (f == 1)
      g_assert_cmpuint (r.sum_abs_diff, ==, 0);
    else if (f == 2)
      g_assert_cmpuint (r.sum_abs_diff, >, 0);
  }
  for (guint f = 0; f < FRAMES; f++) {
    vh_picture_unref (host[f]);
    g_array_unref (samples[f]);
  }
  vh_hip_frame_probe_free (probe);
}

static void
test_sizes (void)
{
  static const guint sizes[][3] = {
    {16, 16, 8}, {97, 41, 8}, {641, 359, 10}, {1283, 547, 8},
    {35, 17, 16}, {523, 290, 12}, {960, 1030, 10},
  };
  GRand *rand = g_rand_new_with_seed (29);

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    check_size (rand, sizes[i][0], sizes[i][1], sizes[i][2]);
  g_rand_free (rand);
}

/* A new grid (another size) or a forgotten previous frame: no
 * differences; a ticket discarded unread frees its picture. */
static void
test_no_previous (void)
{
  VhHipFrameProbe *probe = vh_hip_frame_probe_new (device, NULL);
  GRand *rand = g_rand_new_with_seed (30);
  VhPicture *a = random_picture (rand, 64, 36, 8, NULL, 0);
  VhPicture *b = random_picture (rand, 66, 36, 8, NULL, 0);
  VhPicture *da = vh_hip_picture_upload (device, a, NULL);
  VhPicture *db = vh_hip_picture_upload (device, b, NULL);
  VhHipProbeGrid ga, gb;
  VhHipProbeSamples r;
  GError *error = NULL;

  events_grid (64, 36, &ga);
  events_grid (66, 36, &gb);
  vh_hip_probe_ticket_discard (vh_hip_frame_probe_samples (probe, da, &ga,
          TRUE, NULL));
  g_assert_true (vh_hip_probe_ticket_collect_samples
      (vh_hip_frame_probe_samples (probe, db, &gb, TRUE, NULL), &r, NULL));
  g_assert_false (r.has_diff);
  g_assert_true (vh_hip_probe_ticket_collect_samples
      (vh_hip_frame_probe_samples (probe, db, &gb, TRUE, NULL), &r, NULL));
  g_assert_true (r.has_diff);
  g_assert_cmpuint (r.sum_abs_diff, ==, 0);
  vh_hip_frame_probe_forget_samples (probe);
  g_assert_true (vh_hip_probe_ticket_collect_samples
      (vh_hip_frame_probe_samples (probe, db, &gb, TRUE, NULL), &r, NULL));
  g_assert_false (r.has_diff);

  /* refused: a host picture, too small a frame, a grid outside */
  g_assert_null (vh_hip_frame_probe_signature (probe, a, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  gb.rows += 1;
  g_assert_null (vh_hip_frame_probe_samples (probe, db, &gb, TRUE, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  {
    VhPicture *small = random_picture (rand, 15, 40, 8, NULL, 0);
    VhPicture *ds = vh_hip_picture_upload (device, small, NULL);

    g_assert_null (vh_hip_frame_probe_signature (probe, ds, &error));
    g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
    g_clear_error (&error);
    vh_picture_unref (ds);
    vh_picture_unref (small);
  }
  vh_picture_unref (da);
  vh_picture_unref (db);
  vh_picture_unref (a);
  vh_picture_unref (b);
  vh_hip_frame_probe_free (probe);
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  device = vh_hip_test_open_gpu_or_skip ();
  g_test_add_func ("/hip/frame-probe/sizes", test_sizes);
  g_test_add_func ("/hip/frame-probe/no-previous", test_no_previous);
  ret = g_test_run ();
  vh_hip_device_unref (device);
  return ret;
}
