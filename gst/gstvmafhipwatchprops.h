/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_WATCH_PROPS_H__
#define __GST_VMAF_HIP_WATCH_PROPS_H__

#include <gst/gst.h>

#include "gstvmafhipwatch.h"

G_BEGIN_DECLS

/* The monitoring properties (windows, percentiles, events, lag), with
 * ids from @first_id on; the element's own come before. */
void         gst_vmaf_hip_watch_install_properties (GObjectClass * klass,
                                                    guint first_id);

/* Sets or reads property @prop_id into or from @s; FALSE if it is not a
 * monitoring property. With the element's object lock held. */
gboolean     gst_vmaf_hip_watch_set_property (GstVmafHipWatchSettings * s,
                                              guint first_id, guint prop_id,
                                              const GValue * value);

gboolean     gst_vmaf_hip_watch_get_property (const GstVmafHipWatchSettings * s,
                                              guint first_id, guint prop_id,
                                              GValue * value);

G_END_DECLS

#endif /* __GST_VMAF_HIP_WATCH_PROPS_H__ */
