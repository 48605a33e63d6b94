/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "video-reader-private.h"
#include "errors.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reading from the page cache is a copy at a few GB/s per thread: one
 * thread per this many bytes read per frame, up to MAX_READ_THREADS
 * (beyond that the copies meet the memory's own limit). */
#define BYTES_PER_READ_THREAD (512 * 1024)
#define MAX_READ_THREADS 4

static void
reader_init_layout (VhVideoReader * r)
{
  g_autoptr (VhPicture) geometry = vh_picture_new_wrapped (&r->info,
      (gpointer[3]) { NULL, NULL, NULL}, (gsize[3]) { 0, 0, 0}, NULL,
      VH_MEMORY_HOST, NULL, NULL);
  gsize bps = r->info.bpc > 8 ? 2 : 1;

  r->n_planes_read = r->luma_only ? 1 : geometry->n_planes;
  r->direct = TRUE;
  r->picture_bytes = r->frame_bytes = r->read_bytes = 0;
  memset (r->stride, 0, sizeof (r->stride));
  memset (r->offset, 0, sizeof (r->offset));
  for (guint p = 0; p < geometry->n_planes; p++) {
    gsize row = geometry->width[p] * bps;
    r->frame_bytes += row * geometry->height[p];
    if (p >= r->n_planes_read)
      continue;
    r->stride[p] = (row + PICTURE_ALIGN - 1) / PICTURE_ALIGN * PICTURE_ALIGN;
    r->offset[p] = r->picture_bytes;
    r->picture_bytes += r->stride[p] * geometry->height[p];
    r->read_bytes += row * geometry->height[p];
    r->direct &= r->stride[p] == row;
  }
}

/* Bytes of one raw frame in the file. */
static guint64
raw_frame_bytes (const VhPictureInfo * info)
{
  guint ssx, ssy;
  guint64 luma = (guint64) info->width * info->height;
  guint64 chroma;

  vh_pix_fmt_subsampling (info->pix_fmt, &ssx, &ssy);
  chroma = (guint64) ((info->width + (1u << ssx) - 1) >> ssx) *
      ((info->height + (1u << ssy) - 1) >> ssy);
  return (luma + (vh_pix_fmt_n_planes (info->pix_fmt) > 1 ? 2 * chroma : 0))
      * (info->bpc > 8 ? 2 : 1);
}

/* What is not a video file is said with its name before anything is read
 * from it: a directory, or a character device (/dev/null reads as empty
 * and /dev/zero as endless black: neither is a clip, and the scoring would
 * only say "no frames" or never end). */
static gboolean
check_file_kind (VhVideoReader * r, GError ** error)
{
  struct stat st;

  if (fstat (fileno (r->file), &st) != 0)
    return TRUE;
  if (S_ISDIR (st.st_mode)) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "%s is a directory",
        r->path);
    return FALSE;
  }
  if (S_ISCHR (st.st_mode)) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "%s is a character device, "
        "not a regular file or pipe holding video", r->path);
    return FALSE;
  }
  return TRUE;
}

/* A file shorter than one frame of its size (-w 32768 -h 32768 on a 1 MB
 * raw file, or a 4 KB Y4M file whose header says 32768x32768) is said
 * before anything is allocated for its frames. Pipes are read as they
 * come. Called once the geometry is known (after a Y4M header). */
static gboolean
check_file_size (VhVideoReader * r, GError ** error)
{
  guint64 frame = raw_frame_bytes (&r->info);
  guint64 available;
  struct stat st;
  goffset data_start = 0;

  if (fstat (fileno (r->file), &st) != 0 || !S_ISREG (st.st_mode))
    return TRUE;
  if (r->y4m && (data_start = ftello (r->file)) < 0)
    return TRUE;
  available = (guint64) MAX (st.st_size - data_start, 0);
  /* A Y4M frame also has its FRAME line, at least "FRAME\n". */
  if (available >= frame + (r->y4m ? 6 : 0))
    return TRUE;
  if (r->y4m)
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "%s holds %" G_GUINT64_FORMAT
        " bytes after its Y4M header, less than one %ux%u %s %u-bit frame "
        "(%" G_GUINT64_FORMAT " bytes and its FRAME line): is the header "
        "right?", r->path, available, r->info.width, r->info.height,
        vh_pix_fmt_to_string (r->info.pix_fmt), r->info.bpc, frame);
  else
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "%s holds %" G_GUINT64_FORMAT
        " bytes, less than one %ux%u %s %u-bit frame (%" G_GUINT64_FORMAT
        " bytes): are -w, -h, -p and -b right?", r->path, available,
        r->info.width, r->info.height, vh_pix_fmt_to_string
        (r->info.pix_fmt), r->info.bpc, frame);
  return FALSE;
}

