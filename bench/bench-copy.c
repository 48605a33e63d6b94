/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The yardstick for vmafhipupload: the rate of a plain host-to-device copy of
 * the frames of a raw file, straight from the page cache (the file mapped,
 * each frame copied with one synchronous copy from pageable memory, as a
 * program without staging would), and, for comparison, through one
 * page-locked buffer (memcpy into it, then the copy).
 *
 *   bench/bench-copy FILE FRAME_BYTES [FRAMES [WIDTH HEIGHT]]
 *
 * With WIDTH and HEIGHT (8-bit 4:2:0 frames), also: the frames copied a
 * plane at a time into device rows pitched like vmafhipupload's (one 2D
 * copy per plane from pageable memory); the CPU's memcpy of the frames
 * into page-locked memory alone (what staging costs the host); and that
 * memcpy with the copies behind it on a stream, two page-locked buffers
 * taking turns, so that the CPU and the copy engine overlap; both again
 * with the uploads' own staging copy (vh_hip_copy_to_staging: streaming
 * stores); and a parser's copy of each frame into a ring of pageable
 * buffers, alone and with the frame's luma staged right after it was
 * written or 15 frames later (what staging on the parser's thread, while
 * the frame is in the cache, would save).
 *
 * Prints one line per method: frames, seconds, frames per second, GB/s,
 * and the CPU time (user + system) per frame in ms. With FRAMES 0 it only
 * opens the GPU and exits: the time of that process is the floor of any
 * program's start-up on the GPU (loading the driver, its initialisation
 * and the device's context); with VH_BENCH_COPY_HOLD_DEVICE set it keeps
 * the device open until it is ended (a signal), so that other processes
 * start with the driver already initialised. Exits 77 where no GPU can be
 * opened. */

