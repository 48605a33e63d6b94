/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_ERRORS_H__
#define __VH_ERRORS_H__

#include <glib.h>

G_BEGIN_DECLS

#define VH_ERROR (vh_error_quark ())

typedef enum
{
  VH_ERROR_FAILED,
  VH_ERROR_INVALID_ARGUMENT,    /* bad option, size, format, mismatch */
  VH_ERROR_UNKNOWN_FEATURE,
  VH_ERROR_UNKNOWN_MODEL,
  VH_ERROR_MODEL_PARSE,
  VH_ERROR_TOO_SMALL,           /* frame below an extractor's minimum */
  VH_ERROR_IO,
  VH_ERROR_BACKEND,             /* requested backend not available */
} VhError;

GQuark vh_error_quark (void);

G_END_DECLS

#endif /* __VH_ERRORS_H__ */
