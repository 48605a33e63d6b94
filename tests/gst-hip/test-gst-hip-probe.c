/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* vmafhipcompare with both inputs in HIP memory (vmafhipupload) against
 * the same clips in system memory, backend=hip: align=content pairs the
 * same frames with the same offsets and unmatched counts (also for two
 * renditions against one reference, whose signature both take), and
 * black and freeze detection posts the same events (8 and 10 bits),
 * while no frame is downloaded for either (the alignment signatures and
 * the luma samples are computed on the GPU: hip/features/hip-frame-probe.c).
 * On the GPU stand-ins running the kernels' source
 * (VH_FAKE_CUDA_KERNELS=emulate), or on a GPU. */

#include <string.h>

#include "vh-gst-check.h"
#include "vh-gst-pads.h"
#include "fake-cuda-counters.h"
#include "gst-hip-test.h"

#include <stdio.h>

/* Small: the kernels run emulated on the stand-ins. */
#define W 64
#define H 48
#define N_REF 40
#define FPS 25

/* CPU mappings of HIP memory that downloaded it (vmafhipmemory's trace). */
static gint downloads;

static void
count_downloads (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  const gchar *text;

  if (g_strcmp0 (gst_debug_category_get_name (category), "vmafhipmemory"))
    return;
  text = gst_debug_message_get (message);
  if (text && strstr (text, "downloading for a CPU mapping"))
    g_atomic_int_inc (&downloads);
}

/* A smooth random texture: each frame is a window of it moved along, so
 * that no two frames within the alignment window look alike. */
static guint8 *
make_texture (guint tw, guint th)
{
  GRand *rand = g_rand_new_with_seed (29);
  guint8 *tex = g_malloc (tw * th);

  for (guint y = 0; y < th; y++)
    for (guint x = 0; x < tw; x++)
      tex[y * tw + x] = 16 + (guint8) ((x * 7 + y * 3 +
              g_rand_int_range (rand, 0, 40) + ((x / 9 + y / 7) % 5) * 30)
          % 200);
  g_rand_free (rand);
  return tex;
}

/* Writes frames @shown (numbers of the moving picture) as an I420 clip. */
static gchar *
write_align_clip (const gchar * name, const guint8 * tex, guint tw,
    const GArray * shown)
{
  gchar *path = vh_gst_tmp_path (name);
  gsize ysize = W * H, size = ysize * 3 / 2;
  GString *data = g_string_new (NULL);
  guint8 *frame = g_malloc (size);

  for (guint j = 0; j < shown->len; j++) {
    guint t = g_array_index (shown, guint, j);

    for (guint y = 0; y < H; y++)
      memcpy (frame + y * W, tex + (y + t / 2) * tw + 2 * t, W);
    memset (frame + ysize, 128, size - ysize);
    g_string_append_len (data, (const gchar *) frame, size);
  }
  g_assert_true (g_file_set_contents (path, data->str, data->len, NULL));
  g_string_free (data, TRUE);
  g_free (frame);
  return path;
}

/* Put before each input's upload (and in the system-memory run, in the
 * same place): "" (vmafhipupload copies the parser's frames to the
 * device, which holds the only copy), or an element that writes its
 * output into the pool vmafhipupload offers it, so that each frame in
 * HIP memory has a current host copy too. */
static const gchar *pool_writer = "";

static GList *
score (const gchar * ref, const gchar * dist, const gchar * format,
    gboolean hip_memory, const gchar * props)
{
  gchar *up = g_strdup_printf ("%s%s", pool_writer,
      hip_memory ? "! vmafhipupload " : "");
  gchar *desc = g_strdup_printf ("filesrc location=\"%s\" ! rawvideoparse "
      "width=%u height=%u format=%s framerate=%u/1 %s! c.ref_sink "
      "filesrc location=\"%s\" ! rawvideoparse width=%u height=%u "
      "format=%s framerate=%u/1 %s! c.dist_sink vmafhipcompare name=c "
      "backend=hip features=psnr model=\"\" %s ! fakesink", ref, W, H,
      format, FPS, up, dist, W, H, format, FPS, up, props);
  GList *msgs;

  g_atomic_int_set (&downloads, 0);
  msgs = vh_gst_run_launch (desc, 300 * GST_SECOND);
  g_assert_null (vh_gst_first_error (msgs, GST_MESSAGE_ERROR));
  g_free (desc);
  g_free (up);
  return msgs;
}

