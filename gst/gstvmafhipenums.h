/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_ENUMS_H__
#define __GST_VMAF_HIP_ENUMS_H__

#include <glib-object.h>

/* The engine's own values: each GEnum here aliases them, so that a
 * property's value is the engine's without a switch. */
#include "backend-choice.h"
#include "output.h"
#include "pool.h"
#include "scale.h"

G_BEGIN_DECLS

/**
 * GstVmafHipPoolMethod:
 * @GST_VMAF_HIP_POOL_MEAN: arithmetic mean
 * @GST_VMAF_HIP_POOL_HARMONIC_MEAN: libvmaf's harmonic mean,
 *   n / sum (1 / (x + 1)) - 1
 * @GST_VMAF_HIP_POOL_MIN: minimum
 * @GST_VMAF_HIP_POOL_MAX: maximum
 *
 * How per-frame values are pooled into one number (tags, summary score).
 */
typedef enum
{
  GST_VMAF_HIP_POOL_MEAN = VH_POOL_MEAN,
  GST_VMAF_HIP_POOL_HARMONIC_MEAN = VH_POOL_HARMONIC_MEAN,
  GST_VMAF_HIP_POOL_MIN = VH_POOL_MIN,
  GST_VMAF_HIP_POOL_MAX = VH_POOL_MAX,
} GstVmafHipPoolMethod;

/**
 * GstVmafHipResultsFormat:
 * @GST_VMAF_HIP_RESULTS_JSON: libvmaf's JSON log
 * @GST_VMAF_HIP_RESULTS_XML: libvmaf's XML log
 * @GST_VMAF_HIP_RESULTS_CSV: libvmaf's CSV log
 */
typedef enum
{
  GST_VMAF_HIP_RESULTS_JSON = VH_OUTPUT_JSON,
  GST_VMAF_HIP_RESULTS_XML = VH_OUTPUT_XML,
  GST_VMAF_HIP_RESULTS_CSV = VH_OUTPUT_CSV,
} GstVmafHipResultsFormat;

/**
 * GstVmafHipPassthrough:
 * @GST_VMAF_HIP_PASSTHROUGH_DISTORTED: the src pad carries the distorted
 *   frames
 * @GST_VMAF_HIP_PASSTHROUGH_REFERENCE: the src pad carries the reference
 *   frames
 */
typedef enum
{
  GST_VMAF_HIP_PASSTHROUGH_DISTORTED,
  GST_VMAF_HIP_PASSTHROUGH_REFERENCE,
} GstVmafHipPassthrough;

/**
 * GstVmafHipBackend:
 * @GST_VMAF_HIP_BACKEND_AUTO: the GPU where an extractor has a HIP
 *   implementation, the CPU otherwise
 * @GST_VMAF_HIP_BACKEND_CPU: the CPU only
 * @GST_VMAF_HIP_BACKEND_HIP: the GPU, which must be usable (else the state
 *   change fails); extractors without a HIP implementation still run on
 *   the CPU, as with auto
 */
typedef enum
{
  GST_VMAF_HIP_BACKEND_AUTO = VH_BACKEND_CHOICE_AUTO,
  GST_VMAF_HIP_BACKEND_CPU = VH_BACKEND_CHOICE_CPU,
  GST_VMAF_HIP_BACKEND_HIP = VH_BACKEND_CHOICE_HIP,
} GstVmafHipBackend;

/**
 * GstVmafHipScaleMethod:
 * @GST_VMAF_HIP_SCALE_NONE: sizes must match; a distorted video of
 *   another size is refused
 * @GST_VMAF_HIP_SCALE_BICUBIC: ffmpeg's scale=flags=bicubic, the
 *   convention of VMAF's users
 * @GST_VMAF_HIP_SCALE_LANCZOS: ffmpeg's lanczos (3 lobes)
 * @GST_VMAF_HIP_SCALE_BILINEAR: ffmpeg's bilinear
 *
 * How a distorted video of another size is resampled to the reference's
 * size before it is scored (docs/scaling.md).
 */
typedef enum
{
  GST_VMAF_HIP_SCALE_NONE = VH_SCALE_NONE,
  GST_VMAF_HIP_SCALE_BICUBIC = VH_SCALE_BICUBIC,
  GST_VMAF_HIP_SCALE_LANCZOS = VH_SCALE_LANCZOS,
  GST_VMAF_HIP_SCALE_BILINEAR = VH_SCALE_BILINEAR,
} GstVmafHipScaleMethod;

#define GST_TYPE_VMAF_HIP_POOL_METHOD (gst_vmaf_hip_pool_method_get_type ())
GType gst_vmaf_hip_pool_method_get_type (void);

#define GST_TYPE_VMAF_HIP_RESULTS_FORMAT (gst_vmaf_hip_results_format_get_type ())
GType gst_vmaf_hip_results_format_get_type (void);

#define GST_TYPE_VMAF_HIP_PASSTHROUGH (gst_vmaf_hip_passthrough_get_type ())
GType gst_vmaf_hip_passthrough_get_type (void);

#define GST_TYPE_VMAF_HIP_BACKEND (gst_vmaf_hip_backend_get_type ())
GType gst_vmaf_hip_backend_get_type (void);

#define GST_TYPE_VMAF_HIP_SCALE_METHOD (gst_vmaf_hip_scale_method_get_type ())
GType gst_vmaf_hip_scale_method_get_type (void);

/* The enum's nick ("harmonic-mean"), for messages and logs. */
const gchar *gst_vmaf_hip_enum_nick (GType type, gint value);

G_END_DECLS

#endif /* __GST_VMAF_HIP_ENUMS_H__ */
