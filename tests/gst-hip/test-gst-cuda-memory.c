/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* vmafhipcompare fed by NVIDIA's cudaupload (memory:CUDAMemory) scores
 * exactly what it scores from system memory, and no frame is mapped into
 * system memory on the way: gst-cuda marks memory whose only current copy
 * is on the device (NEED_DOWNLOAD) and clears the mark when something maps
 * it for the CPU; every frame must reach the element marked and still be
 * marked once the pipeline is done. Needs an NVIDIA GPU and GStreamer's
 * nvcodec plugin (cudaupload); exits 77 without them. With VH_TEST_MODE=nogpu
 * (no GPU runtime): CUDA memory is refused at the caps, saying why. */

#include <gst/gst.h>

#include "gst-hip-test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_FRAMES 6
/* Exit status that meson counts as a skip (GLib counts a skipped case as
 * a pass). */
#define VH_TEST_SKIP 77
/* gst-cuda's GST_CUDA_MEMORY_TRANSFER_NEED_DOWNLOAD */
#define CUDA_NEED_DOWNLOAD (GST_MEMORY_FLAG_LAST << 0)

#define SOURCES_FULL(mem, n, dist, props) \
  "videotestsrc num-buffers=" G_STRINGIFY (n) " pattern=ball ! " \
  "video/x-raw,format=I420,width=320,height=240,framerate=25/1 " mem \
  " ! c.ref_sink videotestsrc num-buffers=" G_STRINGIFY (n) \
  " pattern=ball " dist " ! " \
  "video/x-raw,format=I420,width=320,height=240,framerate=25/1 " mem \
  " ! c.dist_sink vmafhipcompare name=c features=psnr,float_ssim " \
  "model=\"\" backend=hip " props " ! fakesink"
#define SOURCES(mem) \
  SOURCES_FULL (mem, N_FRAMES, "horizontal-speed=3", "")
/* align=content: enough frames of one moving picture to lock */
#define N_ALIGN_FRAMES 40
#define SOURCES_ALIGN(mem) \
  SOURCES_FULL (mem, N_ALIGN_FRAMES, "", "align=content")

typedef struct
{
  GPtrArray *memories;          /* GstMemory*, as they reached the element */
  guint n_not_cuda;
  guint n_host_current;         /* arrived with a current host copy */
  GMutex lock;                  /* the two pads' threads add at once */
} Seen;

static GstPadProbeReturn
on_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Seen *seen = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstMemory *mem = gst_buffer_peek_memory (buf, 0);

  g_mutex_lock (&seen->lock);
  if (!mem->allocator || g_strcmp0 (mem->allocator->mem_type,
          "gst.cuda.memory") != 0) {
    seen->n_not_cuda++;
  } else {
    if (!GST_MEMORY_FLAG_IS_SET (mem, CUDA_NEED_DOWNLOAD))
      seen->n_host_current++;
    g_ptr_array_add (seen->memories, gst_memory_ref (mem));
  }
  g_mutex_unlock (&seen->lock);
  return GST_PAD_PROBE_OK;
}

static GPtrArray *run_pipeline (GstElement * p, gchar ** error_msg);

/* The per-frame "vmaf" structures; NULL with @error_msg on an error. */
static GPtrArray *
run (const gchar * launch, Seen * seen, gchar ** error_msg)
{
  GstElement *p = gst_parse_launch (launch, NULL);

  if (seen) {
    GstElement *c = gst_bin_get_by_name (GST_BIN (p), "c");
    for (guint i = 0; i < 2; i++) {
      GstPad *pad = gst_element_get_static_pad (c, i ? "dist_sink" :
          "ref_sink");
      gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_buffer, seen,
          NULL);
      gst_object_unref (pad);
    }
    gst_object_unref (c);
  }
  return run_pipeline (p, error_msg);
}

/* Runs @p (taken) to its end from the state it is in. */
static GPtrArray *
run_pipeline (GstElement * p, gchar ** error_msg)
{
  GstBus *bus = gst_element_get_bus (p);
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_structure_free);
  gboolean done = FALSE;

  *error_msg = NULL;
  gst_element_set_state (p, GST_STATE_PLAYING);
  while (!done) {
    GstMessage *m = gst_bus_timed_pop (bus, 60 * GST_SECOND);
    if (!m)
      g_error ("timeout: %s", GST_OBJECT_NAME (p));
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ELEMENT &&
        gst_message_has_name (m, "vmaf"))
      g_ptr_array_add (frames,
          gst_structure_copy (gst_message_get_structure (m)));
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      GError *err;
      gst_message_parse_error (m, &err, NULL);
      *error_msg = g_strdup_printf ("%s: %s", GST_MESSAGE_SRC_NAME (m),
          err->message);
      g_error_free (err);
      done = TRUE;
    }
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS)
      done = TRUE;
    gst_message_unref (m);
  }
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
  if (*error_msg)
    g_clear_pointer (&frames, g_ptr_array_unref);
  return frames;
}

