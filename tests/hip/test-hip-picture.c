/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Engine pictures through HIP device memory and back (hip/features/hip-picture.c):
 * every chroma layout and bit depth, odd sizes, interleaved chroma read in
 * place, and a transfer for the engine's dispatch. Runs on the
 * GPU, or on the fake driver when VH_HIP_NVIDIA_RUNTIME names it; skips
 * (77) when neither is there. */

#include "hip-test-gpu.h"
#include "hip-picture.h"
#include "picture-transfer.h"
#include "fake-cuda-counters.h"

#include <string.h>

static VhHipDevice *device;

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
        if (bpc == 8)
          ((guint8 *) vh_picture_row (pic, p, y))[x] = g_random_int ();
        else
          ((guint16 *) vh_picture_row (pic, p, y))[x] =
              g_random_int_range (0, max + 1);
      }
  return pic;
}

static guint
sample (const VhPicture * pic, guint p, guint x, guint y)
{
  const guint8 *row = vh_picture_row (pic, p, y);

  if (pic->info.bpc == 8)
    return row[x * pic->step[p]];
  return ((const guint16 *) row)[x * pic->step[p]];
}

static void
assert_same_samples (const VhPicture * a, const VhPicture * b)
{
  g_assert_true (vh_picture_info_equal (&a->info, &b->info));
  for (guint p = 0; p < a->n_planes; p++)
    for (guint y = 0; y < a->height[p]; y++)
      for (guint x = 0; x < a->width[p]; x++)
        if (sample (a, p, x, y) != sample (b, p, x, y))
          g_error ("plane %u sample (%u, %u): %u != %u", p, x, y,
              sample (a, p, x, y), sample (b, p, x, y));
}

static void
test_round_trip (void)
{
  static const VhPixFmt fmts[] = { VH_PIX_FMT_YUV400, VH_PIX_FMT_YUV420,
    VH_PIX_FMT_YUV422, VH_PIX_FMT_YUV444
  };
  static const guint bpcs[] = { 8, 10, 16 };
  static const guint sizes[][2] = { {1, 1}, {3, 3}, {641, 359}, {1920, 1081}
  };
  GError *error = NULL;

  for (guint f = 0; f < G_N_ELEMENTS (fmts); f++)
    for (guint b = 0; b < G_N_ELEMENTS (bpcs); b++)
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
        g_autoptr (VhPicture) host = random_picture (fmts[f], bpcs[b],
            sizes[s][0], sizes[s][1]);
        g_autoptr (VhPicture) dev = vh_hip_picture_upload (device, host,
            &error);
        g_autoptr (VhPicture) back = NULL;

        g_assert_no_error (error);
        g_assert_cmpint (dev->mem_type, ==, VH_MEMORY_HIP_DEVICE);
        back = vh_hip_picture_download (device, dev, &error);
        g_assert_no_error (error);
        g_assert_cmpint (back->mem_type, ==, VH_MEMORY_HOST);
        assert_same_samples (host, back);
      }
}

