/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The element's GPU side: the device, its frames and the pool offered
 * upstream. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipgpu.h"
#include "gstvmafhippicture.h"

#include "errors.h"

#ifdef VH_HAVE_HIP
#include "gstvmafhipbufferpool.h"
#include "gstvmafhipcuda.h"
#include "gstvmafhipgsthip.h"
#include "gstvmafhipdevice.h"
#include "gstvmafhipmemory.h"
#include "gstvmafhipselftest.h"
#include "gstvmafhiputils.h"
#include "hip-features.h"
#endif

GST_DEBUG_CATEGORY_EXTERN (gst_vmaf_hip_compare_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_compare_debug

struct _GstVmafHipGpu
{
  GstElement *element;          /* not owned */
  /* The GPU, from start to stop (a GstVmafHipDevice shared with neighbours
   * through GstContext; NULL for the CPU). Under the element's object
   * lock. */
  GstObject *hip_device;
  /* Where features run, decided once at start, and the context's own
   * transfer to and from the device (NULL for the CPU). */
  VhBackend backends;
  VhPictureTransfer *transfer;
  gboolean hip_input;           /* some feature reads device pictures */
  gboolean warned_upload;       /* a failed upload was said (auto) */
  /* Frames in GStreamer's own HIP memory (libgsthip): read by device
   * address, and read through a CPU mapping (atomic; the stats). */
  gint gsthip_on_device;
  gint gsthip_mapped;
  gboolean warned_gsthip;       /* why they are mapped was said */
  /* What reading the frames cost, for the line at the end of a run. */
  GstVmafHipInputCost *cost;
  /* The twins and CPU classes contexts run: NULL for every twin, else a
   * set without those the self-test failed (self-test=true). */
  VhExtractorSet *extractors;
  /* Atomic: the GPU failed and scoring went over to the CPU (backend
   * auto): nothing more goes to the device, no HIP memory is offered,
   * later contexts run on the CPU. Set on the worker that saw the
   * failure; read by the streaming and upstream threads. */
  gint lost;
  /* The reference's pictures lately made, shared by the renditions scored
   * against them (RefEntry, oldest first; streaming thread), how many
   * renditions take each, and how many were made (atomic). */
  GQueue references;
  guint reference_users;
  gsize references_made;
};

typedef struct
{
  GstBuffer *buffer;            /* a reference held by @picture */
  VhPicture *picture;
  guint uses;
} RefEntry;

GstVmafHipGpu *
gst_vmaf_hip_gpu_new (GstElement * element)
{
  GstVmafHipGpu *gpu = g_new0 (GstVmafHipGpu, 1);

  gpu->element = element;
  gpu->backends = VH_BACKEND_CPU;
  gpu->cost = gst_vmaf_hip_input_cost_new ();
  return gpu;
}

static void
ref_entry_free (gpointer data)
{
  RefEntry *e = data;

  vh_picture_unref (e->picture);
  g_free (e);
}

void
gst_vmaf_hip_gpu_forget_references (GstVmafHipGpu * gpu, gboolean recount)
{
  g_queue_clear_full (&gpu->references, ref_entry_free);
  if (recount)
    g_atomic_pointer_set ((gpointer *) & gpu->references_made, NULL);
}

void
gst_vmaf_hip_gpu_free (GstVmafHipGpu * gpu)
{
  if (!gpu)
    return;
  gst_vmaf_hip_gpu_forget_references (gpu, FALSE);
  gst_clear_object (&gpu->hip_device);
  g_clear_pointer (&gpu->transfer, vh_picture_transfer_unref);
  g_clear_pointer (&gpu->extractors, vh_extractor_set_unref);
  gst_vmaf_hip_input_cost_free (gpu->cost);
  g_free (gpu);
}

static gboolean
is_lost (GstVmafHipGpu * gpu)
{
  return g_atomic_int_get (&gpu->lost);
}

VhBackend
gst_vmaf_hip_gpu_backends (GstVmafHipGpu * gpu)
{
  return is_lost (gpu) ? VH_BACKEND_CPU : gpu->backends;
}

gboolean
gst_vmaf_hip_gpu_reads_device (GstVmafHipGpu * gpu)
{
  return gpu->hip_input && !is_lost (gpu);
}

gpointer
gst_vmaf_hip_gpu_device_handle (GstVmafHipGpu * gpu)
{
#ifdef VH_HAVE_HIP
  if (gpu->hip_device && gpu->transfer && !is_lost (gpu))
    return gst_vmaf_hip_device_get_handle (GST_VMAF_HIP_DEVICE
        (gpu->hip_device));
#endif
  return NULL;
}

VhPictureTransfer *
gst_vmaf_hip_gpu_transfer (GstVmafHipGpu * gpu)
{
  return is_lost (gpu) ? NULL : gpu->transfer;
}

VhExtractorSet *
gst_vmaf_hip_gpu_extractors (GstVmafHipGpu * gpu)
{
  return gpu->extractors;
}

void
gst_vmaf_hip_gpu_use_context (GstVmafHipGpu * gpu, VhContext * ctx)
{
  gpu->hip_input = gpu->transfer && ctx && !is_lost (gpu) &&
      vh_context_uses_memory (ctx, VH_MEMORY_HIP_DEVICE);
}

static gboolean
ask_reallocation (GstElement * element, GstPad * pad, gpointer user_data)
{
  gst_pad_push_event (pad, gst_event_new_reconfigure ());
  return TRUE;
}

void
gst_vmaf_hip_gpu_fell_back (GstVmafHipGpu * gpu)
{
  if (!g_atomic_int_compare_and_exchange (&gpu->lost, 0, 1))
    return;
  /* Upstream asks for its allocation again and gets system memory: HIP
   * memory would keep the device in every frame's way (its pool
   * allocates device memory, a mapping may wait for a transfer). Frames
   * already in our memory are read from their host copy. */
  if (gpu->transfer)
    gst_element_foreach_sink_pad (gpu->element, ask_reallocation, NULL);
}

void
gst_vmaf_hip_gpu_reset_warnings (GstVmafHipGpu * gpu)
{
  gpu->warned_upload = FALSE;
  gpu->warned_gsthip = FALSE;
  g_atomic_int_set (&gpu->gsthip_on_device, 0);
  g_atomic_int_set (&gpu->gsthip_mapped, 0);
  gst_vmaf_hip_input_cost_reset (gpu->cost);
}

GstVmafHipInputCost *
gst_vmaf_hip_gpu_input_cost (GstVmafHipGpu * gpu)
{
  return gpu->cost;
}

void
gst_vmaf_hip_gpu_log_input_cost (GstVmafHipGpu * gpu)
{
  gchar *line = gst_vmaf_hip_input_cost_describe (gpu->cost);

  if (line)
    GST_INFO_OBJECT (gpu->element, "input cost: %s", line);
  g_free (line);
}

void
gst_vmaf_hip_gpu_add_counts (GstVmafHipGpu * gpu, GstStructure * s)
{
  gst_structure_set (s,
      "gst-hip-frames-on-device", G_TYPE_UINT,
      (guint) g_atomic_int_get (&gpu->gsthip_on_device),
      "gst-hip-frames-mapped", G_TYPE_UINT,
      (guint) g_atomic_int_get (&gpu->gsthip_mapped), NULL);
}

/* backend auto or hip: the device the pipeline shares (asked of the
 * neighbours and the application, else opened and announced). auto
 * without one goes on with the CPU, saying why; hip without one fails. */
gboolean
gst_vmaf_hip_gpu_open (GstVmafHipGpu * gpu, GstVmafHipBackend backend,
    gint device_id, gboolean self_test)
{
  GstElement *self = gpu->element;
  GError *err = NULL;

  gpu->backends = VH_BACKEND_CPU;
  g_atomic_int_set (&gpu->lost, 0);
  if (backend == GST_VMAF_HIP_BACKEND_CPU) {
#ifdef VH_HAVE_HIP
    if (self_test)
      gst_vmaf_hip_self_test_no_gpu (self, "backend=cpu");
#endif
    return TRUE;
  }
#ifdef VH_HAVE_HIP
  {
    /* Our own field: a neighbour's or the application's answer arrives
     * through set_context, on this thread, while it asks. */
    if (gst_vmaf_hip_ensure_element_device (self,
            GST_VMAF_HIP_VENDOR_UNKNOWN, device_id,
            (GstVmafHipDevice **) & gpu->hip_device, &err) &&
        vh_hip_use_device (gst_vmaf_hip_device_get_handle (GST_VMAF_HIP_DEVICE
                (gpu->hip_device)), &gpu->backends, &gpu->transfer, &err)) {
      if (self_test)
        gpu->extractors = gst_vmaf_hip_self_test (self, gpu->transfer);
      gst_vmaf_hip_cuda_post_context (self, GST_VMAF_HIP_DEVICE
          (gpu->hip_device));
      return TRUE;
    }
    gst_vmaf_hip_gpu_close (gpu);
  }
#else
  g_set_error (&err, VH_ERROR, VH_ERROR_BACKEND,
      "this build has no HIP layer");
#endif
  if (backend == GST_VMAF_HIP_BACKEND_HIP) {
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
        ("The HIP backend is not available: %s", err->message), (NULL));
    g_error_free (err);
    return FALSE;
  }
  GST_INFO_OBJECT (self, "backend auto: no usable GPU, features run on the "
      "CPU: %s", err->message);
#ifdef VH_HAVE_HIP
  if (self_test)
    gst_vmaf_hip_self_test_no_gpu (self, err->message);
#endif
  g_error_free (err);
  return TRUE;
}

