/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_TAGS_H__
#define __GST_VMAF_HIP_TAGS_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/**
 * GST_TAG_VMAFHIP_SCORE:
 *
 * The pooled score of the first model (#gdouble), over every frame scored
 * so far; the pool-method property says how it is pooled.
 */
#define GST_TAG_VMAFHIP_SCORE "vmafhip-score"

/**
 * GST_TAG_VMAFHIP_PSNR_Y:
 *
 * The pooled luma PSNR in dB (#gdouble), when the psnr feature is on.
 */
#define GST_TAG_VMAFHIP_PSNR_Y "vmafhip-psnr-y"

/**
 * GST_TAG_VMAFHIP_SSIM:
 *
 * The pooled SSIM (#gdouble), when the float_ssim feature is on.
 */
#define GST_TAG_VMAFHIP_SSIM "vmafhip-ssim"

/**
 * GST_TAG_VMAFHIP_MS_SSIM:
 *
 * The pooled MS-SSIM (#gdouble), when the float_ms_ssim feature is on.
 */
#define GST_TAG_VMAFHIP_MS_SSIM "vmafhip-ms-ssim"

/**
 * GST_TAG_VMAFHIP_FRAMES:
 *
 * How many frames the pooled tag values cover (#guint).
 */
#define GST_TAG_VMAFHIP_FRAMES "vmafhip-frames"

void         gst_vmaf_hip_tags_register     (void);

/* The tag that carries the pooled value of the per-frame output @name
 * ("psnr_y", "float_ssim", ...), or NULL. Model scores go under
 * GST_TAG_VMAFHIP_SCORE; the caller decides which model that is. */
const gchar *gst_vmaf_hip_tag_for_output    (const gchar * name);

G_END_DECLS

#endif /* __GST_VMAF_HIP_TAGS_H__ */
