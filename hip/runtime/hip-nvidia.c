/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The NVIDIA backend: the CUDA driver API (libcuda, part of the driver),
 * loaded with dlopen. No CUDA or HIP header is needed: the few types and
 * numbers used are the driver's stable ABI, declared here. Each device uses
 * its primary context, which is what the CUDA runtime and other libraries
 * in the same process use too. */

#include "hip-backend-private.h"

#include <string.h>

typedef guint64 CUdeviceptr;

#define CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK 1
#define CU_DEVICE_ATTRIBUTE_WARP_SIZE 10
#define CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT 16
#define CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT 51
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR 76

#define CUDA_ERROR_NO_DEVICE 100
#define CUDA_ERROR_NOT_READY 600
#define CU_STREAM_NON_BLOCKING 0x1
#define CU_EVENT_BLOCKING_SYNC 0x1
#define CU_EVENT_DISABLE_TIMING 0x2

enum
{
  CU_MEMORYTYPE_HOST = 1,
  CU_MEMORYTYPE_DEVICE = 2,
};

/* CUDA_MEMCPY2D (the _v2 layout, current since CUDA 3.2) */
typedef struct
{
  gsize srcXInBytes;
  gsize srcY;
  gint srcMemoryType;
  gconstpointer srcHost;
  CUdeviceptr srcDevice;
  gpointer srcArray;
  gsize srcPitch;
  gsize dstXInBytes;
  gsize dstY;
  gint dstMemoryType;
  gpointer dstHost;
  CUdeviceptr dstDevice;
  gpointer dstArray;
  gsize dstPitch;
  gsize WidthInBytes;
  gsize Height;
} CuMemcpy2D;

#define NV_SYMBOLS(X) \
  X (cuInit, gint, (guint flags)) \
  X (cuDriverGetVersion, gint, (gint * version)) \
  X (cuGetErrorString, gint, (gint code, const gchar ** str)) \
  X (cuGetErrorName, gint, (gint code, const gchar ** str)) \
  X (cuDeviceGetCount, gint, (gint * count)) \
  X (cuDeviceGet, gint, (gint * device, gint ordinal)) \
  X (cuDeviceGetName, gint, (gchar * name, gint len, gint device)) \
  X (cuDeviceTotalMem_v2, gint, (gsize * bytes, gint device)) \
  X (cuDeviceGetAttribute, gint, (gint * value, gint attr, gint device)) \
  X (cuDevicePrimaryCtxRetain, gint, (gpointer * ctx, gint device)) \
  X (cuDevicePrimaryCtxRelease_v2, gint, (gint device)) \
  X (cuDevicePrimaryCtxSetFlags_v2, gint, (gint device, guint flags)) \
  X (cuCtxPushCurrent_v2, gint, (gpointer ctx)) \
  X (cuCtxPopCurrent_v2, gint, (gpointer * ctx)) \
  X (cuMemAllocPitch_v2, gint, (CUdeviceptr * ptr, gsize * pitch, \
          gsize width, gsize height, guint element_size)) \
  X (cuMemAlloc_v2, gint, (CUdeviceptr * ptr, gsize size)) \
  X (cuMemFree_v2, gint, (CUdeviceptr ptr)) \
  X (cuMemHostAlloc, gint, (gpointer * ptr, gsize size, guint flags)) \
  X (cuMemFreeHost, gint, (gpointer ptr)) \
  X (cuMemcpy2DAsync_v2, gint, (const CuMemcpy2D * copy, gpointer stream)) \
  X (cuMemsetD2D8Async, gint, (CUdeviceptr ptr, gsize pitch, guint8 value, \
          gsize width, gsize height, gpointer stream)) \
  X (cuStreamCreate, gint, (gpointer * stream, guint flags)) \
  X (cuStreamDestroy_v2, gint, (gpointer stream)) \
  X (cuStreamSynchronize, gint, (gpointer stream)) \
  X (cuStreamWaitEvent, gint, (gpointer stream, gpointer event, \
          guint flags)) \
  X (cuEventCreate, gint, (gpointer * event, guint flags)) \
  X (cuEventDestroy_v2, gint, (gpointer event)) \
  X (cuEventRecord, gint, (gpointer event, gpointer stream)) \
  X (cuEventSynchronize, gint, (gpointer event)) \
  X (cuEventQuery, gint, (gpointer event)) \
  X (cuEventElapsedTime_v2, gint, (gfloat * ms, gpointer start, \
          gpointer end)) \
  X (cuEventElapsedTime, gint, (gfloat * ms, gpointer start, gpointer end)) \
  X (cuModuleLoadData, gint, (gpointer * module, gconstpointer image)) \
  X (cuModuleUnload, gint, (gpointer module)) \
  X (cuModuleGetFunction, gint, (gpointer * function, gpointer module, \
          const gchar * name)) \
  X (cuLaunchKernel, gint, (gpointer function, guint gx, guint gy, \
          guint gz, guint bx, guint by, guint bz, guint shared, \
          gpointer stream, gpointer * args, gpointer * extra))