/* NV12-style chroma: U and V interleaved in one plane, read with step 2. */
static void
test_interleaved (void)
{
  g_autoptr (VhPicture) planar = random_picture (VH_PIX_FMT_YUV420, 10, 33,
      17);
  guint cw = planar->width[1], ch = planar->height[1];
  gsize uv_stride = cw * 2 * 2 + 6;
  g_autofree guint8 *buf = g_malloc0 (planar->stride[0] * planar->height[0] +
      uv_stride * ch);
  gpointer data[3];
  gsize stride[3] = { planar->stride[0], uv_stride, uv_stride };
  const guint step[3] = { 1, 2, 2 };
  g_autoptr (VhPicture) nv = NULL, dev = NULL, back = NULL;
  GError *error = NULL;

  memcpy (buf, planar->data[0], planar->stride[0] * planar->height[0]);
  data[0] = buf;
  data[1] = buf + planar->stride[0] * planar->height[0];
  data[2] = (guint8 *) data[1] + 2;
  for (guint y = 0; y < ch; y++)
    for (guint x = 0; x < cw; x++) {
      guint16 *row = (guint16 *) ((guint8 *) data[1] + y * uv_stride);
      row[2 * x] = sample (planar, 1, x, y);
      row[2 * x + 1] = sample (planar, 2, x, y);
    }
  nv = vh_picture_new_wrapped (&planar->info, data, stride, step,
      VH_MEMORY_HOST, NULL, NULL);
  dev = vh_hip_picture_upload (device, nv, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (dev->step[1], ==, 2);
  back = vh_hip_picture_download (device, dev, &error);
  g_assert_no_error (error);
  assert_same_samples (planar, back);
}

static void
test_installed (void)
{
  g_autoptr (VhPicture) host = random_picture (VH_PIX_FMT_YUV420, 8, 97, 61);
  const VhPicture *dev, *back;
  GError *error = NULL;
  VhPictureTransfer *transfer = vh_hip_picture_transfer_new (device);

  g_assert_true (vh_picture_transfer_get_device (transfer) == device);
  dev = vh_picture_get_in_memory (host, VH_MEMORY_HIP_DEVICE, transfer,
      &error);
  g_assert_no_error (error);
  g_assert_cmpint (dev->mem_type, ==, VH_MEMORY_HIP_DEVICE);
  back = vh_picture_get_in_memory ((VhPicture *) dev, VH_MEMORY_HOST,
      transfer, &error);
  g_assert_no_error (error);
  assert_same_samples (host, back);
  vh_picture_transfer_unref (transfer);
}

/* A frame taken to the device for luma readers only: its chroma stays on
 * the host, its luma arrives whole, from pageable and page-locked memory. */
static void
test_luma_only (void)
{
  static const guint bpcs[] = { 8, 10 };
  VhPictureTransfer *transfer = vh_hip_picture_transfer_new (device);
  GError *error = NULL;

  for (guint b = 0; b < G_N_ELEMENTS (bpcs); b++) {
    for (guint locked = 0; locked < 2; locked++) {
      g_autoptr (VhPicture) host = random_picture (VH_PIX_FMT_YUV420,
          bpcs[b], 641, 359);
      g_autoptr (VhPicture) back = NULL;
      const VhPicture *dev;

      host->page_locked = locked;       /* the fake driver copies either */
      dev = vh_picture_get_planes_in_memory (host, VH_MEMORY_HIP_DEVICE, 1,
          transfer, &error);
      g_assert_no_error (error);
      g_assert_nonnull (dev->data[0]);
      g_assert_null (dev->data[1]);
      g_assert_null (dev->data[2]);
      back = vh_hip_picture_download (device, dev, &error);
      g_assert_no_error (error);
      g_assert_null (back->data[1]);
      for (guint y = 0; y < host->height[0]; y++) {
        for (guint x = 0; x < host->width[0]; x++) {
          guint want = sample (host, 0, x, y);
          g_assert_cmpuint (sample (back, 0, x, y), ==, want);
        }
      }
    }
  }
  vh_picture_transfer_unref (transfer);
}

/* Uploads through a transfer are queued, not waited for: the device
 * picture carries the event that its GPU readers wait on. A page-locked
 * picture, whose memory the copy reads directly, waits for it when it is
 * released, before its owner gets the memory back. More pictures at once
 * than the transfer keeps uploaders for, read back after all are queued,
 * and some dropped unread, must all be whole. */
static void
test_upload_in_flight (void)
{
  VhPictureTransfer *transfer = vh_hip_picture_transfer_new (device);
  VhPicture *hosts[10];
  VhFakeCudaCalls before, after;
  gboolean fake = vh_fake_cuda_calls (&before);
  GError *error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (hosts); i++) {
    hosts[i] = random_picture (VH_PIX_FMT_YUV420, 8, 320, 181);
    g_assert_nonnull (vh_picture_get_planes_in_memory (hosts[i],
            VH_MEMORY_HIP_DEVICE, 3, transfer, &error));
    g_assert_no_error (error);
  }
  if (fake) {
    g_assert_true (vh_fake_cuda_calls (&after));
    g_assert_cmpuint (after.host_waits, ==, before.host_waits);
  }
  for (guint i = 0; i < G_N_ELEMENTS (hosts); i++) {
    const VhPicture *dev = hosts[i]->twin;
    g_autoptr (VhPicture) back = NULL;

    g_assert_nonnull (dev->ready);
    if (i % 3 == 0)
      continue;
    back = vh_hip_picture_download (device, dev, &error);
    g_assert_no_error (error);
    assert_same_samples (hosts[i], back);
  }
  for (guint i = 0; i < G_N_ELEMENTS (hosts); i++)
    vh_picture_unref (hosts[i]);

  {
    g_autoptr (VhPicture) locked = random_picture (VH_PIX_FMT_YUV420, 8, 64,
        48);
    const VhPicture *dev;

    locked->page_locked = TRUE;
    fake = vh_fake_cuda_calls (&before);
    dev = vh_picture_get_planes_in_memory (locked, VH_MEMORY_HIP_DEVICE, 3,
        transfer, &error);
    g_assert_no_error (error);
    g_assert_nonnull (dev->ready);
    g_assert_nonnull (dev->wait_source_read);
    if (fake) {
      g_assert_true (vh_fake_cuda_calls (&after));
      g_assert_cmpuint (after.host_waits, ==, before.host_waits);
    }
  }
  vh_picture_transfer_unref (transfer);
}

