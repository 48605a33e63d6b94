/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __GST_VMAF_HIP_INPUT_COST_H__
#define __GST_VMAF_HIP_INPUT_COST_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* Where a run's time goes while frames come in: how long each way of
 * reading an input frame took (on the streaming thread that did it), how
 * long the aggregating thread spent on each pair and in its submission,
 * and when the first and last pairs came. Said at the end of a run in one
 * line at INFO level (GST_DEBUG=vmafhipcompare:4), for benchmarks; the
 * values never change what is scored. Thread-safe. */

typedef enum
{
  /* vmafhip's own HIP memory: its copy to the device started (what the
   * CPU wrote into it), then its picture made */
  GST_VMAF_HIP_INPUT_STEP_OWN_HIP_UPLOAD,
  GST_VMAF_HIP_INPUT_STEP_OWN_HIP,
  /* GStreamer's HIP memory made ready on its pad's thread (mapped for its
   * device address, which uploads what the CPU wrote, and synced) */
  GST_VMAF_HIP_INPUT_STEP_GSTHIP_EARLY,
  /* ... mapped for its device address when scored (its upload, when not
   * made ready before) */
  GST_VMAF_HIP_INPUT_STEP_GSTHIP_MAP,
  /* ... gst_hip_memory_sync() when scored */
  GST_VMAF_HIP_INPUT_STEP_GSTHIP_SYNC,
  /* CUDA memory mapped and synced */
  GST_VMAF_HIP_INPUT_STEP_CUDA,
  /* a frame read through its CPU mapping (system memory, or device memory
   * that could not be read in place) */
  GST_VMAF_HIP_INPUT_STEP_HOST,
  /* one pair on the aggregating thread, from its pictures to its
   * submission */
  GST_VMAF_HIP_INPUT_STEP_PAIR,
  /* the submission alone (it waits while the engine is full) */
  GST_VMAF_HIP_INPUT_STEP_SUBMIT,
  GST_VMAF_HIP_INPUT_N_STEPS
} GstVmafHipInputStep;

typedef struct _GstVmafHipInputCost GstVmafHipInputCost;

GstVmafHipInputCost *gst_vmaf_hip_input_cost_new   (void);
void         gst_vmaf_hip_input_cost_free  (GstVmafHipInputCost * cost);

/* A new run, starting now. */
void         gst_vmaf_hip_input_cost_reset (GstVmafHipInputCost * cost);

/* The current time, to hand to gst_vmaf_hip_input_cost_add(). */
gint64       gst_vmaf_hip_input_cost_now   (void);

/* One @step that began at @since (gst_vmaf_hip_input_cost_now()). A
 * PAIR step also marks the first and last pair. */
void         gst_vmaf_hip_input_cost_add   (GstVmafHipInputCost * cost,
                                            GstVmafHipInputStep step,
                                            gint64 since);

/* The run so far in one line (NULL before any pair). */
gchar       *gst_vmaf_hip_input_cost_describe (GstVmafHipInputCost * cost);

G_END_DECLS

#endif /* __GST_VMAF_HIP_INPUT_COST_H__ */
