/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Bodies of the portable ADM row kernels, inlined twice: into the
 * portable table, and into AVX2-targeted copies that the compiler may
 * vectorise with wider registers. Integer arithmetic only, apart from the
 * float/double expressions libvmaf itself evaluates (never contracted:
 * the project builds in ISO C mode and no FMA target is enabled). Every
 * rounding, shift and width follows libvmaf's fixed-point pipeline; where
 * its int32 arithmetic can wrap, unsigned arithmetic gives the wrap
 * without undefined behaviour. */

#ifndef __VH_ADM_KERNELS_BODY_H__
#define __VH_ADM_KERNELS_BODY_H__

#include "adm-private.h"

#include <math.h>
#include <stdlib.h>

#define VH_ADM_BODY static inline __attribute__ ((always_inline))

VH_ADM_BODY gint32
vh_adm_abs32 (gint32 v)
{
  /* abs (INT32_MIN) stays INT32_MIN, as the hardware gives it. */
  return v < 0 ? (gint32) (0u - (guint32) v) : v;
}

/* ------------------------------------------------------------------ */
/* Scale 0 wavelet                                                     */

/* Centring the samples first (s - 2^(bpc-1)) gives libvmaf's value
 * (taps * s - lo_sum * 2^(bpc-1) + 2^(bpc-1)) >> bpc without its int32
 * wrap: the high-pass taps sum to zero and the low-pass ones to lo_sum. */
VH_ADM_BODY void
body_dwt0_vert_8 (const guint8 * r0, const guint8 * r1, const guint8 * r2,
    const guint8 * r3, gint16 * lo, gint16 * hi, gint w)
{
  for (gint j = 0; j < w; j++) {
    gint32 s0 = r0[j] - 128, s1 = r1[j] - 128;
    gint32 s2 = r2[j] - 128, s3 = r3[j] - 128;
    gint32 l = VH_ADM_LO0 * s0 + VH_ADM_LO1 * s1 + VH_ADM_LO2 * s2 +
        VH_ADM_LO3 * s3;
    gint32 h = VH_ADM_HI0 * s0 + VH_ADM_HI1 * s1 + VH_ADM_HI2 * s2 +
        VH_ADM_HI3 * s3;
    lo[j] = (gint16) ((l + 128) >> 8);
    hi[j] = (gint16) ((h + 128) >> 8);
  }
}

VH_ADM_BODY void
body_dwt0_vert_16 (const guint16 * r0, const guint16 * r1, const guint16 * r2,
    const guint16 * r3, gint16 * lo, gint16 * hi, gint w, gint bpc)
{
  const gint32 half = 1 << (bpc - 1);

  for (gint j = 0; j < w; j++) {
    gint32 s0 = r0[j] - half, s1 = r1[j] - half;
    gint32 s2 = r2[j] - half, s3 = r3[j] - half;
    gint32 l = VH_ADM_LO0 * s0 + VH_ADM_LO1 * s1 + VH_ADM_LO2 * s2 +
        VH_ADM_LO3 * s3;
    gint32 h = VH_ADM_HI0 * s0 + VH_ADM_HI1 * s1 + VH_ADM_HI2 * s2 +
        VH_ADM_HI3 * s3;
    lo[j] = (gint16) ((l + half) >> bpc);
    hi[j] = (gint16) ((h + half) >> bpc);
  }
}

VH_ADM_BODY void
dwt0_horz_at (const gint16 * src, gint16 * lo, gint16 * hi, gint wi, gint j)
{
  gint32 s0 = src[vh_adm_tap (j, 0, wi)];
  gint32 s1 = src[vh_adm_tap (j, 1, wi)];
  gint32 s2 = src[vh_adm_tap (j, 2, wi)];
  gint32 s3 = src[vh_adm_tap (j, 3, wi)];
  gint32 l = VH_ADM_LO0 * s0 + VH_ADM_LO1 * s1 + VH_ADM_LO2 * s2 +
      VH_ADM_LO3 * s3;
  gint32 h = VH_ADM_HI0 * s0 + VH_ADM_HI1 * s1 + VH_ADM_HI2 * s2 +
      VH_ADM_HI3 * s3;

  lo[j] = (gint16) ((l + 32768) >> 16);
  hi[j] = (gint16) ((h + 32768) >> 16);
}

