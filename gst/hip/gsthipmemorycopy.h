/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_HIP_MEMORY_COPY_H__
#define __GST_HIP_MEMORY_COPY_H__

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "gsthipdevice.h"

G_BEGIN_DECLS

/* Planar, semi-planar and packed formats with whole-byte samples. */
#define GST_HIP_MEMORY_COPY_FORMATS "{ I420, YV12, Y42B, Y444, NV12, NV21, " \
  "NV16, NV61, NV24, I420_10LE, I420_12LE, I422_10LE, I422_12LE, "         \
  "Y444_10LE, Y444_12LE, Y444_16LE, P010_10LE, P012_LE, P016_LE, GRAY8, "  \
  "GRAY16_LE, YUY2, UYVY, RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, RGB, BGR }"

#define GST_TYPE_HIP_MEMORY_COPY (gst_hip_memory_copy_get_type ())
#define GST_HIP_MEMORY_COPY(obj) (G_TYPE_CHECK_INSTANCE_CAST ((obj), \
      GST_TYPE_HIP_MEMORY_COPY, GstHipMemoryCopy))
#define GST_HIP_MEMORY_COPY_CLASS(klass) (G_TYPE_CHECK_CLASS_CAST ((klass), \
      GST_TYPE_HIP_MEMORY_COPY, GstHipMemoryCopyClass))
#define GST_HIP_MEMORY_COPY_GET_CLASS(obj) (G_TYPE_INSTANCE_GET_CLASS ((obj), \
      GST_TYPE_HIP_MEMORY_COPY, GstHipMemoryCopyClass))

typedef struct _GstHipMemoryCopy GstHipMemoryCopy;
typedef struct _GstHipMemoryCopyClass GstHipMemoryCopyClass;

GType        gst_hip_memory_copy_get_type (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstHipMemoryCopy, gst_object_unref)

struct _GstHipMemoryCopy
{
  GstBaseTransform parent;

  /*< private >*/
  GstHipDevice *device;
  gint device_id;               /* property; -1: any */
  GstHipVendor vendor;          /* property */
  GstVideoInfo in_info;
  GstVideoInfo out_info;
  gboolean in_hip;
  gboolean out_hip;
};

/**
 * GstHipMemoryCopyClass:
 * @to_hip: the src pad prefers HIP memory (upload) rather than system
 *   memory (download)
 * @element_name: the registered name, for default instance names
 *
 * What hipupload and hipdownload share: the device (properties, GstContext
 * sharing, opened at the READY to PAUSED change), caps that keep the video
 * format and switch the memory, and the frame layouts.
 */
struct _GstHipMemoryCopyClass
{
  GstBaseTransformClass parent_class;

  gboolean to_hip;
  const gchar *element_name;

  /*< private >*/
  gint n_unnamed;               /* for default names: hipupload0, ... */
};

/* The device (valid between start and stop; transfer none). */
GstHipDevice *gst_hip_memory_copy_get_device (GstHipMemoryCopy * self);

/* The negotiated frames, and whether each side is HIP memory. */
const GstVideoInfo *gst_hip_memory_copy_get_info (GstHipMemoryCopy * self,
                                                  GstPadDirection direction,
                                                  gboolean * is_hip);

/* A pool of HIP memory on the device for @caps (transfer full). */
GstBufferPool *gst_hip_memory_copy_new_pool (GstHipMemoryCopy * self,
                                             GstCaps * caps, guint min,
                                             guint max, guint * size);

G_END_DECLS

#endif /* __GST_HIP_MEMORY_COPY_H__ */
