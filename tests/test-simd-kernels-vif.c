/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* Integer VIF's SIMD kernels against the portable ones (see
 * test-simd-kernels.c). */

#include "simd-kernels-test.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Integer VIF                                                         */

typedef struct
{
  const gchar *name;
  const VhVifKernels *k;
} VifImpl;

static guint
vif_impls (VifImpl * out)
{
  guint n = 0;

  if (vh_vif_kernels_avx2 ())
    out[n++] = (VifImpl) {
    "avx2", vh_vif_kernels_avx2 ()};
  else
    g_test_message ("no AVX2 VIF kernels on this CPU");
  if (vh_vif_kernels_avx512 ())
    out[n++] = (VifImpl) {
    "avx512", vh_vif_kernels_avx512 ()};
  else
    g_test_message ("no AVX-512 VIF kernels on this CPU");
  return n;
}

/* Stream rows and scratch of width @w, sized as the extractor sizes them,
 * each row its own block. */
static VhVifRows *
vif_rows_new (guint w)
{
  VhVifRows *rows = g_new0 (VhVifRows, 1);
  const gsize w16 = round_up (w, 16);
  const gsize row_len = round_up (VH_VIF_PAD + w16 + VH_VIF_TAIL, 32);

  for (guint q = 0; q < VH_VIF_N_STREAMS; q++)
    rows->s[q] = g_new0 (guint16, row_len);
  for (guint q = 0; q < G_N_ELEMENTS (rows->acc); q++)
    rows->acc[q] = g_new0 (guint32, w16);
  return rows;
}

static void
vif_rows_free (VhVifRows * rows)
{
  for (guint q = 0; q < VH_VIF_N_STREAMS; q++)
    g_free (rows->s[q]);
  for (guint q = 0; q < G_N_ELEMENTS (rows->acc); q++)
    g_free (rows->acc[q]);
  g_free (rows);
}

static void
vif_rows_copy (VhVifRows * dst, const VhVifRows * src, guint w)
{
  const gsize row_len = round_up (VH_VIF_PAD + round_up (w, 16) +
      VH_VIF_TAIL, 32);

  for (guint q = 0; q < VH_VIF_N_STREAMS; q++)
    memcpy (dst->s[q], src->s[q], row_len * sizeof (guint16));
}

static void
assert_streams_equal (const VhVifRows * a, const VhVifRows * b, guint q0,
    guint n_q, guint w, const gchar * what)
{
  for (guint q = q0; q < q0 + n_q; q++) {
    for (guint j = 0; j < w; j++) {
      if (a->s[q][VH_VIF_PAD + j] != b->s[q][VH_VIF_PAD + j])
        g_error ("%s: stream %u column %u: %u, portable %u", what, q, j,
            a->s[q][VH_VIF_PAD + j], b->s[q][VH_VIF_PAD + j]);
    }
  }
}

static void
assert_accum_equal (const VhVifAccum * a, const VhVifAccum * b,
    const gchar * what)
{
  if (a->num_log != b->num_log || a->den_log != b->den_log ||
      a->num_non_log != b->num_non_log || a->den_non_log != b->den_non_log)
    g_error ("%s: sums %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %"
        G_GINT64_FORMAT " %" G_GINT64_FORMAT ", portable %" G_GINT64_FORMAT
        " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT, what,
        a->num_log, a->den_log, a->num_non_log, a->den_non_log, b->num_log,
        b->den_log, b->num_non_log, b->den_non_log);
}

/* @taps input rows of @w samples (8- or 16-bit), each its own block. */
static gpointer *
vif_input_new (GRand * rand, guint taps, guint w, gboolean wide, guint32 max,
    Fill fill)
{
  gpointer *rows = g_new0 (gpointer, taps);

  for (guint k = 0; k < taps; k++) {
    if (wide) {
      guint16 *r = g_new (guint16, w);

      for (guint j = 0; j < w; j++)
        r[j] = (guint16) sample (rand, fill, max);
      rows[k] = r;
    } else {
      guint8 *r = g_new (guint8, w);

      for (guint j = 0; j < w; j++)
        r[j] = (guint8) sample (rand, fill, max);
      rows[k] = r;
    }
  }
  return rows;
}

