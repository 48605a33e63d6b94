/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* Integer ADM's SIMD kernels against the portable ones (see
 * test-simd-kernels.c). */

#include "simd-kernels-test.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Integer ADM                                                         */

typedef struct
{
  const gchar *name;
  VhAdmKernels k;
} AdmImpl;

static guint
adm_impls (AdmImpl * out)
{
  guint n = 0;

  vh_adm_kernels_init_c (&out[n].k);
  if (vh_adm_kernels_init_avx2 (&out[n].k))
    out[n++].name = "avx2";
  else
    g_test_message ("no AVX2 ADM kernels on this CPU");
  vh_adm_kernels_init_c (&out[n].k);
  if (vh_adm_kernels_init_avx512 (&out[n].k))
    out[n++].name = "avx512";
  else
    g_test_message ("no AVX-512 ADM kernels on this CPU");
  return n;
}

static gint32 adm_div_table[65537];

/* 2^30 / i for i in [-32768, 32768], as the extractor builds it. */
static const gint32 *
adm_div_lut (void)
{
  for (gint i = 1; i <= 32768; i++) {
    adm_div_table[32768 + i] = (1 << 30) / i;
    adm_div_table[32768 - i] = -((1 << 30) / i);
  }
  return adm_div_table + 32768;
}

/* A random value in [-range, range], or an extreme one for @fill. */
static gint64
signed_sample (GRand * rand, Fill fill, gint64 range)
{
  switch (fill) {
    case FILL_MAX:
      return range;
    case FILL_ZERO:
      return 0;
    case FILL_EXTREMES:
      return g_rand_int_range (rand, 0, 3) - 1 == 0 ? 0 :
          g_rand_boolean (rand) ? range : -range;
    case FILL_SPARSE:
      if (g_rand_boolean (rand))
        return 0;
      /* fall through */
    default:
      return (gint64) (g_rand_double (rand) * (2 * range + 1)) - range;
  }
}

static gint16 *
adm_row16 (GRand * rand, Fill fill, guint w, gint range)
{
  gint16 *r = g_new (gint16, MAX (w, 1));

  for (guint j = 0; j < w; j++)
    r[j] = (gint16) signed_sample (rand, fill, range);
  return r;
}

static gint32 *
adm_row32 (GRand * rand, Fill fill, guint w, gint64 range)
{
  gint32 *r = g_new (gint32, MAX (w, 1));

  for (guint j = 0; j < w; j++)
    r[j] = (gint32) signed_sample (rand, fill, range);
  return r;
}

/* Scale 0: the wavelet passes, the denominator and masking sums. */
static void
adm_check_scale0 (const AdmImpl * impl, const VhAdmKernels * c, GRand * rand,
    guint w, Fill fill, guint bpc)
{
  const guint32 max = (1u << bpc) - 1;
  g_autofree gchar *what = g_strdup_printf ("adm %s scale 0, %u-bit, "
      "width %u, fill %d", impl->name, bpc, w, fill);
  g_autofree gint16 *lo_a = g_new (gint16, w), *hi_a = g_new (gint16, w);
  g_autofree gint16 *lo_b = g_new (gint16, w), *hi_b = g_new (gint16, w);
  const guint wb = (w + 1) / 2;

  /* Vertical pass on four rows of @w samples. */
  if (bpc == 8) {
    guint8 *r[4];

    for (guint k = 0; k < 4; k++) {
      r[k] = g_new (guint8, w);
      for (guint j = 0; j < w; j++)
        r[k][j] = (guint8) sample (rand, fill, max);
    }
    impl->k.dwt0_vert_8 (r[0], r[1], r[2], r[3], lo_a, hi_a, w);
    c->dwt0_vert_8 (r[0], r[1], r[2], r[3], lo_b, hi_b, w);
    for (guint k = 0; k < 4; k++)
      g_free (r[k]);
  } else {
    guint16 *r[4];

    for (guint k = 0; k < 4; k++) {
      r[k] = g_new (guint16, w);
      for (guint j = 0; j < w; j++)
        r[k][j] = (guint16) sample (rand, fill, max);
    }
    impl->k.dwt0_vert_16 (r[0], r[1], r[2], r[3], lo_a, hi_a, w, bpc);
    c->dwt0_vert_16 (r[0], r[1], r[2], r[3], lo_b, hi_b, w, bpc);
    for (guint k = 0; k < 4; k++)
      g_free (r[k]);
  }
  assert_mem_equal (lo_a, lo_b, w * sizeof (gint16), what, "vertical low");
  assert_mem_equal (hi_a, hi_b, w * sizeof (gint16), what, "vertical high");

  /* Horizontal pass of a row of the vertical pass's range; its mirror
   * needs three samples, fewer than any scale of a picture ADM takes. */
  if (w >= 3) {
    g_autofree gint16 *src = adm_row16 (rand, fill, w, 32767);
    g_autofree gint16 *l_a = g_new (gint16, wb), *h_a = g_new (gint16, wb);
    g_autofree gint16 *l_b = g_new (gint16, wb), *h_b = g_new (gint16, wb);

    impl->k.dwt0_horz (src, l_a, h_a, w);
    c->dwt0_horz (src, l_b, h_b, w);
    assert_mem_equal (l_a, l_b, wb * sizeof (gint16), what, "horizontal low");
    assert_mem_equal (h_a, h_b, wb * sizeof (gint16), what,
        "horizontal high");
  }

  /* Denominator sums of int16 bands, from every start. */
  {
    g_autofree gint16 *band = adm_row16 (rand, fill, w, 32768 - (fill ==
            FILL_MAX));

    for (guint x0 = 0; x0 < MIN (w, 3u); x0++) {
      if (impl->k.den0_row (band, x0, w) != c->den0_row (band, x0, w))
        g_error ("%s: denominator from %u differs", what, x0);
    }
  }
}

