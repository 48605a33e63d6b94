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

#define Y4M_SIGNATURE "YUV4MPEG2"
/* Reading from the page cache is a copy at a few GB/s per thread: one
 * thread per this many bytes read per frame, up to MAX_READ_THREADS
 * (beyond that the copies meet the memory's own limit). */
#define BYTES_PER_READ_THREAD (512 * 1024)
#define MAX_READ_THREADS 4

/* Wakes a reading thread that waits for an idle slot: it stops. */
static Slot wake_up;

/* A Y4M colour space tag, matched whole: a layout, then either one of its
 * 8-bit siting suffixes or "p" and a bit depth in digits ("mono" takes
 * its depth with or without the "p": ffmpeg writes "mono16"). Anything
 * after that ("420xyz", "444alpha", "420p10x") is refused: read as its
 * prefix, a frame with an alpha plane would be read a plane off. */
static gboolean
y4m_parse_colorspace (const gchar * tag, VhPixFmt * fmt, guint * bpc)
{
  static const struct
  {
    const gchar *prefix;
    VhPixFmt fmt;
    /* Suffixes that only say how chroma is sited. */
    const gchar *siting[4];
  } layouts[] = {
    {"420", VH_PIX_FMT_YUV420, {"jpeg", "mpeg2", "paldv", NULL}},
    {"422", VH_PIX_FMT_YUV422, {"jpeg", NULL}},
    {"444", VH_PIX_FMT_YUV444, {NULL}},
    {"mono", VH_PIX_FMT_YUV400, {NULL}},
  };

  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++) {
    gsize n = strlen (layouts[i].prefix);
    const gchar *rest = tag + n;
    guint64 v;

    if (strncmp (tag, layouts[i].prefix, n))
      continue;
    *fmt = layouts[i].fmt;
    *bpc = 8;
    if (*rest == '\0')
      return TRUE;
    for (guint k = 0; layouts[i].siting[k]; k++)
      if (!strcmp (rest, layouts[i].siting[k]))
        return TRUE;
    if (*rest == 'p')
      rest++;
    else if (layouts[i].fmt != VH_PIX_FMT_YUV400)
      return FALSE;
    /* Strictly digits: "p1x" or "p99999999999" are no bit depth. */
    if (!g_ascii_string_to_unsigned (rest, 10, 1, 16, &v, NULL))
      return FALSE;
    *bpc = (guint) v;
    return TRUE;
  }
  return FALSE;
}

static gboolean
y4m_read_header (VhVideoReader * r, GError ** error)
{
  gchar line[1024] = "";
  gchar **tokens;
  guint width = 0, height = 0, bpc = 8;
  VhPixFmt fmt = VH_PIX_FMT_YUV420;
  gboolean ok;

  if (!fgets (line, sizeof (line), r->file) || !strchr (line, '\n')) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO,
        "%s: the Y4M header %s", r->path, strlen (line) ==
        sizeof (line) - 1 ? "is longer than 1023 bytes" :
        "ends before its line does");
    return FALSE;
  }
  g_strchomp (line);
  tokens = g_strsplit (line, " ", -1);
  for (guint i = 1; tokens[i]; i++) {
    const gchar *t = tokens[i];
    guint64 v;

    switch (t[0]) {
      case 'W':
      case 'H':
        /* Strictly a number in range: atoi() read W4294967456 as 160. */
        if (!g_ascii_string_to_unsigned (t + 1, 10, 1, 32768, &v, NULL)) {
          g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
              "%s: Y4M %s '%s' is not a number from 1 to 32768", r->path,
              t[0] == 'W' ? "width" : "height", t + 1);
          g_strfreev (tokens);
          return FALSE;
        }
        *(t[0] == 'W' ? &width : &height) = (guint) v;
        break;
      case 'C':
        if (!y4m_parse_colorspace (t + 1, &fmt, &bpc)) {
          g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
              "%s: unsupported Y4M colour space '%s' (%s)", r->path, t + 1,
              !strcmp (t + 1, "444alpha") ? "4:4:4 with an alpha plane, "
              "which is not read" : "expected 420, 420jpeg, 420mpeg2, "
              "420paldv, 422, 444 or mono, or one with its bit depth as in "
              "420p10");
          g_strfreev (tokens);
          return FALSE;
        }
        break;
      default:
        break;
    }
  }
  g_strfreev (tokens);
  ok = vh_picture_info_init (&r->info, fmt, bpc, width, height, error);
  if (!ok)
    g_prefix_error (error, "%s: ", r->path);
  return ok;
}

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

