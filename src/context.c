/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* The context's life cycle: made, started (the plan, the fall-back and the
 * run put together), freed; what it was configured with. */
#include "context-private.h"

VhContext *
vh_context_new (const VhContextConfig * config)
{
  VhContext *ctx = g_new0 (VhContext, 1);

  if (config)
    ctx->config = *config;
  ctx->config.n_threads = MAX (ctx->config.n_threads, 1);
  ctx->config.subsample = MAX (ctx->config.subsample, 1);
  if (!ctx->config.backends)
    ctx->config.backends = VH_BACKEND_CPU;
  if (ctx->config.transfer)
    vh_picture_transfer_ref (ctx->config.transfer);
  ctx->config.extractors = vh_extractor_set_ref (ctx->config.extractors ?
      ctx->config.extractors : vh_extractor_set_get_builtin ());
  ctx->parallel = g_ptr_array_new_with_free_func ((GDestroyNotify)
      vh_extractor_slot_free);
  ctx->temporal = g_ptr_array_new_with_free_func ((GDestroyNotify)
      vh_extractor_slot_free);
  ctx->models = g_ptr_array_new_with_free_func ((GDestroyNotify)
      vh_model_free);
  ctx->fc = vh_feature_collector_new ();
  ctx->lanes_done = g_hash_table_new (NULL, NULL);
  ctx->frame_data = g_hash_table_new_full (NULL, NULL, NULL,
      (GDestroyNotify) vh_frame_data_free);
  g_mutex_init (&ctx->lock);
  g_mutex_init (&ctx->finalize_lock);
  g_cond_init (&ctx->cond);
  return ctx;
}

void
vh_context_free (VhContext * ctx)
{
  if (!ctx)
    return;
  vh_context_stop_pools (ctx);
  if (ctx->ready_notify)
    ctx->ready_notify (ctx->ready_data);
  g_ptr_array_unref (ctx->parallel);
  g_ptr_array_unref (ctx->temporal);
  g_ptr_array_unref (ctx->models);
  vh_feature_collector_free (ctx->fc);
  g_hash_table_unref (ctx->lanes_done);
  /* Frames never reported (a worker failed): their data goes here. */
  g_hash_table_unref (ctx->frame_data);
  g_clear_error (&ctx->error);
  vh_context_history_clear (ctx);
  /* After the extractors: their GPU state lives on its device. */
  vh_picture_transfer_unref (ctx->config.transfer);
  vh_extractor_set_unref (ctx->config.extractors);
  g_mutex_clear (&ctx->lock);
  g_mutex_clear (&ctx->finalize_lock);
  g_cond_clear (&ctx->cond);
  g_free (ctx);
}

gboolean
vh_context_start (VhContext * ctx, const VhPictureInfo * info,
    GError ** error)
{
  g_return_val_if_fail (!ctx->started, FALSE);
  g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "context start %ux%u",
      info->width, info->height);
  /* Two writers of one name would fail on the first frame: say so now. */
  if (!vh_context_check_outputs (ctx, error))
    return FALSE;
  ctx->info = *info;
  ctx->lookahead = vh_context_plan_lookahead (ctx);
  if (!vh_context_init_temporal_or_cpu (ctx, error))
    return FALSE;
  ctx->history_len = vh_context_fallback_history_len (ctx);
  ctx->device_planes = vh_context_plan_device_planes (ctx);
  /* Without a fall-back no CPU twin takes over a frame (nor keeps it in
   * the history). */
  ctx->release_host_after_upload = !ctx->config.gpu_fallback &&
      !vh_context_uses_memory (ctx, VH_MEMORY_HOST);

  if (ctx->config.max_gpu_threads && vh_context_plan_parallel_all_hip (ctx))
    ctx->config.n_threads = MIN (ctx->config.n_threads,
        ctx->config.max_gpu_threads);
  if (!vh_context_start_pools (ctx, error))
    return FALSE;
  if (!ctx->config.max_in_flight)
    ctx->config.max_in_flight =
        vh_context_default_in_flight (ctx->config.n_threads);
  ctx->config.max_in_flight = MAX (ctx->config.max_in_flight,
      ctx->lookahead + 2);
  ctx->temporal_final = ctx->temporal->len ? 0 : G_MAXUINT;
  vh_context_declare_outputs (ctx);
  ctx->started = TRUE;
  g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "context started");
  return TRUE;
}

VhFeatureCollector *
vh_context_get_collector (VhContext * ctx)
{
  return ctx->fc;
}

guint
vh_context_n_models (VhContext * ctx)
{
  return ctx->models->len;
}

VhModel *
vh_context_get_model (VhContext * ctx, guint i)
{
  return i < ctx->models->len ? g_ptr_array_index (ctx->models, i) : NULL;
}

guint
vh_context_get_subsample (VhContext * ctx)
{
  return ctx->config.subsample;
}
