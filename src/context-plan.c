/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* The extractor plan: which extractors a context runs (one per libvmaf
 * name), on which backend, on which lane, with which CPU twin for a GPU
 * fall-back; and what the plan tells callers (output names, memory,
 * chroma, dispatch). */
#include "context-private.h"
#include "errors.h"

#include <string.h>

void
vh_extractor_slot_free (ExtractorSlot * slot)
{
  vh_feature_extractor_free (slot->temporal);
  vh_feature_extractor_free (slot->proto);
  vh_feature_extractor_free (slot->cpu_proto);
  g_free (slot);
}

/* libvmaf keeps one extractor per name: its name plus the options that
 * rename its outputs. A later request with the same name is dropped, even
 * when options that do not rename (psnr's enable_chroma) differ. */
static gboolean
same_name (const VhFeatureExtractor * a, const VhFeatureExtractor * b)
{
  return !strcmp (a->klass->name, b->klass->name) &&
      !strcmp (a->suffix, b->suffix);
}

static VhFeatureExtractor *
new_with_options (const VhFeatureExtractorClass * klass,
    const gchar * const *options, GError ** error)
{
  VhFeatureExtractor *fex = vh_feature_extractor_new (klass);

  for (guint i = 0; options && options[i] && options[i + 1]; i += 2) {
    if (!vh_feature_extractor_set_option (fex, options[i], options[i + 1],
            error)) {
      vh_feature_extractor_free (fex);
      return NULL;
    }
  }
  return fex;
}

gboolean
vh_context_add_feature (VhContext * ctx, const gchar * name,
    const gchar * const *options, GError ** error)
{
  const VhFeatureExtractorClass *klass;
  VhFeatureExtractor *fex;
  GPtrArray *lane;
  ExtractorSlot *slot;
  const gchar *refused;
  VhExtractorSet *set = ctx->config.extractors;

  g_return_val_if_fail (!ctx->started, FALSE);
  if (!name || !name[0]) {
    g_set_error (error, VH_ERROR, VH_ERROR_UNKNOWN_FEATURE,
        "empty feature name");
    return FALSE;
  }
  klass = vh_extractor_set_find (set, name, ctx->config.backends);
  if (!klass && (ctx->config.backends & VH_BACKEND_HIP))
    klass = vh_extractor_set_find (set, name, VH_BACKEND_CPU);
  if (!klass) {
    gchar *known = vh_extractor_set_list_names (set);
    g_set_error (error, VH_ERROR, VH_ERROR_UNKNOWN_FEATURE,
        "unknown feature '%s' (known features: %s)", name, known);
    g_free (known);
    return FALSE;
  }
  fex = new_with_options (klass, options, error);
  if (!fex)
    return FALSE;
  /* A twin that cannot do these options: its CPU twin runs instead. */
  refused = klass->unsupported ? klass->unsupported (fex) : NULL;
  if (refused) {
    vh_feature_extractor_free (fex);
    klass = vh_extractor_set_find (set, name, VH_BACKEND_CPU);
    fex = klass ? new_with_options (klass, options, error) : NULL;
    if (!fex)
      return FALSE;
  }
  lane = vh_feature_extractor_is_temporal (fex) ? ctx->temporal :
      ctx->parallel;
  for (guint l = 0; l < 2; l++) {
    GPtrArray *other_lane = l ? ctx->temporal : ctx->parallel;
    for (guint i = 0; i < other_lane->len; i++) {
      ExtractorSlot *other = g_ptr_array_index (other_lane, i);
      if (same_name (other->proto, fex)) {
        vh_feature_extractor_free (fex);
        return TRUE;
      }
    }
  }
  /* Registration order, as libvmaf's log lists extractors. */
  fex->log_slot = ctx->parallel->len + ctx->temporal->len;
  fex->log_pooled = ctx->config.log_pooled_order;
  fex->cpu_mask = ctx->config.cpu_mask;
  slot = g_new0 (ExtractorSlot, 1);
  slot->proto = fex;
  slot->refused = refused;
  if (ctx->config.gpu_fallback && (klass->backend & VH_BACKEND_HIP)) {
    const VhFeatureExtractorClass *cpu_klass =
        vh_extractor_set_find (set, name, VH_BACKEND_CPU);
    if (cpu_klass)
      slot->cpu_proto = vh_feature_extractor_clone_as (fex, cpu_klass);
  }
  g_ptr_array_add (lane, slot);
  return TRUE;
}

gboolean
vh_context_add_model (VhContext * ctx, VhModel * model, GError ** error)
{
  guint n = vh_model_n_features (model);

  for (guint i = 0; i < n; i++) {
    if (!vh_context_add_feature (ctx, vh_model_feature_extractor (model, i),
            vh_model_feature_options (model, i), error)) {
      vh_model_free (model);
      return FALSE;
    }
  }
  g_ptr_array_add (ctx->models, model);
  return TRUE;
}