/* The structures of @all from pad @pad (any pad: NULL). */
static GPtrArray *
from_pad (GPtrArray * all, const gchar * pad)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; i < all->len; i++) {
    const GstStructure *st = g_ptr_array_index (all, i);

    if (!pad || !g_strcmp0 (gst_structure_get_string (st, "pad"), pad))
      g_ptr_array_add (out, (gpointer) st);
  }
  return out;
}

/* The element messages named @name from @pad (NULL: any) equal in both
 * runs, in order, field for field (those named in @skip aside). */
static void
assert_same_pad_messages (GList * a, GList * b, const gchar * name,
    const gchar * pad, const gchar * const *skip)
{
  GPtrArray *all_a = vh_gst_structures (a, name);
  GPtrArray *all_b = vh_gst_structures (b, name);
  GPtrArray *sa = from_pad (all_a, pad);
  GPtrArray *sb = from_pad (all_b, pad);

  /* a pad's messages are there to compare */
  if (pad)
    g_assert_cmpuint (sa->len, >, 0);

  g_assert_cmpuint (sa->len, ==, sb->len);
  for (guint i = 0; i < sa->len; i++) {
    GstStructure *x = gst_structure_copy (g_ptr_array_index (sa, i));
    GstStructure *y = gst_structure_copy (g_ptr_array_index (sb, i));

    for (guint k = 0; skip && skip[k]; k++) {
      gst_structure_remove_field (x, skip[k]);
      gst_structure_remove_field (y, skip[k]);
    }
    if (!gst_structure_is_equal (x, y)) {
      gchar *sx = gst_structure_to_string (x), *sy = gst_structure_to_string
          (y);
      g_error ("%s message %u differs:\n  system memory: %s\n  HIP memory:"
          "    %s", name, i, sx, sy);
    }
    gst_structure_free (x);
    gst_structure_free (y);
  }
  g_ptr_array_unref (sa);
  g_ptr_array_unref (sb);
  g_ptr_array_unref (all_a);
  g_ptr_array_unref (all_b);
}

static void
assert_same_messages (GList * a, GList * b, const gchar * name,
    const gchar * const *skip)
{
  assert_same_pad_messages (a, b, name, NULL, skip);
}

/* Fields that say how the run went, not what it found. */
static const gchar *const run_fields[] = { "processing-time", "lag",
  "wall-time", "fps", "hip-frames-on-device", "hip-frames-uploaded",
  "gsthip-frames-on-device", "gsthip-frames-mapped", "features-where",
  NULL
};

/* The distorted input starts 6 frames in, drops 2 frames and repeats one
 * twice. */
static void
test_align_content (void)
{
  guint tw = W + 2 * N_REF, th = H + N_REF / 2;
  guint8 *tex = make_texture (tw, th);
  GArray *ref_shown = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *dist_shown = g_array_new (FALSE, FALSE, sizeof (guint));
  gchar *ref, *dist;
  GList *sys, *hip;
  GPtrArray *scored;
  const gchar *props = "align=content align-window=1000000000";

  for (guint t = 0; t < N_REF; t++) {
    g_array_append_val (ref_shown, t);
    if (t < 6 || t == 20 || t == 21)
      continue;
    g_array_append_val (dist_shown, t);
    if (t == 30) {
      g_array_append_val (dist_shown, t);
      g_array_append_val (dist_shown, t);
    }
  }
  ref = write_align_clip ("align-ref.yuv", tex, tw, ref_shown);
  dist = write_align_clip ("align-dist.yuv", tex, tw, dist_shown);

  sys = score (ref, dist, "i420", FALSE, props);
  hip = score (ref, dist, "i420", TRUE, props);
  g_assert_cmpint (g_atomic_int_get (&downloads), ==, 0);

  /* locked, every distorted frame paired with its own picture */
  scored = vh_gst_structures (hip, "vmaf");
  g_assert_cmpuint (scored->len, >=, N_REF - 6 - 2 - 10);
  for (guint i = 0; i < scored->len; i++)
    g_assert_cmpfloat (vh_gst_get_double (g_ptr_array_index (scored, i),
            "psnr_y"), >=, 60.0);
  g_ptr_array_unref (scored);
  assert_same_messages (sys, hip, "vmaf", run_fields);
  assert_same_messages (sys, hip, "vmaf-align", NULL);
  assert_same_messages (sys, hip, "vmaf-summary", run_fields);

  vh_gst_free_messages (sys);
  vh_gst_free_messages (hip);
  g_free (ref);
  g_free (dist);
  g_array_unref (ref_shown);
  g_array_unref (dist_shown);
  g_free (tex);
}

/* Two renditions scored against one reference (dist_sink and a request
 * pad), each aligned on its own: the reference's signature, computed
 * once on the GPU, is taken by both pairings, with the same offsets and
 * counts as in system memory. */
