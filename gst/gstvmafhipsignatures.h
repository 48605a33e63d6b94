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

G_BEGIN_DECLS

/**
 * GstVmafHipSignatures:
 *
 * align=content: the alignment signatures of frames in system memory,
 * computed on worker threads. A signature reads the frame's whole luma
 * plane, which has usually left the CPU's caches by then (a 1080p frame
 * read from a file costs 0.4 ms); on the pad's own thread that pass held
 * up the producer (a file read, a decoder), whose thread is often what
 * bounds the pipeline. The pairing takes the result when it decides,
 * some frames later. Thread-safe.
 */
typedef struct _GstVmafHipSignatures GstVmafHipSignatures;

/* One frame's signature, on its way (shared by every pairing that takes
 * the frame: the reference's goes to each rendition's). */
typedef struct _GstVmafHipSignatureJob GstVmafHipSignatureJob;

GstVmafHipSignatures *gst_vmaf_hip_signatures_new (void);

/* Waits for the jobs started. */
void         gst_vmaf_hip_signatures_free (GstVmafHipSignatures * sigs);

/* Starts @buffer's signature (its frame as @info says), or NULL when the
 * frame is not in plain system memory (mapping GPU memory may download
 * it: the pairing reads it on the GPU instead). The job holds @buffer
 * until it is done. */
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
