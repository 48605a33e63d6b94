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
#include "feature-colorimetry.h"
#include "picture.h"

G_BEGIN_DECLS

/* Reads raw planar YUV (geometry given by the caller, chroma in the
 * standard ceil(W/2) layout, little-endian samples above 8 bit) or Y4M
 * (geometry from its header). Frames are read ahead, each with one read
 * (two for Y4M: its FRAME line, then the samples), into a small set of
 * pictures that are reused once the caller and the engine let go of
 * them: nothing frame-sized is allocated per frame. A regular file is
 * read by a few threads at once, each frame at its computed offset, and
 * handed out in order; a pipe, and a Y4M file from its first frame whose
 * FRAME line differs in length from the first one's, on one thread in
 * sequence. Errors name the frame either way. */
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

/* @raw_info describes raw input and may be NULL for Y4M. An input that
 * starts with the YUV4MPEG2 signature is Y4M, whatever its name (a pipe,
 * /dev/stdin, "-" for the standard input): the signature is peeked, and
 * only a regular file is ever seeked. One named .y4m without it is an
 * error. */
VhVideoReader *vh_video_reader_open      (const gchar * path,
                                          const VhPictureInfo * raw_info,
                                          GError ** error);

/* "-": the standard input. */
gboolean     vh_video_reader_path_is_stdin (const gchar * path);

const VhPictureInfo *vh_video_reader_get_info (VhVideoReader * reader);

/* What the Y4M header says of the colorimetry (its range, with ffmpeg's
 * XCOLORRANGE); all UNKNOWN for raw YUV. */
const VhColorimetry *vh_video_reader_get_colorimetry (VhVideoReader * reader);

/* Before the first read: at most @max_frames pictures are out at once
 * (read ahead, being read, or still held; default 8, at least 2), their
 * memory from @funcs (NULL: the heap). Give each reading thread one
 * beyond what the caller holds, or the threads wait for one another. */
void         vh_video_reader_set_memory  (VhVideoReader * reader,
                                          guint max_frames,
                                          const VhVideoReaderMemoryFuncs * funcs,
                                          gpointer user_data,
                                          GDestroyNotify notify);

/* Before the first read: read the luma plane only, skipping the chroma
 * in the file, and hand out pictures without chroma
 * (vh_picture_drop_chroma()), for an engine whose features never read
 * it (vh_context_reads_chroma()). */
void         vh_video_reader_set_luma_only (VhVideoReader * reader,
                                          gboolean luma_only);

/* Before the first read: how many threads read a regular file at once;
 * 0 (the default) sizes it by the bytes read per frame and the cores
 * (vh_video_reader_get_threads()). */
void         vh_video_reader_set_threads (VhVideoReader * reader,
                                          guint n_threads);

/* The threads that will read: for 0 above, one per 512 KiB read per
 * frame, at most 4 and at most half the cores (the two inputs of a
 * scoring are read at once), at least 1; 1 for a pipe. */
guint        vh_video_reader_get_threads (VhVideoReader * reader);

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
