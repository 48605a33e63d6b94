/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* align=content: signatures of system-memory frames on worker threads. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipsignatures.h"
#include "gstvmafhippicture.h"

/* Workers per element: a signature costs a fraction of a frame's time
 * on one core, and two inputs' frames come at once. */
#define MAX_WORKERS 2

struct _GstVmafHipSignatures
{
  GThreadPool *pool;
};

struct _GstVmafHipSignatureJob
{
  gint ref_count;
  GstVideoInfo info;
  GstBuffer *buffer;            /* until computed */
  GMutex lock;
  GCond cond;
  gboolean done;                /* under @lock */
  gint done_atomic;             /* the same, read without the lock */
  VhAlignSignature sig;
  GError *error;
};

static void
compute (gpointer data, gpointer user_data)
{
  GstVmafHipSignatureJob *job = data;
  GError *err = NULL;
  VhPicture *pic = gst_vmaf_hip_picture_wrap (&job->info, job->buffer, &err);

  if (pic) {
    vh_align_signature_compute (pic, &job->sig, &err);
    vh_picture_unref (pic);
  }
  gst_clear_buffer (&job->buffer);
  g_mutex_lock (&job->lock);
  job->error = err;
  job->done = TRUE;
  g_atomic_int_set (&job->done_atomic, 1);
  g_cond_broadcast (&job->cond);
  g_mutex_unlock (&job->lock);
  gst_vmaf_hip_signature_job_unref (job);
}

GstVmafHipSignatures *
gst_vmaf_hip_signatures_new (void)
{
  GstVmafHipSignatures *sigs = g_new0 (GstVmafHipSignatures, 1);
  guint workers = CLAMP (g_get_num_processors () / 2, 1, MAX_WORKERS);

  /* shared threads: they cannot fail to start */
  sigs->pool = g_thread_pool_new (compute, NULL, (gint) workers, FALSE, NULL);
  return sigs;
}

void
gst_vmaf_hip_signatures_free (GstVmafHipSignatures * sigs)
{
  if (!sigs)
    return;
  g_thread_pool_free (sigs->pool, FALSE, TRUE);
  g_free (sigs);
}

static gboolean
is_system_memory (GstBuffer * buffer)
{
  guint n = gst_buffer_n_memory (buffer);

  for (guint i = 0; i < n; i++)
    if (!gst_memory_is_type (gst_buffer_peek_memory (buffer, i),
            GST_ALLOCATOR_SYSMEM))
      return FALSE;
  return n > 0;
}

GstVmafHipSignatureJob *
gst_vmaf_hip_signatures_start (GstVmafHipSignatures * sigs,
    const GstVideoInfo * info, GstBuffer * buffer)
{
  GstVmafHipSignatureJob *job;

  if (!is_system_memory (buffer))
    return NULL;
  job = g_new0 (GstVmafHipSignatureJob, 1);
  /* one for the caller, one for the worker */
  job->ref_count = 2;
  job->info = *info;
  job->buffer = gst_buffer_ref (buffer);
  g_mutex_init (&job->lock);
  g_cond_init (&job->cond);
  g_thread_pool_push (sigs->pool, job, NULL);
  return job;
}

GstVmafHipSignatureJob *
gst_vmaf_hip_signature_job_ref (GstVmafHipSignatureJob * job)
{
  g_atomic_int_inc (&job->ref_count);
  return job;
}

void
gst_vmaf_hip_signature_job_unref (GstVmafHipSignatureJob * job)
{
  if (!job || !g_atomic_int_dec_and_test (&job->ref_count))
    return;
  gst_clear_buffer (&job->buffer);
  g_clear_error (&job->error);
  g_mutex_clear (&job->lock);
  g_cond_clear (&job->cond);
  g_free (job);
}

gboolean
gst_vmaf_hip_signature_job_done (GstVmafHipSignatureJob * job)
{
  return g_atomic_int_get (&job->done_atomic);
}

gboolean
gst_vmaf_hip_signature_job_take (GstVmafHipSignatureJob * job,
    VhAlignSignature * sig, GError ** error)
{
  gboolean ok;

  g_mutex_lock (&job->lock);
  while (!job->done)
    g_cond_wait (&job->cond, &job->lock);
  ok = job->error == NULL;
  if (ok)
    *sig = job->sig;
  else
    g_propagate_error (error, g_error_copy (job->error));
  g_mutex_unlock (&job->lock);
  return ok;
}
