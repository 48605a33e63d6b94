/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Portable row kernels of the integer VIF. Loops run over the taps outside
 * and the columns inside, on 16 x 16 -> 32 bit products, so that compilers
 * vectorise them; the per-pixel statistic stays scalar. */

#include "integer-vif-priv.h"
#include "integer-vif-pixel.h"

#include <math.h>
#include <string.h>

const guint16 vh_vif_filter[VH_VIF_N_SCALES][VH_VIF_MAX_TAPS + 1] = {
  {489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, 7455, 6547, 5274,
      3896, 2640, 1640, 935, 489, 0},
  {1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244, 0},
  {3571, 16004, 26386, 16004, 3571, 0},
  {10904, 43728, 10904, 0},
};

const guint vh_vif_filter_taps[VH_VIF_N_SCALES] = { 17, 9, 5, 3 };

static guint16 log2_table[VH_VIF_LOG2_TABLE_SIZE];

static gpointer
build_log2_table (gpointer data)
{
  /* Computed in single precision and then rounded, as the reference does:
   * the table must match it entry for entry. */
  for (guint i = 32767; i < 65536; i++)
    log2_table[i] = (guint16) round (log2f ((float) i) * 2048);
  return log2_table;
}

const guint16 *
vh_vif_log2_table (void)
{
  static GOnce once = G_ONCE_INIT;

  return g_once (&once, build_log2_table, NULL);
}

static inline guint16
unbias (guint16 v)
{
  return v ^ VH_VIF_BIAS;
}

static inline void
store_mu (VhVifRows * rows, guint q, guint j, guint32 v)
{
  rows->s[q][VH_VIF_PAD + j] = (guint16) (v ^ VH_VIF_BIAS);
}

static inline void
store_moment (VhVifRows * rows, guint q_hi, guint j, guint32 v)
{
  rows->s[q_hi][VH_VIF_PAD + j] = (guint16) ((v >> 16) ^ VH_VIF_BIAS);
  rows->s[q_hi + 1][VH_VIF_PAD + j] = (guint16) ((v & 0xffff) ^ VH_VIF_BIAS);
}

/* (hi * 2^16 + lo + 2^(shift-1)) >> shift modulo 2^32, where hi and lo are
 * the exact sums of the high and low halves (each below 2^32). */
static inline guint32
combine_moment (guint32 hi, guint32 lo, guint shift)
{
  return (hi << (16 - shift)) + ((lo + (1u << (shift - 1))) >> shift);
}

static void
clear_acc (VhVifRows * rows, guint n_acc, guint j0, guint j1)
{
  for (guint q = 0; q < n_acc; q++)
    memset (rows->acc[q] + j0, 0, (j1 - j0) * sizeof (guint32));
}

static void
vert_stats_8_c (const guint8 * const *ref, const guint8 * const *dis,
    guint scale, guint j0, guint j1, VhVifRows * rows)
{
  const guint16 *filt = vh_vif_filter[scale];
  const guint taps = vh_vif_filter_taps[scale];
  guint32 *restrict mu1 = rows->acc[0];
  guint32 *restrict mu2 = rows->acc[1];
  guint32 *restrict xx = rows->acc[2];
  guint32 *restrict yy = rows->acc[3];
  guint32 *restrict xy = rows->acc[4];

  clear_acc (rows, 5, j0, j1);
  for (guint k = 0; k < taps; k++) {
    const guint32 c = filt[k];
    const guint8 *restrict r = ref[k];
    const guint8 *restrict d = dis[k];

    /* Squares of 8-bit samples fit 16 bits and the sums 32 bits. */
    for (guint j = j0; j < j1; j++) {
      const guint32 a = r[j], b = d[j];
      const guint32 ca = c * a, cb = c * b;

      mu1[j] += ca;
      mu2[j] += cb;
      xx[j] += ca * a;
      yy[j] += cb * b;
      xy[j] += ca * b;
    }
  }
  for (guint j = j0; j < j1; j++) {
    store_mu (rows, VH_VIF_MU1, j, (mu1[j] + 128) >> 8);
    store_mu (rows, VH_VIF_MU2, j, (mu2[j] + 128) >> 8);
    store_moment (rows, VH_VIF_XX_HI, j, xx[j]);
    store_moment (rows, VH_VIF_YY_HI, j, yy[j]);
    store_moment (rows, VH_VIF_XY_HI, j, xy[j]);
  }
}

