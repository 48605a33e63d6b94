/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __GST_VMAF_HIP_CONTENT_HOLDINGS_H__
#define __GST_VMAF_HIP_CONTENT_HOLDINGS_H__

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/**
 * GstVmafHipContentHoldings:
 *
 * What the frames waiting in an element's content pairings
 * (gstvmafhipcontentpairing.h) hold together, one for all its renditions,
 * whose reference frames are the same buffers:
 *
 * - buffers of pools, counted per pool: of a pool with a maximum at most
 *   half is held, so that its producer always has buffers left (the
 *   engine waits for frames it could otherwise not make); the frames
 *   beyond wait as copies, one copy for all renditions;
 * - the memory a whole window of frames takes until the first lock: the
 *   reference's once, every distorted input's, against the machine's.
 *
 * Not thread-safe: used under the lock the element holds around its
 * pairings.
 */
typedef struct _GstVmafHipContentHoldings GstVmafHipContentHoldings;

GstVmafHipContentHoldings *gst_vmaf_hip_content_holdings_new (GstElement * element);

void         gst_vmaf_hip_content_holdings_free (GstVmafHipContentHoldings * h);

/* A new run: nothing held (every pairing freed), nothing counted. */
void         gst_vmaf_hip_content_holdings_reset (GstVmafHipContentHoldings * h);

/* The buffer a waiting frame keeps for @buffer: a reference to it, or to
 * a deep copy of it (to it when the copy fails). *@held_from is the pool
 * it counts against until given back, or NULL. @copy: the copy another
 * rendition's pairing made of this same frame, or NULL; set when a copy
 * is made here. */
GstBuffer   *gst_vmaf_hip_content_holdings_hold (GstVmafHipContentHoldings * h,
                                           GstBuffer * buffer,
                                           GstBuffer ** copy,
                                           GstBufferPool ** held_from);

void         gst_vmaf_hip_content_holdings_give_back (GstVmafHipContentHoldings * h,
                                           GstBufferPool * held_from);

/* Counts what a window of @frames frames of one input (@info) holds
 * before the first lock: the reference once for every rendition. Once a
 * run, when all that is counted is over half the machine's memory,
 * returns what to tell the user (and the bytes in @bytes); else NULL. */
gchar       *gst_vmaf_hip_content_holdings_count_window (GstVmafHipContentHoldings * h,
                                           gboolean reference,
                                           GstClockTime window,
                                           guint frames,
                                           const GstVideoInfo * info,
                                           guint64 * bytes);

G_END_DECLS

#endif /* __GST_VMAF_HIP_CONTENT_HOLDINGS_H__ */
