/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Integer ADM (detail loss and additive impairment measures), bit-exact
 * with libvmaf's fixed-point "adm" extractor.
 *
 * Each of the four scales is one pass over band rows: the wavelet rows of
 * both pictures, the reference energy (denominator), the decoupling into
 * restored and additive parts with their CSF and masking inputs, kept in a
 * ring of three rows, and the masked sums of the row above, whose 3x3
 * neighbourhood is then complete.
 *
 * libvmaf's reference scores (the golden data) come from its AVX-512 code,
 * which departs from its portable code in a few places: the last wavelet
 * column at some widths, some roundings and some integer widths. Those
 * departures are reproduced, each where it applies. */

#include "feature-extractor.h"
#include "errors.h"
#include "integer-adm.h"
#include "simd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* libvmaf's limits: below 3 x 1080 the 16-bit pipeline cannot represent the
 * CSF gains. */
#define DEFAULT_VIEW_DIST 3.0
#define DEFAULT_DISPLAY_HEIGHT 1080

#define RING 3

#define ROUND_UP(v, a) (((v) + (a) - 1) / (a) * (a))

typedef struct
{
  gint32 *xr[3], *xa[3];
  gint32 *fr, *kr, *fa, *ka;
} RingRow;

typedef struct
{
  gint64 *xr[3], *xa[3];
  gint64 *fr, *kr, *fa, *ka;
} RingRow64;

typedef struct
{
  VhIntegerAdm adm;
  VhAdmKernels k;
  VhAdmDecouple dc;

  /* Approximation band of each picture, input of the next scale. */
  gint32 *plane[2][2];          /* [picture][ping-pong] */
  gint plane_stride;

  gint16 *tmp16[2][2];          /* scale 0 vertical pass, [picture][lo/hi] */
  gint32 *tmp32[2][2];          /* scales 1-3 */
  gint16 *band16[2][4];         /* scale 0 band rows: a, h, v, d */
  gint32 *band32[2][4];

  RingRow ring[RING];           /* scale 0 */
  RingRow64 ring64[RING];       /* scales 1-3 */
  gint32 *vsum;                 /* vertical 3-sums, one sample of margin */
  gint32 *thr;
  gint64 *vsum64;
  gint64 *thr64;
  gint32 stale[VH_ADM_N_SCALES][2];     /* see keep_stale () */

  gpointer block;               /* one allocation for all of the above */
} AdmPriv;

const gchar *const vh_integer_adm_provides[] = {
  "integer_adm2", "integer_aim", "integer_adm3",
  "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2",
  "integer_adm_scale3", NULL
};

const VhOptionSpec vh_integer_adm_options[] = {
  {"debug", NULL,
        "also output integer_adm, its numerator and denominator, and those "
        "of every scale",
      VH_OPTION_BOOL, 0, 0, 1, 0},
  {"adm_csf_scale", "scf",
        "gain of the horizontal and vertical CSF terms (Barten CSF)",
      VH_OPTION_DOUBLE, 1.0, 0.0, 50.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_csf_diag_scale", "scfd", "gain of the diagonal CSF term (Barten CSF)",
      VH_OPTION_DOUBLE, 1.0, 0.0, 50.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_dlm_weight", "dlmw",
        "weight of the detail loss measure against AIM in adm3 (1: DLM only)",
      VH_OPTION_DOUBLE, 0.5, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_enhn_gain_limit", "egl",
        "enhancement gain limit, >= 1.0; 1.0 disables enhancement gain",
      VH_OPTION_DOUBLE, 100.0, 1.0, 100.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_norm_view_dist", "nvd",
        "viewing distance divided by the display height",
        VH_OPTION_DOUBLE, DEFAULT_VIEW_DIST, 0.75, 24.0,
      VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_ref_display_height", "rdh", "reference display height in pixels",
        VH_OPTION_INT, DEFAULT_DISPLAY_HEIGHT, 1, 4320,
      VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_csf_mode", "csf",
        "contrast sensitivity function: 0 Watson, 1 Barten, "
        "2 Barten-Watson blend, 3 blend with the MAE fit",
      VH_OPTION_INT, VH_ADM_CSF_WATSON, 0, 3, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_noise_weight", "nw", "noise floor weight",
      VH_OPTION_DOUBLE, 0.03125, 0.0, 1500.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_skip_aim", NULL, "skip the AIM computation",
      VH_OPTION_BOOL, 0, 0, 1, 0},
  {"adm_skip_scale0", "ssz", "skip scale 0",
      VH_OPTION_BOOL, 0, 0, 1, VH_OPTION_FLAG_FEATURE_PARAM},
  {"adm_min_val", "min", "lower clip of adm3",
      VH_OPTION_DOUBLE, 0.0, 0.0, 1.0, VH_OPTION_FLAG_FEATURE_PARAM},
  {NULL}
};

