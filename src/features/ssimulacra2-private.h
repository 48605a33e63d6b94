/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* SSIMULACRA 2 on the CPU: the colour conversion and the per-frame work
 * (ssimulacra2-color.c, ssimulacra2-maps.c). */

#ifndef __VH_SSIMULACRA2_PRIVATE_H__
#define __VH_SSIMULACRA2_PRIVATE_H__

#include "ssimulacra2.h"

G_BEGIN_DECLS

/* Scratch planes of one instance, each sized for the full frame. */
typedef struct
{
  guint width, height;
  gfloat *lin[2][2][3];         /* [ref, dis][ping-pong][R, G, B] */
  gfloat *xyb[2][3];            /* [ref, dis][X, Y, B] */
  gfloat *tmp[7];               /* product, blur temp, s11, s22, s12, mu1, mu2 */
  gfloat *state;                /* the vertical blur's per-column poles */
  guint16 *row16;               /* one row of R'G'B' */
} VhSsimu2Planes;

void         vh_ssimu2_planes_init       (VhSsimu2Planes * p, guint width,
                                          guint height);

void         vh_ssimu2_planes_clear      (VhSsimu2Planes * p);

/* Chroma sample at luma (@x, @y) of plane @p, times 8: the exact integer
 * the upsampling gives (see vh_ssimu2_rgb16_row()). */
guint        vh_ssimu2_chroma_num        (const VhSsimu2Yuv * yuv,
                                          const VhPicture * pic, guint p,
                                          guint x, guint y);

/* Row @y of @pic as 16-bit R'G'B'. */
void         vh_ssimu2_rgb16_row         (const VhSsimu2Yuv * yuv,
                                          const VhPicture * pic, guint y,
                                          guint16 * r, guint16 * g,
                                          guint16 * b);

/* Whether the FMA build of vh_ssimu2_compute() may run (same results). */
gboolean     vh_ssimu2_can_use_fma       (guint cpu_mask);

/* Every scale's sums (VH_SSIMU2_SUMS_PER_SCALE each) of @ref against
 * @dist; returns the number of scales. */
guint        vh_ssimu2_compute           (const VhSsimu2 * s,
                                          VhSsimu2Planes * p,
                                          const VhPicture * ref,
                                          const VhPicture * dist,
                                          gboolean use_fma, gdouble * sums);

G_END_DECLS

#endif /* __VH_SSIMULACRA2_PRIVATE_H__ */
