/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* One distorted input of vmafhip-score: opened, checked against the
 * reference, scored by its own context into its own run report. */

#include "cli-rendition.h"
#include "errors.h"
#include "feature-spec.h"
#include "model-spec.h"
#include "pool.h"
#include "results-file.h"

#include <stdio.h>
#include <string.h>

/* Frames 0 .. index are scored: the results file may show them. */
static void
on_frame_ready (VhContext * ctx, guint index, gboolean scored,
    gpointer user_data)
{
  vh_run_report_frame_ready (user_data, index, scored);
}

/* The GPU failed and scoring goes on on the CPU: said whatever -q says,
 * as the other warnings are; the results file's dispatch says it too. */
static void
on_gpu_fallback (VhContext * ctx, const gchar * message, gpointer user_data)
{
  g_printerr ("vmafhip-score: warning: %s\n", message);
}

/* libvmaf's --model syntax; see VhModelSpec. */
static VhModel *
load_model (const gchar * text, GError ** error)
{
  const VhModelConfig defaults = { "vmaf", FALSE, FALSE };
  VhModelSpec spec;
  VhModel *model;

  if (!vh_model_spec_parse (&spec, text, &defaults, error))
    return NULL;
  model = vh_model_spec_load (&spec, error);
  vh_model_spec_clear (&spec);
  return model;
}

/* "NAME[=key=value[:key=value...]]" (src/feature-spec.h); what its
 * options leave of the colorimetry comes from the inputs' headers. */
static gboolean
add_feature (VhContext * ctx, const gchar * text,
    const VhColorimetry * ref_color, const VhColorimetry * dist_color,
    GError ** error)
{
  VhFeatureSpec spec;
  GError *err = NULL;
  gboolean ok;

  if (!vh_feature_spec_parse (&spec, text, &err)) {
    g_autofree gchar *shown = g_utf8_make_valid (text, -1);
    g_set_error (error, err->domain, err->code, "--feature '%s': %s", shown,
        err->message);
    g_error_free (err);
    return FALSE;
  }
  vh_feature_spec_add_colorimetry (&spec, ref_color, dist_color);
  ok = vh_context_add_feature (ctx, spec.name,
      (const gchar * const *) spec.options, error);
  vh_feature_spec_clear (&spec);
  return ok;
}

/* libvmaf's label for a --model: its version=, else its path=. */
static gchar *
model_label (const gchar * spec)
{
  g_auto (GStrv) parts = g_strsplit (spec, ":", -1);

  for (guint i = 0; parts[i]; i++) {
    if (g_str_has_prefix (parts[i], "version="))
      return g_strdup (parts[i] + 8);
  }
  for (guint i = 0; parts[i]; i++) {
    if (g_str_has_prefix (parts[i], "path="))
      return g_strdup (parts[i] + 5);
  }
  return g_strdup (spec);
}

static gboolean
check_compatible (const VhPictureInfo * ref, const VhPictureInfo * dist,
    GError ** error)
{
  if (vh_picture_info_equal (ref, dist))
    return TRUE;
  g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
      "reference and distorted differ: reference is %ux%u %s %u-bit, "
      "distorted is %ux%u %s %u-bit%s", ref->width, ref->height,
      vh_pix_fmt_to_string (ref->pix_fmt), ref->bpc, dist->width,
      dist->height, vh_pix_fmt_to_string (dist->pix_fmt), dist->bpc,
      ref->bpc != dist->bpc || ref->pix_fmt != dist->pix_fmt ?
      " (--convert reference-format converts the distorted to the "
      "reference's format)" : "");
  return FALSE;
}

/* --convert reference-format: a converter when the bit depth or the
 * chroma layout differs. */