/* Output j reads input 2j - 1 .. 2j + 2: the interior needs no mirror. */
VH_ADM_BODY gint
dwt_interior_end (gint wi)
{
  return (wi - 3) / 2 + 1;
}

VH_ADM_BODY void
body_dwt0_horz (const gint16 * src, gint16 * lo, gint16 * hi, gint wi)
{
  const gint wb = (wi + 1) / 2, end = dwt_interior_end (wi);

  dwt0_horz_at (src, lo, hi, wi, 0);
  for (gint j = 1; j < end; j++) {
    gint32 s0 = src[2 * j - 1], s1 = src[2 * j];
    gint32 s2 = src[2 * j + 1], s3 = src[2 * j + 2];
    gint32 l = VH_ADM_LO0 * s0 + VH_ADM_LO1 * s1 + VH_ADM_LO2 * s2 +
        VH_ADM_LO3 * s3;
    gint32 h = VH_ADM_HI0 * s0 + VH_ADM_HI1 * s1 + VH_ADM_HI2 * s2 +
        VH_ADM_HI3 * s3;
    lo[j] = (gint16) ((l + 32768) >> 16);
    hi[j] = (gint16) ((h + 32768) >> 16);
  }
  for (gint j = MAX (end, 1); j < wb; j++)
    dwt0_horz_at (src, lo, hi, wi, j);
}

/* ------------------------------------------------------------------ */
/* Scales 1-3 wavelet: 32-bit samples, 64-bit sums                     */

/* @narrow: the samples fit 16 bits (scale 1), so the sums fit 32 bits. */
VH_ADM_BODY void
body_dwt_vert_s123 (const gint32 * r0, const gint32 * r1, const gint32 * r2,
    const gint32 * r3, gint32 * lo, gint32 * hi, gint w, gint64 add,
    gint shift, gboolean narrow)
{
  if (narrow && shift == 0) {
    for (gint j = 0; j < w; j++) {
      gint32 s0 = r0[j], s1 = r1[j], s2 = r2[j], s3 = r3[j];
      lo[j] = VH_ADM_LO0 * s0 + VH_ADM_LO1 * s1 + VH_ADM_LO2 * s2 +
          VH_ADM_LO3 * s3;
      hi[j] = VH_ADM_HI0 * s0 + VH_ADM_HI1 * s1 + VH_ADM_HI2 * s2 +
          VH_ADM_HI3 * s3;
    }
    return;
  }
  for (gint j = 0; j < w; j++) {
    gint64 s0 = r0[j], s1 = r1[j], s2 = r2[j], s3 = r3[j];
    gint64 l = VH_ADM_LO0 * s0 + VH_ADM_LO1 * s1 + VH_ADM_LO2 * s2 +
        VH_ADM_LO3 * s3;
    gint64 h = VH_ADM_HI0 * s0 + VH_ADM_HI1 * s1 + VH_ADM_HI2 * s2 +
        VH_ADM_HI3 * s3;
    lo[j] = (gint32) ((l + add) >> shift);
    hi[j] = (gint32) ((h + add) >> shift);
  }
}

VH_ADM_BODY void
dwt_horz_s123_at (const gint32 * src, gint32 * lo, gint32 * hi, gint wi,
    gint64 add, gint shift, gint j)
{
  gint64 s0 = src[vh_adm_tap (j, 0, wi)];
  gint64 s1 = src[vh_adm_tap (j, 1, wi)];
  gint64 s2 = src[vh_adm_tap (j, 2, wi)];
  gint64 s3 = src[vh_adm_tap (j, 3, wi)];
  gint64 l = VH_ADM_LO0 * s0 + VH_ADM_LO1 * s1 + VH_ADM_LO2 * s2 +
      VH_ADM_LO3 * s3;
  gint64 h = VH_ADM_HI0 * s0 + VH_ADM_HI1 * s1 + VH_ADM_HI2 * s2 +
      VH_ADM_HI3 * s3;

  lo[j] = (gint32) ((l + add) >> shift);
  hi[j] = (gint32) ((h + add) >> shift);
}

