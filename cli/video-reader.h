/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __VH_VIDEO_READER_H__
#define __VH_VIDEO_READER_H__

#include <glib.h>
#include "picture.h"

G_BEGIN_DECLS

/* Reads raw planar YUV (geometry given by the caller, chroma in the
 * standard ceil(W/2) layout, little-endian samples above 8 bit) or Y4M
 * (geometry from its header). Frames are read ahead on the reader's own
 * thread, each with one read, into a small set of pictures that are
 * reused once the caller and the engine let go of them: nothing
 * frame-sized is allocated per frame. */
typedef struct _VhVideoReader VhVideoReader;

/* Where the reused pictures' memory comes from (page-locked memory, say,
 * so that uploads to a GPU need no staging); @user_data is given back to
 * both and freed with @notify once the last picture is gone. */
typedef struct
{
  gpointer (*alloc) (gsize size, gpointer user_data, GError ** error);
  void (*free) (gpointer mem, gpointer user_data);
  gboolean page_locked;         /* marks the pictures (VhPicture) so */
} VhVideoReaderMemoryFuncs;

/* @raw_info describes .yuv input and may be NULL for Y4M. A file whose
 * name ends in .y4m, or that starts with the YUV4MPEG2 signature, is Y4M. */
VhVideoReader *vh_video_reader_open      (const gchar * path,
                                          const VhPictureInfo * raw_info,
                                          GError ** error);

const VhPictureInfo *vh_video_reader_get_info (VhVideoReader * reader);

/* Before the first read: at most @max_frames pictures are out at once
 * (read ahead or still held; default 8, at least 2), their memory from
 * @funcs (NULL: the heap). */
void         vh_video_reader_set_memory  (VhVideoReader * reader,
                                          guint max_frames,
                                          const VhVideoReaderMemoryFuncs * funcs,
                                          gpointer user_data,
                                          GDestroyNotify notify);

/* The next frame, or NULL: at a clean end of file with no error set, or
 * with an error for a short or malformed frame (naming the frame). The
 * first call starts the read-ahead thread. Waits while every picture is
 * out: release them (or let the engine) to go on. */
VhPicture   *vh_video_reader_read        (VhVideoReader * reader,
                                          GError ** error);

/* Frames read so far. */
guint        vh_video_reader_n_read      (VhVideoReader * reader);

void         vh_video_reader_free        (VhVideoReader * reader);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VhVideoReader, vh_video_reader_free)

G_END_DECLS

#endif /* __VH_VIDEO_READER_H__ */