#define AS_FIELD(name, ret, args) ret (*name) args;
#define AS_NAME(name, ret, args) #name,
#define AS_ONE(name, ret, args) + 1

static const gchar *const nv_names[] = { NV_SYMBOLS (AS_NAME) NULL };

static const gchar *const nv_optional[] = {
  "cuEventElapsedTime_v2", "cuEventElapsedTime",
  "cuDevicePrimaryCtxSetFlags_v2", NULL
};

typedef union
{
  struct
  {
    NV_SYMBOLS (AS_FIELD)
  };
  gpointer table[0 NV_SYMBOLS (AS_ONE)];
} NvApi;

static NvApi api;
static VhHipBackend nvidia;

#define DEVPTR(p) ((CUdeviceptr) (guintptr) (p))

static const gchar *
nv_error_string (gint code)
{
  static GMutex lock;
  static GHashTable *texts;
  const gchar *name = NULL, *str = NULL;
  const gchar *text;

  if (api.cuGetErrorName)
    api.cuGetErrorName (code, &name);
  if (api.cuGetErrorString)
    api.cuGetErrorString (code, &str);
  if (!name || !str)
    return str ? str : name ? name : "unknown error";
  /* "CUDA_ERROR_OUT_OF_MEMORY, out of memory": kept for the process, one
   * string per code. */
  g_mutex_lock (&lock);
  if (!texts)
    texts = g_hash_table_new (NULL, NULL);
  text = g_hash_table_lookup (texts, GINT_TO_POINTER (code));
  if (!text) {
    text = g_strdup_printf ("%s, %s", name, str);
    g_hash_table_insert (texts, GINT_TO_POINTER (code), (gpointer) text);
  }
  g_mutex_unlock (&lock);
  return text;
}

static gint
nv_get_device_count (gint * count)
{
  *count = 0;
  return api.cuDeviceGetCount (count);
}

static gint
nv_get_device_info (gint ordinal, VhHipDeviceInfo * info)
{
  gint dev, code, value;
  gsize total = 0;

  if ((code = api.cuDeviceGet (&dev, ordinal)) != 0)
    return code;
  if ((code = api.cuDeviceGetName (info->name, sizeof (info->name),
              dev)) != 0)
    return code;
  if ((code = api.cuDeviceTotalMem_v2 (&total, dev)) != 0)
    return code;
  info->total_memory = total;
  if ((code = api.cuDeviceGetAttribute (&info->major,
              CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)) != 0)
    return code;
  if ((code = api.cuDeviceGetAttribute (&info->minor,
              CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)) != 0)
    return code;
  if (api.cuDeviceGetAttribute (&value,
          CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev) == 0)
    info->multiprocessors = value;
  if (api.cuDeviceGetAttribute (&value, CU_DEVICE_ATTRIBUTE_WARP_SIZE,
          dev) == 0)
    info->warp_size = value;
  if (api.cuDeviceGetAttribute (&value,
          CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, dev) == 0)
    info->max_threads_per_block = value;
  if (api.cuDeviceGetAttribute (&value,
          CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT, dev) == 0 && value > 0)
    info->pitch_alignment = value;
  g_snprintf (info->arch, sizeof (info->arch), "sm_%d%d", info->major,
      info->minor);
  return 0;
}

/* How a thread waits for the GPU (CU_CTX_SCHED_*). The driver's automatic
 * choice spins on a processor for as long as the GPU works when there are
 * fewer contexts than processors: every worker waiting for its frame then
 * burns a core. Blocking waits cost a wake-up (microseconds) instead. */
#define NV_CTX_SCHED_BLOCKING_SYNC 0x04

