/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* The alignment engine (src/align.h): distorted streams made from a
 * reference by a known chain (delay, drops, repeats, inserted frames,
 * still stretches), on synthetic signatures and on a golden clip's real
 * frames and its encode; every decision checked against the known map. */

#include "align.h"
#include "errors.h"
#include "golden.h"

#include <math.h>
#include <string.h>

/* Distorted frame j shows reference frame map[j], or none (-1). */
typedef struct
{
  GArray *ref;                  /* VhAlignSignature */
  GArray *dist;                 /* VhAlignSignature */
  GArray *map;                  /* gint64 per distorted frame */
} Chain;

typedef struct
{
  GArray *pairs;                /* gint64 per distorted frame: paired ref */
  GArray *ref_reason;           /* VhAlignReason per reference frame, or -1 */
  GArray *dist_reason;          /* VhAlignReason per distorted frame */
  GArray *events;               /* VhAlignDecision: lock events */
  guint n_pairs;
} Outcome;

static void
chain_init (Chain * c)
{
  c->ref = g_array_new (FALSE, TRUE, sizeof (VhAlignSignature));
  c->dist = g_array_new (FALSE, TRUE, sizeof (VhAlignSignature));
  c->map = g_array_new (FALSE, TRUE, sizeof (gint64));
}

static void
chain_clear (Chain * c)
{
  g_array_unref (c->ref);
  g_array_unref (c->dist);
  g_array_unref (c->map);
}

/* Moving content: each frame drifts from the previous one by a random
 * step, so that neighbours look alike and no two frames are equal. */
static void
make_moving_reference (Chain * c, guint n, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  VhAlignSignature sig;

  for (guint i = 0; i < VH_ALIGN_CELLS; i++)
    sig.cell[i] = (gfloat) g_rand_double_range (rand, 30, 220);
  for (guint f = 0; f < n; f++) {
    for (guint i = 0; i < VH_ALIGN_CELLS; i++)
      sig.cell[i] = (gfloat) CLAMP (sig.cell[i] +
          g_rand_double_range (rand, -12, 12), 16, 235);
    g_array_append_val (c->ref, sig);
  }
  g_rand_free (rand);
}

/* Reference frame @r as the chain delivers it: a little coding noise. */
static void
append_shown (Chain * c, gint64 r, GRand * noise)
{
  VhAlignSignature sig = g_array_index (c->ref, VhAlignSignature, r);

  for (guint i = 0; i < VH_ALIGN_CELLS; i++)
    sig.cell[i] += (gfloat) g_rand_double_range (noise, -0.8, 0.8);
  g_array_append_val (c->dist, sig);
  g_array_append_val (c->map, r);
}

static void
append_foreign (Chain * c, gfloat level)
{
  VhAlignSignature sig;
  gint64 none = -1;

  for (guint i = 0; i < VH_ALIGN_CELLS; i++)
    sig.cell[i] = level;
  g_array_append_val (c->dist, sig);
  g_array_append_val (c->map, none);
}

static void
outcome_clear (Outcome * o)
{
  g_array_unref (o->pairs);
  g_array_unref (o->ref_reason);
  g_array_unref (o->dist_reason);
  g_array_unref (o->events);
}

