/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* vmafhipcompare align=content: a distorted input that starts 37 frames
 * into the reference, drops 3 frames and repeats one twice, with
 * timestamps unrelated to the reference's: every frame paired with its
 * own (PSNR at its ceiling on identical pictures), the offset in every
 * vmaf message, vmaf-align messages at each change, the unmatched frames
 * in the summary and the results file; still content never locks. */

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "vh-gst-check.h"
#include "vh-gst-pads.h"

#define W 192
#define H 108
#define N_REF 150
#define FRAME_DURATION (40 * GST_MSECOND)

/* A smooth random texture, larger than a frame: each frame is a window
 * of it moved along, so that no two frames within a window look alike. */
static guint8 *
make_texture (guint tw, guint th)
{
  GRand *rand = g_rand_new_with_seed (29);
  guint8 *tex = g_malloc (tw * th);
  gfloat *noise = g_new (gfloat, tw * th);

  for (guint i = 0; i < tw * th; i++)
    noise[i] = (gfloat) g_rand_double_range (rand, 0, 255);
  /* A box blur of radius 4: edges the block means can see move. */
  for (guint y = 0; y < th; y++)
    for (guint x = 0; x < tw; x++) {
      gfloat sum = 0;
      guint n = 0;
      for (gint dy = -4; dy <= 4; dy++)
        for (gint dx = -4; dx <= 4; dx++) {
          gint xx = (gint) x + dx, yy = (gint) y + dy;
          if (xx >= 0 && yy >= 0 && xx < (gint) tw && yy < (gint) th) {
            sum += noise[yy * tw + xx];
            n++;
          }
        }
      tex[y * tw + x] = (guint8) CLAMP (128 + (sum / n - 128) * 4, 0, 255);
    }
  g_free (noise);
  g_rand_free (rand);
  return tex;
}

/* Reference frame @t (I420; @still: frame 0 whatever @t). */
static GstBuffer *
make_frame (const guint8 * tex, guint tw, guint t)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, W * H * 3 / 2, NULL);
  GstMapInfo map;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (guint y = 0; y < H; y++)
    memcpy (map.data + y * W, tex + (y + t / 2) * tw + 2 * t, W);
  memset (map.data + W * H, 128, W * H / 2);
  gst_buffer_unmap (buf, &map);
  return buf;
}

static void
push (GstElement * src, GstBuffer * frame, guint index, GstClockTime shift,
    guint rate_factor)
{
  GstBuffer *buf = gst_buffer_copy (frame);
  GstFlowReturn ret;

  GST_BUFFER_PTS (buf) = shift + index * FRAME_DURATION / rate_factor;
  GST_BUFFER_DURATION (buf) = FRAME_DURATION / rate_factor;
  g_signal_emit_by_name (src, "push-buffer", buf, &ret);
  gst_buffer_unref (buf);
}

/* The distorted input's frame rate: 25 fps, or a multiple of it. */
static guint dist_rate_factor = 1;
/* Reference frames from freeze_first on show frame freeze_first, for
 * freeze_count frames (a frozen picture in the source). */
static guint freeze_first, freeze_count;

static const gchar *
launch_line (const gchar * props)
{
  static gchar line[1024];

  g_snprintf (line, sizeof (line), "appsrc name=r format=time "
      "caps=video/x-raw,format=I420,width=%d,height=%d,framerate=25/1 ! "
      "c.ref_sink appsrc name=d format=time "
      "caps=video/x-raw,format=I420,width=%d,height=%d,framerate=%u/1 ! "
      "c.dist_sink vmafhipcompare name=c backend=cpu features=psnr "
      "model=\"\" %s ! "
      "fakesink", W, H, W, H, 25 * dist_rate_factor, props);
  return line;
}

/* GStreamer 1.22's parser keeps a reference to a child whose property
 * it sets ("ref_sink::offset=N": gst_parse_element_make() never drops the
 * target gst_child_proxy_lookup() gave it), which the leak check would
 * blame on the element. Just after parsing the pad is held by the element
 * and by us alone: a third reference is the parser's, dropped here. */
static void
drop_parser_reference (GstElement * pipeline, const gchar * pad_name)
{
  GstElement *c = gst_bin_get_by_name (GST_BIN (pipeline), "c");
  GstPad *pad = gst_element_get_static_pad (c, pad_name);

  if (G_OBJECT (pad)->ref_count > 2)
    gst_object_unref (pad);
  gst_object_unref (pad);
  gst_object_unref (c);
}

/* Runs the chain: reference frames 0..N_REF-1, the distorted showing
 * @shown (reference frame numbers), each side stamped from 0. */
static GList *
run_chain (const GArray * shown, gboolean still, const gchar * props,
    GstClockTime dist_shift)
{
  GstElement *pipeline = gst_parse_launch (launch_line (props), NULL);
  GstElement *r = gst_bin_get_by_name (GST_BIN (pipeline), "r");
  GstElement *d = gst_bin_get_by_name (GST_BIN (pipeline), "d");
  guint tw = W + 2 * N_REF, th = H + N_REF / 2;
  guint8 *tex = make_texture (tw, th);
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  GstFlowReturn ret;
  GList *msgs;

  g_assert_nonnull (pipeline);
  if (strstr (props, "ref_sink::"))
    drop_parser_reference (pipeline, "ref_sink");
  for (guint t = 0; t < N_REF; t++) {
    guint shown_t = t;

    if (t >= freeze_first && t < freeze_first + freeze_count)
      shown_t = freeze_first;
    g_ptr_array_add (frames, make_frame (tex, tw, still ? 0 : shown_t));
  }
  gst_element_set_state (pipeline, GST_STATE_PAUSED);
  for (guint t = 0; t < N_REF; t++)
    push (r, g_ptr_array_index (frames, t), t, 0, 1);
  for (guint j = 0; j < shown->len; j++) {
    guint f = g_array_index (shown, guint, j);
    /* dist_shift G_MAXUINT64: stamped as the reference frame it shows */
    if (dist_shift == G_MAXUINT64)
      push (d, g_ptr_array_index (frames, f), f, 0, 1);
    else
      push (d, g_ptr_array_index (frames, f), j, dist_shift,
          dist_rate_factor);
  }
  g_signal_emit_by_name (r, "end-of-stream", &ret);
  g_signal_emit_by_name (d, "end-of-stream", &ret);
  msgs = vh_gst_run (pipeline, 120 * GST_SECOND);
  g_ptr_array_unref (frames);
  g_free (tex);
  gst_object_unref (r);
  gst_object_unref (d);
  gst_object_unref (pipeline);
  return msgs;
}

static gint64
get_int64 (const GstStructure * s, const gchar * field)
{
  gint64 v = 0;

  vh_assert_msg (gst_structure_get_int64 (s, field, &v), "%s lacks %s",
      gst_structure_get_name (s), field);
  return v;
}

