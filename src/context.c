/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "context.h"
#include "errors.h"
#include "picture-check.h"
#include "picture-transfer.h"

#include <string.h>

static void add_slot_names (GPtrArray * names, GPtrArray * slots);

/* One requested extractor: a prototype holding the options; workers clone
 * it. Temporal extractors have a single live instance. */
typedef struct
{
  VhFeatureExtractor *proto;
  VhFeatureExtractor *temporal;  /* live instance when temporal */
  const gchar *refused;         /* why the HIP twin did not take it, or NULL */
  /* With gpu_fallback, for a HIP class: its CPU twin, same options. */
  VhFeatureExtractor *cpu_proto;
} ExtractorSlot;

/* The parallel extractors one worker uses, borrowed from a queue. */
typedef struct
{
  GPtrArray *fexs;              /* VhFeatureExtractor*, parallel to ctx->parallel */
  gboolean on_cpu;              /* made or turned after the GPU failed */
} WorkerSet;

/* A frame the temporal lane went through, kept for a CPU twin to take
 * over from a GPU twin that fails (see temporal_slot_to_cpu()). */
typedef struct
{
  guint index;
  VhPicture *ref;
  VhPicture *dist;
} HistoryFrame;

typedef struct
{
  guint index;
  VhPicture *ref;
  VhPicture *dist;
  gboolean scored;              /* not skipped by subsampling */
  gint pending;                 /* lanes still to run: parallel, temporal */
} FrameTask;

struct _VhContext
{
  VhContextConfig config;
  GPtrArray *parallel;          /* ExtractorSlot* */
  GPtrArray *temporal;          /* ExtractorSlot* */
  GPtrArray *models;            /* VhModel* */
  VhFeatureCollector *fc;
  VhPictureInfo info;
  gboolean started;
  guint lookahead;

  GThreadPool *parallel_pool;
  GThreadPool *temporal_pool;
  GAsyncQueue *worker_sets;     /* WorkerSet* */
  GPtrArray *all_worker_sets;   /* made on demand, up to n_threads */

  VhFrameReadyFunc ready_func;
  gpointer ready_data;
  GDestroyNotify ready_notify;

  GMutex lock;
  GCond cond;
  guint n_submitted;
  guint n_final;                /* frames 0 .. n_final-1 are final */
  guint temporal_final;         /* frames below this are temporally final */
  GHashTable *lanes_done;       /* index -> TRUE once its parallel lane ran */
  guint n_running;              /* tasks queued or running */
  GError *error;                /* first worker failure */
  GMutex finalize_lock;

  /* GPU fall-back (config.gpu_fallback) */
  VhFallbackFunc fallback_func;
  gpointer fallback_data;
  gint on_cpu;                  /* atomic: the GPU failed, CPU from now on */
  GQueue history;               /* HistoryFrame*, temporal lane only */
  guint history_len;            /* how many it keeps; 0: none */
  guint seq_start;              /* first frame of the temporal sequence */
  /* Planes a frame takes to the device: 1 when every extractor there
   * reads the luma only, else all. */
  guint device_planes;
  /* Nothing reads a frame's host samples once it is on the device: its
   * host memory goes back to its owner then, not when the frame is final
   * (a source's buffers are not held while the GPU works). */
  gboolean release_host_after_upload;
};

static void
slot_free (ExtractorSlot * slot)
{
  vh_feature_extractor_free (slot->temporal);
  vh_feature_extractor_free (slot->proto);
  vh_feature_extractor_free (slot->cpu_proto);
  g_free (slot);
}

static void
history_frame_free (HistoryFrame * h)
{
  vh_picture_unref (h->ref);
  vh_picture_unref (h->dist);
  g_free (h);
}

static void
history_clear (VhContext * ctx)
{
  g_queue_clear_full (&ctx->history, (GDestroyNotify) history_frame_free);
}

