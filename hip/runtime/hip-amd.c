/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The AMD backend: the HIP runtime (libamdhip64), loaded with dlopen. Only
 * the stable C ABI is used: plain integers, pointers and the documented
 * attribute numbers; the one structure read (device properties, for the
 * architecture name) is read defensively. */

#include "hip-backend-private.h"

#include <dlfcn.h>
#include <string.h>

/* hipDeviceAttribute_t values (stable since ROCm 5.0) */
#define HIP_ATTR_MAX_THREADS_PER_BLOCK 56
#define HIP_ATTR_MULTIPROCESSOR_COUNT 63
#define HIP_ATTR_TEXTURE_PITCH_ALIGNMENT 82
#define HIP_ATTR_WARP_SIZE 87

#define HIP_ERROR_NO_DEVICE 100
#define HIP_ERROR_NOT_READY 600
#define HIP_STREAM_NON_BLOCKING 0x1
#define HIP_EVENT_DISABLE_TIMING 0x2
#define HIP_HOST_MALLOC_DEFAULT 0x0

/* The kernel's interface to AMD GPUs for compute (amdgpu's KFD). */
#define AMD_KFD_PATH "/dev/kfd"

/* Offsets of gcnArchName in the two layouts of hipDeviceProp_t: the one of
 * ROCm 6 and later (hipGetDevicePropertiesR0600) and the older one. */
#define HIP_PROPS_R0600_ARCH_OFFSET 1160
#define HIP_PROPS_R0000_ARCH_OFFSET 396
#define HIP_PROPS_BUFFER_SIZE 8192

#define AMD_SYMBOLS(X) \
  X (hipInit, gint, (guint flags)) \
  X (hipRuntimeGetVersion, gint, (gint * version)) \
  X (hipGetErrorString, const gchar *, (gint code)) \
  X (hipGetErrorName, const gchar *, (gint code)) \
  X (hipGetDeviceCount, gint, (gint * count)) \
  X (hipSetDevice, gint, (gint device)) \
  X (hipDeviceGetName, gint, (gchar * name, gint len, gint device)) \
  X (hipDeviceTotalMem, gint, (gsize * bytes, gint device)) \
  X (hipDeviceComputeCapability, gint, (gint * major, gint * minor, \
          gint device)) \
  X (hipDeviceGetAttribute, gint, (gint * value, gint attr, gint device)) \
  X (hipGetDevicePropertiesR0600, gint, (gpointer props, gint device)) \
  X (hipGetDeviceProperties, gint, (gpointer props, gint device)) \
  X (hipMallocPitch, gint, (gpointer * ptr, gsize * pitch, gsize width, \
          gsize height)) \
  X (hipMalloc, gint, (gpointer * ptr, gsize size)) \
  X (hipFree, gint, (gpointer ptr)) \
  X (hipHostMalloc, gint, (gpointer * ptr, gsize size, guint flags)) \
  X (hipHostAlloc, gint, (gpointer * ptr, gsize size, guint flags)) \
  X (hipHostFree, gint, (gpointer ptr)) \
  X (hipMemcpy2DAsync, gint, (gpointer dst, gsize dpitch, gconstpointer src, \
          gsize spitch, gsize width, gsize height, gint kind, \
          gpointer stream)) \
  X (hipMemset2DAsync, gint, (gpointer dst, gsize pitch, gint value, \
          gsize width, gsize height, gpointer stream)) \
  X (hipStreamCreateWithFlags, gint, (gpointer * stream, guint flags)) \
  X (hipStreamDestroy, gint, (gpointer stream)) \
  X (hipStreamSynchronize, gint, (gpointer stream)) \
  X (hipStreamWaitEvent, gint, (gpointer stream, gpointer event, \
          guint flags)) \
  X (hipEventCreateWithFlags, gint, (gpointer * event, guint flags)) \
  X (hipEventDestroy, gint, (gpointer event)) \
  X (hipEventRecord, gint, (gpointer event, gpointer stream)) \
  X (hipEventSynchronize, gint, (gpointer event)) \
  X (hipEventQuery, gint, (gpointer event)) \
  X (hipEventElapsedTime, gint, (gfloat * ms, gpointer start, gpointer end)) \
  X (hipModuleLoadData, gint, (gpointer * module, gconstpointer image)) \
  X (hipModuleUnload, gint, (gpointer module)) \
  X (hipModuleGetFunction, gint, (gpointer * function, gpointer module, \
          const gchar * name)) \
  X (hipModuleLaunchKernel, gint, (gpointer function, guint gx, guint gy, \
          guint gz, guint bx, guint by, guint bz, guint shared, \
          gpointer stream, gpointer * args, gpointer * extra))

