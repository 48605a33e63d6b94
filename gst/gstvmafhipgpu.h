/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_GPU_H__
#define __GST_VMAF_HIP_GPU_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "context.h"
#include "extractor-set.h"
#include "picture.h"
#include "picture-transfer.h"
#include "gstvmafhipenums.h"
#include "gstvmafhipinputcost.h"

G_BEGIN_DECLS

/**
 * GstVmafHipGpu:
 *
 * The element's GPU side: the HIP device it shares with the pipeline
 * (through GstContext), where the features run (decided once a run, when
 * the device opens) and the context's transfer, the memory offered
 * upstream (a HIP pool, or the size of a CUDA producer's), the CUDA and
 * HIP context queries, and the input frames' way onto the device. Without
 * the HIP layer, the CPU alone. Knows nothing of the element's other
 * parts: what it needs of the run (its context) is handed in.
 *
 * Runs on the streaming thread, except the device field, which
 * neighbours read and set under the element's object lock.
 */
typedef struct _GstVmafHipGpu GstVmafHipGpu;

/* @element: the element it speaks for (errors, context queries), not
 * owned. */
GstVmafHipGpu *gst_vmaf_hip_gpu_new       (GstElement * element);

void         gst_vmaf_hip_gpu_free        (GstVmafHipGpu * gpu);

/* backend auto or hip: opens the device the pipeline shares (or the one
 * @device_id names). auto without one goes on with the CPU, saying why;
 * hip without one fails with an element error. */
gboolean     gst_vmaf_hip_gpu_open        (GstVmafHipGpu * gpu,
                                           GstVmafHipBackend backend,
                                           gint device_id,
                                           gboolean self_test);

void         gst_vmaf_hip_gpu_close       (GstVmafHipGpu * gpu);

/* The open device's VhHipDevice, for work of the element's own on it (the
 * scale property's GPU twin); NULL on the CPU and after a fall-back. */
gpointer     gst_vmaf_hip_gpu_device_handle (GstVmafHipGpu * gpu);
/* Adds to @s (the stats) how many frames in GStreamer's own HIP memory
 * (libgsthip) were read by device address ("gst-hip-frames-on-device")
 * and through a CPU mapping ("gst-hip-frames-mapped"), since start. */
void         gst_vmaf_hip_gpu_add_counts  (GstVmafHipGpu * gpu,
                                           GstStructure * s);

/* Whether some feature of the run reads device pictures (and the GPU did
 * not fail): frames are best brought to the device. */
gboolean     gst_vmaf_hip_gpu_reads_device (GstVmafHipGpu * gpu);

/* What gst_vmaf_hip_gpu_open() decided, for the scoring context. */
VhBackend    gst_vmaf_hip_gpu_backends    (GstVmafHipGpu * gpu);

VhPictureTransfer *gst_vmaf_hip_gpu_transfer (GstVmafHipGpu * gpu);

/* The classes contexts may run: NULL (every twin) unless the self-test
 * failed some, which then run on the CPU. */
VhExtractorSet *gst_vmaf_hip_gpu_extractors (GstVmafHipGpu * gpu);

/* Whether some feature of @ctx reads device pictures: then HIP memory is
 * offered upstream and read in place. Again after a fall-back to the CPU. */
void         gst_vmaf_hip_gpu_use_context (GstVmafHipGpu * gpu,
                                           VhContext * ctx);

/* backend=auto: the GPU failed and the engine went over to the CPU (any
 * thread). From now on nothing more goes to the device: no upload, no HIP
 * memory offered (upstream is asked to reallocate), frames in our HIP
 * memory are read from their host copy, later contexts run on the CPU
 * (gst_vmaf_hip_gpu_backends()). Until the device opens again. */
void         gst_vmaf_hip_gpu_fell_back   (GstVmafHipGpu * gpu);

/* A new run or a flush: a failed upload is said again, the counts and
 * the input cost start again. */
void         gst_vmaf_hip_gpu_reset_warnings (GstVmafHipGpu * gpu);

/* Watches the frames arriving on @pad (a sink pad, before the pairing
 * sees them): a frame in GStreamer's own HIP memory (libgsthip) is made
 * ready for the device there, on the pad's streaming thread, while the
 * pair before is scored (gst_vmaf_hip_gsthip_buffer_make_ready()). */
void         gst_vmaf_hip_gpu_watch_arrivals (GstVmafHipGpu * gpu,
                                             GstPad * pad);

