/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* vmafhipcompare fed memory:HIPMemory on both sinks scores exactly what it
 * scores from system memory, with backend auto and cpu, and every pipeline
 * leaves nothing allocated on the device. Uses only the plugin file (no HIP
 * code linked here). Runs on the GPU, or on the fake driver when
 * VH_HIP_NVIDIA_RUNTIME names it; skips (77) when the HIP elements cannot
 * start. */

#include <gst/gst.h>

#include "fake-cuda-counters.h"
#include "gst-hip-test.h"

#include <stdio.h>
#include <string.h>

#define PROBE "videotestsrc num-buffers=1 ! vmafhipupload ! fakesink"
#define SMALL "video/x-raw,format=I420,width=64,height=48"

#define SOURCES(mem) \
  "videotestsrc num-buffers=12 pattern=ball ! video/x-raw,format=%s," \
  "width=%d,height=%d " mem " ! c.ref_sink " \
  "videotestsrc num-buffers=12 pattern=ball horizontal-speed=3 ! " \
  "video/x-raw,format=%s,width=%d,height=%d " mem " ! c.dist_sink " \
  "vmafhipcompare name=c features=psnr,float_ssim backend=%s ! fakesink"

/* The per-frame "vmaf" structures the element posts; NULL with @error_msg
 * when the pipeline failed. */
static GPtrArray *
run_checked (const gchar * launch, gchar ** error_msg,
    gboolean context_freed)
{
  GstElement *p = gst_parse_launch (launch, NULL);
  GstBus *bus = gst_element_get_bus (p);
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_structure_free);
  gboolean done = FALSE;

  *error_msg = NULL;
  gst_element_set_state (p, GST_STATE_PLAYING);
  while (!done) {
    GstMessage *m = gst_bus_timed_pop (bus, 60 * GST_SECOND);
    if (!m)
      g_error ("timeout: %s", launch);
    switch (GST_MESSAGE_TYPE (m)) {
      case GST_MESSAGE_ELEMENT:
        if (gst_message_has_name (m, "vmaf"))
          g_ptr_array_add (frames,
              gst_structure_copy (gst_message_get_structure (m)));
        break;
      case GST_MESSAGE_ERROR:{
        GError *err;
        gst_message_parse_error (m, &err, NULL);
        *error_msg = g_strdup (err->message);
        g_error_free (err);
        done = TRUE;
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
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (p);
  if (context_freed) {
    vh_fake_cuda_assert_all_freed (launch);
  } else {
    VhFakeCudaCounters left;

    /* a kernel module loaded stays for the process, holding its device */
    if (vh_fake_cuda_counters (&left))
      g_assert_cmpuint (left.n_allocations, ==, 0);
  }
  if (*error_msg)
    g_clear_pointer (&frames, g_ptr_array_unref);
  return frames;
}

static GPtrArray *
run (const gchar * launch, gchar ** error_msg)
{
  return run_checked (launch, error_msg, TRUE);
}

static void
compare (const gchar * format, gint w, gint h, const gchar * backend)
{
  g_autofree gchar *sys = g_strdup_printf (SOURCES (""), format, w, h,
      format, w, h, backend);
  g_autofree gchar *hip = g_strdup_printf (SOURCES ("! vmafhipupload ! "
          "video/x-raw(memory:HIPMemory)"), format, w, h, format, w, h,
      backend);
  g_autofree gchar *err = NULL;
  GPtrArray *a, *b;
  guint n_values;

  a = run (sys, &err);
  g_assert_null (err);
  b = run (hip, &err);
  g_assert_null (err);
  g_assert_cmpuint (a->len, ==, 12);
  n_values = vh_gst_test_assert_same_values (a, "system", b, "HIP", format);
  g_assert_cmpuint (n_values, >, 12 * 5);
  g_test_message ("%s %dx%d backend=%s: %u values equal", format, w, h,
      backend, n_values);
  g_ptr_array_unref (a);
  g_ptr_array_unref (b);
}

static void
test_hip_caps_equal_system (void)
{
  compare ("I420", 320, 240, "auto");
  compare ("I420_10LE", 161, 97, "auto");
  compare ("NV12", 176, 144, "auto");
}

/* Features on the CPU read HIP memory through its host copy. */
static void
test_hip_caps_cpu_backend (void)
{
  compare ("I420", 320, 240, "cpu");
}

/* Runs @launch to EOS and returns the element c's stats at the end. */
static GstStructure *
run_for_stats (const gchar * launch)
{
  GstElement *p = gst_parse_launch (launch, NULL);
  GstElement *c = gst_bin_get_by_name (GST_BIN (p), "c");
  GstBus *bus = gst_element_get_bus (p);
  GstStructure *stats = NULL;
  VhFakeCudaCounters left;
  GstMessage *m;

  gst_element_set_state (p, GST_STATE_PLAYING);
  m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND, GST_MESSAGE_EOS |
      GST_MESSAGE_ERROR);
  g_assert_nonnull (m);
  if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
    GError *err;

    gst_message_parse_error (m, &err, NULL);
    g_error ("%s: %s", launch, err->message);
  }
  gst_message_unref (m);
  g_object_get (c, "stats", &stats, NULL);
  g_assert_nonnull (stats);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (c);
  gst_object_unref (p);
  /* kernel modules stay loaded for the process, holding their device:
   * no memory may stay */
  if (vh_fake_cuda_counters (&left))
    g_assert_cmpuint (left.n_allocations, ==, 0);
  return stats;
}

