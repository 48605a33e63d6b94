/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* memory:HIPMemory from an allocator that is not vmafhip's, as GStreamer
 * 1.28's own hipupload makes it: an allocator registered as "HIPMemory"
 * whose memory gives the frame through a CPU mapping and something else
 * (here: every byte inverted) through the device map flag both libraries
 * use. vmafhipcompare must score such frames exactly as the same frames in
 * system memory, and vmafhipdownload and vmafhipupload must copy them
 * unchanged; none may map them for the device. Uses only the plugin file.
 *
 * Without a GPU runtime the element runs on the CPU. With a GPU, or the
 * fake driver that VH_HIP_NVIDIA_RUNTIME may name, its features read
 * vmafhip's own HIP memory on the device, and vmafhipdownload is tested
 * too. On the fake driver (whose kernels run nothing: numbers are compared
 * between memories, not checked for range) every device and page-locked
 * allocation must be freed once each pipeline is disposed. */

#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include <string.h>

#include "fake-cuda-counters.h"
#include "gst-hip-test.h"

/* The device mapping flag of GStreamer's HIP library (and vmafhip's). */
#define FOREIGN_MAP_DEVICE ((GstMapFlags) (GST_MAP_FLAG_LAST << 1))

#define WIDTH 176
#define HEIGHT 144
#define N_FRAMES 8

/* ---------------------------------------------------------------------- */
/* The foreign allocator                                                  */

typedef struct
{
  GstMemory mem;
  guint8 *host;                 /* the frame */
  guint8 *device;               /* what a device mapping would show */
} ForeignMemory;

typedef struct
{
  GstAllocator parent;
} ForeignAllocator;

typedef struct
{
  GstAllocatorClass parent_class;
} ForeignAllocatorClass;

static GType foreign_allocator_get_type (void);
G_DEFINE_TYPE (ForeignAllocator, foreign_allocator, GST_TYPE_ALLOCATOR);

static gint n_device_maps;

static ForeignMemory *
foreign_memory_new (GstAllocator * allocator, gsize size)
{
  ForeignMemory *mem = g_new0 (ForeignMemory, 1);

  mem->host = g_malloc0 (size);
  mem->device = g_malloc0 (size);
  gst_memory_init (GST_MEMORY_CAST (mem), 0, allocator, NULL, size, 0, 0, size);
  return mem;
}

static gpointer
foreign_memory_map (GstMemory * gmem, gsize maxsize, GstMapFlags flags)
{
  ForeignMemory *mem = (ForeignMemory *) gmem;

  if (flags & FOREIGN_MAP_DEVICE) {
    g_atomic_int_inc (&n_device_maps);
    return mem->device;
  }
  return mem->host;
}

static void
foreign_memory_unmap (GstMemory * gmem)
{
}

static GstMemory *
foreign_memory_copy (GstMemory * gmem, gssize offset, gssize size)
{
  ForeignMemory *mem = (ForeignMemory *) gmem;
  ForeignMemory *copy;

  if (size < 0)
    size = gmem->size - offset;
  copy = foreign_memory_new (gmem->allocator, size);
  memcpy (copy->host, mem->host + offset, size);
  memcpy (copy->device, mem->device + offset, size);
  return GST_MEMORY_CAST (copy);
}

static GstMemory *
foreign_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  return GST_MEMORY_CAST (foreign_memory_new (allocator, size));
}

static void
foreign_free (GstAllocator * allocator, GstMemory * gmem)
{
  ForeignMemory *mem = (ForeignMemory *) gmem;

  g_free (mem->host);
  g_free (mem->device);
  g_free (mem);
}

static void
foreign_allocator_class_init (ForeignAllocatorClass * klass)
{
  GST_ALLOCATOR_CLASS (klass)->alloc = foreign_alloc;
  GST_ALLOCATOR_CLASS (klass)->free = foreign_free;
}