void
gst_vmaf_hip_gpu_close (GstVmafHipGpu * gpu)
{
  GST_OBJECT_LOCK (gpu->element);
  gst_clear_object (&gpu->hip_device);
  GST_OBJECT_UNLOCK (gpu->element);
  g_clear_pointer (&gpu->transfer, vh_picture_transfer_unref);
  g_clear_pointer (&gpu->extractors, vh_extractor_set_unref);
  gpu->backends = VH_BACKEND_CPU;
  gpu->hip_input = FALSE;
}

#ifdef VH_HAVE_HIP
static GstVmafHipDevice *
hip_device (GstVmafHipGpu * gpu)
{
  return gpu->hip_device ? GST_VMAF_HIP_DEVICE (gpu->hip_device) : NULL;
}

/* Whether @buf is one frame in HIP memory of our device. */
static gboolean
buffer_is_hip (GstVmafHipGpu * gpu, GstBuffer * buf)
{
  GstMemory *mem;

  if (!gpu->hip_input || is_lost (gpu) || gst_buffer_n_memory (buf) != 1)
    return FALSE;
  mem = gst_buffer_peek_memory (buf, 0);
  return gst_is_vmaf_hip_memory (mem) &&
      gst_vmaf_hip_device_is_equal (GST_VMAF_HIP_MEMORY_CAST (mem)->device,
      hip_device (gpu));
}

