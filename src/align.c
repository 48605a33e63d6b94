/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* The alignment engine: for each distorted frame, the reference frame it
 * shows, from signatures.
 *
 * Each signature is normalised (zero mean, unit spread) so that a chain's
 * level or contrast change does not count, and its mean absolute
 * difference to the stream's previous frame is kept (the frame's motion).
 * A distorted frame's cost against a reference frame is the mean absolute
 * difference of the normalised grids. Its match is clear when the best
 * reference frame costs little (@max_cost) and clearly less than any other
 * (ratio and gap): moving content gives clear matches, still, flat or
 * repetitive content does not.
 *
 * Unlocked, an offset is locked once @confirm consecutive distorted
 * frames match clearly with it. Locked, a frame is paired at the offset
 * while the offset fits (at once when it clearly does among the next few
 * reference frames, otherwise after a look-ahead); when another offset
 * fits clearly for @confirm frames the lock moves (the chain dropped,
 * repeated or inserted frames); frames that fit nothing clearly for
 * longer than @hold lose the lock.
 * Pairs never go back: a distorted frame showing a reference frame
 * already paired is a repeat. */

#include "align.h"

#include <math.h>
#include <string.h>

/* Matches cost at most this (unrelated frames cost about 1). */
#define MAX_COST 0.3
/* A best match below this fraction of the next one, while not clear,
 * still counts for the locked offset. */
#define LEANING_RATIO 0.95
/* Distorted frames a decision looks at: a clear run, or a leaning one
 * twice as long. */
#define LOOKAHEAD(config) (2 * (config)->confirm)
/* Reference frames beyond the expected one that an early decision sees: a
 * chain that dropped frames there shows one of them as the better match. */
#define EARLY_AHEAD(config) ((config)->confirm)
/* Spread below which a frame is flat (8-bit levels). */
#define FLAT_SPREAD 0.5
/* Motion below which the reference is still (8-bit levels). */
#define STILL_MOTION 0.25
/* Sums over the cells are added in this many partial sums, in this order
 * whatever the machine: one chain of 256 dependent additions held the
 * aggregating thread (every distorted frame costs a window's worth of
 * them); partial sums vectorise without a reordering the compiler may not
 * make. */
#define COST_LANES 8

typedef struct
{
  gfloat z[VH_ALIGN_CELLS];     /* normalised grid; zeros when flat */
  gfloat motion;                /* mean |grid - previous grid| */
} AlignFrame;

typedef struct
{
  GArray *frames;               /* AlignFrame; frames[0] is index @base */
  guint64 base;
  guint64 count;                /* frames pushed */
  gboolean ended;
  VhAlignSignature prev;
  gboolean have_prev;
} AlignStream;

typedef struct
{
  gint64 best;                  /* reference index, -1 when none */
  gdouble c1;                   /* its cost */
  gdouble c2;                   /* the best other reference's cost */
  gboolean clear;
} AlignMatch;

struct _VhAlign
{
  VhAlignConfig config;
  AlignStream ref;
  AlignStream dist;
  GArray *decisions;            /* VhAlignDecision, read from @read_pos */
  guint read_pos;
  guint64 next_dist;            /* first undecided distorted frame */
  guint64 next_ref;             /* first undecided reference frame */
  gint64 last_ref;              /* last paired reference frame, or -1 */
  gboolean locked;
  gboolean fresh_lock;          /* locked since the last pair */
  gint64 offset;
  guint unsure;                 /* frames since the lock last fitted */
  gint64 not_early;             /* distorted frame refused an early decision */
};

void
vh_align_config_init (VhAlignConfig * config, guint window)
{
  config->window = window;
  config->confirm = 3;
  config->hold = 10;
  config->ratio = 0.8;
  config->min_gap = 0.005;
}

static void
stream_init (AlignStream * s)
{
  memset (s, 0, sizeof (*s));
  s->frames = g_array_new (FALSE, FALSE, sizeof (AlignFrame));
}

VhAlign *
vh_align_new (const VhAlignConfig * config)
{
  VhAlign *align = g_new0 (VhAlign, 1);

  align->config = *config;
  if (align->config.confirm == 0)
    align->config.confirm = 1;
  stream_init (&align->ref);
  stream_init (&align->dist);
  align->decisions = g_array_new (FALSE, FALSE, sizeof (VhAlignDecision));
  align->last_ref = -1;
  align->not_early = -1;
  return align;
}

