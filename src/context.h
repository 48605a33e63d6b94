/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __VH_CONTEXT_H__
#define __VH_CONTEXT_H__

#include <glib.h>

#include "extractor-set.h"
#include "feature-collector.h"
#include "feature-extractor.h"
#include "model.h"
#include "picture.h"
#include "picture-transfer.h"

G_BEGIN_DECLS

/**
 * VhContext:
 *
 * The scoring engine. Frames are submitted in order and scored on a pool of
 * worker threads: extractors without temporal state run in parallel across
 * frames (one instance per worker), temporal ones run in submission order on
 * one lane. When every value of a frame is final (temporal look-ahead
 * included) the models are evaluated and the frame-ready callback runs, in
 * frame order. Results are identical for any number of threads.
 */
typedef struct _VhContext VhContext;

typedef struct
{
  guint n_threads;              /* worker threads; 0 means 1 */
  guint subsample;              /* score every Nth frame; 0 or 1 = all */
  VhBackend backends;           /* where extractors may run; 0 = CPU */
  guint max_in_flight;          /* submitted but not final; 0 = automatic */
  VhPictureTransfer *transfer;  /* the GPU this context scores on: moves
                                 * its pictures and names the device its
                                 * HIP extractors use (the context keeps a
                                 * reference); NULL = none */
  guint max_gpu_threads;        /* when every parallel extractor runs on
                                 * HIP, at most this many workers (a GPU
                                 * needs few frames in flight, and each
                                 * worker holds its own GPU state); 0 = no
                                 * limit */
  gboolean log_pooled_order;    /* logs list features as libvmaf's with a
                                 * thread pool (its --threads 1 and up)
                                 * rather than single-threaded */
  gboolean gpu_fallback;        /* when the GPU fails (at start or
                                 * mid-stream), its features go on on the
                                 * CPU, the frames it had in hand scored
                                 * again there, instead of an error; said
                                 * through the fallback func
                                 * (docs/hip.md, "When the GPU fails") */
  VhExtractorSet *extractors;   /* the classes it may run (the context
                                 * keeps a reference); NULL = the built-in
                                 * CPU classes. Backend HIP needs one with
                                 * GPU twins (vh_hip_extractor_set()) */
  guint cpu_mask;               /* VhCpuFlags the extractors may not use
                                 * (libvmaf's --cpumask); 0 = none */
} VhContextConfig;

/* The GPU failed and features went over to the CPU: @message says where
 * and why. Called once, on the thread that saw the failure. */
typedef void (*VhFallbackFunc) (VhContext * ctx, const gchar * message,
    gpointer user_data);

/* Called from a worker thread, in frame order, once frame @index is final
 * (its features and model scores are in the collector). Skipped frames of
 * a subsampled run are reported too, with @scored FALSE. What was
 * submitted with the frame is vh_context_get_frame_data (ctx, index). */
typedef void (*VhFrameReadyFunc) (VhContext * ctx, guint index,
    gboolean scored, gpointer user_data);

VhContext   *vh_context_new              (const VhContextConfig * config);

void         vh_context_free             (VhContext * ctx);

/* Takes ownership of @model; adds the features it needs. */
gboolean     vh_context_add_model        (VhContext * ctx, VhModel * model,
                                          GError ** error);

/* @name: an extractor name ("psnr") or an output name ("psnr_y");
 * @options: NULL or NULL-terminated key, value, key, value, ... */
gboolean     vh_context_add_feature      (VhContext * ctx, const gchar * name,
                                          const gchar * const *options,
                                          GError ** error);

void         vh_context_set_frame_ready_func (VhContext * ctx,
                                          VhFrameReadyFunc func,
                                          gpointer user_data,
                                          GDestroyNotify notify);

/* Initialises the extractors for pictures of @info (checks each feature's
 * minimum size). */
void         vh_context_set_fallback_func (VhContext * ctx,
                                          VhFallbackFunc func,
                                          gpointer user_data);

