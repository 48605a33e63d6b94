/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* PSNR-HVS per plane. Integer work (sample sums, the DCT) is exact and runs
 * on whole rows of a block at once; the float sums are kept in libvmaf's
 * order (block by block, row by row), since their rounding shows in the
 * sixth decimal otherwise. */

#include "psnr-hvs-private.h"

#include <math.h>
#include <stdlib.h>

/* Xiph's contrast sensitivity for the 8x8 DCT at the point of
 * transparency, luma and the two 4:2:0 chroma planes. */
static const gfloat csf_luma[64] = {
  1.6193873005, 2.2901594831, 2.08509755623, 1.48366094411,
  1.00227514334, 0.678296995242, 0.466224900598, 0.3265091542,
  2.2901594831, 1.94321815382, 2.04793073064, 1.68731108984,
  1.2305666963, 0.868920337363, 0.61280991668, 0.436405793551,
  2.08509755623, 2.04793073064, 1.34329019223, 1.09205635862,
  0.875748795257, 0.670882927016, 0.501731932449, 0.372504254596,
  1.48366094411, 1.68731108984, 1.09205635862, 0.772819797575,
  0.605636379554, 0.48309405692, 0.380429446972, 0.295774038565,
  1.00227514334, 1.2305666963, 0.875748795257, 0.605636379554,
  0.448996256676, 0.352889268808, 0.283006984131, 0.226951348204,
  0.678296995242, 0.868920337363, 0.670882927016, 0.48309405692,
  0.352889268808, 0.27032073436, 0.215017739696, 0.17408067321,
  0.466224900598, 0.61280991668, 0.501731932449, 0.380429446972,
  0.283006984131, 0.215017739696, 0.168869545842, 0.136153931001,
  0.3265091542, 0.436405793551, 0.372504254596, 0.295774038565,
  0.226951348204, 0.17408067321, 0.136153931001, 0.109083846276,
};

static const gfloat csf_cb[64] = {
  1.91113096927, 2.46074210438, 1.18284184739, 1.14982565193,
  1.05017074788, 0.898018824055, 0.74725392039, 0.615105596242,
  2.46074210438, 1.58529308355, 1.21363250036, 1.38190029285,
  1.33100189972, 1.17428548929, 0.996404342439, 0.830890433625,
  1.18284184739, 1.21363250036, 0.978712413627, 1.02624506078,
  1.03145147362, 0.960060382087, 0.849823426169, 0.731221236837,
  1.14982565193, 1.38190029285, 1.02624506078, 0.861317501629,
  0.801821139099, 0.751437590932, 0.685398513368, 0.608694761374,
  1.05017074788, 1.33100189972, 1.03145147362, 0.801821139099,
  0.676555426187, 0.605503172737, 0.55002013668, 0.495804539034,
  0.898018824055, 1.17428548929, 0.960060382087, 0.751437590932,
  0.605503172737, 0.514674450957, 0.454353482512, 0.407050308965,
  0.74725392039, 0.996404342439, 0.849823426169, 0.685398513368,
  0.55002013668, 0.454353482512, 0.389234902883, 0.342353999733,
  0.615105596242, 0.830890433625, 0.731221236837, 0.608694761374,
  0.495804539034, 0.407050308965, 0.342353999733, 0.295530605237,
};

static const gfloat csf_cr[64] = {
  2.03871978502, 2.62502345193, 1.26180942886, 1.11019789803,
  1.01397751469, 0.867069376285, 0.721500455585, 0.593906509971,
  2.62502345193, 1.69112867013, 1.17180569821, 1.3342742857,
  1.28513006198, 1.13381474809, 0.962064122248, 0.802254508198,
  1.26180942886, 1.17180569821, 0.944981930573, 0.990876405848,
  0.995903384143, 0.926972725286, 0.820534991409, 0.706020324706,
  1.11019789803, 1.3342742857, 0.990876405848, 0.831632933426,
  0.77418706195, 0.725539939514, 0.661776842059, 0.587716619023,
  1.01397751469, 1.28513006198, 0.995903384143, 0.77418706195,
  0.653238524286, 0.584635025748, 0.531064164893, 0.478717061273,
  0.867069376285, 1.13381474809, 0.926972725286, 0.725539939514,
  0.584635025748, 0.496936637883, 0.438694579826, 0.393021669543,
  0.721500455585, 0.962064122248, 0.820534991409, 0.661776842059,
  0.531064164893, 0.438694579826, 0.375820256136, 0.330555063063,
  0.593906509971, 0.802254508198, 0.706020324706, 0.587716619023,
  0.478717061273, 0.393021669543, 0.330555063063, 0.285345396658,
};