static void
add_slot_names (GPtrArray * names, GPtrArray * slots)
{
  for (guint i = 0; i < slots->len; i++) {
    ExtractorSlot *slot = g_ptr_array_index (slots, i);
    const gchar *const *provides = slot->proto->klass->provides;
    for (guint j = 0; provides && provides[j]; j++)
      g_ptr_array_add (names, vh_feature_extractor_output_name (slot->proto,
              provides[j]));
  }
}

/* Features in extractor order, then every model's score, then bootstrap
 * members (libvmaf's order for scores), whatever thread appends first. */
void
vh_context_declare_outputs (VhContext * ctx)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  add_slot_names (names, ctx->parallel);
  add_slot_names (names, ctx->temporal);
  for (guint i = 0; i < names->len; i++)
    vh_feature_collector_declare (ctx->fc, g_ptr_array_index (names, i));
  g_ptr_array_unref (names);
  for (guint pass = 0; pass < 2; pass++) {
    for (guint m = 0; m < ctx->models->len; m++) {
      const gchar *const *out =
          vh_model_output_names (g_ptr_array_index (ctx->models, m));
      for (guint j = pass; out && out[j] && (pass || j == 0); j++)
        vh_feature_collector_declare (ctx->fc, out[j]);
    }
  }
}

/* Who writes an output name, for messages: the feature with its options,
 * or the model. */
static gchar *
describe_slot (const ExtractorSlot * slot)
{
  g_autofree gchar *opts = vh_option_values_describe (&slot->proto->options);

  return g_strdup_printf ("feature '%s%s%s'", slot->proto->klass->name,
      opts[0] ? "=" : "", opts);
}

static gboolean
claim_name (GHashTable * owners, const gchar * name, gchar * owner,
    GError ** error)
{
  const gchar *other = g_hash_table_lookup (owners, name);

  if (other) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "both %s and %s write the output '%s': change one of them (a model "
        "'name=', or the options)", other, owner, name);
    g_free (owner);
    return FALSE;
  }
  g_hash_table_insert (owners, g_strdup (name), owner);
  return TRUE;
}

static gboolean
claim_slot_names (GHashTable * owners, GPtrArray * slots, GError ** error)
{
  for (guint i = 0; i < slots->len; i++) {
    ExtractorSlot *slot = g_ptr_array_index (slots, i);
    const gchar *const *provides = slot->proto->klass->provides;
    for (guint j = 0; provides && provides[j]; j++) {
      g_autofree gchar *name = vh_feature_extractor_output_name (slot->proto,
          provides[j]);
      if (!claim_name (owners, name, describe_slot (slot), error))
        return FALSE;
    }
  }
  return TRUE;
}

gboolean
vh_context_check_outputs (VhContext * ctx, GError ** error)
{
  GHashTable *owners = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      g_free);
  gboolean ok = claim_slot_names (owners, ctx->parallel, error) &&
      claim_slot_names (owners, ctx->temporal, error);

  for (guint m = 0; ok && m < ctx->models->len; m++) {
    VhModel *model = g_ptr_array_index (ctx->models, m);
    const gchar *const *out = vh_model_output_names (model);
    for (guint j = 0; ok && out && out[j]; j++)
      ok = claim_name (owners, out[j], g_strdup_printf ("model '%s' (model "
              "%u)", vh_model_get_name (model), m + 1), error);
  }
  g_hash_table_unref (owners);
  return ok;
}

guint
vh_context_plan_lookahead (VhContext * ctx)
{
  guint lookahead = 0;

  for (guint i = 0; i < ctx->temporal->len; i++) {
    ExtractorSlot *slot = g_ptr_array_index (ctx->temporal, i);
    lookahead = MAX (lookahead, slot->proto->klass->lookahead);
  }
  return lookahead;
}

/* Whether every extractor of @slots that reads device memory reads the
 * luma only. */
static gboolean
slots_device_luma_only (GPtrArray * slots)
{
  for (guint i = 0; i < slots->len; i++) {
    ExtractorSlot *slot = g_ptr_array_index (slots, i);
    const VhFeatureExtractorClass *klass = slot->proto->klass;

    if (klass->mem_type == VH_MEMORY_HIP_DEVICE &&
        !(klass->flags & VH_EXTRACTOR_FLAG_LUMA_ONLY))
      return FALSE;
  }
  return TRUE;
}

guint
vh_context_plan_device_planes (VhContext * ctx)
{
  return slots_device_luma_only (ctx->parallel) &&
      slots_device_luma_only (ctx->temporal) ? 1 : 3;
}

