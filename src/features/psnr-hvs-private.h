/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* PSNR-HVS's per-plane kernel, built plain and for AVX2. */

#ifndef __VH_PSNR_HVS_PRIVATE_H__
#define __VH_PSNR_HVS_PRIVATE_H__

#include <glib.h>

G_BEGIN_DECLS

/* One plane's samples: @step samples between horizontal neighbours. */
typedef struct
{
  const guint8 *data;
  gsize stride;
  guint step;
} VhPsnrHvsPlane;

/* A plane's contrast sensitivity weights and masking table. */
typedef struct
{
  gfloat csf[64];
  gfloat mask[64];
} VhPsnrHvsTables;

/* @plane: 0 luma, 1 Cb, 2 Cr. */
void         vh_psnr_hvs_tables_init    (VhPsnrHvsTables * t, guint plane);

/* The plane's weighted, masked mean squared DCT error over the peak's
 * square (libvmaf's calc_psnrhvs); NaN when the plane has no 8x8 block. */
gdouble      vh_psnr_hvs_plane_c        (const VhPsnrHvsPlane * ref,
                                         const VhPsnrHvsPlane * dis,
                                         guint width, guint height, guint bpc,
                                         const VhPsnrHvsTables * t);

/* A plane's score from the float sum of its blocks' terms (in libvmaf's
 * order) over @pixels samples: the sum divided by them, then by the
 * peak's square, in single precision. */
gdouble      vh_psnr_hvs_plane_score    (gfloat sum, gint pixels, guint bpc);

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define VH_PSNR_HVS_HAVE_AVX2 1
gdouble      vh_psnr_hvs_plane_avx2     (const VhPsnrHvsPlane * ref,
                                         const VhPsnrHvsPlane * dis,
                                         guint width, guint height, guint bpc,
                                         const VhPsnrHvsTables * t);
#endif

G_END_DECLS

#endif /* __VH_PSNR_HVS_PRIVATE_H__ */
