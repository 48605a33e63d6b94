/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What SSIMULACRA 2 ("ssimulacra2") shares with its HIP twin: options,
 * the colour conversion's constants, the blur's coefficients, the scale
 * rule and the arithmetic that turns the maps' sums into the score.
 *
 * Order of the float arithmetic: libjxl's where the metric is sensitive to
 * it (the blurred squares are differences of nearly equal numbers, so the
 * SSIM terms amplify rounding), fused multiply-adds (fma) where libjxl's
 * x86 code has them; the twin follows it operation by operation:
 * - chroma on the luma grid as an exact integer numerator over 8
 *   (ssimulacra2-color.c), then y = (Y - yoff) * yscale, c = (C / 8 -
 *   coff) * cscale, R = y + crr * cr, G = (y - cbg * cb) - crg * cr,
 *   B = y + cbb * cb, each clamped to [0, 1] and rounded to 16 bits
 *   (v * 65535 + 0.5, truncated): the R'G'B' written by the dump;
 * - linear light from a 65536-entry table of the sRGB EOTF (libjxl's
 *   rational fit of it, in float);
 * - 2x2 downsampling: ((a + b) + c) + d, times 0.25, edges clamped;
 * - XYB: m = fma (m0, r, fma (m1, g, fma (m2, b, bias))) per mix, clamped
 *   at 0; its cube root plus the bias's negated cube root by
 *   ssimu2_cbrt_add() (ssimulacra2-maps-body.h: an inverse cube root from
 *   the exponent, four Newton steps); X = 0.5 (r - g), Y = 0.5 (r + g),
 *   B = b; then
 *   B = (B - Y) + 0.55, X = X * 14 + 0.42, Y = Y + 0.01;
 * - the blur, per pole: rows by libjxl's four-at-a-time recursion (a
 *   scalar start up to column 7, groups of four, a scalar end; see
 *   ssimu2_blur_row()), then columns by o = fma (n2, in[n - N - 1] +
 *   in[n + N - 1], fma (-d1, o', -o'')); output o1 + (o3 + o5);
 * - the maps per pixel as libjxl writes them, each row summed in double as
 *   VH_SSIMU2_LANES interleaved partial sums (column x into sum x mod 32,
 *   left to right) combined pairwise (16 apart, 8, 4, 2, 1), the rows'
 *   sums then added in row order. */

#ifndef __VH_SSIMULACRA2_H__
#define __VH_SSIMULACRA2_H__

#include "feature-extractor.h"

G_BEGIN_DECLS

#define VH_SSIMU2_N_SCALES 6
#define VH_SSIMU2_MIN_SIZE 8
/* Per scale and channel: the SSIM map's sum of d and of d^4, the edge
 * map's artifact, artifact^4, detail lost, detail lost^4. */
#define VH_SSIMU2_SUMS_PER_CHANNEL 6
#define VH_SSIMU2_SUMS_PER_SCALE (3 * VH_SSIMU2_SUMS_PER_CHANNEL)
/* Partial sums per row: a warp on the GPU. */
#define VH_SSIMU2_LANES 32

typedef enum
{
  VH_SSIMU2_MATRIX_BT601 = 0,
  VH_SSIMU2_MATRIX_BT709,
  VH_SSIMU2_MATRIX_BT2020,
} VhSsimu2Matrix;

typedef enum
{
  VH_SSIMU2_RANGE_LIMITED = 0,
  VH_SSIMU2_RANGE_FULL,
} VhSsimu2Range;

extern const gchar *const vh_ssimu2_provides[];
extern const VhOptionSpec vh_ssimu2_options[];

/* Y'CbCr to R'G'B' of one stream: offsets and scales in sample units. */
typedef struct
{
  gfloat y_offset, y_scale;
  gfloat c_offset, c_scale;
  gfloat cr_r, cb_g, cr_g, cb_b;
  guint ssx, ssy;               /* chroma subsampling shifts */
  gboolean grey;                /* 4:0:0: neutral chroma */
} VhSsimu2Yuv;

/* libjxl's recursive Gaussian (sigma 1.5): three poles, and for each the
 * weights of four outputs at once (inputs, previous two outputs), which
 * its row pass uses. */
typedef struct
{
  gint radius;
  gfloat n2[3];
  gfloat d1[3];
  gfloat mul_in[3][4];
  gfloat mul_prev[3][4];
  gfloat mul_prev2[3][4];
} VhSsimu2Gauss;

typedef struct
{
  VhSsimu2Yuv yuv[2];           /* [ref, dist]: each its own colorimetry */
  VhSsimu2Gauss gauss;
  gfloat *to_linear;            /* 65536 entries: R'G'B' / 65535 to linear */
  gfloat mix[9];                /* opsin absorbance, row-major */
  gfloat bias;
  gfloat neg_bias_cbrt;
} VhSsimu2;

/* Checks @info and @fex's options and fills @s; vh_ssimu2_clear()
 * releases it. */
gboolean     vh_ssimu2_setup             (VhSsimu2 * s,
                                          const VhFeatureExtractor * fex,
                                          const VhPictureInfo * info,
                                          GError ** error);

void         vh_ssimu2_clear             (VhSsimu2 * s);

/* How many scales a @width x @height frame gets: libjxl computes a scale
 * while the previous one is at least 8x8, so the last may be smaller. */
guint        vh_ssimu2_n_scales          (guint width, guint height);

/* Size of scale @scale (0: the frame). */
void         vh_ssimu2_scale_size        (guint width, guint height,
                                          guint scale, guint * sw,
                                          guint * sh);

/* The score from each scale's sums (VH_SSIMU2_SUMS_PER_SCALE each, in
 * channel order X, Y, B) over @n_scales scales of a @width x @height
 * frame. */
gdouble      vh_ssimu2_score             (const gdouble * sums,
                                          guint n_scales, guint width,
                                          guint height);

G_END_DECLS

#endif /* __VH_SSIMULACRA2_H__ */
