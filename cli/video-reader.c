/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "video-reader.h"
#include "errors.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define Y4M_SIGNATURE "YUV4MPEG2"
#define PICTURE_ALIGN 64
/* Longest FRAME line read (its parameters included). */
#define FRAME_LINE_MAX 256
/* Reading from the page cache is a copy at a few GB/s per thread: one
 * thread per this many bytes read per frame, up to MAX_READ_THREADS
 * (beyond that the copies meet the memory's own limit). */
#define BYTES_PER_READ_THREAD (512 * 1024)
#define MAX_READ_THREADS 4

/* The reused pictures' memory, shared by the reader and the pictures that
 * are out: the last of them frees it. */
typedef struct
{
  gint ref_count;               /* the reader's, and one per picture out */
  GAsyncQueue *idle;            /* Slot*, ready for the next frame */
  VhVideoReaderMemoryFuncs funcs;
  gpointer user_data;
  GDestroyNotify notify;
} Slots;

typedef struct
{
  Slots *slots;
  guint8 *mem;
} Slot;

/* What a reading thread hands over: a picture, an error, or (both NULL)
 * the end of the file; from the parallel threads, @sequential instead
 * says that this frame is for the sequential reader (a short or malformed
 * frame, or a FRAME line of another length), which reads it again and
 * says what is wrong with it as it always does. */
typedef struct
{
  VhPicture *pic;
  GError *error;
  gboolean sequential;
} ReadResult;

typedef struct _Worker Worker;

struct _VhVideoReader
{
  gchar *path;
  FILE *file;
  gboolean y4m;
  VhPictureInfo info;
  guint n_read;                 /* by the sequential thread */
  guint n_returned;
  gboolean luma_only;
  guint n_threads;              /* asked for; 0: automatic */

  /* The pictures' layout: the planes read (the luma alone, or all) one
   * after the other, rows PICTURE_ALIGN bytes apart; when that is also
   * the file's layout, frames are read straight into them, else through
   * a packed buffer. */
  guint n_planes_read;
  gsize stride[3];
  gsize offset[3];
  gsize picture_bytes;
  gsize frame_bytes;            /* in the file */
  gsize read_bytes;             /* of those, what is read */
  gboolean direct;
  guint8 *packed;               /* the sequential thread's: a whole frame */

  /* A regular file: frame i at first_frame + i * (frame_line +
   * frame_bytes), frame_line being the length of frame 0's FRAME line
   * (0 for raw). */
  goffset file_size;            /* -1: not a regular file */
  goffset first_frame;
  gsize frame_line;

  guint max_frames;
  guint n_slots;
  Slots *slots;
  gint stop;
  gboolean started;
  gboolean ended;

  /* The sequential thread. */
  GThread *thread;
  GAsyncQueue *results;         /* ReadResult* */

  /* The parallel threads: each takes a slot, then the next frame index,
   * and leaves the frame in @ready, where the caller waits for the
   * frames in order. Taking the slot first means that a frame waited for
   * always has one. */
  GPtrArray *workers;           /* Worker*, NULL when none run */
  GMutex lock;                  /* the fields below, and n_slots */
  GCond cond;
  guint next_index;
  guint index_limit;            /* no frame from here on is read */
  GHashTable *ready;            /* index -> ReadResult* */
};

struct _Worker
{
  VhVideoReader *reader;
  GThread *thread;
  guint8 *packed;               /* the frame as in the file, unless direct */
  gchar line[FRAME_LINE_MAX];
};

/* Wakes the read-ahead thread when it waits for an idle slot. */
static Slot wake_up;

