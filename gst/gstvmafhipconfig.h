/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_CONFIG_H__
#define __GST_VMAF_HIP_CONFIG_H__

#include <glib.h>

#include "context.h"
#include "feature-colorimetry.h"
#include "gstvmafhipenums.h"

G_BEGIN_DECLS

/* Automatic worker threads when every parallel feature runs on the GPU. */
#define GST_VMAF_HIP_GPU_THREADS 4

/* What the element's properties say about scoring; a copy is taken when the
 * element starts so that every context of a run is built alike. */
typedef struct
{
  gchar *model;                 /* model specs, comma-separated; "" = none */
  gchar *features;              /* feature specs, comma-separated */
  gboolean enable_transform;
  gboolean disable_clip;
  guint subsample;
  guint threads;                /* 0 = one per processor */
  GstVmafHipBackend backend;
  gboolean conf_interval;       /* every model must be a bootstrap one */
  gint device_id;               /* GPU for auto/hip; -1 = shared or first */
  gboolean self_test;           /* check the GPU twins at start */
} GstVmafHipSettings;

void         gst_vmaf_hip_settings_copy    (GstVmafHipSettings * dst,
                                            const GstVmafHipSettings * src);

void         gst_vmaf_hip_settings_clear   (GstVmafHipSettings * s);

/* A context with the models and features of @s, not started yet. Errors
 * name the property and the entry at fault. @backends and @transfer: what
 * the element decided when it opened the device for backend auto or hip
 * (VH_BACKEND_CPU and NULL: none, or backend cpu): with HIP each feature
 * runs on its HIP twin where there is one, on the CPU otherwise.
 * @extractors: the classes the context may run (NULL: every HIP twin's and
 * the CPU's; a set without the twins the self-test failed).
 * @colorimetry: the reference's and the distorted input's, [ref, dist]
 * (NULL: not known yet), for the features that convert Y'CbCr to RGB
 * and were not given it as options; *@uses_colorimetry tells whether
 * any feature took it, so that new colorimetry needs a new context. */
VhContext   *gst_vmaf_hip_context_new      (const GstVmafHipSettings * s,
                                            VhBackend backends,
                                            VhPictureTransfer * transfer,
                                            VhExtractorSet * extractors,
                                            const VhColorimetry * colorimetry,
                                            gboolean * uses_colorimetry,
                                            GError ** error);

G_END_DECLS

#endif /* __GST_VMAF_HIP_CONFIG_H__ */
