/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "model.h"
#include "extractor-set.h"
#include "model-part.h"
#include "model-bootstrap.h"
#include "errors.h"
#include "feature-alias.h"
#include "feature-extractor.h"
#include "vh-models-resources.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

struct _VhModel
{
  gchar *name;
  /* [0] gives the main score; for a bootstrap model [1..] are the members
   * whose spread gives the statistics. */
  GPtrArray *parts;
  gboolean bootstrap;
  GPtrArray *features;          /* VhModelFeature*, borrowed, unique names */
  gchar **output_names;
};

static const gchar *const builtin_models[] = {
  "vmaf_v0.6.1",
  "vmaf_v0.6.1neg",
  "vmaf_4k_v0.6.1",
  "vmaf_4k_v0.6.1neg",
  "vmaf_b_v0.6.3",
  "vmaf_float_v0.6.1",
  "vmaf_float_v0.6.1neg",
  "vmaf_float_4k_v0.6.1",
  "vmaf_float_b_v0.6.3",
  "vmaf_v1.0.16_3d0h",
  "vmaf_v1.0.16_3d0h_2160",
  "vmaf_v1.0.16_5d0h",
  "vmaf_v1.0.16_1d5h_2160",
  "vmaf_v1.0.16_hfr_3d0h",
  "vmaf_v1.0.16_hfr_3d0h_2160",
  "vmaf_v1.0.16_hfr_5d0h",
  "vmaf_v1.0.16_hfr_1d5h_2160",
  NULL
};

#define VH_MODELS_RESOURCE_PATH "/org/vmafhip/models/"

const gchar *const *
vh_model_list_builtin (void)
{
  return builtin_models;
}

void
vh_model_free (VhModel * model)
{
  if (!model)
    return;
  g_ptr_array_unref (model->features);
  g_ptr_array_unref (model->parts);
  g_strfreev (model->output_names);
  g_free (model->name);
  g_free (model);
}

/* The extractor that outputs @alias. A model names features by libvmaf's
 * internal names ("VMAF_feature_motion_score"), whose alias ("motion") can
 * also be an extractor's name (integer motion's): such a name means the
 * extractor that outputs that feature (float_motion), as in libvmaf. */
static const VhFeatureExtractorClass *
find_provider (const gchar * name, const gchar * alias)
{
  const VhFeatureExtractorClass *const *list =
      vh_extractor_set_list (vh_extractor_set_get_builtin (), NULL);
  const VhBackend any = VH_BACKEND_CPU | VH_BACKEND_HIP;

  if (!strcmp (name, alias))
    return vh_feature_extractor_find (alias, any);
  for (guint i = 0; list[i]; i++) {
    for (guint k = 0; list[i]->provides && list[i]->provides[k]; k++) {
      if (!strcmp (list[i]->provides[k], alias))
        return vh_feature_extractor_find (list[i]->name, any);
    }
  }
  return vh_feature_extractor_find (alias, any);
}

/* Finds the extractor of each feature and the name it appends under with
 * the model's options, as a fresh instance of it reports. */
static gboolean
resolve_features (VhModelPart * part, const gchar * origin,
    const gchar * where, GError ** error)
{
  for (guint i = 0; i < part->n_features; i++) {
    VhModelFeature *f = &part->features[i];
    const gchar *alias = vh_feature_name_alias (f->name);
    const VhFeatureExtractorClass *klass;
    VhFeatureExtractor *fex;

    klass = find_provider (f->name, alias);
    if (!klass) {
      g_autofree gchar *known = vh_feature_extractor_list_names ();
      g_set_error (error, VH_ERROR, VH_ERROR_UNKNOWN_FEATURE,
          "%s: %smodel_dict.feature_names[%u]: no feature extractor "
          "provides '%s' (extractors: %s)", origin, where, i, alias,
          known[0] ? known : "none");
      return FALSE;
    }
    fex = vh_feature_extractor_new (klass);
    for (guint k = 0; f->options[k] && f->options[k + 1]; k += 2) {
      GError *err = NULL;
      if (!vh_feature_extractor_set_option (fex, f->options[k],
              f->options[k + 1], &err)) {
        g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
            "%s: %smodel_dict.feature_opts_dicts[%u]: %s", origin, where, i,
            err->message);
        g_error_free (err);
        vh_feature_extractor_free (fex);
        return FALSE;
      }
    }
    f->extractor = klass->name;
    f->output_name = vh_feature_extractor_output_name (fex, alias);
    vh_feature_extractor_free (fex);
  }
  return TRUE;
}

