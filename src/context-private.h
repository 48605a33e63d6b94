/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __VH_CONTEXT_PRIVATE_H__
#define __VH_CONTEXT_PRIVATE_H__

/* What the files of the context share (not part of the API):
 *   context.c           life cycle and start: the parts below put together
 *   context-plan.c      which extractors run, in which order, on what
 *                       backend, and what the plan tells (outputs, memory,
 *                       chroma, dispatch)
 *   context-extract.c   the extractor instances, and the one place where
 *                       pictures meet them
 *   context-fallback.c  the GPU's features going over to the CPU
 *   context-run.c       submission, worker threads, frame completion
 * Each calls only those listed below it, never one above. */

#include "context.h"

G_BEGIN_DECLS

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
  GPtrArray *fexs;              /* VhFeatureExtractor*, as ctx->parallel */
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

/* What a caller submitted with a frame (vh_context_submit_full()), kept
 * until the frame-ready callback of that frame returned. */
typedef struct
{
  gpointer data;
  GDestroyNotify notify;
} FrameData;

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
  GHashTable *frame_data;       /* index -> FrameData*, frames submitted
                                 * with data and not yet reported */
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

static inline gboolean
vh_extractor_on_gpu (const VhFeatureExtractor * fex)
{
  return (fex->klass->backend & VH_BACKEND_HIP) != 0;
}

/* context-plan.c */
void         vh_extractor_slot_free      (ExtractorSlot * slot);

/* The most look-ahead a temporal extractor needs. */
guint        vh_context_plan_lookahead   (VhContext * ctx);

/* Planes a frame takes to the device: 1 when every extractor there reads
 * the luma only, else 3. */
guint        vh_context_plan_device_planes (VhContext * ctx);

/* Whether every parallel extractor runs on HIP (and there is one). */
gboolean     vh_context_plan_parallel_all_hip (VhContext * ctx);

/* Declares every output name to the collector, in log order. */
void         vh_context_declare_outputs  (VhContext * ctx);

/* A picture without its chroma goes only to extractors that never read
 * it: anything else would read absent planes. */
gboolean     vh_context_check_chroma     (VhContext * ctx,
                                          const VhPicture * pic,
                                          const gchar * what,
                                          GError ** error);

/* context-extract.c */
void         vh_worker_set_free          (WorkerSet * set);

/* What a slot runs as now: its CPU twin once the GPU failed. */
VhFeatureExtractor *vh_context_slot_proto (VhContext * ctx,
                                          ExtractorSlot * slot);

gboolean     vh_context_extract          (VhContext * ctx,
                                          VhFeatureExtractor * fex,
                                          FrameTask * task,
                                          GError ** error);

/* A worker's own instances of the parallel extractors; @gpu_failed says
 * whether a HIP one failed to start. */
WorkerSet   *vh_context_worker_set_new   (VhContext * ctx,
                                          gboolean * gpu_failed,
                                          GError ** error);

/* The temporal lane's instances, made afresh. */
gboolean     vh_context_init_temporal    (VhContext * ctx,
                                          gboolean * gpu_failed,
                                          GError ** error);

/* context-fallback.c */
void         vh_context_history_clear    (VhContext * ctx);

/* Keeps the frame for a CPU twin to take over from a failing GPU twin. */
void         vh_context_history_push     (VhContext * ctx, FrameTask * task);

/* How many frames the temporal lane keeps for a CPU twin to take over. */
guint        vh_context_fallback_history_len (VhContext * ctx);

WorkerSet   *vh_context_worker_set_new_or_cpu (VhContext * ctx, guint frame,
                                          GError ** error);

/* A new temporal sequence from frame n_submitted on; when the GPU fails to
 * start a twin, with gpu_fallback, all on the CPU. */
gboolean     vh_context_init_temporal_or_cpu (VhContext * ctx,
                                          GError ** error);

/* Runs @set's extractors on @task, going over to the CPU when the GPU
 * failed, here or elsewhere. */
gboolean     vh_context_worker_set_extract (VhContext * ctx, WorkerSet * set,
                                          FrameTask * task, GError ** error);

gboolean     vh_context_temporal_extract (VhContext * ctx,
                                          ExtractorSlot * slot,
                                          FrameTask * task, GError ** error);

/* End of stream for one temporal extractor, frames below @end submitted. */
gboolean     vh_context_temporal_flush   (VhContext * ctx,
                                          ExtractorSlot * slot, guint end,
                                          GError ** error);

/* context-run.c */
/* The worker sets and thread pools, with one worker set made now so that
 * settings the extractors refuse fail at start. */
gboolean     vh_context_start_pools      (VhContext * ctx, GError ** error);

void         vh_context_stop_pools       (VhContext * ctx);

void         vh_frame_data_free          (FrameData * fd);

G_END_DECLS

#endif /* __VH_CONTEXT_PRIVATE_H__ */