/* The "scaler" stat of @launch's run (NULL when nothing was resampled)
 * and the frames scored in @n_frames. */
static gchar *
run_for_scaler (const gchar * launch, guint64 * n_frames)
{
  GstStructure *stats = run_for_stats (launch);
  gchar *scaler;

  g_assert_true (gst_structure_get_uint64 (stats, "scored", n_frames));
  scaler = g_strdup (gst_structure_get_string (stats, "scaler"));
  gst_structure_free (stats);
  return scaler;
}

#define SCALED(mem, backend) \
  "videotestsrc num-buffers=6 pattern=ball ! video/x-raw,format=I420," \
  "width=320,height=240 " mem " ! c.ref_sink " \
  "videotestsrc num-buffers=6 pattern=ball horizontal-speed=3 ! " \
  "video/x-raw,format=I420,width=176,height=144 " mem " ! c.dist_sink " \
  "vmafhipcompare name=c features=psnr backend=" backend " ! fakesink"

/* A distorted video of another size is resampled on the device when the
 * features run there: from HIP memory, and from system memory of its own
 * (uploaded at its size); on the CPU with backend=cpu. On a GPU the three
 * give the same values (the twins, the scaler's and the integer
 * features', are equal bit for bit); on the fake driver, whose kernels do
 * not run the scaler, the frames go through the device path and no
 * device memory stays allocated. */
static void
test_scaled_on_device (void)
{
  const gchar *on_gpu = SCALED ("! vmafhipupload", "hip");
  const gchar *uploaded = SCALED ("! identity drop-allocation=true", "hip");
  const gchar *on_cpu = SCALED ("", "cpu");
  gboolean fake = vh_fake_cuda_library () != NULL;
  g_autofree gchar *err = NULL;
  gchar *scaler;
  guint64 n = 0;

  if (fake)
    g_setenv ("VH_FAKE_CUDA_KERNELS", "noop", TRUE);
  scaler = run_for_scaler (on_gpu, &n);
  g_assert_cmpstr (scaler, ==, "bicubic from 176x144 on the gpu");
  g_assert_cmpuint (n, ==, 6);
  g_free (scaler);
  scaler = run_for_scaler (uploaded, &n);
  g_assert_cmpstr (scaler, ==, "bicubic from 176x144 on the gpu");
  g_assert_cmpuint (n, ==, 6);
  g_free (scaler);
  scaler = run_for_scaler (on_cpu, &n);
  g_assert_cmpstr (scaler, ==, "bicubic from 176x144 on the cpu");
  g_assert_cmpuint (n, ==, 6);
  g_free (scaler);
  if (fake) {
    g_unsetenv ("VH_FAKE_CUDA_KERNELS");
    return;
  }
  {
    GPtrArray *a = run_checked (on_cpu, &err, FALSE), *b, *c;

    g_assert_null (err);
    b = run_checked (on_gpu, &err, FALSE);
    g_assert_null (err);
    c = run_checked (uploaded, &err, FALSE);
    g_assert_null (err);
    g_assert_cmpuint (a->len, ==, 6);
    g_assert_cmpuint (vh_gst_test_assert_same_values (a, "CPU scaler", b,
            "GPU scaler", "I420 176x144 to 320x240"), >, 6 * 3);
    g_assert_cmpuint (vh_gst_test_assert_same_values (a, "CPU scaler", c,
            "GPU scaler after an upload", "I420 176x144 to 320x240"), >,
        6 * 3);
    g_ptr_array_unref (a);
    g_ptr_array_unref (b);
    g_ptr_array_unref (c);
  }
}