/* Checks the order and uniqueness of decisions as they come. */
static void
collect (VhAlign * align, Outcome * o, guint64 * next_ref, guint64 * next_dist)
{
  VhAlignDecision d;

  while (vh_align_pop (align, &d)) {
    switch (d.type) {
      case VH_ALIGN_PAIR:
        g_assert_cmpuint (d.ref, ==, *next_ref);
        g_assert_cmpuint (d.dist, ==, *next_dist);
        g_assert_true (d.locked);
        g_assert_cmpint ((gint64) d.ref - (gint64) d.dist, ==, d.offset);
        g_array_index (o->pairs, gint64, d.dist) = (gint64) d.ref;
        g_array_index (o->ref_reason, gint, d.ref) = VH_ALIGN_REASON_NONE;
        g_array_index (o->dist_reason, gint, d.dist) = VH_ALIGN_REASON_NONE;
        (*next_ref)++;
        (*next_dist)++;
        o->n_pairs++;
        break;
      case VH_ALIGN_REF_UNMATCHED:
        g_assert_cmpuint (d.ref, ==, *next_ref);
        g_assert_cmpint (d.reason, !=, VH_ALIGN_REASON_NONE);
        g_array_index (o->ref_reason, gint, d.ref) = d.reason;
        (*next_ref)++;
        break;
      case VH_ALIGN_DIST_UNMATCHED:
        g_assert_cmpuint (d.dist, ==, *next_dist);
        g_assert_cmpint (d.reason, !=, VH_ALIGN_REASON_NONE);
        g_array_index (o->dist_reason, gint, d.dist) = d.reason;
        (*next_dist)++;
        break;
      default:
        g_assert_cmpuint (d.dist, ==, *next_dist);
        g_array_append_val (o->events, d);
        break;
    }
  }
}

/* Runs the engine on @c, pushing the inputs interleaved as a live
 * element would see them (@ref_lead reference frames ahead, negative for
 * the distorted ahead), and checks that every frame gets one decision. */
static void
run_chain (const Chain * c, guint window, gint ref_lead, Outcome * o)
{
  VhAlignConfig config;
  g_autoptr (VhAlign) align = NULL;
  guint64 next_ref = 0, next_dist = 0;
  guint r = 0, d = 0;

  vh_align_config_init (&config, window);
  align = vh_align_new (&config);
  o->pairs = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_array_set_size (o->pairs, c->dist->len);
  for (guint j = 0; j < c->dist->len; j++)
    g_array_index (o->pairs, gint64, j) = -1;
  o->ref_reason = g_array_new (FALSE, FALSE, sizeof (gint));
  g_array_set_size (o->ref_reason, c->ref->len);
  o->dist_reason = g_array_new (FALSE, FALSE, sizeof (gint));
  g_array_set_size (o->dist_reason, c->dist->len);
  for (guint i = 0; i < c->ref->len; i++)
    g_array_index (o->ref_reason, gint, i) = -1;
  for (guint j = 0; j < c->dist->len; j++)
    g_array_index (o->dist_reason, gint, j) = -1;
  o->events = g_array_new (FALSE, FALSE, sizeof (VhAlignDecision));
  o->n_pairs = 0;

  while (r < c->ref->len || d < c->dist->len) {
    gboolean ref_turn = d >= c->dist->len ||
        (r < c->ref->len && (gint) r - (gint) d < ref_lead);
    if (ref_turn)
      vh_align_push_reference (align, &g_array_index (c->ref,
              VhAlignSignature, r++));
    else
      vh_align_push_distorted (align, &g_array_index (c->dist,
              VhAlignSignature, d++));
    if (r == c->ref->len)
      vh_align_end_reference (align);
    collect (align, o, &next_ref, &next_dist);
  }
  vh_align_end_distorted (align);
  if (r == c->ref->len)
    vh_align_end_reference (align);
  collect (align, o, &next_ref, &next_dist);
  g_assert_cmpuint (next_ref, ==, c->ref->len);
  g_assert_cmpuint (next_dist, ==, c->dist->len);
}

/* No pair is ever wrong. */
static void
assert_pairs_right (const Chain * c, const Outcome * o)
{
  for (guint j = 0; j < c->dist->len; j++) {
    gint64 got = g_array_index (o->pairs, gint64, j);
    if (got >= 0)
      g_assert_cmpint (got, ==, g_array_index (c->map, gint64, j));
  }
}

static gint
dist_reason (const Outcome * o, guint j)
{
  return g_array_index (o->dist_reason, gint, j);
}

static gint
ref_reason (const Outcome * o, guint i)
{
  return g_array_index (o->ref_reason, gint, i);
}

static const VhAlignDecision *
event (const Outcome * o, guint k)
{
  g_assert_cmpuint (k, <, o->events->len);
  return &g_array_index (o->events, VhAlignDecision, k);
}

