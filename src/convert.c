/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* Bit depth and chroma layout conversion of distorted pictures
 * (src/convert.h says how). */

#include "convert.h"
#include "errors.h"

struct _VhFormatConverter
{
  VhPictureInfo src_info;
  VhPictureInfo dst_info;
  /* 8 when the output has 8 bits, else 16 */
  guint work_bits;
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

/* Whether chroma of @src can become chroma of @dst here (fewer samples,
 * or as many); @bpc_in/@bpc_out for the 4:2:2 case. */
static gboolean
chroma_reducible (VhPixFmt src, VhPixFmt dst, guint bpc_in, guint bpc_out)
{
  if (src == dst)
    return TRUE;
  if (src == VH_PIX_FMT_YUV444)
    return dst == VH_PIX_FMT_YUV422 || dst == VH_PIX_FMT_YUV420;
  if (src == VH_PIX_FMT_YUV422 && dst == VH_PIX_FMT_YUV420)
    return bpc_in == 8 && bpc_out == 8;
  return FALSE;
}

VhFormatConverter *
vh_format_converter_new (const VhPictureInfo * src, VhPixFmt pix_fmt,
    guint bpc, GError ** error)
{
  VhFormatConverter *conv;

  if (src->bpc < 8 || src->bpc > 16 || bpc < 8 || bpc > 16) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "format conversion takes 8 to 16 bits a sample, not %u to %u",
        src->bpc, bpc);
    return NULL;
  }
  if (!chroma_reducible (src->pix_fmt, pix_fmt, src->bpc, bpc)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "no conversion of %s %u-bit to %s %u-bit here: chroma goes from "
        "4:4:4 to 4:2:2 or 4:2:0, or from 4:2:2 to 4:2:0 at 8 bits, never "
        "to more samples (convert it first, e.g. with ffmpeg -pix_fmt)",
        vh_pix_fmt_to_string (src->pix_fmt), src->bpc,
        vh_pix_fmt_to_string (pix_fmt), bpc);
    return NULL;
  }
  conv = g_new0 (VhFormatConverter, 1);
  conv->src_info = *src;
  if (!vh_picture_info_init (&conv->dst_info, pix_fmt, bpc, src->width,
          src->height, error)) {
    g_free (conv);
    return NULL;
  }
  conv->work_bits = bpc == 8 ? 8 : 16;
  bayer_16 (conv->dither);
  /* The matrix times 2^(16 - bpc) / 256: none from 8-bit work, from the
   * matrix over 4 for 10 bits and more. */
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
vh_format_converter_get_output_info (const VhFormatConverter * conv)
{
  return &conv->dst_info;
}

/* @v of @bpc bits on 16, its top bits repeated below it. */
static inline guint32
widen (guint32 v, guint bpc)
{
  return bpc == 16 ? v : (v << (16 - bpc)) | (v >> (2 * bpc - 16));
}

/* Sample (@x, @y) of plane @p in the work's bits. */
static inline guint32
work_sample (const VhFormatConverter * conv, const VhPicture * src, guint p,
    guint x, guint y)
{
  guint bpc = conv->src_info.bpc;
  const guint8 *row = vh_picture_row (src, p, y);
  guint32 v = bpc == 8 ? row[x] : ((const guint16 *) row)[x];

  if (conv->work_bits == 8)
    return bpc == 8 ? v : widen (v, bpc) >> 8;
  return widen (v, bpc);
}

static void
convert_plane (VhFormatConverter * conv, const VhPicture * src,
    VhPicture * dst, guint p)
{
  guint out_bpc = conv->dst_info.bpc;
  guint shift = 16 - out_bpc;
  guint in_ssx = 0, in_ssy = 0, ssx = 0, ssy = 0;
  gboolean halve_x, halve_y;

  if (p > 0) {
    vh_pix_fmt_subsampling (conv->src_info.pix_fmt, &in_ssx, &in_ssy);
    vh_pix_fmt_subsampling (conv->dst_info.pix_fmt, &ssx, &ssy);
  }
  halve_x = ssx > in_ssx;
  halve_y = ssy > in_ssy;
  for (guint y = 0; y < dst->height[p]; y++) {
    guint8 *out = vh_picture_row (dst, p, y);
    /* the input rows averaged into this one (the last repeated) */
    guint y0 = halve_y ? 2 * y : y;
    guint y1 = halve_y ? MIN (2 * y + 1, src->height[p] - 1) : y;
    /* the dither at this row's place in luma coordinates */
    const guint16 *dither = conv->dither[(y << ssy) & 15];

    for (guint x = 0; x < dst->width[p]; x++) {
      guint x0 = halve_x ? 2 * x : x;
      guint x1 = halve_x ? MIN (2 * x + 1, src->width[p] - 1) : x;
      /* rows first, then columns, each pair rounded up at a half */
      guint32 left = work_sample (conv, src, p, x0, y0);
      guint32 v;

      if (halve_y)
        left = (left + work_sample (conv, src, p, x0, y1) + 1) >> 1;
      v = left;
      if (halve_x) {
        guint32 right = work_sample (conv, src, p, x1, y0);

        if (halve_y)
          right = (right + work_sample (conv, src, p, x1, y1) + 1) >> 1;
        v = (left + right + 1) >> 1;
      }
      if (conv->work_bits == 8) {
        out[x] = (guint8) v;
      } else {
        v = MIN (v + dither[(x << ssx) & 15], 65535) >> shift;
        if (out_bpc == 8)
          out[x] = (guint8) v;
        else
          ((guint16 *) out)[x] = (guint16) v;
      }
    }
  }
}

VhPicture *
vh_format_converter_convert (VhFormatConverter * conv, const VhPicture * src,
    GError ** error)
{
  VhPicture *dst;

  if (src->mem_type != VH_MEMORY_HOST ||
      !vh_picture_info_equal (&src->info, &conv->src_info) ||
      src->step[0] != 1 || (src->n_planes > 1 && (src->step[1] != 1 ||
              src->step[2] != 1))) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "the format converter was made for planar %ux%u %s %u-bit host "
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
vh_format_converter_free (VhFormatConverter * conv)
{
  g_free (conv);
}