/* 2^30 / i for i in [-32768, 32768], immutable once built. */
static gint32 div_table[65537];

static gpointer
build_div_table (gpointer data)
{
  for (gint i = 1; i <= 32768; i++) {
    gint32 q = (1 << 30) / i;
    div_table[32768 + i] = q;
    div_table[32768 - i] = -q;
  }
  return NULL;
}

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

static gboolean
setup_scale (VhAdmScale * sc, gint s, gint wi, gint hi,
    const VhAdmCsfParams * csf, gdouble noise_weight, GError ** error)
{
  gfloat f[2];
  gint l, t;

  /* Some fields are set for some scales only. */
  memset (sc, 0, sizeof (*sc));
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

gboolean
vh_integer_adm_setup (VhIntegerAdm * adm, const VhFeatureExtractor * fex,
    const VhPictureInfo * info, GError ** error)
{
  VhAdmCsfParams csf;
  gdouble noise_weight;
  gint w = info->width, h = info->height;

  csf.mode = (VhAdmCsfMode) vh_feature_extractor_get_option (fex,
      "adm_csf_mode");
  csf.view_dist = vh_feature_extractor_get_option (fex, "adm_norm_view_dist");
  csf.display_height = (gint) vh_feature_extractor_get_option (fex,
      "adm_ref_display_height");
  csf.csf_scale = vh_feature_extractor_get_option (fex, "adm_csf_scale");
  csf.csf_diag_scale = vh_feature_extractor_get_option (fex,
      "adm_csf_diag_scale");
  noise_weight = vh_feature_extractor_get_option (fex, "adm_noise_weight");
  adm->gain_limit = vh_feature_extractor_get_option (fex,
      "adm_enhn_gain_limit");
  adm->dlm_weight = vh_feature_extractor_get_option (fex, "adm_dlm_weight");
  adm->min_val = vh_feature_extractor_get_option (fex, "adm_min_val");
  adm->skip_aim = vh_feature_extractor_get_option (fex, "adm_skip_aim") != 0;
  adm->debug = vh_feature_extractor_get_option (fex, "debug") != 0;
  adm->skip_scale0 =
      vh_feature_extractor_get_option (fex, "adm_skip_scale0") != 0;

  if (csf.view_dist * csf.display_height <
      DEFAULT_VIEW_DIST * DEFAULT_DISPLAY_HEIGHT) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "adm: adm_norm_view_dist x adm_ref_display_height must be at least "
        "%g (got %g x %d)", DEFAULT_VIEW_DIST * DEFAULT_DISPLAY_HEIGHT,
        csf.view_dist, csf.display_height);
    return FALSE;
  }
  if (info->bpc != 8 && info->bpc != 10 && info->bpc != 12 && info->bpc != 16) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "adm: unsupported bit depth %u", info->bpc);
    return FALSE;
  }

  for (gint s = 0; s < VH_ADM_N_SCALES; s++) {
    if (!setup_scale (&adm->scales[s], s, w, h, &csf, noise_weight, error))
      return FALSE;
    w = adm->scales[s].wb;
    h = adm->scales[s].hb;
  }
  return TRUE;
}

static void alloc_buffers (AdmPriv * p);