/* Scale 0 decoupling and CSF, then masking sums of its outputs, with the
 * extractor's constants (default and another CSF gain). */
static void
adm_check_decouple0 (const AdmImpl * impl, const VhAdmKernels * c,
    GRand * rand, guint w, Fill fill, gdouble gain_limit, gboolean alt_gain)
{
  const gint16 *ref[3], *dis[3];
  gint16 *rows[6];
  gint32 *buf[2][10];
  VhAdmRows out[2];
  VhAdmScale sc = { 0 };
  VhAdmDecouple dc = {.gain_limit = gain_limit,.div_lut = adm_div_lut () };
  g_autofree gchar *what = g_strdup_printf ("adm %s decouple 0, width %u, "
      "fill %d, gain limit %g, gain %d", impl->name, w, fill, gain_limit,
      alt_gain);
  const gint cub = MAX ((gint) ceil (log2 (MAX (w, 2)) - 4), 1);

  dc.cos1_sq = (gfloat) (cos (M_PI / 180.0) * cos (M_PI / 180.0));
  for (gint b = 0; b < 3; b++) {
    const gboolean diag = b == 2;

    sc.gain16[b] = alt_gain ? (diag ? 61234 : 20117) : (diag ? 49417 : 36453);
    sc.csf_shift16[b] = diag ? 17 : 15;
    sc.csf_add16[b] = diag ? 65535 : 16384;
    sc.cm_sub[b] = diag ? 12 : 10;
    sc.cm_sq_shift[b] = diag ? 30 : 29;
    sc.cm_sq_add[b] = diag ? 536870912 : 268435456;
    sc.cm_cub_shift[b] = cub + (diag ? 1 : 0);
    sc.cm_cub_add[b] = (gint64) 1 << (sc.cm_cub_shift[b] - 1);
  }
  /* Rounding and wide columns cover part of the row, as in the extractor. */
  sc.round_x0 = w / 10;
  sc.round_x1 = w - (w - w / 10) % 16;
  sc.wide_x0 = w / 8;
  sc.wide_x1 = w - (w - w / 8) % 14;

  for (guint i = 0; i < 6; i++)
    rows[i] = adm_row16 (rand, fill, w, 16383);
  /* Distorted bands near the reference ones, so that the angle test and
   * the enhancement take both ways. */
  for (guint b = 0; b < 3; b++) {
    for (guint j = 0; j < w && fill_varies (fill); j++) {
      if (g_rand_boolean (rand))
        rows[3 + b][j] = (gint16) CLAMP (rows[b][j] +
            g_rand_int_range (rand, -64, 65), -16383, 16383);
    }
    ref[b] = rows[b];
    dis[b] = rows[3 + b];
  }
  for (guint s = 0; s < 2; s++) {
    for (guint q = 0; q < 10; q++)
      buf[s][q] = g_new0 (gint32, MAX (w, 1));
    out[s] = (VhAdmRows) {
      {
      buf[s][0], buf[s][1], buf[s][2]}, {
      buf[s][3], buf[s][4], buf[s][5]}, buf[s][6], buf[s][7], buf[s][8],
          buf[s][9]
    };
  }
  for (guint x0 = 0; x0 < MIN (w, 2u); x0++) {
    impl->k.decouple0_row (&sc, &dc, ref, dis, &out[0], x0, w);
    c->decouple0_row (&sc, &dc, ref, dis, &out[1], x0, w);
    for (guint q = 0; q < 10; q++)
      assert_mem_equal (buf[0][q], buf[1][q], w * sizeof (gint32), what,
          "decoupled row");
  }

  /* Masking sums of the magnitudes against random thresholds. */
  {
    g_autofree gint32 *thr = adm_row32 (rand, fill, w, 1 << 20);

    for (guint j = 0; j < w; j++)
      thr[j] = ABS (thr[j]);
    for (gint b = 0; b < 3; b++) {
      if (impl->k.cm_row (&sc, b, buf[1][b], thr, 0, w) !=
          c->cm_row (&sc, b, buf[1][b], thr, 0, w) ||
          impl->k.cm_row (&sc, b, buf[1][3 + b], thr, MIN (w, 1u), w) !=
          c->cm_row (&sc, b, buf[1][3 + b], thr, MIN (w, 1u), w))
        g_error ("%s: masking sum of band %d differs", what, b);
    }
    /* Full-range values too: the 32-bit wrap of the subtraction. */
    for (gint b = 0; b < 3; b++) {
      g_autofree gint32 *x = adm_row32 (rand, fill, w, G_MAXINT32);

      if (impl->k.cm_row (&sc, b, x, thr, 0, w) !=
          c->cm_row (&sc, b, x, thr, 0, w))
        g_error ("%s: full-range masking sum of band %d differs", what, b);
    }
  }

  for (guint s = 0; s < 2; s++)
    for (guint q = 0; q < 10; q++)
      g_free (buf[s][q]);
  for (guint i = 0; i < 6; i++)
    g_free (rows[i]);
}