gboolean
vh_context_plan_parallel_all_hip (VhContext * ctx)
{
  for (guint i = 0; i < ctx->parallel->len; i++) {
    ExtractorSlot *slot = g_ptr_array_index (ctx->parallel, i);
    if (!(slot->proto->klass->backend & VH_BACKEND_HIP))
      return FALSE;
  }
  return ctx->parallel->len > 0;
}

GPtrArray *
vh_context_output_names (VhContext * ctx)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  add_slot_names (names, ctx->parallel);
  add_slot_names (names, ctx->temporal);
  for (guint m = 0; m < ctx->models->len; m++) {
    const gchar *const *out =
        vh_model_output_names (g_ptr_array_index (ctx->models, m));
    for (guint j = 0; out && out[j]; j++)
      g_ptr_array_add (names, g_strdup (out[j]));
  }
  return names;
}

static void
describe_slots (GString * s, GPtrArray * slots, gboolean on_cpu)
{
  for (guint i = 0; i < slots->len; i++) {
    ExtractorSlot *slot = g_ptr_array_index (slots, i);
    const VhFeatureExtractorClass *k = slot->proto->klass;
    g_string_append_printf (s, "%s%s: %s", s->len ? ", " : "", k->name,
        (k->backend & VH_BACKEND_HIP) ? "hip" : "cpu");
    if ((k->backend & VH_BACKEND_HIP) && on_cpu)
      g_string_append (s, ", then cpu (the GPU failed)");
    if (slot->refused)
      g_string_append_printf (s, " (%s)", slot->refused);
  }
}

gchar *
vh_context_describe_dispatch (VhContext * ctx)
{
  GString *s = g_string_new (NULL);

  describe_slots (s, ctx->parallel, g_atomic_int_get (&ctx->on_cpu));
  describe_slots (s, ctx->temporal, g_atomic_int_get (&ctx->on_cpu));
  return g_string_free (s, FALSE);
}

static gboolean
slots_use_memory (GPtrArray * slots, VhMemoryType mem_type)
{
  for (guint i = 0; i < slots->len; i++) {
    ExtractorSlot *slot = g_ptr_array_index (slots, i);
    if (slot->proto->klass->mem_type == mem_type)
      return TRUE;
  }
  return FALSE;
}

gboolean
vh_context_uses_memory (VhContext * ctx, VhMemoryType mem_type)
{
  return slots_use_memory (ctx->parallel, mem_type) ||
      slots_use_memory (ctx->temporal, mem_type);
}

static gboolean
extractor_reads_chroma (const VhFeatureExtractor * fex)
{
  return fex && !(fex->klass->flags & VH_EXTRACTOR_FLAG_LUMA_ONLY);
}

/* The first extractor of @slots that may read chroma, on either side of a
 * GPU fall-back, or NULL. */
static const VhFeatureExtractor *
slots_chroma_reader (GPtrArray * slots)
{
  for (guint i = 0; i < slots->len; i++) {
    ExtractorSlot *slot = g_ptr_array_index (slots, i);
    if (extractor_reads_chroma (slot->proto))
      return slot->proto;
    if (extractor_reads_chroma (slot->cpu_proto))
      return slot->cpu_proto;
  }
  return NULL;
}

static const VhFeatureExtractor *
context_chroma_reader (VhContext * ctx)
{
  const VhFeatureExtractor *fex = slots_chroma_reader (ctx->parallel);

  return fex ? fex : slots_chroma_reader (ctx->temporal);
}

gboolean
vh_context_reads_chroma (VhContext * ctx)
{
  return context_chroma_reader (ctx) != NULL;
}

gboolean
vh_context_check_chroma (VhContext * ctx, const VhPicture * pic,
    const gchar * what, GError ** error)
{
  const VhFeatureExtractor *reader;

  if (!vh_picture_is_luma_only (pic) || !(reader = context_chroma_reader
          (ctx)))
    return TRUE;
  g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT, "frame %u: the "
      "%s picture carries no chroma, and feature '%s' may read it",
      ctx->n_submitted, what, reader->klass->name);
  return FALSE;
}

static void
add_slot_classes (GPtrArray * classes, GPtrArray * slots, VhBackend backend)
{
  for (guint i = 0; i < slots->len; i++) {
    ExtractorSlot *slot = g_ptr_array_index (slots, i);
    const VhFeatureExtractorClass *klass = slot->proto->klass;
    if ((klass->backend & backend) && !g_ptr_array_find (classes, klass, NULL))
      g_ptr_array_add (classes, (gpointer) klass);
  }
}

GPtrArray *
vh_context_get_classes (VhContext * ctx, VhBackend backend)
{
  GPtrArray *classes = g_ptr_array_new ();

  add_slot_classes (classes, ctx->parallel, backend);
  add_slot_classes (classes, ctx->temporal, backend);
  return classes;
}
