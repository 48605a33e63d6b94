/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* vmafhipcompare pairs frames with GstVideoAggregator, whose pads come
 * with compositing properties (zorder, repeat-after-eos,
 * max-last-buffer-repeat). A subclass cannot remove a property it
 * inherits, so the pad installs its own, read-only, under the same names:
 * they keep the values the element relies on, cannot be changed by
 * mistake, and gst-inspect-1.0 says what they are fixed at and why
 * (gst-inspect-1.0 lists every pad property a subclass has). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipcomparepad.h"

enum
{
  PROP_0,
  PROP_ZORDER,
  PROP_REPEAT_AFTER_EOS,
  PROP_MAX_LAST_BUFFER_REPEAT,
};

typedef GstVideoAggregatorPad GstVmafHipComparePad;
typedef GstVideoAggregatorPadClass GstVmafHipComparePadClass;
G_DEFINE_TYPE (GstVmafHipComparePad, gst_vmaf_hip_compare_pad,
    GST_TYPE_VIDEO_AGGREGATOR_PAD);

/* Frames stay unmapped: the element reads each buffer itself (in place on
 * the GPU, or on the CPU), so the base class mapping every frame on the
 * CPU would only cost time, and for HIP memory a download that waits for
 * the GPU in the streaming thread. */
static gboolean
gst_vmaf_hip_compare_pad_prepare_frame (GstVideoAggregatorPad * pad,
    GstVideoAggregator * vagg, GstBuffer * buffer, GstVideoFrame * frame)
{
  return TRUE;
}

static void
gst_vmaf_hip_compare_pad_clean_frame (GstVideoAggregatorPad * pad,
    GstVideoAggregator * vagg, GstVideoFrame * frame)
{
}

static void
gst_vmaf_hip_compare_pad_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  switch (prop_id) {
    case PROP_ZORDER:
      g_value_set_uint (value, 0);
      break;
    case PROP_REPEAT_AFTER_EOS:
      g_value_set_boolean (value, FALSE);
      break;
    case PROP_MAX_LAST_BUFFER_REPEAT:
      g_value_set_uint64 (value, GST_CLOCK_TIME_NONE);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_vmaf_hip_compare_pad_class_init (GstVmafHipComparePadClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  gobject_class->get_property = gst_vmaf_hip_compare_pad_get_property;
  klass->prepare_frame = gst_vmaf_hip_compare_pad_prepare_frame;
  klass->clean_frame = gst_vmaf_hip_compare_pad_clean_frame;

  g_object_class_install_property (gobject_class, PROP_ZORDER,
      g_param_spec_uint ("zorder", "Z-order (fixed)",
          "Always 0: the inputs are compared, not stacked (GstVideoAggregator"
          "Pad's, read-only here)", 0, G_MAXUINT, 0, flags));
  g_object_class_install_property (gobject_class, PROP_REPEAT_AFTER_EOS,
      g_param_spec_boolean ("repeat-after-eos", "Repeat after EOS (fixed)",
          "Always false: after one pad's EOS the other pad's frames count as "
          "unpaired, never scored against a repeated frame (GstVideo"
          "AggregatorPad's, read-only here)", FALSE, flags));
  g_object_class_install_property (gobject_class,
      PROP_MAX_LAST_BUFFER_REPEAT,
      g_param_spec_uint64 ("max-last-buffer-repeat",
          "Max last buffer repeat (fixed)",
          "Always unlimited, with no effect: a repeated frame is told from a "
          "new one and scored once (GstVideoAggregatorPad's, read-only here)",
          0, G_MAXUINT64, GST_CLOCK_TIME_NONE, flags));
}

static void
gst_vmaf_hip_compare_pad_init (GstVmafHipComparePad * pad)
{
}