void
vh_align_free (VhAlign * align)
{
  if (!align)
    return;
  g_array_unref (align->ref.frames);
  g_array_unref (align->dist.frames);
  g_array_unref (align->decisions);
  g_free (align);
}

/* Sum of @v over every cell, in COST_LANES partial sums. */
static gdouble
cells_sum (const gfloat * v)
{
  gfloat lane[COST_LANES] = { 0 };
  gdouble sum = 0.0;

  G_STATIC_ASSERT (VH_ALIGN_CELLS % COST_LANES == 0);
  for (guint i = 0; i < VH_ALIGN_CELLS; i += COST_LANES)
    for (guint k = 0; k < COST_LANES; k++)
      lane[k] += v[i + k];
  for (guint k = 0; k < COST_LANES; k++)
    sum += lane[k];
  return sum;
}

static void
stream_push (AlignStream * s, const VhAlignSignature * sig)
{
  AlignFrame f;
  gfloat tmp[VH_ALIGN_CELLS];
  gfloat mean, spread;

  mean = (gfloat) (cells_sum (sig->cell) / VH_ALIGN_CELLS);
  for (guint i = 0; i < VH_ALIGN_CELLS; i++)
    tmp[i] = (sig->cell[i] - mean) * (sig->cell[i] - mean);
  spread = (gfloat) sqrt (cells_sum (tmp) / VH_ALIGN_CELLS);
  for (guint i = 0; i < VH_ALIGN_CELLS; i++)
    f.z[i] = spread < FLAT_SPREAD ? 0.0f : (sig->cell[i] - mean) / spread;

  f.motion = 0.0f;
  if (s->have_prev) {
    for (guint i = 0; i < VH_ALIGN_CELLS; i++)
      tmp[i] = fabsf (sig->cell[i] - s->prev.cell[i]);
    f.motion = (gfloat) (cells_sum (tmp) / VH_ALIGN_CELLS);
  }
  s->prev = *sig;
  s->have_prev = TRUE;
  g_array_append_val (s->frames, f);
  s->count++;
}

static const AlignFrame *
stream_frame (const AlignStream * s, guint64 index)
{
  g_assert (index >= s->base && index < s->count);
  return &g_array_index (s->frames, AlignFrame, index - s->base);
}

static gdouble
frame_cost (const AlignFrame * a, const AlignFrame * b)
{
  gfloat diff[VH_ALIGN_CELLS];

  for (guint i = 0; i < VH_ALIGN_CELLS; i++)
    diff[i] = fabsf (a->z[i] - b->z[i]);
  return cells_sum (diff) / VH_ALIGN_CELLS;
}

/* Reference frames distorted frame @j may show: within the window, not
 * before the last pair (which it may repeat), among those kept. */
static gboolean
candidates (const VhAlign * align, guint64 j, gint64 * lo, gint64 * hi)
{
  gint64 w = align->config.window;

  *lo = MAX ((gint64) j - w, 0);
  *lo = MAX (*lo, align->last_ref);
  *lo = MAX (*lo, (gint64) align->ref.base);
  *hi = MIN ((gint64) j + w, (gint64) align->ref.count - 1);
  return *lo <= *hi;
}

static gdouble
cost_at (const VhAlign * align, guint64 j, gint64 i)
{
  gint64 lo, hi;

  if (!candidates (align, j, &lo, &hi) || i < lo || i > hi)
    return G_MAXDOUBLE;
  return frame_cost (stream_frame (&align->dist, j),
      stream_frame (&align->ref, (guint64) i));
}

static gboolean
match (const VhAlign * align, guint64 j, AlignMatch * m)
{
  const AlignFrame *d = stream_frame (&align->dist, j);
  gint64 lo, hi;

  m->best = -1;
  m->c1 = m->c2 = G_MAXDOUBLE;
  m->clear = FALSE;
  if (!candidates (align, j, &lo, &hi))
    return FALSE;

  for (gint64 i = lo; i <= hi; i++) {
    gdouble c = frame_cost (d, stream_frame (&align->ref, (guint64) i));
    if (c < m->c1) {
      m->c2 = m->c1;
      m->c1 = c;
      m->best = i;
    } else if (c < m->c2) {
      m->c2 = c;
    }
  }
  m->clear = m->c1 <= MAX_COST &&
      (m->c2 == G_MAXDOUBLE || (m->c1 <= align->config.ratio * m->c2 &&
          m->c2 - m->c1 >= align->config.min_gap));
  return TRUE;
}