static void
worker_set_free (WorkerSet * set)
{
  if (!set)
    return;
  g_ptr_array_unref (set->fexs);
  g_free (set);
}

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
  ctx->parallel = g_ptr_array_new_with_free_func ((GDestroyNotify) slot_free);
  ctx->temporal = g_ptr_array_new_with_free_func ((GDestroyNotify) slot_free);
  ctx->models = g_ptr_array_new_with_free_func ((GDestroyNotify)
      vh_model_free);
  ctx->fc = vh_feature_collector_new ();
  ctx->lanes_done = g_hash_table_new (NULL, NULL);
  g_mutex_init (&ctx->lock);
  g_mutex_init (&ctx->finalize_lock);
  g_cond_init (&ctx->cond);
  return ctx;
}

static void
context_stop_pools (VhContext * ctx)
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
vh_context_free (VhContext * ctx)
{
  if (!ctx)
    return;
  context_stop_pools (ctx);
  if (ctx->ready_notify)
    ctx->ready_notify (ctx->ready_data);
  g_ptr_array_unref (ctx->parallel);
  g_ptr_array_unref (ctx->temporal);
  g_ptr_array_unref (ctx->models);
  vh_feature_collector_free (ctx->fc);
  g_hash_table_unref (ctx->lanes_done);
  g_clear_error (&ctx->error);
  history_clear (ctx);
  /* After the extractors: their GPU state lives on its device. */
  vh_picture_transfer_unref (ctx->config.transfer);
  g_mutex_clear (&ctx->lock);
  g_mutex_clear (&ctx->finalize_lock);
  g_cond_clear (&ctx->cond);
  g_free (ctx);
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

  g_return_val_if_fail (!ctx->started, FALSE);
  if (!name || !name[0]) {
    g_set_error (error, VH_ERROR, VH_ERROR_UNKNOWN_FEATURE,
        "empty feature name");
    return FALSE;
  }
  klass = vh_feature_extractor_find (name, ctx->config.backends);
  if (!klass && (ctx->config.backends & VH_BACKEND_HIP))
    klass = vh_feature_extractor_find (name, VH_BACKEND_CPU);
  if (!klass) {
    gchar *known = vh_feature_extractor_list_names ();
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
    klass = vh_feature_extractor_find (name, VH_BACKEND_CPU);
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
  slot = g_new0 (ExtractorSlot, 1);
  slot->proto = fex;
  slot->refused = refused;
  if (ctx->config.gpu_fallback && (klass->backend & VH_BACKEND_HIP)) {
    const VhFeatureExtractorClass *cpu_klass =
        vh_feature_extractor_find (name, VH_BACKEND_CPU);
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

void
vh_context_set_fallback_func (VhContext * ctx, VhFallbackFunc func,
    gpointer user_data)
{
  ctx->fallback_func = func;
  ctx->fallback_data = user_data;
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
    ctx->n_final = index + 1;
    g_cond_broadcast (&ctx->cond);
    g_mutex_unlock (&ctx->lock);
  }
  g_mutex_unlock (&ctx->finalize_lock);
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

/* What a slot runs as now: its CPU twin once the GPU failed. */
static VhFeatureExtractor *
slot_proto (VhContext * ctx, ExtractorSlot * slot)
{
  return g_atomic_int_get (&ctx->on_cpu) && slot->cpu_proto ?
      slot->cpu_proto : slot->proto;
}

static gboolean
on_gpu (const VhFeatureExtractor * fex)
{
  return (fex->klass->backend & VH_BACKEND_HIP) != 0;
}

/* Whether a failure of @fex is the GPU's, for the CPU to take over. */
static gboolean
can_fall_back (VhContext * ctx, const VhFeatureExtractor * fex)
{
  return ctx->config.gpu_fallback && on_gpu (fex);
}

/* The GPU failed (@cause): every HIP extractor goes over to its CPU twin,
 * each the next time it is used; said once. @frame: the frame it failed
 * on, G_MAXUINT when starting. */
static void
context_fall_back (VhContext * ctx, guint frame, const GError * cause)
{
  gchar *message;

  if (!g_atomic_int_compare_and_exchange (&ctx->on_cpu, 0, 1))
    return;
  if (frame == G_MAXUINT)
    message = g_strdup_printf ("the GPU failed (%s): every feature runs on "
        "the CPU", cause->message);
  else
    message = g_strdup_printf ("the GPU failed (%s): features go on on "
        "the CPU, and the frames the GPU had in hand are scored again there",
        cause->message);
  if (ctx->fallback_func)
    ctx->fallback_func (ctx, message, ctx->fallback_data);
  g_free (message);
}

/* The one place where pictures meet extractors: each extractor gets the
 * frame in the memory it declares (host or HIP device), moved at most once
 * per picture and kept with it for the others. */
static gboolean
context_extract (VhContext * ctx, VhFeatureExtractor * fex, FrameTask * task,
    GError ** error)
{
  VhMemoryType mem_type = fex->klass->mem_type;
  guint n_planes = mem_type == VH_MEMORY_HIP_DEVICE ? ctx->device_planes : 3;
  const VhPicture *ref, *dist;

  ref = vh_picture_get_planes_in_memory (task->ref, mem_type, n_planes,
      ctx->config.transfer, error);
  dist = ref ? vh_picture_get_planes_in_memory (task->dist, mem_type,
      n_planes, ctx->config.transfer, error) : NULL;
  if (dist && ctx->release_host_after_upload) {
    vh_picture_release_host_memory (task->ref);
    vh_picture_release_host_memory (task->dist);
  }
  if (!dist || !vh_feature_extractor_extract (fex, ref, dist, task->index,
          ctx->fc, error)) {
    /* The GPU's errors name neither: the CPU's name the frame already. */
    if (!dist || on_gpu (fex))
      g_prefix_error (error, "frame %u, feature '%s': ", task->index,
          fex->klass->name);
    return FALSE;
  }
  return TRUE;
}

static void context_assign_device (VhContext * ctx,
    VhFeatureExtractor * fex);
static gboolean slots_use_memory (GPtrArray * slots, VhMemoryType mem_type);

/* A worker's own instances of the parallel extractors; @gpu_failed says
 * whether a HIP one failed to start. */
static WorkerSet *
worker_set_new (VhContext * ctx, gboolean * gpu_failed, GError ** error)
{
  WorkerSet *set = g_new0 (WorkerSet, 1);

  *gpu_failed = FALSE;
  set->on_cpu = g_atomic_int_get (&ctx->on_cpu);
  set->fexs = g_ptr_array_new_with_free_func ((GDestroyNotify)
      vh_feature_extractor_free);
  for (guint i = 0; i < ctx->parallel->len; i++) {
    ExtractorSlot *slot = g_ptr_array_index (ctx->parallel, i);
    VhFeatureExtractor *fex =
        vh_feature_extractor_clone (slot_proto (ctx, slot));
    context_assign_device (ctx, fex);
    g_ptr_array_add (set->fexs, fex);
    if (!vh_feature_extractor_init (fex, &ctx->info, error)) {
      *gpu_failed = on_gpu (fex);
      worker_set_free (set);
      return NULL;
    }
  }
  return set;
}

/* A new worker set; when the GPU fails to start one, with gpu_fallback, a
 * CPU one (device memory exhausted by other streams, say). */
static WorkerSet *
worker_set_new_or_cpu (VhContext * ctx, guint frame, GError ** error)
{
  GError *err = NULL;
  gboolean gpu_failed;
  WorkerSet *set = worker_set_new (ctx, &gpu_failed, &err);

  if (!set && gpu_failed && ctx->config.gpu_fallback) {
    context_fall_back (ctx, frame, err);
    g_clear_error (&err);
    set = worker_set_new (ctx, &gpu_failed, &err);
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

    if (!on_gpu (gpu))
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
  set = worker_set_new_or_cpu (ctx, frame, error);
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
    if (g_atomic_int_get (&ctx->on_cpu) && !set->on_cpu &&
        !worker_set_to_cpu (ctx, set, &err))
      context_set_error (ctx, err);
    for (guint i = 0; !err && i < set->fexs->len; i++) {
      VhFeatureExtractor *fex = g_ptr_array_index (set->fexs, i);
      if (context_extract (ctx, fex, task, &err))
        continue;
      /* The GPU failed: this frame's feature, and those after it, again
       * on the CPU (the ones before wrote their values). */
      if (can_fall_back (ctx, fex)) {
        context_fall_back (ctx, task->index, err);
        g_clear_error (&err);
        if (worker_set_to_cpu (ctx, set, &err) &&
            context_extract (ctx, g_ptr_array_index (set->fexs, i), task,
                &err))
          continue;
      }
      context_set_error (ctx, err);
      break;
    }
  }
  g_async_queue_push (ctx->worker_sets, set);

  g_mutex_lock (&ctx->lock);
  g_hash_table_add (ctx->lanes_done, GUINT_TO_POINTER (task->index));
  g_mutex_unlock (&ctx->lock);
  context_finalize_ready (ctx);
  frame_task_release (ctx, task);
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
    if (!context_extract (ctx, cpu, &again, error))
      return FALSE;
  }
  return TRUE;
}

/* Keeps the frame for temporal_slot_to_cpu(). */
static void
history_push (VhContext * ctx, FrameTask * task)
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

/* One temporal extractor on one frame, going over to the CPU twin when
 * the GPU failed, here or elsewhere. */
static gboolean
temporal_extract (VhContext * ctx, ExtractorSlot * slot, FrameTask * task,
    GError ** error)
{
  GError *err = NULL;
  gboolean ok;

  if (g_atomic_int_get (&ctx->on_cpu) && on_gpu (slot->temporal) &&
      !temporal_slot_to_cpu (ctx, slot, task->index, error))
    return FALSE;
  ok = context_extract (ctx, slot->temporal, task, &err);
  if (!ok && can_fall_back (ctx, slot->temporal)) {
    context_fall_back (ctx, task->index, err);
    g_clear_error (&err);
    ok = temporal_slot_to_cpu (ctx, slot, task->index, &err) &&
        context_extract (ctx, slot->temporal, task, &err);
  }
  slot->temporal->replaying = FALSE;
  if (err)
    g_propagate_error (error, err);
  return ok;
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
      if (!temporal_extract (ctx, slot, task, &err)) {
        context_set_error (ctx, err);
        break;
      }
    }
    history_push (ctx, task);
  }
  g_mutex_lock (&ctx->lock);
  if (task->index + 1 > ctx->lookahead)
    ctx->temporal_final = MAX (ctx->temporal_final,
        task->index + 1 - ctx->lookahead);
  g_mutex_unlock (&ctx->lock);
  context_finalize_ready (ctx);
  frame_task_release (ctx, task);
}

