/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* The GPU-to-CPU fall-back (config.gpu_fallback): when the GPU fails, at
 * start or mid-stream, every HIP extractor goes over to its CPU twin; the
 * frames the GPU had in hand are scored again there (the temporal lane
 * keeps a short history for this). */
#include "context-private.h"
#include "errors.h"

static void
history_frame_free (HistoryFrame * h)
{
  vh_picture_unref (h->ref);
  vh_picture_unref (h->dist);
  g_free (h);
}

void
vh_context_history_clear (VhContext * ctx)
{
  g_queue_clear_full (&ctx->history, (GDestroyNotify) history_frame_free);
}

void
vh_context_history_push (VhContext * ctx, FrameTask * task)
{
  HistoryFrame *h;

  if (!ctx->history_len)
    return;
  h = g_new (HistoryFrame, 1);
  h->index = task->index;
  h->ref = vh_picture_ref (task->ref);
  h->dist = vh_picture_ref (task->dist);
  g_queue_push_tail (&ctx->history, h);
  while (ctx->history.length > ctx->history_len)
    history_frame_free (g_queue_pop_head (&ctx->history));
}

/* A GPU temporal twin that fails mid-stream is replaced by its CPU twin
 * fed again from far enough back: its frames in flight, then its CPU
 * twin's history (or, without one, a few frames, enough near the start of
 * a sequence). */
guint
vh_context_fallback_history_len (VhContext * ctx)
{
  guint len = 0;

  for (guint i = 0; ctx->config.gpu_fallback && i < ctx->temporal->len; i++) {
    ExtractorSlot *slot = g_ptr_array_index (ctx->temporal, i);
    if (slot->cpu_proto)
      len = MAX (len, slot->proto->klass->lookahead
          + MAX (slot->cpu_proto->klass->history, 1) + 1);
  }
  return len;
}

/* Whether a failure of @fex is the GPU's, for the CPU to take over. */
static gboolean
can_fall_back (VhContext * ctx, const VhFeatureExtractor * fex)
{
  return ctx->config.gpu_fallback && vh_extractor_on_gpu (fex);
}

/* The GPU failed (@cause): every HIP extractor goes over to its CPU twin,
 * each the next time it is used; said once. @frame: the frame it failed
 * on, G_MAXUINT when starting. */
static void
context_fall_back (VhContext * ctx, guint frame, const GError * cause)
{
  gchar *message, *where;

  if (!g_atomic_int_compare_and_exchange (&ctx->on_cpu, 0, 1))
    return;
  /* A worker's extractors set up mid-stream fail without a frame in their
   * error: name it, so that the frames scored before are known. */
  where = frame == G_MAXUINT || g_str_has_prefix (cause->message, "frame ") ?
      g_strdup (cause->message) :
      g_strdup_printf ("frame %u, %s", frame, cause->message);
  if (frame == G_MAXUINT)
    message = g_strdup_printf ("the GPU failed (%s): every feature runs on "
        "the CPU", where);
  else
    message = g_strdup_printf ("the GPU failed (%s): features go on on "
        "the CPU, and the frames the GPU had in hand are scored again there",
        where);
  if (ctx->fallback_func)
    ctx->fallback_func (ctx, message, ctx->fallback_data);
  g_free (message);
  g_free (where);
}

void
vh_context_set_fallback_func (VhContext * ctx, VhFallbackFunc func,
    gpointer user_data)
{
  ctx->fallback_func = func;
  ctx->fallback_data = user_data;
}

gboolean
vh_context_on_cpu (VhContext * ctx)
{
  return g_atomic_int_get (&ctx->on_cpu);
}

guint
vh_context_n_frames_held (VhContext * ctx)
{
  return ctx->config.max_in_flight + ctx->history_len;
}

WorkerSet *
vh_context_worker_set_new_or_cpu (VhContext * ctx, guint frame,
    GError ** error)
{
  GError *err = NULL;
  gboolean gpu_failed;
  WorkerSet *set = vh_context_worker_set_new (ctx, &gpu_failed, &err);

  if (!set && gpu_failed && ctx->config.gpu_fallback) {
    context_fall_back (ctx, frame, err);
    g_clear_error (&err);
    set = vh_context_worker_set_new (ctx, &gpu_failed, &err);
  }
  if (err)
    g_propagate_error (error, err);
  return set;
}

/* Turns @set's HIP extractors into their CPU twins once the GPU failed,
 * freeing their GPU state. */
static gboolean
worker_set_to_cpu (VhContext * ctx, WorkerSet * set, GError ** error)
{
  for (guint i = 0; i < set->fexs->len; i++) {
    ExtractorSlot *slot = g_ptr_array_index (ctx->parallel, i);
    VhFeatureExtractor *gpu = g_ptr_array_index (set->fexs, i);
    VhFeatureExtractor *cpu;

    if (!vh_extractor_on_gpu (gpu))
      continue;
    if (!slot->cpu_proto) {
      g_set_error (error, VH_ERROR, VH_ERROR_BACKEND, "feature '%s' has no "
          "CPU twin to go on with after the GPU failed", gpu->klass->name);
      return FALSE;
    }
    cpu = vh_feature_extractor_clone (slot->cpu_proto);
    if (!vh_feature_extractor_init (cpu, &ctx->info, error)) {
      vh_feature_extractor_free (cpu);
      return FALSE;
    }
    g_ptr_array_index (set->fexs, i) = cpu;
    vh_feature_extractor_free (gpu);
  }
  set->on_cpu = TRUE;
  return TRUE;
}

/* Replaces @slot's GPU twin by its CPU twin, after the GPU failed, before
 * frame @frame. Frames below temporal_final have all their values; the CPU
 * twin is fed again the frames kept (ctx->history), from far enough back
 * for its values to be exact (its class's history) or from the start of
 * the sequence, writing only the values still missing: frames the GPU
 * twin had in flight, and those waiting for later frames. */
