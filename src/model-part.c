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

#include <math.h>
#include <stdarg.h>
#include <string.h>

/* Where we are, for messages: "<origin>: <where>model_dict.<member>: ..." */
typedef struct
{
  const gchar *origin;
  const gchar *where;
  GError **error;
} Ctx;

static gboolean
fail (const Ctx * c, const gchar * member, const gchar * fmt, ...)
{
  va_list args;
  g_autofree gchar *msg = NULL;

  va_start (args, fmt);
  msg = g_strdup_vprintf (fmt, args);
  va_end (args);
  g_set_error (c->error, VH_ERROR, VH_ERROR_MODEL_PARSE,
      "%s: %smodel_dict%s%s: %s", c->origin, c->where, member ? "." : "",
      member ? member : "", msg);
  return FALSE;
}

static const gchar *
node_kind (JsonNode * node)
{
  switch (json_node_get_node_type (node)) {
    case JSON_NODE_OBJECT:
      return "an object";
    case JSON_NODE_ARRAY:
      return "an array";
    case JSON_NODE_NULL:
      return "null";
    case JSON_NODE_VALUE:
      break;
  }
  switch (json_node_get_value_type (node)) {
    case G_TYPE_BOOLEAN:
      return "a boolean";
    case G_TYPE_STRING:
      return "a string";
    default:
      return "a number";
  }
}

static gboolean
is_number (JsonNode * node)
{
  GType t;

  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  t = json_node_get_value_type (node);
  return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}

/* Numbers too large for a double (1e999) read as infinities: every number
 * a model uses must be finite. */
static gboolean
is_finite_number (const Ctx * c, JsonNode * node, const gchar * member,
    gboolean * ok)
{
  *ok = TRUE;
  if (!is_number (node))
    return FALSE;
  if (!isfinite (json_node_get_double (node)))
    *ok = fail (c, member, "%g is not a finite number",
        json_node_get_double (node));
  return TRUE;
}

static gboolean
is_string (JsonNode * node)
{
  return JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_STRING;
}

static gboolean
is_boolean (JsonNode * node)
{
  return JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_BOOLEAN;
}

/* A member that must be of one kind when present. */
static JsonNode *
get_member (const Ctx * c, JsonObject * obj, const gchar * member,
    JsonNodeType type, gboolean * ok)
{
  JsonNode *node = json_object_get_member (obj, member);

  *ok = TRUE;
  if (!node)
    return NULL;
  if (json_node_get_node_type (node) != type) {
    *ok = fail (c, member, "expected %s, got %s", type == JSON_NODE_ARRAY ?
        "an array" : type == JSON_NODE_OBJECT ? "an object" : "a value",
        node_kind (node));
    return NULL;
  }
  return node;
}

static gboolean
get_string (const Ctx * c, JsonObject * obj, const gchar * member,
    const gchar ** out, gboolean required)
{
  JsonNode *node = json_object_get_member (obj, member);

  *out = NULL;
  if (!node)
    return !required || fail (c, NULL, "missing member '%s'", member);
  if (!is_string (node))
    return fail (c, member, "expected a string, got %s", node_kind (node));
  *out = json_node_get_string (node);
  return TRUE;
}

/* Numbers as libvmaf's dictionary keeps them: read as a float, printed
 * with "%g". */
static gchar *
normalise_number (gdouble v)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (buf, sizeof (buf), "%g", (gfloat) v));
}

static gboolean
parse_feature_names (const Ctx * c, JsonObject * dict, VhModelPart * part)
{
  gboolean ok;
  JsonNode *node = get_member (c, dict, "feature_names", JSON_NODE_ARRAY, &ok);
  JsonArray *arr;
  guint n;

  if (!ok)
    return FALSE;
  if (!node)
    return fail (c, NULL, "missing member 'feature_names'");
  arr = json_node_get_array (node);
  n = json_array_get_length (arr);
  if (n == 0 || n > VH_MODEL_MAX_FEATURES)
    return fail (c, "feature_names", "needs 1 to %d names, has %u",
        VH_MODEL_MAX_FEATURES, n);
  part->n_features = n;
  part->features = g_new0 (VhModelFeature, n);
  for (guint i = 0; i < n; i++) {
    JsonNode *el = json_array_get_element (arr, i);
    if (!is_string (el)) {
      g_autofree gchar *m = g_strdup_printf ("feature_names[%u]", i);
      return fail (c, m, "expected a string, got %s", node_kind (el));
    }
    part->features[i].name = g_strdup (json_node_get_string (el));
  }
  return TRUE;
}

