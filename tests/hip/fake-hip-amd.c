/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A stand-in for AMD's HIP runtime (libamdhip64, loaded through
 * VH_HIP_AMD_RUNTIME) and for hiprtc (VH_HIP_HIPRTC), so that the HIP
 * layer's AMD path (hip/runtime/hip-amd.c) runs without an AMD GPU, with
 * the fake CUDA driver's discipline (fake-gpu.c: device memory at
 * addresses the CPU cannot use, bounds-checked copies, leaks counted at
 * exit, faults injected, several devices) and the same VH_FAKE_CUDA_*
 * variables (fake-cuda.c lists them; the faults are reported with HIP's
 * codes, which equal CUDA's).
 *
 * What differs from CUDA, and is checked here as a runtime would:
 * - the current device is the calling thread's (hipSetDevice), none until
 *   the thread sets one (a real runtime would take device 0 silently:
 *   memory made then is counted foreign here, so that tests with several
 *   devices see it); work on a stream runs on the stream's device;
 * - hipMemcpy2DAsync's kind must match the pointers (device memory where
 *   the kind says device, never where it says host);
 * - streams, events, modules and functions are checked to be live ones
 *   (hipErrorInvalidHandle otherwise), an event made without timing cannot
 *   be timed, and a stream or event still alive at exit is reported with
 *   the memory (VH_FAKE_CUDA_EXIT_CHECK; modules stay loaded for the
 *   process on purpose);
 * - a module must be a code object for the device's architecture (an ELF
 *   whose EF_AMDGPU_MACH is the device's, a clang offload bundle with an
 *   entry for it; hipErrorNoBinaryForGpu otherwise), and a launch must fit
 *   the device: at most 1024 work-items in a block and 64 KiB of dynamic
 *   LDS. VH_FAKE_CUDA_LAUNCH_LOG logs the launches (fake-gpu.c).
 *
 * Kernels: none (modules do not load), VH_FAKE_CUDA_KERNELS=noop (they
 * load and run nothing) or =emulate (those with an emulation run their
 * source on the host, the others are not found), as in fake-cuda.c.
 *
 * VH_FAKE_HIP_ARCH: the device's gcnArchName (default
 * "gfx90a:sramecc+:xnack-"); its wavefront is 64 wide on gfx9 and 32 on
 * gfx10 and later. VH_FAKE_HIP_PROPS=old: only ROCm 5's
 * hipGetDeviceProperties answers (hipGetDevicePropertiesR0600 fails as in
 * ROCm 5), so that both layouts are read.
 *
 * This file holds devices, memory, copies, streams and events;
 * fake-hip-amd-module.c code objects, modules, launches and hiprtc. */

#include "fake-hip-amd-private.h"

const gchar fake_gpu_label[] = "fake AMD HIP runtime";

/* hipDeviceAttribute_t (ROCm 5.2's hip_runtime_api.h) */
#define ATTR_MAX_THREADS_PER_BLOCK 56
#define ATTR_MULTIPROCESSOR_COUNT 63
#define ATTR_TEXTURE_PITCH_ALIGNMENT 82
#define ATTR_WARP_SIZE 87

/* Offsets of gcnArchName in hipDeviceProp_t: ROCm 6's layout
 * (hipGetDevicePropertiesR0600) and ROCm 5's (offsetof in 5.2's header;
 * its sizeof is 792). */
#define PROPS_R0600_ARCH_OFFSET 1160
#define PROPS_R0600_SIZE 1472
#define PROPS_R0000_ARCH_OFFSET 396
#define PROPS_R0000_SIZE 792

static GMutex lock;
static GHashTable *live;        /* streams, events and modules */

void
handle_add (gpointer h)
{
  g_mutex_lock (&lock);
  if (!live)
    live = g_hash_table_new (NULL, NULL);
  g_hash_table_add (live, h);
  g_mutex_unlock (&lock);
}

/* Whether @h is a live handle of @kind (each starts with its kind). */
gboolean
handle_alive (gconstpointer h, gint kind)
{
  gboolean alive;

  g_mutex_lock (&lock);
  alive = live && h && g_hash_table_contains (live, h) &&
      *(const gint *) h == kind;
  g_mutex_unlock (&lock);
  return alive;
}

gboolean
handle_remove (gpointer h)
{
  gboolean removed;

  g_mutex_lock (&lock);
  removed = live && g_hash_table_remove (live, h);
  g_mutex_unlock (&lock);
  return removed;
}

