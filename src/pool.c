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

#include <math.h>
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

void
vh_pool_accumulator_add (VhPoolAccumulator * acc, gdouble value)
{
  acc->sum += value;
  acc->inv_sum += 1.0 / (value + 1.0);
  if (!acc->seeded || value < acc->min)
    acc->min = value;
  if (!acc->seeded || value > acc->max)
    acc->max = value;
  acc->seeded = TRUE;
  acc->n++;
}

gdouble
vh_pool_accumulator_get (const VhPoolAccumulator * acc, VhPoolMethod method)
{
  g_return_val_if_fail (acc->n > 0, 0.0);
  switch (method) {
    case VH_POOL_HARMONIC_MEAN:
      /* Shifted by one so that zero scores stay finite. */
      return acc->n / acc->inv_sum - 1.0;
    case VH_POOL_MIN:
      return acc->min;
    case VH_POOL_MAX:
      return acc->max;
    case VH_POOL_MEAN:
    default:
      return acc->sum / acc->n;
  }
}

gboolean
vh_pool_feature (VhFeatureCollector * fc, const gchar * name,
    VhPoolMethod method, guint first, guint last, guint subsample,
    gdouble * result, GError ** error)
{
  VhPoolAccumulator acc = { 0 };

  g_return_val_if_fail ((guint) method < G_N_ELEMENTS (method_names), FALSE);
  if (first > last) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "cannot pool '%s' over frames %u..%u", name, first, last);
    return FALSE;
  }
  /* libvmaf seeds min and max at frame @first only, even when the
   * subsampling skips it: then they start from 0. */
  acc.seeded = subsample > 1 && first % subsample;
  for (guint i = first;; i++) {
    gdouble v;

    if (subsample > 1 && i % subsample)
      goto next;
    if (!vh_feature_collector_get (fc, name, i, &v)) {
      g_set_error (error, VH_ERROR, VH_ERROR_FAILED,
          "cannot pool '%s': no value for frame %u", name, i);
      return FALSE;
    }
    vh_pool_accumulator_add (&acc, v);
  next:
    if (i == last)
      break;
  }
  if (acc.n == 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "cannot pool '%s': no frame of %u..%u is a multiple of %u", name,
        first, last, subsample);
    return FALSE;
  }

  *result = vh_pool_accumulator_get (&acc, method);
  return TRUE;
}

gdouble
vh_pool_percentile (const gdouble * sorted, guint n, gdouble p)
{
  gdouble h = (n - 1) * p / 100.0;
  guint lo = (guint) floor (h);

  if (lo + 1 >= n)
    return sorted[n - 1];
  return sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]);
}

static gint
compare_doubles (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return (x > y) - (x < y);
}

gboolean
vh_pool_feature_sorted (VhFeatureCollector * fc, const gchar * name,
    guint first, guint last, guint subsample, GArray * values,
    GError ** error)
{
  g_array_set_size (values, 0);
  if (first > last) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "cannot pool '%s' over frames %u..%u", name, first, last);
    return FALSE;
  }
  for (guint i = first;; i++) {
    gdouble v;

    if (subsample <= 1 || i % subsample == 0) {
      if (!vh_feature_collector_get (fc, name, i, &v)) {
        g_set_error (error, VH_ERROR, VH_ERROR_FAILED,
            "cannot pool '%s': no value for frame %u", name, i);
        return FALSE;
      }
      g_array_append_val (values, v);
    }
    if (i == last)
      break;
  }
  if (values->len == 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "cannot pool '%s': no frame of %u..%u is a multiple of %u", name,
        first, last, subsample);
    return FALSE;
  }
  g_array_sort (values, compare_doubles);
  return TRUE;
}
