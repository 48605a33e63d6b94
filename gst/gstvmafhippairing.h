/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_PAIRING_H__
#define __GST_VMAF_HIP_PAIRING_H__

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/* One frame of one side, as it became its pad's current frame. */
typedef struct
{
  GstBuffer *buffer;
  GstVideoInfo info;
  GstClockTime pts;
  GstClockTime duration;
  GstClockTime running_time;
  GstClockTime stream_time;
  /* align=content, on both frames of a pair: the offset they were paired
   * at (reference minus distorted, in frames and in running time). */
  gboolean aligned;
  gint64 align_offset_frames;
  GstClockTimeDiff align_offset;
  /* unpaired=repeat: a distorted frame scored again, for a reference
   * frame the chain dropped. */
  gboolean repeated;
} GstVmafHipFrame;

/* What gst_vmaf_hip_pairing_next() decided: a pair (both set), or a
 * frame that can have no partner (one set). The caller owns the frames
 * and clears them with gst_vmaf_hip_pairing_result_clear(). */
typedef struct
{
  GstVmafHipFrame ref;
  GstVmafHipFrame dist;
  gboolean has_ref;
  gboolean has_dist;
  /* A reference frame alone that the distorted input skipped (its next
   * frame shows a later moment, or the content says so): the chain
   * dropped it. */
  gboolean dropped;
  /* A frame alone because the other input ended: nothing will come to
   * pair it with. Not the same as deciding after the other input ended:
   * a window's decisions all come at the end of a short file, the frames
   * the chain dropped among them. */
  gboolean other_ended;
} GstVmafHipPairingResult;

/**
 * GstVmafHipPairing:
 *
 * Pairs reference and distorted frames by running time rather than by
 * output slot. A live branch that reaches the aggregator a slot after the
 * other (it missed the deadline once, e.g. while the first frame set up
 * the GPU) has its frame N current next to the other side's frame N+1 for
 * as long as the pipeline runs; each side's frames wait here until the
 * other side's frame of the same moment comes, so such a skew costs
 * nothing. The element feeds it every frame as it arrives on its pad,
 * so that frames the base class passes over still count. Frames whose moment the other side passed, or that waited
 * @max_waiting frames of their own side, have no partner. Not
 * thread-safe: the element locks it.
 */
typedef struct _GstVmafHipPairing GstVmafHipPairing;

GstVmafHipPairing *gst_vmaf_hip_pairing_new  (guint max_waiting);

void         gst_vmaf_hip_pairing_free        (GstVmafHipPairing * pairing);

/* Takes a reference to @frame->buffer. */
void         gst_vmaf_hip_pairing_push        (GstVmafHipPairing * pairing,
                                               gboolean ref_side,
                                               const GstVmafHipFrame * frame);

/* The next decision in stream order; FALSE while the waiting frames may
 * still get partners. @ref_over and @dist_over say that a side brings no
 * more frames (its end of stream): the other side's waiting frames are
 * then decided at once. */
gboolean     gst_vmaf_hip_pairing_next        (GstVmafHipPairing * pairing,
                                               gboolean ref_over,
                                               gboolean dist_over,
                                               GstVmafHipPairingResult * result);

guint        gst_vmaf_hip_pairing_n_waiting   (GstVmafHipPairing * pairing,
                                               gboolean ref_side);

void         gst_vmaf_hip_pairing_set_max_waiting (GstVmafHipPairing * pairing,
                                               guint max_waiting);

/* Drops every waiting frame (a flush), of one side or of both. */
void         gst_vmaf_hip_pairing_clear_side  (GstVmafHipPairing * pairing,
                                               gboolean ref_side);

void         gst_vmaf_hip_pairing_clear       (GstVmafHipPairing * pairing);

void         gst_vmaf_hip_pairing_result_clear (GstVmafHipPairingResult * result);

G_END_DECLS

#endif /* __GST_VMAF_HIP_PAIRING_H__ */