/* Whether @n distorted frames from @j all match at one offset (clearly,
 * or only @leaning: best by a little), and which. */
static gboolean
same_offset_run (const VhAlign * align, guint64 j, guint64 n,
    gboolean leaning, gint64 * offset)
{
  for (guint64 t = 0; t < n; t++) {
    AlignMatch m;
    gint64 o;

    if (!match (align, j + t, &m))
      return FALSE;
    if (leaning ? !(m.c1 <= MAX_COST && m.c1 < LEANING_RATIO * m.c2) :
        !m.clear)
      return FALSE;
    o = m.best - (gint64) (j + t);
    if (t > 0 && o != *offset)
      return FALSE;
    *offset = o;
  }
  return n > 0;
}

/* Whether distorted frames @j.. match at one offset, and which: @confirm
 * frames matching clearly, or twice as many whose best match is only a
 * little better than the next (slow motion under coding noise). Fewer
 * at the end of the input. */
static gboolean
confirmed_offset (const VhAlign * align, guint64 j, gint64 * offset)
{
  guint64 left = align->dist.count - j;
  guint64 n = MIN ((guint64) align->config.confirm, left);

  if (same_offset_run (align, j, n, FALSE, offset))
    return TRUE;
  n = 2 * (guint64) align->config.confirm;
  return left >= n && same_offset_run (align, j, n, TRUE, offset);
}

static void
emit (VhAlign * align, VhAlignDecisionType type, VhAlignReason reason,
    guint64 ref, guint64 dist)
{
  VhAlignDecision d = {
    .type = type,
    .reason = reason,
    .ref = ref,
    .dist = dist,
    .offset = align->offset,
    .locked = align->locked,
  };

  g_array_append_val (align->decisions, d);
}

static void
emit_ref_unmatched_below (VhAlign * align, guint64 end, VhAlignReason reason)
{
  for (; align->next_ref < end; align->next_ref++)
    emit (align, VH_ALIGN_REF_UNMATCHED, reason, align->next_ref, 0);
}

static void
set_lock (VhAlign * align, gint64 offset, guint64 j)
{
  gboolean was_locked = align->locked;

  align->locked = TRUE;
  align->offset = offset;
  align->unsure = 0;
  if (!was_locked)
    align->fresh_lock = TRUE;
  emit (align, was_locked ? VH_ALIGN_OFFSET_CHANGED : VH_ALIGN_LOCKED,
      VH_ALIGN_REASON_NONE, 0, j);
}

static void
lose_lock (VhAlign * align, guint64 j, VhAlignReason reason)
{
  align->locked = FALSE;
  align->unsure = 0;
  emit (align, VH_ALIGN_LOST, reason, 0, j);
}

/* Distorted frame @j at the locked offset. */
static void
place (VhAlign * align, guint64 j)
{
  gint64 e = (gint64) j + align->offset;

  if (e <= align->last_ref) {
    emit (align, VH_ALIGN_DIST_UNMATCHED, VH_ALIGN_REASON_REPEATED, 0, j);
    return;
  }
  if (e >= (gint64) align->ref.count || e < (gint64) align->next_ref) {
    emit (align, VH_ALIGN_DIST_UNMATCHED, align->ref.ended ?
        VH_ALIGN_REASON_ENDED : VH_ALIGN_REASON_NOT_LOCKED, 0, j);
    return;
  }
  emit_ref_unmatched_below (align, (guint64) e, align->fresh_lock ?
      VH_ALIGN_REASON_NOT_LOCKED : VH_ALIGN_REASON_DROPPED);
  emit (align, VH_ALIGN_PAIR, VH_ALIGN_REASON_NONE, (guint64) e, j);
  align->next_ref = (guint64) e + 1;
  align->last_ref = e;
  align->fresh_lock = FALSE;
}

static VhAlignReason
ambiguity_reason (const VhAlign * align, gint64 e)
{
  if (e >= (gint64) align->ref.base && e < (gint64) align->ref.count &&
      stream_frame (&align->ref, (guint64) e)->motion < STILL_MOTION)
    return VH_ALIGN_REASON_STILL;
  return VH_ALIGN_REASON_AMBIGUOUS;
}

