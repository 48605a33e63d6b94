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

/* "mean", "harmonic_mean", "min", "max". */
const gchar *vh_pool_method_to_string     (VhPoolMethod method);

gboolean     vh_pool_method_from_string   (const gchar * str,
                                           VhPoolMethod * method);

G_END_DECLS

#endif /* __VH_POOL_H__ */