static gboolean
y4m_parse_colorspace (const gchar * tag, VhPixFmt * fmt, guint * bpc)
{
  static const struct
  {
    const gchar *prefix;
    VhPixFmt fmt;
  } layouts[] = {
    {"420", VH_PIX_FMT_YUV420}, {"422", VH_PIX_FMT_YUV422},
    {"444", VH_PIX_FMT_YUV444}, {"mono", VH_PIX_FMT_YUV400},
  };

  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++) {
    gsize n = strlen (layouts[i].prefix);
    const gchar *rest = tag + n;
    if (strncmp (tag, layouts[i].prefix, n))
      continue;
    *fmt = layouts[i].fmt;
    *bpc = 8;
    /* 420jpeg, 420mpeg2 and 420paldv only differ in chroma siting. */
    if (*rest == 'p')
      rest++;
    else if (!g_str_has_prefix (tag, "mono"))
      return TRUE;
    if (*rest) {
      guint64 v;
      /* Strictly digits: "p1x" or "p99999999999" are no bit depth. */
      if (!g_ascii_string_to_unsigned (rest, 10, 1, 16, &v, NULL))
        return FALSE;
      *bpc = (guint) v;
    }
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
              "%s: unsupported Y4M colour space '%s'", r->path, t + 1);
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

/* An idle slot, a new one while fewer than max_frames exist, else the
 * next one released; NULL when told to stop or on an allocation error. */
static Slot *
reader_take_slot (VhVideoReader * r, GError ** error)
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

/* A picture of @slot's memory, holding the slot until it is released;
 * without chroma when only the luma is read. */
static VhPicture *
reader_wrap_slot (VhVideoReader * r, Slot * slot)
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

/* Unpacks the planes read, packed at @src as in the file, into the
 * picture's padded rows. */
static void
reader_unpack (VhVideoReader * r, const VhPicture * pic, const guint8 * src)
{
  gsize bps = r->info.bpc > 8 ? 2 : 1;

  for (guint p = 0; p < pic->n_planes; p++) {
    gsize row = pic->width[p] * bps;
    for (guint y = 0; y < pic->height[p]; y++, src += row)
      memcpy (vh_picture_row (pic, p, y), src, row);
  }
}

/* Samples above 8 bit are little-endian in the file. */
static void
reader_to_host_order (const VhPicture * pic)
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

  slot = reader_take_slot (r, error);
  if (!slot)
    return NULL;
  pic = reader_wrap_slot (r, slot);
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
    reader_unpack (r, pic, r->packed);
  reader_to_host_order (pic);
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

static void
read_result_free (ReadResult * res)
{
  vh_picture_unref (res->pic);
  g_clear_error (&res->error);
  g_free (res);
}

/* Where frame @index starts (its FRAME line in Y4M). */
static goffset
frame_offset (VhVideoReader * r, guint index)
{
  return r->first_frame + (goffset) index * (r->frame_line + r->frame_bytes);
}

/* Reads @n bytes at @offset: FALSE on an error or a short read. */
static gboolean
read_at (gint fd, gpointer buf, gsize n, goffset offset)
{
  guint8 *p = buf;

  while (n > 0) {
    ssize_t got = pread (fd, p, n, offset);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      return FALSE;
    p += got;
    n -= got;
    offset += got;
  }
  return TRUE;
}

/* A FRAME line of frame 0's length: "FRAME", maybe parameters, and its
 * end of line at the end, not before (nor a NUL, where the sequential
 * reader's line would end). */
static gboolean
frame_line_ok (const gchar * line, gsize len)
{
  return !strncmp (line, "FRAME", 5) && line[len - 1] == '\n' &&
      !memchr (line, '\n', len - 1) && strnlen (line, len) == len;
}

/* Frame @index into @slot at its offset; what is not a whole, well-formed
 * frame of the expected layout goes to the sequential reader. */
