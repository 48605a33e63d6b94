/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_OPTIONS_H__
#define __VH_OPTIONS_H__

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  VH_OPTION_BOOL,
  VH_OPTION_INT,
  VH_OPTION_DOUBLE,
  VH_OPTION_CHOICE,             /* one of @choices; the value is its index */
  VH_OPTION_STRING,             /* free text (a path); no numeric value */
} VhOptionType;

/* An option changes the output names when it is a feature parameter and is
 * set to something other than its default, as libvmaf does: the name gets
 * "_<alias>_<value>" (or "_<alias>" for booleans) appended. */
typedef enum
{
  VH_OPTION_FLAG_FEATURE_PARAM = 1 << 0,
} VhOptionFlags;

typedef struct
{
  const gchar *name;            /* libvmaf's option name */
  const gchar *alias;           /* short form used in feature names, or NULL */
  const gchar *help;
  VhOptionType type;
  gdouble default_value;
  gdouble min;
  gdouble max;
  VhOptionFlags flags;
  const gchar *const *choices;  /* VH_OPTION_CHOICE: NULL-terminated names */
} VhOptionSpec;

/* Values of one extractor instance, parallel to its NULL-terminated spec. */
typedef struct
{
  const VhOptionSpec *spec;
  guint n;
  gdouble *values;
  gboolean *is_set;
  gchar **strings;              /* VH_OPTION_STRING values, NULL if unset */
} VhOptionValues;

void         vh_option_values_init      (VhOptionValues * ov,
                                         const VhOptionSpec * spec);

void         vh_option_values_clear     (VhOptionValues * ov);

/* Parses @value ("1", "1.0", "true", ...) for option @name. Unknown options
 * and out-of-range values fail with a message that names the option. */
gboolean     vh_option_values_set       (VhOptionValues * ov,
                                         const gchar * extractor_name,
                                         const gchar * name,
                                         const gchar * value,
                                         GError ** error);

gdouble      vh_option_values_get       (const VhOptionValues * ov,
                                         const gchar * name);

/* Whether option @name was given (not left at its default). */
gboolean     vh_option_values_is_set    (const VhOptionValues * ov,
                                         const gchar * name);

/* A VH_OPTION_STRING option's text (NULL when unset) or a
 * VH_OPTION_CHOICE option's chosen name. */
const gchar *vh_option_values_get_string (const VhOptionValues * ov,
                                         const gchar * name);

/* Copies @src's values into @dst (initialised with the same spec). */
void         vh_option_values_copy      (VhOptionValues * dst,
                                         const VhOptionValues * src);

/* The libvmaf name suffix for the current values ("" for defaults). */
gchar       *vh_option_values_name_suffix (const VhOptionValues * ov);

/* The options set explicitly, "name=value:name=value" ("" for none), for
 * messages. */
gchar       *vh_option_values_describe  (const VhOptionValues * ov);

G_END_DECLS

#endif /* __VH_OPTIONS_H__ */
