/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* GStreamer 1.28's HIP memory read by device address, without a GPU or
 * GStreamer 1.28: a stand-in for libgsthip (fake-gsthip.c, named by
 * VH_GSTHIP_LIBRARY) makes frames in device memory of the GPU stand-in,
 * whose kernels run from their source (VH_FAKE_CUDA_KERNELS=emulate).
 * vmafhipcompare must score them by device address (its stats count
 * every frame there, none mapped; the stand-in sees no CPU mapping and a
 * gst_hip_memory_sync() per frame) with the values of the same frames in
 * system memory on the CPU; frames of another device number are read
 * through their CPU mapping, with the same values. Nothing stays
 * allocated (the stand-in's exit check). Each frame's upload and its
 * producer's event are waited for on its pad's streaming thread (appsrc
 * r or d), none on the element's aggregating thread (c:src): the two
 * inputs wait side by side while the pair before is scored; so do the
 * frames of a rendition on a request pad (appsrc d1, dist_sink_1). */

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include "fake-gsthip.h"
#include "gst-hip-test.h"
#include "vhhip.h"

#define WIDTH 96
#define HEIGHT 72
#define N_FRAMES 4
/* enough moving frames for align=content to lock */
#define N_ALIGN_FRAMES 40

static VhHipDevice *device;

static void
fill_frame (guint8 * data, const GstVideoInfo * info, guint i,
    gboolean distorted)
{
  GRand *rand = g_rand_new_with_seed (77 + i);

  for (guint p = 0; p < 3; p++) {
    guint8 *plane = data + GST_VIDEO_INFO_PLANE_OFFSET (info, p);
    gint stride = GST_VIDEO_INFO_PLANE_STRIDE (info, p);

    for (gint y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (info, p); y++)
      for (gint x = 0; x < GST_VIDEO_INFO_COMP_WIDTH (info, p); x++) {
        gint v = (x * 5 + y * 3 + (gint) i * 7 + (gint) p * 30) % 200 + 20;
        if (distorted)
          v = CLAMP (v + g_rand_int_range (rand, -9, 10), 0, 255);
        plane[y * stride + x] = v;
      }
  }
  g_rand_free (rand);
}

static void
free_device_memory (gpointer ptr)
{
  vh_hip_free (device, ptr);
}

/* Frame @i in system memory, or in the stand-in's HIP memory on device
 * @device_id (-1: system memory). */
static GstBuffer *
make_buffer (const GstVideoInfo * info, guint i, gboolean distorted,
    gint device_id)
{
  guint8 *host = g_malloc0 (info->size);
  GstBuffer *buf = gst_buffer_new ();
  GError *error = NULL;

  fill_frame (host, info, i, distorted);
  if (device_id < 0) {
    gst_buffer_append_memory (buf, gst_memory_new_wrapped (0, host,
            info->size, 0, info->size, host, g_free));
  } else {
    gint vendor = g_strcmp0 (g_getenv ("VH_TEST_VENDOR"), "amd") == 0 ? 1 : 2;
    gpointer dev = NULL;

    g_assert_true (vh_hip_malloc (device, info->size, &dev, &error));
    g_assert_true (vh_hip_memcpy_2d (device, VH_HIP_COPY_HOST_TO_DEVICE, dev,
            info->size, host, info->size, info->size, 1, &error));
    g_assert_no_error (error);
    gst_buffer_append_memory (buf, vh_fake_gsthip_memory_new (vendor,
            (guint) device_id, dev, info->size, host, free_device_memory));
    g_free (host);
  }
  GST_BUFFER_PTS (buf) = gst_util_uint64_scale (i, GST_SECOND, 25);
  GST_BUFFER_DURATION (buf) = GST_SECOND / 25;
  return buf;
}

static GstBuffer *
with_meta (GstBuffer * buf, const GstVideoInfo * info)
{
  gsize offset[GST_VIDEO_MAX_PLANES];
  gint stride[GST_VIDEO_MAX_PLANES];

  for (guint p = 0; p < GST_VIDEO_MAX_PLANES; p++) {
    offset[p] = info->offset[p];
    stride[p] = info->stride[p];
  }
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), WIDTH, HEIGHT, 3, offset, stride);
  return buf;
}

static void
push_clip (GstElement * pipeline, const gchar * name,
    const GstVideoInfo * info, gboolean distorted, gint device_id, guint n)
{
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), name);
  GstCaps *caps = gst_video_info_to_caps (info);

  if (device_id >= 0)
    gst_caps_set_features (caps, 0,
        gst_caps_features_new ("memory:HIPMemory", NULL));
  g_object_set (src, "caps", caps, NULL);
  gst_caps_unref (caps);
  for (guint i = 0; i < n; i++)
    g_assert_cmpint (gst_app_src_push_buffer (GST_APP_SRC (src),
            with_meta (make_buffer (info, i, distorted, device_id), info)),
        ==, GST_FLOW_OK);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  gst_object_unref (src);
}

