/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_HIP_FLOAT_LUMA_H__
#define __VH_HIP_FLOAT_LUMA_H__

#include "hip-fex-common.h"

G_BEGIN_DECLS

/* The luma as libvmaf's float features read it (sample / 2^(bpc - 8) -
 * 128), made on the device by float_vif's load kernel for every float twin
 * that starts from it. The kernel for @bpc-bit samples. */
VhHipFunction *vh_hip_float_luma_function (VhHipFex * h, guint bpc,
                                           GError ** error);

/* Queues @pic's luma (@w x @height) as floats into @dst, rows @w apart. */
gboolean       vh_hip_float_luma_queue    (VhHipFex * h, VhHipFunction * fn,
                                           const VhPicture * pic, guint w,
                                           guint height, gfloat * dst,
                                           GError ** error);

G_END_DECLS

#endif /* __VH_HIP_FLOAT_LUMA_H__ */
