/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "pool.h"
#include "errors.h"

#include <string.h>

static const gchar *const method_names[] = {
  [VH_POOL_MEAN] = "mean",
  [VH_POOL_HARMONIC_MEAN] = "harmonic_mean",
  [VH_POOL_MIN] = "min",
  [VH_POOL_MAX] = "max",
};

const gchar *
vh_pool_method_to_string (VhPoolMethod method)
{
  g_return_val_if_fail ((guint) method < G_N_ELEMENTS (method_names), NULL);
  return method_names[method];
}

gboolean
vh_pool_method_from_string (const gchar * str, VhPoolMethod * method)
{
  for (guint i = 0; str && i < G_N_ELEMENTS (method_names); i++) {
    if (!strcmp (str, method_names[i])) {
      *method = (VhPoolMethod) i;
      return TRUE;
    }
  }
  return FALSE;
}

gboolean
vh_pool_feature (VhFeatureCollector * fc, const gchar * name,
    VhPoolMethod method, guint first, guint last, guint subsample,
    gdouble * result, GError ** error)
{
  gdouble sum = 0.0, inv_sum = 0.0, min = 0.0, max = 0.0;
  guint n = 0;

  g_return_val_if_fail ((guint) method < G_N_ELEMENTS (method_names), FALSE);
  if (first > last) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "cannot pool '%s' over frames %u..%u", name, first, last);
    return FALSE;
  }
  for (guint i = first;; i++) {
    gdouble v;

    if (subsample > 1 && i % subsample)
      goto next;
    n++;
    if (!vh_feature_collector_get (fc, name, i, &v)) {
      g_set_error (error, VH_ERROR, VH_ERROR_FAILED,
          "cannot pool '%s': no value for frame %u", name, i);
      return FALSE;
    }
    sum += v;
    inv_sum += 1.0 / (v + 1.0);
    /* libvmaf seeds min and max at frame @first only, even when the
     * subsampling skips it (then they start from 0). */
    if (i == first || v < min)
      min = v;
    if (i == first || v > max)
      max = v;
  next:
    if (i == last)
      break;
  }
  if (n == 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "cannot pool '%s': no frame of %u..%u is a multiple of %u", name,
        first, last, subsample);
    return FALSE;
  }

  switch (method) {
    case VH_POOL_MEAN:
      *result = sum / n;
      break;
    case VH_POOL_HARMONIC_MEAN:
      /* Shifted by one so that zero scores stay finite. */
      *result = n / inv_sum - 1.0;
      break;
    case VH_POOL_MIN:
      *result = min;
      break;
    case VH_POOL_MAX:
      *result = max;
      break;
  }
  return TRUE;
}