static gboolean
adm_init (VhFeatureExtractor * fex, const VhPictureInfo * info, GError ** error)
{
  static GOnce div_once = G_ONCE_INIT;
  AdmPriv *p = fex->priv;

  if (!vh_integer_adm_setup (&p->adm, fex, info, error))
    return FALSE;

  g_once (&div_once, build_div_table, NULL);
  p->dc.div_lut = div_table + 32768;
  p->dc.gain_limit = p->adm.gain_limit;
  p->dc.cos1_sq = cos (1.0 * M_PI / 180.0) * cos (1.0 * M_PI / 180.0);

  vh_adm_kernels_init_c (&p->k);
  if (vh_simd_use_avx512 (fex->cpu_mask))
    vh_adm_kernels_init_avx512 (&p->k);
  else if (!vh_simd_disabled (fex->cpu_mask))
    vh_adm_kernels_init_avx2 (&p->k);

  alloc_buffers (p);
  return TRUE;
}

/* Hands out 64-byte aligned pieces of one block (NULL while measuring). */
static gpointer
carve (guint8 * base, gsize * used, gsize bytes)
{
  gpointer at = base ? base + *used : NULL;

  *used += ROUND_UP (bytes, 64);
  return at;
}

static gsize
alloc_or_measure (AdmPriv * p, guint8 * base)
{
  const VhAdmScale *s0 = &p->adm.scales[0], *s1 = &p->adm.scales[1];
  /* Rows get some slack so that vector kernels may stay on whole
   * registers. */
  const gsize wi = ROUND_UP (s0->wi + 32, 32);
  const gsize wb = ROUND_UP (s0->wb + 32, 32);
  const gsize wb1 = ROUND_UP (s1->wb + 32, 32);
  gsize used = 0;

  p->plane_stride = wb;
  for (gint i = 0; i < 2; i++) {
    for (gint j = 0; j < 2; j++) {
      p->plane[i][j] = carve (base, &used, wb * s0->hb * sizeof (gint32));
      p->tmp16[i][j] = carve (base, &used, wi * sizeof (gint16));
      p->tmp32[i][j] = carve (base, &used, wb * sizeof (gint32));
    }
    for (gint j = 0; j < 4; j++) {
      p->band16[i][j] = carve (base, &used, wb * sizeof (gint16));
      p->band32[i][j] = carve (base, &used, wb * sizeof (gint32));
    }
  }
  for (gint r = 0; r < RING; r++) {
    RingRow *rr = &p->ring[r];
    RingRow64 *r64 = &p->ring64[r];
    gint32 **rows[] = { &rr->xr[0], &rr->xr[1], &rr->xr[2], &rr->xa[0],
      &rr->xa[1], &rr->xa[2], &rr->fr, &rr->kr, &rr->fa, &rr->ka
    };
    gint64 **rows64[] = { &r64->xr[0], &r64->xr[1], &r64->xr[2],
      &r64->xa[0], &r64->xa[1], &r64->xa[2], &r64->fr, &r64->kr, &r64->fa,
      &r64->ka
    };

    for (guint i = 0; i < G_N_ELEMENTS (rows); i++) {
      *rows[i] = carve (base, &used, wb * sizeof (gint32));
      *rows64[i] = carve (base, &used, wb1 * sizeof (gint64));
    }
  }
  p->vsum = carve (base, &used, wb * sizeof (gint32));
  p->thr = carve (base, &used, wb * sizeof (gint32));
  p->vsum64 = carve (base, &used, wb1 * sizeof (gint64));
  p->thr64 = carve (base, &used, wb1 * sizeof (gint64));
  return used;
}

/* One zeroed block for every plane and row: the first pass only measures
 * it. */
static void
alloc_buffers (AdmPriv * p)
{
  gsize size = alloc_or_measure (p, NULL);

  p->block = g_malloc0 (size + 64);
  alloc_or_measure (p, (guint8 *) ROUND_UP (GPOINTER_TO_SIZE (p->block),
          64));
}

static void
adm_close (VhFeatureExtractor * fex)
{
  AdmPriv *p = fex->priv;

  g_clear_pointer (&p->block, g_free);
}