static gint
nv_device_open (gint ordinal, gpointer * handle)
{
  gint dev, code;

  if ((code = api.cuDeviceGet (&dev, ordinal)) != 0)
    return code;
  /* Before the context is made; a context already active (another user
   * of the primary context) keeps its flags: the result does not matter. */
  if (api.cuDevicePrimaryCtxSetFlags_v2)
    api.cuDevicePrimaryCtxSetFlags_v2 (dev, NV_CTX_SCHED_BLOCKING_SYNC);
  code = api.cuDevicePrimaryCtxRetain (handle, dev);
  g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "device %d context ready",
      ordinal);
  return code;
}

static void
nv_device_close (gint ordinal, gpointer handle)
{
  gint dev;

  if (api.cuDeviceGet (&dev, ordinal) == 0)
    api.cuDevicePrimaryCtxRelease_v2 (dev);
}

static gint
nv_push (gint ordinal, gpointer handle)
{
  return api.cuCtxPushCurrent_v2 (handle);
}

static void
nv_pop (gint ordinal, gpointer handle)
{
  gpointer ctx;

  api.cuCtxPopCurrent_v2 (&ctx);
}

static gint
nv_malloc_pitch (gpointer * ptr, gsize * pitch, gsize width, gsize height)
{
  CUdeviceptr p = 0;
  gint code = api.cuMemAllocPitch_v2 (&p, pitch, width, height, 16);

  *ptr = (gpointer) (guintptr) p;
  return code;
}

static gint
nv_malloc (gpointer * ptr, gsize size)
{
  CUdeviceptr p = 0;
  gint code = api.cuMemAlloc_v2 (&p, size);

  *ptr = (gpointer) (guintptr) p;
  return code;
}

static gint
nv_free (gpointer ptr)
{
  return api.cuMemFree_v2 (DEVPTR (ptr));
}

static gint
nv_host_alloc (gpointer * ptr, gsize size)
{
  /* portable: page-locked for every context, not only the current one */
  return api.cuMemHostAlloc (ptr, size, 0x1);
}

static gint
nv_host_free (gpointer ptr)
{
  return api.cuMemFreeHost (ptr);
}

static gint
nv_memcpy_2d_async (VhHipCopyKind kind, gpointer dst, gsize dpitch,
    gconstpointer src, gsize spitch, gsize width, gsize height,
    gpointer stream)
{
  CuMemcpy2D c;

  memset (&c, 0, sizeof (c));
  if (kind == VH_HIP_COPY_HOST_TO_DEVICE) {
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = src;
  } else {
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c.srcDevice = DEVPTR (src);
  }
  if (kind == VH_HIP_COPY_DEVICE_TO_HOST) {
    c.dstMemoryType = CU_MEMORYTYPE_HOST;
    c.dstHost = dst;
  } else {
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = DEVPTR (dst);
  }
  c.srcPitch = spitch;
  c.dstPitch = dpitch;
  c.WidthInBytes = width;
  c.Height = height;
  return api.cuMemcpy2DAsync_v2 (&c, stream);
}

static gint
nv_memset_2d_async (gpointer ptr, gsize pitch, guint8 value, gsize width,
    gsize height, gpointer stream)
{
  return api.cuMemsetD2D8Async (DEVPTR (ptr), pitch, value, width, height,
      stream);
}

static gint
nv_stream_create (gpointer * stream)
{
  return api.cuStreamCreate (stream, CU_STREAM_NON_BLOCKING);
}

static gint
nv_stream_destroy (gpointer stream)
{
  return api.cuStreamDestroy_v2 (stream);
}

static gint
nv_stream_synchronize (gpointer stream)
{
  return api.cuStreamSynchronize (stream);
}

static gint
nv_stream_wait_event (gpointer stream, gpointer event)
{
  return api.cuStreamWaitEvent (stream, event, 0);
}

/* An event's waits spin unless the event itself asks to block: the
 * context's scheduling flag covers stream and context waits only. */
static gint
nv_event_create (gpointer * event, gboolean timing)
{
  guint flags = CU_EVENT_BLOCKING_SYNC;

  if (!timing)
    flags |= CU_EVENT_DISABLE_TIMING;
  return api.cuEventCreate (event, flags);
}

static gint
nv_event_destroy (gpointer event)
{
  return api.cuEventDestroy_v2 (event);
}

static gint
nv_event_record (gpointer event, gpointer stream)
{
  return api.cuEventRecord (event, stream);
}

