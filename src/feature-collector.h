/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_FEATURE_COLLECTOR_H__
#define __VH_FEATURE_COLLECTOR_H__

#include <glib.h>

#include "log-order.h"

G_BEGIN_DECLS

/**
 * VhFeatureCollector:
 *
 * Thread-safe store of per-frame values, keyed by feature name (libvmaf's
 * output names, option suffixes included) and frame index. Features are
 * listed once they hold a value, in the order they were declared or first
 * appended.
 */
typedef struct _VhFeatureCollector VhFeatureCollector;

VhFeatureCollector *vh_feature_collector_new      (void);

void         vh_feature_collector_free            (VhFeatureCollector * fc);

/* Fails if the value for (name, index) was already set. NaN and infinities
 * are values (written as libvmaf writes them), not gaps. */
gboolean     vh_feature_collector_append          (VhFeatureCollector * fc,
                                                   const gchar * name,
                                                   guint index,
                                                   gdouble value,
                                                   GError ** error);

/* Same, with where libvmaf's log would list the feature (log-order.h):
 * features are listed by the smallest key of their writes, before those
 * written without one. */
gboolean     vh_feature_collector_append_keyed    (VhFeatureCollector * fc,
                                                   const gchar * name,
                                                   guint index,
                                                   gdouble value,
                                                   const VhLogKey * key,
                                                   GError ** error);

/* Adds @name to the feature order without a value (no-op if known), so
 * that logs list features in a fixed order whatever thread appends first. */
void         vh_feature_collector_declare         (VhFeatureCollector * fc,
                                                   const gchar * name);

gboolean     vh_feature_collector_get             (VhFeatureCollector * fc,
                                                   const gchar * name,
                                                   guint index,
                                                   gdouble * value);

/* Number of features that hold a value, and the i-th one. */
guint        vh_feature_collector_n_features      (VhFeatureCollector * fc);

const gchar *vh_feature_collector_feature_name    (VhFeatureCollector * fc,
                                                   guint i);

/* One past the largest frame index that holds any value. */
guint        vh_feature_collector_n_frames        (VhFeatureCollector * fc);

/* Lets the values of frames below @before go, for long live runs whose
 * frames were already reported. Memory is freed in batches of frames;
 * released frames read as unset and can no longer be written. */
void         vh_feature_collector_release         (VhFeatureCollector * fc,
                                                   guint before);

/* Whole-stream values (libvmaf's "aggregate metrics", e.g. psnr's
 * apsnr_y), set once at the end of a stream; setting a name again replaces
 * its value. Listed in the order first set. */
void         vh_feature_collector_set_aggregate   (VhFeatureCollector * fc,
                                                   const gchar * name,
                                                   gdouble value);

guint        vh_feature_collector_n_aggregates    (VhFeatureCollector * fc);

/* The i-th aggregate's name (NULL past the end) and value. */
const gchar *vh_feature_collector_aggregate       (VhFeatureCollector * fc,
                                                   guint i, gdouble * value);

/* Drops every value and aggregate; feature names are kept. */
void         vh_feature_collector_clear           (VhFeatureCollector * fc);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VhFeatureCollector, vh_feature_collector_free)

G_END_DECLS

#endif /* __VH_FEATURE_COLLECTOR_H__ */