/* Reads the first bytes to tell Y4M from raw, and puts them back: a
 * regular file is rewound; anything else (a pipe, a FIFO, a socket) is
 * never seeked, the bytes are pushed back instead (raw frames read from a
 * pipe were 9 bytes off). An input that gives no byte at all is said to
 * be empty here, with its name. */
static gboolean
peek_signature (VhVideoReader * r, gchar * sig, GError ** error)
{
  gsize n = fread (sig, 1, sizeof (VH_Y4M_SIGNATURE) - 1, r->file);
  struct stat st;

  if (n == 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "%s is empty%s", r->path,
        ferror (r->file) ? " (unreadable)" : ": it ended before any data");
    return FALSE;
  }
  if (n < sizeof (VH_Y4M_SIGNATURE) - 1)
    memset (sig + n, 0, sizeof (VH_Y4M_SIGNATURE) - 1 - n);
  if (fstat (fileno (r->file), &st) == 0 && S_ISREG (st.st_mode) &&
      fseek (r->file, 0, SEEK_SET) == 0)
    return TRUE;
  clearerr (r->file);
  /* glibc keeps any number of pushed-back bytes (C promises one). */
  while (n > 0) {
    if (ungetc ((guchar) sig[--n], r->file) == EOF) {
      g_set_error (error, VH_ERROR, VH_ERROR_IO, "%s: cannot put back the "
          "first bytes read from a pipe", r->path);
      return FALSE;
    }
  }
  return TRUE;
}

VhVideoReader *
vh_video_reader_open (const gchar * path, const VhPictureInfo * raw_info,
    GError ** error)
{
  VhVideoReader *r = g_new0 (VhVideoReader, 1);
  gchar sig[sizeof (VH_Y4M_SIGNATURE) - 1];

  g_mutex_init (&r->lock);
  g_cond_init (&r->cond);
  if (vh_video_reader_path_is_stdin (path)) {
    gint fd = dup (STDIN_FILENO);

    /* "-": the standard input, as libvmaf's tool and ffmpeg take it; a
     * copy of the descriptor, so that closing the reader leaves fd 0. */
    r->path = g_strdup ("the standard input (-)");
    r->file = fd >= 0 ? fdopen (fd, "rb") : NULL;
    if (!r->file && fd >= 0)
      close (fd);
  } else {
    r->path = g_strdup (path);
    r->file = fopen (path, "rb");
  }
  if (!r->file) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "cannot open %s: %s", r->path,
        g_strerror (errno));
    vh_video_reader_free (r);
    return NULL;
  }
  if (!check_file_kind (r, error) || !peek_signature (r, sig, error)) {
    vh_video_reader_free (r);
    return NULL;
  }
  /* Told by the signature alone: a pipe has no name to go by. */
  r->y4m = !memcmp (sig, VH_Y4M_SIGNATURE, sizeof (sig));
  if (!r->y4m && g_str_has_suffix (path, ".y4m")) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "%s is named .y4m but does not start with the Y4M signature "
        "(YUV4MPEG2)", path);
    vh_video_reader_free (r);
    return NULL;
  }
  if (r->y4m) {
    if (!vh_y4m_read_header (r->file, r->path, &r->info, &r->color,
            error)) {
      vh_video_reader_free (r);
      return NULL;
    }
  } else if (raw_info) {
    r->info = *raw_info;
  } else {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "%s has no Y4M header (YUV4MPEG2): as raw YUV it needs a width, "
        "height, pixel format and bit depth (-w, -h, -p and -b)", path);
    vh_video_reader_free (r);
    return NULL;
  }
  if (!check_file_size (r, error)) {
    vh_video_reader_free (r);
    return NULL;
  }
  r->max_frames = 8;
  reader_init_layout (r);
  vh_reader_find_frames (r);
  return r;
}