static void
test_align_chain (void)
{
  GArray *shown = g_array_new (FALSE, FALSE, sizeof (guint));
  gchar *results = vh_gst_tmp_path ("align.json");
  gchar *props = g_strdup_printf ("align=content align-window=2000000000 "
      "results-filename=%s", results);
  gchar *text = NULL;
  const GstStructure *summary;
  GPtrArray *scored, *events, *summaries;
  GList *msgs;
  gint last_offset = 0;

  for (guint f = 37; f < N_REF; f++) {
    if (f >= 80 && f <= 82)
      continue;
    g_array_append_val (shown, f);
    if (f == 120) {
      g_array_append_val (shown, f);
      g_array_append_val (shown, f);
    }
  }
  msgs = run_chain (shown, FALSE, props, 0);
  g_assert_null (vh_gst_first_error (msgs, GST_MESSAGE_ERROR));

  /* Every reference frame shown, scored once against its own picture. */
  scored = vh_gst_structures (msgs, "vmaf");
  g_assert_cmpuint (scored->len, ==, N_REF - 37 - 3);
  for (guint i = 0; i < scored->len; i++) {
    const GstStructure *s = g_ptr_array_index (scored, i);
    gint64 frames = get_int64 (s, "align-offset-frames");
    gint64 ns = get_int64 (s, "align-offset");
    GstClockTime rt = vh_gst_get_uint64 (s, "running-time");
    guint dist_index = rt / FRAME_DURATION;
    guint expected = g_array_index (shown, guint, dist_index);

    vh_assert_msg (vh_gst_get_double (s, "psnr_y") >= 60.0,
        "frame %u scored against another: psnr_y %f", i,
        vh_gst_get_double (s, "psnr_y"));
    /* The offset says which reference frame it was. */
    g_assert_cmpint (dist_index + frames, ==, expected);
    g_assert_cmpint (ns, ==, frames * (gint64) FRAME_DURATION);
    last_offset = frames;
  }
  g_assert_cmpint (last_offset, ==, 38);

  events = vh_gst_structures (msgs, "vmaf-align");
  g_assert_cmpuint (events->len, ==, 3);
  g_assert_cmpstr (gst_structure_get_string (g_ptr_array_index (events, 0),
          "state"), ==, "locked");
  g_assert_cmpint (get_int64 (g_ptr_array_index (events, 0),
          "align-offset-frames"), ==, 37);
  g_assert_cmpint (get_int64 (g_ptr_array_index (events, 0),
          "align-offset"), ==, 37 * (gint64) FRAME_DURATION);
  g_assert_cmpstr (gst_structure_get_string (g_ptr_array_index (events, 1),
          "state"), ==, "offset-changed");
  g_assert_cmpint (get_int64 (g_ptr_array_index (events, 1),
          "align-offset-frames"), ==, 40);
  g_assert_cmpint (get_int64 (g_ptr_array_index (events, 2),
          "align-offset-frames"), ==, 38);

  summaries = vh_gst_structures (msgs, "vmaf-summary");
  g_assert_cmpuint (summaries->len, ==, 1);
  summary = g_ptr_array_index (summaries, 0);
  g_assert_cmpstr (gst_structure_get_string (summary, "align"), ==,
      "content");
  g_assert_cmpuint (vh_gst_get_uint64 (summary, "align-reference-dropped"),
      ==, 3);
  g_assert_cmpuint (vh_gst_get_uint64 (summary, "align-distorted-repeated"),
      ==, 2);
  g_assert_cmpuint (vh_gst_get_uint64 (summary, "align-reference-not-locked"),
      ==, 37);
  g_assert_cmpuint (vh_gst_get_uint64 (summary, "align-changes"), ==, 2);
  g_assert_cmpuint (vh_gst_get_uint64 (summary, "unpaired-reference"), ==,
      40);
  g_assert_cmpuint (vh_gst_get_uint64 (summary, "unpaired-distorted"), ==, 2);

  /* The results file's log. */
  g_assert_true (g_file_get_contents (results, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\"alignment\": {\"mode\": \"content\""));
  g_assert_nonnull (strstr (text, "\"offset_frames\": 38"));
  g_assert_nonnull (strstr (text, "{\"dropped\": 3"));
  g_assert_nonnull (strstr (text, "{\"repeated\": 2"));

  g_free (text);
  g_ptr_array_unref (summaries);
  g_ptr_array_unref (scored);
  g_ptr_array_unref (events);
  vh_gst_free_messages (msgs);
  g_array_unref (shown);
  g_free (props);
  g_free (results);
}

/* A frozen picture from start to end: never locked, nothing scored
 * against anything, the frames counted as unpaired. */
static void
test_align_still (void)
{
  GArray *shown = g_array_new (FALSE, FALSE, sizeof (guint));
  const GstStructure *summary;
  GPtrArray *summaries;
  GList *msgs;

  for (guint f = 10; f < N_REF; f++)
    g_array_append_val (shown, f);
  msgs = run_chain (shown, TRUE, "align=content align-window=2000000000",
      0);
  g_assert_cmpuint (vh_gst_count (msgs, "vmaf"), ==, 0);
  g_assert_cmpuint (vh_gst_count (msgs, "vmaf-align"), ==, 0);
  summaries = vh_gst_structures (msgs, "vmaf-summary");
  g_assert_cmpuint (summaries->len, ==, 1);
  summary = g_ptr_array_index (summaries, 0);
  g_assert_false (g_value_get_boolean (gst_structure_get_value (summary,
              "align-locked")));
  g_assert_cmpuint (vh_gst_get_uint64 (summary, "unpaired-distorted"), ==,
      shown->len);
  g_ptr_array_unref (summaries);
  vh_gst_free_messages (msgs);
  g_array_unref (shown);
}

/* The element is a GstChildProxy of its pads: a known offset set by hand
 * from a launch line (ref_sink::offset: a pad's offset is never negative,
 * so the earlier input is delayed) pairs by time a distorted stamped
 * 200 ms late; without it every frame is scored against the one 5 frames
 * earlier. */
static void
test_pad_offset (void)
{
  GArray *shown = g_array_new (FALSE, FALSE, sizeof (guint));
  GPtrArray *scored;
  GList *msgs;
  gdouble worst = G_MAXDOUBLE;

  for (guint f = 0; f < 40; f++)
    g_array_append_val (shown, f);
  msgs = run_chain (shown, FALSE, "", 5 * FRAME_DURATION);
  scored = vh_gst_structures (msgs, "vmaf");
  g_assert_cmpuint (scored->len, >, 0);
  for (guint i = 0; i < scored->len; i++)
    worst = MIN (worst, vh_gst_get_double (g_ptr_array_index (scored, i),
            "psnr_y"));
  g_assert_cmpfloat (worst, <, 30.0);
  g_ptr_array_unref (scored);
  vh_gst_free_messages (msgs);

  msgs = run_chain (shown, FALSE, "ref_sink::offset=200000000",
      5 * FRAME_DURATION);
  g_assert_null (vh_gst_first_error (msgs, GST_MESSAGE_ERROR));
  scored = vh_gst_structures (msgs, "vmaf");
  g_assert_cmpuint (scored->len, ==, 40);
  for (guint i = 0; i < scored->len; i++)
    g_assert_cmpfloat (vh_gst_get_double (g_ptr_array_index (scored, i),
            "psnr_y"), >=, 60.0);
  g_ptr_array_unref (scored);
  vh_gst_free_messages (msgs);
  g_array_unref (shown);
}

