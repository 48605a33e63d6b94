/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* vmafhipcompare's "vmaf-event" messages: black and frozen stretches in a
 * distorted file made here give exactly those events, with their times;
 * moving content gives none; a damaged stretch gives one low-score event
 * with its duration and minimum. Scoring behind real time in a live
 * pipeline is measured and warned about once. */

#include <string.h>

#include "vh-gst-check.h"
#include "vh-gst-pads.h"

#define W 96
#define H 64
#define FPS 10
#define FRAME (GST_SECOND / FPS)

typedef enum
{
  MOVING,
  BLACK,
  FROZEN,                       /* the first frame of the stretch, held */
} Content;

typedef struct
{
  Content content;
  guint frames;
} Stretch;

/* Moving content: a diagonal ramp scrolling by 5 a frame, and a bright
 * square crossing the picture. Never black, never still. */
static void
draw_moving (guint8 * y, guint f)
{
  for (guint r = 0; r < H; r++)
    for (guint c = 0; c < W; c++) {
      guint v = 16 + ((c * 3 + r * 2 + f * 5) & 127);
      if (r >= 20 && r < 36 && c >= (f * 3) % W && c < (f * 3) % W + 16)
        v = 235;
      y[r * W + c] = (guint8) v;
    }
}

/* Writes the clip @stretches describe (the reference: every stretch
 * moving); returns its path. */
static gchar *
write_clip (const gchar * name, const Stretch * stretches, guint n,
    gboolean reference)
{
  gchar *path = vh_gst_tmp_path (name);
  gsize ysize = W * H, frame_size = ysize * 3 / 2;
  guint8 *frame = g_malloc (frame_size);
  GString *data = g_string_new (NULL);
  guint f = 0;

  for (guint s = 0; s < n; s++) {
    for (guint i = 0; i < stretches[s].frames; i++, f++) {
      Content c = reference ? MOVING : stretches[s].content;

      memset (frame + ysize, 128, frame_size - ysize);
      if (c == BLACK)
        memset (frame, 16, ysize);
      else
        draw_moving (frame, c == FROZEN ? f - i : f);
      g_string_append_len (data, (const gchar *) frame, frame_size);
    }
  }
  g_assert_true (g_file_set_contents (path, data->str, data->len, NULL));
  g_string_free (data, TRUE);
  g_free (frame);
  return path;
}

static gchar *
clip_source (const gchar * path)
{
  return g_strdup_printf ("filesrc location=\"%s\" ! rawvideoparse "
      "width=%u height=%u format=i420 framerate=%u/1", path, W, H, FPS);
}

