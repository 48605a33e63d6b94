/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Y'CbCr frames to the 16-bit R'G'B' SSIMULACRA 2 reads.
 *
 * Chroma is upsampled bilinearly for the usual siting of 4:2:0 and 4:2:2
 * video (MPEG-2, H.264, HEVC, AV1 default): co-sited with the even luma
 * columns, and for 4:2:0 half way between two luma rows. The weights
 * (1/2, 3/4, 1/4) make every upsampled sample an integer over 8, so the
 * upsampling is exact and the float arithmetic starts after it. Samples
 * past the edge repeat the last one. */

#include "ssimulacra2-private.h"

static inline guint
ssimu2_sample (const VhPicture * pic, guint p, guint x, guint y)
{
  const guint8 *row = vh_picture_row (pic, p, y);
  const guint step = pic->step[p] ? pic->step[p] : 1;

  if (pic->info.bpc > 8)
    return ((const guint16 *) row)[(gsize) x * step];
  return row[(gsize) x * step];
}

/* Twice the sample at luma column @x of chroma row @cy. */
static inline guint
ssimu2_chroma_h2 (const VhSsimu2Yuv * yuv, const VhPicture * pic, guint p,
    guint x, guint cy)
{
  const guint cw = pic->width[p];
  guint k;

  if (!yuv->ssx)
    return 2 * ssimu2_sample (pic, p, x, cy);
  k = x >> 1;
  if (!(x & 1))
    return 2 * ssimu2_sample (pic, p, k, cy);
  return ssimu2_sample (pic, p, k, cy) + ssimu2_sample (pic, p,
      MIN (k + 1, cw - 1), cy);
}

guint
vh_ssimu2_chroma_num (const VhSsimu2Yuv * yuv, const VhPicture * pic,
    guint p, guint x, guint y)
{
  const guint ch = pic->height[p];
  guint k, other;

  if (!yuv->ssy)
    return 4 * ssimu2_chroma_h2 (yuv, pic, p, x, y);
  k = y >> 1;
  if (!(y & 1))
    other = k > 0 ? k - 1 : 0;
  else
    other = MIN (k + 1, ch - 1);
  return 3 * ssimu2_chroma_h2 (yuv, pic, p, x, k) + ssimu2_chroma_h2 (yuv,
      pic, p, x, other);
}

static inline guint16
ssimu2_quantise (gfloat v)
{
  v = v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
  return (guint16) (v * 65535.0f + 0.5f);
}

void
vh_ssimu2_rgb16_row (const VhSsimu2Yuv * yuv, const VhPicture * pic, guint y,
    guint16 * r, guint16 * g, guint16 * b)
{
  for (guint x = 0; x < pic->info.width; x++) {
    const gfloat luma = ((gfloat) ssimu2_sample (pic, 0, x, y) -
        yuv->y_offset) * yuv->y_scale;
    gfloat cb = 0.0f, cr = 0.0f;

    if (!yuv->grey) {
      cb = ((gfloat) vh_ssimu2_chroma_num (yuv, pic, 1, x, y) * 0.125f -
          yuv->c_offset) * yuv->c_scale;
      cr = ((gfloat) vh_ssimu2_chroma_num (yuv, pic, 2, x, y) * 0.125f -
          yuv->c_offset) * yuv->c_scale;
    }
    r[x] = ssimu2_quantise (luma + yuv->cr_r * cr);
    g[x] = ssimu2_quantise ((luma - yuv->cb_g * cb) - yuv->cr_g * cr);
    b[x] = ssimu2_quantise (luma + yuv->cb_b * cb);
  }
}
