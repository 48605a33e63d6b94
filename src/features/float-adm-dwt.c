/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* float_adm's wavelet: one Daubechies-2 level, vertical pass then
 * horizontal, each output the single-precision sum of its four taps in
 * order, as libvmaf computes it. Edges reflect with the border sample
 * repeated on the far side and not on the near side. */

#include "float-adm-private.h"

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

static const gfloat lo_taps[4] = {
  0.482962913144690, 0.836516303737469, 0.224143868041857,
  -0.129409522550921
};

static const gfloat hi_taps[4] = {
  -0.129409522550921, -0.224143868041857, 0.836516303737469,
  -0.482962913144690
};

static inline gint
dwt_mirror (gint k, gint n)
{
  if (k < 0)
    return -k;
  if (k >= n)
    return 2 * n - k - 1;
  return k;
}

static inline gfloat
taps4 (const gfloat * c, gfloat s0, gfloat s1, gfloat s2, gfloat s3)
{
  gfloat acc = 0.0f;

  acc += c[0] * s0;
  acc += c[1] * s1;
  acc += c[2] * s2;
  acc += c[3] * s3;
  return acc;
}

VH_FLOAT_MULTIVERSION static void
dwt_vertical (const gfloat * r0, const gfloat * r1, const gfloat * r2,
    const gfloat * r3, gfloat * restrict lo, gfloat * restrict hi, guint w,
    gboolean lo_only)
{
  if (lo_only) {
    for (guint j = 0; j < w; j++)
      lo[j] = taps4 (lo_taps, r0[j], r1[j], r2[j], r3[j]);
    return;
  }
  for (guint j = 0; j < w; j++) {
    gfloat s0 = r0[j], s1 = r1[j], s2 = r2[j], s3 = r3[j];

    lo[j] = taps4 (lo_taps, s0, s1, s2, s3);
    hi[j] = taps4 (hi_taps, s0, s1, s2, s3);
  }
}

/* Columns 2j - 1 .. 2j + 2 of @lo and @hi make column j of the bands. */
static inline void
dwt_column (const gfloat * lo, const gfloat * hi, gint j0, gint j1, gint j2,
    gint j3, gfloat * a, gfloat * v, gfloat * h, gfloat * d, gboolean lo_only)
{
  *a = taps4 (lo_taps, lo[j0], lo[j1], lo[j2], lo[j3]);
  if (lo_only)
    return;
  *v = taps4 (hi_taps, lo[j0], lo[j1], lo[j2], lo[j3]);
  *h = taps4 (lo_taps, hi[j0], hi[j1], hi[j2], hi[j3]);
  *d = taps4 (hi_taps, hi[j0], hi[j1], hi[j2], hi[j3]);
}

VH_FLOAT_MULTIVERSION static void
dwt_horizontal (const gfloat * restrict lo, const gfloat * restrict hi,
    guint w, gfloat * restrict a, gfloat * restrict v, gfloat * restrict h,
    gfloat * restrict d, gboolean lo_only)
{
  const gint n = (gint) (w + 1) / 2;
  /* Columns whose four taps are all inside the row. */
  const gint inner_end = w >= 3 ? MIN ((gint) (w - 3) / 2 + 1, n) : 1;
  gint j;

  dwt_column (lo, hi, dwt_mirror (-1, w), 0, dwt_mirror (1, w),
      dwt_mirror (2, w), a, v, h, d, lo_only);
  if (lo_only) {
    for (j = 1; j < inner_end; j++)
      a[j] = taps4 (lo_taps, lo[2 * j - 1], lo[2 * j], lo[2 * j + 1],
          lo[2 * j + 2]);
  } else {
    for (j = 1; j < inner_end; j++) {
      gfloat l0 = lo[2 * j - 1], l1 = lo[2 * j], l2 = lo[2 * j + 1],
          l3 = lo[2 * j + 2];
      gfloat h0 = hi[2 * j - 1], h1 = hi[2 * j], h2 = hi[2 * j + 1],
          h3 = hi[2 * j + 2];

      a[j] = taps4 (lo_taps, l0, l1, l2, l3);
      v[j] = taps4 (hi_taps, l0, l1, l2, l3);
      h[j] = taps4 (lo_taps, h0, h1, h2, h3);
      d[j] = taps4 (hi_taps, h0, h1, h2, h3);
    }
  }
  for (j = MAX (inner_end, 1); j < n; j++)
    dwt_column (lo, hi, dwt_mirror (2 * j - 1, w), dwt_mirror (2 * j, w),
        dwt_mirror (2 * j + 1, w), dwt_mirror (2 * j + 2, w), a + j, v + j,
        h + j, d + j, lo_only);
}

void
vh_fadm_dwt2 (const gfloat * src, gsize src_stride, guint w, guint h,
    const VhFadmBands * dst, gsize dst_stride, gboolean lo_only, gfloat * tmp)
{
  gfloat *lo = tmp, *hi = tmp + w;

  for (gint i = 0; i < (gint) (h + 1) / 2; i++) {
    const gfloat *r0 = src + dwt_mirror (2 * i - 1, h) * src_stride;
    const gfloat *r1 = src + dwt_mirror (2 * i, h) * src_stride;
    const gfloat *r2 = src + dwt_mirror (2 * i + 1, h) * src_stride;
    const gfloat *r3 = src + dwt_mirror (2 * i + 2, h) * src_stride;
    const gsize o = (gsize) i * dst_stride;

    dwt_vertical (r0, r1, r2, r3, lo, hi, w, lo_only);
    /* Row i of the bands is written only now that its inputs are read. */
    dwt_horizontal (lo, hi, w, dst->a + o, lo_only ? NULL : dst->v + o,
        lo_only ? NULL : dst->h + o, lo_only ? NULL : dst->d + o, lo_only);
  }
}
