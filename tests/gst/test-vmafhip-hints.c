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
 * size, not videoscale or videorate). */

#include <string.h>

#include "vh-gst-check.h"

#define SMALL "video/x-raw,format=I420,width=64,height=48"

static GError *
first_error (const gchar * desc)
{
  GList *msgs = vh_gst_run_launch (desc, 60 * GST_SECOND);
  GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);

  g_list_free_full (msgs, (GDestroyNotify) gst_message_unref);
  fail_unless (err != NULL, "no error from %s", desc);
  return err;
}

GST_START_TEST (test_rate_mismatch)
{
  /* either pad may see its caps second: the faster one is named as such */
  static const gchar *rates[][2] = { {"25/1", "50/1"}, {"50/1", "25/1"} };

  for (guint i = 0; i < G_N_ELEMENTS (rates); i++) {
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=10 ! " SMALL
        ",framerate=%s ! c.ref_sink videotestsrc num-buffers=10 ! " SMALL
        ",framerate=%s ! c.dist_sink vmafhipcompare name=c ! fakesink",
        rates[i][0], rates[i][1]);
    GError *err = first_error (desc);
    const gchar *faster = i == 0 ? "dist_sink" : "ref_sink";
    gchar *fix = g_strdup_printf ("videorate ! video/x-raw,framerate=25/1 "
        "! %s", faster);

    fail_unless (g_error_matches (err, GST_CORE_ERROR,
            GST_CORE_ERROR_NEGOTIATION), "%s", err->message);
    fail_unless (strstr (err->message, "25/1") &&
        strstr (err->message, "50/1") && strstr (err->message, fix) &&
        !strstr (err->message, "latency"), "%s", err->message);
    g_free (fix);
    g_error_free (err);
    g_free (desc);
  }
}

GST_END_TEST;

/* A rawvideoparse given no size cuts 320x240 frames; the other side is
 * 64x48 (a size mismatch) or 320x240 at another rate (a rate mismatch):
 * either way the missing size is what is said. */
GST_START_TEST (test_raw_without_size)
{
  gchar *raw = vh_gst_tmp_path ("noise.yuv");
  gchar *bytes = g_malloc0 (320 * 240 * 3 / 2 * 4);
  const gchar *others[] = {
    "filesrc location=%s ! rawvideoparse width=64 height=48 ! queue",
    "videotestsrc num-buffers=4 ! video/x-raw,width=320,height=240,"
        "framerate=30/1",
  };

  fail_unless (g_file_set_contents (raw, bytes, 320 * 240 * 3 / 2 * 4,
          NULL));
  for (guint i = 0; i < G_N_ELEMENTS (others); i++) {
    gchar *other = g_strdup_printf (others[i], raw);
    gchar *desc = g_strdup_printf ("filesrc location=%s ! rawvideoparse ! "
        "queue ! c.ref_sink %s ! c.dist_sink vmafhipcompare name=c ! "
        "fakesink", raw, other);
    GError *err = first_error (desc);

    fail_unless (strstr (err->message, "ref_sink") &&
        strstr (err->message, "rawvideoparse") &&
        strstr (err->message, "no frame size") &&
        strstr (err->message, "width=W height=H") &&
        !strstr (err->message, "videoscale") &&
        !strstr (err->message, "videorate !"), "case %u: %s", i,
        err->message);
    g_error_free (err);
    g_free (desc);
    g_free (other);
  }
  g_free (bytes);
  g_free (raw);
}

GST_END_TEST;

static Suite *
vmafhip_hints_suite (void)
{
  Suite *s = suite_create ("vmafhip-hints");
  TCase *tc = tcase_create ("hints");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_rate_mismatch);
  tcase_add_test (tc, test_raw_without_size);
  return s;
}

GST_CHECK_MAIN (vmafhip_hints);
