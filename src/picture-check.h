/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_PICTURE_CHECK_H__
#define __VH_PICTURE_CHECK_H__

#include "picture.h"

G_BEGIN_DECLS

/* Fails when a host picture of 9 to 15 bits holds a sample above its
 * declared maximum (say 4095 in 10-bit data): extractors would score it as
 * if it were in range, with numbers that mean nothing (PSNR below 0). The
 * message names @what ("reference"), the plane, the position and the value.
 * Pictures in device memory are not read. */
gboolean     vh_picture_check_depth     (const VhPicture * pic,
                                         const gchar * what,
                                         GError ** error);

G_END_DECLS

#endif /* __VH_PICTURE_CHECK_H__ */
