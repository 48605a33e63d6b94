/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Separable float filtering with mirrored edges (see float-conv.h). The
 * row kernels are built for each filter width in use so that the taps
 * unroll and the loops over columns vectorise; every output keeps its own
 * sum in tap order, so vector code gives the scalar result. */

#include "float-conv.h"

/* A fused multiply-add would round once instead of twice. */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

static inline __attribute__ ((always_inline)) void
vrow_impl (const gfloat * f, guint fw, const gfloat * const *rows,
    gfloat * restrict out, guint n)
{
  gfloat c[VH_FCONV_MAX_TAPS];
  const gfloat *r[VH_FCONV_MAX_TAPS];

  for (guint k = 0; k < fw; k++) {
    c[k] = f[k];
    r[k] = rows[k];
  }
  for (gsize j = 0; j < n; j++) {
    gfloat acc = 0.0f;

    VH_UNROLL_TAPS for (guint k = 0; k < fw; k++)
      acc += c[k] * r[k][j];
    out[j] = acc;
  }
}

static inline __attribute__ ((always_inline)) void
hrow_impl (const gfloat * f, guint fw, const gfloat * in,
    gfloat * restrict out, guint n)
{
  gfloat c[VH_FCONV_MAX_TAPS];

  for (guint k = 0; k < fw; k++)
    c[k] = f[k];
  for (gsize j = 0; j < n; j++) {
    gfloat acc = 0.0f;

    VH_UNROLL_TAPS for (guint k = 0; k < fw; k++)
      acc += c[k] * in[j + k];
    out[j] = acc;
  }
}

VH_FLOAT_MULTIVERSION void
vh_fconv_vrow (const gfloat * f, guint fw, const gfloat * const *rows,
    gfloat * out, guint n)
{
  switch (fw) {
    case 3:
      vrow_impl (f, 3, rows, out, n);
      break;
    case 5:
      vrow_impl (f, 5, rows, out, n);
      break;
    case 9:
      vrow_impl (f, 9, rows, out, n);
      break;
    case 17:
      vrow_impl (f, 17, rows, out, n);
      break;
    default:
      vrow_impl (f, fw, rows, out, n);
      break;
  }
}

VH_FLOAT_MULTIVERSION void
vh_fconv_hrow (const gfloat * f, guint fw, gfloat * row, gfloat * out, guint n)
{
  const guint r = fw / 2;

  /* row[-k] = row[k] and row[n - 1 + k] = row[n - 1 - k]. */
  for (guint k = 1; k <= r; k++) {
    row[-(gint) k] = row[k];
    row[n - 1 + k] = row[n - 1 - k];
  }
  switch (fw) {
    case 3:
      hrow_impl (f, 3, row - 1, out, n);
      break;
    case 5:
      hrow_impl (f, 5, row - 2, out, n);
      break;
    case 9:
      hrow_impl (f, 9, row - 4, out, n);
      break;
    case 17:
      hrow_impl (f, 17, row - 8, out, n);
      break;
    default:
      hrow_impl (f, fw, row - r, out, n);
      break;
  }
}

void
vh_fconv_plane (const gfloat * f, guint fw, const gfloat * src,
    gsize src_stride, gfloat * dst, gsize dst_stride, guint w, guint h,
    gfloat * scratch)
{
  const guint r = fw / 2;
  const gfloat *rows[VH_FCONV_MAX_TAPS];

  for (guint i = 0; i < h; i++) {
    for (guint k = 0; k < fw; k++)
      rows[k] = src + vh_fconv_mirror ((gint) (i + k) - (gint) r, h) *
          src_stride;
    vh_fconv_vrow (f, fw, rows, scratch + r, w);
    vh_fconv_hrow (f, fw, scratch + r, dst + i * dst_stride, w);
  }
}
