/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Downscaling for the SSIM family, matching libvmaf's: the filter is
 * centred on every factor-th sample, borders are mirrored (the edge sample
 * repeated), each tap is a single-precision product added to a double sum
 * in row-major tap order, and an odd side keeps one extra sample. */

#include "ssim-common.h"

/* Fusing a multiply and an add into one rounding would change results. */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#define LPF_TAPS 9

/* One quadrant (edge to centre) of the 9x9 low-pass of the 9/7
 * biorthogonal wavelet, as libvmaf tabulates it; the kernel is symmetric
 * in both directions. */
static const gfloat lpf_quadrant[5][5] = {
  {0.000714f, -0.000450f, -0.002090f, 0.007132f, 0.016114f},
  {-0.000450f, 0.000283f, 0.001316f, -0.004490f, -0.010146f},
  {-0.002090f, 0.001316f, 0.006115f, -0.020867f, -0.047149f},
  {0.007132f, -0.004490f, -0.020867f, 0.071207f, 0.160885f},
  {0.016114f, -0.010146f, -0.047149f, 0.160885f, 0.363505f},
};

static inline gint
mirror (gint i, gint n)
{
  if (i < 0)
    return -1 - i;
  if (i >= n)
    return 2 * n - 1 - i;
  return i;
}

guint
vh_ssim_decimated_size (guint n, guint factor)
{
  /* libvmaf adds one for any odd side, whatever the factor. */
  return n / factor + (n & 1);
}

void
vh_ssim_decimate_box (const gfloat * src, guint width, guint height,
    guint factor, gfloat * dst)
{
  const guint dw = vh_ssim_decimated_size (width, factor);
  const guint dh = vh_ssim_decimated_size (height, factor);
  const gfloat k = 1.0f / (gfloat) (factor * factor);
  /* Taps -f/2 .. (f-1)/2 around the centre: one more on the left when the
   * factor is even. */
  const gint lo = -(gint) (factor / 2), hi = (gint) (factor - 1) / 2;

  for (guint y = 0; y < dh; y++) {
    for (guint x = 0; x < dw; x++) {
      gdouble acc = 0.0;

      for (gint v = lo; v <= hi; v++) {
        const gfloat *row = src + (gsize) mirror ((gint) (y * factor) + v,
            (gint) height) * width;

        for (gint u = lo; u <= hi; u++)
          acc += (gdouble) (row[mirror ((gint) (x * factor) + u,
                      (gint) width)] * k);
      }
      dst[(gsize) y * dw + x] = (gfloat) acc;
    }
  }
}

/* Splits a row, mirrored by 4 samples on each side, into its even and odd
 * columns: output x then reads even[x .. x+4] and odd[x .. x+3]. */
static inline void
split_row (const gfloat * row, gint width, gfloat * restrict even,
    gfloat * restrict odd, guint n)
{
  for (guint j = 0; j < n; j++) {
    const gint e = 2 * (gint) j - 4, o = e + 1;

    if (e >= 0 && o < width) {
      even[j] = row[e];
      odd[j] = row[o];
    } else {
      even[j] = row[mirror (e, width)];
      odd[j] = row[mirror (o, width)];
    }
  }
}

/* Adds one kernel row's nine taps to each output of the row. */
static inline void
lpf_row (gdouble * restrict acc, const gfloat * restrict even,
    const gfloat * restrict odd, const gfloat k[LPF_TAPS], guint n)
{
  for (gsize x = 0; x < n; x++) {
    gdouble a = acc[x];

    a += (gdouble) (even[x] * k[0]);
    a += (gdouble) (odd[x] * k[1]);
    a += (gdouble) (even[x + 1] * k[2]);
    a += (gdouble) (odd[x + 1] * k[3]);
    a += (gdouble) (even[x + 2] * k[4]);
    a += (gdouble) (odd[x + 2] * k[5]);
    a += (gdouble) (even[x + 3] * k[6]);
    a += (gdouble) (odd[x + 3] * k[7]);
    a += (gdouble) (even[x + 4] * k[8]);
    acc[x] = a;
  }
}

VH_SSIM_MULTIVERSION void
vh_ssim_decimate_lpf (VhSsimWorkspace * ws, const gfloat * src, guint width,
    guint height, gfloat * dst)
{
  const guint dw = vh_ssim_decimated_size (width, 2);
  const guint dh = vh_ssim_decimated_size (height, 2);
  const gsize rs = ws->split_stride;
  gfloat k[LPF_TAPS][LPF_TAPS];
  guint next = 0;

  g_assert (dw + 4 <= rs);
  for (guint v = 0; v < LPF_TAPS; v++) {
    for (guint u = 0; u < LPF_TAPS; u++)
      k[v][u] = lpf_quadrant[4 - ABS ((gint) v - 4)][4 - ABS ((gint) u - 4)];
  }

  for (guint y = 0; y < dh; y++) {
    /* Output row y reads input rows 2y-4 .. 2y+4, mirrored into the
     * frame: nine consecutive rows at most, so a ring of nine split rows
     * holds them all. */
    const guint last = MIN (2 * y + 4, height - 1);
    gdouble *restrict acc = ws->acc;

    for (; next <= last; next++) {
      split_row (src + (gsize) next * width, (gint) width,
          ws->even + (next % LPF_TAPS) * rs, ws->odd + (next % LPF_TAPS) * rs,
          dw + 4);
    }

    for (guint x = 0; x < dw; x++)
      acc[x] = 0.0;
    for (guint v = 0; v < LPF_TAPS; v++) {
      const guint r = mirror ((gint) (2 * y + v) - 4, (gint) height);

      lpf_row (acc, ws->even + (r % LPF_TAPS) * rs,
          ws->odd + (r % LPF_TAPS) * rs, k[v], dw);
    }
    for (guint x = 0; x < dw; x++)
      dst[(gsize) y * dw + x] = (gfloat) acc[x];
  }
}
