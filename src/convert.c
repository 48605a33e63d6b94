/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* Bit depth conversion of distorted pictures (src/convert.h says how). */

#include "convert.h"
#include "errors.h"

struct _VhDepthConverter
{
  VhPictureInfo src_info;
  VhPictureInfo dst_info;
  /* what the dither adds at (x & 15, y & 15), already scaled */
  guint16 dither[16][16];
};

/* The 16x16 Bayer matrix, built by its recursion: each n x n matrix M
 * becomes [4M, 4M + 2; 4M + 3, 4M + 1]. */
static void
bayer_16 (guint16 m[16][16])
{
  m[0][0] = 0;
  for (guint n = 1; n < 16; n *= 2)
    for (guint y = 0; y < n; y++)
      for (guint x = 0; x < n; x++) {
        guint16 v = (guint16) (4 * m[y][x]);

        m[y][x] = v;
        m[y][x + n] = v + 2;
        m[y + n][x] = v + 3;
        m[y + n][x + n] = v + 1;
      }
}

/* Where GStreamer's dither departs from the textbook matrix: entries of
 * the matrix over 4 (the step of a 10-bit output in 16 bits, the finest
 * its formats have), measured from videoconvert's output on every 8-bit
 * value at every place (the matrix's other 248 entries are the textbook's
 * there). */
static const struct
{
  guint8 y, x, quarter;
} dither_departures[] = {
  {4, 1, 60}, {4, 9, 60}, {12, 1, 60}, {12, 9, 60},
  {7, 1, 35}, {7, 9, 36}, {15, 1, 36}, {15, 9, 35},
};

VhDepthConverter *
vh_depth_converter_new (const VhPictureInfo * src, guint bpc,
    GError ** error)
{
  VhDepthConverter *conv;

  if (src->bpc < 8 || src->bpc > 16 || bpc < 8 || bpc > 16) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "bit depth conversion takes 8 to 16 bits a sample, not %u to %u",
        src->bpc, bpc);
    return NULL;
  }
  conv = g_new0 (VhDepthConverter, 1);
  conv->src_info = *src;
  conv->dst_info = *src;
  conv->dst_info.bpc = bpc;
  bayer_16 (conv->dither);
  /* The matrix times 2^(16 - bpc) / 256: 0 for 8 bits (its output is
   * the top byte alone), from the matrix over 4 for 10 bits and more. */
  for (guint y = 0; y < 16; y++)
    for (guint x = 0; x < 16; x++)
      conv->dither[y][x] = bpc == 8 ? 0 : bpc == 9 ?
          conv->dither[y][x] / 2 : (conv->dither[y][x] / 4) >> (bpc - 10);
  for (guint i = 0; bpc >= 10 && i < G_N_ELEMENTS (dither_departures); i++)
    conv->dither[dither_departures[i].y][dither_departures[i].x] =
        dither_departures[i].quarter >> (bpc - 10);
  return conv;
}

const VhPictureInfo *
vh_depth_converter_get_output_info (const VhDepthConverter * conv)
{
  return &conv->dst_info;
}

/* @v of @bpc bits on 16, its top bits repeated below it. */
static inline guint32
widen (guint32 v, guint bpc)
{
  return bpc == 16 ? v : (v << (16 - bpc)) | (v >> (2 * bpc - 16));
}

static void
convert_plane (VhDepthConverter * conv, const VhPicture * src,
    VhPicture * dst, guint p)
{
  guint in_bpc = conv->src_info.bpc, out_bpc = conv->dst_info.bpc;
  guint shift = 16 - out_bpc;
  guint ssx = 0, ssy = 0;

  if (p > 0)
    vh_pix_fmt_subsampling (conv->src_info.pix_fmt, &ssx, &ssy);
  for (guint y = 0; y < dst->height[p]; y++) {
    const guint8 *in = vh_picture_row (src, p, y);
    guint8 *out = vh_picture_row (dst, p, y);
    /* the dither at this row's place in luma coordinates */
    const guint16 *dither = conv->dither[(y << ssy) & 15];

    for (guint x = 0; x < dst->width[p]; x++) {
      guint32 v = in_bpc == 8 ? in[x] : ((const guint16 *) in)[x];
      guint32 wide = widen (v, in_bpc) + dither[(x << ssx) & 15];

      wide = MIN (wide, 65535) >> shift;
      if (out_bpc == 8)
        out[x] = (guint8) wide;
      else
        ((guint16 *) out)[x] = (guint16) wide;
    }
  }
}

VhPicture *
vh_depth_converter_convert (VhDepthConverter * conv, const VhPicture * src,
    GError ** error)
{
  VhPicture *dst;

  if (src->mem_type != VH_MEMORY_HOST ||
      !vh_picture_info_equal (&src->info, &conv->src_info) ||
      src->step[0] != 1 || (src->n_planes > 1 && (src->step[1] != 1 ||
              src->step[2] != 1))) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "the depth converter was made for planar %ux%u %s %u-bit host "
        "pictures, not this %ux%u %s %u-bit picture",
        conv->src_info.width, conv->src_info.height,
        vh_pix_fmt_to_string (conv->src_info.pix_fmt), conv->src_info.bpc,
        src->info.width, src->info.height,
        vh_pix_fmt_to_string (src->info.pix_fmt), src->info.bpc);
    return NULL;
  }
  dst = vh_picture_new (&conv->dst_info);
  if (vh_picture_is_luma_only (src))
    vh_picture_drop_chroma (dst);
  for (guint p = 0; p < dst->n_planes; p++)
    convert_plane (conv, src, dst, p);
  return dst;
}

void
vh_depth_converter_free (VhDepthConverter * conv)
{
  g_free (conv);
}