/* The device work on @stream runs on: its own, or the current one for the
 * null stream. -2 for a stream that is not alive. */
gint
stream_device (FakeStream * stream)
{
  if (!stream)
    return fake_gpu_current ();
  return handle_alive (stream, KIND_STREAM) ? stream->device : -2;
}

const gchar *
arch_name (void)
{
  const gchar *arch = g_getenv ("VH_FAKE_HIP_ARCH");

  return arch && *arch ? arch : "gfx90a:sramecc+:xnack-";
}

gint
wavefront_size (void)
{
  /* gfx10xx, gfx11xx, gfx12xx: wave32 by default */
  return strlen (arch_name ()) >= 5 && arch_name ()[3] == '1' &&
      g_ascii_isdigit (arch_name ()[4]) ? 32 : 64;
}

EXPORT gint
hipInit (guint flags)
{
  return fake_gpu_devices () > 0 ? FAKE_SUCCESS : FAKE_ERROR_NO_DEVICE;
}

EXPORT gint
hipRuntimeGetVersion (gint * version)
{
  *version = 60242134;          /* 6.2.42134 */
  return 0;
}

EXPORT const gchar *
hipGetErrorName (gint code)
{
  switch (code) {
    case FAKE_SUCCESS:
      return "hipSuccess";
    case FAKE_ERROR_INVALID_VALUE:
      return "hipErrorInvalidValue";
    case FAKE_ERROR_OUT_OF_MEMORY:
      return "hipErrorOutOfMemory";
    case FAKE_ERROR_NO_DEVICE:
      return "hipErrorNoDevice";
    case FAKE_ERROR_INVALID_DEVICE:
      return "hipErrorInvalidDevice";
    case FAKE_ERROR_INVALID_IMAGE:
      return "hipErrorInvalidImage";
    case HIP_ERROR_INVALID_HANDLE:
      return "hipErrorInvalidHandle";
    case HIP_ERROR_NO_BINARY_FOR_GPU:
      return "hipErrorNoBinaryForGpu";
    case FAKE_ERROR_NOT_FOUND:
      return "hipErrorNotFound";
    case FAKE_ERROR_NOT_READY:
      return "hipErrorNotReady";
    case FAKE_ERROR_ILLEGAL_ADDRESS:
      return "hipErrorIllegalAddress";
    case FAKE_ERROR_LAUNCH_OUT_OF_RESOURCES:
      return "hipErrorLaunchOutOfResources";
    case FAKE_ERROR_LAUNCH_FAILED:
      return "hipErrorLaunchFailure";
    default:
      return "hipErrorUnknown";
  }
}

EXPORT const gchar *
hipGetErrorString (gint code)
{
  switch (code) {
    case FAKE_SUCCESS:
      return "no error";
    case FAKE_ERROR_INVALID_VALUE:
      return "invalid argument";
    case FAKE_ERROR_OUT_OF_MEMORY:
      return "out of memory";
    case FAKE_ERROR_NO_DEVICE:
      return "no ROCm-capable device is detected";
    case FAKE_ERROR_INVALID_DEVICE:
      return "invalid device ordinal";
    case FAKE_ERROR_INVALID_IMAGE:
      return "device kernel image is invalid";
    case HIP_ERROR_INVALID_HANDLE:
      return "invalid resource handle";
    case HIP_ERROR_NO_BINARY_FOR_GPU:
      return "no kernel image is available for execution on the device";
    case FAKE_ERROR_NOT_FOUND:
      return "named symbol not found";
    case FAKE_ERROR_NOT_READY:
      return "device not ready";
    case FAKE_ERROR_ILLEGAL_ADDRESS:
      return "an illegal memory access was encountered";
    case FAKE_ERROR_LAUNCH_OUT_OF_RESOURCES:
      return "too many resources requested for launch";
    case FAKE_ERROR_LAUNCH_FAILED:
      return "unspecified launch failure";
    default:
      return "unknown error";
  }
}

EXPORT gint
hipGetDeviceCount (gint * count)
{
  *count = fake_gpu_devices ();
  return *count > 0 ? 0 : FAKE_ERROR_NO_DEVICE;
}

static gboolean
device_ok (gint device)
{
  return device >= 0 && device < fake_gpu_devices ();
}

EXPORT gint
hipSetDevice (gint device)
{
  if (!device_ok (device))
    return FAKE_ERROR_INVALID_DEVICE;
  fake_gpu_set_current (device);
  return 0;
}

