/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Sharing one HIP device between the elements of a pipeline with
 * GstContext, the way GStreamer's GPU libraries do. */

#include "gstvmafhiputils.h"

GST_DEBUG_CATEGORY_STATIC (gst_vmaf_hip_context_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_context_debug

static void
init_debug (void)
{
  static gsize once;

  if (g_once_init_enter (&once)) {
    GST_DEBUG_CATEGORY_INIT (gst_vmaf_hip_context_debug, "vmafhipcontext", 0,
        "HIP device sharing");
    g_once_init_leave (&once, 1);
  }
}

static void
context_set_device (GstContext * context, GstVmafHipDevice * device)
{
  GstStructure *s = gst_context_writable_structure (context);

  gst_structure_set (s, "device", GST_TYPE_VMAF_HIP_DEVICE, device,
      "vendor", GST_TYPE_VMAF_HIP_VENDOR,
      gst_vmaf_hip_device_get_vendor (device), "device-id", G_TYPE_UINT,
      gst_vmaf_hip_device_get_device_id (device), NULL);
}

GstContext *
gst_context_new_vmaf_hip_device (GstVmafHipDevice * device)
{
  GstContext *context;

  g_return_val_if_fail (GST_IS_VMAF_HIP_DEVICE (device), NULL);
  context = gst_context_new (GST_VMAF_HIP_DEVICE_CONTEXT_TYPE, TRUE);
  context_set_device (context, device);
  return context;
}

gboolean
gst_vmaf_hip_handle_set_context (GstElement * element, GstContext * context,
    GstVmafHipVendor vendor, gint device_id, GstVmafHipDevice ** device)
{
  const GstStructure *s;
  GstVmafHipDevice *other = NULL;

  g_return_val_if_fail (device != NULL, FALSE);
  init_debug ();
  if (!context || g_strcmp0 (gst_context_get_context_type (context),
          GST_VMAF_HIP_DEVICE_CONTEXT_TYPE) != 0)
    return FALSE;
  if (*device)
    return TRUE;
  s = gst_context_get_structure (context);
  if (!gst_structure_get (s, "device", GST_TYPE_VMAF_HIP_DEVICE, &other, NULL)
      || !other)
    return FALSE;
  if ((vendor != GST_VMAF_HIP_VENDOR_UNKNOWN &&
          vendor != gst_vmaf_hip_device_get_vendor (other)) ||
      (device_id >= 0 &&
          (guint) device_id != gst_vmaf_hip_device_get_device_id (other))) {
    GST_DEBUG_OBJECT (element, "context device %" GST_PTR_FORMAT
        " is not the one asked for", other);
    gst_object_unref (other);
    return FALSE;
  }
  GST_DEBUG_OBJECT (element, "using the context's device %" GST_PTR_FORMAT,
      other);
  *device = other;
  return TRUE;
}

gboolean
gst_vmaf_hip_handle_context_query (GstElement * element, GstQuery * query,
    GstVmafHipDevice * device)
{
  const gchar *type;
  GstContext *old = NULL, *context;

  if (!device || GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT)
    return FALSE;
  gst_query_parse_context_type (query, &type);
  if (g_strcmp0 (type, GST_VMAF_HIP_DEVICE_CONTEXT_TYPE) != 0)
    return FALSE;
  gst_query_parse_context (query, &old);
  context = old ? gst_context_copy (old) :
      gst_context_new (GST_VMAF_HIP_DEVICE_CONTEXT_TYPE, TRUE);
  context_set_device (context, device);
  gst_query_set_context (query, context);
  gst_context_unref (context);
  return TRUE;
}

static gboolean
query_peers (GstElement * element, GstQuery * query, GstPadDirection dir)
{
  GstIterator *it = dir == GST_PAD_SRC ?
      gst_element_iterate_src_pads (element) :
      gst_element_iterate_sink_pads (element);
  GValue item = G_VALUE_INIT;
  gboolean answered = FALSE, done = FALSE;

  while (!done && !answered) {
    switch (gst_iterator_next (it, &item)) {
      case GST_ITERATOR_OK:
        answered = gst_pad_peer_query (g_value_get_object (&item), query);
        g_value_reset (&item);
        break;
      case GST_ITERATOR_RESYNC:
        gst_iterator_resync (it);
        break;
      default:
        done = TRUE;
        break;
    }
  }
  g_value_unset (&item);
  gst_iterator_free (it);
  return answered;
}

gboolean
gst_vmaf_hip_ensure_element_device (GstElement * element,
    GstVmafHipVendor vendor, gint device_id, GstVmafHipDevice ** device,
    GError ** error)
{
  GstQuery *query;
  GstContext *context = NULL;

  init_debug ();
  if (*device)
    return TRUE;

  /* the neighbours, downstream first */
  query = gst_query_new_context (GST_VMAF_HIP_DEVICE_CONTEXT_TYPE);
  if (query_peers (element, query, GST_PAD_SRC) ||
      query_peers (element, query, GST_PAD_SINK)) {
    gst_query_parse_context (query, &context);
    if (context)
      gst_element_set_context (element, context);
  }
  gst_query_unref (query);

  /* the application, through the bus (set_context answers synchronously) */
  if (!*device)
    gst_element_post_message (element,
        gst_message_new_need_context (GST_OBJECT_CAST (element),
            GST_VMAF_HIP_DEVICE_CONTEXT_TYPE));
  if (*device)
    return TRUE;

  /* our own, offered to the others */
  *device = gst_vmaf_hip_device_new (vendor, device_id, error);
  if (!*device)
    return FALSE;
  context = gst_context_new_vmaf_hip_device (*device);
  GST_INFO_OBJECT (element, "opened %" GST_PTR_FORMAT, *device);
  gst_element_set_context (element, context);
  gst_element_post_message (element,
      gst_message_new_have_context (GST_OBJECT_CAST (element), context));
  return TRUE;
}
