/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* The extractor instances a context runs (a worker's set of parallel ones,
 * the temporal lane's), and the one place where pictures meet them. */
#include "context-private.h"

void
vh_worker_set_free (WorkerSet * set)
{
  if (!set)
    return;
  g_ptr_array_unref (set->fexs);
  g_free (set);
}

VhFeatureExtractor *
vh_context_slot_proto (VhContext * ctx, ExtractorSlot * slot)
{
  return g_atomic_int_get (&ctx->on_cpu) && slot->cpu_proto ?
      slot->cpu_proto : slot->proto;
}

static void
context_assign_device (VhContext * ctx, VhFeatureExtractor * fex)
{
  if (fex->klass->backend & VH_BACKEND_HIP)
    fex->device = vh_picture_transfer_get_device (ctx->config.transfer);
}

/* The one place where pictures meet extractors: each extractor gets the
 * frame in the memory it declares (host or HIP device), moved at most once
 * per picture and kept with it for the others. */
gboolean
vh_context_extract (VhContext * ctx, VhFeatureExtractor * fex,
    FrameTask * task, GError ** error)
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
    if (!dist || vh_extractor_on_gpu (fex))
      g_prefix_error (error, "frame %u, feature '%s': ", task->index,
          fex->klass->name);
    return FALSE;
  }
  return TRUE;
}

WorkerSet *
vh_context_worker_set_new (VhContext * ctx, gboolean * gpu_failed,
    GError ** error)
{
  WorkerSet *set = g_new0 (WorkerSet, 1);

  *gpu_failed = FALSE;
  set->on_cpu = g_atomic_int_get (&ctx->on_cpu);
  set->fexs = g_ptr_array_new_with_free_func ((GDestroyNotify)
      vh_feature_extractor_free);
  for (guint i = 0; i < ctx->parallel->len; i++) {
    ExtractorSlot *slot = g_ptr_array_index (ctx->parallel, i);
    VhFeatureExtractor *fex =
        vh_feature_extractor_clone (vh_context_slot_proto (ctx, slot));
    context_assign_device (ctx, fex);
    g_ptr_array_add (set->fexs, fex);
    if (!vh_feature_extractor_init (fex, &ctx->info, error)) {
      *gpu_failed = vh_extractor_on_gpu (fex);
      vh_worker_set_free (set);
      return NULL;
    }
  }
  return set;
}

gboolean
vh_context_init_temporal (VhContext * ctx, gboolean * gpu_failed,
    GError ** error)
{
  *gpu_failed = FALSE;
  for (guint i = 0; i < ctx->temporal->len; i++) {
    ExtractorSlot *slot = g_ptr_array_index (ctx->temporal, i);
    g_clear_pointer (&slot->temporal, vh_feature_extractor_free);
    slot->temporal =
        vh_feature_extractor_clone (vh_context_slot_proto (ctx, slot));
    context_assign_device (ctx, slot->temporal);
    if (!vh_feature_extractor_init (slot->temporal, &ctx->info, error)) {
      *gpu_failed = vh_extractor_on_gpu (slot->temporal);
      return FALSE;
    }
  }
  return TRUE;
}