/* A frozen picture of 40 frames in the middle: the lock is lost (reason
 * still) within its hold, no frame of the freeze is scored past that,
 * and the lock comes back at the same offset once the picture moves. */
static void
test_align_freeze (void)
{
  GArray *shown = g_array_new (FALSE, FALSE, sizeof (guint));
  GPtrArray *scored, *events;
  guint in_freeze = 0;
  GList *msgs;

  for (guint f = 5; f < N_REF; f++)
    g_array_append_val (shown, f);
  freeze_first = 60;
  freeze_count = 40;
  msgs = run_chain (shown, FALSE, "align=content align-window=2000000000",
      0);
  freeze_first = freeze_count = 0;
  g_assert_null (vh_gst_first_error (msgs, GST_MESSAGE_ERROR));
  events = vh_gst_structures (msgs, "vmaf-align");
  g_assert_cmpuint (events->len, ==, 3);
  g_assert_cmpstr (gst_structure_get_string (g_ptr_array_index (events, 1),
          "state"), ==, "lost");
  g_assert_cmpstr (gst_structure_get_string (g_ptr_array_index (events, 1),
          "reason"), ==, "still");
  g_assert_cmpstr (gst_structure_get_string (g_ptr_array_index (events, 2),
          "state"), ==, "locked");
  g_assert_cmpint (get_int64 (g_ptr_array_index (events, 2),
          "align-offset-frames"), ==, 5);
  scored = vh_gst_structures (msgs, "vmaf");
  for (guint i = 0; i < scored->len; i++) {
    const GstStructure *s = g_ptr_array_index (scored, i);
    guint dist_index = vh_gst_get_uint64 (s, "running-time") / FRAME_DURATION;
    guint f = g_array_index (shown, guint, dist_index);

    /* Scored frames are the right ones (the same offset throughout). */
    g_assert_cmpint (get_int64 (s, "align-offset-frames"), ==, 5);
    g_assert_cmpfloat (vh_gst_get_double (s, "psnr_y"), >=, 60.0);
    if (f > 60 && f < 100)
      in_freeze++;
  }
  /* The hold's ten frames at most; everything after the freeze. */
  g_assert_cmpuint (in_freeze, <=, 10);
  g_assert_cmpuint (scored->len, >=, N_REF - 5 - 40);
  g_ptr_array_unref (scored);
  g_ptr_array_unref (events);
  vh_gst_free_messages (msgs);
  g_array_unref (shown);
}

/* The chain through files: a moving clip (ffmpeg's testsrc2), its
 * distorted version starting 37 frames late, 3 frames dropped at one point
 * and one frame repeated twice at another, encoded with x264 and decoded
 * again, read raw with unrelated timestamps: align=content scores every
 * frame that exists in both against its own reference frame, with every
 * value equal to the element's own run on files this test pairs by hand;
 * the offset is right before and after each change. Needs ffmpeg with
 * libx264 (skipped without). */
#define CLIP_W 320
#define CLIP_H 180
#define CLIP_FRAME (CLIP_W * CLIP_H * 3 / 2)

static gboolean
ffmpeg (const gchar * args)
{
  gchar *cmd = g_strdup_printf ("ffmpeg -nostdin -v error -y %s", args);
  gchar *out = NULL;
  gint status = 0;
  gboolean ok = g_spawn_command_line_sync (cmd, &out, NULL, &status, NULL)
      && g_spawn_check_wait_status (status, NULL);

  g_free (out);
  g_free (cmd);
  return ok;
}

static void
write_frames (const gchar * path, const gchar * frames, const GArray * order)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < order->len; i++)
    g_string_append_len (s, frames + (gsize) g_array_index (order, guint,
            i) * CLIP_FRAME, CLIP_FRAME);
  g_assert_true (g_file_set_contents (path, s->str, s->len, NULL));
  g_string_free (s, TRUE);
}

static GList *
score_files (const gchar * ref, const gchar * dist, const gchar * props)
{
  gchar *desc = g_strdup_printf ("filesrc location=%s ! rawvideoparse "
      "width=%d height=%d format=i420 framerate=25/1 ! c.ref_sink "
      "filesrc location=%s ! rawvideoparse width=%d height=%d format=i420 "
      "framerate=25/1 ! c.dist_sink vmafhipcompare name=c backend=cpu "
      "features=psnr,float_ssim %s ! fakesink", ref, CLIP_W, CLIP_H, dist,
      CLIP_W, CLIP_H, props);
  GList *msgs = vh_gst_run_launch (desc, 300 * GST_SECOND);

  g_free (desc);
  g_assert_null (vh_gst_first_error (msgs, GST_MESSAGE_ERROR));
  return msgs;
}

