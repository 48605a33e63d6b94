/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_FEATURE_SPEC_H__
#define __VH_FEATURE_SPEC_H__

#include <glib.h>

G_BEGIN_DECLS

/* One feature request as vmafhip-score's --feature and the element's
 * features property spell it: "NAME[=key=value[:key=value...]]". */
typedef struct
{
  gchar *name;                  /* extractor or output name, aliases
                                 * resolved ("ssim" -> "float_ssim") */
  gchar **options;              /* key, value, key, value, ..., NULL */
} VhFeatureSpec;

/* Parses @text into @spec: the name is trimmed and its friendly spellings
 * resolved; an empty name, an option without '=' or with an empty key, and
 * non-ASCII text are refused with VH_ERROR_INVALID_ARGUMENT (the message
 * does not repeat @text: callers prefix it with their own spelling). */
gboolean     vh_feature_spec_parse      (VhFeatureSpec * spec,
                                         const gchar * text,
                                         GError ** error);

void         vh_feature_spec_clear      (VhFeatureSpec * spec);

G_END_DECLS

#endif /* __VH_FEATURE_SPEC_H__ */