static VhModelPart *
load_part (JsonNode * node, const gchar * origin, const gchar * where,
    const gchar * name, const VhModelConfig * cfg, GError ** error)
{
  VhModelPart *part = vh_model_part_parse (node, origin, where, name, cfg,
      error);

  if (part && !resolve_features (part, origin, where, error))
    g_clear_pointer (&part, vh_model_part_free);
  return part;
}

/* A bootstrap file is an object of members "0", "1", ...; libvmaf reads
 * them in file order, taking the next expected number and skipping other
 * keys. */
static gboolean
load_collection (VhModel * model, JsonObject * root, const gchar * origin,
    const VhModelConfig * cfg, GError ** error)
{
  GList *members = json_object_get_members (root);
  gboolean ok = TRUE;

  for (GList * l = members; l && ok; l = l->next) {
    g_autofree gchar *expected = g_strdup_printf ("%u", model->parts->len);
    g_autofree gchar *where = NULL;
    g_autofree gchar *name = NULL;
    VhModelPart *part;

    if (strcmp (l->data, expected))
      continue;
    where = g_strdup_printf ("%s.", expected);
    name = model->parts->len == 0 ? g_strdup (model->name) :
        g_strdup_printf ("%s_%04u", model->name, model->parts->len);
    part = load_part (json_object_get_member (root, l->data), origin, where,
        name, cfg, error);
    if (!part) {
      ok = FALSE;
      break;
    }
    g_ptr_array_add (model->parts, part);
  }
  g_list_free (members);
  if (!ok)
    return FALSE;

  if (model->parts->len < 2) {
    g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
        "%s: neither 'model_dict' nor bootstrap members \"0\", \"1\", ...",
        origin);
    return FALSE;
  }
  for (guint i = 1; i < model->parts->len; i++) {
    VhModelPart *part = g_ptr_array_index (model->parts, i);
    VhModelPart *first = g_ptr_array_index (model->parts, 1);
    if ((part->type != VH_MODEL_TYPE_BOOTSTRAP_SVR &&
            part->type != VH_MODEL_TYPE_RESIDUE_BOOTSTRAP_SVR) ||
        part->type != first->type) {
      g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
          "%s: %u.model_dict.model_type: bootstrap members need one "
          "BOOTSTRAP_LIBSVMNUSVR or RESIDUEBOOTSTRAP_LIBSVMNUSVR type", origin,
          i);
      return FALSE;
    }
  }
  model->bootstrap = TRUE;
  return TRUE;
}

static void
collect_features (VhModel * model)
{
  GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint p = 0; p < model->parts->len; p++) {
    VhModelPart *part = g_ptr_array_index (model->parts, p);
    for (guint i = 0; i < part->n_features; i++) {
      VhModelFeature *f = &part->features[i];
      if (g_hash_table_add (seen, f->output_name))
        g_ptr_array_add (model->features, f);
    }
  }
  g_hash_table_unref (seen);
}

static void
collect_output_names (VhModel * model)
{
  GPtrArray *names = g_ptr_array_new ();

  for (guint p = 0; p < model->parts->len; p++) {
    VhModelPart *part = g_ptr_array_index (model->parts, p);
    g_ptr_array_add (names, g_strdup (part->name));
  }
  if (model->bootstrap) {
    for (guint s = 0; s < VH_BOOTSTRAP_N_STATS; s++)
      g_ptr_array_add (names, g_strconcat (model->name,
              vh_bootstrap_stat_suffix (s), NULL));
  }
  g_ptr_array_add (names, NULL);
  model->output_names = (gchar **) g_ptr_array_free (names, FALSE);
}

/* Replaces json-glib's "<data>" by the origin in syntax errors, which
 * carry the line and column. */
static void
set_syntax_error (GError ** error, const gchar * origin, const GError * err)
{
  const gchar *msg = err->message;

  if (g_str_has_prefix (msg, "<data>:"))
    msg += strlen ("<data>:");
  g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE, "%s:%s%s", origin,
      msg == err->message ? " " : "", msg);
}

/* json-glib parses nested arrays and objects recursively, so a file nested
 * deeply enough overflows the stack: measure the depth first (outside
 * strings) and refuse what no model needs. */
static gboolean
check_json_depth (const gchar * json, gsize len, const gchar * origin,
    GError ** error)
{
  guint depth = 0, line = 1;
  gboolean in_string = FALSE;

  for (gsize i = 0; i < len && json[i]; i++) {
    gchar ch = json[i];

    if (ch == '\n')
      line++;
    if (in_string) {
      if (ch == '\\' && i + 1 < len)
        i++;
      else if (ch == '"')
        in_string = FALSE;
    } else if (ch == '"') {
      in_string = TRUE;
    } else if (ch == '[' || ch == '{') {
      if (++depth > VH_MODEL_MAX_JSON_DEPTH) {
        g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
            "%s:%u: nested more than %d deep; models need far less", origin,
            line, VH_MODEL_MAX_JSON_DEPTH);
        return FALSE;
      }
    } else if ((ch == ']' || ch == '}') && depth > 0) {
      depth--;
    }
  }
  return TRUE;
}