static void
vif_input_free (gpointer * rows, guint taps)
{
  for (guint k = 0; k < taps; k++)
    g_free (rows[k]);
  g_free (rows);
}

/* Mirrors the edges of @n streams from @q0, as the extractor does. */
static void
vif_mirror (VhVifRows * rows, guint q0, guint n, guint w, guint half)
{
  for (guint q = q0; q < q0 + n; q++) {
    guint16 *r = rows->s[q] + VH_VIF_PAD;

    for (guint f = 1; f <= half; f++) {
      r[-(gint) f] = r[MIN (f, w - 1)];
      r[w - 1 + f] = r[w - 1 - MIN (f, w - 1)];
    }
  }
}

/* One vertical pass at (scale, depth) on one input, then the horizontal
 * one on its streams, for the portable kernels and @impl. */
static void
vif_check_pass (const VifImpl * impl, GRand * rand, guint scale, guint bpc,
    guint w, Fill fill, gdouble gain_limit)
{
  const guint taps = vh_vif_filter_taps[scale];
  const gboolean wide = bpc > 8;
  const guint32 max = (1u << bpc) - 1;
  const guint shift_mu = scale == 0 ? bpc : 16;
  const guint shift_sq = scale == 0 ? 2 * (bpc - 8) : 16;
  gpointer *ref = vif_input_new (rand, taps, w, wide, max, fill);
  gpointer *dis = vif_input_new (rand, taps, w, wide, max,
      fill == FILL_RANDOM ? FILL_EXTREMES : FILL_RANDOM);
  VhVifRows *a = vif_rows_new (w), *b = vif_rows_new (w);
  const guint16 *table = vh_vif_log2_table ();
  VhVifAccum acc_a = { 0 }, acc_b = { 0 };
  g_autofree gchar *what = g_strdup_printf ("vif %s scale %u, %u-bit, "
      "width %u, fill %d, gain limit %g", impl->name, scale, bpc, w, fill,
      gain_limit);

  /* j0 > 0 exercises an unaligned start. */
  for (guint j0 = 0; j0 <= MIN (w - 1, 1u); j0++) {
    if (wide) {
      impl->k->vert_stats_16 ((const guint16 * const *) ref,
          (const guint16 * const *) dis, scale, shift_mu, shift_sq, j0, w, a);
      vh_vif_kernels_c.vert_stats_16 ((const guint16 * const *) ref,
          (const guint16 * const *) dis, scale, shift_mu, shift_sq, j0, w, b);
    } else {
      impl->k->vert_stats_8 ((const guint8 * const *) ref,
          (const guint8 * const *) dis, scale, j0, w, a);
      vh_vif_kernels_c.vert_stats_8 ((const guint8 * const *) ref,
          (const guint8 * const *) dis, scale, j0, w, b);
    }
    assert_streams_equal (a, b, 0, VH_VIF_N_STREAMS, w, what);
  }

  vif_mirror (b, 0, VH_VIF_N_STREAMS, w, taps / 2);
  vif_rows_copy (a, b, w);
  impl->k->horiz_stats (a, scale, w, gain_limit, table, &acc_a);
  vh_vif_kernels_c.horiz_stats (b, scale, w, gain_limit, table, &acc_b);
  assert_accum_equal (&acc_a, &acc_b, what);

  /* Downsampling: the mu streams and the decimated rows. */
  if (scale > 0) {
    const guint w_out = w / 2;
    const gsize out_len = round_up (w_out, 16) + 16;
    g_autofree guint16 *ra = g_new0 (guint16, out_len);
    g_autofree guint16 *da = g_new0 (guint16, out_len);
    g_autofree guint16 *rb = g_new0 (guint16, out_len);
    g_autofree guint16 *db = g_new0 (guint16, out_len);
    const guint shift = scale == 1 ? bpc : 16;

    if (wide || scale > 1) {
      impl->k->vert_mu_16 ((const guint16 * const *) ref,
          (const guint16 * const *) dis, scale, shift, 0, w, a);
      vh_vif_kernels_c.vert_mu_16 ((const guint16 * const *) ref,
          (const guint16 * const *) dis, scale, shift, 0, w, b);
    } else {
      impl->k->vert_mu_8 ((const guint8 * const *) ref,
          (const guint8 * const *) dis, scale, 0, w, a);
      vh_vif_kernels_c.vert_mu_8 ((const guint8 * const *) ref,
          (const guint8 * const *) dis, scale, 0, w, b);
    }
    assert_streams_equal (a, b, VH_VIF_MU1, 2, w, what);
    vif_mirror (b, VH_VIF_MU1, 2, w, taps / 2);
    vif_rows_copy (a, b, w);
    impl->k->horiz_decimate (a, scale, w_out, ra, da);
    vh_vif_kernels_c.horiz_decimate (b, scale, w_out, rb, db);
    if (memcmp (ra, rb, w_out * sizeof (guint16)) != 0 ||
        memcmp (da, db, w_out * sizeof (guint16)) != 0)
      g_error ("%s: decimated rows differ", what);
  }

  vif_rows_free (a);
  vif_rows_free (b);
  vif_input_free (ref, taps);
  vif_input_free (dis, taps);
}