/* The element's device for neighbours that ask for a CUDA context before
 * it started (they open when they go to READY, after us): opened now
 * unless backend=cpu. */
static GstVmafHipDevice *
device_for_cuda (GstVmafHipGpu * gpu, gboolean cpu_only)
{
  GstVmafHipDevice *device = NULL;
  GError *err = NULL;

  GST_OBJECT_LOCK (gpu->element);
  if (gpu->hip_device)
    device = GST_VMAF_HIP_DEVICE (gst_object_ref (gpu->hip_device));
  GST_OBJECT_UNLOCK (gpu->element);
  if (device || cpu_only)
    return device;
  if (!gst_vmaf_hip_ensure_element_device (gpu->element,
          GST_VMAF_HIP_VENDOR_UNKNOWN, -1, &device, &err)) {
    GST_INFO_OBJECT (gpu->element, "no GPU to offer a CUDA context: %s",
        err->message);
    g_error_free (err);
    return NULL;
  }
  GST_OBJECT_LOCK (gpu->element);
  if (!gpu->hip_device)
    gpu->hip_device = gst_object_ref (GST_OBJECT (device));
  GST_OBJECT_UNLOCK (gpu->element);
  return device;
}
#endif

#ifdef VH_HAVE_HIP
/* A frame written on the CPU into our HIP memory keeps it in its
 * page-locked host copy: the engine gets that copy with the device
 * picture, so that CPU features read it without a download, and a frame
 * in flight when the GPU fails is still scored on the CPU (a download
 * would fail with the device). Frames written on the device have no
 * such copy. */
static void
attach_host_copy (GstVmafHipGpu * gpu, const GstVideoInfo * vinfo,
    GstBuffer * buf, VhPicture * pic)
{
  VhPicture *host;

  if (!gst_vmaf_hip_memory_host_is_current (GST_VMAF_HIP_MEMORY_CAST
          (gst_buffer_peek_memory (buf, 0))))
    return;
  host = gst_vmaf_hip_picture_wrap_host_copy (vinfo, buf);
  if (!host)
    return;
  /* as the engine's own download would have made it (picture.h) */
  pic->twin = host;
  pic->twin_transfer = gpu->transfer;
}
#endif

