/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "output-escape.h"

#include <string.h>

gchar *
vh_escape_json (const gchar * name)
{
  g_autofree gchar *valid = g_utf8_make_valid (name, -1);
  GString *s = g_string_sized_new (strlen (valid) + 2);

  for (const guchar * p = (const guchar *) valid; *p; p++) {
    switch (*p) {
      case '"':
        g_string_append (s, "\\\"");
        break;
      case '\\':
        g_string_append (s, "\\\\");
        break;
      case '\n':
        g_string_append (s, "\\n");
        break;
      case '\r':
        g_string_append (s, "\\r");
        break;
      case '\t':
        g_string_append (s, "\\t");
        break;
      default:
        if (*p < 0x20 || *p == 0x7f)
          g_string_append_printf (s, "\\u%04x", *p);
        else
          g_string_append_c (s, *p);
    }
  }
  return g_string_free (s, FALSE);
}

gchar *
vh_escape_xml_value (const gchar * name)
{
  g_autofree gchar *valid = g_utf8_make_valid (name, -1);
  GString *s = g_string_sized_new (strlen (valid) + 2);

  /* g_markup_escape_text() leaves some control characters that XML 1.0
   * cannot carry at all: those become spaces. */
  for (const guchar * p = (const guchar *) valid; *p; p++) {
    if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
      g_string_append_c (s, ' ');
    else
      g_string_append_c (s, *p);
  }
  {
    gchar *esc = g_markup_escape_text (s->str, -1);
    g_string_free (s, TRUE);
    return esc;
  }
}

/* XML 1.0's NameChar for ASCII, less ':' (a namespace prefix to readers
 * that know namespaces); non-ASCII letters and digits are kept. */
static gboolean
is_name_char (gunichar c, gboolean first)
{
  if (c >= 0x80)
    return g_unichar_isalpha (c) || (!first && g_unichar_isdigit (c));
  if (g_ascii_isalpha (c) || c == '_')
    return TRUE;
  return !first && (g_ascii_isdigit (c) || c == '-' || c == '.');
}

gchar *
vh_escape_xml_name (const gchar * name)
{
  g_autofree gchar *valid = g_utf8_make_valid (name, -1);
  GString *s = g_string_sized_new (strlen (valid) + 2);
  gboolean first = TRUE;

  for (const gchar * p = valid; *p; p = g_utf8_next_char (p)) {
    gunichar c = g_utf8_get_char (p);

    if (first && !is_name_char (c, TRUE) && is_name_char (c, FALSE))
      g_string_append_c (s, '_');
    if (is_name_char (c, first) || is_name_char (c, FALSE))
      g_string_append_unichar (s, c);
    else
      g_string_append_c (s, '_');
    first = FALSE;
  }
  if (s->len == 0)
    g_string_append_c (s, '_');
  return g_string_free (s, FALSE);
}

gchar *
vh_escape_csv (const gchar * name)
{
  g_autofree gchar *valid = g_utf8_make_valid (name, -1);
  gsize len = strlen (valid);
  GString *s;

  if (!strpbrk (valid, ",\"\r\n") && !(len && (valid[0] == ' ' ||
              valid[len - 1] == ' ')))
    return g_strdup (valid);
  s = g_string_sized_new (len + 4);
  g_string_append_c (s, '"');
  for (const gchar * p = valid; *p; p++) {
    if (*p == '"')
      g_string_append_c (s, '"');
    g_string_append_c (s, *p);
  }
  g_string_append_c (s, '"');
  return g_string_free (s, FALSE);
}

gchar *
vh_escape_sub (const gchar * name)
{
  gchar *s = g_utf8_make_valid (name, -1);

  for (gchar * p = s; *p; p++) {
    if (*p == '|' || *p == '\n' || *p == '\r')
      *p = ' ';
  }
  return s;
}
