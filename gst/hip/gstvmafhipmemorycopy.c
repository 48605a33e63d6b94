/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The base of vmafhipupload and vmafhipdownload: the device, the caps, the
 * pad templates and the element's error on a failed copy. */

#include "gstvmafhipmemorycopy.h"
#include "gstvmafhipbufferpool.h"
#include "gstvmafhipmemory.h"
#include "gstvmafhiputils.h"

GST_DEBUG_CATEGORY_STATIC (gst_vmaf_hip_memory_copy_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_memory_copy_debug

#define DEFAULT_DEVICE_ID -1
#define DEFAULT_VENDOR GST_VMAF_HIP_VENDOR_UNKNOWN

enum
{
  PROP_0,
  PROP_DEVICE_ID,
  PROP_VENDOR,
};

G_DEFINE_ABSTRACT_TYPE (GstVmafHipMemoryCopy, gst_vmaf_hip_memory_copy,
    GST_TYPE_BASE_TRANSFORM);

static void
gst_vmaf_hip_memory_copy_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstVmafHipMemoryCopy *self = GST_VMAF_HIP_MEMORY_COPY (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE_ID:
      self->device_id = g_value_get_int (value);
      break;
    case PROP_VENDOR:
      self->vendor = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_vmaf_hip_memory_copy_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstVmafHipMemoryCopy *self = GST_VMAF_HIP_MEMORY_COPY (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE_ID:
      g_value_set_int (value, self->device_id);
      break;
    case PROP_VENDOR:
      g_value_set_enum (value, self->vendor);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_vmaf_hip_memory_copy_finalize (GObject * object)
{
  GstVmafHipMemoryCopy *self = GST_VMAF_HIP_MEMORY_COPY (object);

  gst_clear_object (&self->device);
  G_OBJECT_CLASS (gst_vmaf_hip_memory_copy_parent_class)->finalize (object);
}

static void
gst_vmaf_hip_memory_copy_set_context (GstElement * element,
    GstContext * context)
{
  GstVmafHipMemoryCopy *self = GST_VMAF_HIP_MEMORY_COPY (element);
  GstVmafHipVendor vendor;
  gint device_id;

  GST_OBJECT_LOCK (self);
  vendor = self->vendor;
  device_id = self->device_id;
  GST_OBJECT_UNLOCK (self);
  gst_vmaf_hip_handle_set_context (element, context, vendor, device_id,
      &self->device);
  GST_ELEMENT_CLASS (gst_vmaf_hip_memory_copy_parent_class)->
      set_context (element, context);
}

static gboolean
gst_vmaf_hip_memory_copy_start (GstBaseTransform * trans)
{
  GstVmafHipMemoryCopy *self = GST_VMAF_HIP_MEMORY_COPY (trans);
  GError *error = NULL;
  GstVmafHipVendor vendor;
  gint device_id;

  GST_OBJECT_LOCK (self);
  vendor = self->vendor;
  device_id = self->device_id;
  GST_OBJECT_UNLOCK (self);
  if (!gst_vmaf_hip_ensure_element_device (GST_ELEMENT_CAST (self), vendor,
          device_id, &self->device, &error)) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("No usable HIP device: %s", error->message),
        ("vendor=%s device-id=%d", vh_hip_vendor_to_string ((VhHipVendor)
                vendor), device_id));
    g_error_free (error);
    return FALSE;
  }
  return TRUE;
}

static gboolean
gst_vmaf_hip_memory_copy_stop (GstBaseTransform * trans)
{
  GstVmafHipMemoryCopy *self = GST_VMAF_HIP_MEMORY_COPY (trans);

  gst_clear_object (&self->device);
  return TRUE;
}

static gboolean
gst_vmaf_hip_memory_copy_query (GstBaseTransform * trans,
    GstPadDirection direction, GstQuery * query)
{
  GstVmafHipMemoryCopy *self = GST_VMAF_HIP_MEMORY_COPY (trans);

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT &&
      gst_vmaf_hip_handle_context_query (GST_ELEMENT_CAST (self), query,
          self->device))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS (gst_vmaf_hip_memory_copy_parent_class)->query
      (trans, direction, query);
}

/* @caps with every structure in @feature memory (NULL: system memory). */
static GstCaps *
caps_with_feature (GstCaps * caps, const gchar * feature)
{
  GstCaps *out = gst_caps_copy (caps);

  for (guint i = 0; i < gst_caps_get_size (out); i++)
    gst_caps_set_features (out, i, feature ?
        gst_caps_features_new (feature, NULL) : gst_caps_features_new_empty ());
  return gst_caps_simplify (out);
}

