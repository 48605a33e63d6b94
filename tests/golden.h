/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __VH_TEST_GOLDEN_H__
#define __VH_TEST_GOLDEN_H__

#include <glib.h>
#include "picture.h"

G_BEGIN_DECLS

/* One row of pairs.tsv. */
typedef struct
{
  gchar *name;
  gchar *ref_path;
  gchar *dist_path;
  guint width, height, bpc, n_frames;
} VhGoldenPair;

/* The golden directory: $VH_GOLDEN_DIR, else ../shared/golden beside the
 * source tree, else the small set in tests/data. NULL if none exists. */
const gchar *vh_golden_dir (void);

/* Every pair of the golden directory's pairs.tsv (free with
 * g_ptr_array_unref). */
GPtrArray   *vh_golden_pairs (void);

VhGoldenPair *vh_golden_pair_find (GPtrArray * pairs, const gchar * name);

/* Reads frame @index of a raw 4:2:0 clip into a new host picture. */
VhPicture   *vh_golden_read_frame (const VhGoldenPair * pair, gboolean ref,
                                   guint index, GError ** error);

/* Golden scores: @file is e.g. "feat_vif.json". Returns NULL if the file
 * is missing. */
typedef struct _VhGoldenScores VhGoldenScores;

VhGoldenScores *vh_golden_scores_load (const VhGoldenPair * pair,
                                       const gchar * file, GError ** error);
/* Whether @pair has @file with frames in it: libvmaf logs none for a pair
 * it refused. */
gboolean     vh_golden_scores_has_frames (const VhGoldenPair * pair,
                                       const gchar * file);
void         vh_golden_scores_free   (VhGoldenScores * gs);
guint        vh_golden_scores_n_frames (VhGoldenScores * gs);
/* Names of the per-frame metrics (NULL-terminated, owned by @gs). */
const gchar *const *vh_golden_scores_metrics (VhGoldenScores * gs);
gboolean     vh_golden_scores_get     (VhGoldenScores * gs, guint frame,
                                       const gchar * metric, gdouble * value);
/* Pooled value: @method is "min", "max", "mean" or "harmonic_mean". */
gboolean     vh_golden_scores_get_pooled (VhGoldenScores * gs,
                                       const gchar * metric,
                                       const gchar * method, gdouble * value);

G_END_DECLS

#endif