static void
foreign_allocator_init (ForeignAllocator * self)
{
  GstAllocator *alloc = GST_ALLOCATOR_CAST (self);

  alloc->mem_type = "HIPMemory";
  alloc->mem_map = foreign_memory_map;
  alloc->mem_unmap = foreign_memory_unmap;
  alloc->mem_copy = foreign_memory_copy;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

/* ---------------------------------------------------------------------- */
/* Frames                                                                 */

/* Frame @i of an I420 clip: a moving gradient; the distorted one has
 * deterministic noise on top. */
static void
fill_frame (guint8 * data, const GstVideoInfo * info, guint i,
    gboolean distorted)
{
  GRand *rand = g_rand_new_with_seed (1000 + i);

  for (guint p = 0; p < 3; p++) {
    guint8 *plane = data + GST_VIDEO_INFO_PLANE_OFFSET (info, p);
    gint stride = GST_VIDEO_INFO_PLANE_STRIDE (info, p);
    gint w = GST_VIDEO_INFO_COMP_WIDTH (info, p);
    gint h = GST_VIDEO_INFO_COMP_HEIGHT (info, p);

    for (gint y = 0; y < h; y++)
      for (gint x = 0; x < w; x++) {
        gint v = (x * 3 + y * 2 + (gint) i * 5 + (gint) p * 40) % 220 + 16;
        if (distorted)
          v = CLAMP (v + g_rand_int_range (rand, -6, 7), 0, 255);
        plane[y * stride + x] = v;
      }
  }
  g_rand_free (rand);
}

static GstBuffer *
make_buffer (const GstVideoInfo * info, guint i, gboolean distorted,
    gboolean foreign)
{
  GstBuffer *buf;

  if (foreign) {
    GstAllocator *alloc = gst_allocator_find ("HIPMemory");
    ForeignMemory *mem = foreign_memory_new (alloc, info->size);

    fill_frame (mem->host, info, i, distorted);
    for (gsize b = 0; b < info->size; b++)
      mem->device[b] = 255 - mem->host[b];
    buf = gst_buffer_new ();
    gst_buffer_append_memory (buf, GST_MEMORY_CAST (mem));
    gst_object_unref (alloc);
  } else {
    GstMapInfo map;

    buf = gst_buffer_new_allocate (NULL, info->size, NULL);
    gst_buffer_map (buf, &map, GST_MAP_WRITE);
    fill_frame (map.data, info, i, distorted);
    gst_buffer_unmap (buf, &map);
  }
  GST_BUFFER_PTS (buf) = gst_util_uint64_scale (i, GST_SECOND, 25);
  GST_BUFFER_DURATION (buf) = GST_SECOND / 25;
  return buf;
}

static void
clip_info (GstVideoInfo * info)
{
  gst_video_info_set_format (info, GST_VIDEO_FORMAT_I420, WIDTH, HEIGHT);
  GST_VIDEO_INFO_FPS_N (info) = 25;
  GST_VIDEO_INFO_FPS_D (info) = 1;
}

static GstCaps *
frame_caps (const GstVideoInfo * info, gboolean foreign)
{
  GstCaps *caps = gst_video_info_to_caps (info);

  if (foreign)
    gst_caps_set_features (caps, 0,
        gst_caps_features_new ("memory:HIPMemory", NULL));
  return caps;
}

/* ---------------------------------------------------------------------- */
/* Pipelines                                                              */

static void
push_clip (GstElement * pipeline, const gchar * name,
    const GstVideoInfo * info, gboolean distorted, gboolean foreign)
{
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), name);
  GstCaps *caps = frame_caps (info, foreign);

  g_object_set (src, "caps", caps, NULL);
  gst_caps_unref (caps);
  for (guint i = 0; i < N_FRAMES; i++)
    g_assert_cmpint (gst_app_src_push_buffer (GST_APP_SRC (src),
            make_buffer (info, i, distorted, foreign)), ==, GST_FLOW_OK);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  gst_object_unref (src);
}

/* After a pipeline is disposed nothing of the GPU is held: no device or
 * page-locked memory, no context (checked on the fake driver). Where
 * kernels load, the process's module cache keeps its device's context
 * (modules are loaded once per process), so the context is not counted
 * there; memory still is. */
static void
assert_all_freed (const gchar * what)
{
  gboolean kernels = g_strcmp0 (g_getenv ("VH_FAKE_CUDA_KERNELS"),
      "noop") == 0;
  VhFakeCudaCounters c;

  if (!vh_fake_cuda_counters (&c))
    return;
  if (c.n_allocations != 0 || (!kernels && c.primary_refs != 0) ||
      c.n_lost != 0)
    g_error ("%s: %u allocations and %d context references left, %u "
        "allocations lost with their context", what, c.n_allocations,
        c.primary_refs, c.n_lost);
}

/* Runs @pipeline to EOS; the "vmaf" structures it posted. */
static GPtrArray *
run_to_eos (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_structure_free);
  gboolean done = FALSE;

  while (!done) {
    GstMessage *m = gst_bus_timed_pop (bus, 60 * GST_SECOND);
    g_assert_nonnull (m);
    switch (GST_MESSAGE_TYPE (m)) {
      case GST_MESSAGE_ELEMENT:
        if (gst_message_has_name (m, "vmaf"))
          g_ptr_array_add (frames,
              gst_structure_copy (gst_message_get_structure (m)));
        break;
      case GST_MESSAGE_ERROR:{
        GError *err;
        gchar *dbg;
        gst_message_parse_error (m, &err, &dbg);
        g_error ("pipeline error: %s (%s)", err->message, dbg);
        break;
      }
      case GST_MESSAGE_EOS:
        done = TRUE;
        break;
      default:
        break;
    }
    gst_message_unref (m);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  return frames;
}