/* A reference and @n renditions of its size, 8 frames each, in system
 * memory of their own (not the element's HIP pool, which uploads each
 * buffer once whoever asks) to features on the GPU: each picture is
 * uploaded by the scoring. */
static gchar *
ladder_launch (guint n)
{
  GString *s = g_string_new ("videotestsrc num-buffers=8 ! " SMALL " ! "
      "identity drop-allocation=true ! c.ref_sink ");

  for (guint i = 0; i < n; i++) {
    g_autofree gchar *pad = i ? g_strdup_printf ("dist_sink_%u", i - 1) :
        g_strdup ("dist_sink");

    g_string_append_printf (s, "videotestsrc num-buffers=8 pattern=ball "
        "horizontal-speed=%u ! " SMALL " ! identity drop-allocation=true ! "
        "c.%s ", i + 1, pad);
  }
  g_string_append (s, "vmafhipcompare name=c features=psnr model=\"\" "
      "backend=hip ! fakesink");
  return g_string_free (s, FALSE);
}

/* With 3 renditions the reference is uploaded once per frame, not once
 * per rendition: the element prepares each reference frame once (its
 * reference-frames stat); on the fake driver the copies to the device
 * grow by the same count with each rendition, and with one rendition
 * exceed that count by the reference's own, which does not repeat. */
static void
test_reference_uploaded_once (void)
{
  gboolean fake = vh_fake_cuda_library () != NULL;
  guint uploads[4] = { 0 };

  if (fake)
    g_setenv ("VH_FAKE_CUDA_KERNELS", "noop", TRUE);
  for (guint n = 1; n <= 3; n++) {
    g_autofree gchar *launch = ladder_launch (n);
    VhFakeCudaCalls before, after;
    GstStructure *stats;
    guint64 made = 0, scored = 0;
    const GValue *renditions;

    if (fake)
      g_assert_true (vh_fake_cuda_calls (&before));
    stats = run_for_stats (launch);
    if (fake) {
      g_assert_true (vh_fake_cuda_calls (&after));
      uploads[n] = after.uploads - before.uploads;
    }
    g_assert_true (gst_structure_get_uint64 (stats, "reference-frames",
            &made));
    g_assert_true (gst_structure_get_uint64 (stats, "scored", &scored));
    g_assert_cmpuint (made, ==, 8);
    g_assert_cmpuint (scored, ==, 8);
    renditions = gst_structure_get_value (stats, "renditions");
    g_assert_cmpuint (n > 1 ? gst_value_array_get_size (renditions) : 0, ==,
        n > 1 ? n : 0);
    g_test_message ("%u renditions: %" G_GUINT64_FORMAT " reference frames "
        "prepared, %u copies to the device", n, made, uploads[n]);
    gst_structure_free (stats);
  }
  if (fake) {
    guint per_rendition = uploads[2] - uploads[1];

    g_unsetenv ("VH_FAKE_CUDA_KERNELS");
    g_assert_cmpuint (per_rendition, >, 0);
    g_assert_cmpuint (uploads[3] - uploads[2], ==, per_rendition);
    /* the reference's share: as large as one rendition's, once */
    g_assert_cmpuint (uploads[1], ==, 2 * per_rendition);
  }
}

#define RUNG(w, h, speed, pad) \
  "videotestsrc num-buffers=6 pattern=ball horizontal-speed=" speed " ! " \
  "video/x-raw,format=I420,width=" w ",height=" h " ! vmafhipupload ! " \
  "c." pad " "
#define LADDER_REF \
  "videotestsrc num-buffers=6 pattern=ball ! video/x-raw,format=I420," \
  "width=160,height=120 ! vmafhipupload ! c.ref_sink "
#define LADDER_ELEMENT \
  "vmafhipcompare name=c features=psnr backend=hip ! fakesink"

/* The "vmaf" structures of pad @pad (taken from @all, which keeps the
 * others). */
static GPtrArray *
frames_of_pad (GPtrArray * all, const gchar * pad)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_structure_free);

  for (guint i = 0; i < all->len; i++)
    if (!g_strcmp0 (gst_structure_get_string (g_ptr_array_index (all, i),
                "pad"), pad))
      g_ptr_array_add (out, gst_structure_copy (g_ptr_array_index (all, i)));
  return out;
}

/* A 3-rung ladder in HIP memory, two rungs resampled on the device:
 * each rung's values through one element equal that rung scored alone
 * (on a GPU; on the stand-ins, whose kernels compute nothing, the frames
 * go through every rung and nothing stays allocated). */