static void
test_x264_chain (void)
{
  gchar *ref = vh_gst_tmp_path ("ref.yuv");
  gchar *chain = vh_gst_tmp_path ("chain.yuv");
  gchar *mkv = vh_gst_tmp_path ("chain.mkv");
  gchar *dist = vh_gst_tmp_path ("dist.yuv");
  gchar *ref_paired = vh_gst_tmp_path ("ref-paired.yuv");
  gchar *dist_paired = vh_gst_tmp_path ("dist-paired.yuv");
  gchar *args, *ref_data = NULL, *dist_data = NULL;
  gsize ref_len = 0, dist_len = 0;
  GArray *shown = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *pair_ref = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *pair_dist = g_array_new (FALSE, FALSE, sizeof (guint));
  GPtrArray *aligned, *by_hand, *events, *summaries;
  GList *msgs, *hand_msgs;
  const GstStructure *summary;

  args = g_strdup_printf ("-f lavfi -i testsrc2=size=%dx%d:rate=25 "
      "-frames:v %d -pix_fmt yuv420p -f rawvideo %s", CLIP_W, CLIP_H, N_REF,
      ref);
  if (!ffmpeg (args)) {
    g_free (args);
    g_test_skip ("needs ffmpeg");
    goto out;
  }
  g_free (args);
  g_assert_true (g_file_get_contents (ref, &ref_data, &ref_len, NULL));
  g_assert_cmpuint (ref_len, ==, (gsize) N_REF * CLIP_FRAME);

  for (guint f = 37; f < N_REF; f++) {
    if (f >= 80 && f <= 82)
      continue;
    g_array_append_val (shown, f);
    if (f == 120) {
      g_array_append_val (shown, f);
      g_array_append_val (shown, f);
    }
  }
  write_frames (chain, ref_data, shown);
  args = g_strdup_printf ("-f rawvideo -pix_fmt yuv420p -s %dx%d -r 25 "
      "-i %s -c:v libx264 -preset ultrafast -crf 30 %s", CLIP_W, CLIP_H,
      chain, mkv);
  if (!ffmpeg (args)) {
    g_free (args);
    g_test_skip ("needs ffmpeg with libx264");
    goto out;
  }
  g_free (args);
  args = g_strdup_printf ("-i %s -fps_mode passthrough -f rawvideo "
      "-pix_fmt yuv420p %s", mkv, dist);
  g_assert_true (ffmpeg (args));
  g_free (args);
  g_assert_true (g_file_get_contents (dist, &dist_data, &dist_len, NULL));
  g_assert_cmpuint (dist_len, ==, (gsize) shown->len * CLIP_FRAME);

  /* The right pairs, written by hand: each reference frame shown against
   * the first distorted frame that shows it. */
  for (guint j = 0; j < shown->len; j++) {
    guint f = g_array_index (shown, guint, j);
    if (j > 0 && g_array_index (shown, guint, j - 1) == f)
      continue;
    g_array_append_val (pair_ref, f);
    g_array_append_val (pair_dist, j);
  }
  write_frames (ref_paired, ref_data, pair_ref);
  write_frames (dist_paired, dist_data, pair_dist);

  msgs = score_files (ref, dist, "align=content align-window=3000000000");
  hand_msgs = score_files (ref_paired, dist_paired, "");
  aligned = vh_gst_structures (msgs, "vmaf");
  by_hand = vh_gst_structures (hand_msgs, "vmaf");
  /* every value paired by hand, by content too */
  g_assert_cmpuint (vh_gst_assert_same_doubles (by_hand, aligned), >=, 15);

  /* Each scored frame's offset names its own reference frame. */
  for (guint i = 0; i < aligned->len; i++) {
    const GstStructure *s = g_ptr_array_index (aligned, i);
    guint j = vh_gst_get_uint64 (s, "running-time") / FRAME_DURATION;

    g_assert_cmpint (j + get_int64 (s, "align-offset-frames"), ==,
        g_array_index (pair_ref, guint, i));
    g_assert_cmpuint (j, ==, g_array_index (pair_dist, guint, i));
  }
  events = vh_gst_structures (msgs, "vmaf-align");
  g_assert_cmpuint (events->len, ==, 3);
  g_assert_cmpint (get_int64 (g_ptr_array_index (events, 0),
          "align-offset-frames"), ==, 37);
  g_assert_cmpint (get_int64 (g_ptr_array_index (events, 1),
          "align-offset-frames"), ==, 40);
  g_assert_cmpuint (vh_gst_get_uint64 (g_ptr_array_index (events, 1),
          "distorted-index"), ==, 43);
  g_assert_cmpint (get_int64 (g_ptr_array_index (events, 2),
          "align-offset-frames"), ==, 38);
  summaries = vh_gst_structures (msgs, "vmaf-summary");
  summary = g_ptr_array_index (summaries, 0);
  g_assert_cmpuint (vh_gst_get_uint64 (summary, "align-reference-dropped"),
      ==, 3);
  g_assert_cmpuint (vh_gst_get_uint64 (summary, "align-distorted-repeated"),
      ==, 2);

  g_ptr_array_unref (aligned);
  g_ptr_array_unref (by_hand);
  g_ptr_array_unref (events);
  g_ptr_array_unref (summaries);
  vh_gst_free_messages (msgs);
  vh_gst_free_messages (hand_msgs);
out:
  g_free (ref_data);
  g_free (dist_data);
  g_array_unref (shown);
  g_array_unref (pair_ref);
  g_array_unref (pair_dist);
  g_free (ref);
  g_free (chain);
  g_free (mkv);
  g_free (dist);
  g_free (ref_paired);
  g_free (dist_paired);
}

/* unpaired=repeat: the reference frames the chain dropped are scored
 * against the last distorted frame shown, marked and counted; paired by
 * content and by time alike. */
static void
check_repeats (GList * msgs, guint n_scored, guint first_dropped,
    guint n_dropped)
{
  GPtrArray *scored = vh_gst_structures (msgs, "vmaf");
  GPtrArray *summaries = vh_gst_structures (msgs, "vmaf-summary");
  guint repeated = 0;

  g_assert_null (vh_gst_first_error (msgs, GST_MESSAGE_ERROR));
  g_assert_cmpuint (scored->len, ==, n_scored);
  for (guint i = 0; i < scored->len; i++) {
    const GstStructure *s = g_ptr_array_index (scored, i);
    gboolean rep = FALSE;
    gdouble psnr = vh_gst_get_double (s, "psnr_y");

    gst_structure_get_boolean (s, "repeated", &rep);
    if (rep) {
      repeated++;
      vh_assert_msg (psnr < 60.0, "a repeat scored as the frame itself");
    } else {
      vh_assert_msg (psnr >= 60.0, "frame %u scored against another", i);
    }
  }
  g_assert_cmpuint (repeated, ==, n_dropped);
  g_assert_cmpuint (summaries->len, ==, 1);
  g_assert_cmpuint (vh_gst_get_uint64 (g_ptr_array_index (summaries, 0),
          "repeated-distorted"), ==, n_dropped);
  g_ptr_array_unref (scored);
  g_ptr_array_unref (summaries);
}

static void
test_unpaired_repeat (void)
{
  GArray *shown = g_array_new (FALSE, FALSE, sizeof (guint));
  GList *msgs;

  for (guint f = 10; f < 100; f++) {
    if (f < 50 || f > 56)
      g_array_append_val (shown, f);
  }
  msgs = run_chain (shown, FALSE, "align=content align-window=2000000000 "
      "unpaired=repeat", 0);
  /* Reference frames 10..99, seven of them dropped and repeated. */
  check_repeats (msgs, 90, 50, 7);
  vh_gst_free_messages (msgs);

  /* By time: the distorted stamped as the frames it shows, with a gap.
   * Reference frames 0..9 have no distorted frame at all (the distorted
   * starts later): skipped, not repeated. */
  msgs = run_chain (shown, FALSE, "unpaired=repeat", G_MAXUINT64);
  check_repeats (msgs, 90, 50, 7);
  vh_gst_free_messages (msgs);

  /* A window longer than the clip: every decision comes after both
   * inputs ended, the dropped frames' among them. They are still the
   * chain's drops, repeated, and the warning neither counts them as not
   * scored nor blames the distorted input's end. */
  msgs = run_chain (shown, FALSE, "align=content align-window=5000000000 "
      "unpaired=repeat", 0);
  check_repeats (msgs, 90, 50, 7);
  {
    GError *warning = vh_gst_first_error (msgs, GST_MESSAGE_WARNING);

    g_assert_nonnull (warning);
    vh_assert_msg (strstr (warning->message, "7 of the reference frames "
            "were scored against the last distorted frame shown") &&
        !strstr (warning->message, "ended before"), "warning: %s",
        warning->message);
    g_error_free (warning);
  }
  vh_gst_free_messages (msgs);
  g_array_unref (shown);
}

