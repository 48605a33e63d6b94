/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstvmafhipconfig.h"
#include "feature-spec.h"

#include "errors.h"
#include "model.h"
#include "model-spec.h"
#ifdef VH_HAVE_HIP
#include "hip-features.h"
#endif

void
gst_vmaf_hip_settings_copy (GstVmafHipSettings * dst,
    const GstVmafHipSettings * src)
{
  *dst = *src;
  dst->model = g_strdup (src->model);
  dst->features = g_strdup (src->features);
}

void
gst_vmaf_hip_settings_clear (GstVmafHipSettings * s)
{
  g_clear_pointer (&s->model, g_free);
  g_clear_pointer (&s->features, g_free);
}

/* Splits a property value at commas, trims, drops empty entries. */
static gchar **
split_list (const gchar * value)
{
  gchar **parts = g_strsplit (value ? value : "", ",", -1);
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; parts[i]; i++) {
    gchar *entry = g_strstrip (parts[i]);
    if (*entry)
      g_ptr_array_add (out, g_strdup (entry));
  }
  g_ptr_array_add (out, NULL);
  g_strfreev (parts);
  return (gchar **) g_ptr_array_free (out, FALSE);
}

/* One entry of the model property (see VhModelSpec). The first model
 * scores as "vmaf", like libvmaf's tool; the others under their own names
 * unless given one, so that every score has a distinct name. */
static VhModel *
load_model (const gchar * text, const GstVmafHipSettings * s,
    gboolean first, GError ** error)
{
  const VhModelConfig defaults = { NULL, s->enable_transform,
    s->disable_clip
  };
  VhModelSpec spec;
  VhModel *model;

  if (!vh_model_spec_parse (&spec, text, &defaults, error))
    return NULL;
  if (!spec.name && !first) {
    if (spec.version) {
      spec.name = g_strdup (spec.version);
    } else {
      gchar *base = g_path_get_basename (spec.path);
      if (g_str_has_suffix (base, ".json"))
        base[strlen (base) - 5] = '\0';
      spec.name = base;
    }
  }
  model = vh_model_spec_load (&spec, error);
  vh_model_spec_clear (&spec);
  return model;
}

/* "NAME[=key=value[:key=value...]]", as vmafhip-score's --feature. */
static gboolean
add_feature (VhContext * ctx, const gchar * text,
    const VhColorimetry * colorimetry, gboolean * uses_colorimetry,
    GError ** error)
{
  VhFeatureSpec spec;
  GError *err = NULL;
  gboolean ok;

  ok = vh_feature_spec_parse (&spec, text, &err);
  if (ok && vh_feature_spec_add_colorimetry (&spec,
          colorimetry ? &colorimetry[0] : NULL,
          colorimetry ? &colorimetry[1] : NULL))
    *uses_colorimetry = TRUE;
  ok = ok && vh_context_add_feature (ctx, spec.name,
      (const gchar * const *) spec.options, &err);
  vh_feature_spec_clear (&spec);
  if (!ok) {
    g_set_error (error, err->domain, err->code, "feature '%s': %s", text,
        err->message);
    g_error_free (err);
  }
  return ok;
}

VhContext *
gst_vmaf_hip_context_new (const GstVmafHipSettings * s, VhBackend backends,
    VhPictureTransfer * transfer, VhExtractorSet * extractors,
    const VhColorimetry * colorimetry, gboolean * uses_colorimetry,
    GError ** error)
{
  VhContextConfig config = { 0 };
  g_auto (GStrv) models = split_list (s->model);
  g_auto (GStrv) features = split_list (s->features);
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  GError *no_gpu = NULL;
  gboolean ok;
  VhContext *ctx;

  *uses_colorimetry = FALSE;
  config.n_threads = s->threads ? s->threads : g_get_num_processors ();
  /* threads=0 on a GPU: a few workers keep it busy; one per processor
   * would only multiply start-up and GPU state (many elements at once). */
  config.max_gpu_threads = s->threads ? 0 : GST_VMAF_HIP_GPU_THREADS;
  config.subsample = MAX (s->subsample, 1);
  /* The element opened the device (backend auto or hip) or not: features
   * without a HIP twin run on the CPU either way, and backend=hip without
   * a device failed before this. */
  if (!(backends & VH_BACKEND_HIP))
    no_gpu = g_error_new_literal (VH_ERROR, VH_ERROR_BACKEND,
        "no HIP device");
  ok = vh_backend_choice_resolve ((VhBackendChoice) s->backend, no_gpu,
      &config.backends, &config.gpu_fallback, NULL, error);
  g_clear_error (&no_gpu);
  if (!ok)
    return NULL;
#ifdef VH_HAVE_HIP
  config.extractors = extractors ? extractors : vh_hip_extractor_set ();
#else
  config.extractors = extractors;
#endif
  config.transfer = config.backends & VH_BACKEND_HIP ? transfer : NULL;
  ctx = vh_context_new (&config);

  for (guint i = 0; models[i]; i++) {
    VhModel *model = load_model (models[i], s, i == 0, error);
    const gchar *name;

    if (!model)
      goto fail;
    if (s->conf_interval && !vh_model_is_bootstrap (model)) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "model '%s' has no bootstrap members, so no confidence interval "
          "(conf-interval=true): use a bootstrap model such as "
          "vmaf_b_v0.6.3", models[i]);
      vh_model_free (model);
      goto fail;
    }
    name = vh_model_get_name (model);
    if (g_hash_table_contains (names, name)) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "two models score under the name '%s': give one another name "
          "(e.g. \"version=NAME:name=OTHER\")", name);
      vh_model_free (model);
      goto fail;
    }
    if (!vh_context_add_model (ctx, model, error))
      goto fail;
    /* The context owns the model now, so its name stays valid. */
    g_hash_table_add (names, (gpointer) name);
  }
  for (guint i = 0; features[i]; i++) {
    if (!add_feature (ctx, features[i], colorimetry, uses_colorimetry,
            error))
      goto fail;
  }
  if (!models[0] && !features[0]) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "nothing to compute: set a model or some features");
    goto fail;
  }
  if (!vh_context_check_outputs (ctx, error))
    goto fail;
  return ctx;

fail:
  vh_context_free (ctx);
  return NULL;
}
