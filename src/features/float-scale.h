/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_FLOAT_SCALE_H__
#define __VH_FLOAT_SCALE_H__

#include <glib.h>

G_BEGIN_DECLS

/* Resampling of float planes as libvmaf 3.2 does it for float_vif's
 * vif_prescale and float_motion's motion_add_scale1: sample centres mapped
 * through the size ratio, edges mirrored, every value rounded as libvmaf's
 * float and double mix rounds it. */
typedef enum
{
  VH_FLOAT_SCALE_NEAREST,
  VH_FLOAT_SCALE_BILINEAR,
  VH_FLOAT_SCALE_BICUBIC,
  VH_FLOAT_SCALE_LANCZOS4,
} VhFloatScaleMethod;

/* The names of vif_prescale_method, indexed by VhFloatScaleMethod. */
extern const gchar *const vh_float_scale_method_names[];

/* libvmaf's bilinear column tables are this wide at most. */
#define VH_FLOAT_SCALE_BILINEAR_MAX_WIDTH 7680

/* Resamples @src (@src_w x @src_h) into @dst (@dst_w x @dst_h); strides in
 * floats. Equal sizes copy. */
void         vh_float_scale             (VhFloatScaleMethod method,
                                         const gfloat * src, guint src_w,
                                         guint src_h, gsize src_stride,
                                         gfloat * dst, guint dst_w,
                                         guint dst_h, gsize dst_stride);

/* The same, writing only the rows listed in @rows and the columns listed in
 * @cols (NULL: all of them), for callers that read a few samples only. */
void         vh_float_scale_at          (VhFloatScaleMethod method,
                                         const gfloat * src, guint src_w,
                                         guint src_h, gsize src_stride,
                                         gfloat * dst, guint dst_w,
                                         guint dst_h, gsize dst_stride,
                                         const guint * rows, guint n_rows,
                                         const guint * cols, guint n_cols);

/* The most source samples one destination sample reads along one axis
 * (lanczos4). */
#define VH_FLOAT_SCALE_MAX_TAPS 9

/* Along one axis of @src_n samples resampled to @dst_n: the source
 * positions destination sample @i reads (edges reflected) and their
 * weights, as the functions above compute them; returns how many (1 for
 * nearest, whose weight is unused; bilinear: the two positions and the
 * fraction in @weight[0]; bicubic 4; lanczos4 9). For a resampler that
 * repeats vh_float_scale's arithmetic elsewhere (the GPU). */
guint        vh_float_scale_axis        (VhFloatScaleMethod method,
                                         guint src_n, guint dst_n, guint i,
                                         gint pos[VH_FLOAT_SCALE_MAX_TAPS],
                                         gfloat weight[VH_FLOAT_SCALE_MAX_TAPS]);

/* lanczos4's weights along one axis, as the resampling computes them (in
 * double with the C library's sin): for each destination index i, the
 * source position's floor in @origin[i] and the weights of the samples
 * origin[i] - 4 .. origin[i] + 4 in @weights[9 i ..]. Lets a GPU resample
 * with the CPU's weights. */
#define VH_FLOAT_SCALE_LANCZOS4_TAPS 9

void         vh_float_scale_lanczos4_weights (guint n_src, guint n_dst,
                                         gint * origin, gfloat * weights);

/* libvmaf's size of a prescaled side: (int) (n * scale + 0.5). */
guint        vh_float_scale_size        (guint n, gdouble scale);

G_END_DECLS

#endif /* __VH_FLOAT_SCALE_H__ */
