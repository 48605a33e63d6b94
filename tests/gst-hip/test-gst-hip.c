/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* HIP memory in GStreamer: the memory's two mappings and their lazy
 * synchronisation, the buffer pool (layout, video meta, reuse), device
 * sharing through GstContext, upstream writing into the pool, and every
 * format bit-exact through vmafhipupload ! vmafhipdownload.
 *
 * VH_TEST_MODE=nogpu (with both runtimes made unloadable): the plugin file
 * registers everything and the elements fail at the state change, saying
 * why. Otherwise (the elements registered from this program, not from the
 * plugin file) the tests run on the GPU, or on the fake driver when
 * VH_HIP_NVIDIA_RUNTIME names it, and skip (77) when neither is there. */

#include <gst/gst.h>
#include <glib/gstdio.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include "gstvmafhipbufferpool.h"
#include "gstvmafhipdevice.h"
#include "gstvmafhipelements.h"
#include "gstvmafhipmemory.h"
#include "gstvmafhiputils.h"
#include "fake-cuda-counters.h"
#include "gst-hip-test.h"
#include "gst-hip-frames.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static GstVmafHipDevice *device;

/* Once a test's buffers, pools and pipelines are gone, so is every device
 * and page-locked allocation, and no context but this program's device is
 * held: a frame kept alive by an extra reference would hold its memory, its
 * pool and its device until the process exits. Checked on the fake
 * driver. */
static void
assert_all_freed (const gchar * what)
{
  /* AMD's runtime has no context to hold */
  const gint want_refs =
      g_strcmp0 (g_getenv ("VH_TEST_VENDOR"), "amd") == 0 ? 0 : 1;
  VhFakeCudaCounters c;

  /* A streaming thread may drop its last reference just after the state
   * change to NULL returned (seen once under valgrind on a loaded machine):
   * a late release is waited for, for up to five seconds, a leak is not. */
  for (guint waited_ms = 0;; waited_ms += 10) {
    if (!vh_fake_cuda_counters (&c))
      return;
    if ((c.n_allocations == 0 && c.primary_refs == want_refs)
        || waited_ms >= 5000)
      break;
    g_usleep (10 * 1000);
  }
  if (c.n_allocations != 0)
    g_error ("%s: %u allocations still alive", what, c.n_allocations);
  if (c.primary_refs != want_refs)
    g_error ("%s: %d device contexts held, %d expected", what,
        c.primary_refs, want_refs);
  g_assert_cmpuint (c.n_lost, ==, 0);
}

/* Runs @pipeline to PAUSED; returns the error message posted, if any
 * (caller frees), and whether the state change failed. */
static gchar *
pause_and_get_error (GstElement * pipeline, gboolean * failed)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstStateChangeReturn ret;
  GstMessage *msg;
  gchar *text = NULL;

  ret = gst_element_set_state (pipeline, GST_STATE_PAUSED);
  if (ret == GST_STATE_CHANGE_ASYNC)
    ret = gst_element_get_state (pipeline, NULL, NULL, 10 * GST_SECOND);
  *failed = ret == GST_STATE_CHANGE_FAILURE;
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  if (msg) {
    GError *err = NULL;
    gst_message_parse_error (msg, &err, NULL);
    text = g_strdup (err->message);
    g_error_free (err);
    gst_message_unref (msg);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  return text;
}

static void
test_no_gpu (void)
{
  static const gchar *launches[] = {
    "videotestsrc num-buffers=1 ! vmafhipupload ! fakesink",
    "videotestsrc num-buffers=1 ! vmafhipdownload ! fakesink",
    "videotestsrc num-buffers=1 ! vmafhipupload device-id=3 ! fakesink",
  };

  g_assert_nonnull (gst_element_factory_find ("vmafhipupload"));
  g_assert_nonnull (gst_element_factory_find ("vmafhipdownload"));
  g_assert_nonnull (gst_element_factory_find ("vmafhipcompare"));
  for (guint i = 0; i < G_N_ELEMENTS (launches); i++) {
    GstElement *p = gst_parse_launch (launches[i], NULL);
    gboolean failed;
    g_autofree gchar *msg = pause_and_get_error (p, &failed);

    g_assert_true (failed);
    g_assert_nonnull (msg);
    g_test_message ("%s: %s", launches[i], msg);
    g_assert_nonnull (strstr (msg, "No usable HIP device"));
    g_assert_nonnull (strstr (msg, "no GPU runtime found"));
    gst_object_unref (p);
  }
}