static void
test_align_content_renditions (void)
{
  guint tw = W + 2 * N_REF, th = H + N_REF / 2;
  guint8 *tex = make_texture (tw, th);
  GArray *ref_shown = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *late_shown = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *gap_shown = g_array_new (FALSE, FALSE, sizeof (guint));
  gchar *ref, *late, *gap;
  GList *runs[2];

  for (guint t = 0; t < N_REF; t++) {
    g_array_append_val (ref_shown, t);
    if (t >= 4)
      g_array_append_val (late_shown, t);
    if (t < 25 || t > 27)
      g_array_append_val (gap_shown, t);
  }
  ref = write_align_clip ("renditions-ref.yuv", tex, tw, ref_shown);
  late = write_align_clip ("renditions-late.yuv", tex, tw, late_shown);
  gap = write_align_clip ("renditions-gap.yuv", tex, tw, gap_shown);

  for (guint hip = 0; hip < 2; hip++) {
    const gchar *up = hip ? "! vmafhipupload " : "";
    gchar *desc = g_strdup_printf ("filesrc location=\"%s\" ! rawvideoparse "
        "width=%u height=%u format=i420 framerate=%u/1 %s! c.ref_sink "
        "filesrc location=\"%s\" ! rawvideoparse width=%u height=%u "
        "format=i420 framerate=%u/1 %s! c.dist_sink "
        "filesrc location=\"%s\" ! rawvideoparse width=%u height=%u "
        "format=i420 framerate=%u/1 %s! c.dist_sink_1 "
        "vmafhipcompare name=c backend=hip features=psnr model=\"\" "
        "align=content align-window=1000000000 ! fakesink", ref, W, H, FPS,
        up, late, W, H, FPS, up, gap, W, H, FPS, up);

    g_atomic_int_set (&downloads, 0);
    runs[hip] = vh_gst_run_launch (desc, 300 * GST_SECOND);
    g_assert_null (vh_gst_first_error (runs[hip], GST_MESSAGE_ERROR));
    g_assert_cmpint (g_atomic_int_get (&downloads), ==, 0);
    g_free (desc);
  }
  /* the two renditions' messages interleave as their frames come */
  for (guint k = 0; k < 2; k++) {
    const gchar *pad = k ? "dist_sink_1" : "dist_sink";

    assert_same_pad_messages (runs[0], runs[1], "vmaf", pad, run_fields);
    assert_same_pad_messages (runs[0], runs[1], "vmaf-align", pad, NULL);
    assert_same_pad_messages (runs[0], runs[1], "vmaf-summary", pad,
        run_fields);
  }
  {
    GPtrArray *aligns = vh_gst_structures (runs[1], "vmaf-align");
    gboolean late_locked = FALSE, gap_locked = FALSE;

    /* each rendition locked at its own offset */
    for (guint i = 0; i < aligns->len; i++) {
      const GstStructure *a = g_ptr_array_index (aligns, i);
      gint64 off;

      if (!gst_structure_get_int64 (a, "align-offset-frames", &off))
        continue;
      late_locked |= off == 4;
      gap_locked |= off == 0;
    }
    g_assert_true (late_locked);
    g_assert_true (gap_locked);
    g_ptr_array_unref (aligns);
  }

  vh_gst_free_messages (runs[0]);
  vh_gst_free_messages (runs[1]);
  g_free (ref);
  g_free (late);
  g_free (gap);
  g_array_unref (ref_shown);
  g_array_unref (late_shown);
  g_array_unref (gap_shown);
  g_free (tex);
}

typedef enum
{ MOVING, BLACK, FROZEN } Content;

/* 0.4 s moving, 0.4 s black, 0.4 s moving, 0.48 s frozen, 0.4 s moving,
 * 0.24 s black to the end; @bpc 8 (I420) or 10 (I420_10LE). The
 * reference moves throughout but for a frozen 0.4 s. */