/* The distorted starts 37 frames into the reference. */
static void
test_align_delay (void)
{
  Chain c;
  Outcome o;
  GRand *noise = g_rand_new_with_seed (7);

  chain_init (&c);
  make_moving_reference (&c, 200, 1);
  for (gint64 r = 37; r < 200; r++)
    append_shown (&c, r, noise);

  for (gint lead = -60; lead <= 60; lead += 60) {
    run_chain (&c, 50, lead, &o);
    assert_pairs_right (&c, &o);
    g_assert_cmpuint (o.n_pairs, ==, 163);
    g_assert_cmpuint (o.events->len, ==, 1);
    g_assert_cmpint (event (&o, 0)->type, ==, VH_ALIGN_LOCKED);
    g_assert_cmpint (event (&o, 0)->offset, ==, 37);
    g_assert_cmpuint (event (&o, 0)->dist, ==, 0);
    for (guint i = 0; i < 37; i++)
      g_assert_cmpint (ref_reason (&o, i), ==, VH_ALIGN_REASON_NOT_LOCKED);
    outcome_clear (&o);
  }
  g_rand_free (noise);
  chain_clear (&c);
}

/* The distorted starts with 20 frames of something else (black), then
 * shows the reference from its first frame: a negative offset. */
static void
test_align_late_reference (void)
{
  Chain c;
  Outcome o;
  GRand *noise = g_rand_new_with_seed (8);

  chain_init (&c);
  make_moving_reference (&c, 120, 2);
  for (guint k = 0; k < 20; k++)
    append_foreign (&c, 16);
  for (gint64 r = 0; r < 120; r++)
    append_shown (&c, r, noise);

  run_chain (&c, 30, 0, &o);
  assert_pairs_right (&c, &o);
  g_assert_cmpuint (o.n_pairs, ==, 120);
  for (guint j = 0; j < 20; j++)
    g_assert_cmpint (dist_reason (&o, j), ==, VH_ALIGN_REASON_NOT_LOCKED);
  g_assert_cmpint (event (&o, 0)->type, ==, VH_ALIGN_LOCKED);
  g_assert_cmpint (event (&o, 0)->offset, ==, -20);
  outcome_clear (&o);
  g_rand_free (noise);
  chain_clear (&c);
}

/* 3 frames dropped at one point, 2 repeated at another, and a black
 * frame inserted: the lock follows, each frame reported. */
static void
test_align_drops_repeats (void)
{
  Chain c;
  Outcome o;
  GRand *noise = g_rand_new_with_seed (9);
  guint n_events;

  chain_init (&c);
  make_moving_reference (&c, 240, 3);
  for (gint64 r = 10; r < 240; r++) {
    if (r >= 60 && r < 63)
      continue;                 /* dropped */
    append_shown (&c, r, noise);
    if (r == 120) {             /* repeated twice */
      append_shown (&c, r, noise);
      append_shown (&c, r, noise);
    }
    if (r == 180)               /* inserted */
      append_foreign (&c, 16);
  }

  run_chain (&c, 40, 20, &o);
  assert_pairs_right (&c, &o);
  /* Every reference frame shown is paired, but the dropped ones. */
  g_assert_cmpuint (o.n_pairs, ==, 230 - 3);
  for (guint i = 60; i < 63; i++)
    g_assert_cmpint (ref_reason (&o, i), ==, VH_ALIGN_REASON_DROPPED);
  /* Reference 120 is distorted 107; its two repeats follow. */
  g_assert_cmpint (g_array_index (c.map, gint64, 107), ==, 120);
  g_assert_cmpint (dist_reason (&o, 108), ==, VH_ALIGN_REASON_REPEATED);
  g_assert_cmpint (dist_reason (&o, 109), ==, VH_ALIGN_REASON_REPEATED);
  /* The inserted frame after reference 180. */
  g_assert_cmpint (g_array_index (c.map, gint64, 170), ==, -1);
  g_assert_cmpint (dist_reason (&o, 170), ==, VH_ALIGN_REASON_INSERTED);

  /* Locked at 10, then 13 from the drop, 11 from the repeats, 10 after
   * the inserted frame. */
  n_events = o.events->len;
  g_assert_cmpuint (n_events, ==, 4);
  g_assert_cmpint (event (&o, 0)->type, ==, VH_ALIGN_LOCKED);
  g_assert_cmpint (event (&o, 0)->offset, ==, 10);
  g_assert_cmpint (event (&o, 1)->type, ==, VH_ALIGN_OFFSET_CHANGED);
  g_assert_cmpint (event (&o, 1)->offset, ==, 13);
  g_assert_cmpuint (event (&o, 1)->dist, ==, 50);
  g_assert_cmpint (event (&o, 2)->offset, ==, 11);
  g_assert_cmpint (event (&o, 3)->offset, ==, 10);
  g_assert_cmpuint (event (&o, 3)->dist, ==, 171);
  outcome_clear (&o);
  g_rand_free (noise);
  chain_clear (&c);
}