gboolean
vh_video_reader_path_is_stdin (const gchar * path)
{
  return !g_strcmp0 (path, "-");
}

const VhPictureInfo *
vh_video_reader_get_info (VhVideoReader * reader)
{
  return &reader->info;
}

const VhColorimetry *
vh_video_reader_get_colorimetry (VhVideoReader * reader)
{
  return &reader->color;
}

void
vh_video_reader_set_memory (VhVideoReader * reader, guint max_frames,
    const VhVideoReaderMemoryFuncs * funcs, gpointer user_data,
    GDestroyNotify notify)
{
  g_return_if_fail (reader->slots == NULL);
  reader->max_frames = MAX (max_frames, 2);
  reader->slots = vh_reader_slots_new (funcs, user_data, notify);
}

void
vh_video_reader_set_luma_only (VhVideoReader * reader, gboolean luma_only)
{
  g_return_if_fail (!reader->started);
  reader->luma_only = luma_only;
  reader_init_layout (reader);
}

void
vh_video_reader_set_threads (VhVideoReader * reader, guint n_threads)
{
  g_return_if_fail (!reader->started);
  reader->n_threads = n_threads;
}

guint
vh_video_reader_get_threads (VhVideoReader * reader)
{
  guint n;

  if (reader->file_size < 0)
    return 1;
  if (reader->n_threads)
    return reader->n_threads;
  n = MIN (MAX_READ_THREADS, g_get_num_processors () / 2);
  return CLAMP (reader->read_bytes / BYTES_PER_READ_THREAD, 1, MAX (n, 1));
}

guint
vh_video_reader_n_read (VhVideoReader * reader)
{
  return reader->n_returned;
}

/* From frame n_returned on, one thread reads in sequence. */
static void
reader_go_sequential (VhVideoReader * r)
{
  vh_reader_parallel_stop (r);
  r->n_read = r->n_returned;
  if (fseeko (r->file, vh_reader_frame_offset (r, r->n_read), SEEK_SET) != 0) {
    ReadResult *res = g_new0 (ReadResult, 1);
    g_set_error (&res->error, VH_ERROR, VH_ERROR_IO, "%s: cannot seek to "
        "frame %u: %s", r->path, r->n_read, g_strerror (errno));
    g_async_queue_push (r->results, res);
    return;
  }
  vh_reader_sequential_start (r);
}

static void
reader_start (VhVideoReader * r)
{
  if (!r->slots)
    r->slots = vh_reader_slots_new (NULL, NULL, NULL);
  r->results = g_async_queue_new ();
  r->started = TRUE;
  if (r->file_size < 0)
    vh_reader_sequential_start (r);
  else
    vh_reader_parallel_start (r, vh_video_reader_get_threads (r));
}

VhPicture *
vh_video_reader_read (VhVideoReader * reader, GError ** error)
{
  ReadResult *res;
  VhPicture *pic;

  if (reader->ended)
    return NULL;
  if (!reader->started)
    reader_start (reader);
  if (reader->workers) {
    res = vh_reader_parallel_next (reader);
    if (res->sequential) {
      g_free (res);
      reader_go_sequential (reader);
    }
  }
  if (!reader->workers)
    res = g_async_queue_pop (reader->results);
  pic = res->pic;
  if (!pic) {
    reader->ended = TRUE;
    if (res->error)
      g_propagate_error (error, res->error);
  } else {
    reader->n_returned++;
  }
  g_free (res);
  return pic;
}

void
vh_video_reader_free (VhVideoReader * reader)
{
  ReadResult *res;

  if (!reader)
    return;
  if (reader->workers)
    vh_reader_parallel_stop (reader);
  if (reader->thread)
    vh_reader_sequential_stop (reader);
  if (reader->results) {
    while ((res = g_async_queue_try_pop (reader->results)))
      vh_reader_result_free (res);
    g_async_queue_unref (reader->results);
  }
  if (reader->slots)
    vh_reader_slots_unref (reader->slots);
  if (reader->file)
    fclose (reader->file);
  g_free (reader->packed);
  g_free (reader->path);
  g_mutex_clear (&reader->lock);
  g_cond_clear (&reader->cond);
  g_free (reader);
}