#ifdef VH_HAVE_HIP
/* GStreamer's HIP memory on our device, on its pad's streaming thread as
 * it arrives: libgsthip copies what the CPU wrote into it (hipupload) to
 * the device, and waits for that copy, when it is first mapped for its
 * device address; a producer on the device leaves an event that
 * gst_hip_memory_sync() waits for. Done here, each input waits on its own
 * thread while the pair before is scored, instead of each frame in turn on
 * the aggregating thread. */
static GstPadProbeReturn
prepare_arriving (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstVmafHipGpu *gpu = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstObject *device = NULL;
  const gchar *why_not;
  gint64 since;

  if (!gpu->hip_input || is_lost (gpu) ||
      !gst_vmaf_hip_gsthip_buffer_is_gsthip (buf))
    return GST_PAD_PROBE_OK;
  /* the device goes at stop, from another thread */
  GST_OBJECT_LOCK (gpu->element);
  if (gpu->hip_device)
    device = gst_object_ref (gpu->hip_device);
  GST_OBJECT_UNLOCK (gpu->element);
  since = gst_vmaf_hip_input_cost_now ();
  if (device && gst_vmaf_hip_gsthip_buffer_is_ours (buf,
          GST_VMAF_HIP_DEVICE (device), &why_not) &&
      gst_vmaf_hip_gsthip_buffer_make_ready (buf))
    gst_vmaf_hip_input_cost_add (gpu->cost,
        GST_VMAF_HIP_INPUT_STEP_GSTHIP_EARLY, since);
  gst_clear_object (&device);
  return GST_PAD_PROBE_OK;
}
#endif

void
gst_vmaf_hip_gpu_watch_arrivals (GstVmafHipGpu * gpu, GstPad * pad)
{
#ifdef VH_HAVE_HIP
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, prepare_arriving, gpu,
      NULL);
#endif
}

/* A frame written on the CPU into HIP memory (our pool, offered upstream)
 * starts its copy to the device now, from page-locked memory, without
 * waiting. */
void
gst_vmaf_hip_gpu_start_upload (GstVmafHipGpu * gpu, GstBuffer * buf)
{
#ifdef VH_HAVE_HIP
  GError *err = NULL;
  gint64 since = gst_vmaf_hip_input_cost_now ();

  if (!buffer_is_hip (gpu, buf))
    return;
  if (!gst_vmaf_hip_memory_upload_async (GST_VMAF_HIP_MEMORY_CAST
          (gst_buffer_peek_memory (buf, 0)), &err)) {
    GST_WARNING_OBJECT (gpu->element, "upload failed, reading on the CPU: %s",
        err->message);
    g_error_free (err);
  }
  gst_vmaf_hip_input_cost_add (gpu->cost,
      GST_VMAF_HIP_INPUT_STEP_OWN_HIP_UPLOAD, since);
#endif
}

/* A frame read through its CPU mapping. */
static VhPicture *
wrap_host (GstVmafHipGpu * gpu, const GstVideoInfo * vinfo, GstBuffer * buf,
    GError ** error)
{
  gint64 since = gst_vmaf_hip_input_cost_now ();
  VhPicture *pic = gst_vmaf_hip_picture_wrap (vinfo, buf, error);

  if (pic)
    gst_vmaf_hip_input_cost_add (gpu->cost, GST_VMAF_HIP_INPUT_STEP_HOST,
        since);
  return pic;
}