/* Locked, a frame that clearly shows its reference frame is paired as
 * soon as the next few reference frames are there, not after the whole
 * look-ahead (both inputs' frames are held until then); a drop still
 * waits and is followed. */
static void
test_align_early (void)
{
  Chain c;
  GRand *noise = g_rand_new_with_seed (10);
  VhAlignConfig config;
  g_autoptr (VhAlign) align = NULL;
  VhAlignDecision end;
  guint r = 0, late = 0;
  gint64 last_pair = -1;

  chain_init (&c);
  make_moving_reference (&c, 220, 4);
  for (gint64 i = 10; i < 220; i++)
    if (i < 80 || i >= 83)      /* 3 dropped */
      append_shown (&c, i, noise);

  vh_align_config_init (&config, 30);
  align = vh_align_new (&config);
  for (guint j = 0; j < c.dist->len; j++) {
    VhAlignDecision d;
    gboolean paired_now = FALSE;

    /* As a chain delivers it: 4 reference frames after its own. */
    while (r < c.ref->len && r <= g_array_index (c.map, gint64, j) + 4)
      vh_align_push_reference (align, &g_array_index (c.ref,
              VhAlignSignature, r++));
    vh_align_push_distorted (align, &g_array_index (c.dist,
            VhAlignSignature, j));
    while (vh_align_pop (align, &d)) {
      if (d.type != VH_ALIGN_PAIR)
        continue;
      g_assert_cmpint ((gint64) d.ref, ==,
          g_array_index (c.map, gint64, d.dist));
      g_assert_cmpint ((gint64) d.dist, ==, last_pair + 1);
      last_pair = (gint64) d.dist;
      paired_now |= d.dist == j;
    }
    /* Past the first lock (a window) and the drop (distorted 70 shows
     * reference 83: from there the look-ahead), every frame is paired as
     * it comes. */
    if (j >= 40 && (j < 70 || j > 81) && j + 3 < c.dist->len)
      g_assert_true (paired_now);
    late += !paired_now;
  }
  vh_align_end_reference (align);
  vh_align_end_distorted (align);
  while (vh_align_pop (align, &end))
    if (end.type == VH_ALIGN_PAIR)
      last_pair = (gint64) end.dist;
  g_assert_cmpint (last_pair, ==, (gint64) c.dist->len - 1);
  g_assert_cmpuint (late, <=, 40 + 12);
  g_rand_free (noise);
  chain_clear (&c);
}

/* A jump further than a lock looks ahead (30 frames dropped at once):
 * the lock is lost and found again at the new offset, and no pair is
 * wrong on the way, whichever input runs ahead. */
