/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Upload throughput of 1080p I420 through the HIP buffer pool, against a
 * raw page-locked host-to-device copy of the same bytes timed in the same
 * run; and through vmafhipupload from ordinary (pageable) system memory.
 * Throughput counts the frame's 3110400 bytes whatever is moved.
 *
 *   bench-hip-upload [frames]      (default 500; exits 77 without a GPU) */

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include "gstvmafhipbufferpool.h"
#include "gstvmafhipdevice.h"
#include "gstvmafhipelements.h"
#include "gstvmafhipmemory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 1920
#define HEIGHT 1080
#define WARMUP 20

static GstVmafHipDevice *device;
static gsize frame_bytes;

static gdouble
gbps (gsize bytes_per_frame, guint frames, gint64 usec)
{
  return (gdouble) bytes_per_frame *frames / (usec * 1e3);
}

static void
check (gboolean ok, GError * error)
{
  if (!ok) {
    fprintf (stderr, "FAIL: %s\n", error ? error->message : "?");
    exit (1);
  }
}

/* The same bytes, page-locked, one copy at a time (and all queued). */
static void
bench_raw (guint frames, gdouble * each, gdouble * queued)
{
  VhHipDevice *h = gst_vmaf_hip_device_get_handle (device);
  VhHipStream *s = gst_vmaf_hip_device_get_stream (device);
  gpointer host = NULL, dev = NULL;
  GError *error = NULL;
  gint64 t0;

  check (vh_hip_host_alloc (h, frame_bytes, &host, &error), error);
  check (vh_hip_malloc (h, frame_bytes, &dev, &error), error);
  memset (host, 0x10, frame_bytes);
  for (guint i = 0; i < WARMUP; i++)
    check (vh_hip_memcpy_2d_async (s, VH_HIP_COPY_HOST_TO_DEVICE, dev,
            frame_bytes, host, frame_bytes, frame_bytes, 1, &error) &&
        vh_hip_stream_synchronize (s, &error), error);
  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < frames; i++)
    check (vh_hip_memcpy_2d_async (s, VH_HIP_COPY_HOST_TO_DEVICE, dev,
            frame_bytes, host, frame_bytes, frame_bytes, 1, &error) &&
        vh_hip_stream_synchronize (s, &error), error);
  *each = gbps (frame_bytes, frames, g_get_monotonic_time () - t0);
  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < frames; i++)
    check (vh_hip_memcpy_2d_async (s, VH_HIP_COPY_HOST_TO_DEVICE, dev,
            frame_bytes, host, frame_bytes, frame_bytes, 1, &error), error);
  check (vh_hip_stream_synchronize (s, &error), error);
  *queued = gbps (frame_bytes, frames, g_get_monotonic_time () - t0);
  vh_hip_free (h, dev);
  vh_hip_host_free (h, host);
}

/* What an upstream element that took the pool does: acquire, write through
 * a CPU mapping (into the page-locked copy), release to the HIP side. With
 * @wait each frame's upload is waited for at once; without, only when its
 * buffer comes round again (the pipelined case). */
static gdouble
bench_pool (guint frames, gboolean wait)
{
  GstBufferPool *pool = gst_vmaf_hip_buffer_pool_new (device);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format",
      G_TYPE_STRING, "I420", "width", G_TYPE_INT, WIDTH, "height",
      G_TYPE_INT, HEIGHT, "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
  GError *error = NULL;
  gint64 t0 = 0;

  gst_buffer_pool_config_set_params (config, caps, 0, 4, 4);
  check (gst_buffer_pool_set_config (pool, config), NULL);
  check (gst_buffer_pool_set_active (pool, TRUE), NULL);
  for (guint i = 0; i < frames + WARMUP; i++) {
    GstBuffer *buf = NULL;
    GstMemory *mem;
    GstMapInfo map;

    if (i == WARMUP)
      t0 = g_get_monotonic_time ();
    check (gst_buffer_pool_acquire_buffer (pool, &buf, NULL) == GST_FLOW_OK,
        NULL);
    mem = gst_buffer_peek_memory (buf, 0);
    check (gst_memory_map (mem, &map, GST_MAP_WRITE), NULL);
    map.data[0] = (guint8) i;
    gst_memory_unmap (mem, &map);
    check (gst_vmaf_hip_memory_upload_async (GST_VMAF_HIP_MEMORY_CAST (mem),
            &error), error);
    if (wait)
      check (gst_vmaf_hip_memory_sync (GST_VMAF_HIP_MEMORY_CAST (mem), &error),
          error);
    gst_buffer_unref (buf);
  }
  check (vh_hip_stream_synchronize (gst_vmaf_hip_device_get_stream (device),
          &error), error);
  {
    gdouble r = gbps (frame_bytes, frames, g_get_monotonic_time () - t0);
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
    gst_caps_unref (caps);
    return r;
  }
}