static void
test_ladder_on_device (void)
{
  static const gchar *alone[] = {
    LADDER_REF RUNG ("160", "120", "1", "dist_sink") LADDER_ELEMENT,
    LADDER_REF RUNG ("120", "90", "2", "dist_sink") LADDER_ELEMENT,
    LADDER_REF RUNG ("80", "60", "3", "dist_sink") LADDER_ELEMENT,
  };
  static const gchar *pads[] = { "dist_sink", "dist_sink_0", "dist_sink_1" };
  const gchar *ladder = LADDER_REF RUNG ("160", "120", "1", "dist_sink")
      RUNG ("120", "90", "2", "dist_sink_0") RUNG ("80", "60", "3",
      "dist_sink_1") LADDER_ELEMENT;
  gboolean fake = vh_fake_cuda_library () != NULL;
  g_autofree gchar *err = NULL;
  GPtrArray *all;

  if (fake)
    g_setenv ("VH_FAKE_CUDA_KERNELS", "noop", TRUE);
  all = run_checked (ladder, &err, FALSE);
  g_assert_null (err);
  g_assert_cmpuint (all->len, ==, 3 * 6);
  for (guint r = 0; r < G_N_ELEMENTS (pads); r++) {
    GPtrArray *mine = frames_of_pad (all, pads[r]);

    g_assert_cmpuint (mine->len, ==, 6);
    if (!fake) {
      GPtrArray *single = run_checked (alone[r], &err, FALSE);

      g_assert_null (err);
      g_assert_cmpuint (vh_gst_test_assert_same_values (mine, "ladder",
              single, "alone", pads[r]), >, 6 * 3);
      g_ptr_array_unref (single);
    }
    g_ptr_array_unref (mine);
  }
  g_ptr_array_unref (all);
  if (fake)
    g_unsetenv ("VH_FAKE_CUDA_KERNELS");
}

/* The pool's minimum in the answer an allocation query got downstream of
 * the pad the probe sits on (0 before any). */
static GstPadProbeReturn
on_allocation_answered (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstQuery *q = GST_PAD_PROBE_INFO_QUERY (info);
  guint *min = data;

  if (GST_QUERY_TYPE (q) == GST_QUERY_ALLOCATION &&
      gst_query_get_n_allocation_pools (q) > 0)
    gst_query_parse_nth_allocation_pool (q, 0, NULL, NULL, min, NULL);
  return GST_PAD_PROBE_OK;
}

/* Producers learn how many frames the element may hold (4 waiting for
 * their partner, more in the scoring context), so that their pools are
 * made at the start, not grown a device allocation at a time while the
 * first frames go through: the element's HIP pool comes with that
 * minimum. */
static void
test_proposes_buffers_held (void)
{
  const gchar *launch = "videotestsrc name=r num-buffers=3 ! "
      "video/x-raw,format=I420,width=64,height=48 ! c.ref_sink "
      "videotestsrc num-buffers=3 ! video/x-raw,format=I420,width=64,"
      "height=48 ! c.dist_sink vmafhipcompare name=c features=psnr "
      "backend=hip ! fakesink";
  GstElement *p, *r;
  GstPad *pad;
  guint min = 0;

  /* on the fake driver, kernels that load (and do nothing) */
  g_setenv ("VH_FAKE_CUDA_KERNELS", "noop", TRUE);
  p = gst_parse_launch (launch, NULL);
  r = gst_bin_get_by_name (GST_BIN (p), "r");
  pad = gst_element_get_static_pad (r, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM |
      GST_PAD_PROBE_TYPE_PULL, on_allocation_answered, &min, NULL);
  vh_gst_test_play_to_eos (p, 60 * GST_SECOND);
  gst_object_unref (pad);
  gst_object_unref (r);
  gst_object_unref (p);
  g_unsetenv ("VH_FAKE_CUDA_KERNELS");
  /* no vh_fake_cuda_assert_all_freed (): kernel modules that loaded stay
   * loaded for the process, holding their device */
  g_assert_cmpuint (min, >, 4);
  g_assert_cmpuint (min, <=, 64);
}

/* Frames in HIP memory whose copies are still in flight (the fake
 * driver's events stay pending until the host waits for them) are read by
 * kernels that wait for the copies on the device: the GPU feature's
 * stream waits for both frames of every pair, and the element does not
 * wait on the host for them. From vmafhipupload, and from a producer
 * writing into the element's own buffers. */
