/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Pipelines that cannot score end in an error instead of waiting for
 * ever: a sink pad left unlinked, a distorted branch that fails before its
 * caps or has no video. Each case runs 100 times (tiny frames), since the
 * hangs they guard against came in a few runs out of ten. */

#include <string.h>

#include "vh-gst-check.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

/* Under valgrind (meson test --setup gstvalgrind) a few runs check for
 * leaks; the hundred runs are for the hangs. */
#define RUNS (RUNNING_ON_VALGRIND ? 3 : 100)
#define TINY "video/x-raw,format=I420,width=32,height=24,framerate=25/1"

/* Runs @desc until its first error, which must come within 10 s (the
 * helper fails the test otherwise) and name @pad and @what when given. */
static void
assert_fails (const gchar * desc, const gchar * pad, const gchar * what,
    guint run)
{
  GstClockTime t0 = gst_util_get_timestamp ();
  GList *msgs = vh_gst_run_launch (desc, 10 * GST_SECOND);
  GError *err = vh_gst_first_error (msgs, GST_MESSAGE_ERROR);

  vh_assert_msg (err != NULL, "run %u: no error from %s", run, desc);
  g_assert_true (gst_util_get_timestamp () - t0 < 10 * GST_SECOND);
  if (pad)
    vh_assert_msg (strstr (err->message, pad) && strstr (err->message, what),
        "run %u: %s", run, err->message);
  g_error_free (err);
  g_list_free_full (msgs, (GDestroyNotify) gst_message_unref);
}

/* Only ref_sink linked: the input-timeout after its first caps. */
static void
test_unlinked_dist_times_out (void)
{
  const gchar *desc = "videotestsrc num-buffers=100 ! " TINY " ! c.ref_sink "
      "vmafhipcompare name=c input-timeout=50000000 ! fakesink";

  for (guint i = 0; i < RUNS; i++)
    assert_fails (desc, "dist_sink", "never linked", i);
}


static void
test_unlinked_ref_times_out (void)
{
  const gchar *desc = "videotestsrc num-buffers=100 ! " TINY " ! c.dist_sink "
      "vmafhipcompare name=c input-timeout=50000000 ! fakesink";

  for (guint i = 0; i < RUNS; i++)
    assert_fails (desc, "ref_sink", "never linked", i);
}


/* The reference ends (one frame fits the pad's queue) while dist_sink is
 * unlinked: said at once, even without a timeout. */
static void
test_unlinked_at_other_eos (void)
{
  const gchar *desc = "videotestsrc num-buffers=1 ! " TINY " ! c.ref_sink "
      "vmafhipcompare name=c input-timeout=0 ! fakesink";

  for (guint i = 0; i < RUNS; i++)
    assert_fails (desc, "dist_sink", "ref_sink ended", i);
}


/* Distorted branches that never give caps: the upstream element's error,
 * or the element's own, never a hang. */
static void
test_branch_fails_before_caps (void)
{
  gchar *text = vh_gst_tmp_path ("not-video.txt");
  gchar *wav = vh_gst_tmp_path ("audio.wav");
  gchar *make_wav = g_strdup_printf ("audiotestsrc num-buffers=10 ! wavenc "
      "! filesink location=%s", wav);
  GList *msgs = vh_gst_run_launch (make_wav, 10 * GST_SECOND);
  const gchar *branches[] = {
    "filesrc location=%s ! decodebin",  /* text: not decodable */
    "filesrc location=%s ! decodebin ! queue",  /* audio only */
    "filesrc location=%s.missing ! decodebin",
  };

  g_assert_true (vh_gst_find_type (msgs, GST_MESSAGE_ERROR) < 0);
  g_list_free_full (msgs, (GDestroyNotify) gst_message_unref);
  g_assert_true (g_file_set_contents (text, "neither video nor audio\n", -1,
      NULL));
  for (guint b = 0; b < G_N_ELEMENTS (branches); b++) {
    gchar *branch = g_strdup_printf (branches[b], b == 1 ? wav : text);
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=100 ! " TINY
        " ! queue ! c.ref_sink %s ! c.dist_sink vmafhipcompare name=c "
        "input-timeout=50000000 ! fakesink", branch);

    for (guint i = 0; i < RUNS; i++)
      assert_fails (desc, NULL, NULL, i);
    g_free (desc);
    g_free (branch);
  }
  g_free (make_wav);
  g_free (wav);
  g_free (text);
}


/* A linked branch that drops everything, caps included: the element's
 * own error names the pad that got no caps. */
static void
test_no_caps_named (void)
{
  const gchar *desc = "videotestsrc num-buffers=100 ! " TINY " ! c.ref_sink "
      "videotestsrc num-buffers=100 ! " TINY " ! valve drop=true ! "
      "c.dist_sink vmafhipcompare name=c input-timeout=50000000 ! fakesink";

  for (guint i = 0; i < RUNS; i++)
    assert_fails (desc, "dist_sink", "never got caps", i);
}


static void
test_input_timeout_default (void)
{
  GstElement *e = gst_element_factory_make ("vmafhipcompare", NULL);
  guint64 timeout;

  g_object_get (e, "input-timeout", &timeout, NULL);
  g_assert_true (timeout > 0 && timeout <= 10 * GST_SECOND);
  gst_object_unref (e);
}


int
main (int argc, char **argv)
{
  vh_gst_test_init (&argc, &argv);
  g_test_add_func ("/vmafhipcompare/input-timeout-default",
      test_input_timeout_default);
  g_test_add_func ("/vmafhipcompare/unlinked-dist-times-out",
      test_unlinked_dist_times_out);
  g_test_add_func ("/vmafhipcompare/unlinked-ref-times-out",
      test_unlinked_ref_times_out);
  g_test_add_func ("/vmafhipcompare/unlinked-at-other-eos",
      test_unlinked_at_other_eos);
  g_test_add_func ("/vmafhipcompare/no-caps-named", test_no_caps_named);
  g_test_add_func ("/vmafhipcompare/branch-fails-before-caps",
      test_branch_fails_before_caps);
  return g_test_run ();
}
