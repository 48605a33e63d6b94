/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_HIP_FRAME_PROBE_H__
#define __VH_HIP_FRAME_PROBE_H__

#include "vhhip.h"
#include "picture.h"

G_BEGIN_DECLS

/**
 * VhHipFrameProbe:
 *
 * Small integer sums of a luma plane in device memory, computed on the GPU
 * (kernels/frame-probe.hip) and read back without stalling the caller:
 * each probe is queued on the probe's own stream, after the picture's
 * upload (VhPicture.ready); its kernel writes its few results straight
 * into page-locked host memory, and it gives a ticket; collecting the
 * ticket waits only if the results are not there yet. The sums are exact integers, so
 * the host's arithmetic on them (src/align-signature.c,
 * gst/gstvmafhipevents.c) gives the CPU's numbers bit for bit.
 *
 * Two probes: the alignment signature's block sums
 * (vh_align_signature_from_sums()), and the sampled sums of black and
 * freeze detection, with the differences against the previous sampled
 * frame, whose samples the probe keeps in device memory.
 *
 * Not thread-safe: one user (thread) a probe. Every ticket is collected
 * or discarded before the probe is freed.
 */
typedef struct _VhHipFrameProbe VhHipFrameProbe;
typedef struct _VhHipProbeTicket VhHipProbeTicket;

/* Blocks of the signature (as VH_ALIGN_GRID_W x VH_ALIGN_GRID_H). */
#define VH_HIP_PROBE_GRID_W 16
#define VH_HIP_PROBE_GRID_H 16
#define VH_HIP_PROBE_CELLS (VH_HIP_PROBE_GRID_W * VH_HIP_PROBE_GRID_H)

/* The samples at (x0 + i * step_x, y0 + j * step_y), i < per_row,
 * j < rows. */
typedef struct
{
  guint x0;
  guint y0;
  guint step_x;
  guint step_y;
  guint per_row;
  guint rows;
} VhHipProbeGrid;

typedef struct
{
  guint64 sum;
  guint64 sum_sq;
  guint64 sum_abs_diff;         /* against the previous samples */
  gboolean has_diff;            /* the previous samples were on this grid */
} VhHipProbeSamples;

VhHipFrameProbe *vh_hip_frame_probe_new  (VhHipDevice * device,
                                          GError ** error);

void         vh_hip_frame_probe_free     (VhHipFrameProbe * probe);

/* Queues the signature's block sums of @pic (device memory, luma of at
 * least 16x16 samples, 8 to 16 bits); @pic is referenced until the
 * ticket is collected or discarded. */
VhHipProbeTicket *vh_hip_frame_probe_signature (VhHipFrameProbe * probe,
                                          VhPicture * pic, GError ** error);

/* Queues the sampled sums of @pic on @grid, and their differences with
 * the previous samples of this probe when @diff and those were on the
 * same grid; the samples are kept for the next call. */
VhHipProbeTicket *vh_hip_frame_probe_samples (VhHipFrameProbe * probe,
                                          VhPicture * pic,
                                          const VhHipProbeGrid * grid,
                                          gboolean diff, GError ** error);

/* Forgets the previous samples (a flush): the next samples have no
 * differences. */
void         vh_hip_frame_probe_forget_samples (VhHipFrameProbe * probe);

/* Whether the ticket's results arrived (collecting will not wait). */
gboolean     vh_hip_probe_ticket_ready   (VhHipProbeTicket * ticket);

/* Waits for a signature ticket's results if they are not there yet, and
 * frees the ticket: the block sums, row after row. */
gboolean     vh_hip_probe_ticket_collect_signature (VhHipProbeTicket * ticket,
                                          guint64 sums[VH_HIP_PROBE_CELLS],
                                          GError ** error);

/* The same for a samples ticket. */
gboolean     vh_hip_probe_ticket_collect_samples (VhHipProbeTicket * ticket,
                                          VhHipProbeSamples * samples,
                                          GError ** error);

/* Frees a ticket whose results are not wanted (after its work ended). */
void         vh_hip_probe_ticket_discard (VhHipProbeTicket * ticket);

G_END_DECLS

#endif /* __VH_HIP_FRAME_PROBE_H__ */
