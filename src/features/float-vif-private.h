/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_FLOAT_VIF_PRIVATE_H__
#define __VH_FLOAT_VIF_PRIVATE_H__

#include <glib.h>

#include "float-conv.h"

G_BEGIN_DECLS

#define VH_FVIF_N_SCALES 4

/* Rows whose per-pixel terms are summed side by side. */
#define VH_FVIF_GROUP 8

typedef struct
{
  gdouble sigma_nsq;            /* neural noise variance */
  gfloat gain_limit;            /* enhancement gain cap */
  gfloat sigma_max_inv;
} VhFvifParams;

/* Row scratch for planes up to @max_w wide; one per extractor instance. */
typedef struct
{
  guint max_w;
  gsize pad_stride;             /* floats per padded row */
  gfloat *vert;                 /* 5 padded rows: mu1, mu2, xx, yy, xy */
  gfloat *horiz;                /* the same 5 rows after the second pass */
  gfloat *num;                  /* VH_FVIF_GROUP rows of numerator terms */
  gfloat *den;                  /* and of denominator terms */
} VhFvifWork;

/* The Gaussian of @scale widened by @kernel_scale; returns its width. */
guint        vh_fvif_filter             (guint scale, gfloat kernel_scale,
                                         gfloat * out);

/* Whether libvmaf accepts @kernel_scale (it has a fixed list). */
gboolean     vh_fvif_kernel_scale_valid (gfloat kernel_scale);

void         vh_fvif_work_init          (VhFvifWork * ws, guint max_w);

void         vh_fvif_work_clear         (VhFvifWork * ws);

/* Filters @src (@w x @h) with @f and keeps even rows and columns:
 * (@w / 2) x (@h / 2) samples into @dst. */
void         vh_fvif_decimate           (VhFvifWork * ws, const gfloat * f,
                                         guint fw, const gfloat * src,
                                         gsize src_stride, guint w, guint h,
                                         gfloat * dst, gsize dst_stride);

/* Sums of the numerator and denominator terms of one scale. */
void         vh_fvif_scale_sums         (VhFvifWork * ws, const gfloat * f,
                                         guint fw, const gfloat * ref,
                                         const gfloat * dist, gsize stride,
                                         guint w, guint h,
                                         const VhFvifParams * p,
                                         gfloat * num, gfloat * den);

G_END_DECLS

#endif /* __VH_FLOAT_VIF_PRIVATE_H__ */