void
vh_psnr_hvs_tables_init (VhPsnrHvsTables * t, guint plane)
{
  const gfloat *csf = plane == 0 ? csf_luma : plane == 1 ? csf_cb : csf_cr;
  /* The masking table is the CSF scaled by the PSNR-HVS-M authors'
   * constant and squared, in double, then kept as floats. */
  const gdouble k = 0.3885746225901003;

  for (guint i = 0; i < 64; i++) {
    t->csf[i] = csf[i];
    t->mask[i] = (csf[i] * k) * (csf[i] * k);
  }
}

/* Rounding right shift of Daala's transforms: adds the sign bit before
 * shifting so that negative values round like positive ones. */
#define HVS_RSHIFT(a, b) \
  ((gint32) (((guint32) (a) >> (32 - (b))) + (guint32) (a)) >> (b))
/* Multiplies by @m / 2^@s, rounded: the lifting steps. */
#define HVS_MUL(a, m, s) \
  ((gint32) ((guint32) (a) * (m) + (1u << ((s) - 1))) >> (s))

/* Daala's 8-point integer DCT-II (od_bin_fdct8) of the 8 columns of @in
 * (rows of 8 lanes) at once: @out[k][lane] is coefficient k of column
 * @lane. The lanes are independent, so the loop vectorises. */
static inline __attribute__ ((always_inline)) void
hvs_fdct8_lanes (gint32 out[8][8], const gint32 in[8][8])
{
  for (guint l = 0; l < 8; l++) {
    gint32 t0 = in[0][l], t4 = in[1][l], t2 = in[2][l], t6 = in[3][l];
    gint32 t7 = in[4][l], t3 = in[5][l], t5 = in[6][l], t1 = in[7][l];
    gint32 t1h, t4h, t6h;

    /* Butterflies. */
    t1 = t0 - t1;
    t1h = HVS_RSHIFT (t1, 1);
    t0 -= t1h;
    t4 += t5;
    t4h = HVS_RSHIFT (t4, 1);
    t5 -= t4h;
    t3 = t2 - t3;
    t2 -= HVS_RSHIFT (t3, 1);
    t6 += t7;
    t6h = HVS_RSHIFT (t6, 1);
    t7 = t6h - t7;
    /* The embedded 4-point DCT-II... */
    t0 += t6h;
    t6 = t0 - t6;
    t2 = t4h - t2;
    t4 = t2 - t4;
    /* ...its 2-point DCT-II: rotations by pi/4 as three lifts... */
    t0 -= HVS_MUL (t4, 13573, 15);
    t4 += HVS_MUL (t0, 11585, 14);
    t0 -= HVS_MUL (t4, 13573, 15);
    /* ...and 2-point DST-IV (3 pi / 8). */
    t6 -= HVS_MUL (t2, 21895, 15);
    t2 += HVS_MUL (t6, 15137, 14);
    t6 -= HVS_MUL (t2, 21895, 15);
    /* The embedded 4-point DST-IV. */
    t3 += HVS_MUL (t5, 19195, 15);
    t5 += HVS_MUL (t3, 11585, 14);
    t3 -= HVS_MUL (t5, 7489, 13);
    t7 = HVS_RSHIFT (t5, 1) - t7;
    t5 -= t7;
    t3 = t1h - t3;
    t1 -= t3;
    t7 += HVS_MUL (t1, 3227, 15);
    t1 -= HVS_MUL (t7, 6393, 15);
    t7 += HVS_MUL (t1, 3227, 15);
    t5 += HVS_MUL (t3, 2485, 13);
    t3 -= HVS_MUL (t5, 18205, 15);
    t5 += HVS_MUL (t3, 2485, 13);

    out[0][l] = t0;
    out[1][l] = t1;
    out[2][l] = t2;
    out[3][l] = t3;
    out[4][l] = t4;
    out[5][l] = t5;
    out[6][l] = t6;
    out[7][l] = t7;
  }
}

/* 2-D DCT of block @x (rows of 8 samples): columns first, then rows, as
 * od_bin_fdct8x8. @c[i][j] is frequency row i, column j. */
static inline __attribute__ ((always_inline)) void
hvs_fdct8x8 (gint32 c[8][8], const gint32 x[8][8])
{
  gint32 cols[8][8], t[8][8], rows[8][8];

  /* cols[k][l]: coefficient k of column l. */
  hvs_fdct8_lanes (cols, x);
  /* Row i of the column transforms, as lanes: t[j][i] = cols[i][j]. */
  for (guint i = 0; i < 8; i++)
    for (guint j = 0; j < 8; j++)
      t[j][i] = cols[i][j];
  hvs_fdct8_lanes (rows, t);
  /* rows[j][i]: coefficient j of row i's transform. */
  for (guint i = 0; i < 8; i++)
    for (guint j = 0; j < 8; j++)
      c[i][j] = rows[j][i];
}