gboolean     vh_context_start            (VhContext * ctx,
                                          const VhPictureInfo * info,
                                          GError ** error);

/* Queues one frame pair (takes its own references). Blocks while too many
 * frames are in flight. Fails if a worker failed before, or on a picture of
 * another geometry. The frame gets the next index; see @index. */
gboolean     vh_context_submit           (VhContext * ctx, VhPicture * ref,
                                          VhPicture * dist, guint * index,
                                          GError ** error);

/* Same, with @frame_data carried with the frame (what the caller knew of
 * it: timestamps, its own number): vh_context_get_frame_data() hands it
 * to the frame-ready callback of that frame, and @notify (if not NULL)
 * frees it once that callback returned, or at once when the submission
 * fails, or with the context when a failure keeps the frame from being
 * reported. */
gboolean     vh_context_submit_full      (VhContext * ctx, VhPicture * ref,
                                          VhPicture * dist,
                                          gpointer frame_data,
                                          GDestroyNotify notify,
                                          guint * index, GError ** error);

/* In the frame-ready callback of frame @index: the data submitted with it
 * (vh_context_submit_full()), or NULL. */
gpointer     vh_context_get_frame_data   (VhContext * ctx, guint index);

/* End of stream: waits for every frame, lets temporal extractors emit what
 * they held back, scores the remaining frames. The context can take more
 * frames afterwards; temporal features then start over. */
gboolean     vh_context_finish           (VhContext * ctx, GError ** error);

/* Frames submitted so far. */
guint        vh_context_n_frames         (VhContext * ctx);

/* Whether the GPU failed and features went over to the CPU. */
gboolean     vh_context_on_cpu           (VhContext * ctx);

/* After start: how many submitted frames' pictures the context may hold
 * at once (frames in flight, and those kept for a GPU fall-back). */
guint        vh_context_n_frames_held    (VhContext * ctx);

/* The frames in flight a context allows by default (max_in_flight 0) with
 * @n_threads workers: two per worker and two more. */
guint        vh_context_default_in_flight (guint n_threads);

VhFeatureCollector *vh_context_get_collector (VhContext * ctx);

/* Models in the order added. */
guint        vh_context_n_models         (VhContext * ctx);

VhModel     *vh_context_get_model        (VhContext * ctx, guint i);

/* Fails, naming both, when two features or models would write the same
 * output name (vh_context_start() checks this first). */
gboolean     vh_context_check_outputs    (VhContext * ctx, GError ** error);

/* Output names of every value a scored frame gets, models last. */
GPtrArray   *vh_context_output_names     (VhContext * ctx);

/* Whether some extractor reads pictures in @mem_type memory (known once
 * features are added): a caller with frames in device memory keeps them
 * there only when the engine reads them there. */
gboolean     vh_context_uses_memory      (VhContext * ctx,
                                          VhMemoryType mem_type);

/* Whether some extractor may read the chroma planes (known once features
 * are added): TRUE unless every one, and every CPU twin a failing GPU
 * would hand its work to, is flagged VH_EXTRACTOR_FLAG_LUMA_ONLY. When
 * FALSE, a caller may submit pictures without their chroma
 * (vh_picture_drop_chroma()) and need not even read it; when TRUE, such
 * pictures are refused. */
gboolean     vh_context_reads_chroma     (VhContext * ctx);

/* "adm: cpu, vif: hip, ..." (caller frees); a feature whose HIP twin
 * refused its options says why: "float_vif: cpu (...)". */
gchar       *vh_context_describe_dispatch (VhContext * ctx);

/* The extractor classes the context runs on @backend (each once), for a
 * backend to prepare what does not depend on the picture size. */
GPtrArray   *vh_context_get_classes      (VhContext * ctx,
                                          VhBackend backend);

guint        vh_context_get_subsample    (VhContext * ctx);

G_END_DECLS

#endif /* __VH_CONTEXT_H__ */
