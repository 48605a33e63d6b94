/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/**
 * SECTION:gstvmafhipdevice
 *
 * One HIP device (vendor and index) as a GstObject, so that elements can
 * share it through a GstContext of type "vmafhip.hip.device".
 */

#include "gstvmafhipdevice.h"

GST_DEBUG_CATEGORY_STATIC (gst_vmaf_hip_device_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_device_debug

struct _GstVmafHipDevice
{
  GstObject parent;

  VhHipDevice *handle;
  VhHipStream *stream;
};

enum
{
  PROP_0,
  PROP_DEVICE_ID,
  PROP_VENDOR,
  PROP_NAME,
  PROP_ARCH,
};

GType
gst_vmaf_hip_vendor_get_type (void)
{
  static gsize type_id = 0;
  static const GEnumValue values[] = {
    {GST_VMAF_HIP_VENDOR_UNKNOWN, "Any (automatic)", "unknown"},
    {GST_VMAF_HIP_VENDOR_AMD, "AMD", "amd"},
    {GST_VMAF_HIP_VENDOR_NVIDIA, "NVIDIA", "nvidia"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type_id)) {
    GType id = g_enum_register_static ("GstVmafHipVendor", values);
    g_once_init_leave (&type_id, id);
  }
  return type_id;
}

G_DEFINE_TYPE (GstVmafHipDevice, gst_vmaf_hip_device, GST_TYPE_OBJECT);

static void
gst_vmaf_hip_device_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstVmafHipDevice *self = GST_VMAF_HIP_DEVICE (object);
  const VhHipDeviceInfo *info;

  /* only gst_vmaf_hip_device_new() makes usable devices */
  if (!self->handle)
    return;
  info = vh_hip_device_get_info (self->handle);
  switch (prop_id) {
    case PROP_DEVICE_ID:
      g_value_set_uint (value, info->index);
      break;
    case PROP_VENDOR:
      g_value_set_enum (value, info->vendor);
      break;
    case PROP_NAME:
      g_value_set_string (value, info->name);
      break;
    case PROP_ARCH:
      g_value_set_string (value, info->arch);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_vmaf_hip_device_finalize (GObject * object)
{
  GstVmafHipDevice *self = GST_VMAF_HIP_DEVICE (object);

  GST_DEBUG_OBJECT (self, "closing");
  vh_hip_stream_free (self->stream);
  vh_hip_device_unref (self->handle);
  G_OBJECT_CLASS (gst_vmaf_hip_device_parent_class)->finalize (object);
}

static void
gst_vmaf_hip_device_class_init (GstVmafHipDeviceClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  gobject_class->get_property = gst_vmaf_hip_device_get_property;
  gobject_class->finalize = gst_vmaf_hip_device_finalize;

  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_uint ("device-id", "Device ID",
          "Index of the device among its vendor's devices", 0, G_MAXUINT, 0,
          flags));
  g_object_class_install_property (gobject_class, PROP_VENDOR,
      g_param_spec_enum ("vendor", "Vendor", "GPU vendor",
          GST_TYPE_VMAF_HIP_VENDOR, GST_VMAF_HIP_VENDOR_UNKNOWN, flags));
  g_object_class_install_property (gobject_class, PROP_NAME,
      g_param_spec_string ("name", "Name", "Device name", NULL, flags));
  g_object_class_install_property (gobject_class, PROP_ARCH,
      g_param_spec_string ("arch", "Architecture",
          "Device architecture (gfx90a, sm_90, ...)", NULL, flags));

  GST_DEBUG_CATEGORY_INIT (gst_vmaf_hip_device_debug, "vmafhipdevice", 0,
      "HIP device");
}

static void
gst_vmaf_hip_device_init (GstVmafHipDevice * self)
{
}

GstVmafHipDevice *
gst_vmaf_hip_device_new (GstVmafHipVendor vendor, gint device_id,
    GError ** error)
{
  VhHipDevice *handle;
  VhHipStream *stream;
  GstVmafHipDevice *self;

  handle = vh_hip_device_open ((VhHipVendor) vendor, MAX (device_id, 0), error);
  if (!handle)
    return NULL;
  stream = vh_hip_stream_new (handle, error);
  if (!stream) {
    vh_hip_device_unref (handle);
    return NULL;
  }
  self = g_object_new (GST_TYPE_VMAF_HIP_DEVICE, NULL);
  gst_object_ref_sink (self);
  self->handle = handle;
  self->stream = stream;
  GST_INFO_OBJECT (self, "opened %s device %d: %s (%s)",
      vh_hip_vendor_to_string (vh_hip_device_get_vendor (handle)),
      vh_hip_device_get_index (handle),
      vh_hip_device_get_info (handle)->name,
      vh_hip_device_get_info (handle)->arch);
  return self;
}

VhHipDevice *
gst_vmaf_hip_device_get_handle (GstVmafHipDevice * device)
{
  g_return_val_if_fail (GST_IS_VMAF_HIP_DEVICE (device), NULL);
  return device->handle;
}

VhHipStream *
gst_vmaf_hip_device_get_stream (GstVmafHipDevice * device)
{
  g_return_val_if_fail (GST_IS_VMAF_HIP_DEVICE (device), NULL);
  return device->stream;
}

GstVmafHipVendor
gst_vmaf_hip_device_get_vendor (GstVmafHipDevice * device)
{
  g_return_val_if_fail (GST_IS_VMAF_HIP_DEVICE (device),
      GST_VMAF_HIP_VENDOR_UNKNOWN);
  return (GstVmafHipVendor) vh_hip_device_get_vendor (device->handle);
}

guint
gst_vmaf_hip_device_get_device_id (GstVmafHipDevice * device)
{
  g_return_val_if_fail (GST_IS_VMAF_HIP_DEVICE (device), 0);
  return vh_hip_device_get_index (device->handle);
}

gboolean
gst_vmaf_hip_device_is_equal (GstVmafHipDevice * a, GstVmafHipDevice * b)
{
  if (a == b)
    return TRUE;
  if (!a || !b)
    return FALSE;
  return gst_vmaf_hip_device_get_vendor (a) ==
      gst_vmaf_hip_device_get_vendor (b)
      && gst_vmaf_hip_device_get_device_id (a) ==
      gst_vmaf_hip_device_get_device_id (b);
}