static gboolean
make_converter (const VhCliSettings * s, const VhPictureInfo * ref,
    const VhPictureInfo * dist, VhFormatConverter ** converter,
    GError ** error)
{
  *converter = NULL;
  if (g_strcmp0 (s->convert, "reference-format") ||
      (ref->bpc == dist->bpc && ref->pix_fmt == dist->pix_fmt))
    return TRUE;
  *converter = vh_format_converter_new (dist, ref->pix_fmt, ref->bpc, error);
  if (!*converter)
    g_prefix_error (error, "--convert reference-format: ");
  return *converter != NULL;
}

VhCliRendition *
vh_cli_rendition_open (const VhCliSettings * s, guint index,
    const VhPictureInfo * raw_info, const VhPictureInfo * ref_info,
    GError ** error)
{
  VhCliRendition *r = g_new0 (VhCliRendition, 1);
  VhPictureInfo dist_raw;
  const VhPictureInfo *dist_info;
  GError *err = NULL;

  r->active = TRUE;
  if (!vh_cli_settings_get_rendition (s, index, &r->settings, &err) ||
      !vh_cli_settings_dist_geometry (&r->settings, raw_info,
          raw_info != NULL, &dist_raw, &err))
    goto fail;
  r->reader = vh_video_reader_open (r->settings.path, raw_info ? &dist_raw :
      NULL, &err);
  if (!r->reader)
    goto fail;
  dist_info = vh_video_reader_get_info (r->reader);
  if (!make_converter (s, ref_info, dist_info, &r->converter, &err))
    goto fail;
  if (r->converter)
    dist_info = vh_format_converter_get_output_info (r->converter);
  /* A distorted of another size is resampled to the reference's. */
  if (!vh_cli_settings_make_scaler (&r->settings, ref_info, dist_info,
          &r->scaler, &r->scaled_from, &err))
    goto fail;
  if (!r->scaler && !check_compatible (ref_info, dist_info, &err))
    goto fail;
  /* Frame rates, and --align's first pass over both files. */
  if (!vh_cli_pairing_init (&r->pairing, s, r->settings.path, raw_info,
          raw_info ? &dist_raw : NULL, &err))
    goto fail;
  if (r->pairing.summary && !s->quiet)
    g_printerr ("vmafhip-score: %s%s%s\n", vh_cli_settings_n_dist (s) > 1 ?
        r->settings.path : "", vh_cli_settings_n_dist (s) > 1 ? ": " : "",
        r->pairing.summary);
  if (r->pairing.pairs && r->pairing.pairs->len == 0) {
    g_set_error (&err, VH_ERROR, VH_ERROR_INVALID_ARGUMENT, "--align "
        "paired no frame, so nothing can be scored (%s); a wider "
        "--align_window helps when the inputs are further apart",
        r->pairing.summary);
    goto fail;
  }
  return r;

fail:
  /* With several -d, which one. */
  if (vh_cli_settings_n_dist (s) > 1)
    g_prefix_error (&err, "-d %s: ", s->dist_paths[index]);
  g_propagate_error (error, err);
  vh_cli_rendition_free (r);
  return NULL;
}

gboolean
vh_cli_rendition_prepare (VhCliRendition * r, const VhCliSettings * s,
    const VhContextConfig * config, VhOutputFormat format,
    const VhPictureInfo * ref_info, const VhColorimetry * ref_color,
    GError ** error)
{
  r->ctx = vh_context_new (config);
  vh_context_set_fallback_func (r->ctx, on_gpu_fallback, NULL);
  if (!s->no_prediction) {
    const gchar *default_models[] = { "version=vmaf_v0.6.1", NULL };
    const gchar *const *models = s->models ? (const gchar * const *) s->models
        : default_models;

    r->model_labels = g_new0 (gchar *, g_strv_length ((gchar **) models) + 1);
    for (guint i = 0; models[i]; i++) {
      VhModel *model = load_model (models[i], error);

      r->model_labels[i] = model_label (models[i]);
      if (!model || !vh_context_add_model (r->ctx, model, error))
        return FALSE;
    }
  }
  for (guint i = 0; s->features && s->features[i]; i++) {
    if (!add_feature (r->ctx, s->features[i], ref_color,
            vh_video_reader_get_colorimetry (r->reader), error))
      return FALSE;
  }
  /* The output is checked (and holds an empty log) before any scoring,
   * and holds every frame scored so far while scoring goes on. */
  {
    const VhRunReportConfig report_config = { r->settings.output, format,
      VH_RESULTS_FILE_DEFAULT_INTERVAL_US, FALSE
    };

    r->report = vh_run_report_new (r->ctx, &report_config, error);
    if (!r->report)
      return FALSE;
  }
  vh_run_report_set_picture_info (r->report, ref_info);
  /* How the distorted was resampled (--scale), NULL when it was not. */
  vh_run_report_set_scaler (r->report, r->scaled_from);
  /* How --align paired the frames, NULL without it. */
  vh_run_report_set_alignment (r->report, r->pairing.log_text,
      r->pairing.log_json);
  vh_context_set_frame_ready_func (r->ctx, on_frame_ready, r->report, NULL);
  return TRUE;
}

