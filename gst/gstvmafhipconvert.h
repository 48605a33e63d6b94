/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_CONVERT_H__
#define __GST_VMAF_HIP_CONVERT_H__

#include <gst/video/video.h>

#include "gstvmafhippairing.h"

G_BEGIN_DECLS

/* The convert property. */
typedef enum
{
  GST_VMAF_HIP_CONVERT_NONE,
  GST_VMAF_HIP_CONVERT_REFERENCE_FORMAT,
} GstVmafHipConvertMode;

GType gst_vmaf_hip_convert_mode_get_type (void);
#define GST_TYPE_VMAF_HIP_CONVERT_MODE (gst_vmaf_hip_convert_mode_get_type ())

/**
 * GstVmafHipConvert:
 *
 * convert=reference-format: the distorted frames brought to the
 * reference's pixel format (bit depth, chroma subsampling, layout) on the
 * CPU before they are scored, as libvmaf users do with ffmpeg's format
 * filter; size, rate and colorimetry stay the distorted video's. The
 * converter is kept while the two formats stay the same. Aggregate
 * thread.
 */
typedef struct _GstVmafHipConvert GstVmafHipConvert;

GstVmafHipConvert *gst_vmaf_hip_convert_new (void);

void         gst_vmaf_hip_convert_free  (GstVmafHipConvert * convert);

/* When @dist's format is not @ref's, replaces its buffer and info by a
 * converted copy (timestamps kept). FALSE, with @error, when the frame
 * cannot be read on the CPU. */
gboolean     gst_vmaf_hip_convert_to_reference (GstVmafHipConvert * convert,
                                                const GstVideoInfo * ref,
                                                GstVmafHipFrame * dist,
                                                GError ** error);

G_END_DECLS

#endif /* __GST_VMAF_HIP_CONVERT_H__ */
