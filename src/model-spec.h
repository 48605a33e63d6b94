/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __VH_MODEL_SPEC_H__
#define __VH_MODEL_SPEC_H__

#include <glib.h>

#include "model.h"

G_BEGIN_DECLS

/**
 * VhModelSpec:
 *
 * A model as users name it, libvmaf's way: a built-in name, a file path,
 * or "version=NAME|path=FILE" followed by ":name=SCORE",
 * ":enable_transform[=BOOL]", ":disable_clip[=BOOL]" and feature option
 * overrides ":EXTRACTOR.OPTION=VALUE" (e.g. "adm.adm_enhn_gain_limit=1.2").
 * Shared by vmafhip-score and the element.
 */
typedef struct
{
  gchar *version;               /* built-in name, or NULL */
  gchar *path;                  /* model file, or NULL */
  gchar *name;                  /* score name, or NULL if not given */
  gboolean enable_transform;
  gboolean disable_clip;
  GPtrArray *overrides;         /* extractor, option, value, ... (gchar*) */
} VhModelSpec;

/* @defaults gives enable_transform and disable_clip unless the spec sets
 * them (and name, if the spec gives none; may be NULL). */
gboolean     vh_model_spec_parse         (VhModelSpec * spec,
                                          const gchar * text,
                                          const VhModelConfig * defaults,
                                          GError ** error);

/* Loads the model and applies the overrides. */
VhModel     *vh_model_spec_load          (const VhModelSpec * spec,
                                          GError ** error);

void         vh_model_spec_clear         (VhModelSpec * spec);

G_END_DECLS

#endif /* __VH_MODEL_SPEC_H__ */
