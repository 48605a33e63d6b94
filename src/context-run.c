/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* The run: frames submitted in order go to two thread pools (parallel
 * extractors on any worker, temporal ones in order on one lane); each frame
 * is scored and reported, in order, once both lanes are done with it and
 * the temporal look-ahead has passed it. */
#include "context-private.h"
#include "errors.h"
#include "picture-check.h"

static void
context_set_error (VhContext * ctx, GError * error)
{
  g_mutex_lock (&ctx->lock);
  if (!ctx->error)
    ctx->error = error;
  else
    g_error_free (error);
  g_mutex_unlock (&ctx->lock);
}

/* Scores, then reports, every frame that became final, in order. One thread
 * at a time does this so that callbacks keep frame order. */
static void
context_finalize_ready (VhContext * ctx)
{
  g_mutex_lock (&ctx->finalize_lock);
  for (;;) {
    guint index;
    gboolean scored;

    g_mutex_lock (&ctx->lock);
    index = ctx->n_final;
    /* After a failure no frame is final: the frames reported are those
     * scored in full before it. */
    if (ctx->error || index >= ctx->n_submitted ||
        index >= ctx->temporal_final ||
        !g_hash_table_contains (ctx->lanes_done, GUINT_TO_POINTER (index))) {
      g_mutex_unlock (&ctx->lock);
      break;
    }
    g_hash_table_remove (ctx->lanes_done, GUINT_TO_POINTER (index));
    g_mutex_unlock (&ctx->lock);

    scored = (index % ctx->config.subsample) == 0;
    /* Plain scores of every model first, then bootstrap members, so that
     * logs list them in libvmaf's order. */
    for (guint pass = 0; scored && pass < 2; pass++) {
      for (guint m = 0; m < ctx->models->len; m++) {
        VhModel *model = g_ptr_array_index (ctx->models, m);
        GError *err = NULL;
        if (!(pass == 0 ? vh_model_predict_main (model, ctx->fc, index, &err)
                : vh_model_predict_bootstrap (model, ctx->fc, index, &err)))
          context_set_error (ctx, err);
      }
    }
    if (ctx->ready_func)
      ctx->ready_func (ctx, index, scored, ctx->ready_data);

    g_mutex_lock (&ctx->lock);
    /* Its data goes once the callback is done with it. */
    g_hash_table_remove (ctx->frame_data, GUINT_TO_POINTER (index));
    ctx->n_final = index + 1;
    g_cond_broadcast (&ctx->cond);
    g_mutex_unlock (&ctx->lock);
  }
  g_mutex_unlock (&ctx->finalize_lock);
}

void
vh_frame_data_free (FrameData * fd)
{
  if (fd->notify)
    fd->notify (fd->data);
  g_free (fd);
}

static void
frame_task_release (VhContext * ctx, FrameTask * task)
{
  if (!g_atomic_int_dec_and_test (&task->pending))
    return;
  vh_picture_unref (task->ref);
  vh_picture_unref (task->dist);
  g_free (task);
  g_mutex_lock (&ctx->lock);
  ctx->n_running--;
  g_cond_broadcast (&ctx->cond);
  g_mutex_unlock (&ctx->lock);
}

static gboolean
context_failed (VhContext * ctx)
{
  gboolean failed;

  g_mutex_lock (&ctx->lock);
  failed = ctx->error != NULL;
  g_mutex_unlock (&ctx->lock);
  return failed;
}

/* An idle worker set; a new one while fewer than n_threads exist (so that
 * start-up makes one, and a GPU pipeline only as many as it keeps busy). */
static WorkerSet *
context_take_worker_set (VhContext * ctx, guint frame, GError ** error)
{
  WorkerSet *set = g_async_queue_try_pop (ctx->worker_sets);
  gboolean make = FALSE;

  if (set)
    return set;
  g_mutex_lock (&ctx->lock);
  if (ctx->all_worker_sets->len < ctx->config.n_threads) {
    /* Reserve the place; filled below, outside the lock. */
    g_ptr_array_add (ctx->all_worker_sets, NULL);
    make = TRUE;
  }
  g_mutex_unlock (&ctx->lock);
  if (!make)
    return g_async_queue_pop (ctx->worker_sets);
  set = vh_context_worker_set_new_or_cpu (ctx, frame, error);
  g_mutex_lock (&ctx->lock);
  g_ptr_array_remove_fast (ctx->all_worker_sets, NULL);
  if (set)
    g_ptr_array_add (ctx->all_worker_sets, set);
  g_mutex_unlock (&ctx->lock);
  return set;
}