static void
test_align_big_jump (void)
{
  Chain c;
  Outcome o;
  GRand *noise = g_rand_new_with_seed (12);

  chain_init (&c);
  make_moving_reference (&c, 300, 6);
  for (gint64 r = 0; r < 300; r++) {
    if (r >= 100 && r < 130)
      continue;
    append_shown (&c, r, noise);
  }
  for (gint lead = -10; lead <= 50; lead += 30) {
    run_chain (&c, 45, lead, &o);
    assert_pairs_right (&c, &o);
    for (guint i = 100; i < 130; i++)
      g_assert_cmpint (ref_reason (&o, i), !=, VH_ALIGN_REASON_NONE);
    /* Everything but the few frames the lock took to come back. */
    g_assert_cmpuint (o.n_pairs, >=, 270 - 15);
    g_assert_cmpint (g_array_index (o.pairs, gint64, c.dist->len - 1), ==,
        299);
    outcome_clear (&o);
  }
  g_rand_free (noise);
  chain_clear (&c);
}

/* A frozen stretch of 125 frames in the middle (5 s at 25 fps): the lock
 * is lost within the hold, no frame of it paired past that, and found
 * again once the picture moves. */
static void
test_align_still (void)
{
  Chain c;
  Outcome o;
  GRand *noise = g_rand_new_with_seed (10);
  VhAlignConfig defaults;
  guint paired_in_still = 0;

  vh_align_config_init (&defaults, 0);
  chain_init (&c);
  make_moving_reference (&c, 400, 4);
  for (guint f = 101; f < 226; f++)
    g_array_index (c.ref, VhAlignSignature, f) =
        g_array_index (c.ref, VhAlignSignature, 100);
  for (gint64 r = 5; r < 400; r++)
    append_shown (&c, r, noise);

  run_chain (&c, 40, 20, &o);
  assert_pairs_right (&c, &o);
  for (guint j = 0; j < c.dist->len; j++) {
    gint64 r = g_array_index (c.map, gint64, j);
    if (r > 100 && r < 226 && g_array_index (o.pairs, gint64, j) >= 0)
      paired_in_still++;
  }
  g_assert_cmpuint (paired_in_still, <=, defaults.hold);
  g_assert_cmpuint (o.events->len, ==, 3);
  g_assert_cmpint (event (&o, 1)->type, ==, VH_ALIGN_LOST);
  g_assert_cmpint (event (&o, 1)->reason, ==, VH_ALIGN_REASON_STILL);
  g_assert_cmpint (event (&o, 2)->type, ==, VH_ALIGN_LOCKED);
  g_assert_cmpint (event (&o, 2)->offset, ==, 5);
  /* Everything after the freeze is paired again. */
  for (guint j = 226 - 5 + 1; j < c.dist->len; j++)
    g_assert_cmpint (g_array_index (o.pairs, gint64, j), >=, 0);
  outcome_clear (&o);
  g_rand_free (noise);
  chain_clear (&c);
}

/* Flat or still content from start to end: never locked, nothing paired. */
static void
test_align_never_locks (void)
{
  Chain c;
  Outcome o;
  GRand *noise = g_rand_new_with_seed (11);

  chain_init (&c);
  make_moving_reference (&c, 1, 5);
  for (guint f = 1; f < 100; f++) {
    VhAlignSignature frozen = g_array_index (c.ref, VhAlignSignature, 0);
    g_array_append_val (c.ref, frozen);
  }
  for (gint64 r = 0; r < 90; r++)
    append_shown (&c, r, noise);
  run_chain (&c, 30, 0, &o);
  g_assert_cmpuint (o.n_pairs, ==, 0);
  g_assert_cmpuint (o.events->len, ==, 0);
  outcome_clear (&o);
  chain_clear (&c);

  chain_init (&c);
  for (guint f = 0; f < 60; f++) {
    VhAlignSignature flat;
    for (guint i = 0; i < VH_ALIGN_CELLS; i++)
      flat.cell[i] = 100.0f + (f % 2) * 0.1f;
    g_array_append_val (c.ref, flat);
  }
  for (gint64 r = 0; r < 60; r++)
    append_shown (&c, r, noise);
  run_chain (&c, 30, 0, &o);
  g_assert_cmpuint (o.n_pairs, ==, 0);
  outcome_clear (&o);
  chain_clear (&c);
  g_rand_free (noise);
}

