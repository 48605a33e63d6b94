/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_OUTPUT_ESCAPE_H__
#define __VH_OUTPUT_ESCAPE_H__

#include <glib.h>

G_BEGIN_DECLS

/* Output names come from users (a model's name=, option values), so each
 * layout gets them in a form it can carry. Every function returns a new
 * string; invalid UTF-8 becomes U+FFFD first. */

/* The inside of a JSON string: '"', '\' and control characters escaped. */
gchar       *vh_escape_json             (const gchar * name);

/* An XML attribute value: &, <, >, quotes escaped. */
gchar       *vh_escape_xml_value        (const gchar * name);

/* An XML attribute name (libvmaf's <frame> layout uses one per output):
 * @name itself when it is a valid XML name, else every character that may
 * not appear there replaced by '_' (and a '_' put in front of a leading
 * digit, '-' or '.'). */
gchar       *vh_escape_xml_name         (const gchar * name);

/* A CSV field (RFC 4180): quoted, with '"' doubled, when it holds a comma,
 * a quote, a line break or leading or trailing spaces. */
gchar       *vh_escape_csv              (const gchar * name);

/* A subtitle line's "name: value|" item: '|' and line breaks become ' '. */
gchar       *vh_escape_sub              (const gchar * name);

G_END_DECLS

#endif /* __VH_OUTPUT_ESCAPE_H__ */