static void
vert_stats_16_c (const guint16 * const *ref, const guint16 * const *dis,
    guint scale, guint shift_mu, guint shift_sq, guint j0, guint j1,
    VhVifRows * rows)
{
  const guint16 *filt = vh_vif_filter[scale];
  const guint taps = vh_vif_filter_taps[scale];
  guint32 *restrict mu1 = rows->acc[0];
  guint32 *restrict mu2 = rows->acc[1];
  guint32 *restrict xx_hi = rows->acc[2];
  guint32 *restrict xx_lo = rows->acc[3];
  guint32 *restrict yy_hi = rows->acc[4];
  guint32 *restrict yy_lo = rows->acc[5];
  guint32 *restrict xy_hi = rows->acc[6];
  guint32 *restrict xy_lo = rows->acc[7];
  const guint32 round_mu = 1u << (shift_mu - 1);

  clear_acc (rows, 8, j0, j1);
  for (guint k = 0; k < taps; k++) {
    const guint32 c = filt[k];
    const guint16 *restrict r = ref[k];
    const guint16 *restrict d = dis[k];

    /* Squares take 32 bits: filter their 16-bit halves separately. */
    for (guint j = j0; j < j1; j++) {
      const guint32 a = r[j], b = d[j];
      const guint32 aa = a * a, bb = b * b, ab = a * b;

      mu1[j] += c * a;
      mu2[j] += c * b;
      xx_hi[j] += c * (aa >> 16);
      xx_lo[j] += c * (aa & 0xffff);
      yy_hi[j] += c * (bb >> 16);
      yy_lo[j] += c * (bb & 0xffff);
      xy_hi[j] += c * (ab >> 16);
      xy_lo[j] += c * (ab & 0xffff);
    }
  }
  for (guint j = j0; j < j1; j++) {
    store_mu (rows, VH_VIF_MU1, j, ((mu1[j] + round_mu) >> shift_mu) & 0xffff);
    store_mu (rows, VH_VIF_MU2, j, ((mu2[j] + round_mu) >> shift_mu) & 0xffff);
    store_moment (rows, VH_VIF_XX_HI, j,
        combine_moment (xx_hi[j], xx_lo[j], shift_sq));
    store_moment (rows, VH_VIF_YY_HI, j,
        combine_moment (yy_hi[j], yy_lo[j], shift_sq));
    store_moment (rows, VH_VIF_XY_HI, j,
        combine_moment (xy_hi[j], xy_lo[j], shift_sq));
  }
}

/* acc[q][j] = sum over taps of filt * stream q around column j, for @n_q
 * streams starting at @q0, at every @step-th column. */
static void
horiz_filter (VhVifRows * rows, guint q0, guint n_q, guint scale,
    guint n_out, guint step)
{
  const guint16 *filt = vh_vif_filter[scale];
  const guint taps = vh_vif_filter_taps[scale];
  const guint off = VH_VIF_PAD - taps / 2;

  clear_acc (rows, n_q, 0, n_out);
  for (guint q = 0; q < n_q; q++) {
    guint32 *restrict acc = rows->acc[q];

    for (guint k = 0; k < taps; k++) {
      const guint32 c = filt[k];
      const guint16 *restrict s = rows->s[q0 + q] + off + k;

      for (guint m = 0; m < n_out; m++)
        acc[m] += c * unbias (s[m * step]);
    }
  }
}

