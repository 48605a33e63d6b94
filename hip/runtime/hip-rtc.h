/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_HIP_RTC_H__
#define __VH_HIP_RTC_H__

#include "vhhip.h"

G_BEGIN_DECLS

/* Compiles HIP C++ @source at run time for @device's architecture with the
 * vendor's compiler library (hiprtc or nvrtc, loaded on first use). @image
 * gets what the module loader takes (a code object, a cubin or PTX);
 * @description says what made it ("nvrtc 13.0, sm_90"). */
gboolean     vh_hip_rtc_compile          (VhHipDevice * device,
                                          const gchar * name,
                                          const gchar * source,
                                          GBytes ** image,
                                          gchar ** description,
                                          GError ** error);

G_END_DECLS

#endif /* __VH_HIP_RTC_H__ */