/* Out-of-range device index: the error says so. */
static void
test_bad_device_index (void)
{
  GstElement *p = gst_parse_launch ("videotestsrc num-buffers=1 ! "
      "vmafhipupload device-id=99 ! fakesink", NULL);
  gboolean failed;
  g_autofree gchar *msg = pause_and_get_error (p, &failed);

  g_assert_true (failed);
  g_assert_nonnull (msg);
  g_assert_nonnull (strstr (msg, "device index 99 is out of range"));
  gst_object_unref (p);
  assert_all_freed ("bad device index");
}

/* ---- memory and pool ------------------------------------------------- */

static GstBufferPool *
make_pool (const gchar * caps_str, guint min, guint max)
{
  GstBufferPool *pool = gst_vmaf_hip_buffer_pool_new (device);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstCaps *caps = gst_caps_from_string (caps_str);

  gst_buffer_pool_config_set_params (config, caps, 0, min, max);
  g_assert_true (gst_buffer_pool_set_config (pool, config));
  gst_caps_unref (caps);
  g_assert_true (gst_buffer_pool_set_active (pool, TRUE));
  return pool;
}

static void
test_pool_layout_and_reuse (void)
{
  GstBufferPool *pool = make_pool ("video/x-raw(memory:HIPMemory), "
      "format=I420, width=1921, height=1081, framerate=30/1", 2, 2);
  GstBuffer *a = NULL, *b = NULL, *c = NULL, *d = NULL;
  GstVideoMeta *meta;
  GstVmafHipMemory *mem;

  g_assert_cmpint (gst_buffer_pool_acquire_buffer (pool, &a, NULL), ==,
      GST_FLOW_OK);
  g_assert_cmpint (gst_buffer_pool_acquire_buffer (pool, &b, NULL), ==,
      GST_FLOW_OK);
  g_assert_true (a != b);
  g_assert_cmpuint (gst_buffer_n_memory (a), ==, 1);
  g_assert_true (gst_is_vmaf_hip_memory (gst_buffer_peek_memory (a, 0)));
  mem = GST_VMAF_HIP_MEMORY_CAST (gst_buffer_peek_memory (a, 0));
  g_assert_true (gst_vmaf_hip_device_is_equal (mem->device, device));
  meta = gst_buffer_get_video_meta (a);
  g_assert_nonnull (meta);
  g_assert_cmpuint (meta->n_planes, ==, 3);
  for (guint p = 0; p < 3; p++) {
    /* aligned for the device, as the memory lays it out */
    g_assert_cmpint (meta->stride[p] % 64, ==, 0);
    g_assert_cmpint (meta->stride[p], ==, mem->info.stride[p]);
    g_assert_cmpuint (meta->offset[p], ==, mem->info.offset[p]);
  }
  g_assert_cmpint (meta->stride[0], >=, 1921);
  g_assert_cmpint (meta->stride[1], >=, 961);

  /* released buffers come back, nothing new is allocated */
  gst_buffer_unref (a);
  gst_buffer_unref (b);
  g_assert_cmpint (gst_buffer_pool_acquire_buffer (pool, &c, NULL), ==,
      GST_FLOW_OK);
  g_assert_cmpint (gst_buffer_pool_acquire_buffer (pool, &d, NULL), ==,
      GST_FLOW_OK);
  g_assert_true ((c == a && d == b) || (c == b && d == a));
  gst_buffer_unref (c);
  gst_buffer_unref (d);
  g_assert_true (gst_buffer_pool_set_active (pool, FALSE));
  gst_object_unref (pool);
  assert_all_freed ("pool");
}