static void
slot_free (Slot * slot)
{
  Slots *slots = slot->slots;

  if (slots->funcs.free)
    slots->funcs.free (slot->mem, slots->user_data);
  else
    g_aligned_free (slot->mem);
  g_free (slot);
}

static Slots *
slots_new (const VhVideoReaderMemoryFuncs * funcs, gpointer user_data,
    GDestroyNotify notify)
{
  Slots *slots = g_new0 (Slots, 1);

  slots->ref_count = 1;
  slots->idle = g_async_queue_new ();
  if (funcs)
    slots->funcs = *funcs;
  slots->user_data = user_data;
  slots->notify = notify;
  return slots;
}

static void
slots_unref (Slots * slots)
{
  Slot *slot;

  if (!g_atomic_int_dec_and_test (&slots->ref_count))
    return;
  while ((slot = g_async_queue_try_pop (slots->idle)))
    if (slot != &wake_up)
      slot_free (slot);
  g_async_queue_unref (slots->idle);
  if (slots->notify)
    slots->notify (slots->user_data);
  g_free (slots);
}

/* The picture is released: its slot is idle again. */
static void
slot_return (gpointer data)
{
  Slot *slot = data;
  Slots *slots = slot->slots;

  g_async_queue_push (slots->idle, slot);
  slots_unref (slots);
}

/* A new slot while fewer than max_frames exist, else NULL. */
static Slot *
reader_new_slot (VhVideoReader * r, GError ** error)
{
  Slots *slots = r->slots;
  Slot *slot;

  g_mutex_lock (&r->lock);
  if (r->n_slots >= r->max_frames) {
    g_mutex_unlock (&r->lock);
    return NULL;
  }
  slot = g_new0 (Slot, 1);
  slot->slots = slots;
  slot->mem = slots->funcs.alloc ?
      slots->funcs.alloc (r->picture_bytes, slots->user_data, error) :
      g_aligned_alloc (1, r->picture_bytes, PICTURE_ALIGN);
  if (slot->mem)
    r->n_slots++;
  g_mutex_unlock (&r->lock);
  if (!slot->mem) {
    g_free (slot);
    g_prefix_error (error, "%s: ", r->path);
    return NULL;
  }
  /* Rows are padded: keep the padding defined. */
  memset (slot->mem, 0, r->picture_bytes);
  return slot;
}

Slot *
vh_reader_take_slot (VhVideoReader * r, GError ** error)
{
  Slot *slot = g_async_queue_try_pop (r->slots->idle);

  if (!slot) {
    slot = reader_new_slot (r, error);
    if (!slot && error && *error)
      return NULL;
  }
  if (!slot)
    slot = g_async_queue_pop (r->slots->idle);
  if (slot == &wake_up || g_atomic_int_get (&r->stop)) {
    if (slot != &wake_up)
      g_async_queue_push (r->slots->idle, slot);
    return NULL;
  }
  return slot;
}

void
vh_reader_give_back_slot (VhVideoReader * r, Slot * slot)
{
  g_async_queue_push (r->slots->idle, slot);
}

void
vh_reader_wake (VhVideoReader * r, guint n)
{
  for (guint i = 0; i < n; i++)
    g_async_queue_push (r->slots->idle, &wake_up);
}

void
vh_reader_drop_wake_ups (VhVideoReader * r)
{
  GQueue kept = G_QUEUE_INIT;
  Slot *slot;

  while ((slot = g_async_queue_try_pop (r->slots->idle)))
    if (slot != &wake_up)
      g_queue_push_tail (&kept, slot);
  while ((slot = g_queue_pop_head (&kept)))
    g_async_queue_push (r->slots->idle, slot);
}

