/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_STATS_H__
#define __GST_VMAF_HIP_STATS_H__

#include <gst/gst.h>

#include "gstvmafhipenums.h"

G_BEGIN_DECLS

/* Running pooled values per output name, updated frame by frame in frame
 * order, through src/pool.c's running accumulator (libvmaf's pooling), so
 * that pooling never has to walk the stored frames again. Not thread-safe. */
typedef struct _GstVmafHipStats GstVmafHipStats;

GstVmafHipStats *gst_vmaf_hip_stats_new     (void);

void         gst_vmaf_hip_stats_free        (GstVmafHipStats * stats);

void         gst_vmaf_hip_stats_add         (GstVmafHipStats * stats,
                                             const gchar * name,
                                             gdouble value);

/* FALSE if @name has no value yet. */
gboolean     gst_vmaf_hip_stats_get         (GstVmafHipStats * stats,
                                             const gchar * name,
                                             GstVmafHipPoolMethod method,
                                             gdouble * value);

/* Names in the order they were first added. */
guint        gst_vmaf_hip_stats_n_names     (GstVmafHipStats * stats);

const gchar *gst_vmaf_hip_stats_name        (GstVmafHipStats * stats,
                                             guint i);

/* "pooled, frames=(guint64)N, mean=(double)..., harmonic-mean=...,
 * min=..., max=..." for @name, or NULL. */
GstStructure *gst_vmaf_hip_stats_to_structure (GstVmafHipStats * stats,
                                             const gchar * name);

G_END_DECLS

#endif /* __GST_VMAF_HIP_STATS_H__ */