/* Loads the 8x8 block at (@x, @y). */
static inline __attribute__ ((always_inline)) void
hvs_load_block (gint32 b[8][8], const VhPsnrHvsPlane * p, guint x, guint y,
    gboolean deep)
{
  for (guint i = 0; i < 8; i++) {
    const guint8 *row = p->data + (gsize) (y + i) * p->stride;
    if (deep) {
      const guint16 *r16 = (const guint16 *) row + (gsize) x * p->step;
      for (guint j = 0; j < 8; j++)
        b[i][j] = r16[j * p->step];
    } else {
      const guint8 *r8 = row + (gsize) x * p->step;
      for (guint j = 0; j < 8; j++)
        b[i][j] = r8[j * p->step];
    }
  }
}

/* Masking strength of a block from its samples @b and DCT @c: the AC
 * energy weighted by the masking table, scaled by how much of the block's
 * variance its four 4x4 quarters keep. */
static inline __attribute__ ((always_inline)) gfloat
hvs_block_mask (const gint32 b[8][8], const gint32 c[8][8],
    const gfloat * mask)
{
  gint32 total = 0, quarter[4] = { 0, 0, 0, 0 };
  gfloat mean, means[4], var = 0, vars[4] = { 0, 0, 0, 0 }, energy = 0;

  /* Sample sums are exact in float, so integers give libvmaf's means. */
  for (guint i = 0; i < 8; i++)
    for (guint j = 0; j < 8; j++) {
      total += b[i][j];
      quarter[(i >> 2) + ((j >> 2) << 1)] += b[i][j];
    }
  mean = (gfloat) total / 64.f;
  for (guint q = 0; q < 4; q++)
    means[q] = (gfloat) quarter[q] / 16.f;

  for (guint i = 0; i < 8; i++)
    for (guint j = 0; j < 8; j++) {
      const guint q = (i >> 2) + ((j >> 2) << 1);
      const gfloat v = b[i][j];
      var += (v - mean) * (v - mean);
      vars[q] += (v - means[q]) * (v - means[q]);
    }
  /* Unbiased variances (n - 1) of the block and its quarters. */
  var *= 1 / 63.f * 64;
  for (guint q = 0; q < 4; q++)
    vars[q] *= 1 / 15.f * 16;
  if (var > 0)
    var = (vars[0] + vars[1] + vars[2] + vars[3]) / var;

  for (guint i = 0; i < 8; i++)
    for (guint j = (i == 0); j < 8; j++)
      energy += (gfloat) (c[i][j] * c[i][j]) * mask[i * 8 + j];
  return (gfloat) (sqrt ((gdouble) (energy * var)) / 32.0);
}

static inline __attribute__ ((always_inline)) gdouble
hvs_plane_impl (const VhPsnrHvsPlane * ref, const VhPsnrHvsPlane * dis,
    guint width, guint height, guint bpc, const VhPsnrHvsTables * t)
{
  const gboolean deep = bpc > 8;
  const gint32 peak = (1 << bpc) - 1;
  gfloat sum = 0;
  gint pixels = 0;

  for (gint y = 0; y < (gint) height - 7; y += 7) {
    for (gint x = 0; x < (gint) width - 7; x += 7) {
      gint32 rb[8][8], db[8][8], rc[8][8], dc[8][8];
      gfloat m, dm;

      hvs_load_block (rb, ref, x, y, deep);
      hvs_load_block (db, dis, x, y, deep);
      hvs_fdct8x8 (rc, rb);
      hvs_fdct8x8 (dc, db);
      /* The stronger of the two blocks' masking applies. */
      m = hvs_block_mask (rb, rc, t->mask);
      dm = hvs_block_mask (db, dc, t->mask);
      if (dm > m)
        m = dm;

      for (guint i = 0; i < 8; i++) {
        for (guint j = 0; j < 8; j++) {
          gfloat err = abs (rc[i][j] - dc[i][j]);
          if (i != 0 || j != 0) {
            const gfloat threshold = m / t->mask[i * 8 + j];
            err = err < threshold ? 0 : err - threshold;
          }
          sum += (err * t->csf[i * 8 + j]) * (err * t->csf[i * 8 + j]);
        }
      }
      pixels += 64;
    }
  }
  sum /= pixels;
  sum /= peak * peak;
  return sum;
}

gdouble
vh_psnr_hvs_plane_c (const VhPsnrHvsPlane * ref, const VhPsnrHvsPlane * dis,
    guint width, guint height, guint bpc, const VhPsnrHvsTables * t)
{
  return hvs_plane_impl (ref, dis, width, height, bpc, t);
}

#ifdef VH_PSNR_HVS_HAVE_AVX2
/* AVX2 without FMA: the float arithmetic rounds as the plain build's. */
__attribute__ ((target ("avx2"))) gdouble
vh_psnr_hvs_plane_avx2 (const VhPsnrHvsPlane * ref,
    const VhPsnrHvsPlane * dis, guint width, guint height, guint bpc,
    const VhPsnrHvsTables * t)
{
  return hvs_plane_impl (ref, dis, width, height, bpc, t);
}
#endif
