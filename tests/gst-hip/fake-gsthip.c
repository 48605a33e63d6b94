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

#include <pthread.h>

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
  GMutex lock;
  gboolean need_upload;         /* written on the CPU, not yet on the device */
  gboolean has_event;           /* its producer's work not yet waited for */
} FakeMemory;

typedef GstAllocator FakeAllocator;
typedef GstAllocatorClass FakeAllocatorClass;

static GType fake_allocator_get_type (void);
G_DEFINE_TYPE (FakeAllocator, fake_allocator, GST_TYPE_ALLOCATOR);

static gint n_cpu_maps, n_syncs;
/* thread name -> uploads, waits (GUINT_TO_POINTER), under their lock */
static GMutex thread_lock;
static GHashTable *uploads_by_thread, *waits_by_thread;

static void
count_on_this_thread (GHashTable ** table)
{
  gchar name[64] = "";

  pthread_getname_np (pthread_self (), name, sizeof (name));
  g_mutex_lock (&thread_lock);
  if (!*table)
    *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_insert (*table, g_strdup (name), GUINT_TO_POINTER
      (GPOINTER_TO_UINT (g_hash_table_lookup (*table, name)) + 1));
  g_mutex_unlock (&thread_lock);
}

static guint
count_on (GHashTable * table, const gchar * thread_name)
{
  guint n = 0;
  GHashTableIter iter;
  gpointer key, value;

  g_mutex_lock (&thread_lock);
  if (table) {
    g_hash_table_iter_init (&iter, table);
    while (g_hash_table_iter_next (&iter, &key, &value))
      if (!thread_name || g_strcmp0 (key, thread_name) == 0)
        n += GPOINTER_TO_UINT (value);
  }
  g_mutex_unlock (&thread_lock);
  return n;
}

static gpointer
fake_map (GstMemory * gmem, gsize maxsize, GstMapFlags flags)
{
  FakeMemory *mem = (FakeMemory *) gmem;

  if (flags & MAP_HIP) {
    /* libgsthip uploads on the first mapping for the device, and waits */
    g_mutex_lock (&mem->lock);
    if (mem->need_upload)
      count_on_this_thread (&uploads_by_thread);
    mem->need_upload = FALSE;
    g_mutex_unlock (&mem->lock);
    return mem->device_ptr;
  }
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
  g_mutex_clear (&mem->lock);
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
  g_mutex_init (&mem->lock);
  mem->need_upload = TRUE;
  mem->has_event = TRUE;
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

guint
vh_fake_gsthip_n_uploads_on (const gchar * thread_name)
{
  return count_on (uploads_by_thread, thread_name);
}

guint
vh_fake_gsthip_n_waits_on (const gchar * thread_name)
{
  return count_on (waits_by_thread, thread_name);
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
  FakeMemory *fmem = (FakeMemory *) mem;

  g_return_if_fail (gst_is_hip_memory (mem));
  g_atomic_int_inc (&n_syncs);
  /* the event is waited for once, then cleared */
  g_mutex_lock (&fmem->lock);
  if (fmem->has_event)
    count_on_this_thread (&waits_by_thread);
  fmem->has_event = FALSE;
  g_mutex_unlock (&fmem->lock);
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
