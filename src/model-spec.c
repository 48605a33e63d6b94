/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "model-spec.h"
#include "errors.h"

#include <string.h>

static gboolean
parse_bool (const gchar * value, gboolean * out)
{
  if (!value || !g_ascii_strcasecmp (value, "true") || !strcmp (value, "1"))
    *out = TRUE;
  else if (!g_ascii_strcasecmp (value, "false") || !strcmp (value, "0"))
    *out = FALSE;
  else
    return FALSE;
  return TRUE;
}

static gboolean
is_builtin (const gchar * name)
{
  return g_strv_contains (vh_model_list_builtin (), name);
}

/* "EXTRACTOR.OPTION=VALUE" */
static gboolean
add_override (VhModelSpec * spec, const gchar * key, const gchar * val)
{
  const gchar *dot = strchr (key, '.');

  if (!dot || dot == key || !dot[1] || !val || !*val)
    return FALSE;
  g_ptr_array_add (spec->overrides, g_strndup (key, dot - key));
  g_ptr_array_add (spec->overrides, g_strdup (dot + 1));
  g_ptr_array_add (spec->overrides, g_strdup (val));
  return TRUE;
}

gboolean
vh_model_spec_parse (VhModelSpec * spec, const gchar * text,
    const VhModelConfig * defaults, GError ** error)
{
  g_auto (GStrv) parts = NULL;

  memset (spec, 0, sizeof (*spec));
  spec->overrides = g_ptr_array_new_with_free_func (g_free);
  if (defaults) {
    spec->name = g_strdup (defaults->name);
    spec->enable_transform = defaults->enable_transform;
    spec->disable_clip = defaults->disable_clip;
  }

  if (!strchr (text, '=')) {
    if (is_builtin (text)) {
      spec->version = g_strdup (text);
    } else if (g_file_test (text, G_FILE_TEST_EXISTS)) {
      spec->path = g_strdup (text);
    } else {
      g_autofree gchar *known =
          g_strjoinv (", ", (gchar **) vh_model_list_builtin ());
      g_set_error (error, VH_ERROR, VH_ERROR_UNKNOWN_MODEL,
          "model '%s' is neither a built-in model (%s) nor an existing file",
          text, known);
      goto fail;
    }
    return TRUE;
  }

  parts = g_strsplit (text, ":", -1);
  for (guint i = 0; parts[i]; i++) {
    gchar *eq = strchr (parts[i], '=');
    const gchar *val = eq ? eq + 1 : NULL;
    gboolean ok = TRUE;

    if (eq)
      *eq = '\0';
    if (!strcmp (parts[i], "version") && val && *val) {
      g_free (spec->version);
      spec->version = g_strdup (val);
    } else if (!strcmp (parts[i], "path") && val && *val) {
      g_free (spec->path);
      spec->path = g_strdup (val);
    } else if (!strcmp (parts[i], "name") && val && *val) {
      g_free (spec->name);
      spec->name = g_strdup (val);
    } else if (!strcmp (parts[i], "enable_transform")) {
      ok = parse_bool (val, &spec->enable_transform);
    } else if (!strcmp (parts[i], "disable_clip")) {
      ok = parse_bool (val, &spec->disable_clip);
    } else {
      ok = add_override (spec, parts[i], val);
    }
    if (!ok) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "model '%s': cannot use '%s%s%s' (keys: version, path, name, "
          "enable_transform, disable_clip, EXTRACTOR.OPTION=VALUE)", text,
          parts[i], val ? "=" : "", val ? val : "");
      goto fail;
    }
  }
  if (!!spec->version == !!spec->path) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "model '%s': give exactly one of version=NAME or path=FILE", text);
    goto fail;
  }
  return TRUE;

fail:
  vh_model_spec_clear (spec);
  return FALSE;
}

VhModel *
vh_model_spec_load (const VhModelSpec * spec, GError ** error)
{
  VhModelConfig cfg = { spec->name, spec->enable_transform,
    spec->disable_clip
  };
  VhModel *model = spec->version ?
      vh_model_new_builtin (spec->version, &cfg, error) :
      vh_model_new_from_file (spec->path, &cfg, error);

  for (guint i = 0; model && i + 2 < spec->overrides->len; i += 3) {
    if (!vh_model_override_option (model,
            g_ptr_array_index (spec->overrides, i),
            g_ptr_array_index (spec->overrides, i + 1),
            g_ptr_array_index (spec->overrides, i + 2), error))
      g_clear_pointer (&model, vh_model_free);
  }
  return model;
}

void
vh_model_spec_clear (VhModelSpec * spec)
{
  g_clear_pointer (&spec->version, g_free);
  g_clear_pointer (&spec->path, g_free);
  g_clear_pointer (&spec->name, g_free);
  g_clear_pointer (&spec->overrides, g_ptr_array_unref);
}
