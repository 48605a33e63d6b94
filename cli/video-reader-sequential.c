/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* Reading in sequence on one thread: a pipe, or a file from the first
 * frame the parallel readers could not take. Each frame's FRAME line
 * (Y4M) and samples are read with stdio, and every error names the
 * frame. */

#include "video-reader-private.h"
#include "errors.h"

#include <string.h>

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
    gchar line[VH_Y4M_FRAME_LINE_MAX];
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

  slot = vh_reader_take_slot (r);
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
vh_reader_sequential_start (VhVideoReader * r)
{
  r->thread = g_thread_new ("vh-reader", reader_thread, r);
}

void
vh_reader_sequential_stop (VhVideoReader * r)
{
  g_atomic_int_set (&r->stop, 1);
  vh_reader_wake (r, 1);
  g_thread_join (r->thread);
  r->thread = NULL;
}
