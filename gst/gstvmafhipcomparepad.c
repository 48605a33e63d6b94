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
 * (gst-inspect-1.0 lists every pad property a subclass has).
 *
 * A distorted pad also has a label (what its messages, summary and
 * results file are named by; a rendition's "720p-3000k") and a results
 * file of its own. */

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
  PROP_LABEL,
  PROP_RESULTS_FILENAME,
};

typedef struct
{
  GstVideoAggregatorPad parent;
  /* under the object lock */
  gchar *label;
  gchar *results_filename;
} GstVmafHipComparePad;

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

gchar *
gst_vmaf_hip_compare_pad_dup_label (GstPad * pad)
{
  GstVmafHipComparePad *self = (GstVmafHipComparePad *) pad;
  gchar *label;

  GST_OBJECT_LOCK (pad);
  label = g_strdup (self->label ? self->label : GST_OBJECT_NAME (pad));
  GST_OBJECT_UNLOCK (pad);
  return label;
}

gchar *
gst_vmaf_hip_compare_pad_dup_results_filename (GstPad * pad)
{
  GstVmafHipComparePad *self = (GstVmafHipComparePad *) pad;
  gchar *path;

  GST_OBJECT_LOCK (pad);
  path = g_strdup (self->results_filename);
  GST_OBJECT_UNLOCK (pad);
  return path;
}

static void
gst_vmaf_hip_compare_pad_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstVmafHipComparePad *self = (GstVmafHipComparePad *) object;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LABEL:
      g_free (self->label);
      self->label = g_value_dup_string (value);
      break;
    case PROP_RESULTS_FILENAME:
      g_free (self->results_filename);
      self->results_filename = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_vmaf_hip_compare_pad_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstVmafHipComparePad *self = (GstVmafHipComparePad *) object;

  switch (prop_id) {
    case PROP_LABEL:
      g_value_take_string (value,
          gst_vmaf_hip_compare_pad_dup_label (GST_PAD (self)));
      break;
    case PROP_RESULTS_FILENAME:
      g_value_take_string (value,
          gst_vmaf_hip_compare_pad_dup_results_filename (GST_PAD (self)));
      break;
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
gst_vmaf_hip_compare_pad_finalize (GObject * object)
{
  GstVmafHipComparePad *self = (GstVmafHipComparePad *) object;

  g_free (self->label);
  g_free (self->results_filename);
  G_OBJECT_CLASS (gst_vmaf_hip_compare_pad_parent_class)->finalize (object);
}

static void
gst_vmaf_hip_compare_pad_class_init (GstVmafHipComparePadClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  gobject_class->set_property = gst_vmaf_hip_compare_pad_set_property;
  gobject_class->get_property = gst_vmaf_hip_compare_pad_get_property;
  gobject_class->finalize = gst_vmaf_hip_compare_pad_finalize;
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
  g_object_class_install_property (gobject_class, PROP_LABEL,
      g_param_spec_string ("label", "Label",
          "A distorted pad's name in its vmaf messages, summary and tags "
          "(field label) and in results-filename's %s, e.g. \"720p-3000k\" "
          "(default: the pad's name); read when its scoring starts", NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_RESULTS_FILENAME,
      g_param_spec_string ("results-filename", "Results filename",
          "A distorted pad's own results file, in place of the element's "
          "results-filename (read when its scoring starts)", NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
}

static void
gst_vmaf_hip_compare_pad_init (GstVmafHipComparePad * pad)
{
}