/* Scales 1-3: the wavelet, denominator, decoupling and masking kernels. */
static void
adm_check_s123 (const AdmImpl * impl, const VhAdmKernels * c, GRand * rand,
    guint w, Fill fill, gboolean wide_gains, gdouble gain_limit, gint range)
{
  g_autofree gchar *what = g_strdup_printf ("adm %s scales 1-3, width %u, "
      "fill %d, wide gains %d, gain limit %g, range %d", impl->name, w, fill,
      wide_gains, gain_limit, range);
  const guint wb = (w + 1) / 2;
  VhAdmScale sc = { 0 };
  VhAdmDecouple dc = {.gain_limit = gain_limit,.div_lut = adm_div_lut () };
  const guint cub = (guint) ceil (log2 (MAX (w, 2)));

  dc.cos1_sq = (gfloat) (cos (M_PI / 180.0) * cos (M_PI / 180.0));
  /* Vertical pass: 16-bit samples unshifted, then 32-bit ones. */
  for (guint narrow = 0; narrow < 2; narrow++) {
    gint32 *r[4];
    g_autofree gint32 *lo_a = g_new (gint32, MAX (w, 1));
    g_autofree gint32 *hi_a = g_new (gint32, MAX (w, 1));
    g_autofree gint32 *lo_b = g_new (gint32, MAX (w, 1));
    g_autofree gint32 *hi_b = g_new (gint32, MAX (w, 1));
    const gint shift = narrow ? 0 : 15;
    const gint64 add = narrow ? 0 : 16384;

    for (guint k = 0; k < 4; k++)
      r[k] = adm_row32 (rand, fill, w, narrow ? 32767 : G_MAXINT32);
    impl->k.dwt_vert_s123 (r[0], r[1], r[2], r[3], lo_a, hi_a, w, add, shift,
        narrow);
    c->dwt_vert_s123 (r[0], r[1], r[2], r[3], lo_b, hi_b, w, add, shift,
        narrow);
    assert_mem_equal (lo_a, lo_b, w * sizeof (gint32), what, "vertical low");
    assert_mem_equal (hi_a, hi_b, w * sizeof (gint32), what,
        "vertical high");
    for (guint k = 0; k < 4; k++)
      g_free (r[k]);
  }
  if (w >= 3) {
    g_autofree gint32 *src = adm_row32 (rand, fill, w, G_MAXINT32);
    g_autofree gint32 *l_a = g_new (gint32, wb), *h_a = g_new (gint32, wb);
    g_autofree gint32 *l_b = g_new (gint32, wb), *h_b = g_new (gint32, wb);

    impl->k.dwt_horz_s123 (src, l_a, h_a, w, 16384, 15);
    c->dwt_horz_s123 (src, l_b, h_b, w, 16384, 15);
    assert_mem_equal (l_a, l_b, wb * sizeof (gint32), what,
        "horizontal low");
    assert_mem_equal (h_a, h_b, wb * sizeof (gint32), what,
        "horizontal high");
  }

  sc.den_sq_shift = 30;
  sc.den_sq_add = 1u << 30;
  sc.den_cub_shift = cub;
  sc.den_cub_add = (guint64) 1 << (cub - 1);
  {
    g_autofree gint32 *band = adm_row32 (rand, fill, w, G_MAXINT32);

    if (impl->k.den_row_s123 (&sc, band, 0, w) !=
        c->den_row_s123 (&sc, band, 0, w))
      g_error ("%s: denominator differs", what);
  }

  for (gint b = 0; b < 3; b++) {
    sc.gain32[b] = wide_gains ? (b == 2 ? 0x9a000000u : 0x31000000u) :
        (b == 2 ? 0x0c000000u : 0x0a000000u);
    sc.cm_sq_shift[b] = 30;
    sc.cm_sq_add[b] = 536870912;
    sc.cm_cub_shift[b] = cub;
    sc.cm_cub_add[b] = (gint64) 1 << (cub - 1);
  }
  sc.wide_gains = wide_gains;
  sc.round_x0 = w / 10;
  sc.round_x1 = w - (w - w / 10) % 16;
  sc.signed_x0 = w / 10;
  sc.signed_x1 = w - (w - w / 10) % 6;
  sc.signed_y0 = 1;
  sc.signed_y1 = 3;
  {
    gint32 *rows[6];
    const gint32 *ref[3], *dis[3];
    gint64 *buf[2][10];
    VhAdmRows64 out[2];

    for (guint i = 0; i < 6; i++)
      rows[i] = adm_row32 (rand, fill, w, range);
    for (guint b = 0; b < 3; b++) {
      for (guint j = 0; j < w && fill_varies (fill); j++) {
        if (g_rand_boolean (rand))
          rows[3 + b][j] = (gint32) CLAMP ((gint64) rows[b][j] +
              g_rand_int_range (rand, -4096, 4097), -range, range);
      }
      ref[b] = rows[b];
      dis[b] = rows[3 + b];
    }
    for (guint s = 0; s < 2; s++) {
      for (guint q = 0; q < 10; q++)
        buf[s][q] = g_new0 (gint64, MAX (w, 1));
      out[s] = (VhAdmRows64) {
        {
        buf[s][0], buf[s][1], buf[s][2]}, {
        buf[s][3], buf[s][4], buf[s][5]}, buf[s][6], buf[s][7], buf[s][8],
            buf[s][9]
      };
    }
    for (gint y = 0; y < 4; y++) {
      impl->k.decouple_s123_row (&sc, &dc, ref, dis, &out[0], y, 0, w);
      c->decouple_s123_row (&sc, &dc, ref, dis, &out[1], y, 0, w);
      for (guint q = 0; q < 10; q++)
        assert_mem_equal (buf[0][q], buf[1][q], w * sizeof (gint64), what,
            "decoupled row");
    }
    /* Masking sums, thresholds from the filter inputs. */
    for (guint j = 0; j < w; j++)
      buf[0][6][j] = 3 * buf[1][6][j] + buf[1][7][j];
    for (gint y = 0; y < 4; y++) {
      for (gint b = 0; b < 3; b++) {
        if (impl->k.cm_row_s123 (&sc, buf[1][b], buf[0][6], y, 0, w) !=
            c->cm_row_s123 (&sc, buf[1][b], buf[0][6], y, 0, w))
          g_error ("%s: masking sum of band %d, row %d differs", what, b, y);
      }
    }
    for (guint s = 0; s < 2; s++)
      for (guint q = 0; q < 10; q++)
        g_free (buf[s][q]);
    for (guint i = 0; i < 6; i++)
      g_free (rows[i]);
  }
}