static gboolean
parse_options (const Ctx * c, JsonObject * opts, guint i,
    VhModelFeature * feature)
{
  GPtrArray *kv = g_ptr_array_new ();
  gboolean ok = TRUE;
  GList *members = json_object_get_members (opts);

  /* json-glib keeps the members in file order, as libvmaf's parser sees
   * them. */
  for (GList * l = members; l; l = l->next) {
    const gchar *key = l->data;
    JsonNode *v = json_object_get_member (opts, key);
    gchar *value;

    if (is_number (v)) {
      /* As a float, as libvmaf keeps it: 1e300 is infinite there too. */
      if (!isfinite ((gfloat) json_node_get_double (v))) {
        g_autofree gchar *m = g_strdup_printf ("feature_opts_dicts[%u].%s", i,
            key);
        ok = fail (c, m, "%g is not a finite number",
            json_node_get_double (v));
        break;
      }
      value = normalise_number (json_node_get_double (v));
    } else if (is_boolean (v)) {
      value = g_strdup (json_node_get_boolean (v) ? "true" : "false");
    } else if (is_string (v)) {
      value = g_strdup (json_node_get_string (v));
    } else {
      g_autofree gchar *m = g_strdup_printf ("feature_opts_dicts[%u].%s", i,
          key);
      ok = fail (c, m, "expected a number, boolean or string, got %s",
          node_kind (v));
      break;
    }
    g_ptr_array_add (kv, g_strdup (key));
    g_ptr_array_add (kv, value);
  }
  g_list_free (members);
  g_ptr_array_add (kv, NULL);
  feature->options = (gchar **) g_ptr_array_free (kv, FALSE);
  return ok;
}

static gboolean
parse_feature_opts (const Ctx * c, JsonObject * dict, VhModelPart * part)
{
  gboolean ok;
  JsonNode *node = get_member (c, dict, "feature_opts_dicts",
      JSON_NODE_ARRAY, &ok);
  JsonArray *arr;
  guint n;

  if (!ok)
    return FALSE;
  if (node) {
    arr = json_node_get_array (node);
    n = json_array_get_length (arr);
    if (n > VH_MODEL_MAX_FEATURES)
      return fail (c, "feature_opts_dicts", "has %u entries, at most %d",
          n, VH_MODEL_MAX_FEATURES);
    for (guint i = 0; i < n; i++) {
      JsonNode *el = json_array_get_element (arr, i);
      if (!JSON_NODE_HOLDS_OBJECT (el)) {
        g_autofree gchar *m = g_strdup_printf ("feature_opts_dicts[%u]", i);
        return fail (c, m, "expected an object, got %s", node_kind (el));
      }
      /* Entries past the last feature are read but unused, as libvmaf. */
      if (i < part->n_features) {
        if (!parse_options (c, json_node_get_object (el), i,
                &part->features[i]))
          return FALSE;
      }
    }
  }
  for (guint i = 0; i < part->n_features; i++) {
    if (!part->features[i].options)
      part->features[i].options = g_new0 (gchar *, 1);
  }
  return TRUE;
}

