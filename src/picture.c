/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "picture.h"
#include "errors.h"

#include <string.h>

#define VH_PICTURE_ALIGN 64

const gchar *
vh_pix_fmt_to_string (VhPixFmt pix_fmt)
{
  switch (pix_fmt) {
    case VH_PIX_FMT_YUV400:
      return "4:0:0";
    case VH_PIX_FMT_YUV420:
      return "4:2:0";
    case VH_PIX_FMT_YUV422:
      return "4:2:2";
    case VH_PIX_FMT_YUV444:
      return "4:4:4";
  }
  return "unknown";
}

guint
vh_pix_fmt_n_planes (VhPixFmt pix_fmt)
{
  return pix_fmt == VH_PIX_FMT_YUV400 ? 1 : 3;
}

void
vh_pix_fmt_subsampling (VhPixFmt pix_fmt, guint * ssx, guint * ssy)
{
  *ssx = (pix_fmt == VH_PIX_FMT_YUV420 || pix_fmt == VH_PIX_FMT_YUV422);
  *ssy = (pix_fmt == VH_PIX_FMT_YUV420);
}

gboolean
vh_picture_info_init (VhPictureInfo * info, VhPixFmt pix_fmt, guint bpc,
    guint width, guint height, GError ** error)
{
  if (pix_fmt > VH_PIX_FMT_YUV444) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "unknown pixel format %d", pix_fmt);
    return FALSE;
  }
  if (bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "unsupported bit depth %u (8, 10, 12 or 16)", bpc);
    return FALSE;
  }
  if (width == 0 || height == 0 || width > 32768 || height > 32768) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "unsupported picture size %ux%u", width, height);
    return FALSE;
  }
  info->pix_fmt = pix_fmt;
  info->bpc = bpc;
  info->width = width;
  info->height = height;
  return TRUE;
}

gboolean
vh_picture_info_equal (const VhPictureInfo * a, const VhPictureInfo * b)
{
  return a->pix_fmt == b->pix_fmt && a->bpc == b->bpc &&
      a->width == b->width && a->height == b->height;
}

static void
picture_init_geometry (VhPicture * pic, const VhPictureInfo * info)
{
  guint ssx, ssy;

  pic->info = *info;
  pic->n_planes = vh_pix_fmt_n_planes (info->pix_fmt);
  vh_pix_fmt_subsampling (info->pix_fmt, &ssx, &ssy);
  pic->width[0] = info->width;
  pic->height[0] = info->height;
  for (guint p = 1; p < 3; p++) {
    pic->width[p] = p < pic->n_planes ? (info->width + ssx) >> ssx : 0;
    pic->height[p] = p < pic->n_planes ? (info->height + ssy) >> ssy : 0;
  }
  pic->ref_count = 1;
}

VhPicture *
vh_picture_new (const VhPictureInfo * info)
{
  VhPicture *pic = g_new0 (VhPicture, 1);
  gsize bps = info->bpc > 8 ? 2 : 1;
  gsize offset[3], total = 0;

  picture_init_geometry (pic, info);
  for (guint p = 0; p < pic->n_planes; p++) {
    pic->stride[p] = ((pic->width[p] * bps + VH_PICTURE_ALIGN - 1) / VH_PICTURE_ALIGN * VH_PICTURE_ALIGN);
    pic->step[p] = 1;
    offset[p] = total;
    total += pic->stride[p] * pic->height[p];
  }
  pic->allocation = g_aligned_alloc0 (1, total, VH_PICTURE_ALIGN);
  for (guint p = 0; p < pic->n_planes; p++)
    pic->data[p] = (guint8 *) pic->allocation + offset[p];
  pic->mem_type = VH_MEMORY_HOST;
  return pic;
}

VhPicture *
vh_picture_new_wrapped (const VhPictureInfo * info, gpointer const data[3],
    const gsize stride[3], const guint step[3], VhMemoryType mem_type,
    gpointer user_data, GDestroyNotify notify)
{
  VhPicture *pic = g_new0 (VhPicture, 1);

  picture_init_geometry (pic, info);
  for (guint p = 0; p < pic->n_planes; p++) {
    pic->data[p] = data[p];
    pic->stride[p] = stride[p];
    pic->step[p] = step ? MAX (step[p], 1) : 1;
  }
  pic->mem_type = mem_type;
  pic->user_data = user_data;
  pic->notify = notify;
  return pic;
}

VhPicture *
vh_picture_ref (VhPicture * pic)
{
  g_return_val_if_fail (pic != NULL, NULL);
  g_atomic_int_inc (&pic->ref_count);
  return pic;
}

void
vh_picture_unref (VhPicture * pic)
{
  if (!pic || !g_atomic_int_dec_and_test (&pic->ref_count))
    return;
  if (pic->twin && pic->twin->wait_source_read)
    pic->twin->wait_source_read (pic->twin);
  vh_picture_unref (pic->twin);
  if (pic->notify)
    pic->notify (pic->user_data);
  g_aligned_free (pic->allocation);
  g_free (pic);
}

gsize
vh_picture_bytes_per_sample (const VhPicture * pic)
{
  return pic->info.bpc > 8 ? 2 : 1;
}

void
vh_picture_drop_chroma (VhPicture * pic)
{
  for (guint p = 1; p < 3; p++) {
    pic->data[p] = NULL;
    pic->width[p] = pic->height[p] = 0;
    pic->stride[p] = 0;
    pic->step[p] = 0;
  }
  pic->n_planes = 1;
}

gboolean
vh_picture_is_luma_only (const VhPicture * pic)
{
  return pic->n_planes < vh_pix_fmt_n_planes (pic->info.pix_fmt);
}
