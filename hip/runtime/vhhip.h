/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_HIP_H__
#define __VH_HIP_H__

#include <glib.h>

G_BEGIN_DECLS

/*
 * The HIP runtime layer: one small C interface with HIP names over the GPU
 * vendor runtimes, loaded at run time (no GPU toolkit is needed to build or
 * to run anything that uses it):
 *
 *  - AMD through the HIP runtime (libamdhip64.so.7, .6 or .5);
 *  - NVIDIA through the CUDA driver API (libcuda.so.1).
 *
 * Every call that touches a device makes that device current on the calling
 * thread for the duration of the call, so callers never manage contexts.
 * Device pointers are plain pointers (gpointer); they are meaningless on the
 * CPU.
 */

typedef enum
{
  VH_HIP_VENDOR_UNKNOWN = 0,    /* as a request: pick automatically */
  VH_HIP_VENDOR_AMD = 1,
  VH_HIP_VENDOR_NVIDIA = 2,
} VhHipVendor;

#define VH_HIP_ERROR (vh_hip_error_quark ())

typedef enum
{
  VH_HIP_ERROR_NO_RUNTIME,      /* no vendor runtime library could be loaded */
  VH_HIP_ERROR_NO_DEVICE,       /* a runtime loaded but reports no device */
  VH_HIP_ERROR_INVALID_DEVICE,  /* device index out of range */
  VH_HIP_ERROR_CALL,            /* a runtime call failed */
  VH_HIP_ERROR_COMPILE,         /* a kernel could not be built or loaded */
  VH_HIP_ERROR_INVALID_ARGUMENT,
} VhHipError;

GQuark       vh_hip_error_quark          (void);

const gchar *vh_hip_vendor_to_string     (VhHipVendor vendor);

/* Accepts "auto", "amd" and "nvidia" (case-insensitive). */
gboolean     vh_hip_vendor_from_string   (const gchar * str,
                                          VhHipVendor * vendor);

/* ---- loader ---------------------------------------------------------- */

/* Loads and initialises the runtime of @vendor (once per process; later
 * calls return the first outcome). With VH_HIP_VENDOR_UNKNOWN, picks the
 * first vendor whose runtime loads and has at least one device, AMD first.
 * Returns the vendor loaded, or VH_HIP_VENDOR_UNKNOWN with @error saying,
 * for every vendor tried, why it was not usable. The environment variables
 * VH_HIP_AMD_RUNTIME and VH_HIP_NVIDIA_RUNTIME, when set, name the library
 * to load instead of the usual ones. */
VhHipVendor  vh_hip_load                 (VhHipVendor vendor, GError ** error);

/* "AMD HIP runtime 5.2 (libamdhip64.so.5)", "NVIDIA CUDA driver 13.0
 * (libcuda.so.1)"; NULL when that vendor's runtime is not loaded. */
const gchar *vh_hip_runtime_describe     (VhHipVendor vendor);

/* ---- devices --------------------------------------------------------- */

typedef struct _VhHipDevice VhHipDevice;

typedef struct
{
  VhHipVendor vendor;
  guint index;
  gchar name[256];
  gchar arch[64];               /* "gfx90a", "sm_90" */
  guint64 total_memory;
  gint major;                   /* compute capability, as the runtime says */
  gint minor;
  guint multiprocessors;
  guint warp_size;
  guint max_threads_per_block;
  guint pitch_alignment;        /* bytes; the pitch of 2D allocations is a
                                 * multiple of this */
} VhHipDeviceInfo;

/* Devices of @vendor (loading it first). */
gboolean     vh_hip_get_device_count     (VhHipVendor vendor, guint * count,
                                          GError ** error);

/* Opens device @index of @vendor (VH_HIP_VENDOR_UNKNOWN: the automatic
 * choice). Fails with NO_RUNTIME, NO_DEVICE or INVALID_DEVICE. */
VhHipDevice *vh_hip_device_open          (VhHipVendor vendor, guint index,
                                          GError ** error);

VhHipDevice *vh_hip_device_ref           (VhHipDevice * device);