/* "slopes" / "intercepts": the model's own value, then one per feature. */
static gboolean
parse_rescale (const Ctx * c, JsonObject * dict, const gchar * member,
    VhModelPart * part, gboolean is_slope)
{
  gboolean ok;
  JsonNode *node = get_member (c, dict, member, JSON_NODE_ARRAY, &ok);
  JsonArray *arr;
  guint n;

  if (!ok)
    return FALSE;
  if (!node) {
    if (part->norm == VH_MODEL_NORM_LINEAR_RESCALE)
      return fail (c, NULL, "missing member '%s' (norm_type is "
          "linear_rescale)", member);
    return TRUE;
  }
  arr = json_node_get_array (node);
  n = json_array_get_length (arr);
  if (n > VH_MODEL_MAX_FEATURES + 1)
    return fail (c, member, "has %u entries, at most %d", n,
        VH_MODEL_MAX_FEATURES + 1);
  if (part->norm == VH_MODEL_NORM_LINEAR_RESCALE && n < part->n_features + 1)
    return fail (c, member, "has %u entries, needs %u (one for the score, "
        "then one per feature)", n, part->n_features + 1);
  for (guint i = 0; i < n; i++) {
    JsonNode *el = json_array_get_element (arr, i);
    gdouble v;

    g_autofree gchar *m = g_strdup_printf ("%s[%u]", member, i);
    gboolean finite;

    if (!is_finite_number (c, el, m, &finite))
      return fail (c, m, "expected a number, got %s", node_kind (el));
    if (!finite)
      return FALSE;
    v = json_node_get_double (el);
    /* The score is divided by its slope, and so are the features that
     * chroma correction takes back to their own scale. */
    if (is_slope && v == 0.0 && part->norm == VH_MODEL_NORM_LINEAR_RESCALE
        && (i == 0 || (part->chroma_correction && i <= part->n_features)))
      return fail (c, m, "is 0, and the score is divided by it");
    if (i == 0) {
      *(is_slope ? &part->slope : &part->intercept) = v;
    } else if (i <= part->n_features) {
      VhModelFeature *f = &part->features[i - 1];
      *(is_slope ? &f->slope : &f->intercept) = v;
    }
  }
  return TRUE;
}

static gboolean
parse_knots (const Ctx * c, JsonArray * arr, VhScoreTransform * t)
{
  guint n = json_array_get_length (arr);

  if (n > VH_MODEL_MAX_KNOTS)
    return fail (c, "score_transform.knots", "has %u knots, at most %d", n,
        VH_MODEL_MAX_KNOTS);
  for (guint i = 0; i < n; i++) {
    JsonNode *el = json_array_get_element (arr, i);
    JsonArray *pt;
    guint len;
    g_autofree gchar *m = g_strdup_printf ("score_transform.knots[%u]", i);

    if (!JSON_NODE_HOLDS_ARRAY (el))
      return fail (c, m, "expected an [x, y] array, got %s", node_kind (el));
    pt = json_node_get_array (el);
    len = json_array_get_length (pt);
    if (len > 2)
      return fail (c, m, "expected an [x, y] array, got %u numbers", len);
    /* Missing coordinates stay 0, as in libvmaf. */
    for (guint k = 0; k < len; k++) {
      JsonNode *v = json_array_get_element (pt, k);
      gboolean finite;
      if (!is_finite_number (c, v, m, &finite))
        return fail (c, m, "expected numbers, got %s", node_kind (v));
      if (!finite)
        return FALSE;
      *(k == 0 ? &t->knots[i].x : &t->knots[i].y) = json_node_get_double (v);
    }
    /* libvmaf gives garbage for such knots; refuse them instead. */
    if (i > 0 && !(t->knots[i - 1].x < t->knots[i].x &&
            t->knots[i - 1].y <= t->knots[i].y))
      return fail (c, m, "knots must have increasing x and non-decreasing y");
  }
  t->n_knots = n;
  t->has_knots = TRUE;
  return TRUE;
}