static void
run_parallel_lane (gpointer data, gpointer user_data)
{
  FrameTask *task = data;
  VhContext *ctx = user_data;
  GError *set_error = NULL;
  WorkerSet *set = context_take_worker_set (ctx, task->index, &set_error);

  if (!set) {
    context_set_error (ctx, set_error);
    g_mutex_lock (&ctx->lock);
    g_hash_table_add (ctx->lanes_done, GUINT_TO_POINTER (task->index));
    g_mutex_unlock (&ctx->lock);
    context_finalize_ready (ctx);
    frame_task_release (ctx, task);
    return;
  }

  if (task->scored && !context_failed (ctx)) {
    GError *err = NULL;
    if (!vh_context_worker_set_extract (ctx, set, task, &err))
      context_set_error (ctx, err);
  }
  g_async_queue_push (ctx->worker_sets, set);

  g_mutex_lock (&ctx->lock);
  g_hash_table_add (ctx->lanes_done, GUINT_TO_POINTER (task->index));
  g_mutex_unlock (&ctx->lock);
  context_finalize_ready (ctx);
  frame_task_release (ctx, task);
}

static void
run_temporal_lane (gpointer data, gpointer user_data)
{
  FrameTask *task = data;
  VhContext *ctx = user_data;

  if (!context_failed (ctx)) {
    for (guint i = 0; i < ctx->temporal->len; i++) {
      ExtractorSlot *slot = g_ptr_array_index (ctx->temporal, i);
      GError *err = NULL;
      if (!vh_context_temporal_extract (ctx, slot, task, &err)) {
        context_set_error (ctx, err);
        break;
      }
    }
    vh_context_history_push (ctx, task);
  }
  g_mutex_lock (&ctx->lock);
  if (task->index + 1 > ctx->lookahead)
    ctx->temporal_final = MAX (ctx->temporal_final,
        task->index + 1 - ctx->lookahead);
  g_mutex_unlock (&ctx->lock);
  context_finalize_ready (ctx);
  frame_task_release (ctx, task);
}

gboolean
vh_context_start_pools (VhContext * ctx, GError ** error)
{
  WorkerSet *set;

  ctx->worker_sets = g_async_queue_new ();
  ctx->all_worker_sets = g_ptr_array_new_with_free_func ((GDestroyNotify)
      vh_worker_set_free);
  /* One worker set now, so that settings the extractors refuse fail here;
   * the others when the workers need them. */
  set = vh_context_worker_set_new_or_cpu (ctx, G_MAXUINT, error);
  if (!set) {
    vh_context_stop_pools (ctx);
    return FALSE;
  }
  g_ptr_array_add (ctx->all_worker_sets, set);
  g_async_queue_push (ctx->worker_sets, set);
  ctx->parallel_pool = g_thread_pool_new (run_parallel_lane, ctx,
      ctx->config.n_threads, FALSE, NULL);
  ctx->temporal_pool = g_thread_pool_new (run_temporal_lane, ctx, 1, FALSE,
      NULL);
  return TRUE;
}

void
vh_context_stop_pools (VhContext * ctx)
{
  if (ctx->parallel_pool)
    g_thread_pool_free (ctx->parallel_pool, FALSE, TRUE);
  if (ctx->temporal_pool)
    g_thread_pool_free (ctx->temporal_pool, FALSE, TRUE);
  ctx->parallel_pool = NULL;
  ctx->temporal_pool = NULL;
  g_clear_pointer (&ctx->worker_sets, g_async_queue_unref);
  g_clear_pointer (&ctx->all_worker_sets, g_ptr_array_unref);
}

void
vh_context_set_frame_ready_func (VhContext * ctx, VhFrameReadyFunc func,
    gpointer user_data, GDestroyNotify notify)
{
  if (ctx->ready_notify)
    ctx->ready_notify (ctx->ready_data);
  ctx->ready_func = func;
  ctx->ready_data = user_data;
  ctx->ready_notify = notify;
}

static gboolean
context_take_error (VhContext * ctx, GError ** error)
{
  if (!ctx->error)
    return TRUE;
  g_propagate_error (error, g_error_copy (ctx->error));
  return FALSE;
}

gboolean
vh_context_submit (VhContext * ctx, VhPicture * ref, VhPicture * dist,
    guint * index, GError ** error)
{
  return vh_context_submit_full (ctx, ref, dist, NULL, NULL, index, error);
}

/* Frees @frame_data as a failed submission must. */
static gboolean
submit_refused (gpointer frame_data, GDestroyNotify notify)
{
  if (notify)
    notify (frame_data);
  return FALSE;
}

