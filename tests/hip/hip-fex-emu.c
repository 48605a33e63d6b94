/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What a HIP twin calls of the HIP layer (hip-fex-common.h, vhhip.h),
 * emulated on the host for test-twins-emulated: "device" memory is host
 * memory (filled with NaN bytes, so that reading what no kernel wrote
 * shows), launches run the emulated kernels at once, and each frame's
 * slot is collected at the end of its extract. */

#include "hip-fex-common.h"
#include "kernel-emu-launch.h"

#include <stdlib.h>
#include <string.h>

static const VhEmuLauncher launchers[] = {
  vh_emu_speed_launch, vh_emu_adm_launch, vh_emu_motion_launch,
  vh_emu_float_launch, vh_emu_ssimu2_launch,
};

const VhHipKernelSource vh_hip_kernel_speed_filter = { "speed-filter" };
const VhHipKernelSource vh_hip_kernel_speed_solve = { "speed-solve" };
const VhHipKernelSource vh_hip_kernel_adm = { "adm" };
const VhHipKernelSource vh_hip_kernel_motion = { "motion" };
const VhHipKernelSource vh_hip_kernel_ssimulacra2 = { "ssimulacra2" };
const VhHipKernelSource vh_hip_kernel_float_motion = { "float-motion" };
const VhHipKernelSource vh_hip_kernel_float_scale = { "float-scale" };
const VhHipKernelSource vh_hip_kernel_float_vif = { "float-vif" };
const VhHipKernelSource vh_hip_kernel_float_adm = { "float-adm" };
const VhHipKernelSource vh_hip_kernel_psnr_hvs = { "psnr-hvs" };

#define SLOT_BYTES 65536

gboolean
vh_hip_fex_init (VhHipFex * h, VhFeatureExtractor * fex, gsize slot_size,
    VhHipFexCollectFunc collect, GError ** error)
{
  g_assert (slot_size <= SLOT_BYTES);
  memset (h, 0, sizeof (*h));
  h->fex = fex;
  h->collect = collect;
  h->slot_size = slot_size;
  /* Only compared with NULL by the twins. */
  h->device = (VhHipDevice *) h;
  h->d_results = g_malloc0 (SLOT_BYTES);
  return TRUE;
}

void
vh_hip_fex_close (VhHipFex * h)
{
  g_clear_pointer (&h->d_results, g_free);
  h->device = NULL;
}

gpointer
vh_hip_fex_begin (VhHipFex * h, guint index, const VhPicture * ref,
    const VhPicture * dist, GError ** error)
{
  memset (h->d_results, 0, SLOT_BYTES);
  h->current_index = index;
  return h->d_results;
}

gboolean
vh_hip_fex_end (VhHipFex * h, const VhPicture * ref, const VhPicture * dist,
    VhFeatureCollector * fc, GError ** error)
{
  return h->collect (h->fex, h->d_results, h->current_index, fc, error);
}

gboolean
vh_hip_fex_drain (VhHipFex * h, VhFeatureCollector * fc, GError ** error)
{
  return TRUE;
}

gboolean
vh_hip_fex_class_flush (VhFeatureExtractor * fex, VhFeatureCollector * fc,
    GError ** error)
{
  return TRUE;
}

VhHipFunction *
vh_hip_fex_function (VhHipFex * h, const VhHipKernelSource * source,
    const gchar * name, GError ** error)
{
  /* The name itself stands for the function. */
  return (VhHipFunction *) g_intern_string (name);
}

gboolean
vh_hip_launch (VhHipFunction * function, VhHipStream * stream,
    const guint grid[3], const guint block[3], guint shared_bytes,
    gpointer * args, GError ** error)
{
  const gchar *name = (const gchar *) function;

  for (guint i = 0; i < G_N_ELEMENTS (launchers); i++) {
    if (launchers[i] (name, grid, block, args))
      return TRUE;
  }
  g_error ("no emulated kernel %s", name);
  return FALSE;
}

gboolean
vh_hip_fex_launch (VhHipFex * h, VhHipFunction * function, guint grid_x,
    guint grid_y, guint block_x, guint block_y, guint shared_bytes,
    gpointer * args, GError ** error)
{
  const guint grid[3] = { grid_x, grid_y, 1 };
  const guint block[3] = { block_x, block_y, 1 };

  return vh_hip_launch (function, NULL, grid, block, shared_bytes, args,
      error);
}

gboolean
vh_hip_malloc (VhHipDevice * device, gsize size, gpointer * ptr,
    GError ** error)
{
  *ptr = g_malloc (size);
  memset (*ptr, 0xff, size);
  return TRUE;
}

gboolean
vh_hip_malloc_pitch (VhHipDevice * device, gsize width_bytes, gsize height,
    gpointer * ptr, gsize * pitch, GError ** error)
{
  *pitch = (width_bytes + 255) & ~(gsize) 255;
  return vh_hip_malloc (device, *pitch * height, ptr, error);
}

void
vh_hip_free (VhHipDevice * device, gpointer ptr)
{
  g_free (ptr);
}

gboolean
vh_hip_memcpy_2d (VhHipDevice * device, VhHipCopyKind kind, gpointer dst,
    gsize dst_pitch, gconstpointer src, gsize src_pitch, gsize width_bytes,
    gsize height, GError ** error)
{
  for (gsize i = 0; i < height; i++)
    memcpy ((guint8 *) dst + i * dst_pitch,
        (const guint8 *) src + i * src_pitch, width_bytes);
  return TRUE;
}

gboolean
vh_hip_memcpy_2d_async (VhHipStream * stream, VhHipCopyKind kind,
    gpointer dst, gsize dst_pitch, gconstpointer src, gsize src_pitch,
    gsize width_bytes, gsize height, GError ** error)
{
  return vh_hip_memcpy_2d (NULL, kind, dst, dst_pitch, src, src_pitch,
      width_bytes, height, error);
}

gboolean
vh_hip_memset_2d_async (VhHipStream * stream, gpointer ptr, gsize pitch,
    guint8 value, gsize width_bytes, gsize height, GError ** error)
{
  for (gsize i = 0; i < height; i++)
    memset ((guint8 *) ptr + i * pitch, value, width_bytes);
  return TRUE;
}

gboolean
vh_hip_stream_synchronize (VhHipStream * stream, GError ** error)
{
  return TRUE;
}

VhHipDevice *
vh_hip_device_ref (VhHipDevice * device)
{
  return device;
}

void
vh_hip_device_unref (VhHipDevice * device)
{
}