#define AS_FIELD(name, ret, args) ret (*name) args;
#define AS_NAME(name, ret, args) #name,
#define AS_ONE(name, ret, args) + 1

static const gchar *const amd_names[] = { AMD_SYMBOLS (AS_NAME) NULL };

static const gchar *const amd_optional[] = {
  "hipGetErrorName", "hipGetDevicePropertiesR0600", "hipGetDeviceProperties",
  "hipHostMalloc", "hipHostAlloc", NULL
};

typedef union
{
  struct
  {
    AMD_SYMBOLS (AS_FIELD)
  };
  gpointer table[0 AMD_SYMBOLS (AS_ONE)];
} AmdApi;

static AmdApi api;
static VhHipBackend amd;

/* "hipErrorOutOfMemory, out of memory", as the NVIDIA backend words it:
 * the name is what users search for. */
static const gchar *
amd_error_string (gint code)
{
  static GMutex lock;
  static GHashTable *texts;
  const gchar *str = api.hipGetErrorString ? api.hipGetErrorString (code) :
      NULL;
  const gchar *name = api.hipGetErrorName ? api.hipGetErrorName (code) :
      NULL;
  const gchar *text;

  if (!name || !str)
    return str ? str : name ? name : "unknown error";
  /* kept for the process, one string per code */
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
amd_get_device_count (gint * count)
{
  *count = 0;
  return api.hipGetDeviceCount (count);
}

/* Finds "gfx..." in the properties: at the offset of the layout that was
 * filled, or else anywhere after the name, in case a runtime moved it. */
static void
amd_arch_from_props (const guint8 * props, gsize offset, gchar * arch,
    gsize arch_size)
{
  const gchar *found = NULL;

  if (memcmp (props + offset, "gfx", 3) == 0)
    found = (const gchar *) props + offset;
  for (gsize o = 256; !found && o + 4 < HIP_PROPS_BUFFER_SIZE - 256; o += 4)
    if (props[o - 1] == 0 && memcmp (props + o, "gfx", 3) == 0 &&
        g_ascii_isalnum (props[o + 3]))
      found = (const gchar *) props + o;
  if (!found)
    return;
  /* "gfx90a:sramecc+:xnack-": the base name selects the code object */
  for (gsize i = 0; i + 1 < arch_size && found[i] && found[i] != ':'; i++) {
    arch[i] = found[i];
    arch[i + 1] = 0;
  }
}

static gint
amd_get_device_info (gint ordinal, VhHipDeviceInfo * info)
{
  g_autofree guint8 *props = g_malloc0 (HIP_PROPS_BUFFER_SIZE);
  gsize total = 0;
  gint code, value;

  if ((code = api.hipDeviceGetName (info->name, sizeof (info->name),
              ordinal)) != 0)
    return code;
  if ((code = api.hipDeviceTotalMem (&total, ordinal)) != 0)
    return code;
  info->total_memory = total;
  if ((code = api.hipDeviceComputeCapability (&info->major, &info->minor,
              ordinal)) != 0)
    return code;
  if (api.hipDeviceGetAttribute (&value, HIP_ATTR_MULTIPROCESSOR_COUNT,
          ordinal) == 0)
    info->multiprocessors = value;
  if (api.hipDeviceGetAttribute (&value, HIP_ATTR_WARP_SIZE, ordinal) == 0)
    info->warp_size = value;
  if (api.hipDeviceGetAttribute (&value, HIP_ATTR_MAX_THREADS_PER_BLOCK,
          ordinal) == 0)
    info->max_threads_per_block = value;
  if (api.hipDeviceGetAttribute (&value, HIP_ATTR_TEXTURE_PITCH_ALIGNMENT,
          ordinal) == 0 && value > 0)
    info->pitch_alignment = value;

  if (api.hipGetDevicePropertiesR0600 &&
      api.hipGetDevicePropertiesR0600 (props, ordinal) == 0)
    amd_arch_from_props (props, HIP_PROPS_R0600_ARCH_OFFSET, info->arch,
        sizeof (info->arch));
  else if (api.hipGetDeviceProperties &&
      api.hipGetDeviceProperties (props, ordinal) == 0)
    amd_arch_from_props (props, HIP_PROPS_R0000_ARCH_OFFSET, info->arch,
        sizeof (info->arch));
  if (!info->arch[0])
    g_strlcpy (info->arch, "gfx-unknown", sizeof (info->arch));
  return 0;
}

static gint
amd_device_open (gint ordinal, gpointer * handle)
{
  *handle = NULL;
  return api.hipSetDevice (ordinal);
}

static void
amd_device_close (gint ordinal, gpointer handle)
{
}

static gint
amd_push (gint ordinal, gpointer handle)
{
  return api.hipSetDevice (ordinal);
}

static void
amd_pop (gint ordinal, gpointer handle)
{
  /* The HIP runtime has a current device per thread, not a stack: the next
   * push sets it again. */
}

static gint
amd_malloc_pitch (gpointer * ptr, gsize * pitch, gsize width, gsize height)
{
  return api.hipMallocPitch (ptr, pitch, width, height);
}

static gint
amd_malloc (gpointer * ptr, gsize size)
{
  return api.hipMalloc (ptr, size);
}

static gint
amd_free (gpointer ptr)
{
  return api.hipFree (ptr);
}

static gint
amd_host_alloc (gpointer * ptr, gsize size)
{
  if (api.hipHostMalloc)
    return api.hipHostMalloc (ptr, size, HIP_HOST_MALLOC_DEFAULT);
  return api.hipHostAlloc (ptr, size, HIP_HOST_MALLOC_DEFAULT);
}

static gint
amd_host_free (gpointer ptr)
{
  return api.hipHostFree (ptr);
}

static gint
amd_memcpy_2d_async (VhHipCopyKind kind, gpointer dst, gsize dpitch,
    gconstpointer src, gsize spitch, gsize width, gsize height,
    gpointer stream)
{
  /* hipMemcpyKind: 1 host to device, 2 device to host, 3 device to device */
  static const gint kinds[] = { 1, 2, 3 };

  return api.hipMemcpy2DAsync (dst, dpitch, src, spitch, width, height,
      kinds[kind], stream);
}

static gint
amd_memset_2d_async (gpointer ptr, gsize pitch, guint8 value, gsize width,
    gsize height, gpointer stream)
{
  return api.hipMemset2DAsync (ptr, pitch, value, width, height, stream);
}

static gint
amd_stream_create (gpointer * stream)
{
  return api.hipStreamCreateWithFlags (stream, HIP_STREAM_NON_BLOCKING);
}

static gint
amd_stream_destroy (gpointer stream)
{
  return api.hipStreamDestroy (stream);
}

static gint
amd_stream_synchronize (gpointer stream)
{
  return api.hipStreamSynchronize (stream);
}

static gint
amd_stream_wait_event (gpointer stream, gpointer event)
{
  return api.hipStreamWaitEvent (stream, event, 0);
}

static gint
amd_event_create (gpointer * event, gboolean timing)
{
  return api.hipEventCreateWithFlags (event,
      timing ? 0 : HIP_EVENT_DISABLE_TIMING);
}

static gint
amd_event_destroy (gpointer event)
{
  return api.hipEventDestroy (event);
}

static gint
amd_event_record (gpointer event, gpointer stream)
{
  return api.hipEventRecord (event, stream);
}

static gint
amd_event_synchronize (gpointer event)
{
  return api.hipEventSynchronize (event);
}

static gint
amd_event_query (gpointer event)
{
  return api.hipEventQuery (event);
}

static gint
amd_event_elapsed (gfloat * ms, gpointer start, gpointer end)
{
  return api.hipEventElapsedTime (ms, start, end);
}

static gint
amd_module_load (gpointer * module, gconstpointer image)
{
  return api.hipModuleLoadData (module, image);
}

static gint
amd_module_unload (gpointer module)
{
  return api.hipModuleUnload (module);
}

static gint
amd_module_get_function (gpointer * function, gpointer module,
    const gchar * name)
{
  return api.hipModuleGetFunction (function, module, name);
}

static gint
amd_launch (gpointer function, const guint grid[3], const guint block[3],
    guint shared_bytes, gpointer stream, gpointer * args)
{
  return api.hipModuleLaunchKernel (function, grid[0], grid[1], grid[2],
      block[0], block[1], block[2], shared_bytes, stream, args, NULL);
}

static const VhHipBackend amd_template = {
  .vendor = VH_HIP_VENDOR_AMD,
  .no_device_code = HIP_ERROR_NO_DEVICE,
  .not_ready_code = HIP_ERROR_NOT_READY,
  .error_string = amd_error_string,
  .get_device_count = amd_get_device_count,
  .get_device_info = amd_get_device_info,
  .device_open = amd_device_open,
  .device_close = amd_device_close,
  .push = amd_push,
  .pop = amd_pop,
  .malloc_pitch = amd_malloc_pitch,
  .malloc = amd_malloc,
  .free = amd_free,
  .host_alloc = amd_host_alloc,
  .host_free = amd_host_free,
  .memcpy_2d_async = amd_memcpy_2d_async,
  .memset_2d_async = amd_memset_2d_async,
  .stream_create = amd_stream_create,
  .stream_destroy = amd_stream_destroy,
  .stream_synchronize = amd_stream_synchronize,
  .stream_wait_event = amd_stream_wait_event,
  .event_create = amd_event_create,
  .event_destroy = amd_event_destroy,
  .event_record = amd_event_record,
  .event_synchronize = amd_event_synchronize,
  .event_query = amd_event_query,
  .event_elapsed = amd_event_elapsed,
  .module_load = amd_module_load,
  .module_unload = amd_module_unload,
  .module_get_function = amd_module_get_function,
  .launch = amd_launch,
};

const VhHipBackend *
vh_hip_backend_amd_load (GError ** error)
{
  static const gchar *const sonames[] = { "libamdhip64.so.7",
    "libamdhip64.so.6", "libamdhip64.so.5", NULL
  };
  g_autoptr (GString) tried = g_string_new (NULL);
  const gchar *override = g_getenv ("VH_HIP_AMD_RUNTIME");
  gchar *library = NULL;
  gpointer lib;
  gint code, version = 0;

  /* ROCm reaches AMD GPUs only through the kernel's compute interface:
   * without it there is nothing to find, and loading the runtime (with
   * LLVM and the rest it pulls in) slows every start-up on an NVIDIA
   * machine that has it installed (docs/performance.md). A runtime named
   * explicitly is always tried. */
  if (!override || !*override) {
    const gchar *kfd = g_getenv ("VH_HIP_AMD_KFD");
    if (!kfd || !*kfd)
      kfd = AMD_KFD_PATH;
    if (!g_file_test (kfd, G_FILE_TEST_EXISTS)) {
      g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_NO_DEVICE,
          "no AMD GPU driver (%s is missing), AMD HIP runtime not loaded",
          kfd);
      return NULL;
    }
  }
  lib = vh_hip_dlopen_first ("VH_HIP_AMD_RUNTIME", sonames, &library, tried);
  if (!lib) {
    g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_NO_RUNTIME,
        "AMD HIP runtime not found (tried %s)", tried->str);
    return NULL;
  }
  if (!vh_hip_dlsym_table (lib, library, amd_names, api.table,
          G_N_ELEMENTS (api.table), amd_optional, error))
    goto fail;
  if (!api.hipHostMalloc && !api.hipHostAlloc) {
    g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_NO_RUNTIME,
        "%s lacks hipHostMalloc and hipHostAlloc", library);
    goto fail;
  }
  code = api.hipInit (0);
  if (code != 0) {
    /* No usable GPU, whatever the runtime calls it (no device, or an
     * invalid one where the kernel driver is missing). */
    g_set_error (error, VH_HIP_ERROR, VH_HIP_ERROR_NO_DEVICE,
        "%s loaded, but hipInit failed: %s (%d)", library,
        amd_error_string (code), code);
    goto fail;
  }
  api.hipRuntimeGetVersion (&version);
  amd = amd_template;
  amd.library = library;
  /* HIP_VERSION: major * 10000000 + minor * 100000 + patch */
  amd.description = g_strdup_printf ("AMD HIP runtime %d.%d (%s)",
      version / 10000000, version / 100000 % 100, library);
  return &amd;

fail:
  /* The library stays loaded: runtimes do not like being unloaded, and
   * api's pointers may have been partly filled. */
  memset (&api, 0, sizeof (api));
  g_free (library);
  return NULL;
}