static void
horiz_stats_c (VhVifRows * rows, guint scale, guint w, gdouble gain_limit,
    const guint16 * log2_tab, VhVifAccum * acc)
{
  guint32 *const *a = rows->acc;

  horiz_filter (rows, 0, VH_VIF_N_STREAMS, scale, w, 1);
  for (guint j = 0; j < w; j++) {
    const guint32 xx = a[VH_VIF_XX_HI][j] + ((a[VH_VIF_XX_LO][j] + 32768) >> 16);
    const guint32 yy = a[VH_VIF_YY_HI][j] + ((a[VH_VIF_YY_LO][j] + 32768) >> 16);
    const guint32 xy = a[VH_VIF_XY_HI][j] + ((a[VH_VIF_XY_LO][j] + 32768) >> 16);

    vh_vif_pixel (a[VH_VIF_MU1][j], a[VH_VIF_MU2][j], xx, yy, xy, gain_limit,
        log2_tab, acc);
  }
}

static void
vert_mu_8_c (const guint8 * const *ref, const guint8 * const *dis,
    guint scale, guint j0, guint j1, VhVifRows * rows)
{
  const guint16 *filt = vh_vif_filter[scale];
  const guint taps = vh_vif_filter_taps[scale];
  guint32 *restrict mu1 = rows->acc[0];
  guint32 *restrict mu2 = rows->acc[1];

  clear_acc (rows, 2, j0, j1);
  for (guint k = 0; k < taps; k++) {
    const guint32 c = filt[k];
    const guint8 *restrict r = ref[k];
    const guint8 *restrict d = dis[k];

    for (guint j = j0; j < j1; j++) {
      mu1[j] += c * r[j];
      mu2[j] += c * d[j];
    }
  }
  for (guint j = j0; j < j1; j++) {
    store_mu (rows, VH_VIF_MU1, j, (mu1[j] + 128) >> 8);
    store_mu (rows, VH_VIF_MU2, j, (mu2[j] + 128) >> 8);
  }
}

static void
vert_mu_16_c (const guint16 * const *ref, const guint16 * const *dis,
    guint scale, guint shift, guint j0, guint j1, VhVifRows * rows)
{
  const guint16 *filt = vh_vif_filter[scale];
  const guint taps = vh_vif_filter_taps[scale];
  guint32 *restrict mu1 = rows->acc[0];
  guint32 *restrict mu2 = rows->acc[1];
  const guint32 round = 1u << (shift - 1);

  clear_acc (rows, 2, j0, j1);
  for (guint k = 0; k < taps; k++) {
    const guint32 c = filt[k];
    const guint16 *restrict r = ref[k];
    const guint16 *restrict d = dis[k];

    for (guint j = j0; j < j1; j++) {
      mu1[j] += c * r[j];
      mu2[j] += c * d[j];
    }
  }
  for (guint j = j0; j < j1; j++) {
    store_mu (rows, VH_VIF_MU1, j, ((mu1[j] + round) >> shift) & 0xffff);
    store_mu (rows, VH_VIF_MU2, j, ((mu2[j] + round) >> shift) & 0xffff);
  }
}

static void
horiz_decimate_c (VhVifRows * rows, guint scale, guint w_out,
    guint16 * ref_out, guint16 * dis_out)
{
  horiz_filter (rows, VH_VIF_MU1, 2, scale, w_out, 2);
  for (guint m = 0; m < w_out; m++) {
    ref_out[m] = (guint16) ((rows->acc[0][m] + 32768) >> 16);
    dis_out[m] = (guint16) ((rows->acc[1][m] + 32768) >> 16);
  }
}

const VhVifKernels vh_vif_kernels_c = {
  .vert_stats_8 = vert_stats_8_c,
  .vert_stats_16 = vert_stats_16_c,
  .horiz_stats = horiz_stats_c,
  .vert_mu_8 = vert_mu_8_c,
  .vert_mu_16 = vert_mu_16_c,
  .horiz_decimate = horiz_decimate_c,
};