/* The signature of a picture: block means in 8-bit levels at any depth,
 * and a clear error for what it cannot take. */
static void
test_align_signature (void)
{
  VhPictureInfo info;
  g_autoptr (GError) error = NULL;
  VhAlignSignature sig8, sig10;
  VhPicture *p8, *p10;

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, 35, 19,
          NULL));
  p8 = vh_picture_new (&info);
  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 10, 35, 19,
          NULL));
  p10 = vh_picture_new (&info);
  for (guint y = 0; y < 19; y++)
    for (guint x = 0; x < 35; x++) {
      guint v = (x * 7 + y * 3) % 200;
      ((guint8 *) vh_picture_row (p8, 0, y))[x] = v;
      ((guint16 *) vh_picture_row (p10, 0, y))[x] = v << 2;
    }
  g_assert_true (vh_align_signature_compute (p8, &sig8, &error));
  g_assert_no_error (error);
  g_assert_true (vh_align_signature_compute (p10, &sig10, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < VH_ALIGN_CELLS; i++)
    g_assert_cmpfloat_with_epsilon (sig8.cell[i], sig10.cell[i], 1e-4);
  /* The first cell covers columns 0-2 and rows 0-1. */
  g_assert_cmpfloat_with_epsilon (sig8.cell[0],
      (0 + 7 + 14 + 3 + 10 + 17) / 6.0, 1e-4);
  vh_picture_unref (p8);
  vh_picture_unref (p10);

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, 15, 40,
          NULL));
  p8 = vh_picture_new (&info);
  g_assert_false (vh_align_signature_compute (p8, &sig8, &error));
  g_assert_error (error, VH_ERROR, VH_ERROR_TOO_SMALL);
  g_assert_nonnull (strstr (error->message, "15x40"));
  vh_picture_unref (p8);
}

/* The signature of random frames of several sizes and depths equals the
 * one made from block sums counted here sample by sample (block i of n
 * over size samples covers [ceil (i * size / n), ceil ((i + 1) * size /
 * n)), every row_step-th row of it from its first: 1 up to 511 lines, 2
 * at 720p, 4 at 1080p, 16 at 4200), bit for bit. */
static void
test_align_signature_sums (void)
{
  static const guint sizes[][3] = {
    {16, 16, 8}, {37, 23, 8}, {576, 324, 8}, {1920, 1080, 8}, {35, 19, 10},
    {641, 361, 12}, {20, 4200, 8}, {1280, 720, 10}, {700, 513, 8},
  };
  GRand *rand = g_rand_new_with_seed (29);

  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++) {
    guint w = sizes[k][0], h = sizes[k][1], bpc = sizes[k][2];
    guint row_step = vh_align_signature_row_step (h);
    g_autoptr (GError) error = NULL;
    guint64 sums[VH_ALIGN_CELLS] = { 0 };
    guint64 picked = 0;
    VhAlignSignature got, want;
    VhPictureInfo info;
    VhPicture *pic;

    g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, bpc, w, h,
            NULL));
    pic = vh_picture_new (&info);
    for (guint y = 0; y < h; y++)
      for (guint x = 0; x < w; x++) {
        guint v = g_rand_int_range (rand, 0, 1 << bpc);
        guint r = y * VH_ALIGN_GRID_H / h;
        guint cell = r * VH_ALIGN_GRID_W + x * VH_ALIGN_GRID_W / w;
        /* the block's first row, ceil (r * h / 16) */
        guint y0 = (r * h + VH_ALIGN_GRID_H - 1) / VH_ALIGN_GRID_H;

        if (bpc == 8)
          ((guint8 *) vh_picture_row (pic, 0, y))[x] = v;
        else
          ((guint16 *) vh_picture_row (pic, 0, y))[x] = v;
        if ((y - y0) % row_step == 0) {
          sums[cell] += v;
          picked++;
        }
      }
    g_assert_cmpuint (vh_align_signature_samples_read (w, h), ==, picked);
    g_assert_true (vh_align_signature_compute (pic, &got, &error));
    g_assert_true (vh_align_signature_from_sums (sums, w, h, bpc, &want,
            &error));
    g_assert_no_error (error);
    g_assert_cmpmem (got.cell, sizeof (got.cell), want.cell,
        sizeof (want.cell));
    vh_picture_unref (pic);
  }
  g_rand_free (rand);
}