/* The format stays; the memory may change. The side that the element
 * exists for comes first: HIP memory on upload's src pad, system memory
 * on download's. */
static GstCaps *
gst_vmaf_hip_memory_copy_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstVmafHipMemoryCopyClass *klass = GST_VMAF_HIP_MEMORY_COPY_GET_CLASS (trans);
  gboolean hip_first = (direction == GST_PAD_SINK) == klass->to_hip;
  GstCaps *hip = caps_with_feature (caps, GST_VMAF_HIP_CAPS_FEATURE_MEMORY);
  GstCaps *sys = caps_with_feature (caps, NULL);
  GstCaps *out;

  out = hip_first ? gst_caps_merge (hip, sys) : gst_caps_merge (sys, hip);
  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, out,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (out);
    out = tmp;
  }
  GST_DEBUG_OBJECT (trans, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, out);
  return out;
}

static gboolean
caps_is_hip_at (GstCaps * caps, guint i)
{
  GstCapsFeatures *f = gst_caps_get_features (caps, i);

  return f && gst_caps_features_contains (f, GST_VMAF_HIP_CAPS_FEATURE_MEMORY);
}

static gboolean
caps_is_hip (GstCaps * caps)
{
  return caps_is_hip_at (caps, 0);
}

/* Peers may reorder the alternatives: pick the memory the element exists
 * for (HIP out of upload, system out of download) whenever the other side
 * accepts it, then fixate as usual. */
static GstCaps *
gst_vmaf_hip_memory_copy_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  GstVmafHipMemoryCopyClass *klass = GST_VMAF_HIP_MEMORY_COPY_GET_CLASS (trans);
  gboolean want_hip = (direction == GST_PAD_SINK) == klass->to_hip;

  for (guint i = 0; i < gst_caps_get_size (othercaps); i++) {
    if (caps_is_hip_at (othercaps, i) == want_hip) {
      GstCaps *one = gst_caps_copy_nth (othercaps, i);
      gst_caps_unref (othercaps);
      othercaps = one;
      break;
    }
  }
  return GST_BASE_TRANSFORM_CLASS (gst_vmaf_hip_memory_copy_parent_class)
      ->fixate_caps (trans, direction, caps, othercaps);
}

static gboolean
gst_vmaf_hip_memory_copy_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstVmafHipMemoryCopy *self = GST_VMAF_HIP_MEMORY_COPY (trans);

  if (!gst_video_info_from_caps (&self->in_info, incaps) ||
      !gst_video_info_from_caps (&self->out_info, outcaps)) {
    GST_ERROR_OBJECT (self, "caps are not raw video");
    return FALSE;
  }
  self->in_hip = caps_is_hip (incaps);
  self->out_hip = caps_is_hip (outcaps);
  GST_DEBUG_OBJECT (self, "%s memory to %s memory",
      self->in_hip ? "HIP" : "system", self->out_hip ? "HIP" : "system");
  return TRUE;
}

static gboolean
gst_vmaf_hip_memory_copy_transform_size (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, gsize size, GstCaps * othercaps,
    gsize * othersize)
{
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, othercaps))
    return FALSE;
  *othersize = info.size;
  return TRUE;
}

/* One error for every failed copy, in the direction the element moves
 * frames. */
static GstFlowReturn
gst_vmaf_hip_memory_copy_transform (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstVmafHipMemoryCopyClass *klass = GST_VMAF_HIP_MEMORY_COPY_GET_CLASS (trans);
  GError *error = NULL;
  gint code;
  gchar *text;

  if (klass->copy (GST_VMAF_HIP_MEMORY_COPY (trans), inbuf, outbuf, &error))
    return GST_FLOW_OK;
  code = klass->to_hip ? GST_RESOURCE_ERROR_WRITE : GST_RESOURCE_ERROR_READ;
  text = g_strdup_printf ("%s failed: %s", klass->to_hip ?
      "Upload to the GPU" : "Download from the GPU", error->message);
  gst_element_message_full (GST_ELEMENT_CAST (trans), GST_MESSAGE_ERROR,
      GST_RESOURCE_ERROR, code, text, NULL, __FILE__, GST_FUNCTION, __LINE__);
  g_error_free (error);
  return GST_FLOW_ERROR;
}

static void
add_pad_template (GstElementClass * element_class, const gchar * name,
    GstPadDirection direction, gboolean hip_first)
{
  GstCaps *caps = gst_caps_from_string (hip_first ?
      GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_VMAF_HIP_CAPS_FEATURE_MEMORY,
          GST_VMAF_HIP_MEMORY_COPY_FORMATS) "; "
      GST_VIDEO_CAPS_MAKE (GST_VMAF_HIP_MEMORY_COPY_FORMATS) :
      GST_VIDEO_CAPS_MAKE (GST_VMAF_HIP_MEMORY_COPY_FORMATS) "; "
      GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_VMAF_HIP_CAPS_FEATURE_MEMORY,
          GST_VMAF_HIP_MEMORY_COPY_FORMATS));

  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new (name, direction, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
}

