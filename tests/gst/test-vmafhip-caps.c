/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Negotiation in the vmafhipcompare element: sinks that disagree, refused
 * caps, mixed layouts and caps that change mid-stream. */

#include <string.h>

#include "vh-gst-check.h"
#include "vh-gst-pads.h"

#define W 176
#define H 144

/* Sinks that disagree are refused with both sides named (sizes with
 * scale=none); sinks that only differ in layout are fine. */
static void
test_caps_mismatch (void)
{
  static const gchar *cases[][4] = {
    {"video/x-raw,format=I420,width=320,height=240",
        "video/x-raw,format=I420,width=176,height=144", "320x240", "176x144"},
    {"video/x-raw,format=I420,width=176,height=144",
          "video/x-raw,format=I420_10LE,width=176,height=144", "8-bit",
        "10-bit"},
    {"video/x-raw,format=I420,width=176,height=144",
        "video/x-raw,format=Y444,width=176,height=144", "4:2:0", "4:4:4"},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *desc = vh_gst_two_test_sources (cases[i][0], cases[i][1], 3, 3,
        i == 0 ? "scale=none" : NULL);
    GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
    GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);

    vh_assert_msg (err != NULL, "case %u: no error", i);
    vh_assert_msg (g_error_matches (err, GST_CORE_ERROR,
        GST_CORE_ERROR_NEGOTIATION), "case %u: %s", i, err->message);
    vh_assert_msg (strstr (err->message, "ref_sink") && strstr (err->message,
        "dist_sink") && strstr (err->message, cases[i][2]) && strstr
        (err->message, cases[i][3]), "case %u: %s", i, err->message);
    g_error_free (err);
    vh_gst_free_messages (msgs);
    g_free (desc);
  }
}


/* Caps the element cannot pair or score: refused at once with the pad
 * named, never a spin (variable rate) or a "differ" for identical caps. */
static void
test_caps_refused (void)
{
  static const gchar *cases[][4] = {
    {"video/x-raw,format=I420,width=176,height=144,framerate=25/1",
          "video/x-raw,format=I420,width=176,height=144,framerate=0/1",
        "dist_sink", "variable frame rate"},
    {"video/x-raw,format=I420,width=176,height=144,framerate=25/1,"
          "interlace-mode=progressive",
          "video/x-raw,format=I420,width=176,height=144,framerate=25/1,"
          "interlace-mode=interleaved", "interlace-mode", "interleaved"},
    {"video/x-raw,format=GRAY8,width=40000,height=8,framerate=25/1",
          "video/x-raw,format=GRAY8,width=40000,height=8,framerate=25/1",
        "40000x8", "cannot be scored"},
  };

  /* One frame a side: the refusal comes with the caps, before any frame
   * (the base class queues frames behind the refused caps event). */
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *desc = vh_gst_two_test_sources (cases[i][0], cases[i][1], 1, 1,
        NULL);
    GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
    GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);

    vh_assert_msg (err != NULL, "case %u: no error", i);
    vh_assert_msg (g_error_matches (err, GST_CORE_ERROR,
        GST_CORE_ERROR_NEGOTIATION), "case %u: %s", i, err->message);
    vh_assert_msg (strstr (err->message, cases[i][2]) && strstr (err->message,
        cases[i][3]) && !strstr (err->message, "differ"), "case %u: %s", i,
        err->message);
    g_error_free (err);
    vh_gst_free_messages (msgs);
    g_free (desc);
  }
}


static void
test_mixed_layouts (void)
{
  gchar *desc = vh_gst_two_test_sources ("video/x-raw,format=I420,width=176,"
      "height=144", "video/x-raw,format=NV21,width=176,height=144", 4, 4,
      NULL);
  GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
  GPtrArray *frames = vh_gst_structures (msgs, "vmaf");

  g_assert_true (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  g_assert_cmpint (frames->len, ==, 4);
  g_ptr_array_unref (frames);
  vh_gst_free_messages (msgs);
  g_free (desc);
}


/* A caps change starts temporal features over and scoring goes on, also
 * across a change of picture size. */
static void
test_caps_change (void)
{
  static const gchar *props[] = { "features", "psnr", NULL };
  VhGstPads t;
  GList *msgs;
  GPtrArray *frames;
  guint pts = 0;

  vh_gst_pads_setup (&t, props);
  vh_gst_pads_caps (&t, GST_VIDEO_FORMAT_I420, W, H);
  for (guint f = 0; f < 4; f++)
    vh_gst_pads_push_synth (&t, GST_VIDEO_FORMAT_I420, W, H, f, pts++);
  /* Same pictures, another layout. */
  vh_gst_pads_caps (&t, GST_VIDEO_FORMAT_NV12, W, H);
  for (guint f = 0; f < 4; f++)
    vh_gst_pads_push_synth (&t, GST_VIDEO_FORMAT_NV12, W, H, f, pts++);
  /* Another size. */
  vh_gst_pads_caps (&t, GST_VIDEO_FORMAT_I420, 160, 120);
  for (guint f = 0; f < 4; f++)
    vh_gst_pads_push_synth (&t, GST_VIDEO_FORMAT_I420, 160, 120, f, pts++);
  msgs = vh_gst_pads_finish (&t);

  g_assert_true (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  frames = vh_gst_structures (msgs, "vmaf");
  g_assert_cmpint (frames->len, ==, 12);
  for (guint i = 0; i < 12; i++) {
    const GstStructure *s = g_ptr_array_index (frames, i);

    g_assert_cmpuint (vh_gst_get_uint64 (s, "index"), ==, i);
    g_assert_cmpuint (vh_gst_get_uint64 (s, "timestamp"), ==,
        i * 40 * GST_MSECOND);
    if (i % 4 == 0) {
      g_assert_cmpfloat (vh_gst_get_double (s, "integer_motion2"), ==, 0);
    } else {
      g_assert_true (vh_gst_get_double (s, "integer_motion2") > 0);
    }
  }
  /* The restarted sequence scores exactly like the first one. */
  for (guint i = 0; i < 4; i++) {
    const GstStructure *a = g_ptr_array_index (frames, i);
    const GstStructure *b = g_ptr_array_index (frames, i + 4);
    g_assert_cmpfloat (vh_gst_get_double (a, "vmaf"), ==,
        vh_gst_get_double (b, "vmaf"));
    g_assert_cmpfloat (vh_gst_get_double (a, "psnr_cb"), ==,
        vh_gst_get_double (b, "psnr_cb"));
  }
  g_ptr_array_unref (frames);
  vh_gst_free_messages (msgs);
  vh_gst_pads_teardown (&t);
}

int
main (int argc, char **argv)
{
  vh_gst_test_init (&argc, &argv);
  g_test_add_func ("/vmafhipcompare/caps-mismatch", test_caps_mismatch);
  g_test_add_func ("/vmafhipcompare/caps-refused", test_caps_refused);
  g_test_add_func ("/vmafhipcompare/mixed-layouts", test_mixed_layouts);
  g_test_add_func ("/vmafhipcompare/caps-change", test_caps_change);
  return g_test_run ();
}
