/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_ALIGN_H__
#define __VH_ALIGN_H__

#include "picture.h"

#include <glib.h>

G_BEGIN_DECLS

/* Alignment by content: which distorted frame shows which reference frame,
 * found from small luma signatures of both streams. The engine takes
 * signatures (computed here on the CPU, or from a GPU's block sums) and
 * gives pairing decisions; it knows neither pictures nor timestamps. */

#define VH_ALIGN_GRID_W 16
#define VH_ALIGN_GRID_H 16
#define VH_ALIGN_CELLS (VH_ALIGN_GRID_W * VH_ALIGN_GRID_H)

/* Block means of a frame's luma on a 16x16 grid, in 8-bit levels whatever
 * the bit depth. The engine derives the rest (the difference against the
 * stream's previous frame, the normalised grid) when it is pushed. */
typedef struct
{
  gfloat cell[VH_ALIGN_CELLS];
} VhAlignSignature;

/* A signature reads every @step-th row of each block (from its first):
 * at least 16 rows a block (every row up to 511 lines, every 4th at
 * 1080p), which is plenty for a block mean and a quarter of the memory
 * traffic of a 1080p frame (the pass over a frame read cold from memory
 * was the alignment's main cost on the CPU). */
guint        vh_align_signature_row_step (guint height);

/* The luma samples a signature of a @width x @height frame reads. */
guint64      vh_align_signature_samples_read (guint width, guint height);

/* @pic: host memory, luma at least 16x16. */
gboolean     vh_align_signature_compute (const VhPicture * pic,
                                         VhAlignSignature * sig,
                                         GError ** error);

/* The same signature from the integer sums of the luma's blocks, row
 * after row (as a GPU computes them: hip/features/hip-frame-probe.h), of
 * a @width x @height luma of @bpc bits: equal to
 * vh_align_signature_compute() bit for bit. Block i of n over size
 * samples covers [ceil (i * size / n), ceil ((i + 1) * size / n)); its
 * sum is over the rows vh_align_signature_row_step() picks. */
gboolean     vh_align_signature_from_sums (const guint64 sums[VH_ALIGN_CELLS],
                                         guint width, guint height,
                                         guint bpc, VhAlignSignature * sig,
                                         GError ** error);

typedef struct
{
  /* How far apart the inputs may be, in frames: offsets from -window to
   * +window are searched. */
  guint window;
  /* Consecutive frames that must agree on one offset to lock on it, or to
   * move a lock to another offset. */
  guint confirm;
  /* Frames a lock survives without confirmation (still or ambiguous
   * content, frames that match nothing) before it is lost. */
  guint hold;
  /* A match is clear when its cost is at most @ratio times the cost of
   * the best other reference frame and below it by at least @min_gap
   * (costs are mean absolute differences of normalised signatures). */
  gdouble ratio;
  gdouble min_gap;
} VhAlignConfig;

void         vh_align_config_init       (VhAlignConfig * config,
                                         guint window);

typedef enum
{
  VH_ALIGN_PAIR = 0,            /* reference frame @ref shown by @dist */
  VH_ALIGN_REF_UNMATCHED,       /* reference frame @ref shown by none */
  VH_ALIGN_DIST_UNMATCHED,      /* distorted frame @dist shows none */
  VH_ALIGN_LOCKED,              /* locked on @offset from distorted @dist */
  VH_ALIGN_OFFSET_CHANGED,      /* the lock moved to @offset at @dist */
  VH_ALIGN_LOST,                /* the lock was lost at @dist */
} VhAlignDecisionType;

typedef enum
{
  VH_ALIGN_REASON_NONE = 0,
  VH_ALIGN_REASON_NOT_LOCKED,   /* no offset fits clearly (still, flat or
                                 * repetitive content, or no overlap yet) */
  VH_ALIGN_REASON_DROPPED,      /* the chain dropped the reference frame */
  VH_ALIGN_REASON_REPEATED,     /* the distorted frame repeats one shown */
  VH_ALIGN_REASON_INSERTED,     /* the distorted frame shows no reference
                                 * frame while locked */
  VH_ALIGN_REASON_AMBIGUOUS,    /* (lost) several offsets fit equally */
  VH_ALIGN_REASON_STILL,        /* (lost) the same, the reference still */
  VH_ALIGN_REASON_NO_MATCH,     /* (lost) the offset stopped fitting and
                                 * no other was confirmed */
  VH_ALIGN_REASON_ENDED,        /* the other input ended */
} VhAlignReason;

typedef struct
{
  VhAlignDecisionType type;
  VhAlignReason reason;
  guint64 ref;                  /* PAIR, REF_UNMATCHED */
  guint64 dist;                 /* PAIR, DIST_UNMATCHED, lock events */
  /* The offset in force after this decision (reference index minus
   * distorted index: distorted frame d shows reference frame d + offset),
   * and whether it is locked. */
  gint64 offset;
  gboolean locked;
} VhAlignDecision;

typedef struct _VhAlign VhAlign;

VhAlign     *vh_align_new               (const VhAlignConfig * config);

void         vh_align_free              (VhAlign * align);

/* Frames in stream order, numbered from 0 on each input. */
void         vh_align_push_reference    (VhAlign * align,
                                         const VhAlignSignature * sig);

void         vh_align_push_distorted    (VhAlign * align,
                                         const VhAlignSignature * sig);

/* No more frames on that input: the rest is decided without waiting. */
void         vh_align_end_reference     (VhAlign * align);

void         vh_align_end_distorted     (VhAlign * align);

/* The next decision, in order: each reference frame and each distorted
 * frame gets exactly one (pair or unmatched), in increasing index on each
 * input, lock events where they happen. FALSE when nothing is decided yet.
 * A caller keeping frames may let go of a reference frame once it is
 * decided. */
gboolean     vh_align_pop               (VhAlign * align,
                                         VhAlignDecision * decision);

gboolean     vh_align_is_locked         (const VhAlign * align);

gint64       vh_align_get_offset        (const VhAlign * align);

const gchar *vh_align_reason_to_string  (VhAlignReason reason);

const gchar *vh_align_decision_type_to_string (VhAlignDecisionType type);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VhAlign, vh_align_free)

G_END_DECLS

#endif /* __VH_ALIGN_H__ */
