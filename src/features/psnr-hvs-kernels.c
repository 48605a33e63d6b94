/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* PSNR-HVS per plane, eight blocks at a time. Integer work (sample sums,
 * the DCT) is exact; every float operation of a block is libvmaf's, in its
 * order, since their rounding shows in the sixth decimal otherwise. */

#include "psnr-hvs-private.h"

#include <math.h>

/* The vector helpers are inlined into each build (plain, AVX2), so their
 * calling convention never matters. */
#pragma GCC diagnostic ignored "-Wpsabi"

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

/* Eight blocks side by side, one in each lane: every lane does exactly
 * the arithmetic of one block, in the same order, so the float roundings
 * are libvmaf's; only the final sum over all blocks stays serial. */
#define HVS_LANES 8
typedef gint32 HvsI __attribute__ ((vector_size (HVS_LANES * 4)));
typedef guint32 HvsU __attribute__ ((vector_size (HVS_LANES * 4)));
typedef gfloat HvsF __attribute__ ((vector_size (HVS_LANES * 4)));

/* Rounding right shift of Daala's transforms: adds the sign bit before
 * shifting so that negative values round like positive ones. */
static inline __attribute__ ((always_inline)) HvsI
hvs_rshift (HvsI a, guint b)
{
  return (HvsI) (((HvsU) a >> (32 - b)) + (HvsU) a) >> b;
}

/* Multiplies by @m / 2^@s, rounded (the lifting steps); wraps as libvmaf's
 * int arithmetic does. */
static inline __attribute__ ((always_inline)) HvsI
hvs_mul (HvsI a, guint32 m, guint s)
{
  return (HvsI) ((HvsU) a * m + (1u << (s - 1))) >> s;
}

/* Daala's 8-point integer DCT-II (od_bin_fdct8): @x[k] is sample k of the
 * line in each lane, @y[k] its coefficient k. */
static inline __attribute__ ((always_inline)) void
hvs_fdct8 (HvsI y[8], const HvsI x[8])
{
  HvsI t0 = x[0], t4 = x[1], t2 = x[2], t6 = x[3];
  HvsI t7 = x[4], t3 = x[5], t5 = x[6], t1 = x[7];
  HvsI t1h, t4h, t6h;

  /* Butterflies. */
  t1 = t0 - t1;
  t1h = hvs_rshift (t1, 1);
  t0 -= t1h;
  t4 += t5;
  t4h = hvs_rshift (t4, 1);
  t5 -= t4h;
  t3 = t2 - t3;
  t2 -= hvs_rshift (t3, 1);
  t6 += t7;
  t6h = hvs_rshift (t6, 1);
  t7 = t6h - t7;
  /* The embedded 4-point DCT-II... */
  t0 += t6h;
  t6 = t0 - t6;
  t2 = t4h - t2;
  t4 = t2 - t4;
  /* ...its 2-point DCT-II: a rotation by pi/4 as three lifts... */
  t0 -= hvs_mul (t4, 13573, 15);
  t4 += hvs_mul (t0, 11585, 14);
  t0 -= hvs_mul (t4, 13573, 15);
  /* ...and 2-point DST-IV (3 pi / 8). */
  t6 -= hvs_mul (t2, 21895, 15);
  t2 += hvs_mul (t6, 15137, 14);
  t6 -= hvs_mul (t2, 21895, 15);
  /* The embedded 4-point DST-IV. */
  t3 += hvs_mul (t5, 19195, 15);
  t5 += hvs_mul (t3, 11585, 14);
  t3 -= hvs_mul (t5, 7489, 13);
  t7 = hvs_rshift (t5, 1) - t7;
  t5 -= t7;
  t3 = t1h - t3;
  t1 -= t3;
  t7 += hvs_mul (t1, 3227, 15);
  t1 -= hvs_mul (t7, 6393, 15);
  t7 += hvs_mul (t1, 3227, 15);
  t5 += hvs_mul (t3, 2485, 13);
  t3 -= hvs_mul (t5, 18205, 15);
  t5 += hvs_mul (t3, 2485, 13);

  y[0] = t0;
  y[1] = t1;
  y[2] = t2;
  y[3] = t3;
  y[4] = t4;
  y[5] = t5;
  y[6] = t6;
  y[7] = t7;
}

/* 2-D DCT as od_bin_fdct8x8: columns, then rows of the result. @c[i][j]:
 * vertical frequency i, horizontal j. */
static inline __attribute__ ((always_inline)) void
hvs_fdct8x8 (HvsI c[8][8], const HvsI b[8][8])
{
  HvsI cols[8][8], line[8], out[8];

  for (guint x = 0; x < 8; x++) {
    for (guint k = 0; k < 8; k++)
      line[k] = b[k][x];
    hvs_fdct8 (out, line);
    for (guint k = 0; k < 8; k++)
      cols[k][x] = out[k];
  }
  for (guint i = 0; i < 8; i++)
    hvs_fdct8 (c[i], cols[i]);
}