static gchar *
write_events_clip (const gchar * name, gboolean reference, guint bpc)
{
  static const struct
  {
    Content c;
    guint frames;
  } stretches[] = { {MOVING, 10}, {BLACK, 10}, {MOVING, 10}, {FROZEN, 12},
  {MOVING, 10}, {BLACK, 6}
  };
  gchar *path = vh_gst_tmp_path (name);
  guint bps = bpc > 8 ? 2 : 1;
  gsize ysize = (gsize) W * H, samples = ysize * 3 / 2;
  GString *data = g_string_new (NULL);
  guint16 *frame = g_new (guint16, samples);
  guint f = 0;

  for (guint s = 0; s < G_N_ELEMENTS (stretches); s++) {
    for (guint i = 0; i < stretches[s].frames; i++, f++) {
      Content c = stretches[s].c;
      guint shown = f;

      if (reference)
        c = f >= 20 && f < 30 ? FROZEN : MOVING;
      if (c == FROZEN)
        shown = reference ? 20 : f - i;
      for (gsize k = ysize; k < samples; k++)
        frame[k] = 128;
      for (guint r = 0; r < H; r++)
        for (guint x = 0; x < W; x++) {
          guint v = 16 + ((x * 3 + r * 2 + shown * 5) & 127);

          if (r >= 20 && r < 30 && x >= (shown * 3) % W &&
              x < (shown * 3) % W + 16)
            v = 235;
          frame[r * W + x] = c == BLACK ? 16 : v;
        }
      for (gsize k = 0; k < samples; k++) {
        guint v = frame[k] << (bpc - 8);

        if (bps == 1) {
          g_string_append_c (data, (gchar) v);
        } else {
          g_string_append_c (data, (gchar) (v & 0xff));
          g_string_append_c (data, (gchar) (v >> 8));
        }
      }
    }
  }
  g_assert_true (g_file_set_contents (path, data->str, data->len, NULL));
  g_string_free (data, TRUE);
  g_free (frame);
  return path;
}

static void
check_events (guint bpc)
{
  gchar *ref = write_events_clip ("events-ref.yuv", TRUE, bpc);
  gchar *dist = write_events_clip ("events-dist.yuv", FALSE, bpc);
  const gchar *format = bpc > 8 ? "i420-10le" : "i420";
  const gchar *props = "black-min-duration=120000000 "
      "freeze-min-duration=120000000";
  GList *sys, *hip;
  GPtrArray *events;

  sys = score (ref, dist, format, FALSE, props);
  hip = score (ref, dist, format, TRUE, props);
  g_assert_cmpint (g_atomic_int_get (&downloads), ==, 0);
  /* the device frames were looked at, not skipped */
  g_assert_cmpint (vh_gst_find_type (hip, GST_MESSAGE_INFO), ==, -1);
  /* two black and one frozen stretch on the distorted input, one frozen
   * on the reference: a start and an end each */
  events = vh_gst_structures (sys, "vmaf-event");
  g_assert_cmpuint (events->len, ==, 8);
  g_ptr_array_unref (events);
  assert_same_messages (sys, hip, "vmaf-event", NULL);

  vh_gst_free_messages (sys);
  vh_gst_free_messages (hip);
  g_free (ref);
  g_free (dist);
}

static void
test_events_8bit (void)
{
  check_events (8);
}

static void
test_events_10bit (void)
{
  check_events (10);
}

/* Frames written into the element's pool on the CPU (their host copy
 * current too) are read on the GPU all the same, with the same results:
 * a plane swap (I420 to YV12) makes videoconvert write each frame. */
static void
test_pool_written (void)
{
  pool_writer = "! videoconvert ! video/x-raw,format=YV12 ";
  test_align_content ();
  check_events (8);
  pool_writer = "";
}

int
main (int argc, char **argv)
{
  gint ret;

  vh_gst_test_init (&argc, &argv);
  if (!vh_gst_test_pipeline_starts ("videotestsrc num-buffers=1 ! "
          "vmafhipupload ! fakesink")) {
    printf ("SKIP: vmafhipupload cannot start here (no GPU)\n");
    return 77;
  }
  gst_debug_set_active (TRUE);
  gst_debug_remove_log_function (gst_debug_log_default);
  gst_debug_add_log_function (count_downloads, NULL, NULL);
  gst_debug_set_threshold_for_name ("vmafhipmemory", GST_LEVEL_TRACE);
  g_test_add_func ("/vmafhipcompare/hip-memory/align-content",
      test_align_content);
  g_test_add_func ("/vmafhipcompare/hip-memory/align-content-renditions",
      test_align_content_renditions);
  g_test_add_func ("/vmafhipcompare/hip-memory/events-8bit",
      test_events_8bit);
  g_test_add_func ("/vmafhipcompare/hip-memory/events-10bit",
      test_events_10bit);
  g_test_add_func ("/vmafhipcompare/hip-memory/pool-written",
      test_pool_written);
  ret = g_test_run ();
  /* nothing left allocated (the kernel modules that loaded keep their
   * context for the process) */
  {
    VhFakeCudaCounters c;

    if (vh_fake_cuda_counters (&c))
      g_assert_cmpuint (c.n_allocations, ==, 0);
  }
  return ret;
}
