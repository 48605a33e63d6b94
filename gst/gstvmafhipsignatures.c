/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* align=content: frames' signatures, off the element's locks. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipsignatures.h"
#include "gstvmafhippicture.h"
#include "errors.h"

#ifdef VH_HAVE_HIP
#include "hip-frame-probe.h"
#endif

GST_DEBUG_CATEGORY_EXTERN (gst_vmaf_hip_compare_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_compare_debug

/* Workers per element: a signature costs a fraction of a frame's time
 * on one core, and two inputs' frames come at once. */
#define MAX_WORKERS 2

/* Signatures that read at most this many luma samples are computed on
 * the caller's thread: handing a frame to a worker (a queue, a wake-up,
 * a wait) costs more than reading a small one (576x324: 17% of the
 * element's rate with features=psnr on two cores, 8% inline); 1080p
 * reads 522,240. */
#define MAX_INLINE_SAMPLES (256 * 1024)

struct _GstVmafHipSignatures
{
  GstElement *element;          /* not owned */
  GThreadPool *pool;
  GstVmafHipGpu *gpu;           /* not owned; NULL: none */
#ifdef VH_HAVE_HIP
  /* The GPU's probe (made at the first frame in GPU memory) and whether
   * it failed (then such frames are read on the CPU); every use of the
   * probe and its tickets under @probe_lock. */
  GMutex probe_lock;
  VhHipFrameProbe *probe;
  gboolean probe_failed;
#endif
};

struct _GstVmafHipSignatureJob
{
  gint ref_count;
  GstVmafHipSignatures *owner;  /* not owned: outlives its jobs */
  GMutex lock;
  GCond cond;
  /* Under @lock: */
  gboolean done;
  VhAlignSignature sig;
  GError *error;
  /* A worker's: the frame until computed. */
  GstVideoInfo info;
  GstBuffer *buffer;
#ifdef VH_HAVE_HIP
  /* The GPU's: its ticket until collected, and the luma's geometry. */
  VhHipProbeTicket *ticket;
  guint width, height, bpc;
#endif
};

static GstVmafHipSignatureJob *
job_new (GstVmafHipSignatures * sigs, gint refs)
{
  GstVmafHipSignatureJob *job = g_new0 (GstVmafHipSignatureJob, 1);

  job->ref_count = refs;
  job->owner = sigs;
  g_mutex_init (&job->lock);
  g_cond_init (&job->cond);
  return job;
}

/* Under @job's lock. */
static void
job_finish (GstVmafHipSignatureJob * job, GError * error)
{
  job->error = error;
  job->done = TRUE;
  g_cond_broadcast (&job->cond);
}

static void
compute (gpointer data, gpointer user_data)
{
  GstVmafHipSignatureJob *job = data;
  GError *err = NULL;
  VhAlignSignature sig;
  VhPicture *pic;
  GstBuffer *buffer;

  /* Whoever takes the frame computes it: a worker, or the caller when no
   * worker could start (the job is queued all the same). */
  do
    buffer = g_atomic_pointer_get (&job->buffer);
  while (buffer && !g_atomic_pointer_compare_and_exchange (&job->buffer,
          buffer, NULL));
  if (!buffer) {
    gst_vmaf_hip_signature_job_unref (job);
    return;
  }
  pic = gst_vmaf_hip_picture_wrap (&job->info, buffer, &err);
  if (pic) {
    vh_align_signature_compute (pic, &sig, &err);
    vh_picture_unref (pic);
  }
  gst_buffer_unref (buffer);
  g_mutex_lock (&job->lock);
  if (!err)
    job->sig = sig;
  job_finish (job, err);
  g_mutex_unlock (&job->lock);
  gst_vmaf_hip_signature_job_unref (job);
}

GstVmafHipSignatures *
gst_vmaf_hip_signatures_new (GstElement * element)
{
  GstVmafHipSignatures *sigs = g_new0 (GstVmafHipSignatures, 1);
  guint workers = CLAMP (g_get_num_processors () / 2, 1, MAX_WORKERS);

  sigs->element = element;
  /* shared threads (a push may yet fail to start one: see start) */
  sigs->pool = g_thread_pool_new (compute, NULL, (gint) workers, FALSE, NULL);
#ifdef VH_HAVE_HIP
  g_mutex_init (&sigs->probe_lock);
#endif
  return sigs;
}

void
gst_vmaf_hip_signatures_reset (GstVmafHipSignatures * sigs,
    GstVmafHipGpu * gpu)
{
#ifdef VH_HAVE_HIP
  g_mutex_lock (&sigs->probe_lock);
  g_clear_pointer (&sigs->probe, vh_hip_frame_probe_free);
  sigs->probe_failed = FALSE;
  g_mutex_unlock (&sigs->probe_lock);
#endif
  sigs->gpu = gpu;
}

void
gst_vmaf_hip_signatures_free (GstVmafHipSignatures * sigs)
{
  if (!sigs)
    return;
  g_thread_pool_free (sigs->pool, FALSE, TRUE);
  gst_vmaf_hip_signatures_reset (sigs, NULL);
#ifdef VH_HAVE_HIP
  g_mutex_clear (&sigs->probe_lock);
#endif
  g_free (sigs);
}

#ifdef VH_HAVE_HIP
/* A frame in the GPU's memory (only there, or a host copy too): its block
 * sums queued there, or NULL to read it on the CPU. */
static GstVmafHipSignatureJob *
start_on_gpu (GstVmafHipSignatures * sigs, const GstVideoInfo * info,
    GstBuffer * buffer)
{
  GstVmafHipSignatureJob *job = NULL;
  VhHipProbeTicket *ticket = NULL;
  gpointer device;
  VhPicture *pic;
  GError *err = NULL;

  if (!sigs->gpu)
    return NULL;
  pic = gst_vmaf_hip_gpu_wrap_device_only (sigs->gpu, info, buffer);
  /* NULL too after a fall-back to the CPU */
  device = gst_vmaf_hip_gpu_device_handle (sigs->gpu);
  if (!pic || !device) {
    g_clear_pointer (&pic, vh_picture_unref);
    return NULL;
  }
  g_mutex_lock (&sigs->probe_lock);
  if (!sigs->probe_failed) {
    if (!sigs->probe)
      sigs->probe = vh_hip_frame_probe_new (device, &err);
    if (sigs->probe)
      ticket = vh_hip_frame_probe_signature (sigs->probe, pic, &err);
    /* too small a frame is said as on the CPU; anything else leaves the
     * GPU out from now on */
    if (!ticket && !g_error_matches (err, VH_ERROR, VH_ERROR_TOO_SMALL)) {
      GST_WARNING_OBJECT (sigs->element, "alignment signatures on the GPU "
          "failed, computed on the CPU from now on: %s", err->message);
      sigs->probe_failed = TRUE;
    }
  }
  g_mutex_unlock (&sigs->probe_lock);
  g_clear_error (&err);
  if (ticket) {
    job = job_new (sigs, 1);
    job->ticket = ticket;
    job->width = pic->width[0];
    job->height = pic->height[0];
    job->bpc = pic->info.bpc;
  }
  vh_picture_unref (pic);
  return job;
}

/* Under @job's lock: its sums, once the GPU wrote them (waiting for them
 * if they are not there yet). */
static void
collect (GstVmafHipSignatureJob * job)
{
  GstVmafHipSignatures *sigs = job->owner;
  guint64 sums[VH_HIP_PROBE_CELLS];
  GError *err = NULL;
  gboolean ok;

  G_STATIC_ASSERT (VH_HIP_PROBE_CELLS == VH_ALIGN_CELLS);
  g_mutex_lock (&sigs->probe_lock);
  ok = vh_hip_probe_ticket_collect_signature (job->ticket, sums, &err);
  job->ticket = NULL;
  g_mutex_unlock (&sigs->probe_lock);
  if (ok)
    vh_align_signature_from_sums (sums, job->width, job->height, job->bpc,
        &job->sig, &err);
  job_finish (job, err);
}
#endif

GstVmafHipSignatureJob *
gst_vmaf_hip_signatures_start (GstVmafHipSignatures * sigs,
    const GstVideoInfo * info, GstBuffer * buffer)
{
  gboolean system_memory = gst_vmaf_hip_buffer_is_system_memory (buffer);
  GstVmafHipSignatureJob *job;
  GError *err = NULL;

#ifdef VH_HAVE_HIP
  if (!system_memory && (job = start_on_gpu (sigs, info, buffer)))
    return job;
#endif
  /* one reference for the caller, one for the worker */
  job = job_new (sigs, 2);
  job->info = *info;
  job->buffer = gst_buffer_ref (buffer);
  /* Small frames here; so too frames in memory of another kind, read
   * through a CPU mapping (which may download them), and failing with
   * the reason when they cannot be. */
  if (!system_memory || vh_align_signature_samples_read
      (GST_VIDEO_INFO_COMP_WIDTH (info, 0), GST_VIDEO_INFO_COMP_HEIGHT (info,
              0)) <= MAX_INLINE_SAMPLES) {
    compute (job, NULL);
    return job;
  }
  if (!g_thread_pool_push (sigs->pool, job, &err)) {
    /* Queued all the same, for a worker that may never come: computed
     * here (a worker that comes later finds nothing to do). */
    GST_WARNING_OBJECT (sigs->element, "no worker for alignment "
        "signatures, computed on the pad's thread: %s", err->message);
    g_error_free (err);
    gst_vmaf_hip_signature_job_ref (job);
    compute (job, NULL);
  }
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
#ifdef VH_HAVE_HIP
  if (job->ticket) {
    g_mutex_lock (&job->owner->probe_lock);
    vh_hip_probe_ticket_discard (job->ticket);
    g_mutex_unlock (&job->owner->probe_lock);
  }
#endif
  gst_clear_buffer (&job->buffer);
  g_clear_error (&job->error);
  g_mutex_clear (&job->lock);
  g_cond_clear (&job->cond);
  g_free (job);
}

gboolean
gst_vmaf_hip_signature_job_done (GstVmafHipSignatureJob * job)
{
  gboolean done;

  g_mutex_lock (&job->lock);
  done = job->done;
#ifdef VH_HAVE_HIP
  done = done || (job->ticket && vh_hip_probe_ticket_ready (job->ticket));
#endif
  g_mutex_unlock (&job->lock);
  return done;
}

gboolean
gst_vmaf_hip_signature_job_take (GstVmafHipSignatureJob * job,
    VhAlignSignature * sig, GError ** error)
{
  gboolean ok;

  g_mutex_lock (&job->lock);
#ifdef VH_HAVE_HIP
  if (job->ticket)
    collect (job);
#endif
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
