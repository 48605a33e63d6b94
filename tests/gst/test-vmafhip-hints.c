/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Mismatches named for what they are, with the fix that applies: two
 * frame rates (videorate, not latency), a rawvideoparse given no size (the
 * size, not videoscale or videorate); two pixel formats converted inside
 * the element when asked to. */

#include <string.h>

#include "vh-gst-check.h"

#define SMALL "video/x-raw,format=I420,width=64,height=48"

static GError *
first_error (const gchar * desc)
{
  GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
  GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);

  g_list_free_full (msgs, (GDestroyNotify) gst_message_unref);
  vh_assert_msg (err != NULL, "no error from %s", desc);
  return err;
}

static void
test_rate_mismatch (void)
{
  /* either pad may see its caps second: the faster one is named as such */
  static const gchar *rates[][2] = { {"25/1", "30/1"}, {"30/1", "25/1"} };

  for (guint i = 0; i < G_N_ELEMENTS (rates); i++) {
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=10 ! " SMALL
        ",framerate=%s ! c.ref_sink videotestsrc num-buffers=10 ! " SMALL
        ",framerate=%s ! c.dist_sink vmafhipcompare name=c ! fakesink",
        rates[i][0], rates[i][1]);
    GError *err = first_error (desc);
    const gchar *faster = i == 0 ? "dist_sink" : "ref_sink";
    /* a whole multiple (25 against 50) is taken: test-vmafhip-align.c */
    gchar *fix = g_strdup_printf ("videorate ! video/x-raw,framerate=25/1 "
        "! %s", faster);

    vh_assert_msg (g_error_matches (err, GST_CORE_ERROR,
        GST_CORE_ERROR_NEGOTIATION), "%s", err->message);
    vh_assert_msg (strstr (err->message, "25/1") && strstr (err->message,
        "30/1") && strstr (err->message, "frame rates differ") &&
        strstr (err->message, fix) && !strstr (err->message, "latency"),
        "%s", err->message);
    g_free (fix);
    g_error_free (err);
    g_free (desc);
  }
}


/* A rawvideoparse given no size cuts 320x240 frames; the other side is
 * 64x48 (a size mismatch) or 320x240 at another rate (a rate mismatch):
 * either way the missing size is what is said. */
static void
test_raw_without_size (void)
{
  gchar *raw = vh_gst_tmp_path ("noise.yuv");
  gchar *bytes = g_malloc0 (320 * 240 * 3 / 2 * 4);
  const gchar *others[] = {
    "filesrc location=%s ! rawvideoparse width=64 height=48 ! queue",
    "videotestsrc num-buffers=4 ! video/x-raw,width=320,height=240,"
        "framerate=30/1",
  };

  g_assert_true (g_file_set_contents (raw, bytes, 320 * 240 * 3 / 2 * 4, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (others); i++) {
    gchar *other = g_strdup_printf (others[i], raw);
    gchar *desc = g_strdup_printf ("filesrc location=%s ! rawvideoparse ! "
        "queue ! c.ref_sink %s ! c.dist_sink vmafhipcompare name=c ! "
        "fakesink", raw, other);
    GError *err = first_error (desc);

    vh_assert_msg (strstr (err->message, "ref_sink") && strstr (err->message,
        "rawvideoparse") && strstr (err->message, "no frame size") && strstr
        (err->message, "width=W height=H") && !strstr (err->message,
        "videoscale") && !strstr (err->message, "videorate !"), "case %u: %s",
        i, err->message);
    g_error_free (err);
    g_free (desc);
    g_free (other);
  }
  g_free (bytes);
  g_free (raw);
}


/* 8-bit distorted frames against a 10-bit reference: convert=reference-
 * format scores exactly what videoconvert in front of the pad gives; 4:4:4
 * against 4:2:0 too. Without it the formats are refused. */
static void
test_convert_reference_format (void)
{
  static const gchar *cases[][2] = {
    {"I420_10LE", "I420"}, {"I420", "I420_10LE"}, {"I420", "Y444"},
  };
  const gchar *fmt = "videotestsrc num-buffers=6 ! video/x-raw,format=%s,"
      "width=64,height=48 ! c.ref_sink videotestsrc num-buffers=6 "
      "pattern=ball ! video/x-raw,format=%s,width=64,height=48 %s ! "
      "c.dist_sink vmafhipcompare name=c features=psnr %s ! fakesink";

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    const gchar *ref = cases[i][0], *dist = cases[i][1];
    gchar *pre = g_strdup_printf ("! videoconvert ! video/x-raw,format=%s",
        ref);
    gchar *inside = g_strdup_printf (fmt, ref, dist, "",
        "convert=reference-format");
    gchar *outside = g_strdup_printf (fmt, ref, dist, pre, "");
    gchar *refused = g_strdup_printf (fmt, ref, dist, "", "");
    GList *a = vh_gst_run_launch (inside, 60 * GST_SECOND);
    GList *b = vh_gst_run_launch (outside, 60 * GST_SECOND);
    GPtrArray *fa = vh_gst_structures (a, "vmaf");
    GPtrArray *fb = vh_gst_structures (b, "vmaf");
    GPtrArray *sa = vh_gst_structures (a, "vmaf-summary");
    GPtrArray *sb = vh_gst_structures (b, "vmaf-summary");
    GError *err;

    vh_assert_msg (vh_gst_find_type (a, GST_MESSAGE_ERROR) < 0, "case %u", i);
    vh_assert_msg (vh_gst_find_type (b, GST_MESSAGE_ERROR) < 0, "case %u", i);
    g_assert_cmpint (fa->len, ==, 6);
    g_assert_cmpint (fb->len, ==, 6);
    for (guint f = 0; f < fa->len; f++) {
      g_assert_cmpfloat (vh_gst_get_double (fa->pdata[f], "vmaf"), ==,
          vh_gst_get_double (fb->pdata[f], "vmaf"));
      g_assert_cmpfloat (vh_gst_get_double (fa->pdata[f], "psnr_y"), ==,
          vh_gst_get_double (fb->pdata[f], "psnr_y"));
    }
    g_assert_true (sa->len == 1 && sb->len == 1);
    vh_assert_msg (gst_structure_is_equal (sa->pdata[0], sb->pdata[0]),
        "case %u: %" GST_PTR_FORMAT " vs %" GST_PTR_FORMAT, i, sa->pdata[0],
        sb->pdata[0]);
    g_ptr_array_unref (fa);
    g_ptr_array_unref (fb);
    g_ptr_array_unref (sa);
    g_ptr_array_unref (sb);
    g_list_free_full (a, (GDestroyNotify) gst_message_unref);
    g_list_free_full (b, (GDestroyNotify) gst_message_unref);

    err = first_error (refused);
    vh_assert_msg (strstr (err->message, "convert=reference-format"), "%s",
        err->message);
    g_error_free (err);
    g_free (refused);
    g_free (outside);
    g_free (inside);
    g_free (pre);
  }
}


int
main (int argc, char **argv)
{
  vh_gst_test_init (&argc, &argv);
  g_test_add_func ("/vmafhipcompare/rate-mismatch", test_rate_mismatch);
  g_test_add_func ("/vmafhipcompare/raw-without-size", test_raw_without_size);
  g_test_add_func ("/vmafhipcompare/convert-reference-format",
      test_convert_reference_format);
  return g_test_run ();
}