void
gst_vmaf_hip_memory_copy_class_setup (GstVmafHipMemoryCopyClass * klass,
    gboolean to_hip, const gchar * longname, const gchar * description)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  klass->to_hip = to_hip;
  /* each pad lists first the memory it exists for */
  add_pad_template (element_class, "sink", GST_PAD_SINK, !to_hip);
  add_pad_template (element_class, "src", GST_PAD_SRC, to_hip);
  gst_element_class_set_static_metadata (element_class, longname,
      "Filter/Video/Hardware", description, "vmafhip developers");
}

static void
gst_vmaf_hip_memory_copy_class_init (GstVmafHipMemoryCopyClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_vmaf_hip_memory_copy_set_property;
  gobject_class->get_property = gst_vmaf_hip_memory_copy_get_property;
  gobject_class->finalize = gst_vmaf_hip_memory_copy_finalize;

  /**
   * GstVmafHipMemoryCopy:device-id:
   *
   * Index of the device to use among its vendor's devices; -1 takes the one
   * the pipeline shares (GstContext "vmafhip.hip.device") or else device 0.
   */
  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("device-id", "Device ID",
          "HIP device index (-1: the pipeline's, else 0)", -1, G_MAXINT,
          DEFAULT_DEVICE_ID, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  /**
   * GstVmafHipMemoryCopy:vendor:
   *
   * GPU vendor: AMD (HIP runtime) or NVIDIA (CUDA driver); "unknown" picks
   * the first one that has a device.
   */
  g_object_class_install_property (gobject_class, PROP_VENDOR,
      g_param_spec_enum ("vendor", "Vendor",
          "GPU vendor (unknown: automatic)", GST_TYPE_VMAF_HIP_VENDOR,
          DEFAULT_VENDOR, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  element_class->set_context =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_memory_copy_set_context);

  trans_class->passthrough_on_same_caps = TRUE;
  trans_class->start = GST_DEBUG_FUNCPTR (gst_vmaf_hip_memory_copy_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_vmaf_hip_memory_copy_stop);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_vmaf_hip_memory_copy_query);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_memory_copy_transform_caps);
  trans_class->fixate_caps =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_memory_copy_fixate_caps);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_vmaf_hip_memory_copy_set_caps);
  trans_class->transform_size =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_memory_copy_transform_size);
  trans_class->transform =
      GST_DEBUG_FUNCPTR (gst_vmaf_hip_memory_copy_transform);

  gst_type_mark_as_plugin_api (GST_TYPE_VMAF_HIP_MEMORY_COPY, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_VMAF_HIP_VENDOR, 0);
  GST_DEBUG_CATEGORY_INIT (gst_vmaf_hip_memory_copy_debug, "vmafhipmemorycopy",
      0, "HIP upload/download base");
}

static void
gst_vmaf_hip_memory_copy_init (GstVmafHipMemoryCopy * self)
{
  self->device_id = DEFAULT_DEVICE_ID;
  self->vendor = DEFAULT_VENDOR;
}

GstVmafHipDevice *
gst_vmaf_hip_memory_copy_get_device (GstVmafHipMemoryCopy * self)
{
  return self->device;
}

const GstVideoInfo *
gst_vmaf_hip_memory_copy_get_info (GstVmafHipMemoryCopy * self,
    GstPadDirection direction, gboolean * is_hip)
{
  if (is_hip)
    *is_hip = direction == GST_PAD_SINK ? self->in_hip : self->out_hip;
  return direction == GST_PAD_SINK ? &self->in_info : &self->out_info;
}

GstBufferPool *
gst_vmaf_hip_memory_copy_new_pool (GstVmafHipMemoryCopy * self, GstCaps * caps,
    guint min, guint max, guint * size)
{
  GstBufferPool *pool = gst_vmaf_hip_buffer_pool_new (self->device);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstVideoInfo info, layout;

  if (!gst_video_info_from_caps (&info, caps)) {
    gst_structure_free (config);
    gst_object_unref (pool);
    return NULL;
  }
  gst_vmaf_hip_memory_layout (self->device, &info, &layout);
  gst_buffer_pool_config_set_params (config, caps, layout.size, min, max);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_ERROR_OBJECT (self, "HIP pool refused %" GST_PTR_FORMAT, caps);
    gst_object_unref (pool);
    return NULL;
  }
  *size = layout.size;
  return pool;
}
