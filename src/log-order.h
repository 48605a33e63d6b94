/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_LOG_ORDER_H__
#define __VH_LOG_ORDER_H__

#include <glib.h>

G_BEGIN_DECLS

/* Where a feature goes in a log. libvmaf lists features in the order they
 * were first written; single-threaded that is: by the frame being
 * extracted, then by extractor (models' features first, then --feature,
 * as registered), then by the order the extractor writes them. With a
 * thread pool (--threads 1 and up) the extractors it runs in frame order
 * on the calling thread (psnr, float_motion, speed_temporal) come first
 * within each frame. Values written only at the end of the stream (the
 * integer motion's motion2 and motion3), and values first written when
 * the extractor is flushed (float_motion's motion3 of a one-frame
 * stream), come after every frame's.
 *
 * Keys are computed from the frame a value belongs to, not from when a
 * worker happens to write it, so the order is the same for any number of
 * workers. */
typedef struct
{
  guint64 phase;
  guint slot;                   /* extractor, in registration order */
  guint seq;                    /* write within the extractor's call */
} VhLogKey;

void         vh_log_key_init            (VhLogKey * key,
                                         const gchar * extractor,
                                         const gchar * base_name,
                                         guint index, guint slot, guint seq,
                                         gboolean pooled, gboolean flushing);

gint         vh_log_key_compare         (const VhLogKey * a,
                                         const VhLogKey * b);

G_END_DECLS

#endif /* __VH_LOG_ORDER_H__ */