EXPORT gint
hipDeviceGetName (gchar * name, gint len, gint device)
{
  if (!device_ok (device))
    return FAKE_ERROR_INVALID_DEVICE;
  if (!name || len <= 0)
    return FAKE_ERROR_INVALID_VALUE;
  g_snprintf (name, len, "vmafhip fake device %d", device);
  return 0;
}

EXPORT gint
hipDeviceTotalMem (gsize * bytes, gint device)
{
  if (!device_ok (device))
    return FAKE_ERROR_INVALID_DEVICE;
  *bytes = G_GUINT64_CONSTANT (1) << 30;
  return 0;
}

EXPORT gint
hipDeviceComputeCapability (gint * major, gint * minor, gint device)
{
  if (!device_ok (device))
    return FAKE_ERROR_INVALID_DEVICE;
  /* what ROCm reports for gfx9 parts */
  *major = 9;
  *minor = 0;
  return 0;
}

EXPORT gint
hipDeviceGetAttribute (gint * value, gint attr, gint device)
{
  if (!device_ok (device))
    return FAKE_ERROR_INVALID_DEVICE;
  switch (attr) {
    case ATTR_MAX_THREADS_PER_BLOCK:
      *value = MAX_BLOCK_THREADS;
      break;
    case ATTR_MULTIPROCESSOR_COUNT:
      *value = 6;
      break;
    case ATTR_TEXTURE_PITCH_ALIGNMENT:
      *value = 256;
      break;
    case ATTR_WARP_SIZE:
      *value = wavefront_size ();
      break;
    default:
      return FAKE_ERROR_INVALID_VALUE;
  }
  return 0;
}

static gboolean
old_props (void)
{
  return g_strcmp0 (g_getenv ("VH_FAKE_HIP_PROPS"), "old") == 0;
}

/* Fills only what a layout's size covers; the rest of a caller's buffer
 * is left alone, as a runtime would. */
static gint
fill_props (gpointer props, gint device, gsize size, gsize arch_offset)
{
  if (!device_ok (device))
    return FAKE_ERROR_INVALID_DEVICE;
  if (!props)
    return FAKE_ERROR_INVALID_VALUE;
  memset (props, 0, size);
  g_snprintf (props, 256, "vmafhip fake device %d", device);
  g_strlcpy ((gchar *) props + arch_offset, arch_name (), 256);
  return 0;
}

EXPORT gint
hipGetDevicePropertiesR0600 (gpointer props, gint device)
{
  if (old_props ())
    return HIP_ERROR_NOT_SUPPORTED;
  return fill_props (props, device, PROPS_R0600_SIZE,
      PROPS_R0600_ARCH_OFFSET);
}

EXPORT gint
hipGetDeviceProperties (gpointer props, gint device)
{
  /* ROCm 6 maps this name to the new layout */
  if (!old_props ())
    return hipGetDevicePropertiesR0600 (props, device);
  return fill_props (props, device, PROPS_R0000_SIZE,
      PROPS_R0000_ARCH_OFFSET);
}

EXPORT gint
hipMallocPitch (gpointer * ptr, gsize * pitch, gsize width, gsize height)
{
  if (!ptr || !pitch)
    return FAKE_ERROR_INVALID_VALUE;
  FAKE_GPU_RETURN_IF_LOST ();
  /* an unusual alignment, so that nobody assumes one */
  *pitch = (width + 511) / 512 * 512;
  if (!fake_gpu_device_alloc_ok (*pitch * height))
    return FAKE_ERROR_OUT_OF_MEMORY;
  *ptr = (gpointer) (guintptr) fake_gpu_to_device (fake_gpu_alloc (*pitch *
          height, TRUE));
  return 0;
}

EXPORT gint
hipMalloc (gpointer * ptr, gsize size)
{
  if (!ptr)
    return FAKE_ERROR_INVALID_VALUE;
  FAKE_GPU_RETURN_IF_LOST ();
  if (!fake_gpu_device_alloc_ok (size))
    return FAKE_ERROR_OUT_OF_MEMORY;
  *ptr = (gpointer) (guintptr) fake_gpu_to_device (fake_gpu_alloc (size,
          TRUE));
  return 0;
}

EXPORT gint
hipFree (gpointer ptr)
{
  if (!ptr)
    return 0;
  return fake_gpu_release (fake_gpu_to_host ((guintptr) ptr), TRUE);
}