static inline gint64
row_round (gint64 inner, const VhAdmScale * sc)
{
  return (inner + sc->cm_row_add) >> sc->cm_row_shift;
}

/* Masked sums of band row @k, for the detail loss (restored part masked by
 * the additive one) and, unless skipped, for AIM (the other way round).
 * The threshold is the 3x3 sum of the filter input plus the centre
 * correction; rows and columns mirror at the band edges as libvmaf does. */
static void
cm_rows (AdmPriv * p, const VhAdmScale * sc, gint k, VhAdmSums * sums)
{
  const gint ku = (k == 0 ? 1 : k - 1) % RING, km = k % RING;
  const gint kd = (k == sc->hb - 1 ? k : k + 1) % RING;
  const gint x0 = MAX (sc->left - 1, 0), x1 = MIN (sc->right + 1, sc->wb);

  for (gint pass = 0; pass < (p->adm.skip_aim ? 1 : 2); pass++) {
    if (sc == &p->adm.scales[0]) {
      const RingRow *up = &p->ring[ku], *mid = &p->ring[km], *dn = &p->ring[kd];
      const gint32 *fu = pass ? up->fr : up->fa;
      const gint32 *fm = pass ? mid->fr : mid->fa;
      const gint32 *fd = pass ? dn->fr : dn->fa;
      const gint32 *kc = pass ? mid->kr : mid->ka;
      gint32 *v = p->vsum, *thr = p->thr;

      /* v[j + 1] is column j. */
      for (gint j = x0; j < x1; j++)
        v[j + 1] = fu[j] + fm[j] + fd[j];
      if (sc->left == 0)
        v[0] = v[2];
      if (sc->right == sc->wb)
        v[sc->wb + 1] = v[sc->wb];
      for (gint j = sc->left; j < sc->right; j++)
        thr[j] = v[j] + v[j + 1] + v[j + 2] + kc[j];

      for (gint b = 0; b < 3; b++) {
        const gint32 *x = pass ? mid->xa[b] : mid->xr[b];
        gint64 inner = p->k.cm_row (sc, b, x, thr, sc->left, sc->right);
        sums->num[pass][b] += row_round (inner, sc);
      }
    } else {
      const RingRow64 *up = &p->ring64[ku], *mid = &p->ring64[km];
      const RingRow64 *dn = &p->ring64[kd];
      const gint64 *fu = pass ? up->fr : up->fa;
      const gint64 *fm = pass ? mid->fr : mid->fa;
      const gint64 *fd = pass ? dn->fr : dn->fa;
      const gint64 *kc = pass ? mid->kr : mid->ka;
      gint64 *v = p->vsum64, *thr = p->thr64;

      for (gint j = x0; j < x1; j++)
        v[j + 1] = fu[j] + fm[j] + fd[j];
      if (sc->left == 0)
        v[0] = v[2];
      if (sc->right == sc->wb)
        v[sc->wb + 1] = v[sc->wb];
      for (gint j = sc->left; j < sc->right; j++)
        thr[j] = v[j] + v[j + 1] + v[j + 2] + kc[j];

      for (gint b = 0; b < 3; b++) {
        const gint64 *x = pass ? mid->xa[b] : mid->xr[b];
        gint64 inner = p->k.cm_row_s123 (sc, x, thr, k, sc->left,
            sc->right);
        sums->num[pass][b] += row_round (inner, sc);
      }
    }
  }
}

