/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "options.h"
#include "errors.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void
vh_option_values_init (VhOptionValues * ov, const VhOptionSpec * spec)
{
  guint n = 0;

  while (spec && spec[n].name)
    n++;
  ov->spec = spec;
  ov->n = n;
  ov->values = g_new0 (gdouble, MAX (n, 1));
  ov->is_set = g_new0 (gboolean, MAX (n, 1));
  ov->strings = g_new0 (gchar *, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    ov->values[i] = spec[i].default_value;
}

void
vh_option_values_clear (VhOptionValues * ov)
{
  g_clear_pointer (&ov->values, g_free);
  g_clear_pointer (&ov->is_set, g_free);
  for (guint i = 0; ov->strings && i < ov->n; i++)
    g_free (ov->strings[i]);
  g_clear_pointer (&ov->strings, g_free);
  ov->n = 0;
}

static gint
option_index (const VhOptionValues * ov, const gchar * name)
{
  for (guint i = 0; i < ov->n; i++) {
    if (!strcmp (ov->spec[i].name, name))
      return i;
  }
  return -1;
}

static gboolean
parse_value (const VhOptionSpec * spec, const gchar * text, gdouble * out)
{
  gchar *end = NULL;

  if (spec->type == VH_OPTION_CHOICE) {
    for (guint i = 0; spec->choices && spec->choices[i]; i++) {
      if (!strcmp (text, spec->choices[i])) {
        *out = i;
        return TRUE;
      }
    }
    return FALSE;
  }
  if (spec->type == VH_OPTION_STRING) {
    *out = 0.0;
    return TRUE;
  }
  if (spec->type == VH_OPTION_BOOL) {
    if (!g_ascii_strcasecmp (text, "true") || !strcmp (text, "1")) {
      *out = 1.0;
      return TRUE;
    }
    if (!g_ascii_strcasecmp (text, "false") || !strcmp (text, "0")) {
      *out = 0.0;
      return TRUE;
    }
    return FALSE;
  }
  *out = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0')
    return FALSE;
  /* "-0" is 0: it must not name outputs differently from "0". */
  if (*out == 0.0)
    *out = 0.0;
  if (spec->type == VH_OPTION_INT && *out != floor (*out))
    return FALSE;
  return TRUE;
}

gboolean
vh_option_values_set (VhOptionValues * ov, const gchar * extractor_name,
    const gchar * name, const gchar * value, GError ** error)
{
  gint i = option_index (ov, name);
  const VhOptionSpec *spec;
  gdouble v;

  if (i < 0) {
    GString *known = g_string_new (NULL);
    for (guint j = 0; j < ov->n; j++)
      g_string_append_printf (known, "%s%s", j ? ", " : "", ov->spec[j].name);
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature '%s' has no option '%s' (options: %s)", extractor_name,
        name, known->len ? known->str : "none");
    g_string_free (known, TRUE);
    return FALSE;
  }
  spec = &ov->spec[i];
  if (!parse_value (spec, value, &v) && spec->type == VH_OPTION_CHOICE) {
    gchar *choices = g_strjoinv (", ", (gchar **) spec->choices);
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "option '%s' of feature '%s': '%s' is not one of %s", name,
        extractor_name, value, choices);
    g_free (choices);
    return FALSE;
  }
  if (!parse_value (spec, value, &v)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "option '%s' of feature '%s': cannot parse '%s' as %s", name,
        extractor_name, value, spec->type == VH_OPTION_BOOL ? "a boolean" :
        spec->type == VH_OPTION_INT ? "an integer" : "a number");
    return FALSE;
  }
  /* NaN passes any "v < min || v > max" test and breaks the extractors and
   * output names: refuse it, and the infinities, by name. */
  if (!isfinite (v)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "option '%s' of feature '%s': '%s' is not a finite number", name,
        extractor_name, value);
    return FALSE;
  }
  if ((spec->type == VH_OPTION_INT || spec->type == VH_OPTION_DOUBLE) &&
      !(v >= spec->min && v <= spec->max)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "option '%s' of feature '%s': %g is outside [%g, %g]", name,
        extractor_name, v, spec->min, spec->max);
    return FALSE;
  }
  ov->values[i] = v;
  ov->is_set[i] = TRUE;
  if (spec->type == VH_OPTION_STRING) {
    g_free (ov->strings[i]);
    ov->strings[i] = g_strdup (value);
  }
  return TRUE;
}

