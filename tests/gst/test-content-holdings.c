/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What frames waiting for align=content's decisions hold, alone: at most
 * half of a bounded pool's buffers, the rest as copies that the
 * renditions share; a growing pool's and pool-less buffers held as they
 * are; the window's memory counted for all inputs together, the
 * reference once, and said once a run. */

#include <gst/gst.h>
#include <gst/video/video.h>
#include <string.h>
#include <unistd.h>

#include "gstvmafhipcontentholdings.h"

/* The element's debug category, which the module logs to. */
GST_DEBUG_CATEGORY (gst_vmaf_hip_compare_debug);

static GstBufferPool *
make_pool (guint size, guint max)
{
  GstBufferPool *pool = gst_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, NULL, size, 0, max);
  g_assert_true (gst_buffer_pool_set_config (pool, config));
  g_assert_true (gst_buffer_pool_set_active (pool, TRUE));
  return pool;
}

static GstBuffer *
acquire (GstBufferPool * pool, guint8 value)
{
  GstBuffer *buf = NULL;

  g_assert_cmpint (gst_buffer_pool_acquire_buffer (pool, &buf, NULL), ==,
      GST_FLOW_OK);
  gst_buffer_memset (buf, 0, value, gst_buffer_get_size (buf));
  return buf;
}

/* Of a pool of 8, 4 buffers are held; the fifth frame waits as a copy,
 * one for both renditions; a buffer given back makes room again. */
static void
test_bounded_pool (void)
{
  GstVmafHipContentHoldings *h = gst_vmaf_hip_content_holdings_new (NULL);
  GstBufferPool *pool = make_pool (64, 8);
  GstBuffer *frames[5], *kept[5], *copy = NULL, *again;
  GstBufferPool *from[5], *again_from;
  guint8 byte = 0;

  for (guint i = 0; i < 5; i++) {
    frames[i] = acquire (pool, i + 1);
    copy = NULL;
    kept[i] = gst_vmaf_hip_content_holdings_hold (h, frames[i], &copy,
        &from[i]);
    if (i < 4) {
      g_assert_true (kept[i] == frames[i]);
      g_assert_true (from[i] == pool);
      g_assert_null (copy);
    }
  }
  /* the fifth: a copy of its pixels, counted against no pool */
  g_assert_true (kept[4] != frames[4]);
  g_assert_null (kept[4]->pool);
  g_assert_null (from[4]);
  g_assert_true (copy == kept[4]);
  gst_buffer_extract (kept[4], 10, &byte, 1);
  g_assert_cmpuint (byte, ==, 5);
  /* the second rendition's pairing keeps the same copy */
  again = gst_vmaf_hip_content_holdings_hold (h, frames[4], &copy,
      &again_from);
  g_assert_true (again == copy);
  g_assert_null (again_from);
  gst_buffer_unref (again);
  gst_clear_buffer (&copy);

  /* one given back: the next frame is held again */
  gst_vmaf_hip_content_holdings_give_back (h, from[0]);
  gst_buffer_unref (kept[0]);
  again = gst_vmaf_hip_content_holdings_hold (h, frames[4], &copy,
      &again_from);
  g_assert_true (again == frames[4]);
  g_assert_true (again_from == pool);
  gst_vmaf_hip_content_holdings_give_back (h, again_from);
  gst_buffer_unref (again);

  for (guint i = 1; i < 5; i++) {
    gst_vmaf_hip_content_holdings_give_back (h, from[i]);
    gst_buffer_unref (kept[i]);
  }
  for (guint i = 0; i < 5; i++)
    gst_buffer_unref (frames[i]);
  /* nothing is held any more */
  gst_vmaf_hip_content_holdings_reset (h);
  gst_vmaf_hip_content_holdings_free (h);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
}

/* A pool without a maximum grows as it must, and a buffer of no pool
 * holds itself: both kept as they are. */
static void
test_unbounded (void)
{
  GstVmafHipContentHoldings *h = gst_vmaf_hip_content_holdings_new (NULL);
  GstBufferPool *pool = make_pool (64, 0);
  GstBuffer *frames[12], *kept[12], *copy = NULL;
  GstBufferPool *from[12];

  for (guint i = 0; i < 12; i++) {
    frames[i] = i % 2 ? acquire (pool, i) : gst_buffer_new_allocate (NULL, 64,
        NULL);
    kept[i] = gst_vmaf_hip_content_holdings_hold (h, frames[i], &copy,
        &from[i]);
    g_assert_true (kept[i] == frames[i]);
    g_assert_true (from[i] == (i % 2 ? pool : NULL));
    g_assert_null (copy);
  }
  for (guint i = 0; i < 12; i++) {
    gst_vmaf_hip_content_holdings_give_back (h, from[i]);
    gst_buffer_unref (kept[i]);
    gst_buffer_unref (frames[i]);
  }
  gst_vmaf_hip_content_holdings_free (h);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
}

/* The window's frames of every input together against this machine's
 * memory: a reference and one rendition under half of it, a second
 * rendition over it, said once; the reference's frames, which every
 * rendition's pairing sees, counted once. */
static void
test_window_memory (void)
{
  GstVmafHipContentHoldings *h = gst_vmaf_hip_content_holdings_new (NULL);
  guint64 memory = (guint64) sysconf (_SC_PHYS_PAGES) *
      (guint64) sysconf (_SC_PAGESIZE);
  GstVideoInfo info;
  guint64 frame_bytes, bytes = 0;
  guint frames;
  gchar *message;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 7680, 4320);
  frame_bytes = GST_VIDEO_INFO_SIZE (&info);
  /* two inputs' windows make 0.4 of the memory, three 0.6 */
  frames = (guint) (memory / 5 / frame_bytes);
  g_assert_cmpuint (frames, >, 10);

  for (guint rendition = 0; rendition < 2; rendition++) {
    message = gst_vmaf_hip_content_holdings_count_window (h, TRUE,
        10 * GST_SECOND, frames, &info, &bytes);
    g_assert_null (message);
    g_assert_cmpuint (bytes, ==, (1 + rendition) * frames * frame_bytes);
    message = gst_vmaf_hip_content_holdings_count_window (h, FALSE,
        10 * GST_SECOND, frames, &info, &bytes);
    g_assert_cmpuint (bytes, ==, (2 + rendition) * frames * frame_bytes);
    if (rendition == 0) {
      g_assert_null (message);
      continue;
    }
    g_assert_nonnull (message);
    g_assert_true (g_str_has_prefix (message, "align-window=10.0 s holds up "
            "to "));
    g_assert_nonnull (strstr (message, "for 3 inputs, more than half of "
            "this machine's"));
    g_free (message);
  }
  /* once a run */
  g_assert_null (gst_vmaf_hip_content_holdings_count_window (h, FALSE,
          10 * GST_SECOND, frames, &info, &bytes));
  gst_vmaf_hip_content_holdings_reset (h);
  g_assert_null (gst_vmaf_hip_content_holdings_count_window (h, FALSE,
          10 * GST_SECOND, frames, &info, &bytes));
  g_assert_cmpuint (bytes, ==, frames * frame_bytes);
  gst_vmaf_hip_content_holdings_free (h);
}

int
main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  GST_DEBUG_CATEGORY_INIT (gst_vmaf_hip_compare_debug, "vmafhipcompare", 0,
      "vmafhipcompare");
  g_test_add_func ("/content-holdings/bounded-pool", test_bounded_pool);
  g_test_add_func ("/content-holdings/unbounded", test_unbounded);
  g_test_add_func ("/content-holdings/window-memory", test_window_memory);
  return g_test_run ();
}