VhModel *
vh_model_new_from_data (const gchar * json, gssize len, const gchar * origin,
    const VhModelConfig * cfg, GError ** error)
{
  static const VhModelConfig default_cfg = { NULL, FALSE, FALSE };
  g_autoptr (JsonParser) parser = json_parser_new ();
  GError *err = NULL;
  VhModel *model;
  JsonNode *root;
  gboolean ok;

  g_return_val_if_fail (json != NULL, NULL);
  if (!cfg)
    cfg = &default_cfg;
  if (!origin)
    origin = "model";

  if (!check_json_depth (json, len < 0 ? strlen (json) : (gsize) len, origin,
          error))
    return NULL;
  if (!json_parser_load_from_data (parser, json, len, &err)) {
    set_syntax_error (error, origin, err);
    g_error_free (err);
    return NULL;
  }
  root = json_parser_get_root (parser);
  if (!root || !JSON_NODE_HOLDS_OBJECT (root)) {
    g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
        "%s: expected a JSON object at the top level", origin);
    return NULL;
  }

  model = g_new0 (VhModel, 1);
  model->name = g_strdup (cfg->name ? cfg->name : "vmaf");
  model->parts = g_ptr_array_new_with_free_func ((GDestroyNotify)
      vh_model_part_free);
  model->features = g_ptr_array_new ();

  if (json_object_has_member (json_node_get_object (root), "model_dict")) {
    VhModelPart *part = load_part (root, origin, "", model->name, cfg, error);
    ok = part != NULL;
    if (ok)
      g_ptr_array_add (model->parts, part);
  } else {
    ok = load_collection (model, json_node_get_object (root), origin, cfg,
        error);
  }
  if (!ok) {
    vh_model_free (model);
    return NULL;
  }
  collect_features (model);
  collect_output_names (model);
  return model;
}

VhModel *
vh_model_new_from_file (const gchar * path, const VhModelConfig * cfg,
    GError ** error)
{
  g_autofree gchar *data = NULL;
  gsize len;
  GError *err = NULL;
  GStatBuf st;

  /* A directory, a device (/dev/zero) or a huge file is no model: say so
   * before reading it. */
  if (g_stat (path, &st) == 0 && (!S_ISREG (st.st_mode) ||
          st.st_size > VH_MODEL_MAX_FILE_SIZE)) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "cannot read model '%s': %s",
        path, S_ISREG (st.st_mode) ? "larger than "
        G_STRINGIFY (VH_MODEL_MAX_FILE_SIZE_MIB) " MiB" :
        "not a regular file");
    return NULL;
  }
  if (!g_file_get_contents (path, &data, &len, &err)) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "cannot read model '%s': %s",
        path, err->message);
    g_error_free (err);
    return NULL;
  }
  if (g_str_has_suffix (path, ".pkl")) {
    g_set_error (error, VH_ERROR, VH_ERROR_MODEL_PARSE,
        "%s: pkl models are not supported, use the JSON version", path);
    return NULL;
  }
  return vh_model_new_from_data (data, len, path, cfg, error);
}

