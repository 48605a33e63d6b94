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

#include "integer-vif-private.h"
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

/* One tap of the 8-bit vertical pass. The restrict parameters let the
 * compiler vectorise without run-time alias checks. */
static inline void
vert_tap_8 (guint32 c, const guint8 * restrict r, const guint8 * restrict d,
    guint32 * restrict mu1, guint32 * restrict mu2, guint32 * restrict xx,
    guint32 * restrict yy, guint32 * restrict xy, guint j0, guint j1)
{
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

static void
vert_stats_8_c (const guint8 * const *ref, const guint8 * const *dis,
    guint scale, guint j0, guint j1, VhVifRows * rows)
{
  const guint16 *filt = vh_vif_filter[scale];
  const guint taps = vh_vif_filter_taps[scale];
  guint32 *const *a = rows->acc;

  clear_acc (rows, 5, j0, j1);
  for (guint k = 0; k < taps; k++)
    vert_tap_8 (filt[k], ref[k], dis[k], a[0], a[1], a[2], a[3], a[4], j0, j1);
  for (guint j = j0; j < j1; j++) {
    store_mu (rows, VH_VIF_MU1, j, (a[0][j] + 128) >> 8);
    store_mu (rows, VH_VIF_MU2, j, (a[1][j] + 128) >> 8);
    store_moment (rows, VH_VIF_XX_HI, j, a[2][j]);
    store_moment (rows, VH_VIF_YY_HI, j, a[3][j]);
    store_moment (rows, VH_VIF_XY_HI, j, a[4][j]);
  }
}

/* One tap of the 16-bit vertical pass on the moment @x * @y: squares take
 * 32 bits, so their 16-bit halves are filtered separately. */
static inline void
vert_tap_moment (guint32 c, const guint16 * restrict x,
    const guint16 * restrict y, guint32 * restrict hi, guint32 * restrict lo,
    guint j0, guint j1)
{
  for (guint j = j0; j < j1; j++) {
    const guint32 v = (guint32) x[j] * y[j];

    hi[j] += c * (v >> 16);
    lo[j] += c * (v & 0xffff);
  }
}

static inline void
vert_tap_mu (guint32 c, const guint16 * restrict x, guint32 * restrict mu,
    guint j0, guint j1)
{
  for (guint j = j0; j < j1; j++)
    mu[j] += c * x[j];
}

static void
vert_stats_16_c (const guint16 * const *ref, const guint16 * const *dis,
    guint scale, guint shift_mu, guint shift_sq, guint j0, guint j1,
    VhVifRows * rows)
{
  const guint16 *filt = vh_vif_filter[scale];
  const guint taps = vh_vif_filter_taps[scale];
  guint32 *const *a = rows->acc;
  const guint32 round_mu = 1u << (shift_mu - 1);

  clear_acc (rows, 8, j0, j1);
  for (guint k = 0; k < taps; k++) {
    vert_tap_mu (filt[k], ref[k], a[0], j0, j1);
    vert_tap_mu (filt[k], dis[k], a[1], j0, j1);
    vert_tap_moment (filt[k], ref[k], ref[k], a[2], a[3], j0, j1);
    vert_tap_moment (filt[k], dis[k], dis[k], a[4], a[5], j0, j1);
    vert_tap_moment (filt[k], ref[k], dis[k], a[6], a[7], j0, j1);
  }
  for (guint j = j0; j < j1; j++) {
    store_mu (rows, VH_VIF_MU1, j, ((a[0][j] + round_mu) >> shift_mu) & 0xffff);
    store_mu (rows, VH_VIF_MU2, j, ((a[1][j] + round_mu) >> shift_mu) & 0xffff);
    store_moment (rows, VH_VIF_XX_HI, j,
        combine_moment (a[2][j], a[3][j], shift_sq));
    store_moment (rows, VH_VIF_YY_HI, j,
        combine_moment (a[4][j], a[5][j], shift_sq));
    store_moment (rows, VH_VIF_XY_HI, j,
        combine_moment (a[6][j], a[7][j], shift_sq));
  }
}

static inline void
horiz_tap (guint32 c, const guint16 * restrict s, guint32 * restrict acc,
    guint n_out, guint step)
{
  for (guint m = 0; m < n_out; m++)
    acc[m] += c * unbias (s[m * step]);
}

/* acc[q][m] = sum over taps of filt * stream q around column m * @step,
 * for @n_q streams from @q0. */
static void
horiz_filter (VhVifRows * rows, guint q0, guint n_q, guint scale,
    guint n_out, guint step)
{
  const guint16 *filt = vh_vif_filter[scale];
  const guint taps = vh_vif_filter_taps[scale];
  const guint off = VH_VIF_PAD - taps / 2;

  clear_acc (rows, n_q, 0, n_out);
  for (guint q = 0; q < n_q; q++) {
    for (guint k = 0; k < taps; k++)
      horiz_tap (filt[k], rows->s[q0 + q] + off + k, rows->acc[q], n_out, step);
  }
}

static void
horiz_stats_c (VhVifRows * rows, guint scale, guint w, gdouble gain_limit,
    const guint16 * log2_tab, VhVifAccum * acc)
{
  guint32 *const *a = rows->acc;

  horiz_filter (rows, 0, VH_VIF_N_STREAMS, scale, w, 1);
  for (guint j = 0; j < w; j++) {
    const guint32 xx =
        a[VH_VIF_XX_HI][j] + ((a[VH_VIF_XX_LO][j] + 32768) >> 16);
    const guint32 yy =
        a[VH_VIF_YY_HI][j] + ((a[VH_VIF_YY_LO][j] + 32768) >> 16);
    const guint32 xy =
        a[VH_VIF_XY_HI][j] + ((a[VH_VIF_XY_LO][j] + 32768) >> 16);

    vh_vif_pixel (a[VH_VIF_MU1][j], a[VH_VIF_MU2][j], xx, yy, xy, gain_limit,
        log2_tab, acc);
  }
}

static inline void
vert_tap_mu_8 (guint32 c, const guint8 * restrict x, guint32 * restrict mu,
    guint j0, guint j1)
{
  for (guint j = j0; j < j1; j++)
    mu[j] += c * x[j];
}

static void
vert_mu_8_c (const guint8 * const *ref, const guint8 * const *dis,
    guint scale, guint j0, guint j1, VhVifRows * rows)
{
  const guint16 *filt = vh_vif_filter[scale];
  const guint taps = vh_vif_filter_taps[scale];
  guint32 *const *a = rows->acc;

  clear_acc (rows, 2, j0, j1);
  for (guint k = 0; k < taps; k++) {
    vert_tap_mu_8 (filt[k], ref[k], a[0], j0, j1);
    vert_tap_mu_8 (filt[k], dis[k], a[1], j0, j1);
  }
  for (guint j = j0; j < j1; j++) {
    store_mu (rows, VH_VIF_MU1, j, (a[0][j] + 128) >> 8);
    store_mu (rows, VH_VIF_MU2, j, (a[1][j] + 128) >> 8);
  }
}

static void
vert_mu_16_c (const guint16 * const *ref, const guint16 * const *dis,
    guint scale, guint shift, guint j0, guint j1, VhVifRows * rows)
{
  const guint16 *filt = vh_vif_filter[scale];
  const guint taps = vh_vif_filter_taps[scale];
  guint32 *const *a = rows->acc;
  const guint32 round = 1u << (shift - 1);

  clear_acc (rows, 2, j0, j1);
  for (guint k = 0; k < taps; k++) {
    vert_tap_mu (filt[k], ref[k], a[0], j0, j1);
    vert_tap_mu (filt[k], dis[k], a[1], j0, j1);
  }
  for (guint j = j0; j < j1; j++) {
    store_mu (rows, VH_VIF_MU1, j, ((a[0][j] + round) >> shift) & 0xffff);
    store_mu (rows, VH_VIF_MU2, j, ((a[1][j] + round) >> shift) & 0xffff);
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
