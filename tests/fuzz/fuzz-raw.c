/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* libFuzzer target: raw YUV sizes. The first 6 bytes are the width and
 * height (16 bits each), the layout and the bit depth; the rest is the
 * file. Sizes that the file cannot hold must be refused before anything
 * is allocated for them. */

#include "fuzz-input-file.h"

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  static const guint depths[] = { 8, 10, 12, 16 };
  VhPictureInfo info;

  if (size < 6)
    return 0;
  if (!vh_picture_info_init (&info, (VhPixFmt) (data[4] % 4),
          depths[data[5] % 4], data[0] | data[1] << 8, data[2] | data[3] << 8,
          NULL))
    return 0;
  vh_fuzz_read_file (data + 6, size - 6, &info);
  return 0;
}
