/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipgsthip.h"

#include <dlfcn.h>

/* libgsthip's soname since 1.28; VH_GSTHIP_LIBRARY names another (tests
 * load a stand-in). */
#define GSTHIP_LIBRARY "libgsthip-1.0.so.0"
/* GST_MAP_HIP: the mapping gives the device address. */
#define MAP_HIP (GST_MAP_FLAG_LAST << 1)
/* GstHipVendor's values (gsthip-enums.h). */
#define GSTHIP_VENDOR_AMD 1
#define GSTHIP_VENDOR_NVIDIA 2

/* The public head of libgsthip's GstHipMemory (gsthipmemory.h). */
typedef struct
{
  GstMemory mem;
  GstObject *device;            /* GstHipDevice */
} HipMemoryHead;

typedef struct
{
  gboolean (*is_hip_memory) (GstMemory * mem);
  void (*memory_sync) (GstMemory * mem);
  gint (*device_get_vendor) (GstObject * device);
  guint (*device_get_device_id) (GstObject * device);
  gboolean usable;
} GstHipApi;

/* libgsthip as the process has it: the plugin that made the memory
 * loaded it, so it is only looked up, never loaded by us (a library not
 * in the process makes no such memory). */
static GstHipApi *
gsthip_api (void)
{
  static GstHipApi api;
  static gsize done;

  if (g_once_init_enter (&done)) {
    const gchar *name = g_getenv ("VH_GSTHIP_LIBRARY");
    gpointer lib = name ? dlopen (name, RTLD_NOW | RTLD_LOCAL) :
        dlopen (GSTHIP_LIBRARY, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);

    if (lib) {
      api.is_hip_memory = dlsym (lib, "gst_is_hip_memory");
      api.memory_sync = dlsym (lib, "gst_hip_memory_sync");
      api.device_get_vendor = dlsym (lib, "gst_hip_device_get_vendor");
      api.device_get_device_id = dlsym (lib, "gst_hip_device_get_device_id");
      api.usable = api.is_hip_memory && api.memory_sync &&
          api.device_get_vendor && api.device_get_device_id;
    }
    g_once_init_leave (&done, 1);
  }
  return &api;
}

gboolean
gst_vmaf_hip_gsthip_buffer_is_gsthip (GstBuffer * buffer)
{
  GstMemory *mem;

  if (gst_buffer_n_memory (buffer) != 1)
    return FALSE;
  mem = gst_buffer_peek_memory (buffer, 0);
  return mem->allocator && g_strcmp0 (mem->allocator->mem_type,
      GST_VMAF_HIP_GSTHIP_MEMORY_TYPE) == 0;
}

gboolean
gst_vmaf_hip_gsthip_buffer_is_ours (GstBuffer * buffer,
    GstVmafHipDevice * device, const gchar ** why_not)
{
  GstHipApi *api;
  HipMemoryHead *head;
  VhHipDevice *handle;
  gint vendor;

  *why_not = NULL;
  if (!gst_vmaf_hip_gsthip_buffer_is_gsthip (buffer))
    return FALSE;
  if (!device) {
    *why_not = "the element has no GPU";
    return FALSE;
  }
  api = gsthip_api ();
  if (!api->usable) {
    *why_not = "libgsthip's functions are not in the process";
    return FALSE;
  }
  head = (HipMemoryHead *) gst_buffer_peek_memory (buffer, 0);
  /* an allocator that only calls its memory HIPMemory is not libgsthip's */
  if (!api->is_hip_memory (&head->mem) || !head->device) {
    *why_not = "the memory is not libgsthip's GstHipMemory";
    return FALSE;
  }
  handle = gst_vmaf_hip_device_get_handle (device);
  vendor = api->device_get_vendor (head->device);
  if ((vendor == GSTHIP_VENDOR_AMD) !=
      (vh_hip_device_get_vendor (handle) == VH_HIP_VENDOR_AMD) ||
      (vendor == GSTHIP_VENDOR_NVIDIA) !=
      (vh_hip_device_get_vendor (handle) == VH_HIP_VENDOR_NVIDIA) ||
      api->device_get_device_id (head->device) !=
      vh_hip_device_get_index (handle)) {
    *why_not = "the memory is on another GPU than the element's";
    return FALSE;
  }
  return TRUE;
}

GstMapFlags
gst_vmaf_hip_gsthip_map_flags (void)
{
  return GST_MAP_READ | MAP_HIP;
}

void
gst_vmaf_hip_gsthip_buffer_sync (GstBuffer * buffer)
{
  GstHipApi *api = gsthip_api ();

  for (guint i = 0; api->usable && i < gst_buffer_n_memory (buffer); i++)
    api->memory_sync (gst_buffer_peek_memory (buffer, i));
}

gboolean
gst_vmaf_hip_gsthip_buffer_make_ready (GstBuffer * buffer)
{
  GstMapInfo map;

  for (guint i = 0; i < gst_buffer_n_memory (buffer); i++) {
    GstMemory *mem = gst_buffer_peek_memory (buffer, i);

    if (!gst_memory_map (mem, &map, gst_vmaf_hip_gsthip_map_flags ()))
      return FALSE;
    gst_memory_unmap (mem, &map);
  }
  gst_vmaf_hip_gsthip_buffer_sync (buffer);
  return TRUE;
}
