/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_HIP_FEX_COMMON_H__
#define __VH_HIP_FEX_COMMON_H__

#include "vhhip.h"
#include "feature-extractor.h"
#include "errors.h"

G_BEGIN_DECLS

/*
 * What every HIP twin shares: a stream of its own, kernel lookup, and the
 * asynchronous pipeline.
 *
 * Results. A twin's extract() queues kernels on its stream that write the
 * frame's results (a few sums, usually) into that frame's slot of a small
 * device buffer (vh_hip_fex_begin() gives it, zeroed), then
 * vh_hip_fex_end() queues one copy of the slot into page-locked host
 * memory and records an event: one small transfer per frame, no waiting
 * per kernel. The collect function then turns the host copy into values
 * (vh_feature_extractor_append()), finishing the score in double precision
 * as the CPU twin does. When that happens depends on the class:
 *
 *  - an ordinary (non-temporal) twin: at the end of its own extract(),
 *    which waits for its stream once. The context runs one instance per
 *    worker thread, each with its own stream, so as many frames as workers
 *    are in flight, and only workers wait, never the thread that submits.
 *
 *  - a twin flagged VH_EXTRACTOR_FLAG_TEMPORAL (one instance, frames in
 *    order) with a lookahead of at least VH_HIP_FEX_LOOKAHEAD: deferred.
 *    extract() returns without waiting; frame i's slot is collected at the
 *    end of the extract() of frame i + VH_HIP_FEX_LOOKAHEAD (waiting on its
 *    event only if the GPU is that far behind: the back-pressure), and the
 *    twin's flush calls vh_hip_fex_drain() for the rest. Motion does this
 *    (it is temporal anyway); any twin may.
 *
 * Either way the frame's pictures are held until its slot is collected, so
 * that nobody reuses memory that a kernel still reads.
 *
 * A twin's extract() looks like:
 *
 *   guint8 *slot = vh_hip_fex_begin (&p->hip, index, ref, dist, error);
 *   ... vh_hip_fex_launch (&p->hip, fn, gx, gy, bx, by, 0, args, error) ...
 *   return vh_hip_fex_end (&p->hip, ref, dist, fc, error);
 *
 * init calls vh_hip_fex_init(), close vh_hip_fex_close().
 */

/* Frames a temporal twin keeps in flight beyond the current one. */
#define VH_HIP_FEX_LOOKAHEAD 3
#define VH_HIP_FEX_DEPTH (VH_HIP_FEX_LOOKAHEAD + 1)

/* Turns @results (the host copy of frame @index's slot, slot_size bytes)
 * into values. */
typedef gboolean (*VhHipFexCollectFunc) (VhFeatureExtractor * fex,
    gconstpointer results, guint index, VhFeatureCollector * fc,
    GError ** error);

typedef struct
{
  VhHipEvent *done;
  guint index;
  gboolean busy;
  VhPicture *ref;
  VhPicture *dist;
} VhHipFexSlot;

typedef struct
{
  VhFeatureExtractor *fex;
  VhHipDevice *device;          /* a reference */
  VhHipStream *stream;
  VhHipFexCollectFunc collect;
  gsize slot_size;              /* bytes per frame, rounded up to 256 */
  guint8 *d_results;            /* device: VH_HIP_FEX_DEPTH slots */
  guint8 *h_results;            /* page-locked host copy of them */
  VhHipFexSlot slots[VH_HIP_FEX_DEPTH];
  guint next;                   /* slot of the next frame */
  guint current;                /* slot of the frame being queued */
  guint current_index;
  gboolean in_frame;
} VhHipFex;

/* Sets up @h for @fex, on the device the context gave it (fex->device):
 * VH_ERROR_BACKEND when there is none. @slot_size: result bytes per frame
 * (may be 0 for a twin that collects nothing). */
gboolean     vh_hip_fex_init             (VhHipFex * h,
                                          VhFeatureExtractor * fex,
                                          gsize slot_size,
                                          VhHipFexCollectFunc collect,
                                          GError ** error);

/* Waits for the stream, releases held pictures, frees everything. Safe on
 * a zeroed or half-initialised @h. */
void         vh_hip_fex_close            (VhHipFex * h);

/* Starts queuing frame @index of @ref and @dist (either may be NULL): the
 * stream waits, on the GPU, for their uploads still in flight; returns its
 * result slot in device memory, zeroed on the stream (or NULL with
 * @error). */
gpointer     vh_hip_fex_begin            (VhHipFex * h, guint index,
                                          const VhPicture * ref,
                                          const VhPicture * dist,
                                          GError ** error);

/* Finishes queuing the frame begun last: copies its slot back, records its
 * event, holds @ref and @dist (the pictures its kernels read; either may be
 * NULL) until it is collected, then collects: this frame (ordinary twins)
 * or every frame VH_HIP_FEX_LOOKAHEAD or more before it (temporal ones). */
gboolean     vh_hip_fex_end              (VhHipFex * h, const VhPicture * ref,
                                          const VhPicture * dist,
                                          VhFeatureCollector * fc,
                                          GError ** error);

/* Collects every frame still in flight, in order (for flush). */
gboolean     vh_hip_fex_drain            (VhHipFex * h,
                                          VhFeatureCollector * fc,
                                          GError ** error);

/* A twin's flush and close when they have nothing else to do, for its
 * class table: its private data must start with its VhHipFex (check with
 * VH_HIP_FEX_FIRST). */
gboolean     vh_hip_fex_class_flush      (VhFeatureExtractor * fex,
                                          VhFeatureCollector * fc,
                                          GError ** error);

void         vh_hip_fex_class_close      (VhFeatureExtractor * fex);

#define VH_HIP_FEX_FIRST(type, member) \
  G_STATIC_ASSERT (G_STRUCT_OFFSET (type, member) == 0)

/* Kernel @name of @source on this device (cached process-wide). */
VhHipFunction *vh_hip_fex_function       (VhHipFex * h,
                                          const VhHipKernelSource * source,
                                          const gchar * name,
                                          GError ** error);

/* Launches on @h's stream. */
/* The luma check of vh_feature_extractor_check_luma(), and both pictures
 * in HIP device memory, as the twins' kernels read them. Inline, so that
 * the tests' emulation of this file's functions shares it. */
static inline gboolean
vh_hip_fex_check_luma_on_device (VhFeatureExtractor * fex,
    const VhPicture * ref, const VhPicture * dist, guint index,
    GError ** error)
{
  if (!vh_feature_extractor_check_luma (fex, ref, dist, index, error))
    return FALSE;
  if (ref->mem_type != VH_MEMORY_HIP_DEVICE ||
      dist->mem_type != VH_MEMORY_HIP_DEVICE) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature '%s' on HIP needs pictures in HIP device memory",
        fex->klass->name);
    return FALSE;
  }
  return TRUE;
}

gboolean     vh_hip_fex_launch           (VhHipFex * h,
                                          VhHipFunction * function,
                                          guint grid_x, guint grid_y,
                                          guint block_x, guint block_y,
                                          guint shared_bytes,
                                          gpointer * args, GError ** error);

/* ceil(a / b), for grid sizes. */
static inline guint
vh_hip_div_up (guint a, guint b)
{
  return (a + b - 1) / b;
}

G_END_DECLS

#endif /* __VH_HIP_FEX_COMMON_H__ */
