/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_LEVELS_H__
#define __GST_VMAF_HIP_LEVELS_H__

#include <glib.h>

#include "pool.h"

G_BEGIN_DECLS

/* A list of levels between 0 and 100, comma-separated ("1,5,50"): the
 * values in @values (doubles, in the order written) and, in @names, the
 * field name of each ("p" + the item as written, '.' as '_', with
 * @prefix in place of "p"). An empty string is an empty list. Fails on
 * an empty item, a value that is not a finite number, or one outside
 * 0..100, naming @what and the item. The percentile itself is
 * vh_pool_percentile() (pool.h). */
gboolean     gst_vmaf_hip_parse_levels         (const gchar * list,
                                                const gchar * what,
                                                const gchar * prefix,
                                                GArray * values,
                                                GPtrArray * names,
                                                GError ** error);

G_END_DECLS

#endif /* __GST_VMAF_HIP_LEVELS_H__ */