VhPicture *
gst_vmaf_hip_gpu_wrap_input (GstVmafHipGpu * gpu, VhContext * ctx,
    GstVmafHipBackend backend, const GstVideoInfo * vinfo, GstBuffer * buf,
    GError ** error)
{
#ifdef VH_HAVE_HIP
  gint64 since = gst_vmaf_hip_input_cost_now ();

  /* After a fall-back to the CPU, frames are read on the CPU. */
  if (buffer_is_hip (gpu, buf) && !vh_context_on_cpu (ctx)) {
    GError *err = NULL;
    VhHipEvent *ready = NULL;
    VhPicture *pic = gst_vmaf_hip_memory_prepare_device
        (GST_VMAF_HIP_MEMORY_CAST (gst_buffer_peek_memory (buf, 0)), &ready,
        &err) ? gst_vmaf_hip_picture_wrap_device (vinfo, buf, ready, &err) :
        NULL;

    if (pic) {
      attach_host_copy (gpu, vinfo, buf, pic);
      gst_vmaf_hip_input_cost_add (gpu->cost,
          GST_VMAF_HIP_INPUT_STEP_OWN_HIP, since);
      return pic;
    }
    /* Its upload failed: with backend=auto the frame is read on the CPU
     * (from the page-locked copy it was uploaded from), said once; else
     * the error names the device and the call. */
    if (err && backend != GST_VMAF_HIP_BACKEND_AUTO) {
      g_prefix_error (&err, "its upload to the GPU: ");
      g_propagate_error (error, err);
      return NULL;
    }
    if (err) {
      if (!gpu->warned_upload)
        GST_ELEMENT_WARNING (gpu->element, RESOURCE, FAILED, ("A frame's "
                "upload to the GPU failed: it is read on the CPU: %s.",
                err->message), ("backend=auto"));
      gpu->warned_upload = TRUE;
      g_error_free (err);
      return gst_vmaf_hip_picture_wrap (vinfo, buf, error);
    }
  }
  /* GStreamer's own HIP memory on our device: its device address, after
   * its producer's work on it (libgsthip's sync). Both are quick when the
   * frame was made ready on its pad's thread (prepare_arriving()). */
  if (gpu->hip_input && !is_lost (gpu) && !vh_context_on_cpu (ctx)) {
    const gchar *why_not = NULL;

    if (gst_vmaf_hip_gsthip_buffer_is_ours (buf, hip_device (gpu),
            &why_not)) {
      VhPicture *pic = gst_vmaf_hip_picture_wrap_device_mapped (vinfo, buf,
          gst_vmaf_hip_gsthip_map_flags (), NULL);

      if (pic) {
        gst_vmaf_hip_input_cost_add (gpu->cost,
            GST_VMAF_HIP_INPUT_STEP_GSTHIP_MAP, since);
        since = gst_vmaf_hip_input_cost_now ();
        gst_vmaf_hip_gsthip_buffer_sync (buf);
        gst_vmaf_hip_input_cost_add (gpu->cost,
            GST_VMAF_HIP_INPUT_STEP_GSTHIP_SYNC, since);
        g_atomic_int_inc (&gpu->gsthip_on_device);
        return pic;
      }
      why_not = "a layout the GPU features cannot read in place";
    }
    if (why_not && !gpu->warned_gsthip) {
      GST_INFO_OBJECT (gpu->element, "frames in GStreamer's HIP memory are "
          "read through their CPU mapping: %s", why_not);
      gpu->warned_gsthip = TRUE;
    }
  }
  /* CUDA memory: its device address, never a copy in system memory. */
  if (gst_vmaf_hip_cuda_buffer_is_ours (buf, hip_device (gpu), error)) {
    VhPicture *pic = gst_vmaf_hip_picture_wrap_device_mapped (vinfo, buf,
        gst_vmaf_hip_cuda_map_flags (), error);

    /* Our streams are not ordered after the producer's; after the
     * mapping, which may itself queue an upload on the producer's. */
    if (pic) {
      gst_vmaf_hip_cuda_buffer_sync (buf);
      gst_vmaf_hip_input_cost_add (gpu->cost, GST_VMAF_HIP_INPUT_STEP_CUDA,
          since);
    }
    if (!pic && error && !*error)
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "a frame in CUDA memory with a layout the GPU features cannot "
          "read in place: put cudadownload before the element");
    return pic;
  }
  if (error && *error)
    return NULL;
  if (gst_vmaf_hip_gsthip_buffer_is_gsthip (buf))
    g_atomic_int_inc (&gpu->gsthip_mapped);
#endif
  return wrap_host (gpu, vinfo, buf, error);
}

