/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_INPUTS_H__
#define __GST_VMAF_HIP_INPUTS_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/gstvideoaggregator.h>

#include "gstvmafhippairing.h"
#include "gstvmafhipgpu.h"

G_BEGIN_DECLS

/**
 * GstVmafHipInputs:
 *
 * The element's sink pads and the one path every frame takes to be
 * paired: a probe on each pad sees the frame as it arrives (on the pad's
 * thread, whatever the base class later does with it: a live aggregator
 * passes over frames that come after their output slot), refuses what
 * cannot be paired (no timestamp, a segment not in time or played
 * backwards), and hands it to the pairing of each (reference, distorted)
 * match the pad belongs to. The aggregate thread then takes the pairing's
 * decisions one at a time (gst_vmaf_hip_inputs_next()): a pair to score,
 * or a frame that can have no partner. The base class's own choice of
 * frames only picks the frame passed on downstream.
 *
 * Owns each pad's accounting (frames arrived, caps and segment as the
 * pad's thread saw them, end of stream) and each match's (frames decided,
 * unpaired), under its own lock. One reference pad; each distorted pad
 * added makes a match with it (today one, dist_sink), with a pairing of
 * its own: a decision names its match, so that several distorted pads, or
 * a match paired by content rather than by running time, need no change
 * to the probe or the accounting.
 */
typedef struct _GstVmafHipInputs GstVmafHipInputs;

/* One decision of the pairing (see gst_vmaf_hip_inputs_next()). */
typedef struct
{
  guint match;                  /* which distorted pad, from 0 */
  GstVmafHipPairingResult frames;       /* a pair, or one frame alone */
} GstVmafHipDecision;

/* @agg: the element, not owned. */
GstVmafHipInputs *gst_vmaf_hip_inputs_new (GstAggregator * agg);

void         gst_vmaf_hip_inputs_free     (GstVmafHipInputs * inputs);

/* Probes @pad (a sink pad the element made, not yet added) and adds it to
 * the element. The reference pad comes first; each distorted pad makes a
 * match with it. */
void         gst_vmaf_hip_inputs_add_pad  (GstVmafHipInputs * inputs,
                                           GstVideoAggregatorPad * pad,
                                           gboolean reference);

/* A distorted pad the base class made (a request pad, dist_sink_%u) gets
 * its probe and a match with the reference, whose number is returned.
 * Thread-safe: pads may be requested while the element runs. */
guint        gst_vmaf_hip_inputs_adopt_pad (GstVmafHipInputs * inputs,
                                           GstVideoAggregatorPad * pad);

/* A request pad given back: its match decides nothing more (its number
 * stays taken until the element goes). Thread-safe. */
void         gst_vmaf_hip_inputs_release_pad (GstVmafHipInputs * inputs,
                                           GstPad * pad);

gboolean     gst_vmaf_hip_inputs_released (GstVmafHipInputs * inputs,
                                           guint match);

/* Matches so far (released ones included), and the match of a distorted
 * pad (-1: none). Thread-safe. */
guint        gst_vmaf_hip_inputs_n_matches (GstVmafHipInputs * inputs);

gint         gst_vmaf_hip_inputs_match_of_pad (GstVmafHipInputs * inputs,
                                           GstPad * pad);

GstVideoAggregatorPad *gst_vmaf_hip_inputs_reference_pad (GstVmafHipInputs * inputs);

GstVideoAggregatorPad *gst_vmaf_hip_inputs_distorted_pad (GstVmafHipInputs * inputs,
                                           guint match);

/* The pad @pad's caps must agree with: the reference for a distorted pad,
 * the first distorted pad for the reference. */
GstVideoAggregatorPad *gst_vmaf_hip_inputs_partner_pad (GstVmafHipInputs * inputs,
                                           GstPad * pad);

/* The base class queues a caps event and lets the buffers after it in
 * before the event is refused on its thread: a pad whose last caps were
 * refused has frames but no video info. Thread-safe. */
void         gst_vmaf_hip_inputs_set_caps_refused (GstVmafHipInputs * inputs,
                                           GstPad * pad, gboolean refused);

gboolean     gst_vmaf_hip_inputs_caps_refused (GstVmafHipInputs * inputs);

/* A new run: every count and waiting frame goes. @input_timeout (0: none)
 * after the first caps or frame on a sink pad, a sink pad that still has
 * no caps ends the run in an error naming it (never linked, or its branch
 * sent no video); so does an unlinked pad when the other one ends. */
void         gst_vmaf_hip_inputs_start    (GstVmafHipInputs * inputs,
                                           GstClockTime input_timeout);

/* Stopped: also the caps and segments the pads saw. */
void         gst_vmaf_hip_inputs_stop     (GstVmafHipInputs * inputs);

/* The element flushed (the pads forgot their frames at their own
 * FLUSH_STOP): an unpaired frame is said again. */
void         gst_vmaf_hip_inputs_flush    (GstVmafHipInputs * inputs);

/* How many frames of one side the latency lets wait for the other side:
 * the pipeline's latency with a live source, else the latency property. */
guint        gst_vmaf_hip_inputs_frames_within_latency (GstVmafHipInputs * inputs);

/* The next decision in stream order, FALSE when none can be made yet.
 * @at_end: no frame comes any more, waiting frames get no partner. The
 * caller clears @decision->frames. Aggregate thread. */
gboolean     gst_vmaf_hip_inputs_next     (GstVmafHipInputs * inputs,
                                           gboolean at_end,
                                           GstVmafHipDecision * decision);

/* A frame alone: logged; while its other side goes on, warned once (until
 * a flush). */
void         gst_vmaf_hip_inputs_report_unpaired (GstVmafHipInputs * inputs,
                                           const GstVmafHipDecision * decision);

/* Sets unpaired-reference, unpaired-distorted, dropped-reference and
 * dropped-distorted on one match's summary. */
void         gst_vmaf_hip_inputs_add_match_counts (GstVmafHipInputs * inputs,
                                           guint match, GstStructure * s);

/* At end of stream: every frame of one match that was not scored, on the
 * bus; a rendition's warnings start with its pad's name. @repeated of
 * the unpaired reference frames were scored against the last distorted
 * frame shown (unpaired=repeat). */
void         gst_vmaf_hip_inputs_warn_unscored_match (GstVmafHipInputs * inputs,
                                           guint match, guint64 repeated);

/* Before a run (with gst_vmaf_hip_inputs_start()): @content pairs each
 * match by its frames' content (align=content) within @window, else by
 * running time; @gpu (not owned, may be NULL) computes the signatures of
 * frames in its memory. */
void         gst_vmaf_hip_inputs_set_align (GstVmafHipInputs * inputs,
                                           gboolean content,
                                           GstClockTime window,
                                           GstVmafHipGpu * gpu);

/* The next "vmaf-align" structure of a match paired by content, or NULL
 * (gst_vmaf_hip_content_pairing_take_event()); the match's index in
 * *@match. Aggregate thread. */
GstStructure *gst_vmaf_hip_inputs_take_align_event (GstVmafHipInputs * inputs,
                                           gboolean at_end,
                                           guint * match);

/* @match paired by content: the alignment's fields on @s (if not NULL),
 * and for the results file a sentence in *@description and a JSON object
 * in *@json (both or neither); FALSE when paired by running time. */
gboolean     gst_vmaf_hip_inputs_add_align_counts (GstVmafHipInputs * inputs,
                                           guint match,
                                           GstStructure * s,
                                           gchar ** description,
                                           gchar ** json);

G_END_DECLS

#endif /* __GST_VMAF_HIP_INPUTS_H__ */