static void
decouple_rows (AdmPriv * p, const VhAdmScale * sc, gint s, gint i)
{
  if (s == 0) {
    const RingRow *rr = &p->ring[i % RING];
    const VhAdmRows out = {
      {rr->xr[0], rr->xr[1], rr->xr[2]}, {rr->xa[0], rr->xa[1], rr->xa[2]},
      rr->fr, rr->kr, rr->fa, rr->ka
    };
    const gint16 *const ref[3] = { p->band16[0][1], p->band16[0][2],
      p->band16[0][3]
    };
    const gint16 *const dis[3] = { p->band16[1][1], p->band16[1][2],
      p->band16[1][3]
    };
    p->k.decouple0_row (sc, &p->dc, ref, dis, &out, sc->eleft, sc->eright);
  } else {
    const RingRow64 *rr = &p->ring64[i % RING];
    const VhAdmRows64 out = {
      {rr->xr[0], rr->xr[1], rr->xr[2]}, {rr->xa[0], rr->xa[1], rr->xa[2]},
      rr->fr, rr->kr, rr->fa, rr->ka
    };
    const gint32 *const ref[3] = { p->band32[0][1], p->band32[0][2],
      p->band32[0][3]
    };
    const gint32 *const dis[3] = { p->band32[1][1], p->band32[1][2],
      p->band32[1][3]
    };
    p->k.decouple_s123_row (sc, &p->dc, ref, dis, &out, i, sc->eleft,
        sc->eright);
  }
}

/* libvmaf's reference scores come from its AVX-512 wavelet code, whose
 * vector loop also computes the last output column when (wb - 1) is a
 * multiple of its step: that column then takes its right taps unmirrored,
 * reading on past the end of the row into whatever the scratch buffer
 * holds next (the following pass row, or stale data after the last one).
 * @cont is that continuation. */
static inline gboolean
last_column_unmirrored (const VhAdmScale * sc, gint step)
{
  return sc->wb > 1 && (sc->wb - 1) % step == 0;
}

static void
fix_last16 (const gint16 * row, const gint16 * cont, gint16 * lo, gint16 * hi,
    gint wi, gint wb)
{
  const gint j = wb - 1;
  gint32 t[4], l, h;

  for (gint k = 0; k < 4; k++) {
    gint idx = 2 * j - 1 + k;
    t[k] = idx < wi ? row[idx] : cont[idx - wi];
  }
  l = VH_ADM_LO0 * t[0] + VH_ADM_LO1 * t[1] + VH_ADM_LO2 * t[2] +
      VH_ADM_LO3 * t[3];
  h = VH_ADM_HI0 * t[0] + VH_ADM_HI1 * t[1] + VH_ADM_HI2 * t[2] +
      VH_ADM_HI3 * t[3];
  lo[j] = (gint16) ((l + 32768) >> 16);
  hi[j] = (gint16) ((h + 32768) >> 16);
}

static void
fix_last32 (const gint32 * row, const gint32 * cont, gint32 * lo,
    gint32 * hi, gint wi, gint wb, gint64 add, gint shift)
{
  const gint j = wb - 1;
  gint64 t[4], l, h;

  for (gint k = 0; k < 4; k++) {
    gint idx = 2 * j - 1 + k;
    t[k] = idx < wi ? row[idx] : cont[idx - wi];
  }
  l = VH_ADM_LO0 * t[0] + VH_ADM_LO1 * t[1] + VH_ADM_LO2 * t[2] +
      VH_ADM_LO3 * t[3];
  h = VH_ADM_HI0 * t[0] + VH_ADM_HI1 * t[1] + VH_ADM_HI2 * t[2] +
      VH_ADM_HI3 * t[3];
  lo[j] = (gint32) ((l + add) >> shift);
  hi[j] = (gint32) ((h + add) >> shift);
}

/* Scale 0 wavelet row @i of one picture: the approximation row goes to the
 * next scale's plane, the detail rows to band16. */
