/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_COMPAT_H__
#define __GST_VMAF_HIP_COMPAT_H__

#include <gst/gst.h>

#include "gstvmafhipenums.h"

G_BEGIN_DECLS

/* What vmafhipcompare takes over from GStreamer's own vmaf element
 * (gst-plugins-bad 1.24+), so that its pipelines and bus code work here:
 * docs/migrating-from-vmaf.md maps every property and field. */

/**
 * GstVmafHipMessageLayout:
 * @GST_VMAF_HIP_MESSAGE_LAYOUT_VMAFHIP: "vmaf" per frame with every value,
 *   "vmaf-summary" at end of stream
 * @GST_VMAF_HIP_MESSAGE_LAYOUT_VMAF: GStreamer's vmaf element's "VMAF"
 *   messages, type=frame per frame and type=pooled at end of stream
 */
typedef enum
{
  GST_VMAF_HIP_MESSAGE_LAYOUT_VMAFHIP,
  GST_VMAF_HIP_MESSAGE_LAYOUT_VMAF,
} GstVmafHipMessageLayout;

#define GST_TYPE_VMAF_HIP_MESSAGE_LAYOUT \
  (gst_vmaf_hip_message_layout_get_type ())
GType        gst_vmaf_hip_message_layout_get_type (void);

/* The vmaf element's log-level: here the threshold of the element's debug
 * category (its values are GstDebugLevel). */
#define GST_TYPE_VMAF_HIP_LOG_LEVEL (gst_vmaf_hip_log_level_get_type ())
GType        gst_vmaf_hip_log_level_get_type (void);

/* @features with the extractors that the vmaf element's psnr, ssim and
 * ms-ssim properties turn on, where @features does not name them yet
 * (caller frees). */
gchar       *gst_vmaf_hip_compat_features (const gchar * features,
                                           gboolean psnr, gboolean ssim,
                                           gboolean ms_ssim);

/* A "vmaf" frame message as the vmaf element posts it ("VMAF",
 * type=frame). */
GstStructure *gst_vmaf_hip_compat_frame  (const GstStructure * frame);

/* A "vmaf-summary" as the vmaf element's pooled message ("VMAF",
 * type=pooled), the values pooled by @method. */
GstStructure *gst_vmaf_hip_compat_pooled (const GstStructure * summary,
                                          GstVmafHipPoolMethod method);

G_END_DECLS

#endif /* __GST_VMAF_HIP_COMPAT_H__ */
