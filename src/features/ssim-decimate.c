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

void
vh_ssim_decimate_lpf (VhSsimWorkspace * ws, const gfloat * src, guint width,
    guint height, gfloat * dst)
{
  const guint dw = vh_ssim_decimated_size (width, 2);
  const guint dh = vh_ssim_decimated_size (height, 2);
  gfloat *restrict even = ws->even;
  gfloat *restrict odd = ws->odd;
  gdouble *restrict acc = ws->acc;

  for (guint y = 0; y < dh; y++) {
    for (guint x = 0; x < dw; x++)
      acc[x] = 0.0;

    for (gint v = 0; v < LPF_TAPS; v++) {
      const gint qv = 4 - ABS (v - 4);
      const gfloat *row = src + (gsize) mirror ((gint) (2 * y) + v - 4,
          (gint) height) * width;
      gfloat k[LPF_TAPS];

      for (gint u = 0; u < LPF_TAPS; u++)
        k[u] = lpf_quadrant[qv][4 - ABS (u - 4)];

      /* Split the mirrored row into even and odd columns so that the taps
       * of neighbouring outputs are contiguous. Output x covers input
       * columns 2x-4 .. 2x+4. */
      for (guint j = 0; j < dw + 4; j++) {
        even[j] = row[mirror ((gint) (2 * j) - 4, (gint) width)];
        odd[j] = row[mirror ((gint) (2 * j) - 3, (gint) width)];
      }

      for (guint x = 0; x < dw; x++) {
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

    for (guint x = 0; x < dw; x++)
      dst[(gsize) y * dw + x] = (gfloat) acc[x];
  }
}
