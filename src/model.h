/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_MODEL_H__
#define __VH_MODEL_H__

#include <glib.h>

#include "feature-collector.h"

G_BEGIN_DECLS

/**
 * VhModel:
 *
 * A VMAF model in libvmaf's JSON format: one nu-SVR model ("model_dict"), or
 * a bootstrap collection (members "0", "1", ...: "0" gives the main score,
 * the others the bootstrap statistics). Immutable once loaded, so
 * vh_model_predict() may run from several threads at once.
 */
typedef struct _VhModel VhModel;

typedef struct
{
  const gchar *name;            /* score name; NULL = "vmaf", as libvmaf's CLI */
  gboolean enable_transform;    /* apply the model's score_transform */
  gboolean disable_clip;        /* skip score_clip */
} VhModelConfig;

/* Unknown @version: VH_ERROR_UNKNOWN_MODEL, the message lists the built-ins. */
VhModel     *vh_model_new_builtin          (const gchar * version,
                                            const VhModelConfig * cfg,
                                            GError ** error);

/* Unreadable file: VH_ERROR_IO; malformed: VH_ERROR_MODEL_PARSE naming the
 * file and the member (or line and column for JSON syntax errors); a feature
 * no extractor provides: VH_ERROR_UNKNOWN_FEATURE. */
VhModel     *vh_model_new_from_file        (const gchar * path,
                                            const VhModelConfig * cfg,
                                            GError ** error);

/* @len < 0: @json is NUL-terminated. @origin names the data in messages. */
VhModel     *vh_model_new_from_data        (const gchar * json, gssize len,
                                            const gchar * origin,
                                            const VhModelConfig * cfg,
                                            GError ** error);

void         vh_model_free                 (VhModel * model);

/* The score name ("vmaf", or the configured name). */
const gchar *vh_model_get_name             (const VhModel * model);

/* NULL-terminated names of the built-in models. */
const gchar *const *vh_model_list_builtin  (void);

gboolean     vh_model_is_bootstrap         (const VhModel * model);

/* The features the model reads, each once (for a bootstrap model, the union
 * over its members), in model order. */
guint        vh_model_n_features           (const VhModel * model);

/* Extractor class name ("adm", "vif", "motion", ...). */
const gchar *vh_model_feature_extractor    (const VhModel * model, guint i);

/* NULL-terminated key, value, key, value, ... as libvmaf normalises them
 * (numbers as "%g", booleans as "true"/"false"); may be empty. */
const gchar *const *vh_model_feature_options (const VhModel * model,
                                            guint i);

/* The name the extractor appends under, e.g. "integer_adm2_egl_1". */
const gchar *vh_model_feature_output_name  (const VhModel * model, guint i);

/* Reads frame @index's features from @fc and appends every score named by
 * vh_model_output_names(). A missing feature fails with a message naming
 * it. Same as vh_model_predict_main() then vh_model_predict_bootstrap(). */
gboolean     vh_model_predict              (const VhModel * model,
                                            VhFeatureCollector * fc,
                                            guint index, GError ** error);

/* The two halves of vh_model_predict(). libvmaf scores every plain model
 * (and each collection's main member) before any bootstrap collection, so
 * its logs list e.g. "vmaf_b", "vmaf", "vmaf_b_0001", ...; calling the
 * halves in that order for all models reproduces that column order. */
gboolean     vh_model_predict_main         (const VhModel * model,
                                            VhFeatureCollector * fc,
                                            guint index, GError ** error);

/* Members "<name>_0001".., then "<name>_bagging", "<name>_stddev",
 * "<name>_ci_p95_lo", "<name>_ci_p95_hi". Does nothing for a plain model. */
gboolean     vh_model_predict_bootstrap    (const VhModel * model,
                                            VhFeatureCollector * fc,
                                            guint index, GError ** error);

/* Every name vh_model_predict() appends, in the order it appends them:
 * "vmaf"; for a bootstrap model "vmaf_b", "vmaf_b_0001", ..., then
 * "vmaf_b_bagging", "vmaf_b_stddev", "vmaf_b_ci_p95_lo", "vmaf_b_ci_p95_hi". */
const gchar *const *vh_model_output_names  (const VhModel * model);

/* Sets @option of every feature the model takes from @extractor (e.g.
 * "adm", "adm_enhn_gain_limit", "1.2"), as libvmaf's per-model feature
 * overloads do; output names follow the new options. Fails if the model
 * uses no feature of @extractor or the option is invalid. */
gboolean     vh_model_override_option      (VhModel * model,
                                            const gchar * extractor,
                                            const gchar * option,
                                            const gchar * value,
                                            GError ** error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VhModel, vh_model_free)

G_END_DECLS

#endif /* __VH_MODEL_H__ */