static void
context_assign_device (VhContext * ctx, VhFeatureExtractor * fex)
{
  if (fex->klass->backend & VH_BACKEND_HIP)
    fex->device = vh_picture_transfer_get_device (ctx->config.transfer);
}

/* A new temporal sequence from frame n_submitted on. */
static gboolean
context_init_temporal (VhContext * ctx, gboolean * gpu_failed,
    GError ** error)
{
  *gpu_failed = FALSE;
  history_clear (ctx);
  ctx->seq_start = ctx->n_submitted;
  for (guint i = 0; i < ctx->temporal->len; i++) {
    ExtractorSlot *slot = g_ptr_array_index (ctx->temporal, i);
    g_clear_pointer (&slot->temporal, vh_feature_extractor_free);
    slot->temporal = vh_feature_extractor_clone (slot_proto (ctx, slot));
    context_assign_device (ctx, slot->temporal);
    if (!vh_feature_extractor_init (slot->temporal, &ctx->info, error)) {
      *gpu_failed = on_gpu (slot->temporal);
      return FALSE;
    }
  }
  return TRUE;
}

/* The same; when the GPU fails to start a twin, with gpu_fallback, all on
 * the CPU. */
static gboolean
context_init_temporal_or_cpu (VhContext * ctx, GError ** error)
{
  GError *err = NULL;
  gboolean gpu_failed;

  if (context_init_temporal (ctx, &gpu_failed, &err))
    return TRUE;
  if (gpu_failed && ctx->config.gpu_fallback) {
    context_fall_back (ctx, G_MAXUINT, err);
    g_clear_error (&err);
    if (context_init_temporal (ctx, &gpu_failed, &err))
      return TRUE;
  }
  g_propagate_error (error, err);
  return FALSE;
}

