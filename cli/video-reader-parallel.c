/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* Reading a regular file on several threads: each takes a free picture,
 * then the next frame number, and reads that frame at its offset; the
 * caller takes the frames in order. A frame that is not whole and
 * well-formed as expected goes back to the sequential reader. */

#include "video-reader-private.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct
{
  VhVideoReader *reader;
  GThread *thread;
  guint8 *packed;               /* the frame as in the file, unless direct */
  gchar line[VH_Y4M_FRAME_LINE_MAX];
} Worker;

goffset
vh_reader_frame_offset (VhVideoReader * r, guint index)
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

/* Frame @index into @slot at its offset; what is not a whole, well-formed
 * frame of the expected layout goes to the sequential reader. */
static ReadResult *
worker_read (Worker * w, Slot * slot, guint index)
{
  VhVideoReader *r = w->reader;
  ReadResult *res = g_new0 (ReadResult, 1);
  goffset at = vh_reader_frame_offset (r, index);
  gint fd = fileno (r->file);
  VhPicture *pic;

  if (at == r->file_size) {
    /* The end, at a frame boundary. */
    vh_reader_give_back_slot (r, slot);
    return res;
  }
  res->sequential = TRUE;
  if (at + (goffset) (r->frame_line + r->frame_bytes) > r->file_size) {
    vh_reader_give_back_slot (r, slot);
    return res;
  }
  pic = vh_reader_wrap_slot (r, slot);
  if ((r->frame_line && (!read_at (fd, w->line, r->frame_line, at) ||
              !vh_y4m_frame_line_ok (w->line, r->frame_line))) ||
      !read_at (fd, r->direct ? slot->mem : w->packed, r->read_bytes,
          at + r->frame_line)) {
    vh_picture_unref (pic);
    return res;
  }
  if (!r->direct)
    vh_reader_unpack (r, pic, w->packed);
  vh_reader_to_host_order (pic);
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
    Slot *slot = vh_reader_take_slot (r);
    guint index;

    if (!slot)
      break;
    if (!reader_claim (r, &index)) {
      vh_reader_give_back_slot (r, slot);
      break;
    }
    reader_post (r, index, worker_read (w, slot, index));
  }
  return NULL;
}

/* Where frames start in a regular file, for reading them at their
 * offsets: right after the Y4M header, whose frame 0 must start with a
 * FRAME line (its length is every frame's). Anything else leaves
 * @file_size -1: read in sequence. */
void
vh_reader_find_frames (VhVideoReader * r)
{
  struct stat st;
  gchar line[VH_Y4M_FRAME_LINE_MAX];
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
    if (!end || !vh_y4m_frame_line_ok (line, end - line + 1))
      return;
    r->frame_line = end - line + 1;
  }
  r->file_size = st.st_size;
}

void
vh_reader_parallel_start (VhVideoReader * r, guint n)
{
  r->ready = g_hash_table_new_full (NULL, NULL, NULL,
      (GDestroyNotify) vh_reader_result_free);
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

void
vh_reader_parallel_stop (VhVideoReader * r)
{
  g_atomic_int_set (&r->stop, 1);
  vh_reader_wake (r, r->workers->len);
  for (guint i = 0; i < r->workers->len; i++) {
    Worker *w = g_ptr_array_index (r->workers, i);
    g_thread_join (w->thread);
    g_free (w->packed);
    g_free (w);
  }
  g_clear_pointer (&r->workers, g_ptr_array_unref);
  g_clear_pointer (&r->ready, g_hash_table_unref);
  vh_reader_drop_wake_ups (r);
  g_atomic_int_set (&r->stop, 0);
}

ReadResult *
vh_reader_parallel_next (VhVideoReader * r)
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

