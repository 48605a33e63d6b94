/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __VH_FAKE_GSTHIP_H__
#define __VH_FAKE_GSTHIP_H__

/* A stand-in for GStreamer 1.28's libgsthip (fake-gsthip.c), as much of it
 * as vmafhipcompare uses (gst_is_hip_memory, gst_hip_memory_sync,
 * gst_hip_device_get_vendor, gst_hip_device_get_device_id), loaded by the
 * element through VH_GSTHIP_LIBRARY: memory of type "HIPMemory" holding a
 * frame in a device allocation of the GPU stand-in, with a host copy that
 * a CPU mapping gives (counted). Each memory starts as hipupload's output
 * does, waiting for its upload (done by its first mapping for the device)
 * and with its producer's event set (waited for by the first
 * gst_hip_memory_sync()); which thread did each is counted. */

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/* A GstHipMemory-like memory of @size bytes at device address @device_ptr
 * (freed with @free_device when the memory is), with @host (copied) for
 * CPU mappings, on device @device_id of @vendor (1 AMD, 2 NVIDIA, as
 * GstHipVendor). */
GstMemory   *vh_fake_gsthip_memory_new   (gint vendor, guint device_id,
                                          gpointer device_ptr, gsize size,
                                          gconstpointer host,
                                          GDestroyNotify free_device);

/* CPU mappings and gst_hip_memory_sync() calls since the start. */
guint        vh_fake_gsthip_n_cpu_maps   (void);
guint        vh_fake_gsthip_n_syncs      (void);

/* Uploads, and waits for a producer's event, since the start on threads
 * named @thread_name (a GstTask's thread is named element:pad), or on any
 * thread when it is NULL. */
guint        vh_fake_gsthip_n_uploads_on (const gchar * thread_name);
guint        vh_fake_gsthip_n_waits_on   (const gchar * thread_name);

G_END_DECLS

#endif /* __VH_FAKE_GSTHIP_H__ */