static void
dwt0_row (AdmPriv * p, const VhAdmScale * sc, gint pic, const VhPicture * in,
    gint i)
{
  static const gint16 zeros[2] = { 0, 0 };
  gint32 *a_out = p->plane[pic][0] + (gsize) i * p->plane_stride;
  gint16 *lo = p->tmp16[pic][0], *hi = p->tmp16[pic][1];
  gint16 **band = p->band16[pic];
  const gint r0 = vh_adm_tap (i, 0, sc->hi), r1 = vh_adm_tap (i, 1, sc->hi);
  const gint r2 = vh_adm_tap (i, 2, sc->hi), r3 = vh_adm_tap (i, 3, sc->hi);

  if (in->info.bpc == 8)
    p->k.dwt0_vert_8 (vh_picture_row (in, 0, r0), vh_picture_row (in, 0, r1),
        vh_picture_row (in, 0, r2), vh_picture_row (in, 0, r3), lo, hi, sc->wi);
  else
    p->k.dwt0_vert_16 (vh_picture_row (in, 0, r0), vh_picture_row (in, 0,
            r1), vh_picture_row (in, 0, r2), vh_picture_row (in, 0, r3), lo,
        hi, sc->wi, in->info.bpc);
  p->k.dwt0_horz (lo, band[0], band[2], sc->wi);
  p->k.dwt0_horz (hi, band[1], band[3], sc->wi);
  /* With scale 0 skipped libvmaf uses its portable low-pass code. */
  if (!p->adm.skip_scale0 &&
      last_column_unmirrored (sc, in->info.bpc == 8 ? 32 : 64)) {
    /* The high-pass row's continuation is stale; the columns it touches
     * are never scored at this scale. */
    fix_last16 (lo, hi, band[0], band[2], sc->wi, sc->wb);
    fix_last16 (hi, zeros, band[1], band[3], sc->wi, sc->wb);
  }
  for (gint j = 0; j < sc->wb; j++)
    a_out[j] = band[0][j];
}

/* Wavelet row @i of both pictures at scale @s >= 1. */
static void
dwt_s123_rows (AdmPriv * p, const VhAdmScale * sc, gint s, gint i)
{
  /* Rounding of the vertical and horizontal passes at scales 1, 2, 3. */
  static const gint vshift[3] = { 0, 16, 16 }, hshift[3] = { 15, 16, 15 };
  const gsize st = p->plane_stride;
  const gint64 vadd = vshift[s - 1] ? (gint64) 1 << (vshift[s - 1] - 1) : 0;
  const gint64 hadd = (gint64) 1 << (hshift[s - 1] - 1);

  for (gint pic = 0; pic < 2; pic++) {
    const gint32 *src = p->plane[pic][(s - 1) & 1];

    p->k.dwt_vert_s123 (src + vh_adm_tap (i, 0, sc->hi) * st,
        src + vh_adm_tap (i, 1, sc->hi) * st,
        src + vh_adm_tap (i, 2, sc->hi) * st,
        src + vh_adm_tap (i, 3, sc->hi) * st, p->tmp32[pic][0],
        p->tmp32[pic][1], sc->wi, vadd, vshift[s - 1], s == 1);
  }
  for (gint pic = 0; pic < 2; pic++) {
    gint32 *a_out = p->plane[pic][s & 1] + (gsize) i * st;
    gint32 **band = p->band32[pic];
    const gint32 *lo = p->tmp32[pic][0], *hi = p->tmp32[pic][1];

    p->k.dwt_horz_s123 (lo, a_out, band[2], sc->wi, hadd, hshift[s - 1]);
    p->k.dwt_horz_s123 (hi, band[1], band[3], sc->wi, hadd, hshift[s - 1]);
    if (last_column_unmirrored (sc, 8)) {
      /* libvmaf's scratch rows follow each other: reference low, high,
       * distorted low, high, then stale data. */
      const gint32 *lo_next = hi;
      const gint32 *hi_next = pic == 0 ? p->tmp32[1][0] : p->stale[s];

      fix_last32 (lo, lo_next, a_out, band[2], sc->wi, sc->wb, hadd,
          hshift[s - 1]);
      fix_last32 (hi, hi_next, band[1], band[3], sc->wi, sc->wb, hadd,
          hshift[s - 1]);
    }
  }
}

/* What libvmaf's scratch buffer holds past scale @s's four rows once scale
 * @s - 1 is done: values of that scale's last row, or never written. */
static void
keep_stale (AdmPriv * p, gint s)
{
  const VhAdmScale *prev = &p->adm.scales[s - 1];
  const gint wi = p->adm.scales[s].wi;

  for (gint k = 0; k < 2; k++) {
    gint at = 4 * wi + k;
    gint seg = at / MAX (prev->wi, 1);

    if (s == 1 || seg >= 4)
      p->stale[s][k] = 0;
    else
      p->stale[s][k] = p->tmp32[seg / 2][seg % 2][at % prev->wi];
  }
}

