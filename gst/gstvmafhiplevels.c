/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The percentiles and thresholds properties' lists. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "gstvmafhiplevels.h"
#include "errors.h"

gboolean
gst_vmaf_hip_parse_levels (const gchar * list, const gchar * what,
    const gchar * prefix, GArray * values, GPtrArray * names, GError ** error)
{
  gchar **items;
  gboolean ok = TRUE;

  if (!list || !*list)
    return TRUE;
  items = g_strsplit (list, ",", -1);
  for (guint i = 0; ok && items[i]; i++) {
    gchar *item = g_strstrip (items[i]);
    gchar *end = NULL;
    gdouble v;

    if (!*item) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "%s \"%s\": item %u is empty", what, list, i + 1);
      ok = FALSE;
      break;
    }
    v = g_ascii_strtod (item, &end);
    if (end == item || *end || !isfinite (v)) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "%s \"%s\": \"%s\" is not a number", what, list, item);
      ok = FALSE;
    } else if (v < 0.0 || v > 100.0) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "%s \"%s\": %s is outside 0..100", what, list, item);
      ok = FALSE;
    } else {
      g_array_append_val (values, v);
      g_ptr_array_add (names, g_strdelimit (g_strconcat (prefix, item,
                  NULL), ".", '_'));
    }
  }
  g_strfreev (items);
  return ok;
}
