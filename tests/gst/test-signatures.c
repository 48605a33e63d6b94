/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* align=content's signatures, of small frames on the caller's thread and
 * of large ones on worker threads: each job's signature is the one
 * computed directly, bit for bit, whichever threads start and take them;
 * a frame that cannot have one says why; jobs dropped before they
 * finish, and the pool freed with jobs queued, leave nothing behind
 * (valgrind). */

#include <gst/gst.h>
#include <gst/video/video.h>
#include <string.h>

#include "gstvmafhipsignatures.h"
#include "gstvmafhippicture.h"
#include "errors.h"

/* The element's debug category, which the module logs to. */
GST_DEBUG_CATEGORY (gst_vmaf_hip_compare_debug);

/* Small frames' signatures are computed on the caller's thread, large
 * ones' (more than 256 Ki luma samples read) on the workers. */
#define SMALL_W 96
#define SMALL_H 64
#define LARGE_W 1024
#define LARGE_H 320
#define N_FRAMES 40

/* An I420 frame whose luma moves with @n. */
static GstBuffer *
make_frame (const GstVideoInfo * info, guint n)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstMapInfo map;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (gsize i = 0; i < map.size; i++)
    map.data[i] = (guint8) ((i * 7 + n * 13 + (i / info->width) * n) & 255);
  gst_buffer_unmap (buf, &map);
  return buf;
}

static void
direct_signature (const GstVideoInfo * info, GstBuffer * buf,
    VhAlignSignature * sig)
{
  VhPicture *pic = gst_vmaf_hip_picture_wrap (info, buf, NULL);

  g_assert_nonnull (pic);
  g_assert_true (vh_align_signature_compute (pic, sig, NULL));
  vh_picture_unref (pic);
}

typedef struct
{
  GstVmafHipSignatures *sigs;
  GstVideoInfo info;
  guint first;                  /* frames first, first + 2, ... */
  GstVmafHipSignatureJob *jobs[N_FRAMES];
  GstBuffer *frames[N_FRAMES];
} Starter;

static gpointer
start_every_other (gpointer data)
{
  Starter *s = data;

  for (guint n = s->first; n < N_FRAMES; n += 2) {
    s->frames[n] = make_frame (&s->info, n);
    s->jobs[n] = gst_vmaf_hip_signatures_start (s->sigs, &s->info,
        s->frames[n]);
  }
  return NULL;
}

/* Two threads start jobs at once (as two sink pads do); every signature
 * taken equals the one computed directly. */
static void
check_equal_to_direct (guint w, guint h)
{
  GstVmafHipSignatures *sigs = gst_vmaf_hip_signatures_new (NULL);
  Starter a = { sigs }, b = { sigs };
  GThread *ta, *tb;

  gst_video_info_set_format (&a.info, GST_VIDEO_FORMAT_I420, w, h);
  b.info = a.info;
  b.first = 1;
  ta = g_thread_new ("start-a", start_every_other, &a);
  tb = g_thread_new ("start-b", start_every_other, &b);
  g_thread_join (ta);
  g_thread_join (tb);

  for (guint n = 0; n < N_FRAMES; n++) {
    Starter *s = n % 2 ? &b : &a;
    VhAlignSignature got, want;
    GError *err = NULL;

    g_assert_nonnull (s->jobs[n]);
    g_assert_true (gst_vmaf_hip_signature_job_take (s->jobs[n], &got, &err));
    g_assert_no_error (err);
    g_assert_true (gst_vmaf_hip_signature_job_done (s->jobs[n]));
    direct_signature (&s->info, s->frames[n], &want);
    g_assert_cmpmem (&got, sizeof (got), &want, sizeof (want));
    /* taken again (another rendition's pairing): the same */
    g_assert_true (gst_vmaf_hip_signature_job_take (s->jobs[n], &got, NULL));
    g_assert_cmpmem (&got, sizeof (got), &want, sizeof (want));
    gst_vmaf_hip_signature_job_unref (s->jobs[n]);
    gst_buffer_unref (s->frames[n]);
  }
  gst_vmaf_hip_signatures_free (sigs);
}

static void
test_equal_to_direct_small (void)
{
  check_equal_to_direct (SMALL_W, SMALL_H);
}