VhPicture *
vh_reader_wrap_slot (VhVideoReader * r, Slot * slot)
{
  gpointer data[3] = { NULL, NULL, NULL };
  VhPicture *pic;

  for (guint p = 0; p < r->n_planes_read; p++)
    data[p] = slot->mem + r->offset[p];
  /* The picture holds a reference to the slots until it is released. */
  g_atomic_int_inc (&r->slots->ref_count);
  pic = vh_picture_new_wrapped (&r->info, data, r->stride, NULL,
      VH_MEMORY_HOST, slot, slot_return);
  pic->page_locked = r->slots->funcs.page_locked;
  if (r->luma_only)
    vh_picture_drop_chroma (pic);
  return pic;
}

void
vh_reader_unpack (VhVideoReader * r, const VhPicture * pic, const guint8 * src)
{
  gsize bps = r->info.bpc > 8 ? 2 : 1;

  for (guint p = 0; p < pic->n_planes; p++) {
    gsize row = pic->width[p] * bps;
    for (guint y = 0; y < pic->height[p]; y++, src += row)
      memcpy (vh_picture_row (pic, p, y), src, row);
  }
}

void
vh_reader_to_host_order (const VhPicture * pic)
{
#if G_BYTE_ORDER != G_LITTLE_ENDIAN
  if (pic->info.bpc <= 8)
    return;
  for (guint p = 0; p < pic->n_planes; p++) {
    for (guint y = 0; y < pic->height[p]; y++) {
      guint16 *row = vh_picture_row (pic, p, y);
      for (guint x = 0; x < pic->width[p]; x++)
        row[x] = GUINT16_FROM_LE (row[x]);
    }
  }
#else
  (void) pic;
#endif
}

/* Reads the next frame in sequence: a picture, NULL at a clean end (no
 * error), or NULL with an error. The whole frame is read (a pipe cannot
 * skip), straight into the picture when the layouts agree. */
static VhPicture *
reader_read_frame (VhVideoReader * r, GError ** error)
{
  gboolean direct = r->direct && r->read_bytes == r->frame_bytes;
  VhPicture *pic;
  Slot *slot;
  gsize got;

  if (r->y4m) {
    gchar line[FRAME_LINE_MAX];
    if (!fgets (line, sizeof (line), r->file))
      return NULL;
    if (!g_str_has_prefix (line, "FRAME")) {
      g_set_error (error, VH_ERROR, VH_ERROR_IO,
          "%s: frame %u has no FRAME marker", r->path, r->n_read);
      return NULL;
    }
    /* The rest of a longer line would be read as samples. */
    if (!strchr (line, '\n')) {
      g_set_error (error, VH_ERROR, VH_ERROR_IO, "%s: the FRAME line of "
          "frame %u is %s", r->path, r->n_read,
          strlen (line) == sizeof (line) - 1 ? "longer than 255 bytes" :
          "cut short by the end of the file");
      return NULL;
    }
  } else {
    /* A clean end of file is not an error. */
    gint c = fgetc (r->file);
    if (c == EOF)
      return NULL;
    ungetc (c, r->file);
  }

  slot = vh_reader_take_slot (r, error);
  if (!slot)
    return NULL;
  pic = vh_reader_wrap_slot (r, slot);
  if (!direct && !r->packed)
    r->packed = g_malloc (r->frame_bytes);
  got = fread (direct ? slot->mem : r->packed, 1, r->frame_bytes, r->file);
  if (got != r->frame_bytes) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO,
        "%s ends in the middle of frame %u (%" G_GSIZE_FORMAT " of %"
        G_GSIZE_FORMAT " bytes)", r->path, r->n_read, got, r->frame_bytes);
    vh_picture_unref (pic);
    return NULL;
  }
  if (!direct)
    vh_reader_unpack (r, pic, r->packed);
  vh_reader_to_host_order (pic);
  r->n_read++;
  return pic;
}