static void
den_row (AdmPriv * p, const VhAdmScale * sc, gint s, VhAdmSums * sums)
{
  for (gint b = 0; b < 3; b++) {
    guint64 inner = s == 0 ?
        p->k.den0_row (p->band16[0][b + 1], sc->left, sc->right) :
        p->k.den_row_s123 (sc, p->band32[0][b + 1], sc->left, sc->right);
    sums->den[b] += (inner + sc->den_row_add) >> sc->den_row_shift;
  }
}

static void
run_scale (AdmPriv * p, gint s, const VhPicture * ref, const VhPicture * dis,
    VhAdmSums * sums)
{
  const VhAdmScale *sc = &p->adm.scales[s];
  const gboolean bands_only = s == 0 && p->adm.skip_scale0;

  memset (sums, 0, sizeof (*sums));
  if (s > 0)
    keep_stale (p, s);
  for (gint i = 0; i < sc->hb; i++) {
    if (s == 0) {
      dwt0_row (p, sc, 0, ref, i);
      dwt0_row (p, sc, 1, dis, i);
    } else {
      dwt_s123_rows (p, sc, s, i);
    }
    if (bands_only)
      continue;
    if (i >= sc->top && i < sc->bottom)
      den_row (p, sc, s, sums);
    if (i >= sc->etop && i < sc->ebottom)
      decouple_rows (p, sc, s, i);
    if (i >= 1 && i - 1 >= sc->top && i - 1 < sc->bottom)
      cm_rows (p, sc, i - 1, sums);
  }
  if (!bands_only && sc->bottom == sc->hb)
    cm_rows (p, sc, sc->hb - 1, sums);
}

static gfloat
den_score (const VhAdmScale * sc, const VhAdmSums * sums)
{
  gfloat d[3];

  for (gint b = 0; b < 3; b++) {
    gdouble csf = (gdouble) (sums->den[b] / sc->den_norm) *
        pow (sc->rfactor[b], 3);
    d[b] = powf (csf, 1.0f / 3.0f) + sc->noise_term;
  }
  return d[0] + d[1] + d[2];
}

static gfloat
num_score (const VhAdmScale * sc, gint s, const gint64 num[3], gfloat noise)
{
  gfloat n[3];

  for (gint b = 0; b < 3; b++) {
    gfloat acc;
    if (s == 0 && b == 0)
      /* libvmaf's AVX-512 code rounds this one sum to float first. */
      acc = (gfloat) ((gfloat) num[b] / sc->cm_norm);
    else if (s == 0)
      acc = (gfloat) (num[b] / (b == 2 ? sc->cm_norm_d : sc->cm_norm));
    else
      acc = num[b] / sc->cm_norm_f;
    n[b] = powf (acc, 1.0f / 3.0f) + noise;
  }
  return n[0] + n[1] + n[2];
}

gboolean
vh_integer_adm_check_format (const VhFeatureExtractor * fex,
    const VhPicture * pic, GError ** error)
{
  const VhPictureInfo *info = &fex->info;

  if (pic->info.width != info->width || pic->info.height != info->height ||
      pic->info.bpc != info->bpc) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "adm: picture is %ux%u %u-bit, the extractor was set up for "
        "%ux%u %u-bit", pic->info.width, pic->info.height, pic->info.bpc,
        info->width, info->height, info->bpc);
    return FALSE;
  }
  return TRUE;
}

gboolean
vh_integer_adm_check_planar (const VhPicture * pic, GError ** error)
{
  if (pic->step[0] != 1) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "adm: the luma plane must be planar (sample step %u)", pic->step[0]);
    return FALSE;
  }
  return TRUE;
}

