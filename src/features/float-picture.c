/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Luma to float as libvmaf's float extractors read it. */

#include "float-picture.h"
#include "errors.h"

gboolean
vh_float_check_picture (const gchar * name, const VhPictureInfo * info,
    const VhPicture * pic, const gchar * what, GError ** error)
{
  if (pic->mem_type != VH_MEMORY_HOST || pic->width[0] != info->width ||
      pic->height[0] != info->height || pic->info.bpc != info->bpc) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature '%s': %s picture is %ux%u %u-bit, expected %ux%u %u-bit "
        "in host memory", name, what, pic->width[0], pic->height[0],
        pic->info.bpc, info->width, info->height, info->bpc);
    return FALSE;
  }
  return TRUE;
}

void
vh_float_load_luma (const VhPicture * pic, gfloat * dst, gsize stride)
{
  vh_float_load_plane (pic, 0, pic->width[0], pic->height[0], dst, stride);
}

void
vh_float_load_plane (const VhPicture * pic, guint p, guint w, guint h,
    gfloat * dst, gsize stride)
{
  const gsize step = pic->step[p] ? pic->step[p] : 1;
  const gfloat offset = VH_FLOAT_LUMA_OFFSET;

  if (pic->info.bpc == 8) {
    for (guint y = 0; y < h; y++) {
      const guint8 *src = vh_picture_row (pic, p, y);
      gfloat *out = dst + (gsize) y * stride;

      if (step == 1) {
        for (guint x = 0; x < w; x++)
          out[x] = (gfloat) src[x] + offset;
      } else {
        for (guint x = 0; x < w; x++)
          out[x] = (gfloat) src[x * step] + offset;
      }
    }
    return;
  }

  /* A power of two, so the division is exact, as libvmaf's is. */
  const gfloat scale = (gfloat) (1u << (pic->info.bpc - 8));

  for (guint y = 0; y < h; y++) {
    const guint16 *src = vh_picture_row (pic, p, y);
    gfloat *out = dst + (gsize) y * stride;

    if (step == 1) {
      for (guint x = 0; x < w; x++)
        out[x] = (gfloat) src[x] / scale + offset;
    } else {
      for (guint x = 0; x < w; x++)
        out[x] = (gfloat) src[x * step] / scale + offset;
    }
  }
}
