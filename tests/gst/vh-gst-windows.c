/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vh-gst-check.h"
#include "vh-gst-windows.h"

static gint
cmp_double (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return x < y ? -1 : x > y;
}

gdouble
vh_gst_percentile (const gdouble * values, guint n, gdouble p)
{
  gdouble *v = g_memdup2 (values, n * sizeof (gdouble));
  gdouble rank = (n - 1) * p / 100.0, r;
  guint below;

  qsort (v, n, sizeof (gdouble), cmp_double);
  below = (guint) floor (rank);
  r = below + 1 < n ? v[below] + (rank - below) * (v[below + 1] - v[below])
      : v[n - 1];
  g_free (v);
  return r;
}

static gboolean
is_model (const gchar * name, const gchar * const *models)
{
  return models && g_strv_contains (models, name);
}

static void
check_metric (const GstStructure * m, const gchar * name, GPtrArray * frames,
    guint first, guint n, const gdouble * percentiles,
    const gchar * const *pnames, guint n_percentiles,
    const gdouble * thresholds, const gchar * const *tnames,
    guint n_thresholds, gboolean model)
{
  gdouble *v = g_new (gdouble, n);
  gdouble sum = 0.0, inv = 0.0, min = 0.0, max = 0.0;
  guint64 worst_time = 0;

  for (guint i = 0; i < n; i++) {
    const GstStructure *f = g_ptr_array_index (frames, first + i);

    v[i] = vh_gst_get_double (f, name);
    sum += v[i];
    inv += 1.0 / (v[i] + 1.0);
    if (i == 0 || v[i] < min) {
      min = v[i];
      worst_time = vh_gst_get_uint64 (f, "stream-time");
    }
    if (i == 0 || v[i] > max)
      max = v[i];
  }
  vh_assert_msg (vh_gst_get_double (m, "min") == min, "%s min", name);
  vh_assert_msg (vh_gst_get_double (m, "max") == max, "%s max", name);
  vh_assert_msg (vh_gst_get_double (m, "mean") == sum / n, "%s mean %.17g "
      "against %.17g", name, vh_gst_get_double (m, "mean"), sum / n);
  vh_assert_msg (vh_gst_get_double (m, "harmonic-mean") == n / inv - 1.0,
      "%s harmonic mean", name);
  for (guint p = 0; p < n_percentiles; p++) {
    gdouble want = vh_gst_percentile (v, n, percentiles[p]);
    vh_assert_msg (vh_gst_get_double (m, pnames[p]) == want,
        "%s %s: %.17g, not %.17g", name, pnames[p],
        vh_gst_get_double (m, pnames[p]), want);
  }
  for (guint t = 0; t < n_thresholds; t++) {
    guint below = 0, got = G_MAXUINT;

    for (guint i = 0; i < n; i++)
      below += v[i] < thresholds[t];
    if (model) {
      g_assert_true (gst_structure_get_uint (m, tnames[t], &got));
      vh_assert_msg (got == below, "%s %s: %u, not %u", name, tnames[t],
          got, below);
    } else {
      g_assert_false (gst_structure_has_field (m, tnames[t]));
    }
  }
  if (model)
    g_assert_cmpuint (vh_gst_get_uint64 (m, "worst-time"), ==, worst_time);
  else
    g_assert_false (gst_structure_has_field (m, "worst-time"));
  g_free (v);
}

void
vh_gst_check_window (const GstStructure * window, GPtrArray * frames,
    guint first, guint n, const gdouble * percentiles,
    const gchar * const *pnames, guint n_percentiles,
    const gdouble * thresholds, const gchar * const *tnames,
    guint n_thresholds, const gchar * const *models)
{
  const GstStructure *f0 = g_ptr_array_index (frames, first);
  const GstStructure *fn = g_ptr_array_index (frames, first + n - 1);
  guint frames_field = 0, n_metrics = 0;

  g_assert_cmpstr (gst_structure_get_string (window, "pad"), ==,
      "dist_sink");
  g_assert_true (gst_structure_get_uint (window, "frames", &frames_field));
  g_assert_cmpuint (frames_field, ==, n);
  g_assert_cmpuint (vh_gst_get_uint64 (window, "first-frame"), ==,
      vh_gst_get_uint64 (f0, "index"));
  g_assert_cmpuint (vh_gst_get_uint64 (window, "last-frame"), ==,
      vh_gst_get_uint64 (fn, "index"));
  g_assert_cmpuint (vh_gst_get_uint64 (window, "window-start"), ==,
      vh_gst_get_uint64 (f0, "stream-time"));
  g_assert_cmpuint (vh_gst_get_uint64 (window, "window-end"), ==,
      vh_gst_get_uint64 (fn, "stream-time"));

  for (gint i = 0; i < gst_structure_n_fields (f0); i++) {
    const gchar *name = gst_structure_nth_field_name (f0, i);
    const GstStructure *m = NULL;

    if (G_VALUE_TYPE (gst_structure_get_value (f0, name)) != G_TYPE_DOUBLE ||
        !strcmp (name, "score"))
      continue;
    vh_assert_msg (gst_structure_get (window, name, GST_TYPE_STRUCTURE, &m,
            NULL), "window without %s", name);
    check_metric (m, name, frames, first, n, percentiles, pnames,
        n_percentiles, thresholds, tnames, n_thresholds,
        is_model (name, models));
    gst_structure_free ((GstStructure *) m);
    n_metrics++;
  }
  g_assert_cmpuint (n_metrics, >, 1);
}
