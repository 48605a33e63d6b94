/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_FUZZ_INPUT_FILE_H__
#define __VH_FUZZ_INPUT_FILE_H__

#include "video-reader.h"

#include <stdint.h>

/* Reads every frame (at most a few) of @data as the CLI reads a file of
 * those bytes; errors are fine, crashes and reports are not. */
void         vh_fuzz_read_file          (const uint8_t * data, size_t size,
                                         const VhPictureInfo * raw_info);

#endif
