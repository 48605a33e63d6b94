/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_MODEL_PART_H__
#define __VH_MODEL_PART_H__

#include <glib.h>
#include <json-glib/json-glib.h>

#include "feature-collector.h"
#include "model.h"
#include "svm.h"

G_BEGIN_DECLS

/* One "model_dict" of a model file: a plain model, or one member of a
 * bootstrap collection. Private to the model code. */

typedef enum
{
  VH_MODEL_TYPE_UNKNOWN,
  VH_MODEL_TYPE_SVR,
  VH_MODEL_TYPE_BOOTSTRAP_SVR,
  VH_MODEL_TYPE_RESIDUE_BOOTSTRAP_SVR,
} VhModelType;

typedef enum
{
  VH_MODEL_NORM_NONE,
  VH_MODEL_NORM_LINEAR_RESCALE,
} VhModelNorm;

typedef struct
{
  gchar *name;                  /* libvmaf's spelling, from feature_names */
  gchar **options;              /* key, value, ...; NULL-terminated */
  gdouble slope, intercept;
  /* Filled in once the extractor is known: */
  const gchar *extractor;
  gchar *output_name;
} VhModelFeature;

typedef struct
{
  gdouble x, y;
} VhModelKnot;

#define VH_MODEL_MAX_FEATURES 64
#define VH_MODEL_MAX_KNOTS 10
/* Real models nest 6 deep and weigh a few MiB at most. */
#define VH_MODEL_MAX_JSON_DEPTH 64
#define VH_MODEL_MAX_FILE_SIZE_MIB 256
#define VH_MODEL_MAX_FILE_SIZE (VH_MODEL_MAX_FILE_SIZE_MIB * 1024 * 1024)

typedef struct
{
  gboolean enabled;
  gboolean has_p[3];            /* p0 + p1 x + p2 x^2 */
  gdouble p[3];
  gboolean has_knots;
  guint n_knots;
  VhModelKnot knots[VH_MODEL_MAX_KNOTS];
  gboolean out_lte_in;
  gboolean out_gte_in;
} VhScoreTransform;

typedef struct
{
  gchar *name;                  /* score name */
  VhModelType type;
  VhModelNorm norm;
  gdouble slope, intercept;     /* for the prediction */
  guint n_features;
  VhModelFeature *features;
  gboolean clip;
  gdouble clip_min, clip_max;
  gboolean chroma_correction;
  gdouble chroma_correction_parameter;
  VhScoreTransform transform;
  VhSvm *svm;
} VhModelPart;

/* Parses @node (an object holding "model_dict"). @where prefixes member
 * paths in messages (e.g. "3." for bootstrap member 3), @origin names the
 * file. */
VhModelPart *vh_model_part_parse     (JsonNode * node, const gchar * origin,
                                      const gchar * where, const gchar * name,
                                      const VhModelConfig * cfg,
                                      GError ** error);

void         vh_model_part_free      (VhModelPart * part);

/* The raw prediction for frame @index: features normalised, SVR, then
 * denormalised; no transform or clip. */
gboolean     vh_model_part_predict   (const VhModelPart * part,
                                      VhFeatureCollector * fc, guint index,
                                      gdouble * score, GError ** error);

/* The model's score_transform (if enabled) and score_clip (if enabled). */
gdouble      vh_model_part_finish    (const VhModelPart * part,
                                      gdouble score);

G_END_DECLS

#endif /* __VH_MODEL_PART_H__ */