static gboolean
temporal_slot_to_cpu (VhContext * ctx, ExtractorSlot * slot, guint frame,
    GError ** error)
{
  HistoryFrame *oldest = g_queue_peek_head (&ctx->history);
  guint first = oldest ? oldest->index : frame;
  guint from, history;
  VhFeatureExtractor *cpu;

  if (!slot->cpu_proto) {
    g_set_error (error, VH_ERROR, VH_ERROR_BACKEND, "feature '%s' has no "
        "CPU twin to go on with after the GPU failed",
        slot->proto->klass->name);
    return FALSE;
  }
  history = slot->cpu_proto->klass->history;
  g_mutex_lock (&ctx->lock);
  from = MAX (MIN (ctx->temporal_final, frame), ctx->seq_start);
  g_mutex_unlock (&ctx->lock);
  if (first > ctx->seq_start && (history == 0 || first + history > from)) {
    g_set_error (error, VH_ERROR, VH_ERROR_BACKEND, "feature '%s' cannot go "
        "on on the CPU from frame %u: its values depend on frames no longer "
        "held (frames from %u on are)", slot->proto->klass->name, from,
        first);
    return FALSE;
  }
  cpu = vh_feature_extractor_clone (slot->cpu_proto);
  if (!vh_feature_extractor_init (cpu, &ctx->info, error)) {
    vh_feature_extractor_free (cpu);
    return FALSE;
  }
  /* Frees the GPU twin and its device memory; its frames in flight are
   * scored again below. */
  vh_feature_extractor_free (slot->temporal);
  slot->temporal = cpu;
  cpu->replaying = TRUE;
  cpu->replay_from = from;
  for (GList * l = ctx->history.head; l; l = l->next) {
    HistoryFrame *h = l->data;
    FrameTask again = { h->index, h->ref, h->dist, TRUE, 0 };
    if (!vh_context_extract (ctx, cpu, &again, error))
      return FALSE;
  }
  return TRUE;
}

gboolean
vh_context_worker_set_extract (VhContext * ctx, WorkerSet * set,
    FrameTask * task, GError ** error)
{
  GError *err = NULL;

  if (g_atomic_int_get (&ctx->on_cpu) && !set->on_cpu &&
      !worker_set_to_cpu (ctx, set, error))
    return FALSE;
  for (guint i = 0; i < set->fexs->len; i++) {
    VhFeatureExtractor *fex = g_ptr_array_index (set->fexs, i);
    if (vh_context_extract (ctx, fex, task, &err))
      continue;
    /* The GPU failed: this frame's feature, and those after it, again
     * on the CPU (the ones before wrote their values). */
    if (can_fall_back (ctx, fex)) {
      context_fall_back (ctx, task->index, err);
      g_clear_error (&err);
      if (worker_set_to_cpu (ctx, set, &err) &&
          vh_context_extract (ctx, g_ptr_array_index (set->fexs, i), task,
              &err))
        continue;
    }
    g_propagate_error (error, err);
    return FALSE;
  }
  return TRUE;
}

gboolean
vh_context_temporal_extract (VhContext * ctx, ExtractorSlot * slot,
    FrameTask * task, GError ** error)
{
  GError *err = NULL;
  gboolean ok;

  if (g_atomic_int_get (&ctx->on_cpu) && vh_extractor_on_gpu (slot->temporal)
      && !temporal_slot_to_cpu (ctx, slot, task->index, error))
    return FALSE;
  ok = vh_context_extract (ctx, slot->temporal, task, &err);
  if (!ok && can_fall_back (ctx, slot->temporal)) {
    context_fall_back (ctx, task->index, err);
    g_clear_error (&err);
    ok = temporal_slot_to_cpu (ctx, slot, task->index, &err) &&
        vh_context_extract (ctx, slot->temporal, task, &err);
  }
  slot->temporal->replaying = FALSE;
  if (err)
    g_propagate_error (error, err);
  return ok;
}

gboolean
vh_context_temporal_flush (VhContext * ctx, ExtractorSlot * slot, guint end,
    GError ** error)
{
  GError *err = NULL;
  gboolean ok;

  if (g_atomic_int_get (&ctx->on_cpu) && vh_extractor_on_gpu (slot->temporal)
      && !temporal_slot_to_cpu (ctx, slot, end, error))
    return FALSE;
  ok = vh_feature_extractor_flush (slot->temporal, ctx->fc, &err);
  if (!ok && can_fall_back (ctx, slot->temporal)) {
    context_fall_back (ctx, end, err);
    g_clear_error (&err);
    ok = temporal_slot_to_cpu (ctx, slot, end, &err) &&
        vh_feature_extractor_flush (slot->temporal, ctx->fc, &err);
  }
  slot->temporal->replaying = FALSE;
  if (err)
    g_propagate_error (error, err);
  return ok;
}

/* A new temporal sequence; when the GPU fails to start a twin, with
 * gpu_fallback, all on the CPU. */
gboolean
vh_context_init_temporal_or_cpu (VhContext * ctx, GError ** error)
{
  GError *err = NULL;
  gboolean gpu_failed;

  vh_context_history_clear (ctx);
  ctx->seq_start = ctx->n_submitted;
  if (vh_context_init_temporal (ctx, &gpu_failed, &err))
    return TRUE;
  if (gpu_failed && ctx->config.gpu_fallback) {
    context_fall_back (ctx, G_MAXUINT, err);
    g_clear_error (&err);
    if (vh_context_init_temporal (ctx, &gpu_failed, &err))
      return TRUE;
  }
  g_propagate_error (error, err);
  return FALSE;
}