static void
unmatched_while_unsure (VhAlign * align, guint64 j, const AlignMatch * m,
    VhAlignReason loss)
{
  align->unsure++;
  if (align->unsure > align->config.hold) {
    lose_lock (align, j, loss);
    emit (align, VH_ALIGN_DIST_UNMATCHED, VH_ALIGN_REASON_NOT_LOCKED, 0, j);
  } else {
    emit (align, VH_ALIGN_DIST_UNMATCHED, m->clear &&
        m->best <= align->last_ref ? VH_ALIGN_REASON_REPEATED :
        VH_ALIGN_REASON_INSERTED, 0, j);
  }
}

static void
decide (VhAlign * align, guint64 j)
{
  AlignMatch m;
  gint64 offset = 0, e;
  gdouble ce, tol;

  if (!match (align, j, &m)) {
    emit (align, VH_ALIGN_DIST_UNMATCHED, align->ref.ended ?
        VH_ALIGN_REASON_ENDED : VH_ALIGN_REASON_NOT_LOCKED, 0, j);
    return;
  }

  if (!align->locked) {
    if (confirmed_offset (align, j, &offset)) {
      set_lock (align, offset, j);
      place (align, j);
    } else {
      emit (align, VH_ALIGN_DIST_UNMATCHED, m.clear &&
          m.best <= align->last_ref ? VH_ALIGN_REASON_REPEATED :
          VH_ALIGN_REASON_NOT_LOCKED, 0, j);
    }
    return;
  }

  e = (gint64) j + align->offset;
  if (m.clear && m.best == e) {
    align->unsure = 0;
    place (align, j);
    return;
  }
  if (m.best == e && m.c1 <= MAX_COST && m.c1 < LEANING_RATIO * m.c2) {
    /* The expected frame is the best, by less than a clear margin (slow
     * motion under coding noise): paired, without renewing the lock. */
    place (align, j);
    return;
  }

  ce = cost_at (align, j, e);
  tol = MAX (align->config.min_gap, 0.5 * (m.c2 - m.c1));
  if (!m.clear && ce <= MAX_COST && ce <= m.c1 + tol) {
    /* Several frames fit as well as the expected one (still content, or
     * a source that repeats frames): held for a while, then lost. */
    if (align->unsure < align->config.hold) {
      align->unsure++;
      place (align, j);
    } else {
      unmatched_while_unsure (align, j, &m, ambiguity_reason (align, e));
    }
    return;
  }

  if (confirmed_offset (align, j, &offset) && offset != align->offset) {
    set_lock (align, offset, j);
    place (align, j);
    return;
  }
  unmatched_while_unsure (align, j, &m, VH_ALIGN_REASON_NO_MATCH);
}

/* Lets go of signatures no decision can need again. */
static void
trim (VhAlign * align)
{
  guint64 keep_ref = align->next_ref;
  guint64 keep_dist = align->next_dist;

  if (align->last_ref >= 0)
    keep_ref = MIN (keep_ref, (guint64) align->last_ref);
  keep_ref = MIN (keep_ref, align->ref.count);
  if (keep_ref > align->ref.base + 256) {
    g_array_remove_range (align->ref.frames, 0, keep_ref - align->ref.base);
    align->ref.base = keep_ref;
  }
  if (keep_dist > align->dist.base + 256) {
    g_array_remove_range (align->dist.frames, 0, keep_dist - align->dist.base);
    align->dist.base = keep_dist;
  }
}

/* The last reference frame distorted frame @j waits for: the end of its
 * window, or while locked only a little beyond the offset (a live input
 * is not held up by the whole window; a jump further than that loses the
 * lock, and the lock is found again over the whole window). */
static guint64
ref_needed (const VhAlign * align, guint64 j)
{
  const VhAlignConfig *c = &align->config;
  guint64 whole = j + LOOKAHEAD (c) - 1 + c->window;
  gint64 near = (gint64) (j + LOOKAHEAD (c) - 1) + align->offset +
      c->confirm + c->hold;

  if (!align->locked)
    return whole;
  return MIN (whole, (guint64) MAX (near, 0));
}

/* Locked, distorted frame @j decided before the look-ahead is there when
 * it clearly shows the expected reference frame among those up to
 * EARLY_AHEAD beyond it: what decide() would do, without holding both
 * inputs' frames some twenty frames longer (held frames are what a
 * pipeline's caches and pools pay for). More reference frames could only
 * make such a match less clear, so a frame refused once waits for the
 * look-ahead. */