static void
count_release (gpointer data)
{
  (*(guint *) data)++;
}

/* A frame's host memory may go back to its owner once its device copy is
 * made (vh_picture_release_host_memory, for engines where nothing reads
 * the host samples after that): not before the copy exists, not while a
 * copy from page-locked memory may still read it, and only once. The
 * device copy stays whole when the owner writes the memory again. */
static void
test_release_host (void)
{
  VhPictureTransfer *transfer = vh_hip_picture_transfer_new (device);
  GError *error = NULL;

  for (guint locked = 0; locked < 2; locked++) {
    g_autoptr (VhPicture) store = random_picture (VH_PIX_FMT_YUV420, 8, 321,
        181);
    g_autoptr (VhPicture) want = random_picture (VH_PIX_FMT_YUV420, 8, 321,
        181);
    g_autoptr (VhPicture) back = NULL;
    VhPicture *host;
    const VhPicture *dev;
    guint released = 0;

    for (guint p = 0; p < store->n_planes; p++)
      memcpy (want->data[p], store->data[p],
          store->stride[p] * store->height[p]);
    host = vh_picture_new_wrapped (&store->info, store->data, store->stride,
        store->step, VH_MEMORY_HOST, &released, count_release);
    host->page_locked = locked;
    g_assert_false (vh_picture_release_host_memory (host));
    dev = vh_picture_get_planes_in_memory (host, VH_MEMORY_HIP_DEVICE, 3,
        transfer, &error);
    g_assert_no_error (error);
    g_assert_nonnull (dev);
    if (locked) {
      /* its copy reads this memory: it goes back with the picture */
      g_assert_false (vh_picture_release_host_memory (host));
      g_assert_cmpuint (released, ==, 0);
      vh_picture_unref (host);
      g_assert_cmpuint (released, ==, 1);
      continue;
    }
    g_assert_true (vh_picture_release_host_memory (host));
    g_assert_cmpuint (released, ==, 1);
    g_assert_null (host->data[0]);
    g_assert_false (vh_picture_release_host_memory (host));
    /* the owner writes its memory again: the device copy is its own */
    for (guint p = 0; p < store->n_planes; p++)
      memset (store->data[p], 0, store->stride[p] * store->height[p]);
    g_assert_true (vh_picture_get_planes_in_memory (host,
            VH_MEMORY_HIP_DEVICE, 3, transfer, &error) == dev);
    back = vh_hip_picture_download (device, dev, &error);
    g_assert_no_error (error);
    assert_same_samples (want, back);
    vh_picture_unref (host);
    g_assert_cmpuint (released, ==, 1);
  }
  vh_picture_transfer_unref (transfer);
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  device = vh_hip_test_open_gpu_or_skip ();
  g_test_add_func ("/hip/picture/round-trip", test_round_trip);
  g_test_add_func ("/hip/picture/interleaved", test_interleaved);
  g_test_add_func ("/hip/picture/transfer", test_installed);
  g_test_add_func ("/hip/picture/luma-only", test_luma_only);
  g_test_add_func ("/hip/picture/upload-in-flight", test_upload_in_flight);
  g_test_add_func ("/hip/picture/release-host", test_release_host);
  ret = g_test_run ();
  vh_hip_device_unref (device);
  return ret;
}