static GPtrArray *
score (const GstVideoInfo * info, gboolean foreign)
{
  GstElement *p = gst_parse_launch ("appsrc name=r format=time ! c.ref_sink "
      "appsrc name=d format=time ! c.dist_sink "
      "vmafhipcompare name=c features=psnr,float_ssim ! fakesink", NULL);
  GPtrArray *frames;

  g_assert_nonnull (p);
  gst_element_set_state (p, GST_STATE_PLAYING);
  push_clip (p, "r", info, FALSE, foreign);
  push_clip (p, "d", info, TRUE, foreign);
  frames = run_to_eos (p);
  gst_object_unref (p);
  assert_all_freed (foreign ? "vmafhipcompare, foreign HIP memory" :
      "vmafhipcompare, system memory");
  return frames;
}

/* vmafhipcompare scores foreign HIP memory as system memory. */
static void
test_compare_reads_foreign_memory_on_the_cpu (void)
{
  GstVideoInfo info;
  GPtrArray *sys, *foreign;
  guint n_values;

  clip_info (&info);
  n_device_maps = 0;
  sys = score (&info, FALSE);
  foreign = score (&info, TRUE);
  g_assert_cmpint (g_atomic_int_get (&n_device_maps), ==, 0);
  g_assert_cmpuint (sys->len, ==, N_FRAMES);
  g_assert_cmpuint (foreign->len, ==, sys->len);
  for (guint i = 0; i < sys->len; i++) {
    GstStructure *a = g_ptr_array_index (sys, i);
    gdouble psnr;

    /* real scores of a noisy copy, not of an inverted frame (where the
     * kernels run) */
    g_assert_true (gst_structure_get_double (a, "psnr_y", &psnr));
    if (g_strcmp0 (g_getenv ("VH_FAKE_CUDA_KERNELS"), "noop") != 0) {
      g_assert_cmpfloat (psnr, >, 30.0);
      g_assert_cmpfloat (psnr, <, 50.0);
    }
  }
  /* (NaN only from the fake driver's kernels, which run nothing) */
  n_values = vh_gst_test_assert_same_values (sys, "system memory", foreign,
      "foreign HIP memory", "foreign memory against system memory");
  g_assert_cmpuint (n_values, >=, N_FRAMES * 8);
  g_test_message ("%u values equal", n_values);
  g_ptr_array_unref (sys);
  g_ptr_array_unref (foreign);
}

/* @launch, from appsrc "r" to appsink "out", gives back the frames of
 * foreign HIP memory unchanged, without a device mapping. */
static void
assert_copies_foreign_memory (const gchar * launch)
{
  GstElement *p = gst_parse_launch (launch, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "out");
  GstVideoInfo info;
  guint n = 0;

  clip_info (&info);
  n_device_maps = 0;
  gst_element_set_state (p, GST_STATE_PLAYING);
  push_clip (p, "r", &info, TRUE, TRUE);
  for (;;) {
    GstSample *s = gst_app_sink_pull_sample (GST_APP_SINK (sink));
    GstBuffer *expected;
    GstMapInfo a, b;

    if (!s)
      break;
    expected = make_buffer (&info, n, TRUE, FALSE);
    gst_buffer_map (gst_sample_get_buffer (s), &a, GST_MAP_READ);
    gst_buffer_map (expected, &b, GST_MAP_READ);
    g_assert_cmpuint (a.size, >=, info.size);
    g_assert_true (memcmp (a.data, b.data, info.size) == 0);
    gst_buffer_unmap (expected, &b);
    gst_buffer_unmap (gst_sample_get_buffer (s), &a);
    gst_buffer_unref (expected);
    gst_sample_unref (s);
    n++;
  }
  g_assert_cmpuint (n, ==, N_FRAMES);
  g_assert_cmpint (g_atomic_int_get (&n_device_maps), ==, 0);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
  assert_all_freed (launch);
}

/* vmafhipdownload copies foreign HIP memory through its CPU mapping. */
static void
test_download_copies_foreign_memory (void)
{
  assert_copies_foreign_memory ("appsrc name=r format=time ! "
      "vmafhipdownload ! video/x-raw ! appsink name=out sync=false");
}

/* vmafhipupload takes foreign HIP memory as system memory: copied into
 * its own, which comes back unchanged. */
static void
test_upload_copies_foreign_memory (void)
{
  assert_copies_foreign_memory ("appsrc name=r format=time ! "
      "vmafhipupload ! video/x-raw(memory:HIPMemory) ! vmafhipdownload ! "
      "video/x-raw ! appsink name=out sync=false");
}

int
main (int argc, char **argv)
{
  GstAllocator *alloc;

  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  alloc = g_object_new (foreign_allocator_get_type (), NULL);
  gst_allocator_register ("HIPMemory", alloc);

  g_test_add_func ("/gst-hip/foreign/compare-reads-on-the-cpu",
      test_compare_reads_foreign_memory_on_the_cpu);
  if (vh_gst_test_pipeline_starts ("videotestsrc num-buffers=1 ! "
          "vmafhipupload ! fakesink")) {
    g_test_add_func ("/gst-hip/foreign/download-copies",
        test_download_copies_foreign_memory);
    g_test_add_func ("/gst-hip/foreign/upload-copies",
        test_upload_copies_foreign_memory);
  }
  return g_test_run ();
}