/* vmafhipcompare passes each frame on in a new buffer header sharing its
 * memory, and sinks keep the last one: a buffer that comes back to the
 * pool while shared is reused once it is not, never freed and replaced
 * (a device free and a new allocation per frame). Deactivating frees the
 * waiting ones; their sharers keep the memory alive. */
static void
test_pool_reuses_shared (void)
{
  GstBufferPool *pool = make_pool ("video/x-raw(memory:HIPMemory), "
      "format=I420, width=64, height=48, framerate=30/1", 0, 0);
  GstBuffer *a = NULL, *b = NULL, *c = NULL, *d = NULL, *view;
  VhFakeCudaCalls before, after;
  gboolean fake = vh_fake_cuda_calls (&before);

  g_assert_cmpint (gst_buffer_pool_acquire_buffer (pool, &a, NULL), ==,
      GST_FLOW_OK);
  view = gst_buffer_copy (a);
  g_assert_true (gst_buffer_peek_memory (view, 0) ==
      gst_buffer_peek_memory (a, 0));
  gst_buffer_unref (a);
  /* still shared: not handed out again */
  g_assert_cmpint (gst_buffer_pool_acquire_buffer (pool, &b, NULL), ==,
      GST_FLOW_OK);
  g_assert_true (b != a);
  gst_buffer_unref (view);
  gst_buffer_unref (b);
  g_assert_cmpint (gst_buffer_pool_acquire_buffer (pool, &c, NULL), ==,
      GST_FLOW_OK);
  g_assert_cmpint (gst_buffer_pool_acquire_buffer (pool, &d, NULL), ==,
      GST_FLOW_OK);
  g_assert_true ((c == a && d == b) || (c == b && d == a));
  if (fake) {
    g_assert_true (vh_fake_cuda_calls (&after));
    g_assert_cmpuint (after.device_allocs - before.device_allocs, ==, 2);
  }

  /* deactivated while one waits, shared */
  view = gst_buffer_copy (c);
  gst_buffer_unref (c);
  gst_buffer_unref (d);
  g_assert_true (gst_buffer_pool_set_active (pool, FALSE));
  gst_object_unref (pool);
  {
    GstMapInfo map;

    /* the sharer's memory is intact */
    g_assert_true (gst_buffer_map (view, &map, GST_MAP_READ));
    gst_buffer_unmap (view, &map);
  }
  gst_buffer_unref (view);
  assert_all_freed ("pool with shared buffers");
}

/* Runs @launch to EOS. */
static void
run_to_eos (const gchar * launch)
{
  GstElement *p = gst_parse_launch (launch, NULL);

  vh_gst_test_play_to_eos (p, 20 * GST_SECOND);
  gst_object_unref (p);
}

/* Uploads 30 distinct frames of WIDTHxHEIGHT I420 from a file through
 * vmafhipupload; returns how many host-to-device copies that took. */
static guint
upload_frames_from_file (guint width, guint height)
{
  VhFakeCudaCalls before, after;
  gsize frame = width * height * 3 / 2;
  guint8 *data = g_malloc (30 * frame);
  gchar *path = NULL, *launch;
  gint fd = g_file_open_tmp ("vmafhip-upload-XXXXXX.yuv", &path, NULL);
  guint device_allocs;

  g_assert_true (vh_fake_cuda_calls (&before));
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  for (gsize i = 0; i < 30 * frame; i++)
    data[i] = (guint8) (i * 7);
  g_assert_true (g_file_set_contents (path, (const gchar *) data, 30 * frame,
          NULL));
  /* frames from a file, as the benchmark reads them (rawvideoparse takes
   * no pool from downstream, unlike videotestsrc) */
  launch = g_strdup_printf ("filesrc location=%s ! rawvideoparse format=i420 "
      "width=%u height=%u ! vmafhipupload ! fakesink", path, width, height);
  run_to_eos (launch);
  g_unlink (path);
  g_free (launch);
  g_free (path);
  g_free (data);
  g_assert_true (vh_fake_cuda_calls (&after));
  device_allocs = after.device_allocs - before.device_allocs;
  g_assert_cmpuint (device_allocs, <, 30);
  /* no page-locked copy: the driver copies from the frame */
  g_assert_cmpuint (after.host_allocs - before.host_allocs, ==, 0);
  g_assert_cmpuint (after.host_waits - before.host_waits, <=, device_allocs);
  return after.uploads - before.uploads;
}

