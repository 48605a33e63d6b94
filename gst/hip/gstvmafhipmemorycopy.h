/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_MEMORY_COPY_H__
#define __GST_VMAF_HIP_MEMORY_COPY_H__

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "gstvmafhipdevice.h"

G_BEGIN_DECLS

/* Planar, semi-planar and packed formats with whole-byte samples. */
#define GST_VMAF_HIP_MEMORY_COPY_FORMATS \
  "{ I420, YV12, Y42B, Y444, NV12, NV21, "                             \
  "NV16, NV61, NV24, I420_10LE, I420_12LE, I422_10LE, I422_12LE, "         \
  "Y444_10LE, Y444_12LE, Y444_16LE, P010_10LE, P012_LE, P016_LE, GRAY8, "  \
  "GRAY16_LE, YUY2, UYVY, RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, RGB, BGR }"

#define GST_TYPE_VMAF_HIP_MEMORY_COPY (gst_vmaf_hip_memory_copy_get_type ())
#define GST_VMAF_HIP_MEMORY_COPY(obj) (G_TYPE_CHECK_INSTANCE_CAST ((obj), \
      GST_TYPE_VMAF_HIP_MEMORY_COPY, GstVmafHipMemoryCopy))
#define GST_VMAF_HIP_MEMORY_COPY_CLASS(klass) \
  (G_TYPE_CHECK_CLASS_CAST ((klass), \
      GST_TYPE_VMAF_HIP_MEMORY_COPY, GstVmafHipMemoryCopyClass))
#define GST_VMAF_HIP_MEMORY_COPY_GET_CLASS(obj) \
  (G_TYPE_INSTANCE_GET_CLASS ((obj), \
      GST_TYPE_VMAF_HIP_MEMORY_COPY, GstVmafHipMemoryCopyClass))

typedef struct _GstVmafHipMemoryCopy GstVmafHipMemoryCopy;
typedef struct _GstVmafHipMemoryCopyClass GstVmafHipMemoryCopyClass;

GType        gst_vmaf_hip_memory_copy_get_type (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstVmafHipMemoryCopy, gst_object_unref)

struct _GstVmafHipMemoryCopy
{
  GstBaseTransform parent;

  /*< private >*/
  GstVmafHipDevice *device;
  gint device_id;               /* property; -1: any */
  GstVmafHipVendor vendor;      /* property */
  GstVideoInfo in_info;
  GstVideoInfo out_info;
  gboolean in_hip;
  gboolean out_hip;
};

/**
 * GstVmafHipMemoryCopyClass:
 * @to_hip: the src pad prefers HIP memory (upload) rather than system
 *   memory (download)
 * @copy: moves @inbuf into @outbuf (the same buffer when the input can go
 *   on as it is); FALSE with @error says what failed
 *
 * What vmafhipupload and vmafhipdownload share: the device (properties,
 * GstContext sharing, opened at the READY to PAUSED change), caps that
 * keep the video format and switch the memory, the pad templates, the
 * frame layouts, and one element error for a failed copy.
 */
struct _GstVmafHipMemoryCopyClass
{
  GstBaseTransformClass parent_class;

  gboolean to_hip;
  gboolean (*copy) (GstVmafHipMemoryCopy * self, GstBuffer * inbuf,
                    GstBuffer * outbuf, GError ** error);
};

/* For a subclass's class_init: direction, pad templates (each listing the
 * memory the element exists for first) and element metadata. */
void         gst_vmaf_hip_memory_copy_class_setup
                                         (GstVmafHipMemoryCopyClass * klass,
                                          gboolean to_hip,
                                          const gchar * longname,
                                          const gchar * description);

/* The device (valid between start and stop; transfer none). */
GstVmafHipDevice *gst_vmaf_hip_memory_copy_get_device
                                         (GstVmafHipMemoryCopy * self);

/* The negotiated frames, and whether each side is HIP memory. */
const GstVideoInfo *gst_vmaf_hip_memory_copy_get_info
                                         (GstVmafHipMemoryCopy * self,
                                          GstPadDirection direction,
                                          gboolean * is_hip);

/* A pool of HIP memory on the device for @caps (transfer full). */
GstBufferPool *gst_vmaf_hip_memory_copy_new_pool
                                         (GstVmafHipMemoryCopy * self,
                                          GstCaps * caps, guint min,
                                          guint max, guint * size);

G_END_DECLS

#endif /* __GST_VMAF_HIP_MEMORY_COPY_H__ */
