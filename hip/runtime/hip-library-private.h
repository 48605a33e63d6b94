/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_HIP_LIBRARY_PRIVATE_H__
#define __VH_HIP_LIBRARY_PRIVATE_H__

#include "vhhip.h"

G_BEGIN_DECLS

/* Opens the first library of @names (NULL-terminated) that loads, or the
 * one that @env_var names when it is set. @tried gets the names tried. */
gpointer     vh_hip_dlopen_first        (const gchar * env_var,
                                         const gchar * const *names,
                                         gchar ** loaded, GString * tried);

/* Looks up @n symbols: names[i] into table[i]. Fails naming the first
 * required one (those not in @optional) that is missing. */
gboolean     vh_hip_dlsym_table         (gpointer lib, const gchar * library,
                                         const gchar * const *names,
                                         gpointer * table, guint n,
                                         const gchar * const *optional,
                                         GError ** error);

G_END_DECLS

#endif /* __VH_HIP_LIBRARY_PRIVATE_H__ */