VH_ADM_BODY void
body_dwt_horz_s123 (const gint32 * src, gint32 * lo, gint32 * hi, gint wi,
    gint64 add, gint shift)
{
  const gint wb = (wi + 1) / 2, end = dwt_interior_end (wi);

  dwt_horz_s123_at (src, lo, hi, wi, add, shift, 0);
  for (gint j = 1; j < end; j++) {
    gint64 s0 = src[2 * j - 1], s1 = src[2 * j];
    gint64 s2 = src[2 * j + 1], s3 = src[2 * j + 2];
    gint64 l = VH_ADM_LO0 * s0 + VH_ADM_LO1 * s1 + VH_ADM_LO2 * s2 +
        VH_ADM_LO3 * s3;
    gint64 h = VH_ADM_HI0 * s0 + VH_ADM_HI1 * s1 + VH_ADM_HI2 * s2 +
        VH_ADM_HI3 * s3;
    lo[j] = (gint32) ((l + add) >> shift);
    hi[j] = (gint32) ((h + add) >> shift);
  }
  for (gint j = MAX (end, 1); j < wb; j++)
    dwt_horz_s123_at (src, lo, hi, wi, add, shift, j);
}

/* ------------------------------------------------------------------ */
/* Denominator rows                                                    */

VH_ADM_BODY guint64
body_den0_row (const gint16 * b, gint x0, gint x1)
{
  guint64 sum = 0;

  for (gint j = x0; j < x1; j++) {
    guint32 m = (guint16) abs (b[j]);
    sum += (guint64) (m * m) * m;
  }
  return sum;
}

VH_ADM_BODY guint64
body_den_row_s123 (const VhAdmScale * sc, const gint32 * b, gint x0, gint x1)
{
  const gint sq_shift = sc->den_sq_shift, cub_shift = sc->den_cub_shift;
  const guint64 sq_add = sc->den_sq_add, cub_add = sc->den_cub_add;
  guint64 sum = 0;

  for (gint j = x0; j < x1; j++) {
    guint64 m = (guint32) vh_adm_abs32 (b[j]);
    guint64 sq = (m * m + sq_add) >> sq_shift;
    sum += (sq * m + cub_add) >> cub_shift;
  }
  return sum;
}

/* ------------------------------------------------------------------ */
/* Decoupling into restored and additive parts, then CSF               */

/* The "angle below one degree" test, evaluated with libvmaf's float
 * roundings of its 64-bit integer products. */
VH_ADM_BODY gboolean
angle_below_1deg (gint64 oh, gint64 ov, gint64 th, gint64 tv, gfloat cos1_sq)
{
  gint64 ot_dp = oh * th + ov * tv;
  gint64 o_mag_sq = oh * oh + ov * ov;
  gint64 t_mag_sq = th * th + tv * tv;
  gdouble dp = (gfloat) ot_dp / 4096.0;

  return dp >= 0.0f && dp * dp >= cos1_sq * ((gfloat) o_mag_sq / 4096.0) *
      ((gfloat) t_mag_sq / 4096.0);
}

/* Restored part @rst of @t given the ratio @k (Q15) of t over o, with the
 * enhancement gain applied where the angles agree; @nearest rounds the
 * boosted value to the nearest integer before comparing, as the vector
 * code does, instead of truncating the result. */
VH_ADM_BODY gint64
enhance (gint64 rst, gint64 k, gint64 o, gint64 t, gboolean angle,
    gdouble limit, gboolean nearest)
{
  if (angle && k > 0 && o != 0) {
    gdouble boosted = (gdouble) rst * limit;
    if (nearest) {
      gint64 b = (gint64) rint (boosted);
      return o > 0 ? MIN (b, t) : MAX (b, t);
    }
    if (o > 0)
      return boosted < (gdouble) t ? (gint64) boosted : t;
    return boosted > (gdouble) t ? (gint64) boosted : t;
  }
  return rst;
}