static ReadResult *
worker_read (Worker * w, Slot * slot, guint index)
{
  VhVideoReader *r = w->reader;
  ReadResult *res = g_new0 (ReadResult, 1);
  goffset at = frame_offset (r, index);
  gint fd = fileno (r->file);
  VhPicture *pic;

  if (at == r->file_size) {
    /* The end, at a frame boundary. */
    g_async_queue_push (r->slots->idle, slot);
    return res;
  }
  res->sequential = TRUE;
  if (at + (goffset) (r->frame_line + r->frame_bytes) > r->file_size) {
    g_async_queue_push (r->slots->idle, slot);
    return res;
  }
  pic = reader_wrap_slot (r, slot);
  if ((r->frame_line && (!read_at (fd, w->line, r->frame_line, at) ||
              !frame_line_ok (w->line, r->frame_line))) ||
      !read_at (fd, r->direct ? slot->mem : w->packed, r->read_bytes,
          at + r->frame_line)) {
    vh_picture_unref (pic);
    return res;
  }
  if (!r->direct)
    reader_unpack (r, pic, w->packed);
  reader_to_host_order (pic);
  res->sequential = FALSE;
  res->pic = pic;
  return res;
}

/* The next frame index to read, unless told to stop or past the end. */
static gboolean
reader_claim (VhVideoReader * r, guint * index)
{
  gboolean ok;

  g_mutex_lock (&r->lock);
  ok = !g_atomic_int_get (&r->stop) && r->next_index < r->index_limit;
  if (ok)
    *index = r->next_index++;
  g_mutex_unlock (&r->lock);
  return ok;
}

/* Hands frame @index over; no frame after one that is not a picture is
 * read. */
static void
reader_post (VhVideoReader * r, guint index, ReadResult * res)
{
  g_mutex_lock (&r->lock);
  g_hash_table_insert (r->ready, GUINT_TO_POINTER (index), res);
  if (!res->pic)
    r->index_limit = MIN (r->index_limit, index + 1);
  g_cond_broadcast (&r->cond);
  g_mutex_unlock (&r->lock);
}

static gpointer
worker_thread (gpointer data)
{
  Worker *w = data;
  VhVideoReader *r = w->reader;

  for (;;) {
    GError *error = NULL;
    Slot *slot = reader_take_slot (r, &error);
    ReadResult *res;
    guint index;

    if (!slot && !error)
      break;
    if (!reader_claim (r, &index)) {
      if (slot)
        g_async_queue_push (r->slots->idle, slot);
      g_clear_error (&error);
      break;
    }
    if (slot) {
      res = worker_read (w, slot, index);
    } else {
      res = g_new0 (ReadResult, 1);
      res->error = error;
    }
    reader_post (r, index, res);
  }
  return NULL;
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

/* A raw file shorter than one frame of the size given (-w 32768 -h 32768
 * on a 1 MB file) is said before anything is allocated for its frames.
 * Pipes are read as they come. */
static gboolean
check_file_size (VhVideoReader * r, const VhPictureInfo * raw_info,
    GError ** error)
{
  struct stat st;

  if (fstat (fileno (r->file), &st) != 0 || !S_ISREG (st.st_mode))
    return TRUE;
  if (!r->y4m && raw_info && (guint64) st.st_size < raw_frame_bytes (raw_info)) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "%s holds %" G_GUINT64_FORMAT
        " bytes, less than one %ux%u %s %u-bit frame (%" G_GUINT64_FORMAT
        " bytes): are -w, -h, -p and -b right?", r->path,
        (guint64) st.st_size, raw_info->width, raw_info->height,
        vh_pix_fmt_to_string (raw_info->pix_fmt), raw_info->bpc,
        raw_frame_bytes (raw_info));
    return FALSE;
  }
  return TRUE;
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

/* Where frames start in a regular file, for reading them at their
 * offsets: right after the Y4M header, whose frame 0 must start with a
 * FRAME line (its length is every frame's). Anything else leaves
 * @file_size -1: read in sequence. */
