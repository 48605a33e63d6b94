/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __GST_VMAF_HIP_REPEAT_H__
#define __GST_VMAF_HIP_REPEAT_H__

#include <gst/gst.h>

#include "gstvmafhippairing.h"

G_BEGIN_DECLS

/* The unpaired property: what becomes of a reference frame whose
 * distorted frame the chain dropped. */
typedef enum
{
  GST_VMAF_HIP_UNPAIRED_SKIP = 0,
  GST_VMAF_HIP_UNPAIRED_REPEAT = 1,
} GstVmafHipUnpairedMode;

GType gst_vmaf_hip_unpaired_mode_get_type (void);
#define GST_TYPE_VMAF_HIP_UNPAIRED_MODE (gst_vmaf_hip_unpaired_mode_get_type ())

/**
 * GstVmafHipRepeat:
 *
 * unpaired=repeat: each distorted pad's last frame scored (by match: 0
 * is dist_sink's, then the request pads'), kept so that a reference frame
 * the chain dropped is scored against what a viewer saw instead (the
 * frozen picture), and how many were. Streaming thread.
 */
typedef struct _GstVmafHipRepeat GstVmafHipRepeat;

GstVmafHipRepeat *gst_vmaf_hip_repeat_new (void);

void         gst_vmaf_hip_repeat_free     (GstVmafHipRepeat * repeat);

/* A new run (@count too) or a flush (the frame only). */
void         gst_vmaf_hip_repeat_reset    (GstVmafHipRepeat * repeat,
                                           gboolean count);

/* @dist was scored: it is the frame shown until the next one. */
void         gst_vmaf_hip_repeat_remember (GstVmafHipRepeat * repeat,
                                           guint match,
                                           const GstVmafHipFrame * dist);

/* The frame to score a dropped reference frame against, marked repeated
 * (the caller unrefs its buffer), counted; FALSE when none was shown yet. */
gboolean     gst_vmaf_hip_repeat_take     (GstVmafHipRepeat * repeat,
                                           guint match,
                                           GstVmafHipFrame * dist);

guint64      gst_vmaf_hip_repeat_count    (GstVmafHipRepeat * repeat,
                                           guint match);

G_END_DECLS

#endif /* __GST_VMAF_HIP_REPEAT_H__ */