static gboolean
parse_transform (const Ctx * c, JsonObject * dict, const VhModelConfig * cfg,
    VhScoreTransform * t)
{
  static const gchar *const poly[] = { "p0", "p1", "p2" };
  static const gchar *const rect[] = { "out_lte_in", "out_gte_in" };
  gboolean ok;
  JsonNode *node = get_member (c, dict, "score_transform", JSON_NODE_OBJECT,
      &ok);
  JsonObject *obj;
  JsonNode *v;

  if (!ok || !node)
    return ok;
  obj = json_node_get_object (node);

  if ((v = json_object_get_member (obj, "enabled"))) {
    if (!is_boolean (v))
      return fail (c, "score_transform.enabled", "expected a boolean, got %s",
          node_kind (v));
    t->enabled = json_node_get_boolean (v);
  }
  /* The flag only turns on a transform the model describes. */
  t->enabled |= cfg->enable_transform;

  /* libvmaf reads p0..p2 only; higher terms are ignored. */
  for (guint i = 0; i < G_N_ELEMENTS (poly); i++) {
    g_autofree gchar *m = g_strdup_printf ("score_transform.%s", poly[i]);
    gboolean finite;
    if (!(v = json_object_get_member (obj, poly[i]))
        || JSON_NODE_HOLDS_NULL (v))
      continue;
    if (!is_finite_number (c, v, m, &finite))
      return fail (c, m, "expected a number or null, got %s", node_kind (v));
    if (!finite)
      return FALSE;
    t->has_p[i] = TRUE;
    t->p[i] = json_node_get_double (v);
  }

  if ((v = json_object_get_member (obj, "knots")) && !JSON_NODE_HOLDS_NULL (v)) {
    if (!JSON_NODE_HOLDS_ARRAY (v))
      return fail (c, "score_transform.knots", "expected an array or null, "
          "got %s", node_kind (v));
    if (!parse_knots (c, json_node_get_array (v), t))
      return FALSE;
  }

  /* Written as strings in model files: only "true" turns them on. */
  for (guint i = 0; i < G_N_ELEMENTS (rect); i++) {
    g_autofree gchar *m = g_strdup_printf ("score_transform.%s", rect[i]);
    if (!(v = json_object_get_member (obj, rect[i])))
      continue;
    if (!is_string (v))
      return fail (c, m, "expected the string \"true\" or \"false\", got %s",
          node_kind (v));
    if (!strcmp (json_node_get_string (v), "true"))
      *(i == 0 ? &t->out_lte_in : &t->out_gte_in) = TRUE;
  }
  return TRUE;
}

static gboolean
parse_clip (const Ctx * c, JsonObject * dict, const VhModelConfig * cfg,
    VhModelPart * part)
{
  gboolean ok;
  JsonNode *node = get_member (c, dict, "score_clip", JSON_NODE_ARRAY, &ok);
  JsonArray *arr;
  gdouble min, max;

  if (!ok || !node)
    return ok;
  arr = json_node_get_array (node);
  if (json_array_get_length (arr) < 2 ||
      !is_number (json_array_get_element (arr, 0)) ||
      !is_number (json_array_get_element (arr, 1)))
    return fail (c, "score_clip", "expected [min, max]");
  min = json_array_get_double_element (arr, 0);
  max = json_array_get_double_element (arr, 1);
  /* Checked even when clipping is off: the file is wrong either way. */
  if (!isfinite (min) || !isfinite (max) || min > max)
    return fail (c, "score_clip", "expected finite [min, max] with min <= "
        "max, got [%g, %g]", min, max);
  if (cfg->disable_clip)
    return TRUE;
  part->clip = TRUE;
  part->clip_min = min;
  part->clip_max = max;
  return TRUE;
}

static gboolean
parse_types (const Ctx * c, JsonObject * dict, VhModelPart * part)
{
  const gchar *s;

  if (!get_string (c, dict, "model_type", &s, FALSE))
    return FALSE;
  if (!s)
    part->type = VH_MODEL_TYPE_UNKNOWN;
  else if (!strcmp (s, "LIBSVMNUSVR"))
    part->type = VH_MODEL_TYPE_SVR;
  else if (!strcmp (s, "BOOTSTRAP_LIBSVMNUSVR"))
    part->type = VH_MODEL_TYPE_BOOTSTRAP_SVR;
  else if (!strcmp (s, "RESIDUEBOOTSTRAP_LIBSVMNUSVR"))
    part->type = VH_MODEL_TYPE_RESIDUE_BOOTSTRAP_SVR;
  else
    return fail (c, "model_type", "unknown type '%s' (LIBSVMNUSVR, "
        "BOOTSTRAP_LIBSVMNUSVR, RESIDUEBOOTSTRAP_LIBSVMNUSVR)", s);

  if (!get_string (c, dict, "norm_type", &s, TRUE))
    return FALSE;
  if (!strcmp (s, "linear_rescale"))
    part->norm = VH_MODEL_NORM_LINEAR_RESCALE;
  else if (!strcmp (s, "none"))
    part->norm = VH_MODEL_NORM_NONE;
  else
    return fail (c, "norm_type", "unknown type '%s' (linear_rescale, none)", s);
  return TRUE;
}