gboolean
vh_context_submit_full (VhContext * ctx, VhPicture * ref, VhPicture * dist,
    gpointer frame_data, GDestroyNotify notify, guint * index,
    GError ** error)
{
  FrameTask *task;

  if (!ctx->started) {
    g_critical ("vh_context_submit: the context was not started");
    return submit_refused (frame_data, notify);
  }
  if (!vh_picture_info_equal (&ref->info, &ctx->info) ||
      !vh_picture_info_equal (&dist->info, &ctx->info)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "frame %u: picture geometry changed (expected %ux%u %s %u-bit, got "
        "reference %ux%u %s %u-bit, distorted %ux%u %s %u-bit)",
        ctx->n_submitted, ctx->info.width, ctx->info.height,
        vh_pix_fmt_to_string (ctx->info.pix_fmt), ctx->info.bpc,
        ref->info.width, ref->info.height,
        vh_pix_fmt_to_string (ref->info.pix_fmt), ref->info.bpc,
        dist->info.width, dist->info.height,
        vh_pix_fmt_to_string (dist->info.pix_fmt), dist->info.bpc);
    return submit_refused (frame_data, notify);
  }

  if (!vh_context_check_chroma (ctx, ref, "reference", error) ||
      !vh_context_check_chroma (ctx, dist, "distorted", error))
    return submit_refused (frame_data, notify);

  if (!vh_picture_check_depth (ref, "reference", error) ||
      !vh_picture_check_depth (dist, "distorted", error)) {
    g_prefix_error (error, "frame %u: ", ctx->n_submitted);
    return submit_refused (frame_data, notify);
  }

  g_mutex_lock (&ctx->lock);
  while (!ctx->error &&
      ctx->n_submitted - ctx->n_final >= ctx->config.max_in_flight)
    g_cond_wait (&ctx->cond, &ctx->lock);
  if (!context_take_error (ctx, error)) {
    g_mutex_unlock (&ctx->lock);
    return submit_refused (frame_data, notify);
  }
  task = g_new0 (FrameTask, 1);
  task->index = ctx->n_submitted++;
  task->ref = vh_picture_ref (ref);
  task->dist = vh_picture_ref (dist);
  task->scored = (task->index % ctx->config.subsample) == 0;
  task->pending = 2;
  /* Before the workers see the frame: it may be reported at once. */
  if (frame_data || notify) {
    FrameData *fd = g_new (FrameData, 1);

    fd->data = frame_data;
    fd->notify = notify;
    g_hash_table_insert (ctx->frame_data, GUINT_TO_POINTER (task->index), fd);
  }
  ctx->n_running++;
  g_mutex_unlock (&ctx->lock);

  if (index)
    *index = task->index;
  g_thread_pool_push (ctx->temporal_pool, task, NULL);
  g_thread_pool_push (ctx->parallel_pool, task, NULL);
  return TRUE;
}

gboolean
vh_context_finish (VhContext * ctx, GError ** error)
{
  gboolean ok = TRUE;

  g_return_val_if_fail (ctx->started, FALSE);
  g_mutex_lock (&ctx->lock);
  while (ctx->n_running > 0)
    g_cond_wait (&ctx->cond, &ctx->lock);
  g_mutex_unlock (&ctx->lock);

  /* Both lanes are idle: temporal extractors may emit what they held. */
  for (guint i = 0; !context_failed (ctx) && i < ctx->temporal->len; i++) {
    ExtractorSlot *slot = g_ptr_array_index (ctx->temporal, i);
    GError *err = NULL;

    if (!vh_context_temporal_flush (ctx, slot, ctx->n_submitted, &err))
      context_set_error (ctx, err);
  }
  g_mutex_lock (&ctx->lock);
  ctx->temporal_final = G_MAXUINT;
  g_mutex_unlock (&ctx->lock);
  context_finalize_ready (ctx);

  g_mutex_lock (&ctx->lock);
  ok = context_take_error (ctx, error);
  ctx->temporal_final = ctx->temporal->len ? ctx->n_submitted : G_MAXUINT;
  g_mutex_unlock (&ctx->lock);

  /* Later frames start a new temporal sequence. */
  if (ok && !vh_context_init_temporal_or_cpu (ctx, error))
    ok = FALSE;
  return ok;
}

gpointer
vh_context_get_frame_data (VhContext * ctx, guint index)
{
  FrameData *fd;

  g_mutex_lock (&ctx->lock);
  fd = g_hash_table_lookup (ctx->frame_data, GUINT_TO_POINTER (index));
  g_mutex_unlock (&ctx->lock);
  return fd ? fd->data : NULL;
}

guint
vh_context_n_frames (VhContext * ctx)
{
  guint n;

  g_mutex_lock (&ctx->lock);
  n = ctx->n_submitted;
  g_mutex_unlock (&ctx->lock);
  return n;
}

guint
vh_context_default_in_flight (guint n_threads)
{
  return 2 * n_threads + 2;
}