/* A golden clip and its encode, the encode delayed by 5 frames, with 2
 * frames dropped and one repeated: every frame paired with its own. */
static void
test_align_real_frames (void)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  VhGoldenPair *pair = vh_golden_pair_find (pairs,
      "golden_src01_q160x90_8bit_48f");
  Chain c;
  Outcome o;
  gint64 shown[48];
  guint n_shown = 0;

  chain_init (&c);
  for (guint f = 0; f < pair->n_frames; f++) {
    g_autoptr (GError) error = NULL;
    VhPicture *pic = vh_golden_read_frame (pair, TRUE, f, &error);
    VhAlignSignature sig;

    g_assert_no_error (error);
    g_assert_true (vh_align_signature_compute (pic, &sig, &error));
    g_array_append_val (c.ref, sig);
    vh_picture_unref (pic);
  }
  for (gint64 r = 5; r < pair->n_frames; r++) {
    if (r == 28 || r == 29)
      continue;
    shown[n_shown++] = r;
    if (r == 38)
      shown[n_shown++] = r;
  }
  for (guint j = 0; j < n_shown; j++) {
    g_autoptr (GError) error = NULL;
    VhPicture *pic = vh_golden_read_frame (pair, FALSE, shown[j], &error);
    VhAlignSignature sig;

    g_assert_no_error (error);
    g_assert_true (vh_align_signature_compute (pic, &sig, &error));
    g_array_append_val (c.dist, sig);
    g_array_append_val (c.map, shown[j]);
    vh_picture_unref (pic);
  }

  run_chain (&c, 12, 0, &o);
  assert_pairs_right (&c, &o);
  /* This clip moves slowly under heavy coding noise: few matches are
   * clear, but the best one leans the same way frame after frame, which
   * locks from the first frame on. */
  g_assert_cmpint (event (&o, 0)->type, ==, VH_ALIGN_LOCKED);
  g_assert_cmpuint (event (&o, 0)->dist, ==, 0);
  for (guint j = event (&o, 0)->dist; j < n_shown; j++)
    g_assert_true (g_array_index (o.pairs, gint64, j) >= 0 ||
        j == 38 - 5 - 2 + 1);
  g_assert_cmpint (ref_reason (&o, 28), ==, VH_ALIGN_REASON_DROPPED);
  g_assert_cmpint (ref_reason (&o, 29), ==, VH_ALIGN_REASON_DROPPED);
  g_assert_cmpint (dist_reason (&o, 38 - 5 - 2 + 1), ==,
      VH_ALIGN_REASON_REPEATED);
  g_assert_cmpuint (o.events->len, ==, 3);
  g_assert_cmpint (event (&o, 0)->offset, ==, 5);
  g_assert_cmpint (event (&o, 1)->offset, ==, 7);
  g_assert_cmpint (event (&o, 2)->offset, ==, 6);
  outcome_clear (&o);
  chain_clear (&c);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/align/signature", test_align_signature);
  g_test_add_func ("/align/signature-sums", test_align_signature_sums);
  g_test_add_func ("/align/delay", test_align_delay);
  g_test_add_func ("/align/late-reference", test_align_late_reference);
  g_test_add_func ("/align/drops-repeats", test_align_drops_repeats);
  g_test_add_func ("/align/early", test_align_early);
  g_test_add_func ("/align/big-jump", test_align_big_jump);
  g_test_add_func ("/align/still", test_align_still);
  g_test_add_func ("/align/never-locks", test_align_never_locks);
  g_test_add_func ("/align/real-frames", test_align_real_frames);
  return g_test_run ();
}
