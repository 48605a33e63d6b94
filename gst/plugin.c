/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gstvmafhipcompare.h"
#ifdef VH_HAVE_HIP
#include "gstvmafhipelements.h"
#endif

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ok = GST_ELEMENT_REGISTER (vmafhipcompare, plugin);

#ifdef VH_HAVE_HIP
  ok &= gst_vmaf_hip_elements_register (plugin);
#endif
  return ok;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, vmafhip,
    "VMAF video quality measurement (libvmaf-exact scores, CPU and HIP)",
    plugin_init, VH_VERSION, "LGPL", "vmafhip", VH_PACKAGE_ORIGIN)