VhModel *
vh_model_new_builtin (const gchar * version, const VhModelConfig * cfg,
    GError ** error)
{
  g_autofree gchar *path = NULL;
  g_autofree gchar *origin = NULL;
  GBytes *bytes;
  VhModel *model;
  gsize len;
  const gchar *data;

  g_return_val_if_fail (version != NULL, NULL);
  if (!g_strv_contains (builtin_models, version)) {
    g_autofree gchar *list = g_strjoinv (", ", (gchar **) builtin_models);
    g_set_error (error, VH_ERROR, VH_ERROR_UNKNOWN_MODEL,
        "no built-in model '%s' (built-in models: %s)", version, list);
    return NULL;
  }
  path = g_strconcat (VH_MODELS_RESOURCE_PATH, version, ".json", NULL);
  bytes = g_resource_lookup_data (vh_models_get_resource (), path,
      G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  if (!bytes) {
    g_set_error (error, VH_ERROR, VH_ERROR_UNKNOWN_MODEL,
        "built-in model '%s' is missing from this build", version);
    return NULL;
  }
  data = g_bytes_get_data (bytes, &len);
  origin = g_strdup_printf ("built-in model %s", version);
  model = vh_model_new_from_data (data, len, origin, cfg, error);
  g_bytes_unref (bytes);
  return model;
}

const gchar *
vh_model_get_name (const VhModel * model)
{
  return model->name;
}

gboolean
vh_model_is_bootstrap (const VhModel * model)
{
  return model->bootstrap;
}

guint
vh_model_n_features (const VhModel * model)
{
  return model->features->len;
}

static const VhModelFeature *
feature_at (const VhModel * model, guint i)
{
  g_return_val_if_fail (i < model->features->len, NULL);
  return g_ptr_array_index (model->features, i);
}

const gchar *
vh_model_feature_extractor (const VhModel * model, guint i)
{
  const VhModelFeature *f = feature_at (model, i);

  return f ? f->extractor : NULL;
}

const gchar *const *
vh_model_feature_options (const VhModel * model, guint i)
{
  const VhModelFeature *f = feature_at (model, i);

  return f ? (const gchar * const *) f->options : NULL;
}

const gchar *
vh_model_feature_output_name (const VhModel * model, guint i)
{
  const VhModelFeature *f = feature_at (model, i);

  return f ? f->output_name : NULL;
}

const gchar *const *
vh_model_output_names (const VhModel * model)
{
  return (const gchar * const *) model->output_names;
}

gboolean
vh_model_predict_main (const VhModel * model, VhFeatureCollector * fc,
    guint index, GError ** error)
{
  const VhModelPart *part = g_ptr_array_index (model->parts, 0);
  gdouble score;

  if (!vh_model_part_predict (part, fc, index, &score, error))
    return FALSE;
  score = vh_model_part_finish (part, score);
  return vh_feature_collector_append (fc, part->name, index, score, error);
}

gboolean
vh_model_predict_bootstrap (const VhModel * model, VhFeatureCollector * fc,
    guint index, GError ** error)
{
  if (!model->bootstrap)
    return TRUE;
  return vh_bootstrap_predict ((const VhModelPart * const *)
      model->parts->pdata + 1, model->parts->len - 1, model->name, fc, index,
      error);
}

gboolean
vh_model_predict (const VhModel * model, VhFeatureCollector * fc,
    guint index, GError ** error)
{
  return vh_model_predict_main (model, fc, index, error) &&
      vh_model_predict_bootstrap (model, fc, index, error);
}

/* Replaces or adds key=value in a NULL-terminated key, value list. */
static void
options_set (gchar *** options, const gchar * key, const gchar * value)
{
  gchar **opts = *options;
  guint n = opts ? g_strv_length (opts) : 0;

  for (guint k = 0; k + 1 < n; k += 2) {
    if (!strcmp (opts[k], key)) {
      g_free (opts[k + 1]);
      opts[k + 1] = g_strdup (value);
      return;
    }
  }
  opts = g_renew (gchar *, opts, n + 3);
  opts[n] = g_strdup (key);
  opts[n + 1] = g_strdup (value);
  opts[n + 2] = NULL;
  *options = opts;
}

gboolean
vh_model_override_option (VhModel * model, const gchar * extractor,
    const gchar * option, const gchar * value, GError ** error)
{
  const VhFeatureExtractorClass *klass;
  g_autoptr (VhFeatureExtractor) probe = NULL;
  gboolean used = FALSE;

  klass = vh_feature_extractor_find (extractor, VH_BACKEND_CPU);
  if (!klass || strcmp (klass->name, extractor)) {
    g_autofree gchar *known = vh_feature_extractor_list_names ();
    g_set_error (error, VH_ERROR, VH_ERROR_UNKNOWN_FEATURE,
        "model '%s': no feature extractor named '%s' (extractors: %s)",
        model->name, extractor, known);
    return FALSE;
  }
  probe = vh_feature_extractor_new (klass);
  if (!vh_feature_extractor_set_option (probe, option, value, error)) {
    g_prefix_error (error, "model '%s': ", model->name);
    return FALSE;
  }

  for (guint p = 0; p < model->parts->len; p++) {
    VhModelPart *part = g_ptr_array_index (model->parts, p);
    gboolean touched = FALSE;

    for (guint i = 0; i < part->n_features; i++) {
      VhModelFeature *f = &part->features[i];
      if (g_strcmp0 (f->extractor, klass->name))
        continue;
      options_set (&f->options, option, value);
      touched = TRUE;
    }
    if (!touched)
      continue;
    used = TRUE;
    /* Output names depend on the options: work them out again. */
    for (guint i = 0; i < part->n_features; i++)
      g_clear_pointer (&part->features[i].output_name, g_free);
    if (!resolve_features (part, model->name, "", error))
      return FALSE;
  }
  if (!used) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "model '%s' uses no feature of '%s', so '%s.%s' changes nothing",
        model->name, extractor, extractor, option);
    return FALSE;
  }
  g_ptr_array_set_size (model->features, 0);
  collect_features (model);
  return TRUE;
}
