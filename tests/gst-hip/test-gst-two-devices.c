/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Two pipelines in one process, each on its own device, at once: with
 * vmafhipupload and vmafhipcompare given device-id 0 in one and 1 in the
 * other, and with only the element given a device (the uploads take the
 * pipeline's device from the vmafhip.hip.device context). Each pipeline
 * scores exactly what backend=cpu scores from system memory, every element
 * reports the device of its pipeline, and on the fake driver with two
 * devices no device memory is made or touched outside its own device's
 * context, each device does work, and nothing is left allocated. Uses only
 * the plugin file. Skips (77) with fewer than two devices. */

#include <gst/gst.h>

#include "fake-cuda-counters.h"
#include "gst-hip-test.h"

#include <stdio.h>
#include <string.h>

#define N_FRAMES 10
#define CONTEXT_TYPE "vmafhip.hip.device"

/* One pipeline: two moving test patterns, each through an upload (@up:
 * its properties, or NULL for system memory), into the element (@el: its
 * properties). */
static gchar *
launch_line (const gchar * up, const gchar * el)
{
  g_autofree gchar *upload = up ? g_strdup_printf ("! vmafhipupload name=u%%d "
      "%s ! video/x-raw(memory:HIPMemory) ", up) : g_strdup ("");
  g_autofree gchar *ref = g_strdup_printf (upload, 0);
  g_autofree gchar *dist = g_strdup_printf (upload, 1);

  return g_strdup_printf ("videotestsrc num-buffers=%d pattern=ball ! "
      "video/x-raw,format=I420,width=176,height=144 %s! c.ref_sink "
      "videotestsrc num-buffers=%d pattern=ball horizontal-speed=3 ! "
      "video/x-raw,format=I420,width=176,height=144 %s! c.dist_sink "
      "vmafhipcompare name=c features=psnr,float_ssim %s ! fakesink",
      N_FRAMES, ref, N_FRAMES, dist, el);
}

typedef struct
{
  GstElement *pipeline;
  GPtrArray *frames;            /* the "vmaf" structures, in order */
  gboolean done;
} Run;

static void
run_start (Run * r, const gchar * launch)
{
  GError *error = NULL;

  r->pipeline = gst_parse_launch (launch, &error);
  g_assert_no_error (error);
  r->frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_structure_free);
  r->done = FALSE;
  g_assert_cmpint (gst_element_set_state (r->pipeline, GST_STATE_PLAYING),
      !=, GST_STATE_CHANGE_FAILURE);
}

/* Takes what the pipeline's bus holds; TRUE once it is over. */
static gboolean
run_poll (Run * r)
{
  GstBus *bus = gst_element_get_bus (r->pipeline);
  GstMessage *m;

  while (!r->done && (m = gst_bus_timed_pop (bus, 10 * GST_MSECOND))) {
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ELEMENT &&
        gst_message_has_name (m, "vmaf"))
      g_ptr_array_add (r->frames,
          gst_structure_copy (gst_message_get_structure (m)));
    else if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      GError *err;
      gst_message_parse_error (m, &err, NULL);
      g_error ("%s: %s", GST_OBJECT_NAME (r->pipeline), err->message);
    } else if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS)
      r->done = TRUE;
    gst_message_unref (m);
  }
  gst_object_unref (bus);
  return r->done;
}

/* The device an element of the pipeline found in its device context. */
static gint
element_device (Run * r, const gchar * name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (r->pipeline), name);
  GstContext *context = gst_element_get_context (e, CONTEXT_TYPE);
  guint id = G_MAXUINT;

  g_assert_nonnull (context);
  g_assert_true (gst_structure_get_uint (gst_context_get_structure (context),
          "device-id", &id));
  gst_context_unref (context);
  gst_object_unref (e);
  return (gint) id;
}

static void
run_finish (Run * r)
{
  gst_element_set_state (r->pipeline, GST_STATE_NULL);
  gst_clear_object (&r->pipeline);
}

/* Every value of @dev's frames equals @cpu's. */
static void
assert_same_values (GPtrArray * cpu, GPtrArray * dev, const gchar * what)
{
  g_assert_cmpuint (cpu->len, ==, N_FRAMES);
  g_assert_cmpuint (vh_gst_test_assert_same_values (cpu, "CPU", dev,
          "device", what), >, N_FRAMES * 3);
}

