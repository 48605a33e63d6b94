/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What the element's glue (gstvmafhipcompare.c) and its properties
 * (gstvmafhipcompareprops.c) share: the instance and its parts. */

#ifndef __GST_VMAF_HIP_COMPARE_PRIVATE_H__
#define __GST_VMAF_HIP_COMPARE_PRIVATE_H__

#include "gstvmafhipcompare.h"
#include "gstvmafhipconfig.h"
#include "gstvmafhipcontentpairing.h"
#include "gstvmafhipconvert.h"
#include "gstvmafhiprepeat.h"
#include "gstvmafhipenums.h"
#include "gstvmafhipgpu.h"
#include "gstvmafhipinputs.h"
#include "gstvmafhiprenditions.h"
#include "gstvmafhipscoring.h"
#include "gstvmafhipwatch.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_vmaf_hip_compare_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_compare_debug

#define DEFAULT_MODEL             "vmaf_v0.6.1"
#define DEFAULT_FEATURES          ""
#define DEFAULT_ENABLE_TRANSFORM  FALSE
#define DEFAULT_DISABLE_CLIP      FALSE
#define DEFAULT_POOL_METHOD       GST_VMAF_HIP_POOL_MEAN
#define DEFAULT_SUBSAMPLE         1
#define DEFAULT_THREADS           0
#define DEFAULT_FRAME_MESSAGE     TRUE
#define DEFAULT_RESULTS_FILENAME  NULL
#define DEFAULT_RESULTS_FORMAT    GST_VMAF_HIP_RESULTS_JSON
#define DEFAULT_TAG_INTERVAL      30
#define DEFAULT_RESULTS_INTERVAL  1000
#define DEFAULT_PASSTHROUGH       GST_VMAF_HIP_PASSTHROUGH_DISTORTED
#define DEFAULT_BACKEND           GST_VMAF_HIP_BACKEND_AUTO
#define DEFAULT_MESSAGE_LAYOUT    GST_VMAF_HIP_MESSAGE_LAYOUT_VMAFHIP
#define DEFAULT_LOG_LEVEL         GST_LEVEL_NONE
#define DEFAULT_DEVICE_ID         -1
#define DEFAULT_SELF_TEST         FALSE
#define DEFAULT_INPUT_TIMEOUT     (10 * GST_SECOND)
#define DEFAULT_CONVERT           GST_VMAF_HIP_CONVERT_NONE
#define DEFAULT_ALIGN             GST_VMAF_HIP_ALIGN_TIMESTAMPS
#define DEFAULT_ALIGN_WINDOW      (5 * GST_SECOND)
#define DEFAULT_UNPAIRED          GST_VMAF_HIP_UNPAIRED_SKIP
#define DEFAULT_SCALE             GST_VMAF_HIP_SCALE_BICUBIC

struct _GstVmafHipCompare
{
  GstVideoAggregator parent;

  /* Properties, under the object lock; those the workers read while
   * running live in the scoring's GstVmafHipLiveSettings. */
  GstVmafHipSettings settings;
  guint results_interval;       /* ms */
  gchar *results_filename;
  GstVmafHipResultsFormat results_format;
  GstVmafHipPassthrough passthrough;
  gboolean compat_psnr, compat_ssim, compat_ms_ssim;
  GstDebugLevel log_level;      /* kept for compatibility, no effect */
  GstClockTime input_timeout;   /* ns, 0: none */
  GstVmafHipConvertMode convert_mode;
  GstVmafHipAlignMode align_mode;
  GstClockTime align_window;    /* ns */
  GstVmafHipUnpairedMode unpaired_mode;
  GstVmafHipScaleMethod scale_method;
  GstVmafHipWatchSettings watch;  /* windows, events, lag */

  /* The parts, from init to finalize; each owns its state. */
  GstVmafHipInputs *inputs;     /* pads, accounting, pairing */
  GstVmafHipScoring *scoring;   /* dist_sink's: context, run settings,
                                 * report, file */
  GstVmafHipRenditions *renditions;     /* every distorted pad's scoring,
                                         * dist_sink's first */
  guint next_pad_serial;        /* dist_sink_%u, under the object lock */
  GstVmafHipGpu *gpu;           /* device, memory offered upstream */
  GstVmafHipConvert *convert;   /* distorted frames to the reference's format */
  GstVmafHipRepeat *repeat;     /* unpaired=repeat: the last distorted frame */

  /* Streaming thread. */
  gboolean eos_done;
  gboolean output_started;      /* a buffer went out since start or flush */
  gboolean converting;          /* convert=reference-format, since start */
  gboolean repeating;           /* unpaired=repeat, since start */
};

/* gstvmafhipcompareprops.c */
G_GNUC_INTERNAL
void gst_vmaf_hip_compare_install_properties (GObjectClass * gobject_class);

G_GNUC_INTERNAL
void         gst_vmaf_hip_compare_set_property (GObject * object,
                                            guint prop_id,
                                            const GValue * value,
                                            GParamSpec * pspec);

G_GNUC_INTERNAL
void         gst_vmaf_hip_compare_get_property (GObject * object,
                                            guint prop_id, GValue * value,
                                            GParamSpec * pspec);

G_END_DECLS

#endif /* __GST_VMAF_HIP_COMPARE_PRIVATE_H__ */
