/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* CAMBI's top-k mean pooling of the c values of one scale, in exact
 * fixed-point sums (cambi-private.h says why) so that any order of
 * summation, the HIP twin's included, gives the same mean. */

#include "cambi-private.h"

#include <math.h>

static inline void
swap (gfloat * a, gfloat * b)
{
  gfloat t = *a;

  *a = *b;
  *b = t;
}

/* The value that would sit at @k if @a were sorted in decreasing order
 * (Hoare partitioning, median-of-three pivot). */
static gfloat
select_desc (gfloat * a, gssize n, gssize k)
{
  gssize lo = 0, hi = n - 1;

  while (lo < hi) {
    gssize mid = lo + (hi - lo) / 2;
    gfloat x = a[lo], y = a[mid], z = a[hi];
    gfloat pivot = MAX (MIN (x, y), MIN (MAX (x, y), z));
    gssize i = lo, j = hi;

    while (i <= j) {
      while (a[i] > pivot)
        i++;
      while (a[j] < pivot)
        j--;
      if (i <= j) {
        swap (&a[i], &a[j]);
        i++;
        j--;
      }
    }
    if (k <= j)
      hi = j;
    else if (k >= i)
      lo = i;
    else
      return a[k];
  }
  return a[k];
}

gsize
vh_cambi_topk_count (gsize n, gdouble topk)
{
  return CLAMP ((gint64) (topk * n), 1, (gint64) n);
}

/* hi * 2^32 + lo, both below 2^63, correctly rounded to double. */
static gdouble
wide_to_double (guint64 hi, guint64 lo)
{
  guint64 top, low, n;
  guint shift = 0;

  hi += lo >> 32;
  low = lo & 0xffffffffu;
  if (hi >> 32 == 0)
    return (gdouble) ((hi << 32) | low);
  for (top = hi >> 32; top; top >>= 1)
    shift++;
  /* The top 64 bits, with the bits shifted out kept as a sticky bit so
   * that the one rounding of the conversion is the correct one. */
  n = (hi << (32 - shift)) | (low >> shift);
  n |= (low & ((G_GUINT64_CONSTANT (1) << shift) - 1)) != 0;
  return ldexp ((gdouble) n, shift);
}

gdouble
vh_cambi_topk_finish (guint64 sum_hi, guint64 sum_lo, guint64 above,
    gfloat t, guint64 k)
{
  guint64 t_units = vh_cambi_units (t);
  guint64 rest = k - above;

  /* k - above copies of t make up the k: at most 2^26 * 2^50, in two
   * halves again. */
  sum_hi += rest * (t_units >> 32);
  sum_lo += rest * (t_units & 0xffffffffu);
  return ldexp (wide_to_double (sum_hi, sum_lo), -VH_CAMBI_UNIT_BITS) /
      (gdouble) k;
}

gdouble
vh_cambi_topk_mean (gfloat * values, gsize n, gdouble topk)
{
  gsize k = vh_cambi_topk_count (n, topk);
  gsize m = 0, above = 0;
  guint64 hi = 0, lo = 0;
  gfloat t = 0.0f;

  /* c values are never negative: when no more than k are positive, the
   * k-th largest is 0 and the top k sum is the sum of all. */
  for (gsize i = 0; i < n; i++) {
    if (values[i] > 0.0f)
      values[m++] = values[i];
  }
  if (m > k)
    t = select_desc (values, m, k - 1);
  for (gsize i = 0; i < m; i++) {
    if (values[i] > t) {
      guint64 u = vh_cambi_units (values[i]);

      hi += u >> 32;
      lo += u & 0xffffffffu;
      above++;
    }
  }
  return vh_cambi_topk_finish (hi, lo, above, t, k);
}
