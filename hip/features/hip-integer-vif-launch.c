/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Host side of the integer VIF kernels (hip/features/kernels/vif.hip): buffers, and
 * the launches of one frame. */

#include "hip-integer-vif-launch.h"

#include <string.h>

/* Must match the kernels' VIF_THREADS, VIF_TILE_* and VIF_DEC_*. */
#define VIF_THREADS 256
#define VIF_TILE_W 112
#define VIF_TILE_H 16
#define VIF_DEC_W 32
#define VIF_DEC_H 8
/* Row alignment of the scaled pictures, in bytes. */
#define VIF_PITCH_ALIGN 256

static const gchar *const decimate_names[VH_VIF_N_SCALES] = {
  NULL, NULL, "vh_vif_decimate2", "vh_vif_decimate3",
};

static guint
div_up (guint a, guint b)
{
  return (a + b - 1) / b;
}

static gboolean
load_functions (VhHipVifLaunch * l, GError ** error)
{
  const gboolean wide = l->bpc > 8;
  VhHipModule *module = vh_hip_module_get (l->device, &vh_hip_kernel_vif,
      error);

  if (!module)
    return FALSE;
  l->stats = vh_hip_module_get_function (module,
      wide ? "vh_vif_stats_u16" : "vh_vif_stats_u8", error);
  if (!l->stats)
    return FALSE;
  for (guint i = 1; i < VH_VIF_N_SCALES; i++) {
    const gchar *name = decimate_names[i];

    if (i == 1)
      name = wide ? "vh_vif_decimate1_u16" : "vh_vif_decimate1_u8";
    l->decimate[i] = vh_hip_module_get_function (module, name, error);
    if (!l->decimate[i])
      return FALSE;
  }
  l->reduce = vh_hip_module_get_function (module, "vh_vif_reduce", error);
  return l->reduce != NULL;
}

gboolean
vh_hip_vif_launch_init (VhHipVifLaunch * l, VhHipDevice * device,
    guint width, guint height, guint bpc, GError ** error)
{
  const gsize table_bytes = VH_VIF_LOG2_TABLE_SIZE * sizeof (guint16);
  gsize rows = 0;

  memset (l, 0, sizeof (*l));
  l->device = vh_hip_device_ref (device);
  l->bpc = bpc;
  l->w[0] = width;
  l->h[0] = height;
  for (guint i = 1; i < VH_VIF_N_SCALES; i++) {
    l->w[i] = l->w[i - 1] / 2;
    l->h[i] = l->h[i - 1] / 2;
  }
  for (guint i = 0; i < VH_VIF_N_SCALES; i++) {
    l->n_blocks[i] = div_up (l->w[i], VIF_TILE_W) * div_up (l->h[i],
        VIF_TILE_H);
    l->blocks_stride = MAX (l->blocks_stride, l->n_blocks[i]);
  }

  if (!load_functions (l, error))
    goto fail;
  /* One pitch for every scale, so that the kernel finds each picture from
   * the sizes alone. */
  l->scaled_pitch = (l->w[1] * sizeof (guint16) + VIF_PITCH_ALIGN - 1) /
      VIF_PITCH_ALIGN * VIF_PITCH_ALIGN;
  for (guint i = 1; i < VH_VIF_N_SCALES; i++)
    rows += 2 * l->h[i];
  if (!vh_hip_malloc (device, rows * l->scaled_pitch,
          (gpointer *) & l->scaled, error))
    goto fail;
  rows = 0;
  for (guint i = 1; i < VH_VIF_N_SCALES; i++) {
    l->scaled_ref[i] = l->scaled + rows * l->scaled_pitch;
    l->scaled_dis[i] = l->scaled_ref[i] + l->h[i] * l->scaled_pitch;
    rows += 2 * l->h[i];
  }
  if (!vh_hip_malloc (device, (gsize) VH_VIF_N_SCALES * l->blocks_stride *
          sizeof (VhVifAccum), (gpointer *) & l->partials, error) ||
      !vh_hip_malloc (device, table_bytes, (gpointer *) & l->log2_table,
          error) ||
      !vh_hip_memcpy_2d (device, VH_HIP_COPY_HOST_TO_DEVICE, l->log2_table,
          table_bytes, vh_vif_log2_table (), table_bytes, table_bytes, 1,
          error))
    goto fail;
  return TRUE;

fail:
  vh_hip_vif_launch_clear (l);
  return FALSE;
}