EXPORT gint
hipHostMalloc (gpointer * ptr, gsize size, guint flags)
{
  if (!ptr)
    return FAKE_ERROR_INVALID_VALUE;
  FAKE_GPU_RETURN_IF_LOST ();
  *ptr = fake_gpu_alloc (size, FALSE);
  return 0;
}

EXPORT gint
hipHostFree (gpointer ptr)
{
  if (!ptr)
    return 0;
  return fake_gpu_release (ptr, FALSE);
}

/* A side of a copy: device memory (translated and bounds-checked) where
 * @device_side, host memory otherwise (which must not be device memory). */
static gboolean
copy_side (gconstpointer p, gsize pitch, gsize width, gsize height,
    gboolean device_side, const guint8 ** host)
{
  const guint8 *h = fake_gpu_to_host ((guintptr) p);

  if (device_side) {
    *host = h;
    return fake_gpu_device_region_ok (h, pitch, width, height);
  }
  *host = p;
  /* a device address where host memory was promised */
  return height == 0 || width == 0 ||
      !fake_gpu_device_region_ok (h, pitch, width, 1);
}

/* Runs @work's bookkeeping on @device (the stream's); restores the
 * thread's current device after. */
#define ON_DEVICE(device, code) G_STMT_START { \
    gint saved_ = fake_gpu_current (); \
    fake_gpu_set_current (device); \
    code; \
    fake_gpu_set_current (saved_); \
  } G_STMT_END

EXPORT gint
hipMemcpy2DAsync (gpointer dst, gsize dpitch, gconstpointer src,
    gsize spitch, gsize width, gsize height, gint kind, gpointer stream)
{
  gint device = stream_device (stream);
  const guint8 *s = NULL, *d = NULL;
  gboolean ok = FALSE;

  if (device == -2)
    return HIP_ERROR_INVALID_HANDLE;
  FAKE_GPU_RETURN_IF_LOST ();
  /* hipMemcpyKind: 1 host to device, 2 device to host, 3 device to
   * device; the default (4, inferred) is not what the HIP layer asks */
  if (kind < 1 || kind > 3)
    return FAKE_ERROR_INVALID_VALUE;
  if (width > spitch || width > dpitch)
    return FAKE_ERROR_INVALID_VALUE;
  ON_DEVICE (device,
      ok = copy_side (src, spitch, width, height, kind != 1, &s) &&
      copy_side (dst, dpitch, width, height, kind != 2, &d));
  if (!ok)
    return FAKE_ERROR_INVALID_VALUE;
  if (kind == 1)
    fake_gpu_count_upload ();
  if (height && !(fake_gpu_dma_mode () &&
          (kind == 1 || fake_gpu_host_region_pinned (d, dpitch, width,
                  height)) && (kind == 2
              || fake_gpu_host_region_pinned (s, spitch, width, height)))) {
    fake_gpu_device_begin ();
    for (gsize y = 0; y < height; y++)
      memcpy ((guint8 *) d + y * dpitch, s + y * spitch, width);
    fake_gpu_device_end ();
  }
  ON_DEVICE (device, fake_gpu_count_copied (width * height));
  return 0;
}

EXPORT gint
hipMemset2DAsync (gpointer dst, gsize pitch, gint value, gsize width,
    gsize height, gpointer stream)
{
  gint device = stream_device (stream);
  guint8 *d = fake_gpu_to_host ((guintptr) dst);
  gboolean ok = FALSE;

  if (device == -2)
    return HIP_ERROR_INVALID_HANDLE;
  FAKE_GPU_RETURN_IF_LOST ();
  if (width > pitch && height > 1)
    return FAKE_ERROR_INVALID_VALUE;
  ON_DEVICE (device, ok = fake_gpu_device_region_ok (d, pitch, width,
          height));
  if (!ok)
    return FAKE_ERROR_INVALID_VALUE;
  fake_gpu_device_begin ();
  for (gsize y = 0; y < height && !fake_gpu_dma_mode (); y++)
    memset (d + y * pitch, value, width);
  fake_gpu_device_end ();
  return 0;
}

EXPORT gint
hipStreamCreateWithFlags (gpointer * stream, guint flags)
{
  FakeStream *s;

  if (!stream)
    return FAKE_ERROR_INVALID_VALUE;
  FAKE_GPU_RETURN_IF_LOST ();
  s = g_new0 (FakeStream, 1);
  s->kind = KIND_STREAM;
  s->device = fake_gpu_current ();
  handle_add (s);
  *stream = s;
  return 0;
}