static GPtrArray *
cpu_values (void)
{
  g_autofree gchar *launch = launch_line (NULL, "backend=cpu");
  Run r;

  run_start (&r, launch);
  while (!run_poll (&r));
  run_finish (&r);
  return r.frames;
}

/* The features run on the GPU where kernels exist; on the fake driver,
 * whose modules do not load, backend=auto reads the frames on the CPU
 * after they went through each device's memory. */
static const gchar *
backend (void)
{
  return g_strcmp0 (g_getenv ("VH_TEST_MODE"), "fake") ? "hip" : "auto";
}

/* Two pipelines at once, pipeline d on device d: @pin_uploads gives the
 * uploads device-id too, else they take the element's. */
static void
two_at_once (gboolean pin_uploads)
{
  g_autoptr (GPtrArray) cpu = cpu_values ();
  guint before[2] = { 0, 0 }, after[2] = { 0, 0 }, n_foreign = 0;
  gboolean fake = vh_fake_cuda_devices (2, before, &n_foreign);
  Run runs[2];

  for (gint d = 0; d < 2; d++) {
    g_autofree gchar *up = g_strdup_printf ("device-id=%d", pin_uploads ? d :
        -1);
    g_autofree gchar *el = g_strdup_printf ("device-id=%d backend=%s", d,
        backend ());
    g_autofree gchar *launch = launch_line (up, el);
    run_start (&runs[d], launch);
  }
  for (gboolean done = FALSE; !done;) {
    gboolean first = run_poll (&runs[0]);
    done = run_poll (&runs[1]) && first;
  }
  for (gint d = 0; d < 2; d++) {
    g_assert_cmpint (element_device (&runs[d], "c"), ==, d);
    g_assert_cmpint (element_device (&runs[d], "u0"), ==, d);
    g_assert_cmpint (element_device (&runs[d], "u1"), ==, d);
    assert_same_values (cpu, runs[d].frames, d ? "device 1" : "device 0");
    g_ptr_array_unref (runs[d].frames);
    run_finish (&runs[d]);
  }
  if (fake) {
    vh_fake_cuda_devices (2, after, &n_foreign);
    g_assert_cmpuint (n_foreign, ==, 0);
    g_assert_cmpuint (after[0], >, before[0]);
    g_assert_cmpuint (after[1], >, before[1]);
    vh_fake_cuda_assert_all_freed ("two pipelines at once");
  }
}

static void
test_pinned (void)
{
  two_at_once (TRUE);
}

static void
test_from_context (void)
{
  two_at_once (FALSE);
}

/* Device 1 alone: nothing is made on device 0. */
static void
test_second_only (void)
{
  g_autoptr (GPtrArray) cpu = cpu_values ();
  g_autofree gchar *el = g_strdup_printf ("device-id=1 backend=%s",
      backend ());
  g_autofree gchar *launch = launch_line ("", el);
  guint before[2] = { 0, 0 }, after[2] = { 0, 0 }, n_foreign = 0;
  gboolean fake = vh_fake_cuda_devices (2, before, &n_foreign);
  Run r;

  run_start (&r, launch);
  while (!run_poll (&r));
  g_assert_cmpint (element_device (&r, "u0"), ==, 1);
  assert_same_values (cpu, r.frames, "device 1 alone");
  g_ptr_array_unref (r.frames);
  run_finish (&r);
  if (fake) {
    vh_fake_cuda_devices (2, after, &n_foreign);
    g_assert_cmpuint (after[0], ==, before[0]);
    g_assert_cmpuint (after[1], >, before[1]);
    g_assert_cmpuint (n_foreign, ==, 0);
    vh_fake_cuda_assert_all_freed ("device 1 alone");
  }
}

int
main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  if (!vh_gst_test_pipeline_starts ("videotestsrc num-buffers=1 ! "
          "vmafhipupload device-id=1 ! fakesink")) {
    printf ("SKIP: no second device here (vmafhipupload device-id=1 "
        "cannot start)\n");
    return 77;
  }
  g_test_add_func ("/gst-hip/two-devices/pinned", test_pinned);
  g_test_add_func ("/gst-hip/two-devices/from-context", test_from_context);
  g_test_add_func ("/gst-hip/two-devices/second-only", test_second_only);
  return g_test_run ();
}