/* A distorted input at twice the reference's rate (each frame shown
 * twice): every second frame is scored, each against its own, by time
 * and by content. */
static void
test_rate_multiple (void)
{
  GArray *shown = g_array_new (FALSE, FALSE, sizeof (guint));
  const gchar *props[] = { "", "align=content align-window=2000000000" };

  for (guint f = 0; f < N_REF; f++) {
    g_array_append_val (shown, f);
    g_array_append_val (shown, f);
  }
  dist_rate_factor = 2;
  for (guint i = 0; i < G_N_ELEMENTS (props); i++) {
    GList *msgs = run_chain (shown, FALSE, props[i], 0);
    GPtrArray *scored = vh_gst_structures (msgs, "vmaf");

    g_assert_null (vh_gst_first_error (msgs, GST_MESSAGE_ERROR));
    /* By content the first frames wait for the lock. */
    g_assert_cmpuint (scored->len, >=, i ? N_REF - 3 : N_REF);
    g_assert_cmpuint (scored->len, <=, N_REF);
    for (guint k = 0; k < scored->len; k++)
      vh_assert_msg (vh_gst_get_double (g_ptr_array_index (scored, k),
              "psnr_y") >= 60.0, "case %u, frame %u scored against another",
          i, k);
    g_ptr_array_unref (scored);
    vh_gst_free_messages (msgs);
  }
  dist_rate_factor = 1;
  g_array_unref (shown);
}

/* The delayed branch's frames stamped with the time they leave the
 * queue, as a second capture of a delayed feed would be: nothing in
 * their timestamps ties them to the reference's. */
static GstPadProbeReturn
restamp (GstPad * pad, GstPadProbeInfo * info, gpointer pipeline)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstClock *clock = gst_element_get_clock (pipeline);

  if (!clock)
    return GST_PAD_PROBE_OK;
  buf = gst_buffer_make_writable (buf);
  GST_BUFFER_PTS (buf) = gst_clock_get_time (clock) -
      gst_element_get_base_time (pipeline);
  GST_BUFFER_DTS (buf) = GST_CLOCK_TIME_NONE;
  GST_PAD_PROBE_INFO_DATA (info) = buf;
  gst_object_unref (clock);
  return GST_PAD_PROBE_OK;
}

/* Two live feeds of one moving source, the distorted one 1.3 s behind
 * (a queue holding 1.3 s) with timestamps of its own: every frame after
 * the lock is scored against its own (the branch is identical: PSNR at
 * its ceiling), the offset in time is the queue's delay. A still source
 * never locks. VH_ALIGN_LIVE_SECONDS sets the length (bench/align-live.sh
 * runs 60 s). */
static GList *
run_live (const gchar * pattern, guint seconds)
{
  gchar *desc = g_strdup_printf ("videotestsrc is-live=true %s "
      "num-buffers=%u ! video/x-raw,format=I420,width=%d,height=%d,"
      "framerate=25/1 ! tee name=t t. ! queue ! c.ref_sink t. ! "
      "queue name=delay min-threshold-time=1300000000 max-size-time=0 "
      "max-size-buffers=0 max-size-bytes=0 ! c.dist_sink "
      "vmafhipcompare name=c backend=cpu features=psnr model=\"\" "
      "align=content align-window=2000000000 ! fakesink", pattern,
      seconds * 25, W, H);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *delay = gst_bin_get_by_name (GST_BIN (pipeline), "delay");
  GstPad *src = gst_element_get_static_pad (delay, "src");
  GList *msgs;

  gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_BUFFER, restamp, pipeline,
      NULL);
  gst_object_unref (src);
  gst_object_unref (delay);
  msgs = vh_gst_run (pipeline, (seconds + 60) * GST_SECOND);
  gst_object_unref (pipeline);
  g_free (desc);
  return msgs;
}

static void
test_live (void)
{
  const gchar *env = g_getenv ("VH_ALIGN_LIVE_SECONDS");
  guint seconds = env ? (guint) g_ascii_strtoull (env, NULL, 10) : 10;
  GPtrArray *scored, *events, *summaries;
  gint64 offset;
  GList *msgs;

  if (vh_gst_skip_live ())
    return;
  seconds = MAX (seconds, 5);
  msgs = run_live ("pattern=smpte horizontal-speed=2", seconds);
  g_assert_null (vh_gst_first_error (msgs, GST_MESSAGE_ERROR));
  scored = vh_gst_structures (msgs, "vmaf");
  events = vh_gst_structures (msgs, "vmaf-align");
  /* Locked once, within the window and the confirmation; never lost. */
  g_assert_cmpuint (events->len, ==, 1);
  g_assert_cmpstr (gst_structure_get_string (g_ptr_array_index (events, 0),
          "state"), ==, "locked");
  offset = get_int64 (g_ptr_array_index (events, 0), "align-offset");
  /* The queue lets a frame go once 1.3 s of frames are in, measured
   * from timestamps of whole frames. */
  vh_assert_msg (offset <= -1200 * GST_MSECOND &&
      offset > -1600 * GST_MSECOND, "offset %" G_GINT64_FORMAT, offset);
  g_assert_cmpint (get_int64 (g_ptr_array_index (events, 0),
          "align-offset-frames"), ==, 0);
  /* Every frame from the lock on (the last ones may come after the
   * reference ended). */
  g_assert_cmpuint (scored->len, >=, seconds * 25 - 2 * 25 - 10);
  for (guint i = 0; i < scored->len; i++)
    vh_assert_msg (vh_gst_get_double (g_ptr_array_index (scored, i),
            "psnr_y") >= 60.0, "frame %u scored against another", i);
  g_test_message ("live: %u of %u frames scored, offset %.3f s",
      scored->len, seconds * 25, offset / 1e9);
  g_ptr_array_unref (scored);
  g_ptr_array_unref (events);
  vh_gst_free_messages (msgs);

  /* Still content (a checkerboard: smpte's bars carry a patch of noise):
   * never locked, nothing scored. */
  msgs = run_live ("pattern=checkers-8", 4);
  g_assert_cmpuint (vh_gst_count (msgs, "vmaf"), ==, 0);
  g_assert_cmpuint (vh_gst_count (msgs, "vmaf-align"), ==, 0);
  summaries = vh_gst_structures (msgs, "vmaf-summary");
  g_assert_cmpuint (summaries->len, ==, 1);
  g_assert_cmpuint (vh_gst_get_uint64 (g_ptr_array_index (summaries, 0),
          "align-distorted-not-locked"), >, 0);
  g_ptr_array_unref (summaries);
  vh_gst_free_messages (msgs);
}

