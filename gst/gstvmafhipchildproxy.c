/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* vmafhipcompare's children: its sink pads (see the header). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipchildproxy.h"

static GObject *
child_by_index (GstChildProxy * proxy, guint index)
{
  GstElement *element = GST_ELEMENT (proxy);
  GObject *child;

  GST_OBJECT_LOCK (element);
  child = g_list_nth_data (element->sinkpads, index);
  if (child)
    g_object_ref (child);
  GST_OBJECT_UNLOCK (element);
  return child;
}

static GObject *
child_by_name (GstChildProxy * proxy, const gchar * name)
{
  GstElement *element = GST_ELEMENT (proxy);
  GObject *child = NULL;

  GST_OBJECT_LOCK (element);
  for (GList * l = element->sinkpads; l && !child; l = l->next) {
    if (!g_strcmp0 (GST_OBJECT_NAME (l->data), name))
      child = g_object_ref (l->data);
  }
  GST_OBJECT_UNLOCK (element);
  return child;
}

static guint
children_count (GstChildProxy * proxy)
{
  GstElement *element = GST_ELEMENT (proxy);
  guint count;

  GST_OBJECT_LOCK (element);
  count = element->numsinkpads;
  GST_OBJECT_UNLOCK (element);
  return count;
}

void
gst_vmaf_hip_child_proxy_init (gpointer g_iface, gpointer iface_data)
{
  GstChildProxyInterface *iface = g_iface;

  iface->get_child_by_index = child_by_index;
  iface->get_child_by_name = child_by_name;
  iface->get_children_count = children_count;
}