static GList *
score (const gchar * ref, const gchar * dist, const gchar * props)
{
  gchar *rs = clip_source (ref), *ds = clip_source (dist);
  gchar *desc = g_strdup_printf ("%s ! c.ref_sink %s ! c.dist_sink "
      "vmafhipcompare name=c threads=2 %s ! fakesink", rs, ds, props);
  GList *msgs = vh_gst_run_launch (desc, 120 * GST_SECOND);

  g_assert_true (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  g_free (rs);
  g_free (ds);
  g_free (desc);
  return msgs;
}

/* The "vmaf-event" structures of @type and @state, in order. */
static GPtrArray *
events (GList * msgs, const gchar * type, const gchar * state)
{
  GPtrArray *all = vh_gst_structures (msgs, "vmaf-event");
  GPtrArray *some = g_ptr_array_new ();

  for (guint i = 0; i < all->len; i++) {
    const GstStructure *s = g_ptr_array_index (all, i);
    if (!g_strcmp0 (gst_structure_get_string (s, "type"), type) &&
        !g_strcmp0 (gst_structure_get_string (s, "state"), state))
      g_ptr_array_add (some, (gpointer) s);
  }
  g_ptr_array_unref (all);
  return some;
}

/* An event that started at @start s and lasted @duration s, of @frames
 * frames: its "end" message, after its "start". */
static void
check_event_of (GList * msgs, const gchar * type, guint i, gdouble start,
    gdouble duration, guint frames, gboolean reference)
{
  GPtrArray *starts = events (msgs, type, "start");
  GPtrArray *ends = events (msgs, type, "end");
  const GstStructure *s = g_ptr_array_index (starts, i);
  const GstStructure *e = g_ptr_array_index (ends, i);
  GstClockTime want_start = (GstClockTime) (start * GST_SECOND);
  GstClockTime want_duration = (GstClockTime) (duration * GST_SECOND);
  guint n = 0;

  g_assert_cmpstr (gst_structure_get_string (s, "input"), ==,
      reference ? "reference" : "distorted");
  g_assert_cmpstr (gst_structure_get_string (s, "pad"), ==,
      reference ? "ref_sink" : "dist_sink");
  g_assert_cmpstr (gst_structure_get_string (e, "input"), ==,
      reference ? "reference" : "distorted");
  g_assert_cmpstr (gst_structure_get_string (e, "pad"), ==,
      reference ? "ref_sink" : "dist_sink");
  g_assert_false (gst_structure_has_field (s, "end"));
  /* exact at this frame rate; the contract is one frame */
  g_assert_cmpuint (vh_gst_get_uint64 (s, "start"), ==, want_start);
  g_assert_cmpuint (vh_gst_get_uint64 (e, "start"), ==, want_start);
  g_assert_cmpuint (vh_gst_get_uint64 (e, "duration"), ==, want_duration);
  g_assert_cmpuint (vh_gst_get_uint64 (e, "end"), ==,
      want_start + want_duration);
  g_assert_true (gst_structure_get_uint (e, "frames", &n));
  g_assert_cmpuint (n, ==, frames);
  g_ptr_array_unref (starts);
  g_ptr_array_unref (ends);
}

static void
check_event (GList * msgs, const gchar * type, guint i, gdouble start,
    gdouble duration, guint frames)
{
  check_event_of (msgs, type, i, start, duration, frames, FALSE);
}

/* 2 s moving, 2 s black, 2 s moving, 3 s frozen, 2 s moving, 2.5 s black
 * to the end: two black events (the second ended by the end of the
 * stream) and one freeze, all on the distorted input; the reference,
 * moving all along, has none. */
static void
test_black_and_freeze (void)
{
  static const Stretch clip[] = {
    {MOVING, 20}, {BLACK, 20}, {MOVING, 20}, {FROZEN, 30}, {MOVING, 20},
    {BLACK, 25},
  };
  gchar *ref = write_clip ("ref.yuv", clip, G_N_ELEMENTS (clip), TRUE);
  gchar *dist = write_clip ("dist.yuv", clip, G_N_ELEMENTS (clip), FALSE);
  GList *msgs = score (ref, dist, "");
  GPtrArray *all = vh_gst_structures (msgs, "vmaf-event");
  GPtrArray *black = events (msgs, "black", "end");
  GPtrArray *freeze = events (msgs, "freeze", "end");

  for (guint i = 0; i < all->len; i++)
    GST_INFO ("%" GST_PTR_FORMAT, g_ptr_array_index (all, i));
  g_assert_cmpuint (black->len, ==, 2);
  g_assert_cmpuint (freeze->len, ==, 1);
  /* start and end of each, nothing else (no low-score: off by default) */
  g_assert_cmpuint (all->len, ==, 6);
  check_event (msgs, "black", 0, 2.0, 2.0, 20);
  check_event (msgs, "black", 1, 11.0, 2.5, 25);
  check_event (msgs, "freeze", 0, 6.0, 3.0, 30);
  for (guint i = 0; i < all->len; i++)
    g_assert_cmpstr (gst_structure_get_string (g_ptr_array_index (all, i),
            "input"), ==, "distorted");
  g_ptr_array_unref (black);
  g_ptr_array_unref (freeze);
  g_ptr_array_unref (all);
  vh_gst_free_messages (msgs);

  /* The same clip as the reference: the same events, of the reference. */
  msgs = score (dist, ref, "");
  g_assert_cmpuint (vh_gst_count (msgs, "vmaf-event"), ==, 6);
  check_event_of (msgs, "black", 0, 2.0, 2.0, 20, TRUE);
  check_event_of (msgs, "black", 1, 11.0, 2.5, 25, TRUE);
  check_event_of (msgs, "freeze", 0, 6.0, 3.0, 30, TRUE);
  vh_gst_free_messages (msgs);
  g_free (ref);
  g_free (dist);
}

/* A still or black stretch shorter than its minimum duration is no
 * event; moving content none at all. */
static void
test_none_on_normal_content (void)
{
  static const Stretch clip[] = {
    {MOVING, 30}, {BLACK, 15}, {MOVING, 10}, {FROZEN, 15}, {MOVING, 10},
  };
  gchar *ref = write_clip ("ref2.yuv", clip, G_N_ELEMENTS (clip), TRUE);
  gchar *dist = write_clip ("dist2.yuv", clip, G_N_ELEMENTS (clip), FALSE);
  GList *msgs = score (ref, ref, "");

  g_assert_cmpuint (vh_gst_count (msgs, "vmaf-event"), ==, 0);
  vh_gst_free_messages (msgs);
  /* 1.5 s stretches under the 2 s defaults */
  msgs = score (ref, dist, "");
  g_assert_cmpuint (vh_gst_count (msgs, "vmaf-event"), ==, 0);
  vh_gst_free_messages (msgs);
  /* and off: nothing even with short minimum durations */
  msgs = score (ref, dist, "black-threshold=0 freeze-threshold=0 "
      "black-min-duration=0 freeze-min-duration=0");
  g_assert_cmpuint (vh_gst_count (msgs, "vmaf-event"), ==, 0);
  vh_gst_free_messages (msgs);
  /* with 1 s minimums, those stretches are events */
  msgs = score (ref, dist, "black-min-duration=1000000000 "
      "freeze-min-duration=1000000000");
  check_event (msgs, "black", 0, 3.0, 1.5, 15);
  check_event (msgs, "freeze", 0, 5.5, 1.5, 15);
  vh_gst_free_messages (msgs);
  g_free (ref);
  g_free (dist);
}

/* A 1.5 s black stretch in a distorted copy of the reference: the VMAF
 * stays under the threshold for exactly those frames, one low-score
 * event with its duration and the lowest score. */
static void
test_low_score (void)
{
  static const Stretch clip[] = {
    {MOVING, 30}, {BLACK, 15}, {MOVING, 30},
  };
  gchar *ref = write_clip ("ref3.yuv", clip, G_N_ELEMENTS (clip), TRUE);
  gchar *dist = write_clip ("dist3.yuv", clip, G_N_ELEMENTS (clip), FALSE);
  GList *msgs = score (ref, dist, "low-score-threshold=50 "
      "low-score-min-frames=10 black-threshold=0");
  GPtrArray *frames = vh_gst_structures (msgs, "vmaf");
  GPtrArray *starts = events (msgs, "low-score", "start");
  GPtrArray *ends = events (msgs, "low-score", "end");
  const GstStructure *e;
  gdouble min = G_MAXDOUBLE, threshold = 0, got_min = 0;

  g_assert_cmpuint (frames->len, ==, 75);
  for (guint f = 0; f < frames->len; f++) {
    gdouble v = vh_gst_get_double (g_ptr_array_index (frames, f), "vmaf");
    gboolean damaged = f >= 30 && f < 45;

    vh_assert_msg ((v < 50) == damaged, "frame %u: VMAF %g", f, v);
    if (damaged)
      min = MIN (min, v);
  }
  g_assert_cmpuint (starts->len, ==, 1);
  g_assert_cmpuint (ends->len, ==, 1);
  check_event (msgs, "low-score", 0, 3.0, 1.5, 15);
  e = g_ptr_array_index (ends, 0);
  g_assert_cmpstr (gst_structure_get_string (e, "metric"), ==, "vmaf");
  g_assert_true (gst_structure_get_double (e, "threshold", &threshold));
  g_assert_cmpfloat (threshold, ==, 50.0);
  g_assert_true (gst_structure_get_double (e, "min", &got_min));
  g_assert_cmpfloat (got_min, ==, min);
  g_ptr_array_unref (starts);
  g_ptr_array_unref (ends);
  g_ptr_array_unref (frames);
  vh_gst_free_messages (msgs);

  /* fewer low frames than low-score-min-frames: no event */
  msgs = score (ref, dist, "low-score-threshold=50 "
      "low-score-min-frames=16 black-threshold=0");
  g_assert_cmpuint (vh_gst_count (msgs, "vmaf-event"), ==, 0);
  vh_gst_free_messages (msgs);
  g_free (ref);
  g_free (dist);
}

/* A live source held up 250 ms a frame at 10 fps: scoring falls 150 ms
 * further behind every frame. Each frame says its lag, the summary the
 * largest, and one warning comes when it passes lag-warning. */
static void
test_lag (void)
{
  GList *msgs;
  GPtrArray *frames, *sums;
  guint64 max = 0, last = 0;

  if (vh_gst_skip_live ())
    return;
  msgs = vh_gst_run_launch ("videotestsrc is-live=true num-buffers=20 "
      "pattern=ball ! video/x-raw,format=I420,width=96,height=64,"
      "framerate=10/1 ! identity sleep-time=250000 ! tee name=t "
      "t. ! queue ! c.ref_sink t. ! queue ! videobalance brightness=0.05 ! "
      "c.dist_sink vmafhipcompare name=c threads=2 "
      "lag-warning=1000000000 ! fakesink sync=true", 60 * GST_SECOND);
  g_assert_true (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  frames = vh_gst_structures (msgs, "vmaf");
  g_assert_cmpuint (frames->len, ==, 20);
  for (guint f = 0; f < frames->len; f++) {
    guint64 lag = vh_gst_get_uint64 (g_ptr_array_index (frames, f), "lag");
    max = MAX (max, lag);
    last = lag;
  }
  /* 19 frames of 150 ms, give or take the machine's load */
  vh_assert_msg (last > 2 * GST_SECOND, "last frame's lag %" GST_TIME_FORMAT,
      GST_TIME_ARGS (last));
  sums = vh_gst_structures (msgs, "vmaf-summary");
  g_assert_cmpuint (vh_gst_get_uint64 (g_ptr_array_index (sums, 0),
          "max-lag"), ==, max);
  g_assert_cmpuint (vh_gst_count_warnings (msgs, "behind real time"), ==, 1);
  g_ptr_array_unref (sums);
  g_ptr_array_unref (frames);
  vh_gst_free_messages (msgs);

  /* the same, 10 s allowed: no warning */
  msgs = vh_gst_run_launch ("videotestsrc is-live=true num-buffers=10 "
      "pattern=ball ! video/x-raw,format=I420,width=96,height=64,"
      "framerate=10/1 ! identity sleep-time=250000 ! tee name=t "
      "t. ! queue ! c.ref_sink t. ! queue ! c.dist_sink vmafhipcompare "
      "name=c threads=2 lag-warning=10000000000 ! fakesink sync=true",
      60 * GST_SECOND);
  g_assert_cmpuint (vh_gst_count_warnings (msgs, "behind real time"), ==, 0);
  vh_gst_free_messages (msgs);
}

/* Aligned by content, a frame may wait up to align-window for its
 * decision (the whole window until the first lock): that wait is the
 * alignment's, not scoring falling behind, so it is not lag. Before,
 * every live run aligned by content warned at its start. */
static void
test_lag_align_window (void)
{
  GPtrArray *frames;
  GList *msgs;

  if (vh_gst_skip_live ())
    return;
  msgs = vh_gst_run_launch ("videotestsrc is-live=true num-buffers=75 "
      "pattern=smpte horizontal-speed=2 ! video/x-raw,format=I420,"
      "width=192,height=108,framerate=25/1 ! tee name=t t. ! queue ! "
      "c.ref_sink t. ! queue ! c.dist_sink vmafhipcompare name=c "
      "backend=cpu features=psnr model=\"\" black-threshold=0 "
      "freeze-threshold=0 align=content align-window=2000000000 "
      "lag-warning=1000000000 ! fakesink sync=true", 60 * GST_SECOND);
  g_assert_true (vh_gst_first_error (msgs, GST_MESSAGE_ERROR) == NULL);
  frames = vh_gst_structures (msgs, "vmaf");
  g_assert_cmpuint (frames->len, >, 0);
  g_assert_cmpuint (vh_gst_count_warnings (msgs, "behind real time"), ==, 0);
  g_ptr_array_unref (frames);
  vh_gst_free_messages (msgs);
}

int
main (int argc, char **argv)
{
  vh_gst_test_init (&argc, &argv);
  g_test_add_func ("/vmafhipcompare/events/black-and-freeze",
      test_black_and_freeze);
  g_test_add_func ("/vmafhipcompare/events/none-on-normal-content",
      test_none_on_normal_content);
  g_test_add_func ("/vmafhipcompare/events/low-score", test_low_score);
  g_test_add_func ("/vmafhipcompare/lag", test_lag);
  g_test_add_func ("/vmafhipcompare/lag/align-window", test_lag_align_window);
  return g_test_run ();
}
