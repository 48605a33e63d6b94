/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* What the element benches share: frames made beforehand, and a pipeline
 * whose appsrc elements in0, in1, ... push them, cycled, as fast as the
 * element takes them. */

#ifndef __BENCH_FEED_H__
#define __BENCH_FEED_H__

#include <gst/gst.h>

G_BEGIN_DECLS

typedef struct _BenchFeed BenchFeed;

/* The first @count frames of @source (a launch line fragment giving raw
 * video: "videotestsrc pattern=ball", "filesrc location=F !
 * rawvideoparse ... ! videoscale"), I420 at @w x @h and 30 fps, through
 * @chain (a launch line fragment: "videoscale ! video/x-raw,... !
 * vmafhipupload"), with their caps in @caps. NULL when the pipeline fails
 * before giving them all (vmafhipupload without a GPU, a short file). */
GPtrArray  *bench_make_frames (const gchar * source, guint count, guint w,
                               guint h, const gchar * chain,
                               GstCaps ** caps);

/* Sets @pipe playing with appsrc in<k> pushing @n buffers of @frames[k]
 * (cycled, 30 fps timestamps, caps @caps[k]) then its end of stream, for
 * each of @n_inputs inputs; the clock of bench_feed_wait starts here.
 * @frames and @caps are borrowed until bench_feed_stop. */
BenchFeed  *bench_feed_start  (GstElement * pipe, guint n_inputs,
                               GPtrArray ** frames, GstCaps ** caps, guint n);

/* The pipeline's end of stream or error (its element messages left
 * out), the seconds since bench_feed_start, and in @scored (if not NULL)
 * the count of "vmaf" messages seen; the pipeline still plays (its
 * element's stats can be read). */
GstMessage *bench_feed_wait   (BenchFeed * feed, gdouble * seconds,
                               guint * scored);

/* Stops the pipeline, joins the feeders and frees @feed. */
void        bench_feed_stop   (BenchFeed * feed);

G_END_DECLS

#endif /* __BENCH_FEED_H__ */
