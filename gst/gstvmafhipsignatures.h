/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_SIGNATURES_H__
#define __GST_VMAF_HIP_SIGNATURES_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "align.h"
#include "gstvmafhipgpu.h"

G_BEGIN_DECLS

/**
 * GstVmafHipSignatures:
 *
 * align=content: each frame's alignment signature, started on the pad's
 * thread as the frame arrives and taken by the pairings when they decide,
 * some frames later, without holding the element's locks meanwhile:
 *
 * - frames in system memory on worker threads (at most two). A signature
 *   reads the luma plane, which has usually left the CPU's caches by
 *   then; on the pad's own thread that pass held up the producer (a file
 *   read, a decoder), whose thread is often what bounds the pipeline.
 * - frames in GPU memory on the element's device (its own HIP memory,
 *   GStreamer's HIP or CUDA memory) on the GPU, from one frame probe
 *   (hip/features/hip-frame-probe.h) that this object locks: queued when
 *   the frame comes, collected when first taken; never downloaded.
 * - any other frame through a CPU mapping, on the pad's thread.
 *
 * One job a frame, shared by every pairing that takes it (the reference's
 * goes to each rendition's). Thread-safe.
 */
typedef struct _GstVmafHipSignatures GstVmafHipSignatures;

typedef struct _GstVmafHipSignatureJob GstVmafHipSignatureJob;

/* @element: for warnings, not owned (may be NULL). */
GstVmafHipSignatures *gst_vmaf_hip_signatures_new (GstElement * element);

/* Waits for the jobs started; every job must be gone. */
void         gst_vmaf_hip_signatures_free (GstVmafHipSignatures * sigs);

/* A new run on @gpu (the element's GPU side, not owned, NULL for none):
 * the GPU's probe of the last run goes. No job of the last run may be
 * left. */
void         gst_vmaf_hip_signatures_reset (GstVmafHipSignatures * sigs,
                                          GstVmafHipGpu * gpu);

/* Starts @buffer's signature (its frame as @info says): in system
 * memory on a worker (small frames at once, here), in GPU memory the
 * device can probe on the GPU, in any other through a CPU mapping, here.
 * The job holds the frame until its signature is done; taking it says
 * why a frame could not be read. */
GstVmafHipSignatureJob *gst_vmaf_hip_signatures_start (GstVmafHipSignatures * sigs,
                                          const GstVideoInfo * info,
                                          GstBuffer * buffer);

GstVmafHipSignatureJob *gst_vmaf_hip_signature_job_ref (GstVmafHipSignatureJob * job);

void         gst_vmaf_hip_signature_job_unref (GstVmafHipSignatureJob * job);

/* Whether the signature is there (taking it will not wait). */
gboolean     gst_vmaf_hip_signature_job_done (GstVmafHipSignatureJob * job);

/* Waits for the signature if it is not there yet; FALSE with @error when
 * the frame could not be read or is too small. */
gboolean     gst_vmaf_hip_signature_job_take (GstVmafHipSignatureJob * job,
                                          VhAlignSignature * sig,
                                          GError ** error);

G_END_DECLS

#endif /* __GST_VMAF_HIP_SIGNATURES_H__ */
