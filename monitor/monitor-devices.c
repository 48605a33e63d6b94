/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "monitor-devices.h"

/* The context type the plugin's elements share a GPU through. */
#define HIP_DEVICE_CONTEXT_TYPE "vmafhip.hip.device"

struct _MonitorDevices
{
  GMutex lock;
  GHashTable *contexts;         /* device number -> GstContext */
};

MonitorDevices *
monitor_devices_new (void)
{
  MonitorDevices *d = g_new0 (MonitorDevices, 1);

  g_mutex_init (&d->lock);
  d->contexts = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
      (GDestroyNotify) gst_context_unref);
  return d;
}

void
monitor_devices_free (MonitorDevices * devices)
{
  if (!devices)
    return;
  g_hash_table_unref (devices->contexts);
  g_mutex_clear (&devices->lock);
  g_free (devices);
}

/* The context for @device_id (-1: any shared one), with a reference. */
static GstContext *
lookup (MonitorDevices * d, gint device_id)
{
  GstContext *context = NULL;
  GHashTableIter it;
  gpointer value;

  g_mutex_lock (&d->lock);
  if (device_id >= 0) {
    context = g_hash_table_lookup (d->contexts, GINT_TO_POINTER (device_id));
  } else {
    g_hash_table_iter_init (&it, d->contexts);
    if (g_hash_table_iter_next (&it, NULL, &value))
      context = value;
  }
  if (context)
    gst_context_ref (context);
  g_mutex_unlock (&d->lock);
  return context;
}

static void
keep (MonitorDevices * d, GstContext * context)
{
  const GstStructure *s = gst_context_get_structure (context);
  guint id;

  if (!gst_structure_get_uint (s, "device-id", &id) || id > G_MAXINT)
    return;
  g_mutex_lock (&d->lock);
  if (!g_hash_table_contains (d->contexts, GINT_TO_POINTER (id))) {
    g_hash_table_insert (d->contexts, GINT_TO_POINTER (id),
        gst_context_ref (context));
    g_message ("GPU %u is shared by every channel that uses it", id);
  }
  g_mutex_unlock (&d->lock);
}

gboolean
monitor_devices_handle_message (MonitorDevices * devices, GstMessage * msg,
    gint device_id)
{
  const gchar *type = NULL;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_NEED_CONTEXT) {
    GstContext *context;

    if (!gst_message_parse_context_type (msg, &type) ||
        g_strcmp0 (type, HIP_DEVICE_CONTEXT_TYPE) != 0)
      return FALSE;
    context = lookup (devices, device_id);
    if (context) {
      /* Answered synchronously: the element looks right after posting. */
      gst_element_set_context (GST_ELEMENT (GST_MESSAGE_SRC (msg)), context);
      gst_context_unref (context);
    }
    return TRUE;
  }
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_HAVE_CONTEXT) {
    GstContext *context = NULL;

    gst_message_parse_have_context (msg, &context);
    if (!context)
      return FALSE;
    if (g_strcmp0 (gst_context_get_context_type (context),
            HIP_DEVICE_CONTEXT_TYPE) != 0) {
      gst_context_unref (context);
      return FALSE;
    }
    keep (devices, context);
    gst_context_unref (context);
    return TRUE;
  }
  return FALSE;
}

guint
monitor_devices_count (MonitorDevices * devices)
{
  guint n;

  g_mutex_lock (&devices->lock);
  n = g_hash_table_size (devices->contexts);
  g_mutex_unlock (&devices->lock);
  return n;
}