void         vh_hip_device_unref         (VhHipDevice * device);

const VhHipDeviceInfo *vh_hip_device_get_info (VhHipDevice * device);

VhHipVendor  vh_hip_device_get_vendor    (VhHipDevice * device);

guint        vh_hip_device_get_index     (VhHipDevice * device);

/* The vendor's own context of @device (NVIDIA: the device's primary
 * CUcontext; AMD: NULL), for sharing it with other libraries that work on
 * the same device. Owned by the device. */
gpointer     vh_hip_device_get_native_context (VhHipDevice * device);

/* Makes @device current on this thread until the matching pop; for calling
 * code that uses the vendor API directly. Nests. */
gboolean     vh_hip_device_push          (VhHipDevice * device,
                                          GError ** error);

void         vh_hip_device_pop           (VhHipDevice * device);

/* ---- streams and events --------------------------------------------- */

typedef struct _VhHipStream VhHipStream;
typedef struct _VhHipEvent VhHipEvent;

/* A non-blocking stream (does not wait for the legacy default stream). */
VhHipStream *vh_hip_stream_new           (VhHipDevice * device,
                                          GError ** error);

void         vh_hip_stream_free          (VhHipStream * stream);

VhHipDevice *vh_hip_stream_get_device    (VhHipStream * stream);

gboolean     vh_hip_stream_synchronize   (VhHipStream * stream,
                                          GError ** error);

/* Makes later work on @stream wait for @event. */
gboolean     vh_hip_stream_wait_event    (VhHipStream * stream,
                                          VhHipEvent * event,
                                          GError ** error);

/* @timing: whether vh_hip_event_elapsed_ms works with it. */
VhHipEvent  *vh_hip_event_new            (VhHipDevice * device,
                                          gboolean timing, GError ** error);

void         vh_hip_event_free           (VhHipEvent * event);

/* @stream NULL: the device's default stream. */
gboolean     vh_hip_event_record         (VhHipEvent * event,
                                          VhHipStream * stream,
                                          GError ** error);

gboolean     vh_hip_event_synchronize    (VhHipEvent * event,
                                          GError ** error);

/* TRUE when the work before the event is done; FALSE while it is not, or
 * on an error (then @error is set). */
gboolean     vh_hip_event_query          (VhHipEvent * event,
                                          GError ** error);

gboolean     vh_hip_event_elapsed_ms     (VhHipEvent * start,
                                          VhHipEvent * end, gfloat * ms,
                                          GError ** error);

/* ---- memory ---------------------------------------------------------- */

typedef enum
{
  VH_HIP_COPY_HOST_TO_DEVICE,
  VH_HIP_COPY_DEVICE_TO_HOST,
  VH_HIP_COPY_DEVICE_TO_DEVICE,
} VhHipCopyKind;

/* A 2D allocation of @height rows of at least @width_bytes; @pitch gets
 * the distance between rows (a multiple of the device's pitch alignment). */
gboolean     vh_hip_malloc_pitch         (VhHipDevice * device,
                                          gsize width_bytes, gsize height,
                                          gpointer * ptr, gsize * pitch,
                                          GError ** error);

gboolean     vh_hip_malloc               (VhHipDevice * device, gsize size,
                                          gpointer * ptr, GError ** error);

void         vh_hip_free                 (VhHipDevice * device, gpointer ptr);

/* Page-locked host memory that the device copies from and to at full
 * speed, asynchronously. */
gboolean     vh_hip_host_alloc           (VhHipDevice * device, gsize size,
                                          gpointer * ptr, GError ** error);

void         vh_hip_host_free            (VhHipDevice * device, gpointer ptr);

/* memcpy() into page-locked staging memory that the device copies from
 * and the CPU does not read again: large copies bypass the CPU's caches
 * (streaming stores on x86), which saves memory bandwidth and leaves the
 * caches to other threads. Any alignment; a plain memcpy() elsewhere. */
void         vh_hip_copy_to_staging      (gpointer dst, gconstpointer src,
                                          gsize n);

