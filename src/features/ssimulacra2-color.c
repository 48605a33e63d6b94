/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Y'CbCr frames to the 16-bit R'G'B' SSIMULACRA 2 reads, a row at a time.
 *
 * Chroma is upsampled bilinearly for the usual siting of 4:2:0 and 4:2:2
 * video (MPEG-2, H.264, HEVC, AV1 default): co-sited with the even luma
 * columns, and for 4:2:0 half way between two luma rows. The weights
 * (1/2, 3/4, 1/4) make every upsampled sample an integer over 8, so the
 * upsampling is exact and the float arithmetic starts after it. Samples
 * past the edge repeat the last one.
 *
 * Being exact, the upsampling may run in any order: each output row mixes
 * its chroma rows vertically (3 nearest + 1 other, or 4 times the one
 * row), then spreads the mix horizontally (twice a co-sited sample, or
 * the sum of its two neighbours). The float arithmetic per sample is the
 * HIP twin's (ssimu2_linear_pixel()), in the same order; loops over plain
 * arrays let the compiler vectorise it. */

#include "ssimulacra2-private.h"

/* Each sample's expression as written, nothing fused (GCC's C11 mode
 * fuses nothing by default). */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

/* Each step inlined into each target's row function (a call would run
 * the step compiled for the baseline target). */
#ifdef __GNUC__
#define SSIMU2_ROW_INLINE __attribute__ ((always_inline))
#else
#define SSIMU2_ROW_INLINE
#endif

/* Samples 0 to @n - 1 of row @y of plane @p. */
static inline SSIMU2_ROW_INLINE void
ssimu2_load_row (const VhPicture * pic, guint p, guint y, guint n,
    gint32 * restrict out)
{
  const guint step = pic->step[p] ? pic->step[p] : 1;

  if (pic->info.bpc > 8) {
    const guint16 *row = vh_picture_row (pic, p, y);

    if (step == 1)
      for (guint i = 0; i < n; i++)
        out[i] = row[i];
    else
      for (guint i = 0; i < n; i++)
        out[i] = row[(gsize) i * step];
  } else {
    const guint8 *row = vh_picture_row (pic, p, y);

    if (step == 1)
      for (guint i = 0; i < n; i++)
        out[i] = row[i];
    else
      for (guint i = 0; i < n; i++)
        out[i] = row[(gsize) i * step];
  }
}

/* Chroma plane @p at the luma columns of row @y, times 8, into @num;
 * @a and @b hold a chroma row each. */
static inline SSIMU2_ROW_INLINE void
ssimu2_chroma_row (const VhSsimu2Yuv * yuv, const VhPicture * pic, guint p,
    guint y, gint32 * restrict num, gint32 * restrict a, gint32 * restrict b)
{
  const guint w = pic->info.width, cw = pic->width[p];
  guint x;

  /* Vertically, in quarters: 3 of the nearer chroma row and 1 of the
   * other (4:2:0), or 4 of the one row. */
  if (yuv->ssy) {
    const guint k = y >> 1;
    const guint other = (y & 1) ? MIN (k + 1, pic->height[p] - 1) :
        (k > 0 ? k - 1 : 0);

    ssimu2_load_row (pic, p, k, cw, a);
    ssimu2_load_row (pic, p, other, cw, b);
    for (guint i = 0; i < cw; i++)
      a[i] = 3 * a[i] + b[i];
  } else {
    ssimu2_load_row (pic, p, y, cw, a);
    for (guint i = 0; i < cw; i++)
      a[i] = 4 * a[i];
  }

  /* Horizontally, in halves: a co-sited sample twice, or its two
   * neighbours once each (4:2:0, 4:2:2 odd columns). */
  if (!yuv->ssx) {
    for (x = 0; x < w; x++)
      num[x] = 2 * a[x];
    return;
  }
  for (x = 0; x + 2 < w; x += 2) {
    num[x] = 2 * a[x >> 1];
    num[x + 1] = a[x >> 1] + a[(x >> 1) + 1];
  }
  for (; x < w; x++)
    num[x] = (x & 1) ? a[x >> 1] + a[MIN ((x >> 1) + 1, cw - 1)] :
        2 * a[x >> 1];
}

