/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The per-scale geometry and fixed-point constants of integer ADM, for the
 * HIP twin: the same computation as the CPU twin's (src/features/
 * integer-adm.c, setup_scale), expression for expression, since every
 * float/double rounding in it decides a constant the GPU must share. */

#include "hip-adm-priv.h"
#include "errors.h"

#include <math.h>

/* libvmaf's defaults; the CSF gains below depend on them. */
#define DEFAULT_VIEW_DIST 3.0
#define DEFAULT_DISPLAY_HEIGHT 1080

/* The float-to-unsigned conversions libvmaf relies on, as x86-64 performs
 * them for values out of range. */
static inline guint32
to_u32 (gdouble v)
{
  return (guint32) (gint64) v;
}

/* The same in libvmaf's AVX-512 code, built for AVX-512F, where an out of
 * range value saturates to all ones. */
static inline guint32
to_u32_avx512 (gdouble v)
{
  return v >= 0.0 && v < 4294967296.0 ? (guint32) v : G_MAXUINT32;
}

static inline guint16
to_u16 (gdouble v)
{
  return (guint16) (gint32) v;
}

gboolean
vh_hip_adm_setup_scale (VhAdmScale * sc, gint s, gint wi, gint hi,
    const VhAdmCsfParams * csf, gdouble noise_weight, GError ** error)
{
  gfloat f[2];
  gint l, t;

  sc->wi = wi;
  sc->hi = hi;
  sc->wb = (wi + 1) / 2;
  sc->hb = (hi + 1) / 2;

  sc->left = (gint) (sc->wb * 0.1 - 0.5);
  sc->top = (gint) (sc->hb * 0.1 - 0.5);
  sc->right = sc->wb - sc->left;
  sc->bottom = sc->hb - sc->top;
  l = (gint) (sc->wb * 0.1 - 0.5 - 1);
  t = (gint) (sc->hb * 0.1 - 0.5 - 1);
  sc->eleft = MAX (l, 0);
  sc->etop = MAX (t, 0);
  sc->eright = MIN (sc->wb - l + 2, sc->wb);
  sc->ebottom = MIN (sc->hb - t + 2, sc->hb);
  /* The AVX-512 decoupling loops step by 16 columns from eleft. */
  sc->round_x0 = sc->eleft;
  sc->round_x1 = sc->eright - (sc->eright - sc->eleft) % 16;

  if (!vh_adm_csf_factors (csf, s, f)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "adm: adm_csf_mode %d has no CSF for adm_ref_display_height %d "
        "and adm_norm_view_dist %g (supported: 480, 720, 1080 and 2160 "
        "at 3 or 5, and 2160 at 1.5)", csf->mode, csf->display_height,
        csf->view_dist);
    return FALSE;
  }
  sc->rfactor[0] = sc->rfactor[1] = f[0];
  sc->rfactor[2] = f[1];

  const gint area = (sc->bottom - sc->top) * (sc->right - sc->left);
  sc->noise_term = powf (area * noise_weight, 1.0f / 3.0f);

  const guint32 row_shift = (guint32) ceil (log2 (sc->hb));
  sc->cm_row_shift = row_shift;
  sc->cm_row_add = to_u32 (pow (2, row_shift - 1));

  if (s == 0) {
    sc->wide_x0 = sc->left;
    sc->wide_x1 = sc->right - (sc->right - sc->left) % 14;
    if (fabs (csf->view_dist * csf->display_height -
            DEFAULT_VIEW_DIST * DEFAULT_DISPLAY_HEIGHT) < 1.0e-8 &&
        csf->mode == VH_ADM_CSF_WATSON) {
      sc->gain16[0] = sc->gain16[1] = 36453;
      sc->gain16[2] = 49417;
    } else {
      sc->gain16[0] = to_u16 (sc->rfactor[0] * pow (2, 21));
      sc->gain16[1] = to_u16 (sc->rfactor[1] * pow (2, 21));
      sc->gain16[2] = to_u16 (sc->rfactor[2] * pow (2, 23));
    }
    for (gint b = 0; b < 3; b++) {
      gboolean diag = b == 2;
      guint32 cub = (guint32) ceil (log2 (sc->wb) - (diag ? 3 : 4));

      sc->csf_shift16[b] = diag ? 17 : 15;
      sc->csf_add16[b] = diag ? 65535 : 16384;
      sc->cm_sub[b] = diag ? 12 : 10;
      sc->cm_sq_shift[b] = diag ? 30 : 29;
      sc->cm_sq_add[b] = diag ? 536870912 : 268435456;
      sc->cm_cub_shift[b] = cub;
      sc->cm_cub_add[b] = to_u32 (pow (2, cub - 1));
    }
    sc->cm_norm = pow (2, (guint32) (52 - sc->cm_cub_shift[0] - row_shift));
    sc->cm_norm_d = pow (2, (guint32) (57 - sc->cm_cub_shift[2] - row_shift));

    gint den_shift = (gint) ceil (log2 (area) - 20);
    den_shift = MAX (den_shift, 0);
    sc->den_row_shift = den_shift;
    sc->den_row_add = den_shift > 0 ? 1u << (den_shift - 1) : 0;
    sc->den_norm = pow (2, 18 - den_shift);
  } else {
    static const gint cm_final[3] = { 45, 39, 36 };
    static const gint den_sq[3] = { 31, 30, 31 };
    static const gint den_final[3] = { 32, 27, 23 };
    const guint32 cub = (guint32) ceil (log2 (sc->wb));

    /* Vector block of the AVX-512 masking code: six columns a step, rows
     * and columns clear of the picture edges. */
    if (sc->left > 0) {
      sc->signed_x0 = sc->left;
      sc->signed_x1 = sc->right - (sc->right - sc->left) % 6;
      sc->signed_y0 = MAX (sc->top, 1);
      sc->signed_y1 = MIN (sc->bottom, sc->hb - 1);
    }

    for (gint b = 0; b < 3; b++) {
      sc->gain32[b] = to_u32_avx512 (sc->rfactor[b] * pow (2, 32));
      if (sc->gain32[b] >= (1u << 28))
        sc->wide_gains = TRUE;
      sc->cm_sub[b] = 0;
      sc->cm_sq_shift[b] = 30;
      sc->cm_sq_add[b] = 536870912;
      sc->cm_cub_shift[b] = cub;
      sc->cm_cub_add[b] = to_u32 (pow (2, cub - 1));
    }
    sc->cm_norm_f = pow (2, (guint32) (cm_final[s - 1] - cub - row_shift));

    const guint32 dcub = (guint32) ceil (log2 (sc->right - sc->left));
    const guint32 drow = (guint32) ceil (log2 (sc->bottom - sc->top));
    sc->den_sq_shift = den_sq[s - 1];
    sc->den_sq_add = 1u << den_sq[s - 1];
    sc->den_cub_shift = dcub;
    sc->den_cub_add = to_u32 (pow (2, dcub - 1));
    sc->den_row_shift = drow;
    sc->den_row_add = to_u32 (pow (2, drow - 1));
    sc->den_norm = pow (2, (guint32) (den_final[s - 1] - drow - dcub));
  }
  return TRUE;
}