/* No GPU: frames announced in CUDA memory are refused with a reason. */
static void
test_refused_without_gpu (void)
{
  const gchar *caps = "video/x-raw(memory:CUDAMemory),format=I420,"
      "width=64,height=64,framerate=25/1";
  g_autofree gchar *desc = g_strdup_printf ("appsrc name=r caps=\"%s\" "
      "format=time ! c.ref_sink appsrc name=d caps=\"%s\" format=time ! "
      "c.dist_sink vmafhipcompare name=c features=psnr model=\"\" ! "
      "fakesink", caps, caps);
  GstElement *p = gst_parse_launch (desc, NULL);
  GstBus *bus = gst_element_get_bus (p);
  GstMessage *m;
  GError *err = NULL;

  gst_element_set_state (p, GST_STATE_PLAYING);
  for (guint i = 0; i < 2; i++) {
    GstElement *src = gst_bin_get_by_name (GST_BIN (p), i ? "d" : "r");
    GstBuffer *buf = gst_buffer_new_allocate (NULL, 64 * 64 * 3 / 2, NULL);
    GstFlowReturn ret;
    GST_BUFFER_PTS (buf) = 0;
    GST_BUFFER_DURATION (buf) = GST_SECOND / 25;
    g_signal_emit_by_name (src, "push-buffer", buf, &ret);
    g_signal_emit_by_name (src, "end-of-stream", &ret);
    gst_buffer_unref (buf);
    gst_object_unref (src);
  }
  m = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  g_assert_nonnull (m);
  g_assert_cmpint (GST_MESSAGE_TYPE (m), ==, GST_MESSAGE_ERROR);
  gst_message_parse_error (m, &err, NULL);
  printf ("refused: %s\n", err->message);
  g_assert_true (g_error_matches (err, GST_CORE_ERROR,
          GST_CORE_ERROR_NEGOTIATION));
  g_assert_nonnull (strstr (err->message, "CUDA memory"));
  g_assert_nonnull (strstr (err->message, "no GPU"));
  g_error_free (err);
  gst_message_unref (m);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
}

/* The CUDA memory run (in main: without a GPU for it the test skips). */
static Seen seen;
static GPtrArray *cuda;

/* The same numbers as from system memory. */
static void
test_same_values (void)
{
  g_autofree gchar *err = NULL;
  g_autoptr (GPtrArray) sys = run (SOURCES (""), NULL, &err);
  guint n_values;

  if (!sys)
    g_error ("system memory pipeline failed: %s", err);
  g_assert_cmpuint (cuda->len, ==, N_FRAMES);
  g_assert_cmpuint (sys->len, ==, N_FRAMES);
  n_values = vh_gst_test_assert_same_values (sys, "system memory", cuda,
      "CUDA memory", "CUDA memory against system memory");
  g_assert_cmpuint (n_values, >, 0);
  printf ("# %u values equal\n", n_values);
}

/* Every frame came as CUDA memory with its only current copy on the
 * device, and stayed so: nothing mapped it for the CPU. */
static void
assert_read_in_place (Seen * seen, guint n_frames)
{
  g_assert_cmpuint (seen->n_not_cuda, ==, 0);
  g_assert_cmpuint (seen->memories->len, ==, 2 * n_frames);
  if (seen->n_host_current) {
    g_autofree gchar *why = g_strdup_printf ("cudaupload left %u frames "
        "with a current host copy: system-memory maps cannot be told apart",
        seen->n_host_current);
    g_test_skip (why);
    return;
  }
  for (guint i = 0; i < seen->memories->len; i++) {
    GstMemory *mem = g_ptr_array_index (seen->memories, i);
    if (!GST_MEMORY_FLAG_IS_SET (mem, CUDA_NEED_DOWNLOAD))
      g_error ("frame memory %u was mapped into system memory", i);
  }
  printf ("# %u frames read in place, none mapped into system memory\n",
      seen->memories->len);
}

static void
test_read_in_place (void)
{
  assert_read_in_place (&seen, N_FRAMES);
}

/* align=content: the frames' signatures are read in place too (they
 * were downloaded and read on the CPU), with the pairs and values of
 * system memory. */
static void
test_content_read_in_place (void)
{
  g_autofree gchar *err = NULL;
  g_autoptr (GPtrArray) sys = run (SOURCES_ALIGN (""), NULL, &err);
  g_autoptr (GPtrArray) on_gpu = NULL;
  Seen aligned = { 0, };
  guint n_values;

  if (!sys)
    g_error ("system memory pipeline failed: %s", err);
  g_mutex_init (&aligned.lock);
  aligned.memories = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_memory_unref);
  on_gpu = run (SOURCES_ALIGN ("! cudaupload ! video/x-raw(memory:CUDAMemory)"),
      &aligned, &err);
  if (!on_gpu)
    g_error ("CUDA memory pipeline failed: %s", err);
  g_assert_cmpuint (sys->len, >=, N_ALIGN_FRAMES / 2);
  n_values = vh_gst_test_assert_same_values (sys, "system memory", on_gpu,
      "CUDA memory", "align=content, CUDA memory against system memory");
  printf ("# align=content: %u pairs, %u values equal\n", sys->len,
      n_values);
  assert_read_in_place (&aligned, N_ALIGN_FRAMES);
  g_ptr_array_unref (aligned.memories);
  g_mutex_clear (&aligned.lock);
}