/* The clamp selects values by conditions; while GCC assumes that float
 * operations may trap it cannot vectorise those selects. Assuming they do
 * not changes no result (no reassociation, contraction or shortcut).
 * It holds to the end of the file, where the loop is inlined. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize ("no-trapping-math")
#endif

static inline SSIMU2_ROW_INLINE guint16
ssimu2_quantise (gfloat v)
{
  v = v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
  return (guint16) (v * 65535.0f + 0.5f);
}

/* R'G'B' of @w samples from luma and chroma numerators (@cb_num and
 * @cr_num unread when @yuv is grey: neutral chroma). */
static inline SSIMU2_ROW_INLINE void
ssimu2_rgb16 (const VhSsimu2Yuv * yuv, const gint32 * restrict luma,
    const gint32 * restrict cb_num, const gint32 * restrict cr_num, guint w,
    guint16 * restrict r, guint16 * restrict g, guint16 * restrict b)
{
  const gfloat y_offset = yuv->y_offset, y_scale = yuv->y_scale;
  const gfloat c_offset = yuv->c_offset, c_scale = yuv->c_scale;
  const gfloat cr_r = yuv->cr_r, cb_g = yuv->cb_g, cr_g = yuv->cr_g;
  const gfloat cb_b = yuv->cb_b;

  if (yuv->grey) {
    for (guint x = 0; x < w; x++) {
      const gfloat l = ((gfloat) luma[x] - y_offset) * y_scale;
      const gfloat cb = 0.0f, cr = 0.0f;

      r[x] = ssimu2_quantise (l + cr_r * cr);
      g[x] = ssimu2_quantise ((l - cb_g * cb) - cr_g * cr);
      b[x] = ssimu2_quantise (l + cb_b * cb);
    }
    return;
  }
  for (guint x = 0; x < w; x++) {
    const gfloat l = ((gfloat) luma[x] - y_offset) * y_scale;
    const gfloat cb = ((gfloat) cb_num[x] * 0.125f - c_offset) * c_scale;
    const gfloat cr = ((gfloat) cr_num[x] * 0.125f - c_offset) * c_scale;

    r[x] = ssimu2_quantise (l + cr_r * cr);
    g[x] = ssimu2_quantise ((l - cb_g * cb) - cr_g * cr);
    b[x] = ssimu2_quantise (l + cb_b * cb);
  }
}

/* vh_ssimu2_rgb16_row(), compiled for each target below. */
static inline SSIMU2_ROW_INLINE void
ssimu2_rgb16_row (const VhSsimu2Yuv * yuv, const VhPicture * pic, guint y,
    gint32 * scratch, guint16 * r, guint16 * g, guint16 * b)
{
  const guint w = pic->info.width;
  gint32 *luma = scratch, *cb = luma + w, *cr = cb + w, *a = cr + w;
  gint32 *other = a + w;

  ssimu2_load_row (pic, 0, y, w, luma);
  if (!yuv->grey) {
    ssimu2_chroma_row (yuv, pic, 1, y, cb, a, other);
    ssimu2_chroma_row (yuv, pic, 2, y, cr, a, other);
  }
  ssimu2_rgb16 (yuv, luma, cb, cr, w, r, g, b);
}

void
vh_ssimu2_rgb16_row_c (const VhSsimu2Yuv * yuv, const VhPicture * pic,
    guint y, gint32 * scratch, guint16 * r, guint16 * g, guint16 * b)
{
  ssimu2_rgb16_row (yuv, pic, y, scratch, r, g, b);
}

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
/* The same in eight lanes: the integer upsampling is exact whatever the
 * width, AVX2's float operations round as SSE2's do, and without FMA in
 * the target nothing can be fused. */
__attribute__ ((target ("avx2"))) void
vh_ssimu2_rgb16_row_avx2 (const VhSsimu2Yuv * yuv, const VhPicture * pic,
    guint y, gint32 * scratch, guint16 * r, guint16 * g, guint16 * b)
{
  ssimu2_rgb16_row (yuv, pic, y, scratch, r, g, b);
}
#endif

void
vh_ssimu2_rgb16_row (const VhSsimu2Kernels * k, const VhSsimu2Yuv * yuv,
    const VhPicture * pic, guint y, gint32 * scratch, guint16 * r,
    guint16 * g, guint16 * b)
{
  k->rgb16_row (yuv, pic, y, scratch, r, g, b);
}