/* Frames too small for a signature: a warning that says so, nothing
 * scored, no error. */
static void
test_too_small (void)
{
  GList *msgs = vh_gst_run_launch ("videotestsrc num-buffers=10 ! "
      "video/x-raw,format=I420,width=12,height=8,framerate=25/1 ! tee name=t "
      "t. ! queue ! c.ref_sink t. ! queue ! c.dist_sink vmafhipcompare "
      "name=c backend=cpu features=psnr model=\"\" align=content ! "
      "fakesink", 60 * GST_SECOND);
  GError *warning = vh_gst_first_error (msgs, GST_MESSAGE_WARNING);

  g_assert_null (vh_gst_first_error (msgs, GST_MESSAGE_ERROR));
  g_assert_nonnull (warning);
  vh_assert_msg (strstr (warning->message, "too small to align by content"),
      "%s", warning->message);
  g_assert_cmpuint (vh_gst_count (msgs, "vmaf"), ==, 0);
  g_error_free (warning);
  vh_gst_free_messages (msgs);
}

/* A window whose frames would fill the machine's memory before the first
 * lock (600 s of 8K frames at 60 fps: terabytes) is said once, at the
 * first frame, and the run goes on; a window of small frames is not. */
static void
test_window_memory (void)
{
  GList *msgs = vh_gst_run_launch ("videotestsrc num-buffers=3 ! "
      "video/x-raw,format=I420,width=7680,height=4320,framerate=60/1 ! "
      "tee name=t t. ! queue ! c.ref_sink t. ! queue ! c.dist_sink "
      "t. ! queue ! c.dist_sink_1 vmafhipcompare name=c backend=cpu "
      "features=psnr model=\"\" align=content align-window=600000000000 ! "
      "fakesink", 120 * GST_SECOND);

  g_assert_null (vh_gst_first_error (msgs, GST_MESSAGE_ERROR));
  /* once for both renditions */
  g_assert_cmpuint (vh_gst_count_warnings (msgs, "align-window=600.0 s "
          "holds up to 36000 frames of each input"), ==, 1);
  g_assert_cmpuint (vh_gst_count_warnings (msgs, "more than half of this "
          "machine's"), ==, 1);
  vh_gst_free_messages (msgs);

  msgs = vh_gst_run_launch ("videotestsrc num-buffers=3 ! "
      "video/x-raw,format=I420,width=320,height=240,framerate=25/1 ! "
      "tee name=t t. ! queue ! c.ref_sink t. ! queue ! c.dist_sink "
      "vmafhipcompare name=c backend=cpu features=psnr model=\"\" "
      "align=content ! fakesink", 60 * GST_SECOND);
  g_assert_null (vh_gst_first_error (msgs, GST_MESSAGE_ERROR));
  g_assert_cmpuint (vh_gst_count_warnings (msgs, "holds up to"), ==, 0);
  vh_gst_free_messages (msgs);
  /* A ladder: the reference and one rendition under half of the memory,
   * the reference and two over it (the reference counted once) */
  for (guint renditions = 1; renditions <= 2; renditions++) {
    guint64 frame = 7680 * 4320 * 3 / 2, frame_ns = GST_SECOND / 60;
    guint64 frames = (guint64) sysconf (_SC_PHYS_PAGES) *
        (guint64) sysconf (_SC_PAGESIZE) / 5 / frame;
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=2 ! "
        "video/x-raw,format=I420,width=7680,height=4320,framerate=60/1 ! "
        "tee name=t t. ! queue ! c.ref_sink t. ! queue ! c.dist_sink %s "
        "vmafhipcompare name=c backend=cpu features=psnr model=\"\" "
        "align=content align-window=%" G_GUINT64_FORMAT " ! fakesink",
        renditions == 2 ? "t. ! queue ! c.dist_sink_1" : "",
        frames * frame_ns + frame_ns / 2);
    gchar *said = g_strdup_printf ("holds up to %" G_GUINT64_FORMAT
        " frames of each input until the offset locks", frames);

    msgs = vh_gst_run_launch (desc, 120 * GST_SECOND);
    g_assert_null (vh_gst_first_error (msgs, GST_MESSAGE_ERROR));
    g_assert_cmpuint (vh_gst_count_warnings (msgs, said), ==,
        renditions - 1);
    g_assert_cmpuint (vh_gst_count_warnings (msgs, "for 3 inputs"), ==,
        renditions - 1);
    vh_gst_free_messages (msgs);
    g_free (said);
    g_free (desc);
  }
}

/* The children are the sink pads, by name and index. */
static void
test_child_proxy (void)
{
  GstElement *c = gst_element_factory_make ("vmafhipcompare", NULL);
  GObject *child;

  g_assert_true (GST_IS_CHILD_PROXY (c));
  g_assert_cmpuint (gst_child_proxy_get_children_count (GST_CHILD_PROXY (c)),
      ==, 2);
  child = gst_child_proxy_get_child_by_name (GST_CHILD_PROXY (c), "ref_sink");
  g_assert_true (GST_IS_PAD (child));
  g_object_unref (child);
  g_assert_null (gst_child_proxy_get_child_by_name (GST_CHILD_PROXY (c),
          "src"));
  gst_child_proxy_set (GST_CHILD_PROXY (c), "ref_sink::offset",
      (gint64) 1300000000, NULL);
  child = gst_child_proxy_get_child_by_index (GST_CHILD_PROXY (c), 0);
  g_assert_cmpint (gst_pad_get_offset (GST_PAD (child)), ==, 1300000000);
  g_object_unref (child);
  gst_object_unref (c);
}

/* Messages named @name of distorted pad @pad. */
static GPtrArray *
structures_of_pad (GList * msgs, const gchar * name, const gchar * pad)
{
  GPtrArray *all = vh_gst_structures (msgs, name);
  GPtrArray *mine = g_ptr_array_new ();

  for (guint i = 0; i < all->len; i++) {
    const GstStructure *s = g_ptr_array_index (all, i);

    if (!g_strcmp0 (gst_structure_get_string (s, "pad"), pad))
      g_ptr_array_add (mine, (gpointer) s);
  }
  g_ptr_array_unref (all);
  return mine;
}

/* A request pad is aligned on its own: dist_sink shows the reference
 * from frame 37 on, dist_sink_1 from frame 20 on with frames 50..56
 * dropped (unpaired=repeat: scored against frame 49, counted in its own
 * summary only). Each pad's offsets, vmaf-align messages and counts are
 * its own. */