static gint
nv_event_synchronize (gpointer event)
{
  return api.cuEventSynchronize (event);
}

static gint
nv_event_query (gpointer event)
{
  return api.cuEventQuery (event);
}

static gint
nv_event_elapsed (gfloat * ms, gpointer start, gpointer end)
{
  if (api.cuEventElapsedTime_v2)
    return api.cuEventElapsedTime_v2 (ms, start, end);
  return api.cuEventElapsedTime (ms, start, end);
}

static gint
nv_module_load (gpointer * module, gconstpointer image)
{
  return api.cuModuleLoadData (module, image);
}

static gint
nv_module_unload (gpointer module)
{
  return api.cuModuleUnload (module);
}

static gint
nv_module_get_function (gpointer * function, gpointer module,
    const gchar * name)
{
  return api.cuModuleGetFunction (function, module, name);
}

static gint
nv_launch (gpointer function, const guint grid[3], const guint block[3],
    guint shared_bytes, gpointer stream, gpointer * args)
{
  return api.cuLaunchKernel (function, grid[0], grid[1], grid[2], block[0],
      block[1], block[2], shared_bytes, stream, args, NULL);
}

static const VhHipBackend nvidia_template = {
  .vendor = VH_HIP_VENDOR_NVIDIA,
  .no_device_code = CUDA_ERROR_NO_DEVICE,
  .not_ready_code = CUDA_ERROR_NOT_READY,
  .error_string = nv_error_string,
  .get_device_count = nv_get_device_count,
  .get_device_info = nv_get_device_info,
  .device_open = nv_device_open,
  .device_close = nv_device_close,
  .push = nv_push,
  .pop = nv_pop,
  .malloc_pitch = nv_malloc_pitch,
  .malloc = nv_malloc,
  .free = nv_free,
  .host_alloc = nv_host_alloc,
  .host_free = nv_host_free,
  .memcpy_2d_async = nv_memcpy_2d_async,
  .memset_2d_async = nv_memset_2d_async,
  .stream_create = nv_stream_create,
  .stream_destroy = nv_stream_destroy,
  .stream_synchronize = nv_stream_synchronize,
  .stream_wait_event = nv_stream_wait_event,
  .event_create = nv_event_create,
  .event_destroy = nv_event_destroy,
  .event_record = nv_event_record,
  .event_synchronize = nv_event_synchronize,
  .event_query = nv_event_query,
  .event_elapsed = nv_event_elapsed,
  .module_load = nv_module_load,
  .module_unload = nv_module_unload,
  .module_get_function = nv_module_get_function,
  .launch = nv_launch,
};

const VhHipBackend *
vh_hip_backend_nvidia_load (GError ** error)
{
  static const gchar *const sonames[] = { "libcuda.so.1", NULL };
  g_autoptr (GString) tried = g_string_new (NULL);
  gchar *library = NULL;
  gpointer lib;
  gint code, version = 0;

  lib = vh_hip_dlopen_first ("VH_HIP_NVIDIA_RUNTIME", sonames, &library,
      tried);
  if (!lib) {
    g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_NO_RUNTIME,
        "NVIDIA driver not found (tried %s)", tried->str);
    return NULL;
  }
  if (!vh_hip_dlsym_table (lib, library, nv_names, api.table,
          G_N_ELEMENTS (api.table), nv_optional, error))
    goto fail;
  if (!api.cuEventElapsedTime_v2 && !api.cuEventElapsedTime) {
    g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_NO_RUNTIME,
        "%s lacks cuEventElapsedTime", library);
    goto fail;
  }
  /* Start-up phases, timed by G_MESSAGES_DEBUG=vmafhip-startup. */
  g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "%s loaded", library);
  code = api.cuInit (0);
  g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "cuInit done");
  if (code != 0) {
    g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_NO_DEVICE,
        "%s loaded, but cuInit failed: %s (%d)", library,
        nv_error_string (code), code);
    goto fail;
  }
  api.cuDriverGetVersion (&version);
  nvidia = nvidia_template;
  nvidia.library = library;
  nvidia.description = g_strdup_printf ("NVIDIA CUDA driver %d.%d (%s)",
      version / 1000, version % 1000 / 10, library);
  return &nvidia;

fail:
  memset (&api, 0, sizeof (api));
  g_free (library);
  return NULL;
}
