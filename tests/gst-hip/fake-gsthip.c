/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The stand-in for libgsthip (see fake-gsthip.h). Its memory starts as
 * GStreamer's GstHipMemory does: a GstMemory, then the GstHipDevice. */

#include "fake-gsthip.h"

#define MAP_HIP (GST_MAP_FLAG_LAST << 1)

typedef struct
{
  GstObject parent;
  gint vendor;
  guint device_id;
} FakeDevice;

typedef GstObjectClass FakeDeviceClass;

static GType fake_device_get_type (void);
G_DEFINE_TYPE (FakeDevice, fake_device, GST_TYPE_OBJECT);

static void
fake_device_class_init (FakeDeviceClass * klass)
{
}

static void
fake_device_init (FakeDevice * self)
{
}

typedef struct
{
  GstMemory mem;
  GstObject *device;            /* as GstHipMemory's public head */
  gpointer device_ptr;
  guint8 *host;
  GDestroyNotify free_device;
} FakeMemory;

typedef GstAllocator FakeAllocator;
typedef GstAllocatorClass FakeAllocatorClass;

static GType fake_allocator_get_type (void);
G_DEFINE_TYPE (FakeAllocator, fake_allocator, GST_TYPE_ALLOCATOR);

static gint n_cpu_maps, n_syncs;

static gpointer
fake_map (GstMemory * gmem, gsize maxsize, GstMapFlags flags)
{
  FakeMemory *mem = (FakeMemory *) gmem;

  if (flags & MAP_HIP)
    return mem->device_ptr;
  g_atomic_int_inc (&n_cpu_maps);
  return mem->host;
}

static void
fake_unmap (GstMemory * gmem)
{
}

static void
fake_free (GstAllocator * allocator, GstMemory * gmem)
{
  FakeMemory *mem = (FakeMemory *) gmem;

  mem->free_device (mem->device_ptr);
  gst_object_unref (mem->device);
  g_free (mem->host);
  g_free (mem);
}

static void
fake_allocator_class_init (FakeAllocatorClass * klass)
{
  klass->free = fake_free;
}

static void
fake_allocator_init (FakeAllocator * self)
{
  self->mem_type = "HIPMemory";
  self->mem_map = fake_map;
  self->mem_unmap = fake_unmap;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

static GstAllocator *
fake_allocator (void)
{
  static GstAllocator *allocator;

  if (g_once_init_enter (&allocator)) {
    GstAllocator *a = g_object_new (fake_allocator_get_type (), NULL);
    gst_object_ref_sink (a);
    g_once_init_leave (&allocator, a);
  }
  return allocator;
}

GstMemory *
vh_fake_gsthip_memory_new (gint vendor, guint device_id,
    gpointer device_ptr, gsize size, gconstpointer host,
    GDestroyNotify free_device)
{
  FakeMemory *mem = g_new0 (FakeMemory, 1);
  FakeDevice *device = g_object_new (fake_device_get_type (), NULL);

  gst_object_ref_sink (device);
  device->vendor = vendor;
  device->device_id = device_id;
  mem->device = GST_OBJECT (device);
  mem->device_ptr = device_ptr;
  mem->host = g_memdup2 (host, size);
  mem->free_device = free_device;
  gst_memory_init (GST_MEMORY_CAST (mem), 0, fake_allocator (), NULL, size,
      0, 0, size);
  return GST_MEMORY_CAST (mem);
}

guint
vh_fake_gsthip_n_cpu_maps (void)
{
  return g_atomic_int_get (&n_cpu_maps);
}

guint
vh_fake_gsthip_n_syncs (void)
{
  return g_atomic_int_get (&n_syncs);
}

/* ---- libgsthip's functions ------------------------------------------- */

gboolean
gst_is_hip_memory (GstMemory * mem)
{
  return mem && mem->allocator &&
      G_TYPE_CHECK_INSTANCE_TYPE (mem->allocator, fake_allocator_get_type ());
}

void
gst_hip_memory_sync (GstMemory * mem)
{
  g_return_if_fail (gst_is_hip_memory (mem));
  g_atomic_int_inc (&n_syncs);
}

gint
gst_hip_device_get_vendor (GstObject * device)
{
  return ((FakeDevice *) device)->vendor;
}

guint
gst_hip_device_get_device_id (GstObject * device)
{
  return ((FakeDevice *) device)->device_id;
}
