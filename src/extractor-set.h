/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __VH_EXTRACTOR_SET_H__
#define __VH_EXTRACTOR_SET_H__

#include <glib.h>

#include "feature-extractor.h"

G_BEGIN_DECLS

/**
 * VhExtractorSet:
 *
 * The extractor classes a context may run (VhContextConfig.extractors):
 * built once, then shared read-only. The built-in CPU classes are one
 * (vh_extractor_set_get_builtin()); the HIP layer makes one with its GPU
 * twins added (vh_hip_extractor_set()); a test makes its own with fakes.
 * Nothing here is global or changed while contexts use it.
 */
typedef struct _VhExtractorSet VhExtractorSet;

/* A new set holding the built-in CPU classes, for a caller to add to. */
VhExtractorSet *vh_extractor_set_new_builtin (void);

/* Adds @klass (not copied: a static class); only before the set is
 * shared. Classes found by the same name keep the order they were added
 * in, on each backend. */
void         vh_extractor_set_add        (VhExtractorSet * set,
                                          const VhFeatureExtractorClass * klass);

VhExtractorSet *vh_extractor_set_ref     (VhExtractorSet * set);

void         vh_extractor_set_unref      (VhExtractorSet * set);

/* The built-in CPU classes, made on first use and never changed (no
 * reference to drop). */
VhExtractorSet *vh_extractor_set_get_builtin (void);

/* Lookup by extractor name ("vif") or by a provided output name
 * ("integer_vif_scale0"); @backends restricts the search, preferring HIP
 * over CPU when both are allowed. */
const VhFeatureExtractorClass *vh_extractor_set_find (VhExtractorSet * set,
                                          const gchar * name,
                                          VhBackend backends);

/* NULL-terminated list of the set's classes. */
const VhFeatureExtractorClass *const *vh_extractor_set_list (VhExtractorSet * set,
                                          guint * n);

/* "adm, float_ms_ssim, ..." for error messages (caller frees). */
gchar       *vh_extractor_set_list_names (VhExtractorSet * set);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VhExtractorSet, vh_extractor_set_unref)

G_END_DECLS

#endif /* __VH_EXTRACTOR_SET_H__ */