static void
test_uploads_waited_on_device (void)
{
  static const gchar *launches[] = {
    "videotestsrc num-buffers=8 ! " SMALL " ! vmafhipupload ! c.ref_sink "
        "videotestsrc num-buffers=8 pattern=ball ! " SMALL " ! vmafhipupload "
        "! c.dist_sink vmafhipcompare name=c features=psnr backend=hip ! "
        "fakesink",
    "videotestsrc num-buffers=8 ! " SMALL " ! c.ref_sink "
        "videotestsrc num-buffers=8 pattern=ball ! " SMALL " ! c.dist_sink "
        "vmafhipcompare name=c features=psnr backend=hip ! fakesink",
  };
  VhFakeCudaCalls before, after;

  if (!vh_fake_cuda_calls (&before)) {
    g_test_skip ("counts the fake driver's calls");
    return;
  }
  g_setenv ("VH_FAKE_CUDA_KERNELS", "noop", TRUE);
  g_setenv ("VH_FAKE_CUDA_EVENTS", "pending", TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (launches); i++) {
    GstElement *p = gst_parse_launch (launches[i], NULL);

    g_assert_true (vh_fake_cuda_calls (&before));
    vh_gst_test_play_to_eos (p, 60 * GST_SECOND);
    gst_object_unref (p);
    g_assert_true (vh_fake_cuda_calls (&after));
    g_test_message ("%s: %u waits on the device, %u on the host",
        launches[i], after.device_waits - before.device_waits,
        after.host_waits - before.host_waits);
    g_assert_cmpuint (after.device_waits - before.device_waits, >=, 2 * 8);
  }
  g_unsetenv ("VH_FAKE_CUDA_EVENTS");
  g_unsetenv ("VH_FAKE_CUDA_KERNELS");
}

/* Before a live pipeline plays, the element has loaded the kernel modules
 * of the features it runs on the GPU (vmaf_v0.6.1's: adm, vif, motion),
 * not on the first frame, which comes when the clock already runs. In a
 * process of its own: a process loads each module once. */
static void
test_kernels_loaded_before_playing (void)
{
  GstElement *p;
  guint before = 0, after = 0;

  if (!g_test_subprocess ()) {
    if (!vh_fake_cuda_module_loads (&before)) {
      g_test_skip ("counts the fake driver's module loads");
      return;
    }
    g_setenv ("VH_FAKE_CUDA_KERNELS", "noop", TRUE);
    g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
    g_unsetenv ("VH_FAKE_CUDA_KERNELS");
    g_test_trap_assert_passed ();
    return;
  }
  p = gst_parse_launch ("videotestsrc is-live=true ! " SMALL " ! tee name=t "
      "t. ! queue ! c.ref_sink t. ! queue ! c.dist_sink "
      "vmafhipcompare name=c backend=hip ! fakesink", NULL);
  g_assert_true (vh_fake_cuda_module_loads (&before));
  /* A live pipeline prerolls nothing: no frame has flowed. */
  g_assert_cmpint (gst_element_set_state (p, GST_STATE_PAUSED), ==,
      GST_STATE_CHANGE_NO_PREROLL);
  g_assert_true (vh_fake_cuda_module_loads (&after));
  /* psnr's, loaded when the element opens the device to check that it
   * runs vmafhip's kernels, then adm's, vif's and motion's. */
  g_assert_cmpuint (after - before, ==, 4);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
}

int
main (int argc, char **argv)
{
  gboolean can_start;

  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  can_start = vh_gst_test_pipeline_starts (PROBE);
  vh_fake_cuda_assert_all_freed (PROBE);
  if (!can_start) {
    printf ("SKIP: vmafhipupload cannot start here (no GPU)\n");
    return 77;
  }
  g_test_add_func ("/gst-hip/compare/hip-caps-equal-system",
      test_hip_caps_equal_system);
  g_test_add_func ("/gst-hip/compare/hip-caps-cpu-backend",
      test_hip_caps_cpu_backend);
  g_test_add_func ("/gst-hip/compare/scaled-on-device",
      test_scaled_on_device);
  g_test_add_func ("/gst-hip/compare/reference-uploaded-once",
      test_reference_uploaded_once);
  g_test_add_func ("/gst-hip/compare/ladder-on-device",
      test_ladder_on_device);
  g_test_add_func ("/gst-hip/compare/proposes-buffers-held",
      test_proposes_buffers_held);
  g_test_add_func ("/gst-hip/compare/uploads-waited-on-device",
      test_uploads_waited_on_device);
  g_test_add_func ("/gst-hip/compare/kernels-loaded-before-playing",
      test_kernels_loaded_before_playing);
  return g_test_run ();
}
