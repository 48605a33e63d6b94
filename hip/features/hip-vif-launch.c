/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Host side of the integer VIF kernels (hip/kernels/vif.hip): buffers, and
 * the launches of one frame. */

#include "hip-vif-launch.h"

#include <string.h>

/* Must match the kernels' VIF_THREADS, VIF_TILE_* and VIF_DEC_*. */
#define VIF_THREADS 256
#define VIF_TILE_W 112
#define VIF_TILE_H 16
#define VIF_DEC_W 32
#define VIF_DEC_H 8

static const gchar *const stats_names[VH_VIF_N_SCALES] = {
  NULL, "vh_vif_stats1", "vh_vif_stats2", "vh_vif_stats3",
};

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
  for (guint i = 0; i < VH_VIF_N_SCALES; i++) {
    const gchar *stats = stats_names[i], *decimate = decimate_names[i];

    if (i == 0)
      stats = wide ? "vh_vif_stats0_u16" : "vh_vif_stats0_u8";
    if (i == 1)
      decimate = wide ? "vh_vif_decimate1_u16" : "vh_vif_decimate1_u8";
    l->stats[i] = vh_hip_module_get_function (module, stats, error);
    if (!l->stats[i])
      return FALSE;
    if (decimate) {
      l->decimate[i] = vh_hip_module_get_function (module, decimate, error);
      if (!l->decimate[i])
        return FALSE;
    }
  }
  l->reduce = vh_hip_module_get_function (module, "vh_vif_reduce", error);
  return l->reduce != NULL;
}

gboolean
vh_hip_vif_launch_init (VhHipVifLaunch * l, VhHipDevice * device,
    guint width, guint height, guint bpc, GError ** error)
{
  const gsize table_bytes = VH_VIF_LOG2_TABLE_SIZE * sizeof (guint16);

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
  for (guint i = 1; i < VH_VIF_N_SCALES; i++) {
    if (!vh_hip_malloc_pitch (device, l->w[i] * sizeof (guint16),
            2 * l->h[i], (gpointer *) & l->scaled[i], &l->scaled_pitch[i],
            error))
      goto fail;
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
  for (guint i = 1; i < VH_VIF_N_SCALES; i++) {
    if (l->scaled[i])
      vh_hip_free (l->device, l->scaled[i]);
  }
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
  gconstpointer in_ref = ref, in_dis = dis;
  guint64 in_ref_pitch = ref_pitch, in_dis_pitch = dis_pitch;
  guint n0 = skip_scale0 ? 0 : l->n_blocks[0];

  for (guint i = 0; i < VH_VIF_N_SCALES; i++) {
    gint w = l->w[i], h = l->h[i];
    /* Scale 0 rounds by the bit depth; the scaled pictures are 16-bit. */
    guint shift_mu = i == 0 ? l->bpc : 16;
    guint shift_sq = i == 0 ? 2 * (l->bpc - 8) : 16;
    gpointer partials = l->partials + (gsize) i * l->blocks_stride * 4;

    if (i > 0) {
      gpointer out_ref = l->scaled[i];
      gpointer out_dis = l->scaled[i] + l->h[i] * l->scaled_pitch[i];
      guint64 out_pitch = l->scaled_pitch[i];
      gint pw = l->w[i - 1], ph = l->h[i - 1];
      guint shift = i == 1 ? l->bpc : 16;
      gpointer args[] = { &in_ref, &in_ref_pitch, &in_dis, &in_dis_pitch,
        &pw, &ph, &shift, &out_ref, &out_pitch, &out_dis, &out_pitch, &w, &h
      };

      if (!launch (l->decimate[i], stream, div_up (w, VIF_DEC_W),
              div_up (h, VIF_DEC_H), args, error))
        return FALSE;
      in_ref = out_ref;
      in_dis = out_dis;
      in_ref_pitch = in_dis_pitch = out_pitch;
    }
    if (i > 0 || !skip_scale0) {
      gpointer args[] = { &in_ref, &in_ref_pitch, &in_dis, &in_dis_pitch,
        &w, &h, &shift_mu, &shift_sq, &gain_limit, &l->log2_table, &partials
      };

      if (!launch (l->stats[i], stream, div_up (w, VIF_TILE_W),
              div_up (h, VIF_TILE_H), args, error))
        return FALSE;
    }
  }
  {
    gpointer args[] = { &l->partials, &l->blocks_stride, &n0,
      &l->n_blocks[1], &l->n_blocks[2], &l->n_blocks[3], &sums
    };

    return launch (l->reduce, stream, VH_VIF_N_SCALES, 1, args, error);
  }
}