#include "vhhip.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* User + system time of the process so far, in microseconds. */
static gint64
cpu_usec (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return (gint64) (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * G_USEC_PER_SEC
      + ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
}

typedef struct
{
  gint64 wall, cpu;
} Mark;

static Mark
mark (void)
{
  Mark m = { g_get_monotonic_time (), cpu_usec () };
  return m;
}

static void
report (const gchar * method, guint n, gsize frame_bytes, Mark since)
{
  Mark now = mark ();
  gdouble s = (now.wall - since.wall) / 1e6;

  printf ("%-26s %5u frames %8.3f s %9.1f fps %6.2f GB/s %7.3f ms-cpu\n",
      method, n, s, n / s, n * (gdouble) frame_bytes / s / 1e9,
      (now.cpu - since.cpu) / 1e3 / n);
}

/* Each plane of an 8-bit 4:2:0 frame in one 2D copy from pageable memory
 * into rows pitched like vmafhipupload's frames. */
static gboolean
copy_planes_pitched (VhHipDevice * device, gpointer dst, gsize dst_pitch,
    const guint8 * frame, guint width, guint height, GError ** error)
{
  gsize row[3] = { width, (width + 1) / 2, (width + 1) / 2 };
  gsize rows[3] = { height, (height + 1) / 2, (height + 1) / 2 };
  gsize src_offset = 0, dst_offset = 0;

  for (guint p = 0; p < 3; p++) {
    gsize pitch = p == 0 ? dst_pitch : (dst_pitch / 2 + 255) / 256 * 256;
    if (!vh_hip_memcpy_2d (device, VH_HIP_COPY_HOST_TO_DEVICE,
            (guint8 *) dst + dst_offset, pitch, frame + src_offset, row[p],
            row[p], rows[p], error))
      return FALSE;
    src_offset += row[p] * rows[p];
    dst_offset += pitch * rows[p];
  }
  return TRUE;
}

/* The frames through two page-locked buffers taking turns: the CPU fills
 * one while the stream copies the other. */
static gboolean
copy_staged_overlapped (VhHipDevice * device, gpointer dst,
    gpointer pinned[2], const guint8 * map, gsize frame_bytes, guint n,
    gboolean streaming, GError ** error)
{
  g_autoptr (VhHipStream) stream = vh_hip_stream_new (device, error);
  VhHipEvent *done[2] = { NULL, NULL };
  gboolean ok = stream != NULL;

  for (guint b = 0; ok && b < 2; b++)
    ok = (done[b] = vh_hip_event_new (device, FALSE, error)) != NULL &&
        vh_hip_event_record (done[b], stream, error);
  for (guint i = 0; ok && i < n; i++) {
    guint b = i % 2;
    ok = vh_hip_event_synchronize (done[b], error);
    if (!ok)
      break;
    if (streaming)
      vh_hip_copy_to_staging (pinned[b], map + (gsize) i * frame_bytes,
          frame_bytes);
    else
      memcpy (pinned[b], map + (gsize) i * frame_bytes, frame_bytes);
    ok = vh_hip_memcpy_2d_async (stream, VH_HIP_COPY_HOST_TO_DEVICE, dst,
        frame_bytes, pinned[b], frame_bytes, frame_bytes, 1, error) &&
        vh_hip_event_record (done[b], stream, error);
  }
  if (ok)
    ok = vh_hip_stream_synchronize (stream, error);
  for (guint b = 0; b < 2; b++)
    if (done[b])
      vh_hip_event_free (done[b]);
  return ok;
}

/* Whether staging a frame's luma costs less while the frame is still in
 * the cache: a parser's copy of each frame into a ring of pageable buffers
 * (as rawvideoparse makes), alone, then with the luma staged right after
 * the frame was written (on the parser's thread), then staged RING - 1
 * frames later (as a worker meets it, the frames in flight between). */
#define PARSED_RING 16

/* The parser's copy of each of @n frames into @ring, each followed, unless
 * @lag is negative, by the staging of the luma of the frame written @lag
 * frames before; reported as @method. */
static void
parse_and_stage (const gchar * method, const guint8 * map, gsize frame_bytes,
    guint n, guint8 * ring[PARSED_RING], gint lag, gsize luma_bytes,
    gpointer pinned[2])
{
  Mark t0 = mark ();

  for (guint i = 0; i < n; i++) {
    memcpy (ring[i % PARSED_RING], map + (gsize) i * frame_bytes,
        frame_bytes);
    if (lag >= 0)
      vh_hip_copy_to_staging (pinned[i % 2],
          ring[(i + PARSED_RING - lag) % PARSED_RING], luma_bytes);
  }
  report (method, n, frame_bytes, t0);
}

static void
stage_after_parse (const guint8 * map, gsize frame_bytes, guint n,
    gsize luma_bytes, gpointer pinned[2])
{
  guint8 *ring[PARSED_RING];

  for (guint r = 0; r < PARSED_RING; r++) {
    ring[r] = g_malloc (frame_bytes);
    memset (ring[r], 0, frame_bytes);
  }
  parse_and_stage ("parser copy alone", map, frame_bytes, n, ring, -1,
      luma_bytes, pinned);
  parse_and_stage ("parser copy + stage now", map, frame_bytes, n, ring, 0,
      luma_bytes, pinned);
  parse_and_stage ("parser copy + stage later", map, frame_bytes, n, ring,
      PARSED_RING - 1, luma_bytes, pinned);
  for (guint r = 0; r < PARSED_RING; r++)
    g_free (ring[r]);
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (VhHipDevice) device = NULL;
  gsize frame_bytes, file_bytes, pitch = 0;
  guint n, max_frames, width = 0, height = 0;
  gpointer dst = NULL, dst_pitched = NULL, pinned[2] = { NULL, NULL };
  const guint8 *map;
  struct stat st;
  Mark t0;
  gint fd;

  if (argc < 3) {
    g_printerr ("usage: %s FILE FRAME_BYTES [FRAMES [WIDTH HEIGHT]]\n",
        argv[0]);
    return 2;
  }
  frame_bytes = g_ascii_strtoull (argv[2], NULL, 10);
  max_frames = argc > 3 ? (guint) atoi (argv[3]) : G_MAXUINT;
  if (argc > 5) {
    width = (guint) atoi (argv[4]);
    height = (guint) atoi (argv[5]);
    if (width == 0 || height == 0 || frame_bytes != (gsize) width * height
        + 2 * (gsize) ((width + 1) / 2) * ((height + 1) / 2)) {
      g_printerr ("WIDTH and HEIGHT do not make 8-bit 4:2:0 frames of %"
          G_GSIZE_FORMAT " bytes\n", frame_bytes);
      return 2;
    }
  }
  fd = open (argv[1], O_RDONLY);
  if (fd < 0 || fstat (fd, &st) != 0 || frame_bytes == 0) {
    g_printerr ("cannot read %s, or frame size 0\n", argv[1]);
    return 2;
  }
  file_bytes = st.st_size;
  if (max_frames == 0) {
    Mark m = mark ();
    gint64 opened;

    device = vh_hip_device_open (VH_HIP_VENDOR_UNKNOWN, 0, &error);
    if (!device) {
      g_printerr ("SKIP: no GPU: %s\n", error->message);
      return 77;
    }
    opened = g_get_monotonic_time ();
    /* Held until the process is ended: the driver stays initialised, as
     * on a machine where another GPU program runs (start-up rows). */
    if (g_getenv ("VH_BENCH_COPY_HOLD_DEVICE")) {
      printf ("device opened in %.1f ms, held until the process ends\n",
          (opened - m.wall) / 1e3);
      fflush (stdout);
      pause ();
      return 0;
    }
    /* Whether releasing the device before exit costs more than letting
     * the process's exit release it. */
    if (g_getenv ("VH_BENCH_COPY_KEEP_DEVICE")) {
      printf ("device opened in %.1f ms, kept until exit\n",
          (opened - m.wall) / 1e3);
      device = NULL;
      return 0;
    }
    g_clear_pointer (&device, vh_hip_device_unref);
    printf ("device opened in %.1f ms, released in %.1f ms\n",
        (opened - m.wall) / 1e3, (g_get_monotonic_time () - opened) / 1e3);
    return 0;
  }
  n = MIN (file_bytes / frame_bytes, max_frames);
  /* populated: page faults are no part of any method */
  map = mmap (NULL, file_bytes, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
  if (map == MAP_FAILED || n == 0) {
    g_printerr ("%s: cannot map it, or shorter than one frame\n", argv[1]);
    return 2;
  }

  device = vh_hip_device_open (VH_HIP_VENDOR_UNKNOWN, 0, &error);
  if (!device) {
    g_printerr ("SKIP: no GPU: %s\n", error->message);
    return 77;
  }
  if (!vh_hip_malloc (device, frame_bytes, &dst, &error) ||
      !vh_hip_host_alloc (device, frame_bytes, &pinned[0], &error) ||
      !vh_hip_host_alloc (device, frame_bytes, &pinned[1], &error))
    goto fail;
  /* One copy first: the first touches of the device and the mapping. */
  if (!vh_hip_memcpy_2d (device, VH_HIP_COPY_HOST_TO_DEVICE, dst,
          frame_bytes, map, frame_bytes, frame_bytes, 1, &error))
    goto fail;

  t0 = mark ();
  for (guint i = 0; i < n; i++) {
    if (!vh_hip_memcpy_2d (device, VH_HIP_COPY_HOST_TO_DEVICE, dst,
            frame_bytes, map + (gsize) i * frame_bytes, frame_bytes,
            frame_bytes, 1, &error))
      goto fail;
  }
  report ("pageable copy", n, frame_bytes, t0);

  if (width) {
    pitch = (width + 255) / 256 * 256;
    if (!vh_hip_malloc (device, pitch * height * 2, &dst_pitched, &error))
      goto fail;
    t0 = mark ();
    for (guint i = 0; i < n; i++) {
      if (!copy_planes_pitched (device, dst_pitched, pitch,
              map + (gsize) i * frame_bytes, width, height, &error))
        goto fail;
    }
    report ("pageable 2D planes", n, frame_bytes, t0);
  }

  t0 = mark ();
  for (guint i = 0; i < n; i++) {
    memcpy (pinned[0], map + (gsize) i * frame_bytes, frame_bytes);
    if (!vh_hip_memcpy_2d (device, VH_HIP_COPY_HOST_TO_DEVICE, dst,
            frame_bytes, pinned[0], frame_bytes, frame_bytes, 1, &error))
      goto fail;
  }
  report ("memcpy + page-locked copy", n, frame_bytes, t0);

  if (width) {
    t0 = mark ();
    for (guint i = 0; i < n; i++)
      memcpy (pinned[i % 2], map + (gsize) i * frame_bytes, frame_bytes);
    report ("memcpy alone", n, frame_bytes, t0);

    t0 = mark ();
    if (!copy_staged_overlapped (device, dst, pinned, map, frame_bytes, n,
            FALSE, &error))
      goto fail;
    report ("memcpy, copy overlapped", n, frame_bytes, t0);

    /* the staging copy the uploads use: streaming stores */
    t0 = mark ();
    for (guint i = 0; i < n; i++)
      vh_hip_copy_to_staging (pinned[i % 2], map + (gsize) i * frame_bytes,
          frame_bytes);
    report ("staging copy alone", n, frame_bytes, t0);

    t0 = mark ();
    if (!copy_staged_overlapped (device, dst, pinned, map, frame_bytes, n,
            TRUE, &error))
      goto fail;
    report ("staging copy overlapped", n, frame_bytes, t0);

    stage_after_parse (map, frame_bytes, n, (gsize) width * height, pinned);
  }

  if (dst_pitched)
    vh_hip_free (device, dst_pitched);
  vh_hip_free (device, dst);
  vh_hip_host_free (device, pinned[0]);
  vh_hip_host_free (device, pinned[1]);
  munmap ((gpointer) map, file_bytes);
  close (fd);
  return 0;

fail:
  g_printerr ("error: %s\n", error->message);
  return 1;
}
