/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_POOL_H__
#define __VH_POOL_H__

#include <glib.h>

#include "feature-collector.h"

G_BEGIN_DECLS

typedef enum
{
  VH_POOL_MEAN,
  VH_POOL_HARMONIC_MEAN,
  VH_POOL_MIN,
  VH_POOL_MAX,
} VhPoolMethod;

/* A running pool: values added one at a time, in frame order, with
 * libvmaf's arithmetic (the same as vh_pool_feature(), which uses it), so
 * that a live consumer never walks the stored frames again. Zero it to
 * start. */
typedef struct
{
  guint64 n;
  gdouble sum;
  gdouble inv_sum;
  gdouble min;
  gdouble max;
  gboolean seeded;              /* min and max hold a value */
} VhPoolAccumulator;

void         vh_pool_accumulator_add      (VhPoolAccumulator * acc,
                                           gdouble value);

/* The pooled value; at least one value must have been added. The harmonic
 * mean is n / sum (1 / (x + 1)) - 1. */
gdouble      vh_pool_accumulator_get      (const VhPoolAccumulator * acc,
                                           VhPoolMethod method);

/* Pools @name over frames @first..@last (inclusive), counting only frames
 * that are multiples of @subsample (1 = every frame), as libvmaf does. The
 * harmonic mean is n / sum (1 / (x + 1)) - 1. Fails if a counted frame has
 * no value or no frame is counted. */
gboolean     vh_pool_feature              (VhFeatureCollector * fc,
                                           const gchar * name,
                                           VhPoolMethod method,
                                           guint first, guint last,
                                           guint subsample,
                                           gdouble * result,
                                           GError ** error);

/* The @p-th percentile (0..100) of @sorted (@n > 0 values, ascending),
 * by linear interpolation between the closest ranks, numpy's default:
 * rank h = (n - 1) p / 100, value x[floor h] + (h - floor h)
 * (x[floor h + 1] - x[floor h]). */
gdouble      vh_pool_percentile           (const gdouble * sorted, guint n,
                                           gdouble p);

/* The values of @name over frames @first..@last counted as
 * vh_pool_feature() counts them, sorted ascending into @values (cleared
 * first), ready for vh_pool_percentile(). Fails as vh_pool_feature(). */
gboolean     vh_pool_feature_sorted       (VhFeatureCollector * fc,
                                           const gchar * name,
                                           guint first, guint last,
                                           guint subsample,
                                           GArray * values,
                                           GError ** error);

/* "mean", "harmonic_mean", "min", "max". */
const gchar *vh_pool_method_to_string     (VhPoolMethod method);

gboolean     vh_pool_method_from_string   (const gchar * str,
                                           VhPoolMethod * method);

G_END_DECLS

#endif /* __VH_POOL_H__ */