void
test_vif_passes (void)
{
  static const guint depths[] = { 8, 9, 10, 12, 16 };
  static const gdouble limits[] = { 100.0, 1.0, 1.5 };
  g_autoptr (GRand) rand = g_rand_new_with_seed (34);
  VifImpl impls[2];
  const guint n_impls = vif_impls (impls);
  guint n = 0;

  for (guint i = 0; i < n_impls; i++) {
    for (guint scale = 0; scale < VH_VIF_N_SCALES; scale++) {
      for (guint di = 0; di < G_N_ELEMENTS (depths); di++) {
        /* Past scale 0 the pictures are 16-bit, whatever the input. */
        const guint bpc = scale == 0 ? depths[di] : 16;

        if (scale > 0 && di > 0 && depths[di] != 16)
          continue;
        for (guint wi = 0; wi < G_N_ELEMENTS (test_widths); wi++) {
          if (fewer_cases () && wi % 3 != 0)
            continue;
          for (Fill fill = 0; fill < N_FILLS; fill++) {
            vif_check_pass (&impls[i], rand, scale, bpc, test_widths[wi], fill,
                limits[n % G_N_ELEMENTS (limits)]);
            n++;
          }
        }
      }
      /* The downsampling from 8-bit input (scale 1 from scale 0). */
      if (scale == 1) {
        for (guint wi = 0; wi < G_N_ELEMENTS (test_widths); wi++)
          vif_check_pass (&impls[i], rand, 1, 8, test_widths[wi], FILL_RANDOM,
              100.0);
      }
    }
  }
  g_test_message ("%u VIF passes compared", n);
}

/* The statistic on streams of random bits, every sigma sign and size. */
void
test_vif_stats_random_streams (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (3434);
  const guint16 *table = vh_vif_log2_table ();
  VifImpl impls[2];
  const guint n_impls = vif_impls (impls);

  for (guint i = 0; i < n_impls; i++) {
    for (guint wi = 0; wi < G_N_ELEMENTS (test_widths); wi++) {
      const guint w = test_widths[wi];
      const gsize row_len = round_up (VH_VIF_PAD + round_up (w, 16) +
          VH_VIF_TAIL, 32);
      VhVifRows *a = vif_rows_new (w), *b = vif_rows_new (w);

      for (guint scale = 0; scale < VH_VIF_N_SCALES; scale++) {
        for (guint round = 0; round < 4; round++) {
          VhVifAccum acc_a = { 0 }, acc_b = { 0 };
          g_autofree gchar *what = g_strdup_printf ("vif %s random streams, "
              "scale %u, width %u, round %u", impls[i].name, scale, w, round);

          for (guint q = 0; q < VH_VIF_N_STREAMS; q++)
            for (gsize j = 0; j < row_len; j++)
              b->s[q][j] = (guint16) g_rand_int (rand);
          vif_rows_copy (a, b, w);
          impls[i].k->horiz_stats (a, scale, w, round ? 100.0 : 1.0, table,
              &acc_a);
          vh_vif_kernels_c.horiz_stats (b, scale, w, round ? 100.0 : 1.0,
              table, &acc_b);
          assert_accum_equal (&acc_a, &acc_b, what);
        }
      }
      vif_rows_free (a);
      vif_rows_free (b);
    }
  }
}
