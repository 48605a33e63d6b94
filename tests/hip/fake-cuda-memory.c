/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The fake CUDA driver's devices, contexts, memory and copies (see
 * fake-cuda.c). */

#include "fake-cuda-private.h"

EXPORT gint
cuInit (guint flags)
{
  const gchar *want = g_getenv ("VH_FAKE_CUDA_WANT_ENV");
  const gchar *eq = want ? strchr (want, '=') : NULL;

  if (eq) {
    g_autofree gchar *name = g_strndup (want, eq - want);
    const gchar *value = g_getenv (name);

    if (g_strcmp0 (value ? value : "", eq + 1) != 0) {
      fprintf (stderr, "fake CUDA driver: cuInit saw %s=%s, wanted %s\n",
          name, value ? value : "(unset)", want);
      return CUDA_ERROR_INVALID_VALUE;
    }
  }
  return devices () > 0 ? CUDA_SUCCESS : CUDA_ERROR_NO_DEVICE;
}

EXPORT gint
cuDriverGetVersion (gint * v)
{
  *v = 99000;
  return 0;
}

EXPORT gint
cuGetErrorString (gint code, const gchar ** s)
{
  *s = code == CUDA_ERROR_INVALID_VALUE ? "invalid argument" :
      code == CUDA_ERROR_INVALID_IMAGE ? "device kernel image is invalid" :
      code == CUDA_ERROR_OUT_OF_MEMORY ? "out of memory" :
      code == CUDA_ERROR_ILLEGAL_ADDRESS ?
      "an illegal memory access was encountered" :
      code == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES ?
      "too many resources requested for launch" :
      code == CUDA_ERROR_LAUNCH_FAILED ?
      "unspecified launch failure" : "fake error";
  return 0;
}

EXPORT gint
cuGetErrorName (gint code, const gchar ** s)
{
  *s = code == CUDA_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE" :
      code == CUDA_ERROR_OUT_OF_MEMORY ? "CUDA_ERROR_OUT_OF_MEMORY" :
      code == CUDA_ERROR_ILLEGAL_ADDRESS ? "CUDA_ERROR_ILLEGAL_ADDRESS" :
      code == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES ?
      "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES" :
      code == CUDA_ERROR_LAUNCH_FAILED ? "CUDA_ERROR_LAUNCH_FAILED" :
      "CUDA_ERROR_FAKE";
  return 0;
}

EXPORT gint
cuDeviceGetCount (gint * n)
{
  *n = devices ();
  return 0;
}

EXPORT gint
cuDeviceGet (gint * dev, gint ordinal)
{
  if (ordinal < 0 || ordinal >= devices ())
    return CUDA_ERROR_INVALID_DEVICE;
  *dev = ordinal;
  return 0;
}

EXPORT gint
cuDeviceGetName (gchar * name, gint len, gint dev)
{
  g_snprintf (name, len, "vmafhip fake device %d", dev);
  return 0;
}

EXPORT gint
cuDeviceTotalMem_v2 (gsize * bytes, gint dev)
{
  *bytes = G_GUINT64_CONSTANT (1) << 30;
  return 0;
}

EXPORT gint
cuDeviceGetAttribute (gint * value, gint attr, gint dev)
{
  switch (attr) {
    case 1:
      *value = 1024;
      break;
    case 10:
      *value = 32;
      break;
    case 16:
      *value = 4;
      break;
    case 51:
      *value = 32;
      break;
    case 75:
      *value = 9;
      break;
    case 76:
      *value = 0;
      break;
    default:
      return CUDA_ERROR_INVALID_VALUE;
  }
  return 0;
}

EXPORT gint
cuDevicePrimaryCtxRetain (gpointer * ctx, gint dev)
{
  if (dev < 0 || dev >= devices ())
    return CUDA_ERROR_INVALID_DEVICE;
  g_mutex_lock (&lock);
  primary_refs[dev]++;
  g_mutex_unlock (&lock);
  *ctx = GINT_TO_POINTER (dev + 1);
  return 0;
}

EXPORT gint
cuDevicePrimaryCtxRelease_v2 (gint dev)
{
  gint ret = 0;

  if (dev < 0 || dev >= devices ())
    return CUDA_ERROR_INVALID_DEVICE;
  g_mutex_lock (&lock);
  if (primary_refs[dev] == 0) {
    ret = CUDA_ERROR_INVALID_CONTEXT;
  } else if (--primary_refs[dev] == 0) {
    /* the context goes, with whatever was still allocated in it */
    for (GList * l = allocations; l; l = l->next) {
      Allocation *a = l->data;
      if (a->ctx == dev) {
        a->ctx = -1;
        n_lost++;
      }
    }
  }
  g_mutex_unlock (&lock);
  return ret;
}