/* Copies for 30 I420 frames @width wide: one per frame where every
 * plane's rows fill whole device pitches (the fake AMD runtime's pitch
 * alignment is 256 bytes, the fake CUDA driver's 32, the memory's at
 * least 64), else one per plane. */
static guint
copies_per_30_frames (guint width)
{
  guint align = g_strcmp0 (g_getenv ("VH_TEST_VENDOR"), "amd") == 0 ? 256 :
      64;

  return width % align == 0 && width / 2 % align == 0 ? 30 : 90;
}

/* vmafhipupload has the driver copy each frame straight from system
 * memory and lets its consumer wait: no page-locked copy is allocated and
 * the host waits for no upload (only when a buffer is freed), so uploads
 * of later frames overlap whatever reads the earlier ones. One copy per
 * frame when GStreamer's layout is the device's (rows that are whole
 * multiples of 64 bytes: 128 wide), else one per plane (64 wide: chroma
 * rows of 32 bytes, 64 on the device). */
static void
test_upload_without_host_waits (void)
{
  VhFakeCudaCalls calls;

  if (!vh_fake_cuda_calls (&calls)) {
    g_test_skip ("counts calls on the fake driver only");
    return;
  }
  g_assert_cmpuint (upload_frames_from_file (128, 48), ==,
      copies_per_30_frames (128));
  g_assert_cmpuint (upload_frames_from_file (64, 48), ==,
      copies_per_30_frames (64));
  assert_all_freed ("upload");
}

/* Writes on one side are seen on the other, whichever was last. */
static void
test_memory_sync_directions (void)
{
  GError *error = NULL;
  GstVideoInfo info;
  GstMemory *mem;
  GstVmafHipMemory *hmem;
  GstMapInfo cpu, dev;
  VhHipDevice *h = gst_vmaf_hip_device_get_handle (device);
  guint8 *check;
  gsize size;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 643, 359);
  mem = gst_vmaf_hip_allocator_alloc (device, &info, &error);
  g_assert_no_error (error);
  hmem = GST_VMAF_HIP_MEMORY_CAST (mem);
  size = mem->size;
  check = g_malloc (size);

  /* CPU write, then the device sees it */
  g_assert_true (gst_memory_map (mem, &cpu, GST_MAP_WRITE));
  for (gsize i = 0; i < size; i++)
    cpu.data[i] = (guint8) (i * 7 + 3);
  gst_memory_unmap (mem, &cpu);
  g_assert_true (GST_MEMORY_FLAG_IS_SET (mem,
          GST_VMAF_HIP_MEMORY_TRANSFER_NEED_UPLOAD));
  g_assert_true (gst_memory_map (mem, &dev, GST_MAP_READ_VMAF_HIP));
  g_assert_false (GST_MEMORY_FLAG_IS_SET (mem,
          GST_VMAF_HIP_MEMORY_TRANSFER_NEED_UPLOAD));
  g_assert_true (vh_hip_memcpy_2d (h, VH_HIP_COPY_DEVICE_TO_HOST, check,
          size, dev.data, size, size, 1, &error));
  g_assert_no_error (error);
  gst_memory_unmap (mem, &dev);
  for (gsize i = 0; i < size; i++)
    g_assert_cmpuint (check[i], ==, (guint8) (i * 7 + 3));

  /* device write, then the CPU sees it */
  g_assert_true (gst_memory_map (mem, &dev, GST_MAP_WRITE_VMAF_HIP));
  g_assert_true (vh_hip_memcpy_2d (h, VH_HIP_COPY_HOST_TO_DEVICE,
          (guint8 *) dev.data + hmem->info.offset[1], size,
          (const guint8 *) "chroma!", size, 7, 1, &error));
  g_assert_no_error (error);
  gst_memory_unmap (mem, &dev);
  g_assert_true (GST_MEMORY_FLAG_IS_SET (mem,
          GST_VMAF_HIP_MEMORY_TRANSFER_NEED_DOWNLOAD));
  g_assert_true (gst_memory_map (mem, &cpu, GST_MAP_READ));
  g_assert_cmpmem (cpu.data + hmem->info.offset[1], 7, "chroma!", 7);
  g_assert_cmpuint (cpu.data[0], ==, 3);
  gst_memory_unmap (mem, &cpu);

  /* an asynchronous upload is waited for by the next mapping */
  g_assert_true (gst_memory_map (mem, &cpu, GST_MAP_WRITE));
  memset (cpu.data, 0x42, size);
  gst_memory_unmap (mem, &cpu);
  g_assert_true (gst_vmaf_hip_memory_upload_async (hmem, &error));
  g_assert_true (gst_memory_map (mem, &dev, GST_MAP_READ_VMAF_HIP));
  g_assert_true (vh_hip_memcpy_2d (h, VH_HIP_COPY_DEVICE_TO_HOST, check,
          size, dev.data, size, size, 1, &error));
  gst_memory_unmap (mem, &dev);
  for (gsize i = 0; i < size; i++)
    g_assert_cmpuint (check[i], ==, 0x42);

  /* a copy is HIP memory with the same samples */
  {
    GstMemory *copy = gst_memory_copy (mem, 0, -1);
    g_assert_true (gst_is_vmaf_hip_memory (copy));
    g_assert_true (gst_memory_map (copy, &cpu, GST_MAP_READ));
    for (gsize i = 0; i < size; i++)
      g_assert_cmpuint (cpu.data[i], ==, 0x42);
    gst_memory_unmap (copy, &cpu);
    gst_memory_unref (copy);
  }
  g_free (check);
  gst_memory_unref (mem);
  assert_all_freed ("memory");
}

