/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The options that libvmaf's integer and float VIF share, spelled once:
 * entries of a VhOptionSpec table. */

#ifndef __VH_VIF_OPTIONS_H__
#define __VH_VIF_OPTIONS_H__

#include "options.h"

#define VH_VIF_OPTION_DEBUG \
  {"debug", NULL, \
        "also output the pooled VIF and the numerator and denominator of " \
        "every scale", \
      VH_OPTION_BOOL, 0.0, 0.0, 1.0, 0}

#define VH_VIF_OPTION_ENHN_GAIN_LIMIT \
  {"vif_enhn_gain_limit", "egl", \
        "enhancement gain imposed on vif, must be >= 1.0, where 1.0 means " \
        "the gain is completely disabled", \
      VH_OPTION_DOUBLE, 100.0, 1.0, 100.0, VH_OPTION_FLAG_FEATURE_PARAM}

#define VH_VIF_OPTION_SKIP_SCALE0 \
  {"vif_skip_scale0", "ssclz", "when set, skip scale 0 calculations", \
      VH_OPTION_BOOL, 0.0, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM}

#endif /* __VH_VIF_OPTIONS_H__ */