static gpointer
reader_thread (gpointer data)
{
  VhVideoReader *r = data;
  gboolean more = TRUE;

  while (more) {
    ReadResult *res = g_new0 (ReadResult, 1);
    res->pic = reader_read_frame (r, &res->error);
    /* The reader owns @res once it is pushed. */
    more = res->pic != NULL;
    g_async_queue_push (r->results, res);
  }
  return NULL;
}

void
vh_reader_result_free (ReadResult * res)
{
  vh_picture_unref (res->pic);
  g_clear_error (&res->error);
  g_free (res);
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

/* Reads the first bytes to tell Y4M from raw, and puts them back: a pipe
 * cannot be rewound (raw frames read from one were 9 bytes off). An input
 * that gives no byte at all is said to be empty here, with its name. */
static gboolean
peek_signature (VhVideoReader * r, gchar * sig, GError ** error)
{
  gsize n = fread (sig, 1, sizeof (Y4M_SIGNATURE) - 1, r->file);

  if (n == 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "%s is empty%s", r->path,
        ferror (r->file) ? " (unreadable)" : ": it ended before any data");
    return FALSE;
  }
  if (n < sizeof (Y4M_SIGNATURE) - 1)
    memset (sig + n, 0, sizeof (Y4M_SIGNATURE) - 1 - n);
  if (fseek (r->file, 0, SEEK_SET) == 0)
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
  gchar sig[sizeof (Y4M_SIGNATURE) - 1];

  g_mutex_init (&r->lock);
  g_cond_init (&r->cond);
  r->path = g_strdup (path);
  r->file = fopen (path, "rb");
  if (!r->file) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "cannot open %s: %s", path,
        g_strerror (errno));
    vh_video_reader_free (r);
    return NULL;
  }
  if (!check_file_kind (r, error) || !peek_signature (r, sig, error)) {
    vh_video_reader_free (r);
    return NULL;
  }
  /* Told by the signature alone: a pipe has no name to go by. */
  r->y4m = !memcmp (sig, Y4M_SIGNATURE, sizeof (sig));
  if (!r->y4m && g_str_has_suffix (path, ".y4m")) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "%s is named .y4m but does not start with the Y4M signature "
        "(YUV4MPEG2)", path);
    vh_video_reader_free (r);
    return NULL;
  }
  if (r->y4m) {
    if (!y4m_read_header (r, error)) {
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

const VhPictureInfo *
vh_video_reader_get_info (VhVideoReader * reader)
{
  return &reader->info;
}

void
vh_video_reader_set_memory (VhVideoReader * reader, guint max_frames,
    const VhVideoReaderMemoryFuncs * funcs, gpointer user_data,
    GDestroyNotify notify)
{
  g_return_if_fail (reader->slots == NULL);
  reader->max_frames = MAX (max_frames, 2);
  reader->slots = slots_new (funcs, user_data, notify);
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

static void
reader_start_sequential (VhVideoReader * r)
{
  r->thread = g_thread_new ("vh-reader", reader_thread, r);
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
  reader_start_sequential (r);
}

static void
reader_start (VhVideoReader * r)
{
  if (!r->slots)
    r->slots = slots_new (NULL, NULL, NULL);
  r->results = g_async_queue_new ();
  r->started = TRUE;
  if (r->file_size < 0)
    reader_start_sequential (r);
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
  if (reader->thread) {
    g_atomic_int_set (&reader->stop, 1);
    vh_reader_wake (reader, 1);
    g_thread_join (reader->thread);
  }
  if (reader->results) {
    while ((res = g_async_queue_try_pop (reader->results)))
      vh_reader_result_free (res);
    g_async_queue_unref (reader->results);
  }
  if (reader->slots)
    slots_unref (reader->slots);
  if (reader->file)
    fclose (reader->file);
  g_free (reader->packed);
  g_free (reader->path);
  g_mutex_clear (&reader->lock);
  g_cond_clear (&reader->cond);
  g_free (reader);
}