void
test_adm_kernels (void)
{
  static const guint depths[] = { 8, 9, 10, 12, 16 };
  static const gdouble limits[] = { 100.0, 1.0, 1.2 };
  g_autoptr (GRand) rand = g_rand_new_with_seed (3400);
  AdmImpl impls[2];
  const guint n_impls = adm_impls (impls);
  VhAdmKernels c;
  guint n = 0;

  vh_adm_kernels_init_c (&c);
  for (guint i = 0; i < n_impls; i++) {
    for (guint wi = 0; wi < G_N_ELEMENTS (test_widths); wi++) {
      if (fewer_cases () && wi % 3 != 0)
        continue;
      for (Fill fill = 0; fill < N_FILLS; fill++) {
        const guint w = test_widths[wi];

        for (guint di = 0; di < G_N_ELEMENTS (depths); di++)
          adm_check_scale0 (&impls[i], &c, rand, w, fill, depths[di]);
        for (guint li = 0; li < G_N_ELEMENTS (limits); li++)
          adm_check_decouple0 (&impls[i], &c, rand, w, fill, limits[li],
              li == 2);
        for (guint li = 0; li < G_N_ELEMENTS (limits); li++) {
          adm_check_s123 (&impls[i], &c, rand, w, fill, li == 1, limits[li],
              1 << 24);
          /* Beyond 2^15 the ratio rounds |o| first; the full range but
           * INT32_MIN (whose angle products overflow in the C code). */
          adm_check_s123 (&impls[i], &c, rand, w, fill, li != 1, limits[li],
              li == 2 ? G_MAXINT32 : 1 << 16);
        }
        n++;
      }
    }
  }
  g_test_message ("%u ADM cases compared", n);
}