static gboolean
parse_chroma (const Ctx * c, JsonObject * dict, VhModelPart * part)
{
  JsonNode *v = json_object_get_member (dict, "chroma_correction_parameter");
  gboolean ok;

  if (!v)
    return TRUE;
  if (!is_finite_number (c, v, "chroma_correction_parameter", &ok))
    return fail (c, "chroma_correction_parameter", "expected a number, got "
        "%s", node_kind (v));
  if (!ok)
    return FALSE;
  part->chroma_correction = TRUE;
  part->chroma_correction_parameter = json_node_get_double (v);
  /* With 0 libvmaf silently writes no score at all. */
  if (part->chroma_correction_parameter == 0.0)
    return fail (c, "chroma_correction_parameter", "0 is not supported");
  return TRUE;
}

static gboolean
parse_svm (const Ctx * c, JsonObject * dict, VhModelPart * part)
{
  const gchar *text;
  GError *err = NULL;

  if (!get_string (c, dict, "model", &text, TRUE))
    return FALSE;
  part->svm = vh_svm_parse (text, strlen (text), &err);
  if (!part->svm) {
    fail (c, "model", "%s", err->message);
    g_error_free (err);
    return FALSE;
  }
  /* Attribute i is feature i: one past the features has no value. */
  if (vh_svm_max_attribute (part->svm) > part->n_features)
    return fail (c, "model", "support vectors use attribute %u, but "
        "feature_names lists %u features", vh_svm_max_attribute (part->svm),
        part->n_features);
  return TRUE;
}

VhModelPart *
vh_model_part_parse (JsonNode * node, const gchar * origin,
    const gchar * where, const gchar * name, const VhModelConfig * cfg,
    GError ** error)
{
  Ctx c = { origin, where, error };
  VhModelPart *part;
  JsonNode *dict_node;
  JsonObject *dict;

  if (!JSON_NODE_HOLDS_OBJECT (node)) {
    g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
        "%s: %sexpected an object, got %s", origin, where, node_kind (node));
    return NULL;
  }
  dict_node = json_object_get_member (json_node_get_object (node),
      "model_dict");
  if (!dict_node) {
    g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
        "%s: %smissing member 'model_dict'", origin, where);
    return NULL;
  }
  if (!JSON_NODE_HOLDS_OBJECT (dict_node)) {
    fail (&c, NULL, "expected an object, got %s", node_kind (dict_node));
    return NULL;
  }
  dict = json_node_get_object (dict_node);

  part = g_new0 (VhModelPart, 1);
  part->name = g_strdup (name);
  if (!parse_types (&c, dict, part) ||
      !parse_feature_names (&c, dict, part) ||
      !parse_feature_opts (&c, dict, part) ||
      !parse_chroma (&c, dict, part) ||
      !parse_rescale (&c, dict, "slopes", part, TRUE) ||
      !parse_rescale (&c, dict, "intercepts", part, FALSE) ||
      !parse_transform (&c, dict, cfg, &part->transform) ||
      !parse_clip (&c, dict, cfg, part) ||
      !parse_svm (&c, dict, part)) {
    vh_model_part_free (part);
    return NULL;
  }
  return part;
}

void
vh_model_part_free (VhModelPart * part)
{
  if (!part)
    return;
  for (guint i = 0; i < part->n_features; i++) {
    g_free (part->features[i].name);
    g_strfreev (part->features[i].options);
    g_free (part->features[i].output_name);
  }
  g_free (part->features);
  vh_svm_free (part->svm);
  g_free (part->name);
  g_free (part);
}
