/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* GStreamer 1.28's own HIP memory (hipupload, libgsthip) into
 * vmafhipcompare on a GPU: every value equals the same frames' from
 * system memory, and the element's stats show every frame read by device
 * address ("gst-hip-frames-on-device") and none through a CPU mapping
 * ("gst-hip-frames-mapped"). Skipped (77) where there is no hipupload
 * (GStreamer before 1.28, or no GPU for its plugin). Built against any
 * GStreamer; run with Debian's 1.28 runtime through
 * scripts/gst128-run.sh. VH_TEST_FRAMES: frames per run (default 60). */

#include <gst/gst.h>

#include <stdlib.h>

#include "gst-hip-test.h"

static guint n_frames = 60;

/* The pipeline's "vmaf" messages (structures, in order) and the element's
 * stats at end of stream. */
static GPtrArray *
run (const gchar * upload, GstStructure ** stats)
{
  g_autofree gchar *launch = g_strdup_printf ("videotestsrc num-buffers=%u "
      "pattern=smpte ! video/x-raw,format=I420,width=640,height=360 %s ! "
      "c.ref_sink videotestsrc num-buffers=%u pattern=ball ! "
      "video/x-raw,format=I420,width=640,height=360 %s ! c.dist_sink "
      "vmafhipcompare name=c backend=hip features=psnr ! fakesink",
      n_frames, upload, n_frames, upload);
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch (launch, &error);
  GstElement *compare;
  GstBus *bus;
  GPtrArray *values = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_structure_free);
  gboolean done = FALSE;

  g_assert_no_error (error);
  compare = gst_bin_get_by_name (GST_BIN (pipeline), "c");
  bus = gst_element_get_bus (pipeline);
  g_assert_cmpint (gst_element_set_state (pipeline, GST_STATE_PLAYING), !=,
      GST_STATE_CHANGE_FAILURE);
  while (!done) {
    GstMessage *msg = gst_bus_timed_pop (bus, 120 * GST_SECOND);
    g_assert_nonnull (msg);
    switch (GST_MESSAGE_TYPE (msg)) {
      case GST_MESSAGE_ELEMENT:
        if (gst_message_has_name (msg, "vmaf"))
          g_ptr_array_add (values,
              gst_structure_copy (gst_message_get_structure (msg)));
        break;
      case GST_MESSAGE_ERROR:{
        GError *err = NULL;
        gst_message_parse_error (msg, &err, NULL);
        g_error ("%s: %s", upload, err->message);
        break;
      }
      case GST_MESSAGE_EOS:
        done = TRUE;
        break;
      default:
        break;
    }
    gst_message_unref (msg);
  }
  g_object_get (compare, "stats", stats, NULL);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (compare);
  gst_object_unref (pipeline);
  return values;
}

static void
test_gsthip_on_device (void)
{
  GstStructure *host_stats = NULL, *hip_stats = NULL;
  g_autoptr (GPtrArray) host = run ("", &host_stats);
  g_autoptr (GPtrArray) hip = run ("! hipupload ! "
      "video/x-raw(memory:HIPMemory)", &hip_stats);
  guint on_device = 0, mapped = 0;

  g_assert_cmpuint (host->len, ==, n_frames);
  vh_gst_test_assert_same_values (host, "system memory", hip,
      "GStreamer's HIP memory", "psnr");
  g_assert_true (gst_structure_get_uint (hip_stats,
          "gst-hip-frames-on-device", &on_device));
  g_assert_true (gst_structure_get_uint (hip_stats, "gst-hip-frames-mapped",
          &mapped));
  g_test_message ("hipupload: %u frames read by device address, %u mapped",
      on_device, mapped);
  /* both inputs, every frame */
  g_assert_cmpuint (on_device, ==, 2 * n_frames);
  g_assert_cmpuint (mapped, ==, 0);
  g_assert_true (gst_structure_get_uint (host_stats,
          "gst-hip-frames-on-device", &on_device));
  g_assert_cmpuint (on_device, ==, 0);
  gst_structure_free (host_stats);
  gst_structure_free (hip_stats);
}

int
main (int argc, char **argv)
{
  GstElementFactory *factory;

  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("VH_TEST_FRAMES"))
    n_frames = MAX (1, atoi (g_getenv ("VH_TEST_FRAMES")));
  factory = gst_element_factory_find ("hipupload");
  if (!factory) {
    g_autofree gchar *version = gst_version_string ();
    g_print ("skipped: no hipupload (%s; 1.28's hip plugin with a GPU is "
        "needed)\n", version);
    return 77;
  }
  gst_object_unref (factory);
  g_test_add_func ("/gst-hip/gsthip-memory/on-device", test_gsthip_on_device);
  return g_test_run ();
}