static void
test_equal_to_direct_large (void)
{
  check_equal_to_direct (LARGE_W, LARGE_H);
}

/* A frame too small to align: the error says so, at each take. */
static void
test_too_small (void)
{
  GstVmafHipSignatures *sigs = gst_vmaf_hip_signatures_new (NULL);
  GstVideoInfo info;
  GstBuffer *buf;
  GstVmafHipSignatureJob *job;
  VhAlignSignature sig;
  GError *err = NULL;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 8, 8);
  buf = make_frame (&info, 1);
  job = gst_vmaf_hip_signatures_start (sigs, &info, buf);
  g_assert_nonnull (job);
  g_assert_false (gst_vmaf_hip_signature_job_take (job, &sig, &err));
  g_assert_error (err, VH_ERROR, VH_ERROR_TOO_SMALL);
  g_assert_nonnull (strstr (err->message, "too small"));
  g_clear_error (&err);
  g_assert_false (gst_vmaf_hip_signature_job_take (job, &sig, NULL));
  gst_vmaf_hip_signature_job_unref (job);
  gst_buffer_unref (buf);
  gst_vmaf_hip_signatures_free (sigs);
}

/* A buffer without memory has no frame to read: its job says so, at
 * once (it is read through a mapping, not on a worker). */
static void
test_no_memory (void)
{
  GstVmafHipSignatures *sigs = gst_vmaf_hip_signatures_new (NULL);
  GstVideoInfo info;
  GstBuffer *buf = gst_buffer_new ();
  GstVmafHipSignatureJob *job;
  VhAlignSignature sig;
  GError *err = NULL;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, SMALL_W, SMALL_H);
  job = gst_vmaf_hip_signatures_start (sigs, &info, buf);
  g_assert_nonnull (job);
  g_assert_true (gst_vmaf_hip_signature_job_done (job));
  g_assert_false (gst_vmaf_hip_signature_job_take (job, &sig, &err));
  g_assert_error (err, VH_ERROR, VH_ERROR_IO);
  g_assert_nonnull (strstr (err->message, "could not map"));
  g_clear_error (&err);
  gst_vmaf_hip_signature_job_unref (job);
  gst_buffer_unref (buf);
  gst_vmaf_hip_signatures_free (sigs);
}

/* Jobs dropped at once (a flush), and the pool freed while some are
 * still queued (the element stopping): their frames go back, nothing
 * leaks, nothing reads freed memory. */
static void
test_dropped_and_freed (void)
{
  GstVmafHipSignatures *sigs = gst_vmaf_hip_signatures_new (NULL);
  GstVideoInfo info;
  GstVmafHipSignatureJob *kept[8];

  /* large: they go to the workers, and queue */
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, LARGE_W, LARGE_H);
  for (guint n = 0; n < 24; n++) {
    GstBuffer *buf = make_frame (&info, n);
    GstVmafHipSignatureJob *job = gst_vmaf_hip_signatures_start (sigs,
        &info, buf);

    /* the job holds the frame: the caller's reference may go */
    gst_buffer_unref (buf);
    if (n < G_N_ELEMENTS (kept))
      kept[n] = job;
    else
      gst_vmaf_hip_signature_job_unref (job);
  }
  gst_vmaf_hip_signatures_free (sigs);
  /* done by then */
  for (guint n = 0; n < G_N_ELEMENTS (kept); n++) {
    g_assert_true (gst_vmaf_hip_signature_job_done (kept[n]));
    gst_vmaf_hip_signature_job_unref (kept[n]);
  }
}

int
main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  GST_DEBUG_CATEGORY_INIT (gst_vmaf_hip_compare_debug, "vmafhipcompare", 0,
      "vmafhipcompare");
  g_test_add_func ("/signatures/equal-to-direct-small",
      test_equal_to_direct_small);
  g_test_add_func ("/signatures/equal-to-direct-large",
      test_equal_to_direct_large);
  g_test_add_func ("/signatures/too-small", test_too_small);
  g_test_add_func ("/signatures/no-memory", test_no_memory);
  g_test_add_func ("/signatures/dropped-and-freed", test_dropped_and_freed);
  return g_test_run ();
}