static gboolean
decide_early (VhAlign * align, guint64 j)
{
  AlignMatch m;
  gint64 e = (gint64) j + align->offset;

  if (!align->locked || align->not_early == (gint64) j || e < 0)
    return FALSE;
  if (!align->ref.ended &&
      (gint64) align->ref.count <= e + EARLY_AHEAD (&align->config))
    return FALSE;
  if (!match (align, j, &m) || !m.clear || m.best != e) {
    align->not_early = (gint64) j;
    return FALSE;
  }
  align->unsure = 0;
  place (align, j);
  return TRUE;
}

static void
advance (VhAlign * align)
{
  const VhAlignConfig *c = &align->config;

  while (align->next_dist < align->dist.count) {
    guint64 j = align->next_dist;

    if (!decide_early (align, j)) {
      if (!align->dist.ended && align->dist.count - j < LOOKAHEAD (c))
        break;
      if (!align->ref.ended && align->ref.count <= ref_needed (align, j))
        break;
      decide (align, j);
    }
    align->next_dist = j + 1;
    /* Reference frames no later distorted frame may show. */
    if (align->next_dist > c->window)
      emit_ref_unmatched_below (align, align->next_dist - c->window,
          align->locked ? VH_ALIGN_REASON_DROPPED :
          VH_ALIGN_REASON_NOT_LOCKED);
  }
  if (align->dist.ended && align->next_dist == align->dist.count)
    emit_ref_unmatched_below (align, align->ref.count,
        VH_ALIGN_REASON_ENDED);
  trim (align);
}

void
vh_align_push_reference (VhAlign * align, const VhAlignSignature * sig)
{
  g_return_if_fail (!align->ref.ended);
  stream_push (&align->ref, sig);
  advance (align);
}

void
vh_align_push_distorted (VhAlign * align, const VhAlignSignature * sig)
{
  g_return_if_fail (!align->dist.ended);
  stream_push (&align->dist, sig);
  advance (align);
}

void
vh_align_end_reference (VhAlign * align)
{
  align->ref.ended = TRUE;
  advance (align);
}

void
vh_align_end_distorted (VhAlign * align)
{
  align->dist.ended = TRUE;
  advance (align);
}

gboolean
vh_align_pop (VhAlign * align, VhAlignDecision * decision)
{
  if (align->read_pos >= align->decisions->len)
    return FALSE;
  *decision = g_array_index (align->decisions, VhAlignDecision,
      align->read_pos);
  align->read_pos++;
  if (align->read_pos == align->decisions->len) {
    g_array_set_size (align->decisions, 0);
    align->read_pos = 0;
  }
  return TRUE;
}

gboolean
vh_align_is_locked (const VhAlign * align)
{
  return align->locked;
}

gint64
vh_align_get_offset (const VhAlign * align)
{
  return align->offset;
}

const gchar *
vh_align_reason_to_string (VhAlignReason reason)
{
  switch (reason) {
    case VH_ALIGN_REASON_NONE:
      return "none";
    case VH_ALIGN_REASON_NOT_LOCKED:
      return "not-locked";
    case VH_ALIGN_REASON_DROPPED:
      return "dropped";
    case VH_ALIGN_REASON_REPEATED:
      return "repeated";
    case VH_ALIGN_REASON_INSERTED:
      return "inserted";
    case VH_ALIGN_REASON_AMBIGUOUS:
      return "ambiguous";
    case VH_ALIGN_REASON_STILL:
      return "still";
    case VH_ALIGN_REASON_NO_MATCH:
      return "no-match";
    case VH_ALIGN_REASON_ENDED:
      return "ended";
  }
  return "unknown";
}

const gchar *
vh_align_decision_type_to_string (VhAlignDecisionType type)
{
  switch (type) {
    case VH_ALIGN_PAIR:
      return "pair";
    case VH_ALIGN_REF_UNMATCHED:
      return "reference-unmatched";
    case VH_ALIGN_DIST_UNMATCHED:
      return "distorted-unmatched";
    case VH_ALIGN_LOCKED:
      return "locked";
    case VH_ALIGN_OFFSET_CHANGED:
      return "offset-changed";
    case VH_ALIGN_LOST:
      return "lost";
  }
  return "unknown";
}