/* vmafhipupload fed ordinary system memory: a copy into the page-locked host
 * copy, then the transfer. */
static gdouble
bench_element (guint frames)
{
  GstElement *p = gst_parse_launch ("appsrc name=src format=time "
      "is-live=false ! vmafhipupload ! fakesink sync=false", NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (p), "src");
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format",
      G_TYPE_STRING, "I420", "width", G_TYPE_INT, WIDTH, "height",
      G_TYPE_INT, HEIGHT, "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
  GstBuffer *frame = gst_buffer_new_allocate (NULL, frame_bytes, NULL);
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *msg;
  gint64 t0 = 0, t1;

  gst_buffer_memset (frame, 0, 0x20, frame_bytes);
  g_object_set (src, "caps", caps, "block", TRUE, "max-buffers",
      (guint64) 4, NULL);
  gst_element_set_state (p, GST_STATE_PLAYING);
  for (guint i = 0; i < frames + WARMUP; i++) {
    GstBuffer *b = gst_buffer_copy (frame);     /* shares the memory */
    if (i == WARMUP)
      t0 = g_get_monotonic_time ();
    GST_BUFFER_PTS (b) = i * GST_SECOND / 30;
    check (gst_app_src_push_buffer (GST_APP_SRC (src), b) == GST_FLOW_OK, NULL);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  t1 = g_get_monotonic_time ();
  check (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, NULL);
  gst_message_unref (msg);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_buffer_unref (frame);
  gst_caps_unref (caps);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (p);
  return gbps (frame_bytes, frames, t1 - t0);
}

int
main (int argc, char **argv)
{
  guint frames = argc > 1 ? atoi (argv[1]) : 500;
  GError *error = NULL;
  GstVideoInfo info, layout;
  gdouble raw_each, raw_queued, pool_each, pool_pipelined, element;

  gst_init (&argc, &argv);
  gst_plugin_register_static (GST_VERSION_MAJOR, GST_VERSION_MINOR,
      "vmafhip-hip-bench", "HIP elements", gst_vmaf_hip_elements_register, "0",
      "LGPL", "vmafhip", "vmafhip", "vmafhip");
  device = gst_vmaf_hip_device_new (GST_VMAF_HIP_VENDOR_UNKNOWN, 0, &error);
  if (!device) {
    printf ("SKIP: no GPU: %s\n", error->message);
    return 77;
  }
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, WIDTH, HEIGHT);
  gst_vmaf_hip_memory_layout (device, &info, &layout);
  frame_bytes = info.size;
  {
    gchar *name = NULL;
    g_object_get (device, "name", &name, NULL);
    printf ("device: %s\n", name);
    g_free (name);
  }
  printf ("frame: 1080p I420, %" G_GSIZE_FORMAT " bytes (%" G_GSIZE_FORMAT
      " in the pool's device layout), %u frames per test\n", frame_bytes,
      layout.size, frames);

  bench_raw (frames, &raw_each, &raw_queued);
  pool_each = bench_pool (frames, TRUE);
  pool_pipelined = bench_pool (frames, FALSE);
  element = bench_element (frames);

  printf ("raw pinned H2D, synchronised per frame: %6.2f GB/s\n", raw_each);
  printf ("raw pinned H2D, queued:                 %6.2f GB/s\n", raw_queued);
  printf ("pool upload, synchronised per frame:    %6.2f GB/s  (%.0f%% of "
      "raw)\n", pool_each, 100 * pool_each / raw_each);
  printf ("pool upload, pipelined (4 buffers):     %6.2f GB/s  (%.0f%% of "
      "raw queued)\n", pool_pipelined, 100 * pool_pipelined / raw_queued);
  printf ("vmafhipupload from pageable system memory:  %6.2f GB/s  (%.0f "
      "frames/s)\n", element, element * 1e9 / frame_bytes);
  printf ("RESULT pool_vs_raw=%.3f\n", pool_each / raw_each);
  gst_object_unref (device);
  return 0;
}