EXPORT gint
hipStreamDestroy (gpointer stream)
{
  if (!handle_alive (stream, KIND_STREAM) || !handle_remove (stream))
    return HIP_ERROR_INVALID_HANDLE;
  g_free (stream);
  return 0;
}

EXPORT gint
hipStreamSynchronize (gpointer stream)
{
  if (stream_device (stream) == -2)
    return HIP_ERROR_INVALID_HANDLE;
  fake_gpu_count_host_wait ();
  return fake_gpu_sync_result ();
}

EXPORT gint
hipStreamWaitEvent (gpointer stream, gpointer event, guint flags)
{
  if (stream_device (stream) == -2 || !handle_alive (event, KIND_EVENT))
    return HIP_ERROR_INVALID_HANDLE;
  fake_gpu_count_device_wait ();
  return fake_gpu_sticky ();
}

EXPORT gint
hipEventCreateWithFlags (gpointer * event, guint flags)
{
  FakeEvent *e;

  if (!event)
    return FAKE_ERROR_INVALID_VALUE;
  FAKE_GPU_RETURN_IF_LOST ();
  e = g_new0 (FakeEvent, 1);
  e->kind = KIND_EVENT;
  e->device = fake_gpu_current ();
  e->timing = (flags & 0x2) == 0;       /* hipEventDisableTiming */
  handle_add (e);
  *event = e;
  return 0;
}

EXPORT gint
hipEventDestroy (gpointer event)
{
  if (!handle_alive (event, KIND_EVENT) || !handle_remove (event))
    return HIP_ERROR_INVALID_HANDLE;
  g_free (event);
  return 0;
}

EXPORT gint
hipEventRecord (gpointer event, gpointer stream)
{
  FakeEvent *e = event;

  if (!handle_alive (e, KIND_EVENT) || stream_device (stream) == -2)
    return HIP_ERROR_INVALID_HANDLE;
  FAKE_GPU_RETURN_IF_LOST ();
  /* VH_FAKE_CUDA_EVENTS=pending: not done until the host waits */
  e->pending = g_strcmp0 (g_getenv ("VH_FAKE_CUDA_EVENTS"), "pending") == 0;
  return 0;
}

EXPORT gint
hipEventSynchronize (gpointer event)
{
  FakeEvent *e = event;

  if (!handle_alive (e, KIND_EVENT))
    return HIP_ERROR_INVALID_HANDLE;
  fake_gpu_count_host_wait ();
  e->pending = FALSE;
  return fake_gpu_sync_result ();
}

EXPORT gint
hipEventQuery (gpointer event)
{
  FakeEvent *e = event;

  if (!handle_alive (e, KIND_EVENT))
    return HIP_ERROR_INVALID_HANDLE;
  FAKE_GPU_RETURN_IF_LOST ();
  return e->pending ? FAKE_ERROR_NOT_READY : 0;
}

EXPORT gint
hipEventElapsedTime (gfloat * ms, gpointer start, gpointer end)
{
  FakeEvent *a = start, *b = end;

  if (!ms)
    return FAKE_ERROR_INVALID_VALUE;
  if (!handle_alive (a, KIND_EVENT) || !handle_alive (b, KIND_EVENT) || !a->timing || !b->timing)
    return HIP_ERROR_INVALID_HANDLE;
  if (a->pending || b->pending)
    return FAKE_ERROR_NOT_READY;
  *ms = 1.0f;
  return 0;
}

/* Streams and events alive (a leak at exit). */
guint
fake_gpu_vendor_leaks (void)
{
  GHashTableIter iter;
  gpointer h;
  guint n = 0;

  g_mutex_lock (&lock);
  if (live) {
    g_hash_table_iter_init (&iter, live);
    while (g_hash_table_iter_next (&iter, &h, NULL))
      n += *(gint *) h == KIND_STREAM || *(gint *) h == KIND_EVENT;
  }
  g_mutex_unlock (&lock);
  return n;
}

/* The CUDA driver's counters that have no meaning here: no context is
 * retained or pushed, so none is lost either. */
EXPORT gint
vh_fake_cuda_primary_refs (void)
{
  return 0;
}

EXPORT gint
vh_fake_cuda_context_depth (void)
{
  return 0;
}