/* Features in extractor order, then every model's score, then bootstrap
 * members (libvmaf's order for scores), whatever thread appends first. */
static void
context_declare_outputs (VhContext * ctx)
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

/* Whether every parallel extractor runs on HIP (and there is one). */
static gboolean
context_parallel_all_hip (VhContext * ctx)
{
  for (guint i = 0; i < ctx->parallel->len; i++) {
    ExtractorSlot *slot = g_ptr_array_index (ctx->parallel, i);
    if (!(slot->proto->klass->backend & VH_BACKEND_HIP))
      return FALSE;
  }
  return ctx->parallel->len > 0;
}

gboolean
vh_context_start (VhContext * ctx, const VhPictureInfo * info,
    GError ** error)
{
  guint n_threads = ctx->config.n_threads;

  g_return_val_if_fail (!ctx->started, FALSE);
  g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "context start %ux%u",
      info->width, info->height);
  /* Two writers of one name would fail on the first frame: say so now. */
  if (!vh_context_check_outputs (ctx, error))
    return FALSE;
  ctx->info = *info;
  ctx->lookahead = 0;
  for (guint i = 0; i < ctx->temporal->len; i++) {
    ExtractorSlot *slot = g_ptr_array_index (ctx->temporal, i);
    ctx->lookahead = MAX (ctx->lookahead, slot->proto->klass->lookahead);
  }
  if (!context_init_temporal_or_cpu (ctx, error))
    return FALSE;
  /* A GPU temporal twin that fails mid-stream is replaced by its CPU twin
   * fed again from far enough back: its frames in flight, then its CPU
   * twin's history (or, without one, a few frames, enough near the
   * start of a sequence). */
  ctx->history_len = 0;
  for (guint i = 0; ctx->config.gpu_fallback && i < ctx->temporal->len; i++) {
    ExtractorSlot *slot = g_ptr_array_index (ctx->temporal, i);
    if (slot->cpu_proto)
      ctx->history_len = MAX (ctx->history_len, slot->proto->klass->lookahead
          + MAX (slot->cpu_proto->klass->history, 1) + 1);
  }

  ctx->device_planes = slots_device_luma_only (ctx->parallel) &&
      slots_device_luma_only (ctx->temporal) ? 1 : 3;
  /* Without a fall-back no CPU twin takes over a frame (nor keeps it in
   * the history). */
  ctx->release_host_after_upload = !ctx->config.gpu_fallback &&
      !slots_use_memory (ctx->parallel, VH_MEMORY_HOST) &&
      !slots_use_memory (ctx->temporal, VH_MEMORY_HOST);

  if (ctx->config.max_gpu_threads && context_parallel_all_hip (ctx))
    n_threads = MIN (n_threads, ctx->config.max_gpu_threads);
  ctx->config.n_threads = n_threads;
  ctx->worker_sets = g_async_queue_new ();
  ctx->all_worker_sets = g_ptr_array_new_with_free_func ((GDestroyNotify)
      worker_set_free);
  /* One worker set now, so that settings the extractors refuse fail here;
   * the others when the workers need them. */
  {
    WorkerSet *set = worker_set_new_or_cpu (ctx, G_MAXUINT, error);
    if (!set) {
      context_stop_pools (ctx);
      return FALSE;
    }
    g_ptr_array_add (ctx->all_worker_sets, set);
    g_async_queue_push (ctx->worker_sets, set);
  }
  ctx->parallel_pool = g_thread_pool_new (run_parallel_lane, ctx, n_threads,
      FALSE, NULL);
  ctx->temporal_pool = g_thread_pool_new (run_temporal_lane, ctx, 1, FALSE,
      NULL);
  if (!ctx->config.max_in_flight)
    ctx->config.max_in_flight = vh_context_default_in_flight (n_threads);
  ctx->config.max_in_flight = MAX (ctx->config.max_in_flight,
      ctx->lookahead + 2);
  ctx->temporal_final = ctx->temporal->len ? 0 : G_MAXUINT;
  context_declare_outputs (ctx);
  ctx->started = TRUE;
  g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "context started");
  return TRUE;
}

