/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_FLOAT_PICTURE_H__
#define __VH_FLOAT_PICTURE_H__

#include <glib.h>

#include "picture.h"

G_BEGIN_DECLS

/* libvmaf's float VIF, ADM and motion see the luma on the 8-bit scale,
 * shifted down by 128. */
#define VH_FLOAT_LUMA_OFFSET (-128)

/* Fails unless @pic is a host picture of @info's luma size and depth;
 * @name is the feature and @what the picture named in the message. */
gboolean     vh_float_check_picture     (const gchar * name,
                                         const VhPictureInfo * info,
                                         const VhPicture * pic,
                                         const gchar * what,
                                         GError ** error);

/* Luma of @pic as floats, sample / 2^(bpc - 8) + VH_FLOAT_LUMA_OFFSET,
 * rows @stride floats apart. */
void         vh_float_load_luma         (const VhPicture * pic, gfloat * dst,
                                         gsize stride);

/* The top-left @w x @h samples of plane @p, converted as the luma is. */
void         vh_float_load_plane        (const VhPicture * pic, guint p,
                                         guint w, guint h, gfloat * dst,
                                         gsize stride);

G_END_DECLS

#endif /* __VH_FLOAT_PICTURE_H__ */
