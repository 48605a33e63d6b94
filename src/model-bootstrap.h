/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_MODEL_BOOTSTRAP_H__
#define __VH_MODEL_BOOTSTRAP_H__

#include "model-part.h"

G_BEGIN_DECLS

#define VH_BOOTSTRAP_N_STATS 4

/* "_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi", in the order they are
 * appended. */
const gchar *vh_bootstrap_stat_suffix (guint i);

/* Scores frame @index with each member (appending its own score), then
 * appends the statistics of the members' raw scores under @name + suffix. */
gboolean     vh_bootstrap_predict     (const VhModelPart * const *members,
                                       guint n_members, const gchar * name,
                                       VhFeatureCollector * fc, guint index,
                                       GError ** error);

G_END_DECLS

#endif /* __VH_MODEL_BOOTSTRAP_H__ */
