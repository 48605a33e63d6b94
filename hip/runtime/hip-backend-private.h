/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_HIP_BACKEND_PRIVATE_H__
#define __VH_HIP_BACKEND_PRIVATE_H__

#include "vhhip.h"
#include "hip-library-private.h"

G_BEGIN_DECLS

/*
 * What each vendor implements, in neutral types. Every function returns the
 * vendor's status code, 0 on success; error_string() turns one into text.
 * Handles (contexts, streams, events, modules, functions) are opaque
 * pointers. Calls other than those on devices expect the device to be
 * current (see push/pop).
 */
typedef struct _VhHipBackend VhHipBackend;

struct _VhHipBackend
{
  VhHipVendor vendor;
  gchar *library;               /* the library loaded */
  gchar *description;           /* for vh_hip_runtime_describe() */
  gint no_device_code;          /* the code that means "no device" */
  gint not_ready_code;          /* the code of an unfinished query */

  const gchar *(*error_string) (gint code);

  gint (*get_device_count) (gint * count);
  /* Fills everything but vendor and index. */
  gint (*get_device_info) (gint ordinal, VhHipDeviceInfo * info);
  gint (*device_open) (gint ordinal, gpointer * handle);
  void (*device_close) (gint ordinal, gpointer handle);
  gint (*push) (gint ordinal, gpointer handle);
  void (*pop) (gint ordinal, gpointer handle);

  gint (*malloc_pitch) (gpointer * ptr, gsize * pitch, gsize width,
      gsize height);
  gint (*malloc) (gpointer * ptr, gsize size);
  gint (*free) (gpointer ptr);
  gint (*host_alloc) (gpointer * ptr, gsize size);
  gint (*host_free) (gpointer ptr);
  gint (*memcpy_2d_async) (VhHipCopyKind kind, gpointer dst, gsize dpitch,
      gconstpointer src, gsize spitch, gsize width, gsize height,
      gpointer stream);
  gint (*memset_2d_async) (gpointer ptr, gsize pitch, guint8 value,
      gsize width, gsize height, gpointer stream);

  gint (*stream_create) (gpointer * stream);
  gint (*stream_destroy) (gpointer stream);
  gint (*stream_synchronize) (gpointer stream);
  gint (*stream_wait_event) (gpointer stream, gpointer event);
  gint (*event_create) (gpointer * event, gboolean timing);
  gint (*event_destroy) (gpointer event);
  gint (*event_record) (gpointer event, gpointer stream);
  gint (*event_synchronize) (gpointer event);
  gint (*event_query) (gpointer event);
  gint (*event_elapsed) (gfloat * ms, gpointer start, gpointer end);

  gint (*module_load) (gpointer * module, gconstpointer image);
  gint (*module_unload) (gpointer module);
  gint (*module_get_function) (gpointer * function, gpointer module,
      const gchar * name);
  gint (*launch) (gpointer function, const guint grid[3],
      const guint block[3], guint shared_bytes, gpointer stream,
      gpointer * args);
};

/* Loads @vendor's runtime; NULL with @error: NO_RUNTIME when the library
 * is missing or lacks a function, NO_DEVICE when it loads but does not
 * initialise (no GPU, no kernel driver). */
const VhHipBackend *vh_hip_backend_amd_load    (GError ** error);
const VhHipBackend *vh_hip_backend_nvidia_load (GError ** error);

/* The loaded backend of @vendor (which must be AMD or NVIDIA), loading it
 * first. */
const VhHipBackend *vh_hip_backend_get  (VhHipVendor vendor, GError ** error);

/* Sets @error to "@what failed: <vendor text> (code)" unless @code is 0. */
gboolean     vh_hip_backend_check       (const VhHipBackend * backend,
                                         gint code, const gchar * what,
                                         GError ** error);

struct _VhHipDevice
{
  gint ref_count;
  const VhHipBackend *backend;
  gint ordinal;
  gpointer handle;
  VhHipDeviceInfo info;
};

struct _VhHipStream
{
  VhHipDevice *device;
  gpointer handle;
};

struct _VhHipEvent
{
  VhHipDevice *device;
  gpointer handle;
};

/* Push @device, or return FALSE from the caller with @error set. */
#define VH_HIP_PUSH_OR_RETURN(device, error, ret)     \
  G_STMT_START {                                      \
    if (!vh_hip_device_push ((device), (error)))      \
      return (ret);                                   \
  } G_STMT_END

/* Faults injected for tests (hip-fault.c, VH_HIP_FAULT). */
typedef enum
{
  VH_HIP_FAULT_ALLOC,
  VH_HIP_FAULT_LAUNCH,
  VH_HIP_FAULT_SYNC,
  VH_HIP_N_FAULTS
} VhHipFaultKind;

/* The error code the call of @kind is to fail with now, or 0; always 0
 * unless built with -Dfault_injection=true. */
#ifdef VH_HIP_FAULT_INJECTION
gint         vh_hip_fault_code          (VhHipFaultKind kind);
#else
static inline gint
vh_hip_fault_code (VhHipFaultKind kind)
{
  return 0;
}
#endif

/* Pops @device, then checks @code like vh_hip_backend_check(), naming the
 * device in the error ("device 0 (NAME): hipMalloc failed: ..."). */
static inline gboolean
vh_hip_device_call_done (VhHipDevice * device, gint code, const gchar * what,
    GError ** error)
{
  vh_hip_device_pop (device);
  if (vh_hip_backend_check (device->backend, code, what, error))
    return TRUE;
  g_prefix_error (error, "device %d (%s): ", device->ordinal,
      device->info.name);
  return FALSE;
}

G_END_DECLS

#endif /* __VH_HIP_BACKEND_PRIVATE_H__ */