/* The "vmaf" structures of a run of @n frames, and the element's stats at
 * its end; @rendition: a second distorted input (appsrc d1) on request pad
 * dist_sink_1; @props: more of the element's properties. */
static GPtrArray *
score_full (const gchar * backend, gint device_id, gboolean rendition,
    const gchar * props, guint n, GstStructure ** stats)
{
  g_autofree gchar *launch = g_strdup_printf ("appsrc name=r format=time ! "
      "c.ref_sink appsrc name=d format=time ! c.dist_sink %s vmafhipcompare "
      "name=c model=\"\" features=psnr backend=%s %s ! fakesink", rendition ?
      "appsrc name=d1 format=time ! c.dist_sink_1" : "", backend, props);
  GstElement *p = gst_parse_launch (launch, NULL);
  GstElement *c = gst_bin_get_by_name (GST_BIN (p), "c");
  GstBus *bus = gst_element_get_bus (p);
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_structure_free);
  GstVideoInfo info;
  gboolean done = FALSE;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, WIDTH, HEIGHT);
  GST_VIDEO_INFO_FPS_N (&info) = 25;
  gst_element_set_state (p, GST_STATE_PLAYING);
  push_clip (p, "r", &info, FALSE, device_id, n);
  push_clip (p, "d", &info, TRUE, device_id, n);
  if (rendition)
    push_clip (p, "d1", &info, TRUE, device_id, n);
  while (!done) {
    GstMessage *m = gst_bus_timed_pop (bus, 120 * GST_SECOND);
    g_assert_nonnull (m);
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ELEMENT &&
        gst_message_has_name (m, "vmaf"))
      g_ptr_array_add (frames,
          gst_structure_copy (gst_message_get_structure (m)));
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      GError *err;
      gst_message_parse_error (m, &err, NULL);
      g_error ("%s: %s", launch, err->message);
    }
    done = GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS;
    gst_message_unref (m);
  }
  g_object_get (c, "stats", stats, NULL);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (c);
  gst_object_unref (p);
  return frames;
}

static GPtrArray *
score (const gchar * backend, gint device_id, GstStructure ** stats)
{
  return score_full (backend, device_id, FALSE, "", N_FRAMES, stats);
}

static guint
stat (const GstStructure * s, const gchar * name)
{
  guint v = G_MAXUINT;

  g_assert_true (gst_structure_get_uint (s, name, &v));
  return v;
}

static void
test_read_on_device (void)
{
  GstStructure *cpu_stats, *hip_stats;
  g_autoptr (GPtrArray) cpu = score ("cpu", -1, &cpu_stats);
  guint maps = vh_fake_gsthip_n_cpu_maps ();
  guint syncs = vh_fake_gsthip_n_syncs ();
  guint uploads = vh_fake_gsthip_n_uploads_on (NULL);
  guint waits = vh_fake_gsthip_n_waits_on (NULL);
  guint ref_uploads = vh_fake_gsthip_n_uploads_on ("r:src");
  guint dist_uploads = vh_fake_gsthip_n_uploads_on ("d:src");
  g_autoptr (GPtrArray) hip = score ("hip", 0, &hip_stats);
  g_autofree gchar *shown = gst_structure_to_string (hip_stats);
  guint n;

  g_assert_cmpuint (cpu->len, ==, N_FRAMES);
  n = vh_gst_test_assert_same_values (cpu, "system memory on the CPU", hip,
      "libgsthip's memory by device address", "psnr");
  g_test_message ("%u values equal; stats %s", n, shown);
  g_assert_cmpuint (stat (hip_stats, "gst-hip-frames-on-device"), ==,
      2 * N_FRAMES);
  g_assert_cmpuint (stat (hip_stats, "gst-hip-frames-mapped"), ==, 0);
  g_assert_cmpuint (vh_fake_gsthip_n_cpu_maps (), ==, maps);
  g_assert_cmpuint (vh_fake_gsthip_n_syncs () - syncs, >=, 2 * N_FRAMES);
  g_assert_cmpuint (stat (cpu_stats, "gst-hip-frames-on-device"), ==, 0);
  g_assert_cmpuint (vh_fake_gsthip_n_uploads_on (NULL) - uploads, ==,
      2 * N_FRAMES);
  g_assert_cmpuint (vh_fake_gsthip_n_waits_on (NULL) - waits, ==,
      2 * N_FRAMES);
  g_assert_cmpuint (vh_fake_gsthip_n_uploads_on ("c:src"), ==, 0);
  g_assert_cmpuint (vh_fake_gsthip_n_waits_on ("c:src"), ==, 0);
  g_assert_cmpuint (vh_fake_gsthip_n_uploads_on ("r:src") - ref_uploads, ==,
      N_FRAMES);
  g_assert_cmpuint (vh_fake_gsthip_n_uploads_on ("d:src") - dist_uploads, ==,
      N_FRAMES);
  gst_structure_free (cpu_stats);
  gst_structure_free (hip_stats);
}

