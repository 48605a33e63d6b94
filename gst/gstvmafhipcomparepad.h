/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_COMPARE_PAD_H__
#define __GST_VMAF_HIP_COMPARE_PAD_H__

#include <gst/video/gstvideoaggregator.h>

G_BEGIN_DECLS

/* The sink pads of vmafhipcompare: GstVideoAggregatorPads that leave
 * frames unmapped and whose compositing properties are read-only. */
#define GST_TYPE_VMAF_HIP_COMPARE_PAD (gst_vmaf_hip_compare_pad_get_type ())
GType        gst_vmaf_hip_compare_pad_get_type (void);

/* The pad's label property, or its name when none was set. */
gchar       *gst_vmaf_hip_compare_pad_dup_label (GstPad * pad);

/* The pad's results-filename property, or NULL. */
gchar       *gst_vmaf_hip_compare_pad_dup_results_filename (GstPad * pad);

G_END_DECLS

#endif /* __GST_VMAF_HIP_COMPARE_PAD_H__ */