static void
test_request_pad (void)
{
  GstElement *pipeline = gst_parse_launch ("appsrc name=r format=time "
      "caps=video/x-raw,format=I420,width=192,height=108,framerate=25/1 ! "
      "c.ref_sink appsrc name=d format=time "
      "caps=video/x-raw,format=I420,width=192,height=108,framerate=25/1 ! "
      "c.dist_sink appsrc name=d1 format=time "
      "caps=video/x-raw,format=I420,width=192,height=108,framerate=25/1 ! "
      "c.dist_sink_1 vmafhipcompare name=c backend=cpu features=psnr "
      "model=\"\" align=content align-window=2000000000 unpaired=repeat ! "
      "fakesink", NULL);
  const gchar *names[] = { "d", "d1" };
  const gchar *pads[] = { "dist_sink", "dist_sink_1" };
  const guint first[] = { 37, 20 };
  guint tw = W + 2 * N_REF, th = H + N_REF / 2;
  guint8 *tex = make_texture (tw, th);
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  GstElement *r = gst_bin_get_by_name (GST_BIN (pipeline), "r");
  GstFlowReturn ret;
  GList *msgs;

  for (guint t = 0; t < N_REF; t++)
    g_ptr_array_add (frames, make_frame (tex, tw, t));
  gst_element_set_state (pipeline, GST_STATE_PAUSED);
  for (guint t = 0; t < N_REF; t++)
    push (r, g_ptr_array_index (frames, t), t, 0, 1);
  g_signal_emit_by_name (r, "end-of-stream", &ret);
  for (guint k = 0; k < 2; k++) {
    GstElement *d = gst_bin_get_by_name (GST_BIN (pipeline), names[k]);
    guint j = 0;

    for (guint f = first[k]; f < N_REF; f++) {
      if (k == 1 && f >= 50 && f <= 56)
        continue;
      /* stamped from 0, unrelated to the reference */
      push (d, g_ptr_array_index (frames, f), j++, 0, 1);
    }
    g_signal_emit_by_name (d, "end-of-stream", &ret);
    gst_object_unref (d);
  }
  msgs = vh_gst_run (pipeline, 120 * GST_SECOND);
  g_assert_null (vh_gst_first_error (msgs, GST_MESSAGE_ERROR));

  for (guint k = 0; k < 2; k++) {
    GPtrArray *scored = structures_of_pad (msgs, "vmaf", pads[k]);
    GPtrArray *events = structures_of_pad (msgs, "vmaf-align", pads[k]);
    GPtrArray *summaries = structures_of_pad (msgs, "vmaf-summary", pads[k]);
    const GstStructure *summary;
    guint repeated = 0;

    /* every reference frame it shows (and with repeat those it dropped,
     * once locked), each against its own or, repeated, frame 49 */
    g_assert_cmpuint (scored->len, ==, N_REF - first[k]);
    for (guint i = 0; i < scored->len; i++) {
      const GstStructure *s = g_ptr_array_index (scored, i);
      gboolean rep = FALSE;
      gdouble psnr = vh_gst_get_double (s, "psnr_y");

      gst_structure_get_boolean (s, "repeated", &rep);
      repeated += rep;
      vh_assert_msg (rep ? psnr < 60.0 : psnr >= 60.0, "%s frame %u: "
          "psnr_y %f, repeated %d", pads[k], i, psnr, rep);
    }
    g_assert_cmpuint (repeated, ==, k ? 7 : 0);
    g_assert_cmpuint (events->len, ==, k ? 2 : 1);
    g_assert_cmpint (get_int64 (g_ptr_array_index (events, 0),
            "align-offset-frames"), ==, first[k]);
    if (k)
      g_assert_cmpint (get_int64 (g_ptr_array_index (events, 1),
              "align-offset-frames"), ==, first[k] + 7);
    g_assert_cmpuint (summaries->len, ==, 1);
    summary = g_ptr_array_index (summaries, 0);
    g_assert_cmpstr (gst_structure_get_string (summary, "align"), ==,
        "content");
    g_assert_cmpuint (vh_gst_get_uint64 (summary, "repeated-distorted"), ==,
        k ? 7 : 0);
    g_assert_cmpuint (vh_gst_get_uint64 (summary,
            "align-reference-dropped"), ==, k ? 7 : 0);
    g_ptr_array_unref (scored);
    g_ptr_array_unref (events);
    g_ptr_array_unref (summaries);
  }
  vh_gst_free_messages (msgs);
  g_ptr_array_unref (frames);
  g_free (tex);
  gst_object_unref (r);
  gst_object_unref (pipeline);
}

/* The same chain decided while it runs (a 2 s window) and only after both
 * inputs ended (a window longer than the clip) gives the same pairs and
 * values, temporal ones included: a dropped frame decided at the end
 * once ended the scoring's temporal pass early, and the first frame after
 * the drop scored motion 0. */
static void
test_decided_at_end (void)
{
  GArray *shown = g_array_new (FALSE, FALSE, sizeof (guint));
  GList *running, *at_end;
  GPtrArray *a, *b;
  guint moving = 0;

  for (guint f = 10; f < 100; f++) {
    if (f < 50 || f > 56)
      g_array_append_val (shown, f);
  }
  running = run_chain (shown, FALSE, "features=psnr,motion align=content "
      "align-window=2000000000", 0);
  at_end = run_chain (shown, FALSE, "features=psnr,motion align=content "
      "align-window=5000000000", 0);
  a = vh_gst_structures (running, "vmaf");
  b = vh_gst_structures (at_end, "vmaf");
  g_assert_cmpuint (a->len, ==, 83);
  /* psnr_y, psnr_cb, psnr_cr and the motion scores */
  g_assert_cmpuint (vh_gst_assert_same_doubles (a, b), >=, 5);
  for (guint i = 0; i < a->len; i++) {
    if (vh_gst_get_double (g_ptr_array_index (a, i), "integer_motion2") > 0.0)
      moving++;
  }
  /* the texture moves on every frame but the first */
  g_assert_cmpuint (moving, ==, a->len - 1);
  g_ptr_array_unref (a);
  g_ptr_array_unref (b);
  vh_gst_free_messages (running);
  vh_gst_free_messages (at_end);
  g_array_unref (shown);
}

/* A buffer pool that counts the buffers it allocates: a pool allocates
 * again when it had to throw a buffer away (one whose memory was still
 * shared when it came back). */
typedef struct
{
  GstBufferPool parent;
  gint allocated;               /* atomic */
} CountingPool;

typedef struct
{
  GstBufferPoolClass parent_class;
} CountingPoolClass;

static GType counting_pool_get_type (void);
G_DEFINE_TYPE (CountingPool, counting_pool, GST_TYPE_BUFFER_POOL);