gboolean
vh_integer_adm_append (VhFeatureExtractor * fex, const VhIntegerAdm * adm,
    const VhAdmSums * sums, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  const gint w = fex->info.width, h = fex->info.height;
  const gdouble limit = 1e-10 * (w * h) / (1920.0 * 1080.0);
  gdouble num = 0, den = 0, aim_num = 0, score, score_aim = 0.0;
  gdouble ratio[VH_ADM_N_SCALES];
  gfloat scale_num[VH_ADM_N_SCALES], scale_den[VH_ADM_N_SCALES];

  for (gint s = 0; s < VH_ADM_N_SCALES; s++) {
    const VhAdmScale *sc = &adm->scales[s];
    gfloat num_s = 0.0f, den_s, aim_s = 0.0f;

    if (s == 0 && adm->skip_scale0) {
      den_s = 1e-10;
    } else {
      den_s = den_score (sc, &sums[s]);
      num_s = num_score (sc, s, sums[s].num[0], sc->noise_term);
      if (!adm->skip_aim)
        aim_s = num_score (sc, s, sums[s].num[1], powf (0.0f, 1.0f / 3.0f));
    }
    num += num_s;
    den += den_s;
    aim_num += aim_s;
    ratio[s] = (gdouble) num_s / (gdouble) den_s;
    scale_num[s] = num_s;
    scale_den[s] = den_s;
  }

  num = num < limit ? 0 : num;
  den = den < limit ? 0 : den;
  if (den == 0.0) {
    /* libvmaf leaves AIM unset here; 0 is the neutral value. */
    score = 1.0;
  } else {
    score_aim = aim_num / den;
    score = num / den;
  }

  const gdouble adm3 = MAX (score * adm->dlm_weight + (1 - score_aim) *
      (1 - adm->dlm_weight), adm->min_val);
  const struct
  {
    const gchar *name;
    gdouble value;
  } out[] = {
    {"integer_adm2", score},
    {"integer_aim", score_aim},
    {"integer_adm3", adm3},
    {"integer_adm_scale0", ratio[0]},
    {"integer_adm_scale1", ratio[1]},
    {"integer_adm_scale2", ratio[2]},
    {"integer_adm_scale3", ratio[3]},
  };
  for (guint i = 0; i < G_N_ELEMENTS (out); i++) {
    if (!vh_feature_extractor_append (fex, fc, out[i].name, index,
            out[i].value, error))
      return FALSE;
  }
  if (!adm->debug)
    return TRUE;
  if (!vh_feature_extractor_append (fex, fc, "integer_adm", index, score,
          error) ||
      !vh_feature_extractor_append (fex, fc, "integer_adm_num", index, num,
          error) ||
      !vh_feature_extractor_append (fex, fc, "integer_adm_den", index, den,
          error))
    return FALSE;
  for (gint s = 0; s < VH_ADM_N_SCALES; s++) {
    gchar num_name[32], den_name[32];

    g_snprintf (num_name, sizeof (num_name), "integer_adm_num_scale%d", s);
    g_snprintf (den_name, sizeof (den_name), "integer_adm_den_scale%d", s);
    if (!vh_feature_extractor_append (fex, fc, num_name, index, scale_num[s],
            error) ||
        !vh_feature_extractor_append (fex, fc, den_name, index, scale_den[s],
            error))
      return FALSE;
  }
  return TRUE;
}

static gboolean
check_picture (const VhFeatureExtractor * fex, const VhPicture * pic,
    GError ** error)
{
  return vh_integer_adm_check_format (fex, pic, error) &&
      vh_integer_adm_check_planar (pic, error);
}

static gboolean
adm_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  AdmPriv *p = fex->priv;
  VhAdmSums sums[VH_ADM_N_SCALES];

  if (!check_picture (fex, ref, error) || !check_picture (fex, dist, error))
    return FALSE;

  for (gint s = 0; s < VH_ADM_N_SCALES; s++)
    run_scale (p, s, ref, dist, &sums[s]);
  return vh_integer_adm_append (fex, &p->adm, sums, index, fc, error);
}

const VhFeatureExtractorClass vh_fex_integer_adm = {
  .name = "adm",
  .provides = vh_integer_adm_provides,
  .options = vh_integer_adm_options,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = VH_ADM_MIN_SIZE,
  .min_height = VH_ADM_MIN_SIZE,
  .priv_size = sizeof (AdmPriv),
  .init = adm_init,
  .extract = adm_extract,
  .close = adm_close,
};