/* ---- elements -------------------------------------------------------- */

static void
round_trip_format (const gchar * format, gint width, gint height)
{
  g_autofree gchar *caps = g_strdup_printf ("video/x-raw,format=%s,"
      "width=%d,height=%d", format, width, height);
  g_autofree gchar *through = g_strdup_printf ("videotestsrc num-buffers=3 "
      "pattern=ball ! %s ! vmafhipupload ! video/x-raw(memory:HIPMemory) ! "
      "vmafhipdownload ! %s ! appsink name=out sync=false", caps, caps);
  /* tee offers upstream no pool: vmafhipupload copies the frames */
  g_autofree gchar *copied = g_strdup_printf ("videotestsrc num-buffers=3 "
      "pattern=ball ! %s ! tee ! vmafhipupload ! "
      "video/x-raw(memory:HIPMemory) ! vmafhipdownload ! %s ! appsink "
      "name=out sync=false", caps, caps);
  g_autofree gchar *direct = g_strdup_printf ("videotestsrc num-buffers=3 "
      "pattern=ball ! %s ! appsink name=out sync=false", caps);
  g_autofree gchar *what = g_strdup_printf ("%s %dx%d", format, width,
      height);
  GPtrArray *a = vh_gst_hip_pull_frames (through);
  GPtrArray *c = vh_gst_hip_pull_frames (copied);
  GPtrArray *b = vh_gst_hip_pull_frames (direct);

  g_assert_cmpuint (a->len, ==, 3);
  g_assert_cmpuint (c->len, ==, 3);
  g_assert_cmpuint (b->len, ==, 3);
  for (guint i = 0; i < a->len; i++) {
    vh_gst_hip_assert_frames_equal (g_ptr_array_index (a, i),
        g_ptr_array_index (b, i), what);
    vh_gst_hip_assert_frames_equal (g_ptr_array_index (c, i),
        g_ptr_array_index (b, i), what);
  }
  g_ptr_array_unref (a);
  g_ptr_array_unref (c);
  g_ptr_array_unref (b);
  assert_all_freed (what);
}