void
vh_hip_vif_launch_clear (VhHipVifLaunch * l)
{
  if (!l->device)
    return;
  if (l->scaled)
    vh_hip_free (l->device, l->scaled);
  if (l->partials)
    vh_hip_free (l->device, l->partials);
  if (l->log2_table)
    vh_hip_free (l->device, l->log2_table);
  vh_hip_device_unref (l->device);
  memset (l, 0, sizeof (*l));
}

static gboolean
launch (VhHipFunction * function, VhHipStream * stream, guint gx, guint gy,
    gpointer * args, GError ** error)
{
  const guint grid[3] = { gx, gy, 1 };
  const guint block[3] = { VIF_THREADS, 1, 1 };

  return vh_hip_launch (function, stream, grid, block, 0, args, error);
}

gboolean
vh_hip_vif_launch_frame (VhHipVifLaunch * l, VhHipStream * stream,
    gconstpointer ref, gsize ref_pitch, gconstpointer dis, gsize dis_pitch,
    gdouble gain_limit, gboolean skip_scale0, gpointer sums, GError ** error)
{
  guint64 rp = ref_pitch, dp = dis_pitch;
  gint w = l->w[0], h = l->h[0];
  /* Scale 0 rounds by the bit depth, later scales by 16 bits. */
  guint shift_mu = l->bpc, shift_sq = 2 * (l->bpc - 8);
  gint first = skip_scale0 ? 1 : 0;
  guint n0 = skip_scale0 ? 0 : l->n_blocks[0];
  guint n_stats = n0;

  /* The pictures of scales 1 to 3, each from the one before. */
  for (guint i = 1; i < VH_VIF_N_SCALES; i++) {
    gconstpointer in_ref = i == 1 ? ref : l->scaled_ref[i - 1];
    gconstpointer in_dis = i == 1 ? dis : l->scaled_dis[i - 1];
    guint64 in_rp = i == 1 ? rp : l->scaled_pitch;
    guint64 in_dp = i == 1 ? dp : l->scaled_pitch;
    gint pw = l->w[i - 1], ph = l->h[i - 1], ow = l->w[i], oh = l->h[i];
    guint shift = i == 1 ? l->bpc : 16;
    gpointer args[] = { &in_ref, &in_rp, &in_dis, &in_dp, &pw, &ph, &shift,
      &l->scaled_ref[i], &l->scaled_pitch, &l->scaled_dis[i],
      &l->scaled_pitch, &ow, &oh
    };

    if (!launch (l->decimate[i], stream, div_up (ow, VIF_DEC_W),
            div_up (oh, VIF_DEC_H), args, error))
      return FALSE;
    n_stats += l->n_blocks[i];
  }
  {
    gpointer args[] = { &ref, &rp, &dis, &dp, &w, &h, &l->scaled,
      &l->scaled_pitch, &shift_mu, &shift_sq, &gain_limit, &l->log2_table,
      &l->partials, &l->blocks_stride, &first
    };

    if (!launch (l->stats, stream, n_stats, 1, args, error))
      return FALSE;
  }
  {
    gpointer args[] = { &l->partials, &l->blocks_stride, &n0,
      &l->n_blocks[1], &l->n_blocks[2], &l->n_blocks[3], &sums
    };

    return launch (l->reduce, stream, VH_VIF_N_SCALES, 1, args, error);
  }
}