/* What reading the frames costs this run (start to stop; a flush starts
 * it again), and its line said at INFO level (at the end of a run). */
GstVmafHipInputCost *gst_vmaf_hip_gpu_input_cost (GstVmafHipGpu * gpu);
void         gst_vmaf_hip_gpu_log_input_cost (GstVmafHipGpu * gpu);

/* A frame written on the CPU into our HIP memory starts its copy to the
 * device now, without waiting. */
void         gst_vmaf_hip_gpu_start_upload (GstVmafHipGpu * gpu,
                                           GstBuffer * buf);

/* The engine's picture of @buf for @ctx: in device memory when it is HIP
 * or CUDA memory the GPU features read, else in host memory. @backend:
 * the run's (auto reads a frame whose upload failed on the CPU). */
VhPicture   *gst_vmaf_hip_gpu_wrap_input  (GstVmafHipGpu * gpu,
                                           VhContext * ctx,
                                           GstVmafHipBackend backend,
                                           const GstVideoInfo * vinfo,
                                           GstBuffer * buf, GError ** error);

/* gst_vmaf_hip_gpu_wrap_input() for a reference frame that @users
 * renditions are scored against (gst_vmaf_hip_gpu_set_reference_users()):
 * its picture is made once and handed to each, so that it is prepared and
 * uploaded once for all of them. Streaming thread. */
VhPicture   *gst_vmaf_hip_gpu_wrap_reference (GstVmafHipGpu * gpu,
                                           VhContext * ctx,
                                           GstVmafHipBackend backend,
                                           const GstVideoInfo * vinfo,
                                           GstBuffer * buf, GError ** error);

/* @buf's frame as a picture in GPU memory when it is on the element's
 * device (our HIP memory, a host copy newer than the device's uploaded
 * first, which scoring on the GPU needs anyway; GStreamer's HIP memory or
 * CUDA memory, by device address once their producer is done), for
 * reading it on the GPU: a probe costs the calling thread a few calls
 * where reading it on the CPU reads the whole frame, and a frame only on
 * the device needs no download. NULL otherwise (read it on the CPU). Any
 * thread. */
VhPicture   *gst_vmaf_hip_gpu_wrap_device_only (GstVmafHipGpu * gpu,
                                           const GstVideoInfo * vinfo,
                                           GstBuffer * buf);

void         gst_vmaf_hip_gpu_set_reference_users (GstVmafHipGpu * gpu,
                                           guint users);

/* Drops the reference pictures kept (start, flush, stop); @recount: the
 * count of pictures made starts again. */
void         gst_vmaf_hip_gpu_forget_references (GstVmafHipGpu * gpu,
                                           gboolean recount);

/* Reference pictures made since start: one per reference frame scored,
 * whatever the number of renditions (any thread). */
guint64      gst_vmaf_hip_gpu_references_made (GstVmafHipGpu * gpu);

/* Answers an allocation query from upstream: a HIP pool of @held buffers
 * when features read device pictures (or, for CUDA producers, @held), and
 * the video meta. */
void         gst_vmaf_hip_gpu_propose_allocation (GstVmafHipGpu * gpu,
                                           GstQuery * query, guint held);

/* Loads the kernel modules of @ctx's GPU features ahead of the first
 * frame. */
void         gst_vmaf_hip_gpu_preload_kernels (GstVmafHipGpu * gpu,
                                           VhContext * ctx);

/* GstElement.set_context: a device shared by a neighbour or the
 * application. */
void         gst_vmaf_hip_gpu_set_context (GstVmafHipGpu * gpu,
                                           GstContext * context,
                                           gint device_id);

/* Context queries from upstream (CUDA context, HIP device); FALSE if not
 * answered. @cpu_only: backend=cpu, no device is opened for them. */
gboolean     gst_vmaf_hip_gpu_context_query (GstVmafHipGpu * gpu,
                                           GstQuery * query,
                                           gboolean cpu_only);

/* Whether caps in CUDA memory can be read in place (other caps: TRUE).
 * @pad_name prefixes the error. */
gboolean     gst_vmaf_hip_gpu_caps_usable (GstVmafHipGpu * gpu,
                                           GstCaps * caps, gboolean cpu_only,
                                           const gchar * pad_name,
                                           GError ** error);

G_END_DECLS

#endif /* __GST_VMAF_HIP_GPU_H__ */