/* Every format of the pad template, at an odd size; I420 at 1080p too. */
static void
test_every_format_bit_exact (void)
{
  GstElementFactory *f = gst_element_factory_find ("vmafhipupload");
  const GList *templates = gst_element_factory_get_static_pad_templates (f);
  GstStaticPadTemplate *t = templates->data;
  GstCaps *caps = gst_static_caps_get (&t->static_caps);
  const GValue *formats = gst_structure_get_value (gst_caps_get_structure
      (caps, 0), "format");
  guint n = gst_value_list_get_size (formats);

  g_assert_cmpuint (n, >=, 20);
  for (guint i = 0; i < n; i++) {
    const gchar *fmt = g_value_get_string (gst_value_list_get_value (formats,
            i));
    round_trip_format (fmt, 321, 241);
    g_test_message ("%s bit-exact", fmt);
  }
  round_trip_format ("I420", 1920, 1080);
  gst_caps_unref (caps);
  gst_object_unref (f);
}

/* Frames that vmafhipupload passes on as they came (upstream wrote into its
 * pool) go back to that pool, and everything is freed with the pipeline. */
static void
test_frames_freed (void)
{
  static const gchar *launches[] = {
    "videotestsrc num-buffers=12 ! vmafhipupload ! fakesink",
    "videotestsrc num-buffers=12 ! vmafhipupload ! vmafhipdownload ! fakesink",
    "videotestsrc num-buffers=12 ! video/x-raw,format=NV12,width=97,"
        "height=61 ! vmafhipupload ! video/x-raw(memory:HIPMemory) ! "
        "vmafhipdownload ! fakesink",
  };

  for (guint i = 0; i < G_N_ELEMENTS (launches); i++) {
    GstElement *p = gst_parse_launch (launches[i], NULL);
    GstBus *bus = gst_element_get_bus (p);
    GstMessage *msg;

    g_assert_cmpint (gst_element_set_state (p, GST_STATE_PLAYING), !=,
        GST_STATE_CHANGE_FAILURE);
    msg = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    g_assert_nonnull (msg);
    g_assert_cmpint (GST_MESSAGE_TYPE (msg), ==, GST_MESSAGE_EOS);
    gst_message_unref (msg);
    gst_element_set_state (p, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (p);
    assert_all_freed (launches[i]);
  }
}

static GstPadProbeReturn
count_hip_buffers (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);

  if (gst_is_vmaf_hip_memory (gst_buffer_peek_memory (buf, 0)))
    g_atomic_int_inc ((gint *) data);
  return GST_PAD_PROBE_OK;
}

/* videotestsrc takes vmafhipupload's pool and writes into HIP memory; both
 * elements of the pipeline share one device through the context. */
static void
test_pool_proposed_and_context_shared (void)
{
  GstElement *p = gst_parse_launch ("videotestsrc num-buffers=5 ! "
      "video/x-raw,format=I420,width=320,height=240 ! vmafhipupload name=u ! "
      "vmafhipdownload name=d ! fakesink", NULL);
  GstElement *u = gst_bin_get_by_name (GST_BIN (p), "u");
  GstElement *d = gst_bin_get_by_name (GST_BIN (p), "d");
  GstPad *pad = gst_element_get_static_pad (u, "sink");
  GstContext *cu, *cd;
  GstVmafHipDevice *du = NULL, *dd = NULL;
  GstMessage *msg;
  GstBus *bus;
  gint n_hip = 0;

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_hip_buffers,
      &n_hip, NULL);
  gst_element_set_state (p, GST_STATE_PLAYING);
  bus = gst_element_get_bus (p);
  msg = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  g_assert_nonnull (msg);
  g_assert_cmpint (GST_MESSAGE_TYPE (msg), ==, GST_MESSAGE_EOS);
  gst_message_unref (msg);
  g_assert_cmpint (n_hip, ==, 5);

  cu = gst_element_get_context (u, GST_VMAF_HIP_DEVICE_CONTEXT_TYPE);
  cd = gst_element_get_context (d, GST_VMAF_HIP_DEVICE_CONTEXT_TYPE);
  g_assert_nonnull (cu);
  g_assert_nonnull (cd);
  g_assert_true (gst_structure_get (gst_context_get_structure (cu), "device",
          GST_TYPE_VMAF_HIP_DEVICE, &du, NULL));
  g_assert_true (gst_structure_get (gst_context_get_structure (cd), "device",
          GST_TYPE_VMAF_HIP_DEVICE, &dd, NULL));
  g_assert_true (du == dd);
  gst_context_unref (cu);
  gst_context_unref (cd);
  gst_object_unref (du);
  gst_object_unref (dd);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (bus);
  gst_object_unref (u);
  gst_object_unref (d);
  gst_object_unref (p);
  assert_all_freed ("vmafhipupload ! vmafhipdownload");
}