static void
reader_find_frames (VhVideoReader * r)
{
  struct stat st;
  gchar line[FRAME_LINE_MAX];
  const gchar *end;
  ssize_t got;

  r->file_size = -1;
  if (fstat (fileno (r->file), &st) != 0 || !S_ISREG (st.st_mode))
    return;
  r->first_frame = ftello (r->file);
  if (r->first_frame < 0)
    return;
  r->frame_line = 0;
  if (r->y4m) {
    got = pread (fileno (r->file), line, sizeof (line), r->first_frame);
    end = got > 0 ? memchr (line, '\n', got) : NULL;
    if (!end || !frame_line_ok (line, end - line + 1))
      return;
    r->frame_line = end - line + 1;
  }
  r->file_size = st.st_size;
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
  r->y4m = g_str_has_suffix (path, ".y4m") ||
      !memcmp (sig, Y4M_SIGNATURE, sizeof (sig));
  if (!check_file_size (r, raw_info, error)) {
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
        "%s: raw YUV needs a width, height, pixel format and bit depth",
        path);
    vh_video_reader_free (r);
    return NULL;
  }
  r->max_frames = 8;
  reader_init_layout (r);
  reader_find_frames (r);
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

static void
reader_start_workers (VhVideoReader * r, guint n)
{
  r->ready = g_hash_table_new_full (NULL, NULL, NULL,
      (GDestroyNotify) read_result_free);
  r->next_index = 0;
  r->index_limit = G_MAXUINT;
  r->workers = g_ptr_array_new ();
  for (guint i = 0; i < n; i++) {
    Worker *w = g_new0 (Worker, 1);
    w->reader = r;
    if (!r->direct)
      w->packed = g_malloc (r->read_bytes);
    w->thread = g_thread_new ("vh-reader", worker_thread, w);
    g_ptr_array_add (r->workers, w);
  }
}

/* Stops and joins the parallel threads; frames they read ahead are
 * dropped (their slots go back), and the slots are ready for the
 * sequential thread. */
static void
reader_stop_workers (VhVideoReader * r)
{
  GQueue kept = G_QUEUE_INIT;
  Slot *slot;

  g_atomic_int_set (&r->stop, 1);
  for (guint i = 0; i < r->workers->len; i++)
    g_async_queue_push (r->slots->idle, &wake_up);
  for (guint i = 0; i < r->workers->len; i++) {
    Worker *w = g_ptr_array_index (r->workers, i);
    g_thread_join (w->thread);
    g_free (w->packed);
    g_free (w);
  }
  g_clear_pointer (&r->workers, g_ptr_array_unref);
  g_clear_pointer (&r->ready, g_hash_table_unref);
  /* Wake-ups that no thread took would stop the next one. */
  while ((slot = g_async_queue_try_pop (r->slots->idle)))
    if (slot != &wake_up)
      g_queue_push_tail (&kept, slot);
  while ((slot = g_queue_pop_head (&kept)))
    g_async_queue_push (r->slots->idle, slot);
  g_atomic_int_set (&r->stop, 0);
}

/* From frame n_returned on, one thread reads in sequence. */
static void
reader_go_sequential (VhVideoReader * r)
{
  reader_stop_workers (r);
  r->n_read = r->n_returned;
  if (fseeko (r->file, frame_offset (r, r->n_read), SEEK_SET) != 0) {
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
    reader_start_workers (r, vh_video_reader_get_threads (r));
}

/* The parallel threads' frame n_returned, once it is read. */
static ReadResult *
reader_next_ready (VhVideoReader * r)
{
  gpointer key = GUINT_TO_POINTER (r->n_returned);
  ReadResult *res;

  g_mutex_lock (&r->lock);
  while (!g_hash_table_steal_extended (r->ready, key, NULL,
          (gpointer *) & res))
    g_cond_wait (&r->cond, &r->lock);
  g_mutex_unlock (&r->lock);
  return res;
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
    res = reader_next_ready (reader);
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
    reader_stop_workers (reader);
  if (reader->thread) {
    g_atomic_int_set (&reader->stop, 1);
    g_async_queue_push (reader->slots->idle, &wake_up);
    g_thread_join (reader->thread);
  }
  if (reader->results) {
    while ((res = g_async_queue_try_pop (reader->results)))
      read_result_free (res);
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