EXPORT gint
cuCtxPushCurrent_v2 (gpointer ctx)
{
  gint dev = GPOINTER_TO_INT (ctx) - 1;
  gboolean alive;

  if (dev < 0 || dev >= MAX_DEVICES)
    return CUDA_ERROR_INVALID_VALUE;
  g_mutex_lock (&lock);
  alive = primary_refs[dev] > 0;
  g_mutex_unlock (&lock);
  if (!alive)
    return CUDA_ERROR_INVALID_CONTEXT;
  if (ctx_depth < (gint) G_N_ELEMENTS (ctx_stack))
    ctx_stack[ctx_depth] = dev;
  ctx_depth++;
  return 0;
}

EXPORT gint
cuCtxPopCurrent_v2 (gpointer * ctx)
{
  ctx_depth--;
  return 0;
}

EXPORT gint
cuMemAllocPitch_v2 (CUdeviceptr * p, gsize * pitch, gsize width,
    gsize height, guint element)
{
  RETURN_IF_LOST ();
  /* an unusual alignment, so that nobody assumes one */
  *pitch = (width + 383) / 384 * 384;
  if (!device_alloc_ok (*pitch * height))
    return CUDA_ERROR_OUT_OF_MEMORY;
  *p = to_device (alloc (*pitch * height, TRUE));
  g_atomic_int_inc (&n_device_allocs_made);
  return 0;
}

EXPORT gint
cuMemAlloc_v2 (CUdeviceptr * p, gsize size)
{
  RETURN_IF_LOST ();
  if (!device_alloc_ok (size))
    return CUDA_ERROR_OUT_OF_MEMORY;
  *p = to_device (alloc (size, TRUE));
  g_atomic_int_inc (&n_device_allocs_made);
  return 0;
}

EXPORT gint
cuMemFree_v2 (CUdeviceptr p)
{
  return release (to_host (p), TRUE);
}

EXPORT gint
cuMemHostAlloc (gpointer * p, gsize size, guint flags)
{
  RETURN_IF_LOST ();
  *p = alloc (size, FALSE);
  g_atomic_int_inc (&n_host_allocs_made);
  return 0;
}

EXPORT gint
cuMemFreeHost (gpointer p)
{
  return release (p, FALSE);
}

static gboolean
dma_mode (void)
{
  static gint dma = -1;

  if (dma < 0)
    dma = noop_kernels () &&
        g_strcmp0 (g_getenv ("VH_FAKE_CUDA_COPIES"), "dma") == 0;
  return dma;
}

/* VH_FAKE_CUDA_COPIES=dma: whether a GPU would make this copy without the
 * CPU (page-locked or device memory on both sides). */
static gboolean
copy_is_dma (const FakeMemcpy2D * c, const guint8 * src, const guint8 * dst)
{
  gboolean pinned = TRUE;

  if (!dma_mode ())
    return FALSE;
  g_mutex_lock (&lock);
  if (c->srcMemoryType != 2)
    pinned = find_allocation (src, (c->Height - 1) * c->srcPitch +
        c->WidthInBytes, FALSE) != NULL;
  if (pinned && c->dstMemoryType != 2)
    pinned = find_allocation (dst, (c->Height - 1) * c->dstPitch +
        c->WidthInBytes, FALSE) != NULL;
  g_mutex_unlock (&lock);
  return pinned;
}

EXPORT gint
cuMemcpy2DAsync_v2 (const FakeMemcpy2D * c, gpointer stream)
{
  const guint8 *src;
  guint8 *dst;

  RETURN_IF_LOST ();
  if (c->srcMemoryType == 2) {
    src = to_host (c->srcDevice);
    if (!device_region_ok (src, c->srcPitch, c->WidthInBytes, c->Height))
      return CUDA_ERROR_INVALID_VALUE;
  } else {
    src = c->srcHost;
  }
  if (c->dstMemoryType == 2) {
    dst = to_host (c->dstDevice);
    if (!device_region_ok (dst, c->dstPitch, c->WidthInBytes, c->Height))
      return CUDA_ERROR_INVALID_VALUE;
  } else {
    dst = c->dstHost;
  }
  if (c->WidthInBytes > c->srcPitch || c->WidthInBytes > c->dstPitch)
    return CUDA_ERROR_INVALID_VALUE;
  if (c->srcMemoryType != 2 && c->dstMemoryType == 2)
    g_atomic_int_inc (&n_uploads);
  if (c->Height && !copy_is_dma (c, src, dst)) {
    for (gsize y = 0; y < c->Height; y++)
      memcpy (dst + y * c->dstPitch, src + y * c->srcPitch, c->WidthInBytes);
  }
  if (current_device () >= 0) {
    g_mutex_lock (&lock);
    device_copied[current_device ()] += c->WidthInBytes * c->Height;
    g_mutex_unlock (&lock);
  }
  return 0;
}

EXPORT gint
cuMemsetD2D8Async (CUdeviceptr p, gsize pitch, guint8 value, gsize width,
    gsize height, gpointer stream)
{
  guint8 *d = to_host (p);

  RETURN_IF_LOST ();
  if (!device_region_ok (d, pitch, width, height))
    return CUDA_ERROR_INVALID_VALUE;
  for (gsize y = 0; y < height && !dma_mode (); y++)
    memset (d + y * pitch, value, width);
  return 0;
}