static gboolean
context_take_error (VhContext * ctx, GError ** error)
{
  if (!ctx->error)
    return TRUE;
  g_propagate_error (error, g_error_copy (ctx->error));
  return FALSE;
}

static const VhFeatureExtractor *context_chroma_reader (VhContext * ctx);

/* A picture without its chroma goes only to extractors that never read
 * it: anything else would read absent planes. */
static gboolean
context_check_chroma (VhContext * ctx, const VhPicture * pic,
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

gboolean
vh_context_submit (VhContext * ctx, VhPicture * ref, VhPicture * dist,
    guint * index, GError ** error)
{
  FrameTask *task;

  g_return_val_if_fail (ctx->started, FALSE);
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
    return FALSE;
  }

  if (!context_check_chroma (ctx, ref, "reference", error) ||
      !context_check_chroma (ctx, dist, "distorted", error))
    return FALSE;

  if (!vh_picture_check_depth (ref, "reference", error) ||
      !vh_picture_check_depth (dist, "distorted", error)) {
    g_prefix_error (error, "frame %u: ", ctx->n_submitted);
    return FALSE;
  }

  g_mutex_lock (&ctx->lock);
  while (!ctx->error &&
      ctx->n_submitted - ctx->n_final >= ctx->config.max_in_flight)
    g_cond_wait (&ctx->cond, &ctx->lock);
  if (!context_take_error (ctx, error)) {
    g_mutex_unlock (&ctx->lock);
    return FALSE;
  }
  task = g_new0 (FrameTask, 1);
  task->index = ctx->n_submitted++;
  task->ref = vh_picture_ref (ref);
  task->dist = vh_picture_ref (dist);
  task->scored = (task->index % ctx->config.subsample) == 0;
  task->pending = 2;
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
    guint end = ctx->n_submitted;
    gboolean ok;

    if (g_atomic_int_get (&ctx->on_cpu) && on_gpu (slot->temporal) &&
        !temporal_slot_to_cpu (ctx, slot, end, &err)) {
      context_set_error (ctx, err);
      break;
    }
    ok = vh_feature_extractor_flush (slot->temporal, ctx->fc, &err);
    if (!ok && can_fall_back (ctx, slot->temporal)) {
      context_fall_back (ctx, end, err);
      g_clear_error (&err);
      ok = temporal_slot_to_cpu (ctx, slot, end, &err) &&
          vh_feature_extractor_flush (slot->temporal, ctx->fc, &err);
    }
    slot->temporal->replaying = FALSE;
    if (!ok)
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
  if (ok && !context_init_temporal_or_cpu (ctx, error))
    ok = FALSE;
  return ok;
}

gboolean
vh_context_on_cpu (VhContext * ctx)
{
  return g_atomic_int_get (&ctx->on_cpu);
}

guint
vh_context_default_in_flight (guint n_threads)
{
  return 2 * n_threads + 2;
}

guint
vh_context_n_frames_held (VhContext * ctx)
{
  return ctx->config.max_in_flight + ctx->history_len;
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

gchar *
vh_context_describe_dispatch (VhContext * ctx)
{
  GString *s = g_string_new (NULL);

  describe_slots (s, ctx->parallel, g_atomic_int_get (&ctx->on_cpu));
  describe_slots (s, ctx->temporal, g_atomic_int_get (&ctx->on_cpu));
  return g_string_free (s, FALSE);
}