/* Frames of device 1 (the element runs on device 0): through their CPU
 * mapping, the same values. */
static void
test_other_device_mapped (void)
{
  GstStructure *cpu_stats, *hip_stats;
  g_autoptr (GPtrArray) cpu = score ("cpu", -1, &cpu_stats);
  guint maps = vh_fake_gsthip_n_cpu_maps ();
  g_autoptr (GPtrArray) hip = score ("hip", 1, &hip_stats);

  vh_gst_test_assert_same_values (cpu, "system memory", hip,
      "libgsthip's memory of another device", "psnr");
  g_assert_cmpuint (stat (hip_stats, "gst-hip-frames-on-device"), ==, 0);
  g_assert_cmpuint (stat (hip_stats, "gst-hip-frames-mapped"), ==,
      2 * N_FRAMES);
  g_assert_cmpuint (vh_fake_gsthip_n_cpu_maps () - maps, >=, 2 * N_FRAMES);
  gst_structure_free (cpu_stats);
  gst_structure_free (hip_stats);
}

/* A rendition on a request pad (dist_sink_1): its frames too are made
 * ready on their pad's thread, none on the aggregating thread. */
static void
test_request_pad_ready_on_its_thread (void)
{
  GstStructure *hip_stats;
  guint uploads = vh_fake_gsthip_n_uploads_on (NULL);
  guint rendition_uploads = vh_fake_gsthip_n_uploads_on ("d1:src");
  guint aggregating = vh_fake_gsthip_n_uploads_on ("c:src");
  g_autoptr (GPtrArray) hip = score_full ("hip", 0, TRUE, "", N_FRAMES,
      &hip_stats);

  g_assert_cmpuint (hip->len, ==, 2 * N_FRAMES);
  g_assert_cmpuint (stat (hip_stats, "gst-hip-frames-on-device"), ==,
      3 * N_FRAMES);
  g_assert_cmpuint (vh_fake_gsthip_n_uploads_on (NULL) - uploads, ==,
      3 * N_FRAMES);
  g_assert_cmpuint (vh_fake_gsthip_n_uploads_on ("d1:src") -
      rendition_uploads, ==, N_FRAMES);
  g_assert_cmpuint (vh_fake_gsthip_n_uploads_on ("c:src"), ==, aggregating);
  gst_structure_free (hip_stats);
}

/* align=content: the frames' signatures too are read by device address
 * (before, each was mapped and read on the CPU), with the pairs and values
 * of system memory. */
static void
test_content_signatures_on_device (void)
{
  const gchar *props = "align=content align-window=1000000000";
  GstStructure *cpu_stats, *hip_stats;
  g_autoptr (GPtrArray) cpu = score_full ("cpu", -1, FALSE, props,
      N_ALIGN_FRAMES, &cpu_stats);
  guint maps = vh_fake_gsthip_n_cpu_maps ();
  g_autoptr (GPtrArray) hip = score_full ("hip", 0, FALSE, props,
      N_ALIGN_FRAMES, &hip_stats);
  guint n;

  g_assert_cmpuint (cpu->len, >=, N_ALIGN_FRAMES / 2);
  n = vh_gst_test_assert_same_values (cpu, "system memory on the CPU", hip,
      "libgsthip's memory by device address", "psnr");
  g_test_message ("%u pairs, %u values equal", cpu->len, n);
  g_assert_cmpuint (vh_fake_gsthip_n_cpu_maps (), ==, maps);
  g_assert_cmpuint (stat (hip_stats, "gst-hip-frames-mapped"), ==, 0);
  gst_structure_free (cpu_stats);
  gst_structure_free (hip_stats);
}

int
main (int argc, char **argv)
{
  GError *error = NULL;
  int ret;

  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  device = vh_hip_device_open (VH_HIP_VENDOR_UNKNOWN, 0, &error);
  if (!device) {
    g_print ("skipped: no GPU stand-in: %s\n", error->message);
    g_error_free (error);
    return 77;
  }
  g_test_add_func ("/gst-hip/gsthip-stand-in/read-on-device",
      test_read_on_device);
  g_test_add_func ("/gst-hip/gsthip-stand-in/other-device-mapped",
      test_other_device_mapped);
  g_test_add_func ("/gst-hip/gsthip-stand-in/request-pad",
      test_request_pad_ready_on_its_thread);
  g_test_add_func ("/gst-hip/gsthip-stand-in/content-signatures",
      test_content_signatures_on_device);
  ret = g_test_run ();
  vh_hip_device_unref (device);
  return ret;
}