VhPicture *
gst_vmaf_hip_gpu_wrap_device_only (GstVmafHipGpu * gpu,
    const GstVideoInfo * vinfo, GstBuffer * buf)
{
#ifdef VH_HAVE_HIP
  GstVmafHipMemory *mem;
  VhHipEvent *ready = NULL;
  VhPicture *pic;
  const gchar *why_not;

  if (!gpu->hip_device || !gpu->transfer || is_lost (gpu) ||
      gst_buffer_n_memory (buf) != 1)
    return NULL;
  if (gst_is_vmaf_hip_memory (gst_buffer_peek_memory (buf, 0))) {
    mem = GST_VMAF_HIP_MEMORY_CAST (gst_buffer_peek_memory (buf, 0));
    if (!gst_vmaf_hip_device_is_equal (mem->device, hip_device (gpu)) ||
        !gst_vmaf_hip_memory_prepare_device (mem, &ready, NULL))
      return NULL;
    return gst_vmaf_hip_picture_wrap_device (vinfo, buf, ready, NULL);
  }
  /* GStreamer's HIP memory and CUDA memory on our device: by device
   * address too (reading them on the CPU downloads the whole frame), once
   * their producer's work on them is done. */
  if (gst_vmaf_hip_gsthip_buffer_is_ours (buf, hip_device (gpu), &why_not)) {
    pic = gst_vmaf_hip_picture_wrap_device_mapped (vinfo, buf,
        gst_vmaf_hip_gsthip_map_flags (), NULL);
    if (pic)
      gst_vmaf_hip_gsthip_buffer_sync (buf);
    return pic;
  }
  if (gst_vmaf_hip_cuda_buffer_is_ours (buf, hip_device (gpu), NULL)) {
    pic = gst_vmaf_hip_picture_wrap_device_mapped (vinfo, buf,
        gst_vmaf_hip_cuda_map_flags (), NULL);
    if (pic)
      gst_vmaf_hip_cuda_buffer_sync (buf);
    return pic;
  }
  return NULL;
#else
  return NULL;
#endif
}

void
gst_vmaf_hip_gpu_set_reference_users (GstVmafHipGpu * gpu, guint users)
{
  gpu->reference_users = users;
}

/* Kept until every rendition took it, or until this many newer ones came
 * (a rendition that ended, or runs behind). */
#define MAX_REFERENCES_KEPT(users) (4 + 4 * (users))

VhPicture *
gst_vmaf_hip_gpu_wrap_reference (GstVmafHipGpu * gpu, VhContext * ctx,
    GstVmafHipBackend backend, const GstVideoInfo * vinfo, GstBuffer * buf,
    GError ** error)
{
  RefEntry *e;
  VhPicture *pic;

  /* The buffer is held by its entry's picture: no other frame takes its
   * address meanwhile. */
  for (GList * l = gpu->references.head; l; l = l->next) {
    e = l->data;
    if (e->buffer != buf)
      continue;
    pic = vh_picture_ref (e->picture);
    if (++e->uses >= gpu->reference_users) {
      g_queue_delete_link (&gpu->references, l);
      ref_entry_free (e);
    }
    return pic;
  }
  pic = gst_vmaf_hip_gpu_wrap_input (gpu, ctx, backend, vinfo, buf, error);
  if (!pic)
    return NULL;
  g_atomic_pointer_add (&gpu->references_made, 1);
  if (gpu->reference_users > 1) {
    e = g_new0 (RefEntry, 1);
    e->buffer = buf;
    e->picture = vh_picture_ref (pic);
    e->uses = 1;
    g_queue_push_tail (&gpu->references, e);
    while (gpu->references.length > MAX_REFERENCES_KEPT
        (gpu->reference_users))
      ref_entry_free (g_queue_pop_head (&gpu->references));
  }
  return pic;
}

guint64
gst_vmaf_hip_gpu_references_made (GstVmafHipGpu * gpu)
{
  return (guint64) g_atomic_pointer_get (&gpu->references_made);
}

/* Offers upstream a pool of HIP memory when features run on the GPU:
 * frames written by the CPU land in page-locked memory and go to the
 * device asynchronously (gst_vmaf_hip_gpu_start_upload), HIP producers
 * write in place.
 * Producers are told how many frames the element may hold (@held): their
 * pools (ours, or gst-cuda's for CUDA producers) are made at the start
 * instead of growing, a device allocation at a time, while the first
 * frames go through (a live pipeline's first frames then came late, and a
 * short run lost a fifth of its rate). */
