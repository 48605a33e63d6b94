/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "integer-vif-priv.h"

const VhVifKernels *
vh_vif_kernels_avx2 (void)
{
  return NULL;
}
