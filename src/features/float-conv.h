/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_FLOAT_CONV_H__
#define __VH_FLOAT_CONV_H__

#include <glib.h>

G_BEGIN_DECLS

/* Separable filtering in libvmaf's float order, shared by float_vif and
 * float_motion: each output is 0 + f[0] x[0] + f[1] x[1] + ... summed in
 * single precision, the vertical pass first, edges mirrored without
 * repeating the border sample. */

/* The most taps a filter may have: float_vif's widest kernel scale
 * (360 / 97) makes 65 at scale 0. */
#define VH_FCONV_MAX_TAPS 65

/* Hot loops also get an AVX2 build picked at load time; only the vector
 * width changes (no FMA), so results do not. Define it empty to build one
 * version only. */
#ifndef VH_FLOAT_MULTIVERSION
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    defined(__linux__)
#define VH_FLOAT_MULTIVERSION __attribute__ ((target_clones ("avx2", "default")))
#else
#define VH_FLOAT_MULTIVERSION
#endif
#endif

/* Put before a loop over the taps of a filter whose width is a constant:
 * fully unrolled taps let the loop over columns vectorise, and GCC does
 * not unroll 17 taps on its own. */
#if defined(__GNUC__) && !defined(__clang__)
#define VH_UNROLL_TAPS _Pragma ("GCC unroll 17")
#else
#define VH_UNROLL_TAPS
#endif

/* Index @i of a line of @n samples, reflected at both ends. */
static inline guint
vh_fconv_mirror (gint i, guint n)
{
  if (i < 0)
    return (guint) - i;
  if (i >= (gint) n)
    return 2 * n - (guint) i - 2;
  return (guint) i;
}

/* out[j] = sum over k of f[k] rows[k][j], for j < @n. */
void         vh_fconv_vrow              (const gfloat * f, guint fw,
                                         const gfloat * const *rows,
                                         gfloat * out, guint n);

/* Horizontal pass of one row: @row holds @n samples with fw / 2 spare
 * floats before and after, which this fills with the mirror image;
 * out[j] = sum over k of f[k] row[j - fw / 2 + k]. */
void         vh_fconv_hrow              (const gfloat * f, guint fw,
                                         gfloat * row, gfloat * out,
                                         guint n);

/* Filters a @w x @h plane (@w, @h > fw / 2); @scratch holds
 * @w + fw - 1 floats. */
void         vh_fconv_plane             (const gfloat * f, guint fw,
                                         const gfloat * src,
                                         gsize src_stride, gfloat * dst,
                                         gsize dst_stride, guint w, guint h,
                                         gfloat * scratch);

G_END_DECLS

#endif /* __VH_FLOAT_CONV_H__ */
