/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "adm-internal.h"

gboolean
vh_adm_kernels_init_avx2 (VhAdmKernels * k)
{
  return FALSE;
}
