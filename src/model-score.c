/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "model-part.h"
#include "errors.h"

#include <string.h>

/* The arithmetic below follows libvmaf's operation order exactly (double
 * precision throughout): scores must match it to the last bits that the
 * logs' six decimals can show. */

static gdouble
normalize (const VhModelPart * part, const VhModelFeature * f, gdouble v)
{
  if (part->norm == VH_MODEL_NORM_LINEAR_RESCALE)
    return f->slope * v + f->intercept;
  return v;
}

static gdouble
denormalize (const VhModelPart * part, const VhModelFeature * f, gdouble v)
{
  if (part->norm == VH_MODEL_NORM_LINEAR_RESCALE)
    return (v - f->intercept) / f->slope;
  return v;
}

/* Models with a chroma_correction_parameter replace a zero chroma feature
 * (an achromatic input) by a value derived from adm3. */
static gboolean
correct_chroma (const VhModelPart * part, gdouble * x, GError ** error)
{
  gint guiding = -1, guided = -1;
  gdouble guiding_score = 0.0, corrected;
  const gdouble param = part->chroma_correction_parameter;

  for (guint i = 0; i < part->n_features; i++) {
    const VhModelFeature *f = &part->features[i];

    if (strstr (f->name, "adm3")) {
      if (guiding >= 0)
        goto ambiguous;
      guiding = i;
      guiding_score = denormalize (part, f, x[i]);
    }
    if (strstr (f->name, "speed_chroma")) {
      if (guided >= 0)
        goto ambiguous;
      guided = i;
      if (denormalize (part, f, x[i]) != 0.0)
        return TRUE;            /* nothing to correct */
    }
  }
  if (guiding < 0 || guided < 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_FAILED,
        "model '%s': chroma correction needs an adm3 and a speed_chroma "
        "feature", part->name);
    return FALSE;
  }
  corrected = -param * guiding_score + param;
  x[guided] = normalize (part, &part->features[guided], corrected);
  return TRUE;

ambiguous:
  g_set_error (error, VH_ERROR, VH_ERROR_FAILED,
      "model '%s': chroma correction: several adm3 or speed_chroma features",
      part->name);
  return FALSE;
}

gboolean
vh_model_part_predict (const VhModelPart * part, VhFeatureCollector * fc,
    guint index, gdouble * score, GError ** error)
{
  gdouble x[VH_MODEL_MAX_FEATURES];
  gdouble y;

  for (guint i = 0; i < part->n_features; i++) {
    const VhModelFeature *f = &part->features[i];
    gdouble v;

    if (!vh_feature_collector_get (fc, f->output_name, index, &v)) {
      g_set_error (error, VH_ERROR, VH_ERROR_FAILED,
          "model '%s': feature '%s' has no value for frame %u", part->name,
          f->output_name, index);
      return FALSE;
    }
    x[i] = normalize (part, f, v);
  }
  if (part->chroma_correction && !correct_chroma (part, x, error))
    return FALSE;

  y = vh_svm_predict (part->svm, x, part->n_features);
  if (part->norm == VH_MODEL_NORM_LINEAR_RESCALE)
    y = (y - part->intercept) / part->slope;
  *score = y;
  return TRUE;
}

/* Line through two knots; a point-like segment maps identically. */
static void
segment_line (const VhModelKnot * a, const VhModelKnot * b, gdouble * slope,
    gdouble * offset)
{
  if (b->x - a->x == 0 || b->y - a->y == 0) {
    *slope = 1.0;
    *offset = 0.0;
  } else if (a->x == 0) {
    *offset = a->y;
    *slope = (b->y - *offset) / b->x;
  } else {
    *slope = (b->y - a->y) / (b->x - a->x);
    *offset = a->y - a->x * *slope;
  }
}

/* Piecewise-linear map through the knots, extended linearly beyond the
 * first and last. Every segment that contains @x writes the result, so at
 * a shared knot the later segment wins, as in libvmaf. */
static gdouble
map_knots (const VhScoreTransform * t, gdouble x)
{
  const guint n_seg = t->n_knots - 1;
  gdouble y = 0.0;

  for (guint s = 0; s < n_seg; s++) {
    const VhModelKnot *a = &t->knots[s], *b = &t->knots[s + 1];
    gboolean inside = a->x <= x && x <= b->x;
    gboolean below = s == 0 && x < a->x;
    gboolean above = s == n_seg - 1 && x > b->x;

    if (!inside && !below && !above)
      continue;
    if (a->y == b->y) {
      y = a->y;
    } else {
      gdouble slope, offset;
      segment_line (a, b, &slope, &offset);
      y = slope * x + offset;
    }
  }
  return y;
}

static gdouble
transform (const VhScoreTransform * t, gdouble in)
{
  gdouble out = in;

  if (t->has_p[0] || t->has_p[1] || t->has_p[2]) {
    out = 0.0;
    if (t->has_p[0])
      out += t->p[0];
    if (t->has_p[1])
      out += t->p[1] * in;
    if (t->has_p[2])
      out += t->p[2] * in * in;
  }
  /* Fewer than two knots: libvmaf leaves the value as it is. */
  if (t->has_knots && t->n_knots >= 2)
    out = map_knots (t, out);
  if (t->out_lte_in && out > in)
    out = in;
  if (t->out_gte_in && out < in)
    out = in;
  return out;
}

gdouble
vh_model_part_finish (const VhModelPart * part, gdouble score)
{
  if (part->transform.enabled)
    score = transform (&part->transform, score);
  if (part->clip) {
    if (score < part->clip_min)
      score = part->clip_min;
    if (score > part->clip_max)
      score = part->clip_max;
  }
  return score;
}
