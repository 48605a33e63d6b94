/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_FEATURE_ALIAS_H__
#define __VH_FEATURE_ALIAS_H__

#include <glib.h>

G_BEGIN_DECLS

/* Maps libvmaf's internal feature names, as model files spell them
 * ("VMAF_integer_feature_adm2_score"), to the names its logs and our
 * collector use ("integer_adm2"). Other names come back unchanged. */
const gchar *vh_feature_name_alias (const gchar * name);

G_END_DECLS

#endif /* __VH_FEATURE_ALIAS_H__ */