/* The next pair into r->pair_*; FALSE when none is left. */
static gboolean
take_pair (VhCliRendition * r)
{
  if (!r->have_pair)
    r->have_pair = vh_cli_pairing_next (&r->pairing, r->n_frames,
        &r->pair_ref, &r->pair_dist);
  return r->have_pair;
}

gboolean
vh_cli_rendition_pair_for (VhCliRendition * r, guint64 ref_index,
    guint64 * dist_index)
{
  if (!take_pair (r)) {
    r->active = FALSE;
    return FALSE;
  }
  /* Pairs go forward in both inputs: a later reference frame's. */
  if (r->pair_ref > ref_index)
    return FALSE;
  r->have_pair = FALSE;
  *dist_index = r->pair_dist;
  return r->pair_ref == ref_index;
}

gboolean
vh_cli_rendition_next_dist (VhCliRendition * r, guint64 * dist_index)
{
  if (!take_pair (r))
    return FALSE;
  *dist_index = r->pair_dist;
  return TRUE;
}

gboolean
vh_cli_rendition_submit (VhCliRendition * r, VhPicture * ref,
    VhPicture * dist, GError ** error)
{
  gboolean ok;

  if (r->converter) {
    VhPicture *converted = vh_format_converter_convert (r->converter, dist,
        error);

    vh_picture_unref (dist);
    if (!converted)
      return FALSE;
    dist = converted;
  }
  if (r->scaler) {
    VhPicture *scaled = vh_scaler_scale (r->scaler, dist, error);

    vh_picture_unref (dist);
    if (!scaled)
      return FALSE;
    dist = scaled;
  }
  ok = vh_context_submit (r->ctx, ref, dist, NULL, error);
  vh_picture_unref (dist);
  if (ok)
    r->n_frames++;
  return ok;
}

void
vh_cli_rendition_print_pooled (VhCliRendition * r, const gchar * prefix)
{
  for (guint m = 0; m < vh_context_n_models (r->ctx); m++) {
    VhModel *model = vh_context_get_model (r->ctx, m);
    const gchar *name = vh_model_get_name (model);
    gdouble mean;

    if (!vh_run_report_get_pooled (r->report, name, VH_POOL_MEAN, &mean))
      continue;
    g_printerr ("%s%s%s: %f\n", prefix ? prefix : "", prefix ? ": " : "",
        r->model_labels && r->model_labels[m] ? r->model_labels[m] : name,
        mean);
  }
}

void
vh_cli_rendition_free (VhCliRendition * r)
{
  if (!r)
    return;
  /* Its workers report to the report until it is gone. */
  if (r->ctx)
    vh_context_free (r->ctx);
  vh_run_report_free (r->report);
  vh_video_reader_free (r->reader);
  vh_format_converter_free (r->converter);
  vh_scaler_free (r->scaler);
  g_free (r->scaled_from);
  g_strfreev (r->model_labels);
  vh_cli_pairing_clear (&r->pairing);
  vh_cli_rendition_settings_clear (&r->settings);
  g_free (r);
}
