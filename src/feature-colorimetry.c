/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The inputs' colorimetry as options of the extractors that convert
 * Y'CbCr to RGB. */

#include "feature-colorimetry.h"

#include <string.h>

const gchar *
vh_color_matrix_to_string (VhColorMatrix matrix)
{
  switch (matrix) {
    case VH_COLOR_MATRIX_BT601:
      return "bt601";
    case VH_COLOR_MATRIX_BT709:
      return "bt709";
    case VH_COLOR_MATRIX_BT2020:
      return "bt2020";
    default:
      return "unknown";
  }
}

const gchar *
vh_color_range_to_string (VhColorRange range)
{
  switch (range) {
    case VH_COLOR_RANGE_LIMITED:
      return "limited";
    case VH_COLOR_RANGE_FULL:
      return "full";
    default:
      return "unknown";
  }
}

static gboolean
spec_has_option (const VhFeatureSpec * spec, const gchar * key)
{
  for (guint i = 0; spec->options && spec->options[i]; i += 2) {
    if (!strcmp (spec->options[i], key))
      return TRUE;
  }
  return FALSE;
}

/* Appends key=@value unless @value is NULL ("unknown") or the user gave
 * @key or @given_instead. Returns whether @key depends on the input. */
static gboolean
fill_option (GPtrArray * added, const VhFeatureSpec * spec,
    const gchar * key, const gchar * given_instead, const gchar * value)
{
  if (spec_has_option (spec, key) ||
      (given_instead && spec_has_option (spec, given_instead)))
    return FALSE;
  if (strcmp (value, "unknown")) {
    g_ptr_array_add (added, g_strdup (key));
    g_ptr_array_add (added, g_strdup (value));
  }
  return TRUE;
}

gboolean
vh_feature_spec_add_colorimetry (VhFeatureSpec * spec,
    const VhColorimetry * ref, const VhColorimetry * dist)
{
  static const VhColorimetry unknown = { VH_COLOR_MATRIX_UNKNOWN,
    VH_COLOR_RANGE_UNKNOWN
  };
  GPtrArray *added;
  gboolean depends = FALSE;
  guint n;

  if (g_strcmp0 (spec->name, "ssimulacra2"))
    return FALSE;
  ref = ref ? ref : &unknown;
  dist = dist ? dist : &unknown;
  added = g_ptr_array_new ();
  depends |= fill_option (added, spec, "matrix", NULL,
      vh_color_matrix_to_string (ref->matrix));
  depends |= fill_option (added, spec, "range", NULL,
      vh_color_range_to_string (ref->range));
  depends |= fill_option (added, spec, "dist_matrix", "matrix",
      vh_color_matrix_to_string (dist->matrix));
  depends |= fill_option (added, spec, "dist_range", "range",
      vh_color_range_to_string (dist->range));
  n = spec->options ? g_strv_length (spec->options) : 0;
  spec->options = g_renew (gchar *, spec->options, n + added->len + 1);
  for (guint i = 0; i < added->len; i++)
    spec->options[n + i] = g_ptr_array_index (added, i);
  spec->options[n + added->len] = NULL;
  g_ptr_array_unref (added);
  return depends;
}
