/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "model-bootstrap.h"

#include <math.h>
#include <stdlib.h>

static const gchar *const stat_suffix[VH_BOOTSTRAP_N_STATS] = {
  "_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi"
};

const gchar *
vh_bootstrap_stat_suffix (guint i)
{
  g_return_val_if_fail (i < VH_BOOTSTRAP_N_STATS, NULL);
  return stat_suffix[i];
}

static gint
compare_doubles (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x > y ? 1 : x < y ? -1 : 0;
}

/* Percentile of sorted @v by linear interpolation between the two closest
 * ranks, rank = perc / 100 * (n - 1). */
static gdouble
percentile (const gdouble * v, guint n, gdouble perc)
{
  const gdouble rank = perc * (n - 1) / 100.;
  const gint lo = (gint) floor (rank);
  const gint hi = (gint) ceil (rank);

  if (lo == hi)
    return v[lo];
  return v[lo] * (hi - rank) + v[hi] * (rank - lo);
}

gboolean
vh_bootstrap_predict (const VhModelPart * const *members, guint n_members,
    const gchar * name, VhFeatureCollector * fc, guint index, GError ** error)
{
  g_autofree gdouble *raw = g_new (gdouble, n_members);
  /* The statistics go through the first member's transform and clip. */
  const VhModelPart *first = members[0];
  const gdouble delta = 0.01;
  gdouble sum = 0.0, ssd = 0.0, mean, stddev, slope, stats[4];

  /* The statistics use raw scores; each member's own score is transformed
   * and clipped as its model says. */
  for (guint i = 0; i < n_members; i++) {
    if (!vh_model_part_predict (members[i], fc, index, &raw[i], error))
      return FALSE;
    if (!vh_feature_collector_append (fc, members[i]->name, index,
            vh_model_part_finish (members[i], raw[i]), error))
      return FALSE;
  }

  for (guint i = 0; i < n_members; i++)
    sum += raw[i];
  mean = sum / n_members;
  for (guint i = 0; i < n_members; i++)
    ssd += pow (raw[i] - mean, 2);
  /* Population deviation, scaled by the local slope of transform + clip
   * (a central difference of +-delta around the mean). */
  stddev = sqrt (ssd / n_members);
  slope = (vh_model_part_finish (first, mean + delta) -
      vh_model_part_finish (first, mean - delta)) / (2.0 * delta);

  qsort (raw, n_members, sizeof (gdouble), compare_doubles);
  stats[0] = vh_model_part_finish (first, mean);
  stats[1] = stddev * slope;
  stats[2] = vh_model_part_finish (first, percentile (raw, n_members, 2.5));
  stats[3] = vh_model_part_finish (first, percentile (raw, n_members, 97.5));

  for (guint s = 0; s < VH_BOOTSTRAP_N_STATS; s++) {
    g_autofree gchar *stat_name = g_strconcat (name, stat_suffix[s], NULL);
    if (!vh_feature_collector_append (fc, stat_name, index, stats[s], error))
      return FALSE;
  }
  return TRUE;
}