void
gst_vmaf_hip_gpu_propose_allocation (GstVmafHipGpu * gpu, GstQuery * query,
    guint held)
{
#ifdef VH_HAVE_HIP
  GstCaps *caps = NULL;
  gboolean need_pool = FALSE;
  GstVideoInfo info, layout;
  gboolean hip_input = gpu->hip_input && !is_lost (gpu);

  gst_query_parse_allocation (query, &caps, &need_pool);
  /* CUDA producers use their own pools (in our CUDA context): only the
   * number of buffers. */
  if (hip_input && caps && gst_vmaf_hip_cuda_caps (caps) &&
      gst_video_info_from_caps (&info, caps)) {
    gst_query_add_allocation_pool (query, NULL, info.size, held, 0);
  } else if (hip_input && caps && need_pool &&
      gst_video_info_from_caps (&info, caps)) {
    GstVmafHipDevice *device = hip_device (gpu);
    GstBufferPool *pool = gst_vmaf_hip_buffer_pool_new (device);
    GstStructure *config = gst_buffer_pool_get_config (pool);

    gst_vmaf_hip_memory_layout (device, &info, &layout);
    gst_buffer_pool_config_set_params (config, caps, layout.size, held, 0);
    if (gst_buffer_pool_set_config (pool, config))
      gst_query_add_allocation_pool (query, pool, layout.size, held, 0);
    else
      GST_WARNING_OBJECT (gpu->element, "HIP pool refused %" GST_PTR_FORMAT,
          caps);
    gst_object_unref (pool);
  }
#endif
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
}

/* The GPU features' kernel modules, loaded before the first frame, which
 * for a live source comes after the clock runs: loading them on the first
 * frame made the first frames late when many processes opened the GPU at
 * once. A failure here is left to the features'
 * own start, which reports it. */
void
gst_vmaf_hip_gpu_preload_kernels (GstVmafHipGpu * gpu, VhContext * ctx)
{
#ifdef VH_HAVE_HIP
  GPtrArray *classes;
  GError *err = NULL;

  if (!gpu->transfer)
    return;
  classes = vh_context_get_classes (ctx, VH_BACKEND_HIP);
  if (!vh_hip_features_preload (gst_vmaf_hip_device_get_handle (hip_device
              (gpu)), classes, &err)) {
    GST_WARNING_OBJECT (gpu->element, "kernels not loaded ahead: %s",
        err->message);
    g_error_free (err);
  } else {
    GST_DEBUG_OBJECT (gpu->element, "kernel modules of %u features loaded",
        classes->len);
  }
  g_ptr_array_unref (classes);
#endif
}

void
gst_vmaf_hip_gpu_set_context (GstVmafHipGpu * gpu, GstContext * context,
    gint device_id)
{
#ifdef VH_HAVE_HIP
  GST_OBJECT_LOCK (gpu->element);
  gst_vmaf_hip_handle_set_context (gpu->element, context,
      GST_VMAF_HIP_VENDOR_UNKNOWN, device_id,
      (GstVmafHipDevice **) & gpu->hip_device);
  GST_OBJECT_UNLOCK (gpu->element);
#endif
}

gboolean
gst_vmaf_hip_gpu_context_query (GstVmafHipGpu * gpu, GstQuery * query,
    gboolean cpu_only)
{
#ifdef VH_HAVE_HIP
  const gchar *type = NULL;
  gboolean ret;

  gst_query_parse_context_type (query, &type);
  if (g_strcmp0 (type, "gst.cuda.context") == 0) {
    GstVmafHipDevice *device = device_for_cuda (gpu, cpu_only);
    ret = gst_vmaf_hip_cuda_handle_context_query (gpu->element, query,
        device);
    gst_clear_object (&device);
    if (ret)
      return TRUE;
  }
  GST_OBJECT_LOCK (gpu->element);
  ret = gst_vmaf_hip_handle_context_query (gpu->element, query,
      (GstVmafHipDevice *) gpu->hip_device);
  GST_OBJECT_UNLOCK (gpu->element);
  return ret;
#else
  return FALSE;
#endif
}

gboolean
gst_vmaf_hip_gpu_caps_usable (GstVmafHipGpu * gpu, GstCaps * caps,
    gboolean cpu_only, const gchar * pad_name, GError ** error)
{
#ifdef VH_HAVE_HIP
  if (gst_vmaf_hip_cuda_caps (caps)) {
    GstVmafHipDevice *device = device_for_cuda (gpu, cpu_only);
    gboolean ok = gst_vmaf_hip_cuda_usable (device, error);

    if (!ok)
      g_prefix_error (error, "%s: ", pad_name);
    gst_clear_object (&device);
    return ok;
  }
#endif
  return TRUE;
}