VH_ADM_BODY void
body_decouple0_row (const VhAdmScale * sc, const VhAdmDecouple * dc,
    const gint16 * const ref[3], const gint16 * const dis[3],
    const VhAdmRows * out, gint x0, gint x1)
{
  for (gint j = x0; j < x1; j++) {
    gboolean angle = angle_below_1deg (ref[0][j], ref[1][j], dis[0][j],
        dis[1][j], dc->cos1_sq);
    gboolean wide = j >= sc->wide_x0 && j < sc->wide_x1;
    gboolean nearest = j >= sc->round_x0 && j < sc->round_x1;
    gint32 fr = 0, kr = 0, fa = 0, ka = 0;

    for (gint b = 0; b < 3; b++) {
      gint32 o = ref[b][j], t = dis[b][j];
      gint32 k;
      gint16 r, a;

      if (o == 0) {
        k = 32768;
      } else {
        gint64 q = ((gint64) dc->div_lut[o] * t + 16384) >> 15;
        k = (gint32) CLAMP (q, 0, 32768);
      }
      r = (gint16) enhance ((k * o + 16384) >> 15, k, o, t, angle,
          dc->gain_limit, nearest);
      a = (gint16) (t - r);

      /* CSF of both parts; the masking filter input is |csf| / 30 and the
       * centre term of the threshold |csf| / 15, both rounded to int16
       * (the vector code takes the filter input before that rounding). */
      gint32 cr32 = (sc->gain16[b] * r + sc->csf_add16[b]) >>
          sc->csf_shift16[b];
      gint32 ca32 = (sc->gain16[b] * a + sc->csf_add16[b]) >>
          sc->csf_shift16[b];
      gint16 cr = (gint16) cr32, ca = (gint16) ca32;
      gint16 f_r = (gint16) ((4369 * abs (nearest ? cr32 : cr) + 2048) >> 12);
      gint16 f_a = (gint16) ((4369 * abs (nearest ? ca32 : ca) + 2048) >> 12);
      gint32 c_r = (8738 * abs (cr) + 2048) >> 12;
      gint32 c_a = (8738 * abs (ca) + 2048) >> 12;

      if (!wide) {
        c_r = (gint16) c_r;
        c_a = (gint16) c_a;
      }
      fr += f_r;
      kr += c_r - f_r;
      fa += f_a;
      ka += c_a - f_a;
      out->xr[b][j] = abs (sc->gain16[b] * r);
      out->xa[b][j] = abs (sc->gain16[b] * a);
    }
    out->fr[j] = fr;
    out->kr[j] = kr;
    out->fa[j] = fa;
    out->ka[j] = ka;
  }
}

/* Q15 ratio t / o with libvmaf's reciprocal table: large |o| is first
 * rounded to 15 significant bits. */
VH_ADM_BODY gint64
ratio_s123 (const gint32 * div_lut, gint32 o, gint32 t)
{
  guint32 mag = (guint32) vh_adm_abs32 (o);
  gint shift = 0;
  gint64 q;

  if (o == 0)
    return 32768;
  if (mag >= 32768) {
    shift = 17 - __builtin_clz (mag);
    mag = (mag + (1u << (shift - 1))) >> shift;
  }
  q = (gint64) div_lut[(gint32) mag] * t;
  if (o < 0)
    q = -q;
  /* The rounding term is an int in libvmaf: it wraps for |o| = 2^31. */
  q = (q + (gint32) (1u << (14 + shift))) >> (15 + shift);
  return CLAMP (q, 0, 32768);
}

/* 32.32 CSF gain; @as_signed reads the gain as a signed number, as the
 * vector code does. */
VH_ADM_BODY gint32
csf32 (guint32 gain, gint32 v, gboolean as_signed)
{
  gint64 g = as_signed ? (gint64) (gint32) gain : (gint64) gain;

  return (gint32) ((g * v + (1 << 27)) >> 28);
}

/* |gain * v| in 32.32 with the gain read as signed and no final wrap to
 * 32 bits, as the vector masking code computes it. */
VH_ADM_BODY gint64
csf64_signed (guint32 gain, gint32 v)
{
  gint64 c = ((gint64) (gint32) gain * v + (1 << 27)) >> 28;

  return c < 0 ? -c : c;
}

