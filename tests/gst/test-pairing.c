/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Pairing by running time: frames of the same moment are paired whatever
 * output slot the aggregator gave them; frames the other side skipped are
 * counted alone, none is lost or paired twice. */

#include <gst/gst.h>
#include <string.h>

#include "gstvmafhippairing.h"

#define FRAME (GST_SECOND / 60)

typedef struct
{
  GstVmafHipPairing *p;
  GString *log;                 /* "r3d3 r4- -d5 " ... frame numbers */
} Fixture;

static void
push (Fixture * fx, gboolean ref_side, gint n)
{
  GstVmafHipFrame f = { 0 };

  f.buffer = gst_buffer_new ();
  f.pts = n * FRAME + 7;
  f.duration = FRAME;
  f.running_time = n < 0 ? GST_CLOCK_TIME_NONE : f.pts + 2 * GST_MSECOND;
  f.stream_time = f.pts;
  gst_vmaf_hip_pairing_push (fx->p, ref_side, &f);
  gst_buffer_unref (f.buffer);
}

static gint
number (const GstVmafHipFrame * f)
{
  return (gint) (f->pts / FRAME);
}

/* Records every decision there is now. */
static void
decide (Fixture * fx, gboolean ref_over, gboolean dist_over)
{
  GstVmafHipPairingResult r;

  while (gst_vmaf_hip_pairing_next (fx->p, ref_over, dist_over, &r)) {
    if (r.has_ref)
      g_string_append_printf (fx->log, "r%d", number (&r.ref));
    else
      g_string_append (fx->log, "-");
    if (r.has_dist)
      g_string_append_printf (fx->log, "d%d ", number (&r.dist));
    else
      g_string_append (fx->log, "- ");
    gst_vmaf_hip_pairing_result_clear (&r);
  }
}

static void
setup (Fixture * fx, gconstpointer data)
{
  fx->p = gst_vmaf_hip_pairing_new (4);
  fx->log = g_string_new (NULL);
}

static void
teardown (Fixture * fx, gconstpointer data)
{
  gst_vmaf_hip_pairing_free (fx->p);
  g_string_free (fx->log, TRUE);
}

static void
test_aligned (Fixture * fx, gconstpointer data)
{
  for (gint n = 0; n < 3; n++) {
    push (fx, TRUE, n);
    push (fx, FALSE, n);
    decide (fx, FALSE, FALSE);
  }
  g_assert_cmpstr (fx->log->str, ==, "r0d0 r1d1 r2d2 ");
}

/* The distorted branch missed one deadline and stays a slot behind: each
 * slot shows reference n beside distorted n - 1. */
static void
test_skew_of_one_slot (Fixture * fx, gconstpointer data)
{
  push (fx, TRUE, 0);
  push (fx, FALSE, 0);
  decide (fx, FALSE, FALSE);
  push (fx, TRUE, 1);
  decide (fx, FALSE, FALSE);
  g_assert_cmpuint (gst_vmaf_hip_pairing_n_waiting (fx->p, TRUE), ==, 1);
  for (gint n = 2; n < 6; n++) {
    push (fx, TRUE, n);
    push (fx, FALSE, n - 1);
    decide (fx, FALSE, FALSE);
  }
  push (fx, FALSE, 5);
  decide (fx, FALSE, TRUE);
  g_assert_cmpstr (fx->log->str, ==, "r0d0 r1d1 r2d2 r3d3 r4d4 r5d5 ");
  g_assert_cmpuint (gst_vmaf_hip_pairing_n_waiting (fx->p, TRUE), ==, 0);
  g_assert_cmpuint (gst_vmaf_hip_pairing_n_waiting (fx->p, FALSE), ==, 0);
}

/* The distorted side lost frame 2 upstream: reference 2 is alone. */
static void
test_gap (Fixture * fx, gconstpointer data)
{
  for (gint n = 0; n < 5; n++) {
    push (fx, TRUE, n);
    if (n != 2)
      push (fx, FALSE, n);
    decide (fx, FALSE, FALSE);
  }
  g_assert_cmpstr (fx->log->str, ==, "r0d0 r1d1 r2- r3d3 r4d4 ");
}

/* A side that brings nothing: the other side's frames wait a few frames,
 * then go alone, oldest first. */
static void
test_other_side_silent (Fixture * fx, gconstpointer data)
{
  for (gint n = 0; n < 6; n++) {
    push (fx, FALSE, n);
    decide (fx, FALSE, FALSE);
  }
  g_assert_cmpstr (fx->log->str, ==, "-d0 -d1 ");
  g_assert_cmpuint (gst_vmaf_hip_pairing_n_waiting (fx->p, FALSE), ==, 4);
  /* The reference ends: nothing waits for it any more. */
  decide (fx, TRUE, FALSE);
  g_assert_cmpstr (fx->log->str, ==, "-d0 -d1 -d2 -d3 -d4 -d5 ");
}

/* Without running times there is nothing to compare: stream order. */
static void
test_no_timestamps (Fixture * fx, gconstpointer data)
{
  push (fx, TRUE, -1);
  push (fx, FALSE, -1);
  decide (fx, FALSE, FALSE);
  g_assert_cmpuint (fx->log->len, >, 0);
  g_assert_true (g_str_has_prefix (fx->log->str, "r"));
  g_assert_nonnull (strstr (fx->log->str, "d"));
}

/* A flush forgets what waits, and the buffers go with it. */
static void
test_clear (Fixture * fx, gconstpointer data)
{
  GstBuffer *buf = gst_buffer_new ();
  GstVmafHipFrame f = { 0 };

  f.buffer = buf;
  f.running_time = f.pts = 0;
  f.duration = FRAME;
  gst_vmaf_hip_pairing_push (fx->p, TRUE, &f);
  g_assert_cmpint (GST_MINI_OBJECT_REFCOUNT_VALUE (buf), ==, 2);
  gst_vmaf_hip_pairing_clear (fx->p);
  g_assert_cmpint (GST_MINI_OBJECT_REFCOUNT_VALUE (buf), ==, 1);
  g_assert_cmpuint (gst_vmaf_hip_pairing_n_waiting (fx->p, TRUE), ==, 0);
  gst_buffer_unref (buf);
}

int
main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
#define ADD(name) g_test_add ("/pairing/" #name, Fixture, NULL, setup, \
      test_##name, teardown)
  ADD (aligned);
  ADD (skew_of_one_slot);
  ADD (gap);
  ADD (other_side_silent);
  ADD (no_timestamps);
  ADD (clear);
  return g_test_run ();
}
