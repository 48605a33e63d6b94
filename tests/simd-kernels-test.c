/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* What the SIMD kernel tests share: widths, fills, sizes. */

#include "simd-kernels-test.h"

#include <math.h>
#include <string.h>

gboolean
fewer_cases (void)
{
  return g_getenv ("VH_TEST_FEWER_CASES") != NULL;
}

gsize
round_up (gsize v, gsize m)
{
  return (v + m - 1) / m * m;
}

/* Widths around the 16- and 32-column blocks, and the smallest. */
const guint test_widths[17] = {
  1, 2, 3, 7, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 97, 130, 259,
};

guint32
sample (GRand * rand, Fill fill, guint32 max)
{
  switch (fill) {
    case FILL_MAX:
      return max;
    case FILL_ZERO:
      return 0;
    case FILL_EXTREMES:
      return g_rand_boolean (rand) ? max : 0;
    case FILL_SPARSE:
      if (g_rand_boolean (rand))
        return 0;
      /* fall through */
    default:
      return g_rand_int_range (rand, 0, (gint32) MIN (max, G_MAXINT32 - 1) +
          1);
  }
}

/* Fills whose distorted samples may move away from the reference ones. */
gboolean
fill_varies (Fill fill)
{
  return fill == FILL_RANDOM || fill == FILL_SPARSE;
}

void
assert_mem_equal (gconstpointer a, gconstpointer b, gsize size,
    const gchar * what, const gchar * part)
{
  if (memcmp (a, b, size) != 0)
    g_error ("%s: %s differs", what, part);
}
