/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "feature-extractor.h"
#include "errors.h"

#include <string.h>

VhFeatureExtractor *
vh_feature_extractor_new (const VhFeatureExtractorClass * klass)
{
  VhFeatureExtractor *fex = g_new0 (VhFeatureExtractor, 1);

  fex->klass = klass;
  fex->log_slot = G_MAXUINT;
  vh_option_values_init (&fex->options, klass->options);
  fex->suffix = g_strdup ("");
  return fex;
}

gboolean
vh_feature_extractor_set_option (VhFeatureExtractor * fex, const gchar * name,
    const gchar * value, GError ** error)
{
  g_return_val_if_fail (!fex->initialized, FALSE);
  if (!vh_option_values_set (&fex->options, fex->klass->name, name, value,
          error))
    return FALSE;
  g_free (fex->suffix);
  fex->suffix = vh_option_values_name_suffix (&fex->options);
  return TRUE;
}

VhFeatureExtractor *
vh_feature_extractor_clone (const VhFeatureExtractor * src)
{
  VhFeatureExtractor *fex = vh_feature_extractor_new (src->klass);

  vh_option_values_copy (&fex->options, &src->options);
  g_free (fex->suffix);
  fex->suffix = g_strdup (src->suffix);
  fex->log_slot = src->log_slot;
  fex->log_pooled = src->log_pooled;
  fex->cpu_mask = src->cpu_mask;
  return fex;
}

VhFeatureExtractor *
vh_feature_extractor_clone_as (const VhFeatureExtractor * src,
    const VhFeatureExtractorClass * klass)
{
  VhFeatureExtractor *fex;

  if (klass->options != src->klass->options ||
      g_strcmp0 (klass->name, src->klass->name))
    return NULL;
  fex = vh_feature_extractor_new (klass);
  vh_option_values_copy (&fex->options, &src->options);
  g_free (fex->suffix);
  fex->suffix = g_strdup (src->suffix);
  fex->log_slot = src->log_slot;
  fex->log_pooled = src->log_pooled;
  fex->cpu_mask = src->cpu_mask;
  return fex;
}

gboolean
vh_feature_extractor_init (VhFeatureExtractor * fex,
    const VhPictureInfo * info, GError ** error)
{
  const VhFeatureExtractorClass *klass = fex->klass;

  g_return_val_if_fail (!fex->initialized, FALSE);
  if (info->width < klass->min_width || info->height < klass->min_height) {
    g_set_error (error, VH_ERROR, VH_ERROR_TOO_SMALL,
        "feature '%s' needs frames of at least %ux%u, got %ux%u",
        klass->name, klass->min_width, klass->min_height, info->width,
        info->height);
    return FALSE;
  }
  fex->info = *info;
  fex->priv = klass->priv_size ? g_malloc0 (klass->priv_size) : NULL;
  if (klass->init && !klass->init (fex, info, error)) {
    /* A GPU twin that failed halfway (device memory short) frees what it
     * got: its close takes a state left halfway. */
    if ((klass->backend & VH_BACKEND_HIP) && klass->close)
      klass->close (fex);
    g_clear_pointer (&fex->priv, g_free);
    return FALSE;
  }
  fex->initialized = TRUE;
  return TRUE;
}

gboolean
vh_feature_extractor_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  g_return_val_if_fail (fex->initialized, FALSE);
  g_return_val_if_fail (ref->mem_type == fex->klass->mem_type, FALSE);
  g_return_val_if_fail (dist->mem_type == fex->klass->mem_type, FALSE);
  fex->log_seq = 0;
  return fex->klass->extract (fex, ref, dist, index, fc, error);
}

gboolean
vh_feature_extractor_is_temporal (const VhFeatureExtractor * fex)
{
  return (fex->klass->flags & VH_EXTRACTOR_FLAG_TEMPORAL) ||
      (fex->klass->is_temporal && fex->klass->is_temporal (fex));
}

gboolean
vh_feature_extractor_flush (VhFeatureExtractor * fex, VhFeatureCollector * fc,
    GError ** error)
{
  gboolean ok;

  g_return_val_if_fail (fex->initialized, FALSE);
  if (!fex->klass->flush)
    return TRUE;
  fex->log_seq = 0;
  fex->log_flushing = TRUE;
  ok = fex->klass->flush (fex, fc, error);
  fex->log_flushing = FALSE;
  return ok;
}

void
vh_feature_extractor_free (VhFeatureExtractor * fex)
{
  if (!fex)
    return;
  if (fex->initialized && fex->klass->close)
    fex->klass->close (fex);
  g_free (fex->priv);
  vh_option_values_clear (&fex->options);
  g_free (fex->suffix);
  g_free (fex);
}

const gchar *
vh_feature_extractor_get_string_option (const VhFeatureExtractor * fex,
    const gchar * name)
{
  return vh_option_values_get_string (&fex->options, name);
}

gdouble
vh_feature_extractor_get_option (const VhFeatureExtractor * fex,
    const gchar * name)
{
  return vh_option_values_get (&fex->options, name);
}

gboolean
vh_feature_extractor_option_is_set (const VhFeatureExtractor * fex,
    const gchar * name)
{
  return vh_option_values_is_set (&fex->options, name);
}

gchar *
vh_feature_extractor_output_name (const VhFeatureExtractor * fex,
    const gchar * base_name)
{
  return g_strconcat (base_name, fex->suffix, NULL);
}

static gboolean
append_named (VhFeatureExtractor * fex, VhFeatureCollector * fc,
    const gchar * base_name, const gchar * name, guint index, gdouble value,
    GError ** error)
{
  VhLogKey key;
  gdouble held;

  if (fex->replaying && (index < fex->replay_from ||
          vh_feature_collector_get (fc, name, index, &held))) {
    fex->log_seq++;
    return TRUE;
  }
  if (fex->log_slot == G_MAXUINT)
    return vh_feature_collector_append (fc, name, index, value, error);
  vh_log_key_init (&key, fex->klass->name, base_name, index, fex->log_slot,
      fex->log_seq++, fex->log_pooled, fex->log_flushing);
  return vh_feature_collector_append_keyed (fc, name, index, value, &key,
      error);
}

gboolean
vh_feature_extractor_append (VhFeatureExtractor * fex, VhFeatureCollector * fc,
    const gchar * base_name, guint index, gdouble value, GError ** error)
{
  gchar *name = NULL;
  gboolean ok;

  if (fex->suffix[0])
    name = vh_feature_extractor_output_name (fex, base_name);
  ok = append_named (fex, fc, base_name, name ? name : base_name, index,
      value, error);
  g_free (name);
  return ok;
}

gboolean
vh_feature_extractor_append_unsuffixed (VhFeatureExtractor * fex,
    VhFeatureCollector * fc, const gchar * name, guint index, gdouble value,
    GError ** error)
{
  return append_named (fex, fc, name, name, index, value, error);
}

gboolean
vh_feature_extractor_check_luma (const VhFeatureExtractor * fex,
    const VhPicture * ref, const VhPicture * dist, guint index,
    GError ** error)
{
  const VhPictureInfo *s = &fex->info;

  if (ref->info.width != s->width || ref->info.height != s->height ||
      ref->info.bpc != s->bpc || dist->info.width != s->width ||
      dist->info.height != s->height || dist->info.bpc != s->bpc) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "%s: frame %u does not match the stream's %ux%u %u-bit",
        fex->klass->name, index, s->width, s->height, s->bpc);
    return FALSE;
  }
  return TRUE;
}