/* The same for @rows rows of @width bytes. */
void         vh_hip_copy_to_staging_2d   (gpointer dst, gsize dst_pitch,
                                          gconstpointer src, gsize src_pitch,
                                          gsize width, gsize rows);

/* Copies @height rows of @width_bytes. Asynchronous on @stream (NULL: the
 * default stream) when host memory is page-locked, otherwise the runtime
 * may return before or after the copy is done: synchronise the stream
 * before touching host memory either way. */
gboolean     vh_hip_memcpy_2d_async      (VhHipStream * stream,
                                          VhHipCopyKind kind, gpointer dst,
                                          gsize dst_pitch,
                                          gconstpointer src,
                                          gsize src_pitch,
                                          gsize width_bytes, gsize height,
                                          GError ** error);

gboolean     vh_hip_memcpy_2d            (VhHipDevice * device,
                                          VhHipCopyKind kind, gpointer dst,
                                          gsize dst_pitch,
                                          gconstpointer src,
                                          gsize src_pitch,
                                          gsize width_bytes, gsize height,
                                          GError ** error);

/* Sets @height rows of @width_bytes bytes of device memory to @value. */
gboolean     vh_hip_memset_2d_async      (VhHipStream * stream, gpointer ptr,
                                          gsize pitch, guint8 value,
                                          gsize width_bytes, gsize height,
                                          GError ** error);

/* ---- kernels --------------------------------------------------------- */

/* One precompiled code object: AMD's for a gfx architecture, or NVIDIA
 * machine code (a cubin) for an sm architecture. */
typedef struct
{
  const gchar *arch;            /* "gfx90a", "sm_90" */
  const guint8 *data;
  gsize size;
  gsize unpacked_size;          /* 0: stored as is; else zlib-compressed
                                 * from this many bytes */
} VhHipCodeObject;

/**
 * VhHipKernelSource:
 *
 * A kernel module written once in HIP C++ (source that hipcc, nvcc, hiprtc
 * and nvrtc all compile), with what the build precompiled from it. Made by
 * the build (hip/features/kernels/embed.py); see vh_hip_module_get().
 */
typedef struct
{
  const gchar *name;            /* "plane-sse" */
  const gchar *source;          /* the HIP C++ text */
  const VhHipCodeObject *amd;   /* precompiled code objects, may be NULL */
  guint n_amd;
  const gchar *ptx;             /* precompiled PTX text, may be NULL */
  const VhHipCodeObject *cubins;        /* NVIDIA machine code, may be NULL */
  guint n_cubins;
} VhHipKernelSource;

typedef struct _VhHipModule VhHipModule;
typedef struct _VhHipFunction VhHipFunction;

/* The module of @source for @device: the code object built for the
 * device's architecture (AMD); on NVIDIA the machine code built for its
 * architecture (or the newest older one of the same major version), else
 * the PTX; when the build embedded nothing that loads, compiled at run
 * time with hiprtc or nvrtc. Cached for the process; owned by the cache.
 * For testing and benchmarks, VH_HIP_CODE=ptx in the environment skips the
 * NVIDIA machine code, VH_HIP_FORCE_RTC=1 every precompiled code. */
VhHipModule *vh_hip_module_get           (VhHipDevice * device,
                                          const VhHipKernelSource * source,
                                          GError ** error);

/* "precompiled gfx90a code object", "precompiled PTX", "run-time compiled
 * (nvrtc 13.0, sm_90)". */
const gchar *vh_hip_module_describe      (VhHipModule * module);

/* An extern "C" __global__ function of @module (owned by the module). */
VhHipFunction *vh_hip_module_get_function (VhHipModule * module,
                                          const gchar * name,
                                          GError ** error);

/* @args: pointers to each kernel argument, in order. */
gboolean     vh_hip_launch               (VhHipFunction * function,
                                          VhHipStream * stream,
                                          const guint grid[3],
                                          const guint block[3],
                                          guint shared_bytes,
                                          gpointer * args, GError ** error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VhHipDevice, vh_hip_device_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (VhHipStream, vh_hip_stream_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (VhHipEvent, vh_hip_event_free)

G_END_DECLS

#endif /* __VH_HIP_H__ */
