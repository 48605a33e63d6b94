/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* CAMBI's spatial mask: a pixel is "flat" when it equals its right and
 * lower neighbours (missing neighbours count as equal). The mask keeps
 * pixels whose 7x7 neighbourhood holds more flat pixels than a threshold
 * that grows with the picture size; only those can be part of a band. */

#include "cambi-private.h"

#include <string.h>

#define BOX 7
#define HALF (BOX / 2)
#define RING 8                  /* BOX rows in use plus the one leaving */

static guint
ceil_log2 (guint32 n)
{
  guint bits = 0;

  if (n == 0)
    return 0;
  for (n = n - 1; n; n >>= 1)
    bits++;
  return bits;
}

guint
vh_cambi_flat_threshold (guint w, guint h)
{
  gint blocks_log2 = ceil_log2 ((w >> 6) * (h >> 6));

  return (BOX * BOX + 3 * (blocks_log2 - 11) - 1) >> 1;
}

gsize
vh_cambi_mask_scratch_size (guint w)
{
  return (gsize) w *(RING + 1) + 2 * HALF;
}

static void
flat_row (const guint16 * a, const guint16 * below, guint8 * out, guint w)
{
  if (below) {
    for (guint j = 0; j + 1 < w; j++)
      out[j] = (a[j] == a[j + 1]) & (a[j] == below[j]);
    out[w - 1] = a[w - 1] == below[w - 1];
  } else {
    for (guint j = 0; j + 1 < w; j++)
      out[j] = a[j] == a[j + 1];
    out[w - 1] = 1;
  }
}

/* One mask row from the column sums of its BOX rows. */
static void
box_row (const guint8 * restrict colsum, guint8 * restrict out, guint w,
    guint8 threshold)
{
  for (gsize j = 0; j < w; j++) {
    guint8 box = colsum[j] + colsum[j + 1] + colsum[j + 2] + colsum[j + 3] +
        colsum[j + 4] + colsum[j + 5] + colsum[j + 6];

    out[j] = box > threshold;
  }
}

/* Fills p->mask for the @w x @h image; box sums at most 49 fit a byte. */
void
vh_cambi_spatial_mask (const VhCambiPlanes * p, guint w, guint h,
    guint8 * scratch)
{
  guint8 *ring = scratch;
  guint8 *colsum = scratch + RING * w;  /* HALF zeros on each side */
  guint8 *sums = colsum + HALF;
  guint8 threshold = vh_cambi_flat_threshold (w, h);
  gsize s = p->stride;

  memset (colsum, 0, w + 2 * HALF);
  for (guint r = 0; r < h + HALF; r++) {
    if (r < h) {
      guint8 *flat = ring + (r % RING) * w;

      flat_row (p->image + r * s, r + 1 < h ? p->image + (r + 1) * s : NULL,
          flat, w);
      for (guint j = 0; j < w; j++)
        sums[j] += flat[j];
    }
    if (r >= BOX) {
      const guint8 *gone = ring + ((r - BOX) % RING) * w;

      for (guint j = 0; j < w; j++)
        sums[j] -= gone[j];
    }
    if (r >= HALF)
      box_row (colsum, p->mask + (r - HALF) * s, w, threshold);
  }
}
