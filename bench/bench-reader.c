/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* vmafhip-score's reader alone: how fast one file's frames come out of it,
 * whole and luma only, on 1 to MAX_THREADS reading threads, each the
 * best of RUNS runs (keep the file in the page cache to time the reading
 * rather than the disk).
 *
 *   bench/bench-reader FILE [WIDTH HEIGHT [MAX_THREADS [RUNS]]]
 *
 * Raw files are 8-bit 4:2:0 of WIDTH x HEIGHT (default 1920x1080); a .y4m
 * file brings its own geometry. Prints one line per setting: threads,
 * planes read, seconds, frames per second, GB/s read from the file. */

#include "video-reader.h"

#include <stdlib.h>

/* Bytes of a frame that are read: the luma, or every plane. */
static gsize
bytes_read (const VhPictureInfo * info, gboolean luma_only)
{
  gsize bps = info->bpc > 8 ? 2 : 1;
  gsize luma = (gsize) info->width * info->height * bps;
  guint ssx, ssy;

  vh_pix_fmt_subsampling (info->pix_fmt, &ssx, &ssy);
  if (luma_only || info->pix_fmt == VH_PIX_FMT_YUV400)
    return luma;
  return luma + 2 * (gsize) ((info->width + ssx) >> ssx) *
      ((info->height + ssy) >> ssy) * bps;
}

/* Reads @path to its end (its geometry in @info); returns the seconds it
 * took, or -1. */
static gdouble
read_file (const gchar * path, const VhPictureInfo * raw, guint n_threads,
    gboolean luma_only, guint * n_frames, VhPictureInfo * info)
{
  GError *error = NULL;
  VhVideoReader *reader = vh_video_reader_open (path, raw, &error);
  gint64 start = g_get_monotonic_time ();
  VhPicture *pic;

  if (!reader) {
    g_printerr ("%s\n", error->message);
    g_error_free (error);
    return -1;
  }
  *info = *vh_video_reader_get_info (reader);
  vh_video_reader_set_luma_only (reader, luma_only);
  vh_video_reader_set_threads (reader, n_threads);
  vh_video_reader_set_memory (reader, 2 + n_threads, NULL, NULL, NULL);
  *n_frames = 0;
  while ((pic = vh_video_reader_read (reader, &error))) {
    (*n_frames)++;
    vh_picture_unref (pic);
  }
  vh_video_reader_free (reader);
  if (error) {
    g_printerr ("%s\n", error->message);
    g_error_free (error);
    return -1;
  }
  return (g_get_monotonic_time () - start) / 1e6;
}

int
main (int argc, char **argv)
{
  VhPictureInfo raw, info;
  guint width = argc > 3 ? atoi (argv[2]) : 1920;
  guint height = argc > 3 ? atoi (argv[3]) : 1080;
  guint max_threads = argc > 4 ? atoi (argv[4]) : 4;
  guint runs = argc > 5 ? atoi (argv[5]) : 3;

  if (argc < 2 || !vh_picture_info_init (&raw, VH_PIX_FMT_YUV420, 8, width,
          height, NULL)) {
    g_printerr ("usage: %s FILE [WIDTH HEIGHT [MAX_THREADS [RUNS]]]\n",
        argv[0]);
    return 2;
  }
  info = raw;
  g_print ("threads planes   seconds      fps    GB/s\n");
  for (guint t = 1; t <= max_threads; t++) {
    for (guint luma = 0; luma < 2; luma++) {
      gdouble best = G_MAXDOUBLE;
      guint n = 0;
      for (guint r = 0; r < runs; r++) {
        gdouble secs = read_file (argv[1], &raw, t, luma, &n, &info);
        if (secs < 0)
          return 1;
        best = MIN (best, secs);
      }
      g_print ("%7u %6s %9.3f %8.0f %7.2f\n", t, luma ? "luma" : "all",
          best, n / best, n * bytes_read (&info, luma) / best / 1e9);
    }
  }
  return 0;
}