/* A CUDA producer that asks for its context before it is linked, as a
 * decoder that decodebin plugs once the stream is typed: the pipeline
 * hands it the element's context (posted when the element started), and
 * its frames are read in place with system memory's values. Before, it
 * made a context of its own and every frame failed ("a frame in CUDA
 * memory of another CUDA context"). */
static void
test_context_late_producer (void)
{
  g_autofree gchar *err = NULL;
  g_autoptr (GPtrArray) sys = run (SOURCES (""), NULL, &err);
  g_autoptr (GPtrArray) late_run = NULL;
  GstElement *p = gst_parse_launch ("videotestsrc num-buffers="
      G_STRINGIFY (N_FRAMES) " pattern=ball ! video/x-raw,format=I420,"
      "width=320,height=240,framerate=25/1 ! cudaupload ! "
      "video/x-raw(memory:CUDAMemory) ! c.ref_sink vmafhipcompare name=c "
      "features=psnr,float_ssim model=\"\" backend=hip ! fakesink", NULL);
  GstElement *late = gst_parse_bin_from_description ("videotestsrc "
      "num-buffers=" G_STRINGIFY (N_FRAMES) " pattern=ball "
      "horizontal-speed=3 ! video/x-raw,format=I420,width=320,height=240,"
      "framerate=25/1 ! cudaupload ! capsfilter "
      "caps=\"video/x-raw(memory:CUDAMemory)\"", TRUE, NULL);
  GstElement *c = gst_bin_get_by_name (GST_BIN (p), "c");

  g_assert_nonnull (sys);
  /* the element starts (its device opens) as the pipeline goes to PAUSED */
  gst_element_set_state (p, GST_STATE_PAUSED);
  gst_bin_add (GST_BIN (p), late);
  /* cudaupload looks for a context now, with nothing linked */
  g_assert_cmpint (gst_element_set_state (late, GST_STATE_READY), !=,
      GST_STATE_CHANGE_FAILURE);
  g_assert_true (gst_element_link_pads (late, "src", c, "dist_sink"));
  /* as decodebin does: the pipeline waits for its preroll */
  g_assert_true (gst_element_sync_state_with_parent (late));
  gst_object_unref (c);
  late_run = run_pipeline (p, &err);
  if (!late_run)
    g_error ("a CUDA producer set up before it was linked: %s", err);
  g_assert_cmpuint (late_run->len, ==, N_FRAMES);
  vh_gst_test_assert_same_values (sys, "system memory", late_run,
      "CUDA memory", "a producer linked late, against system memory");
}

int
main (int argc, char **argv)
{
  g_autofree gchar *err = NULL;
  GstElementFactory *upload;
  gint ret;

  g_test_init (&argc, &argv, NULL);
  gst_init (&argc, &argv);
  if (!g_strcmp0 (g_getenv ("VH_TEST_MODE"), "nogpu")) {
    g_test_add_func ("/gst-cuda-memory/refused-without-gpu",
        test_refused_without_gpu);
    return g_test_run ();
  }
  upload = gst_element_factory_find ("cudaupload");
  if (!upload) {
    printf ("SKIP: no cudaupload (GStreamer's nvcodec plugin)\n");
    return VH_TEST_SKIP;
  }
  gst_object_unref (upload);

  g_mutex_init (&seen.lock);
  seen.memories = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_memory_unref);
  cuda = run (SOURCES ("! cudaupload ! video/x-raw(memory:CUDAMemory)"),
      &seen, &err);
  if (!cuda) {
    /* No NVIDIA GPU for cudaupload, or none (or AMD's) for the element:
     * the error says which; anything else is a failure. */
    if (g_str_has_prefix (err, "cudaupload") || strstr (err, "AMD GPU") ||
        strstr (err, "no GPU") || strstr (err, "no usable GPU")) {
      printf ("SKIP: %s\n", err);
      return VH_TEST_SKIP;
    }
    g_error ("CUDA memory pipeline failed: %s", err);
  }
  g_test_add_func ("/gst-cuda-memory/same-values", test_same_values);
  g_test_add_func ("/gst-cuda-memory/read-in-place", test_read_in_place);
  g_test_add_func ("/gst-cuda-memory/content-read-in-place",
      test_content_read_in_place);
  g_test_add_func ("/gst-cuda-memory/context-late-producer",
      test_context_late_producer);
  ret = g_test_run ();
  /* Memory that could not be told apart: the whole run is a skip. */
  if (ret == 0 && seen.n_host_current)
    ret = VH_TEST_SKIP;
  g_ptr_array_unref (seen.memories);
  g_mutex_clear (&seen.lock);
  g_ptr_array_unref (cuda);
  return ret;
}
