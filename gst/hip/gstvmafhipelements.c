/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "gstvmafhipelements.h"
#include "gstvmafhipdownload.h"
#include "gstvmafhipupload.h"

gboolean
gst_vmaf_hip_elements_register (GstPlugin * plugin)
{
  gboolean ok = TRUE;

  ok &= GST_ELEMENT_REGISTER (vmafhipupload, plugin);
  ok &= GST_ELEMENT_REGISTER (vmafhipdownload, plugin);
  return ok;
}
