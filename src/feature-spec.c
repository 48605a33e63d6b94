/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The one parser of feature requests, shared by the CLI and the element. */

#include "feature-spec.h"
#include "errors.h"

#include <string.h>

/* Friendly spellings of extractor names. */
static const gchar *
resolve_alias (const gchar * name)
{
  static const struct
  {
    const gchar *alias;
    const gchar *name;
  } aliases[] = {
    {"ssim", "float_ssim"},
    {"ms-ssim", "float_ms_ssim"},
    {"ms_ssim", "float_ms_ssim"},
    {"msssim", "float_ms_ssim"},
  };

  for (guint i = 0; i < G_N_ELEMENTS (aliases); i++) {
    if (!g_ascii_strcasecmp (name, aliases[i].alias))
      return aliases[i].name;
  }
  return name;
}

static gboolean
parse_options (GPtrArray * kv, const gchar * text, GError ** error)
{
  g_auto (GStrv) pairs = g_strsplit (text, ":", -1);

  for (guint i = 0; pairs[i]; i++) {
    g_auto (GStrv) pair = g_strsplit (pairs[i], "=", 2);
    if (!pair[0] || !pair[1] || !*pair[0]) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "bad option '%s' (expected key=value)", pairs[i]);
      return FALSE;
    }
    g_ptr_array_add (kv, g_strdup (pair[0]));
    g_ptr_array_add (kv, g_strdup (pair[1]));
  }
  return TRUE;
}

gboolean
vh_feature_spec_parse (VhFeatureSpec * spec, const gchar * text,
    GError ** error)
{
  g_auto (GStrv) name_opts = NULL;
  GPtrArray *kv;

  memset (spec, 0, sizeof (*spec));
  if (!g_str_is_ascii (text)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature names and option values are ASCII");
    return FALSE;
  }
  name_opts = g_strsplit (text, "=", 2);
  /* g_strsplit() gives an empty vector for "": no [1] to look at. */
  if (!name_opts[0] || !*g_strstrip (name_opts[0])) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "no feature name");
    return FALSE;
  }
  kv = g_ptr_array_new_with_free_func (g_free);
  if (name_opts[1] && !parse_options (kv, name_opts[1], error)) {
    g_ptr_array_unref (kv);
    return FALSE;
  }
  g_ptr_array_set_free_func (kv, NULL);
  g_ptr_array_add (kv, NULL);
  spec->options = (gchar **) g_ptr_array_free (kv, FALSE);
  spec->name = g_strdup (resolve_alias (name_opts[0]));
  return TRUE;
}

void
vh_feature_spec_clear (VhFeatureSpec * spec)
{
  g_clear_pointer (&spec->name, g_free);
  g_clear_pointer (&spec->options, g_strfreev);
}