/* An application's device, set on the pipeline, is the one used. */
static void
test_application_context (void)
{
  GstElement *p = gst_parse_launch ("videotestsrc num-buffers=1 ! "
      "vmafhipupload name=u ! fakesink", NULL);
  GstElement *u = gst_bin_get_by_name (GST_BIN (p), "u");
  GstContext *ctx = gst_context_new_vmaf_hip_device (device);
  GstContext *got;
  GstVmafHipDevice *used = NULL;

  gst_element_set_context (p, ctx);
  gst_element_set_state (p, GST_STATE_PAUSED);
  gst_element_get_state (p, NULL, NULL, 10 * GST_SECOND);
  got = gst_element_get_context (u, GST_VMAF_HIP_DEVICE_CONTEXT_TYPE);
  g_assert_nonnull (got);
  g_assert_true (gst_structure_get (gst_context_get_structure (got),
          "device", GST_TYPE_VMAF_HIP_DEVICE, &used, NULL));
  g_assert_true (used == device);
  gst_object_unref (used);
  gst_context_unref (got);
  gst_context_unref (ctx);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (u);
  gst_object_unref (p);
  assert_all_freed ("application context");
}

int
main (int argc, char **argv)
{
  const gchar *mode = g_getenv ("VH_TEST_MODE");
  GError *error = NULL;
  gint ret;

  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  if (g_strcmp0 (mode, "nogpu") == 0) {
    g_test_add_func ("/gst-hip/no-gpu", test_no_gpu);
    return g_test_run ();
  }
  /* The elements of this build, registered from the code linked here (not
   * the plugin file, whose copy of the types would clash with ours). */
  g_assert_true (gst_plugin_register_static (GST_VERSION_MAJOR,
          GST_VERSION_MINOR, "vmafhip-hip-test", "HIP elements under test",
          gst_vmaf_hip_elements_register, "0", "LGPL", "vmafhip", "vmafhip",
          "vmafhip"));
  device = gst_vmaf_hip_device_new (GST_VMAF_HIP_VENDOR_UNKNOWN, 0, &error);
  if (!device) {
    printf ("SKIP: no GPU: %s\n", error->message);
    return 77;
  }
  g_test_add_func ("/gst-hip/bad-device-index", test_bad_device_index);
  g_test_add_func ("/gst-hip/memory/sync-directions",
      test_memory_sync_directions);
  g_test_add_func ("/gst-hip/pool/layout-and-reuse",
      test_pool_layout_and_reuse);
  g_test_add_func ("/gst-hip/elements/pool-proposed-context-shared",
      test_pool_proposed_and_context_shared);
  g_test_add_func ("/gst-hip/pool/reuses-shared", test_pool_reuses_shared);
  g_test_add_func ("/gst-hip/elements/frames-freed", test_frames_freed);
  g_test_add_func ("/gst-hip/elements/upload-without-host-waits",
      test_upload_without_host_waits);
  g_test_add_func ("/gst-hip/elements/application-context",
      test_application_context);
  g_test_add_func ("/gst-hip/elements/every-format-bit-exact",
      test_every_format_bit_exact);
  ret = g_test_run ();
  gst_object_unref (device);
  {
    VhFakeCudaCounters c;

    /* every device closed, nothing left in a destroyed context */
    if (vh_fake_cuda_counters (&c)) {
      g_assert_cmpint (c.primary_refs, ==, 0);
      g_assert_cmpuint (c.n_lost, ==, 0);
    }
  }
  return ret;
}