/* The 8x8 blocks at @x[lane], row @y. */
static inline __attribute__ ((always_inline)) void
hvs_load_blocks (HvsI b[8][8], const VhPsnrHvsPlane * p, const guint * x,
    guint y, gboolean deep)
{
  for (guint i = 0; i < 8; i++) {
    const guint8 *row = p->data + (gsize) (y + i) * p->stride;
    for (guint l = 0; l < HVS_LANES; l++) {
      if (deep) {
        const guint16 *r16 = (const guint16 *) row + (gsize) x[l] * p->step;
        for (guint j = 0; j < 8; j++)
          b[i][j][l] = r16[j * p->step];
      } else {
        const guint8 *r8 = row + (gsize) x[l] * p->step;
        for (guint j = 0; j < 8; j++)
          b[i][j][l] = r8[j * p->step];
      }
    }
  }
}

/* Lane-wise @mask ? @a : @b (C has no vector conditional). */
static inline __attribute__ ((always_inline)) HvsF
hvs_select (HvsI mask, HvsF a, HvsF b)
{
  return (HvsF) (((HvsI) a & mask) | ((HvsI) b & ~mask));
}

/* Masking strength of blocks @b with DCT @c: the AC energy weighted by the
 * masking table, scaled by how much of the block's variance its four 4x4
 * quarters keep. */
static inline __attribute__ ((always_inline)) HvsF
hvs_block_mask (HvsI b[8][8], HvsI c[8][8], const gfloat * mask)
{
  HvsI total = { }, quarter[4] = { };
  HvsF mean, means[4], var = { }, vars[4] = { }, energy = { }, ratio, m;

  /* Sample sums are exact in float, so integer sums give libvmaf's. */
  for (guint i = 0; i < 8; i++)
    for (guint j = 0; j < 8; j++) {
      total += b[i][j];
      quarter[(i >> 2) + ((j >> 2) << 1)] += b[i][j];
    }
  mean = __builtin_convertvector (total, HvsF) / 64.f;
  for (guint q = 0; q < 4; q++)
    means[q] = __builtin_convertvector (quarter[q], HvsF) / 16.f;

  for (guint i = 0; i < 8; i++)
    for (guint j = 0; j < 8; j++) {
      const guint q = (i >> 2) + ((j >> 2) << 1);
      const HvsF v = __builtin_convertvector (b[i][j], HvsF);
      var += (v - mean) * (v - mean);
      vars[q] += (v - means[q]) * (v - means[q]);
    }
  /* Unbiased variances (n - 1) of the block and its quarters. */
  var *= 1 / 63.f * 64;
  for (guint q = 0; q < 4; q++)
    vars[q] *= 1 / 15.f * 16;
  ratio = (vars[0] + vars[1] + vars[2] + vars[3]) / var;
  var = hvs_select (var > 0, ratio, var);

  for (guint i = 0; i < 8; i++)
    for (guint j = (i == 0); j < 8; j++)
      energy += __builtin_convertvector (c[i][j] * c[i][j], HvsF) *
          mask[i * 8 + j];
  /* libvmaf: float (sqrt (double) / 32); a double square root rounded to
   * float is the float square root, and / 32 is exact. */
  m = energy * var;
  for (guint l = 0; l < HVS_LANES; l++)
    m[l] = sqrtf (m[l]) / 32.f;
  return m;
}

static inline __attribute__ ((always_inline)) gdouble
hvs_plane_impl (const VhPsnrHvsPlane * ref, const VhPsnrHvsPlane * dis,
    guint width, guint height, guint bpc, const VhPsnrHvsTables * t)
{
  const gboolean deep = bpc > 8;
  const guint n_across = width >= 8 ? (width - 8) / 7 + 1 : 0;
  gfloat sum = 0;
  gint pixels = 0;

  for (gint y = 0; y < (gint) height - 7; y += 7) {
    for (guint first = 0; first < n_across; first += HVS_LANES) {
      const guint n = MIN (HVS_LANES, n_across - first);
      HvsI rb[8][8], db[8][8], rc[8][8], dc[8][8];
      HvsF m, dm, terms[64];
      guint x[HVS_LANES];

      /* Lanes past the last block repeat it and are not summed. */
      for (guint l = 0; l < HVS_LANES; l++)
        x[l] = 7 * (first + MIN (l, n - 1));
      hvs_load_blocks (rb, ref, x, y, deep);
      hvs_load_blocks (db, dis, x, y, deep);
      hvs_fdct8x8 (rc, rb);
      hvs_fdct8x8 (dc, db);
      /* The stronger of the two blocks' masking applies. */
      m = hvs_block_mask (rb, rc, t->mask);
      dm = hvs_block_mask (db, dc, t->mask);
      m = hvs_select (dm > m, dm, m);

      for (guint i = 0; i < 8; i++) {
        for (guint j = 0; j < 8; j++) {
          const HvsI d = rc[i][j] - dc[i][j];
          const HvsI neg = d < 0;
          HvsF err = __builtin_convertvector ((d & ~neg) | (-d & neg), HvsF);
          if (i != 0 || j != 0) {
            const HvsF threshold = m / t->mask[i * 8 + j];
            err = hvs_select (err < threshold, (HvsF) { }, err - threshold);
          }
          terms[i * 8 + j] = (err * t->csf[i * 8 + j]) *
              (err * t->csf[i * 8 + j]);
        }
      }
      for (guint l = 0; l < n; l++)
        for (guint k = 0; k < 64; k++)
          sum += terms[k][l];
      pixels += 64 * n;
    }
  }
  return vh_psnr_hvs_plane_score (sum, pixels, bpc);
}

gdouble
vh_psnr_hvs_plane_score (gfloat sum, gint pixels, guint bpc)
{
  const gint32 peak = (1 << bpc) - 1;

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
