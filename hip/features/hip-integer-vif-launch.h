/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_HIP_INTEGER_VIF_LAUNCH_H__
#define __VH_HIP_INTEGER_VIF_LAUNCH_H__

#include "vhhip.h"
#include "features/integer-vif-private.h"

G_BEGIN_DECLS

/* The kernel module (hip/features/kernels/vif.hip), made by the build. */
extern const VhHipKernelSource vh_hip_kernel_vif;

/* Device buffers and kernels of integer VIF for one picture size and bit
 * depth: the pictures of scales 1 to 3, the per-block sums, the log2 table
 * of the CPU twin. */
typedef struct
{
  VhHipDevice *device;          /* a reference */
  guint bpc;
  guint w[VH_VIF_N_SCALES];
  guint h[VH_VIF_N_SCALES];
  /* Scales 1..3 one after the other, each the reference's rows then the
   * distorted picture's (the layout the statistics kernel derives). */
  guint8 *scaled;
  guint64 scaled_pitch;
  guint8 *scaled_ref[VH_VIF_N_SCALES];
  guint8 *scaled_dis[VH_VIF_N_SCALES];
  guint n_blocks[VH_VIF_N_SCALES];
  guint blocks_stride;          /* block sums between two scales */
  gint64 *partials;
  guint16 *log2_table;
  VhHipFunction *stats;
  VhHipFunction *decimate[VH_VIF_N_SCALES];
  VhHipFunction *reduce;
} VhHipVifLaunch;

/* Allocates and loads everything for @width x @height pictures of @bpc
 * (8 to 16) bits, at least 16 x 16 (see the CPU twin). */
gboolean     vh_hip_vif_launch_init      (VhHipVifLaunch * l,
                                          VhHipDevice * device, guint width,
                                          guint height, guint bpc,
                                          GError ** error);

/* Frees what init allocated; safe on a zeroed or half-initialised @l.
 * Nothing may still be running on the buffers. */
void         vh_hip_vif_launch_clear     (VhHipVifLaunch * l);

/* Queues the four scales of one frame on @stream: @ref and @dis are the
 * luma planes in device memory (@*_pitch bytes per row, samples adjacent).
 * Writes VH_VIF_N_SCALES VhVifAccum, the exact sums of the CPU twin
 * (all zero for scale 0 when @skip_scale0), to @sums in device memory. */
gboolean     vh_hip_vif_launch_frame     (VhHipVifLaunch * l,
                                          VhHipStream * stream,
                                          gconstpointer ref, gsize ref_pitch,
                                          gconstpointer dis, gsize dis_pitch,
                                          gdouble gain_limit,
                                          gboolean skip_scale0,
                                          gpointer sums, GError ** error);

G_END_DECLS

#endif /* __VH_HIP_INTEGER_VIF_LAUNCH_H__ */
