/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __VH_TEST_EXTRACTOR_CHECK_H__
#define __VH_TEST_EXTRACTOR_CHECK_H__

/* What the CPU extractor tests share: extractors made by name, golden pairs
 * scored and compared with libvmaf's logs, synthetic pictures. Every helper
 * fails the test on an unexpected error. */

#include <glib.h>
#include "feature-extractor.h"
#include "golden.h"
#include "vh-test.h"

G_BEGIN_DECLS

/* The CPU extractor named @name (the class's own name, not a feature it
 * provides) with @opts set: "option", "value", ..., NULL; @opts may be
 * NULL. */
VhFeatureExtractor *vh_check_extractor_new (const gchar * name,
                                            const gchar * const *opts);

/* Initialises @fex for @info. An extractor picks its kernels at init:
 * @portable forces the portable ones, else it takes the SIMD ones where
 * the CPU has them. */
void         vh_check_extractor_init  (VhFeatureExtractor * fex,
                                       const VhPictureInfo * info,
                                       gboolean portable);

/* vh_check_extractor_new() and vh_check_extractor_init() in one. */
VhFeatureExtractor *vh_check_extractor_new_for (const gchar * name,
                                                const gchar * const *opts,
                                                const VhPictureInfo * info,
                                                gboolean portable);

/* Whether a new @name with @opts accepts @width x @height 4:2:0 pictures
 * of @bpc bits (the size limits); @error says why not. */
gboolean     vh_check_init_size       (const gchar * name,
                                       const gchar * const *opts, guint bpc,
                                       guint width, guint height,
                                       GError ** error);

/* Scores every frame of golden pair @pair with a new @name (@opts,
 * @portable as above), then flushes as a stream's end does. */
VhFeatureCollector *vh_check_score_pair (const VhGoldenPair * pair,
                                         const gchar * name,
                                         const gchar * const *opts,
                                         gboolean portable);

/* Demands that @a and @b hold the same features and bit-identical values
 * for frames 0 .. @n_frames - 1; with @may_be_unset a value may be
 * missing from both (NaN reads as unset). @what names the case in the
 * failure. Returns the number of values compared. */
guint        vh_check_collectors_identical (VhFeatureCollector * a,
                                            VhFeatureCollector * b,
                                            guint n_frames,
                                            gboolean may_be_unset,
                                            const gchar * what);

/* Fills the luma of @pic with pattern @mode % 5, meant to reach the
 * corners of a fixed-point pipeline: noise over the whole range, a
 * full-swing checkerboard, flat white, a ramp with mild noise (small
 * variances), and noise in a narrow band. */
void         vh_check_fill_luma       (VhPicture * pic, GRand * rand,
                                       guint mode);

/* Sets sample @x of row @y of plane @p, whatever the bit depth. */
static inline void
vh_check_set_sample (VhPicture * pic, guint p, guint x, guint y, guint v)
{
  if (pic->info.bpc == 8)
    ((guint8 *) vh_picture_row (pic, p, y))[x] = v;
  else
    ((guint16 *) vh_picture_row (pic, p, y))[x] = v;
}

typedef VhFeatureCollector *(*VhCheckScoreFunc) (const VhGoldenPair * pair,
    gpointer user_data);
typedef void (*VhCheckValueFunc) (const gchar * metric, gdouble got,
    gdouble want, gpointer user_data);

/* One comparison of scores with libvmaf's logs of every golden pair. */
typedef struct
{
  const gchar *label;           /* names the run in the test's output */
  const gchar *file;            /* each pair's log, e.g. "feat_vif.json" */
  const gchar *const *metrics;  /* compared on every frame, NULL-ended */
  const gchar *suffix;          /* if set, appended to each metric's name */
  gdouble tolerance;            /* largest |ours - libvmaf's| accepted */
  /* libvmaf refused some pairs (too small): their logs have no frames and
   * are passed over. Otherwise such a log fails the test. */
  gboolean may_refuse;
  /* How a pair is scored: vh_check_score_pair() with these... */
  const gchar *extractor;
  const gchar *const *opts;
  gboolean portable;
  /* ...or, when set, this. */
  VhCheckScoreFunc score;
  /* Optional: sees every value compared. */
  VhCheckValueFunc value;
  gpointer user_data;
} VhGoldenCheck;

/* Scores each golden pair that has @check->file and compares every metric
 * of every frame with the log within the tolerance; prints the largest
 * difference per pair and per metric. At least one pair must be compared;
 * without golden data the test is skipped. */
void         vh_check_golden          (const VhGoldenCheck * check);

G_END_DECLS

#endif