VH_ADM_BODY void
body_decouple_s123_row (const VhAdmScale * sc, const VhAdmDecouple * dc,
    const gint32 * const ref[3], const gint32 * const dis[3],
    const VhAdmRows64 * out, gint y, gint x0, gint x1)
{
  const gboolean signed_row = y >= sc->signed_y0 && y < sc->signed_y1;
  /* libvmaf adds -2^31 (a wrapped 1u << 31) before the final >> 32. */
  const gint64 round = -((gint64) 1 << 31);

  for (gint j = x0; j < x1; j++) {
    gboolean angle = angle_below_1deg (ref[0][j], ref[1][j], dis[0][j],
        dis[1][j], dc->cos1_sq);
    gboolean nearest = j >= sc->round_x0 && j < sc->round_x1;
    gboolean vec_cm = signed_row && j >= sc->signed_x0 && j < sc->signed_x1;
    gint64 fr = 0, kr = 0, fa = 0, ka = 0;

    for (gint b = 0; b < 3; b++) {
      gint32 o = ref[b][j], t = dis[b][j];
      gint64 k = ratio_s123 (dc->div_lut, o, t);
      gint32 r, a, cr, ca, f_r, f_a, c_r, c_a;

      r = (gint32) enhance ((k * o + 16384) >> 15, k, o, t, angle,
          dc->gain_limit, nearest);
      a = (gint32) ((guint32) t - (guint32) r);

      cr = csf32 (sc->gain32[b], r, nearest);
      ca = csf32 (sc->gain32[b], a, nearest);
      f_r = (gint32) ((143165577LL * vh_adm_abs32 (cr) + round) >> 32);
      f_a = (gint32) ((143165577LL * vh_adm_abs32 (ca) + round) >> 32);
      c_r = (gint32) ((286331153LL * vh_adm_abs32 (cr) + round) >> 32);
      c_a = (gint32) ((286331153LL * vh_adm_abs32 (ca) + round) >> 32);

      fr += f_r;
      kr += (gint64) c_r - f_r;
      fa += f_a;
      ka += (gint64) c_a - f_a;
      if (!sc->wide_gains) {
        /* Gains below 2^28: every variant of the product agrees. */
        out->xr[b][j] = vh_adm_abs32 (cr);
        out->xa[b][j] = vh_adm_abs32 (ca);
      } else if (vec_cm) {
        out->xr[b][j] = csf64_signed (sc->gain32[b], r);
        out->xa[b][j] = csf64_signed (sc->gain32[b], a);
      } else {
        out->xr[b][j] = vh_adm_abs32 (csf32 (sc->gain32[b], r, FALSE));
        out->xa[b][j] = vh_adm_abs32 (csf32 (sc->gain32[b], a, FALSE));
      }
    }
    out->fr[j] = fr;
    out->kr[j] = kr;
    out->fa[j] = fa;
    out->ka[j] = ka;
  }
}

/* ------------------------------------------------------------------ */
/* Contrast masking sums                                               */

VH_ADM_BODY gint64
body_cm_row (const VhAdmScale * sc, gint band, const gint32 * x,
    const gint32 * thr, gint x0, gint x1)
{
  const gint sub = sc->cm_sub[band];
  const gint sq_shift = sc->cm_sq_shift[band];
  const gint64 sq_add = sc->cm_sq_add[band];
  const gint cub_shift = sc->cm_cub_shift[band];
  const gint64 cub_add = sc->cm_cub_add[band];
  guint64 sum = 0;

  for (gint j = x0; j < x1; j++) {
    gint32 v = (gint32) ((guint32) x[j] - ((guint32) thr[j] << sub));
    gint32 sq;

    v = MAX (v, 0);
    sq = (gint32) (((gint64) v * v + sq_add) >> sq_shift);
    sum += (guint64) (((gint64) sq * v + cub_add) >> cub_shift);
  }
  return (gint64) sum;
}

VH_ADM_BODY gint64
body_cm_row_s123 (const VhAdmScale * sc, const gint64 * x,
    const gint64 * thr, gint y, gint x0, gint x1)
{
  const gint sq_shift = sc->cm_sq_shift[0];
  const gint64 sq_add = sc->cm_sq_add[0];
  const gint cub_shift = sc->cm_cub_shift[0];
  const gint64 cub_add = sc->cm_cub_add[0];
  const gboolean vec_row = y >= sc->signed_y0 && y < sc->signed_y1;
  const gint vx0 = vec_row ? sc->signed_x0 : 0;
  const gint vx1 = vec_row ? sc->signed_x1 : 0;
  guint64 sum = 0;

  for (gint j = x0; j < x1; j++) {
    gint32 v, sq;

    if (j >= vx0 && j < vx1) {
      /* The vector code subtracts and clamps in 64 bits, then multiplies
       * the low 32 bits. */
      gint64 d = x[j] - thr[j];
      v = (gint32) MAX (d, 0);
    } else {
      v = (gint32) ((guint32) x[j] - (guint32) thr[j]);
      v = MAX (v, 0);
    }
    sq = (gint32) (((gint64) v * v + sq_add) >> sq_shift);
    sum += (guint64) (((gint64) sq * v + cub_add) >> cub_shift);
  }
  return (gint64) sum;
}

#endif /* __VH_ADM_KERNELS_BODY_H__ */