const gchar *
vh_option_values_get_string (const VhOptionValues * ov, const gchar * name)
{
  gint i = option_index (ov, name);

  g_return_val_if_fail (i >= 0, NULL);
  if (ov->spec[i].type == VH_OPTION_CHOICE)
    return ov->spec[i].choices[(guint) ov->values[i]];
  return ov->strings[i];
}

void
vh_option_values_copy (VhOptionValues * dst, const VhOptionValues * src)
{
  g_return_if_fail (dst->n == src->n);
  for (guint i = 0; i < src->n; i++) {
    dst->values[i] = src->values[i];
    dst->is_set[i] = src->is_set[i];
    g_free (dst->strings[i]);
    dst->strings[i] = g_strdup (src->strings[i]);
  }
}

gdouble
vh_option_values_get (const VhOptionValues * ov, const gchar * name)
{
  gint i = option_index (ov, name);

  g_return_val_if_fail (i >= 0, 0.0);
  return ov->values[i];
}

gboolean
vh_option_values_is_set (const VhOptionValues * ov, const gchar * name)
{
  gint i = option_index (ov, name);

  g_return_val_if_fail (i >= 0, FALSE);
  return ov->is_set[i];
}

static gint
compare_spec_names (gconstpointer a, gconstpointer b)
{
  const VhOptionSpec *sa = *(const VhOptionSpec **) a;
  const VhOptionSpec *sb = *(const VhOptionSpec **) b;
  return strcmp (sa->name, sb->name);
}

gchar *
vh_option_values_name_suffix (const VhOptionValues * ov)
{
  GPtrArray *changed = g_ptr_array_new ();
  GString *suffix = g_string_new (NULL);

  /* libvmaf sorts the parameters by option name before naming. */
  for (guint i = 0; i < ov->n; i++) {
    if ((ov->spec[i].flags & VH_OPTION_FLAG_FEATURE_PARAM) &&
        ov->is_set[i] && ov->values[i] != ov->spec[i].default_value)
      g_ptr_array_add (changed, (gpointer) & ov->spec[i]);
  }
  g_ptr_array_sort (changed, compare_spec_names);
  for (guint i = 0; i < changed->len; i++) {
    const VhOptionSpec *spec = g_ptr_array_index (changed, i);
    const gchar *key = spec->alias ? spec->alias : spec->name;
    gint idx = spec - ov->spec;

    if (spec->type == VH_OPTION_BOOL) {
      g_string_append_printf (suffix, "_%s", key);
    } else if (spec->type == VH_OPTION_CHOICE) {
      g_string_append_printf (suffix, "_%s_%s", key,
          spec->choices[(guint) ov->values[idx]]);
    } else if (spec->type == VH_OPTION_STRING) {
      g_string_append_printf (suffix, "_%s_%s", key, ov->strings[idx]);
    } else {
      gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
      g_ascii_formatd (buf, sizeof (buf), "%g", ov->values[idx]);
      g_string_append_printf (suffix, "_%s_%s", key, buf);
    }
  }
  g_ptr_array_free (changed, TRUE);
  return g_string_free (suffix, FALSE);
}

gchar *
vh_option_values_describe (const VhOptionValues * ov)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < ov->n; i++) {
    gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

    if (!ov->is_set[i])
      continue;
    if (ov->spec[i].type == VH_OPTION_BOOL)
      g_strlcpy (buf, ov->values[i] != 0.0 ? "true" : "false", sizeof (buf));
    else
      g_ascii_formatd (buf, sizeof (buf), "%g", ov->values[i]);
    g_string_append_printf (s, "%s%s=%s", s->len ? ":" : "", ov->spec[i].name,
        buf);
  }
  return g_string_free (s, FALSE);
}