static GstFlowReturn
counting_pool_alloc_buffer (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  g_atomic_int_inc (&((CountingPool *) pool)->allocated);
  return GST_BUFFER_POOL_CLASS (counting_pool_parent_class)->alloc_buffer
      (pool, buffer, params);
}

static void
counting_pool_class_init (CountingPoolClass * klass)
{
  GST_BUFFER_POOL_CLASS (klass)->alloc_buffer = counting_pool_alloc_buffer;
}

static void
counting_pool_init (CountingPool * pool)
{
}

/* Frames from pools with a maximum (a decoder's, an upload's): frames
 * waiting for the engine's decision would drain them and stall their
 * producers, which the engine waits for. Both inputs draw from one pool
 * of 16 buffers, as from a decoder before a tee, while the distorted
 * input starts 37 frames in: the element holds some of them and copies
 * the rest, and every frame is still scored against its own. One
 * thread feeds both, as that decoder would: two threads let one input
 * run ahead until its queued frames and the waiting ones took the whole
 * pool, while the element waited for the other input (it hung at
 * times). */
typedef struct
{
  GstElement *src[2];           /* [0] reference */
  GstBufferPool *pool;
  GPtrArray *frames;
} PoolFeed;

/* Pushes @frames[@first + @j] from the pool; FALSE when refused. */
static gboolean
push_from_pool (PoolFeed * feed, guint s, guint first, guint j)
{
  GstBuffer *buf = NULL;
  GstFlowReturn ret;
  GstMapInfo map;

  /* blocks while all 16 buffers are out */
  g_assert_cmpint (gst_buffer_pool_acquire_buffer (feed->pool, &buf, NULL),
      ==, GST_FLOW_OK);
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  gst_buffer_extract (g_ptr_array_index (feed->frames, first + j), 0,
      map.data, map.size);
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = j * FRAME_DURATION;
  GST_BUFFER_DURATION (buf) = FRAME_DURATION;
  g_signal_emit_by_name (feed->src[s], "push-buffer", buf, &ret);
  gst_buffer_unref (buf);
  return ret == GST_FLOW_OK;
}

static gpointer
feed_from_pool (gpointer data)
{
  PoolFeed *feed = data;
  const guint first[2] = { 0, 37 };
  gboolean going[2] = { TRUE, TRUE };
  GstFlowReturn ret;

  for (guint j = 0; going[0] || going[1]; j++) {
    for (guint s = 0; s < 2; s++) {
      if (going[s] && (first[s] + j >= N_REF ||
              !push_from_pool (feed, s, first[s], j))) {
        g_signal_emit_by_name (feed->src[s], "end-of-stream", &ret);
        going[s] = FALSE;
      }
    }
  }
  return NULL;
}

static void
test_bounded_pool (void)
{
  GstElement *pipeline = gst_parse_launch (launch_line ("align=content "
          "align-window=2000000000"), NULL);
  GstBufferPool *pool = g_object_new (counting_pool_get_type (), NULL);
  GstStructure *config;
  guint tw = W + 2 * N_REF, th = H + N_REF / 2;
  guint8 *tex = make_texture (tw, th);
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  PoolFeed feed;
  GThread *thread;
  GPtrArray *scored;
  GList *msgs;

  g_assert_nonnull (pipeline);
  gst_object_ref_sink (pool);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, NULL, W * H * 3 / 2, 0, 16);
  g_assert_true (gst_buffer_pool_set_config (pool, config));
  g_assert_true (gst_buffer_pool_set_active (pool, TRUE));
  for (guint t = 0; t < N_REF; t++)
    g_ptr_array_add (frames, make_frame (tex, tw, t));
  feed.pool = pool;
  feed.frames = frames;
  for (guint i = 0; i < 2; i++) {
    feed.src[i] = gst_bin_get_by_name (GST_BIN (pipeline), i ? "d" : "r");
    g_object_set (feed.src[i], "block", TRUE, "max-buffers", (guint64) 2,
        NULL);
  }
  gst_element_set_state (pipeline, GST_STATE_PAUSED);
  thread = g_thread_new ("feed", feed_from_pool, &feed);
  msgs = vh_gst_run (pipeline, 120 * GST_SECOND);
  g_thread_join (thread);
  for (guint i = 0; i < 2; i++)
    gst_object_unref (feed.src[i]);
  g_assert_null (vh_gst_first_error (msgs, GST_MESSAGE_ERROR));

  scored = vh_gst_structures (msgs, "vmaf");
  g_assert_cmpuint (scored->len, ==, N_REF - 37);
  for (guint i = 0; i < scored->len; i++) {
    const GstStructure *s = g_ptr_array_index (scored, i);

    vh_assert_msg (vh_gst_get_double (s, "psnr_y") >= 60.0,
        "frame %u scored against another: psnr_y %f", i,
        vh_gst_get_double (s, "psnr_y"));
    g_assert_cmpint (get_int64 (s, "align-offset-frames"), ==, 37);
  }
  g_ptr_array_unref (scored);
  vh_gst_free_messages (msgs);
  gst_object_unref (pipeline);
  /* Every buffer came back whole, none thrown away (the passed-through
   * input's memory was not shared when the element let go of it): the
   * pool allocated its 16, and at most the first buffer of each appsrc
   * again (the base source copies it to mark it discontinuous when the
   * feeding thread still holds it). Every passed-through frame was thrown
   * away before. */
  g_assert_cmpint (((CountingPool *) pool)->allocated, <=, 16 + 2);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  g_ptr_array_unref (frames);
  g_free (tex);
}

int
main (int argc, char **argv)
{
  vh_gst_test_init (&argc, &argv);
  g_test_add_func ("/vmafhipcompare/align/chain", test_align_chain);
  g_test_add_func ("/vmafhipcompare/align/still", test_align_still);
  g_test_add_func ("/vmafhipcompare/align/freeze", test_align_freeze);
  g_test_add_func ("/vmafhipcompare/align/x264-chain", test_x264_chain);
  g_test_add_func ("/vmafhipcompare/align/pad-offset", test_pad_offset);
  g_test_add_func ("/vmafhipcompare/align/unpaired-repeat",
      test_unpaired_repeat);
  g_test_add_func ("/vmafhipcompare/align/child-proxy", test_child_proxy);
  g_test_add_func ("/vmafhipcompare/align/too-small", test_too_small);
  g_test_add_func ("/vmafhipcompare/align/window-memory",
      test_window_memory);
  g_test_add_func ("/vmafhipcompare/align/rate-multiple", test_rate_multiple);
  g_test_add_func ("/vmafhipcompare/align/live", test_live);
  g_test_add_func ("/vmafhipcompare/align/request-pad", test_request_pad);
  g_test_add_func ("/vmafhipcompare/align/bounded-pool", test_bounded_pool);
  g_test_add_func ("/vmafhipcompare/align/decided-at-end",
      test_decided_at_end);
  return g_test_run ();
}
