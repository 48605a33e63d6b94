/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __VH_VIDEO_READER_PRIVATE_H__
#define __VH_VIDEO_READER_PRIVATE_H__

/* What the reader's files share. video-reader.c (opening, the public
 * calls) drives video-reader-sequential.c (one thread, in order) and
 * video-reader-parallel.c (several threads at computed offsets); both
 * take their pictures from video-reader-slots.c. None calls back into
 * the file that drives it. Not for other users. */

#include "video-reader.h"
#include "y4m.h"

#include <stdio.h>

G_BEGIN_DECLS

#define PICTURE_ALIGN 64

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
  gboolean on_heap;             /* not from the funcs: their alloc failed */
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

struct _VhVideoReader
{
  gchar *path;
  FILE *file;
  gboolean y4m;
  VhPictureInfo info;
  VhColorimetry color;          /* the Y4M header's; raw: unknown */
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
  GPtrArray *workers;           /* their state, NULL when none run */
  GMutex lock;                  /* the fields below, and n_slots */
  GCond cond;
  guint next_index;
  guint index_limit;            /* no frame from here on is read */
  GHashTable *ready;            /* index -> ReadResult* */
};

/* video-reader-slots.c */

Slots       *vh_reader_slots_new         (const VhVideoReaderMemoryFuncs * funcs,
                                          gpointer user_data,
                                          GDestroyNotify notify);

/* The reader's reference; the last picture out drops the last one. */
void         vh_reader_slots_unref       (Slots * slots);

/* An idle slot, a new one while fewer than max_frames exist, else the
 * next one released; NULL when told to stop. */
Slot        *vh_reader_take_slot         (VhVideoReader * r);

/* Puts back a slot that holds no frame. */
void         vh_reader_give_back_slot    (VhVideoReader * r, Slot * slot);

/* Wakes @n threads waiting for a slot (or the next @n to ask): they
 * stop. */
void         vh_reader_wake              (VhVideoReader * r, guint n);

/* Takes back the wake-ups no thread took, before new threads start. */
void         vh_reader_drop_wake_ups     (VhVideoReader * r);

/* A picture of @slot's memory, holding the slot until it is released;
 * without chroma when only the luma is read. */
VhPicture   *vh_reader_wrap_slot         (VhVideoReader * r, Slot * slot);

/* Unpacks the planes read, packed at @src as in the file, into the
 * picture's padded rows. */
void         vh_reader_unpack            (VhVideoReader * r,
                                          const VhPicture * pic,
                                          const guint8 * src);

/* Samples above 8 bit are little-endian in the file. */
void         vh_reader_to_host_order     (const VhPicture * pic);

void         vh_reader_result_free       (ReadResult * res);

/* video-reader-sequential.c */

/* Starts the thread that reads from the file's position on, in order,
 * and pushes each frame (or the end, or an error) to @results. */
void         vh_reader_sequential_start  (VhVideoReader * r);

/* Stops and joins it. */
void         vh_reader_sequential_stop   (VhVideoReader * r);

/* video-reader-parallel.c */

/* Where frames start in a regular file, for reading them at their
 * offsets; @file_size stays -1 where they must be read in sequence. */
void         vh_reader_find_frames       (VhVideoReader * r);

/* Where frame @index starts (its FRAME line in Y4M). */
goffset      vh_reader_frame_offset      (VhVideoReader * r, guint index);

/* Starts @n threads reading from frame 0. */
void         vh_reader_parallel_start    (VhVideoReader * r, guint n);

/* Frame n_returned, once a thread read it (or found it is not for
 * them: ReadResult.sequential). */
ReadResult  *vh_reader_parallel_next     (VhVideoReader * r);

/* Stops and joins the threads; frames they read ahead are dropped (their
 * slots go back, ready for the sequential thread). */
void         vh_reader_parallel_stop     (VhVideoReader * r);

G_END_DECLS

#endif /* __VH_VIDEO_READER_PRIVATE_H__ */
