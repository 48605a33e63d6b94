/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __GST_VMAF_HIP_CONTENT_PAIRING_H__
#define __GST_VMAF_HIP_CONTENT_PAIRING_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "gstvmafhippairing.h"
#include "gstvmafhipgpu.h"
#include "gstvmafhipsignatures.h"
#include "gstvmafhipcontentholdings.h"
#include "align.h"

G_BEGIN_DECLS

/**
 * GstVmafHipContentPairing:
 *
 * Pairs reference and distorted frames by their content (align=content):
 * each frame's luma signature goes to the alignment engine (src/align.h),
 * the frames wait here until the engine decides them, and each decision
 * comes out as GstVmafHipPairing's do: a pair, or a frame alone (one the
 * chain dropped, repeated or inserted, or one seen while not locked).
 * Timestamps play no part; frames are numbered in arrival order on each
 * side. Signatures come started with the frames (gstvmafhipsignatures.h:
 * on worker threads, or on the GPU for frames in its memory) and are
 * taken when decisions are asked for. Not thread-safe: the element locks
 * it, as it locks GstVmafHipPairing.
 *
 * Offsets are reference minus distorted: in frames (distorted frame d
 * shows reference frame d + offset) and in running time (the paired
 * reference frame's running time minus the distorted frame's).
 */
typedef struct _GstVmafHipContentPairing GstVmafHipContentPairing;

/* The align property. */
typedef enum
{
  GST_VMAF_HIP_ALIGN_TIMESTAMPS = 0,
  GST_VMAF_HIP_ALIGN_CONTENT = 1,
} GstVmafHipAlignMode;

GType gst_vmaf_hip_align_mode_get_type (void);
#define GST_TYPE_VMAF_HIP_ALIGN_MODE (gst_vmaf_hip_align_mode_get_type ())

/* @window: how far apart in time the inputs may be. @element: for
 * warnings, not owned. @holdings: what the element's pairings hold
 * together; not owned, used under the lock the caller holds around every
 * call. */
GstVmafHipContentPairing *gst_vmaf_hip_content_pairing_new (GstElement * element,
                                           GstClockTime window,
                                           GstVmafHipContentHoldings * holdings);

void         gst_vmaf_hip_content_pairing_free (GstVmafHipContentPairing * p);

/* Takes a reference to @frame->buffer (or to a copy of it, for a buffer
 * of a pool with a maximum, which waiting frames must not drain: @copy,
 * shared by the renditions' pairings, see
 * gst_vmaf_hip_content_holdings_hold()), and one to @job, its signature
 * on its way. */
void         gst_vmaf_hip_content_pairing_push (GstVmafHipContentPairing * p,
                                           gboolean ref_side,
                                           const GstVmafHipFrame * frame,
                                           GstVmafHipSignatureJob * job,
                                           GstBuffer ** copy);

/* As gst_vmaf_hip_pairing_next(). A pair's frames carry the offset. */
gboolean     gst_vmaf_hip_content_pairing_next (GstVmafHipContentPairing * p,
                                           gboolean ref_over,
                                           gboolean dist_over,
                                           GstVmafHipPairingResult * result);

guint        gst_vmaf_hip_content_pairing_n_waiting (GstVmafHipContentPairing * p,
                                           gboolean ref_side);

/* A flush of one side (or both): its waiting frames go and the alignment
 * starts again, both sides numbered from 0. */
void         gst_vmaf_hip_content_pairing_clear_side (GstVmafHipContentPairing * p,
                                           gboolean ref_side);

/* The next "vmaf-align" structure (lock found, moved or lost), or NULL;
 * or a "vmaf-align-warning" (field message: why a frame could not be
 * aligned), for the element to post as a warning.
 * A lock's structure waits for its first pair, which gives its offset in
 * time, unless @at_end.
 * Fields: state ("locked", "offset-changed", "lost"), locked, and while
 * locked align-offset-frames and align-offset; reason for a loss;
 * distorted-index, the distorted frame it happened at. */
GstStructure *gst_vmaf_hip_content_pairing_take_event (GstVmafHipContentPairing * p,
                                           gboolean at_end);

/* The summary's fields: align ("content"), align-locked, the last offset
 * (align-offset-frames, align-offset), align-changes, and the frames left
 * unpaired by reason: align-reference-dropped, align-reference-not-locked,
 * align-distorted-repeated, align-distorted-inserted,
 * align-distorted-not-locked. */
void         gst_vmaf_hip_content_pairing_add_counts (GstVmafHipContentPairing * p,
                                           GstStructure * s);

/* For the results file's log, the same counts: a sentence, and a JSON
 * object in *@json. */
gchar       *gst_vmaf_hip_content_pairing_describe (GstVmafHipContentPairing * p,
                                           gchar ** json);

G_END_DECLS

#endif /* __GST_VMAF_HIP_CONTENT_PAIRING_H__ */
