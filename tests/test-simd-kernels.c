/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Every SIMD kernel (AVX2, AVX-512) of integer VIF, ADM, motion and
 * SSIMULACRA 2 against the portable one it replaces, called directly on
 * the same inputs (as dav1d's checkasm does): random samples, the
 * extremes of each bit depth, zero-heavy rows, widths around the vector
 * sizes down to one column.
 * Every buffer is allocated to the size the extractor gives it, so that
 * ASan sees any read or write beyond it. Kernels the CPU lacks are
 * skipped with a message. VIF is in test-simd-kernels-vif.c, ADM in
 * test-simd-kernels-adm.c, SSIMULACRA 2 in test-simd-kernels-ssimu2.c, what
 * they share in simd-kernels-test.c. */

#include "simd-kernels-test.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Integer motion                                                      */

typedef struct
{
  const gchar *name;
  const VhMotionKernels16 *k;
} MotionImpl;

static guint
motion_impls (MotionImpl * out)
{
  guint n = 0;

  if (vh_motion_kernels16_avx2 ())
    out[n++] = (MotionImpl) {
    "avx2", vh_motion_kernels16_avx2 ()};
  else
    g_test_message ("no AVX2 motion kernels on this CPU");
  if (vh_motion_kernels16_avx512 ())
    out[n++] = (MotionImpl) {
    "avx512", vh_motion_kernels16_avx512 ()};
  else
    g_test_message ("no AVX-512 motion kernels on this CPU");
  return n;
}

/* Differences, the vertical blur and the horizontal blur with its sum, at
 * 8 to 12 bits, as the SAD chains them. */
static void
motion_check_row (const MotionImpl * impl, GRand * rand, guint bpc, guint w,
    Fill fill)
{
  const VhMotionKernels16 *c = &vh_motion_kernels16_c;
  const guint32 max = (1u << bpc) - 1;
  const gboolean deep = bpc > 8;
  const gsize bps = deep ? 2 : 1;
  g_autofree gchar *what = g_strdup_printf ("motion %s, %u-bit, width %u, "
      "fill %d", impl->name, bpc, w, fill);
  g_autofree gint16 *hi_a = g_new0 (gint16, w + 4);
  g_autofree gint16 *lo_a = g_new0 (gint16, w + 4);
  g_autofree gint16 *hi_b = g_new0 (gint16, w + 4);
  g_autofree gint16 *lo_b = g_new0 (gint16, w + 4);
  gint16 *d_a[5], *d_b[5];
  gint32 any_a, any_b;

  for (guint r = 0; r < 5; r++) {
    g_autofree guint8 *prev = g_malloc (w * bps);
    g_autofree guint8 *cur = g_malloc (w * bps);
    /* Reference and distorted of a pair: the other fill on the second. */
    const Fill fill2 = fill == FILL_MAX ? FILL_ZERO : fill;

    for (guint j = 0; j < w; j++) {
      if (deep) {
        ((guint16 *) prev)[j] = (guint16) sample (rand, fill, max);
        ((guint16 *) cur)[j] = (guint16) sample (rand, fill2, max);
      } else {
        prev[j] = (guint8) sample (rand, fill, max);
        cur[j] = (guint8) sample (rand, fill2, max);
      }
    }
    d_a[r] = g_new (gint16, w);
    d_b[r] = g_new (gint16, w);
    impl->k->diff_row (d_a[r], prev, cur, w, deep);
    c->diff_row (d_b[r], prev, cur, w, deep);
    assert_mem_equal (d_a[r], d_b[r], w * sizeof (gint16), what,
        "difference row");
  }

  any_a = impl->k->vblur_row (hi_a + 2, lo_a + 2, d_a[0], d_a[1], d_a[2],
      d_a[3], d_a[4], w, bpc);
  any_b = c->vblur_row (hi_b + 2, lo_b + 2, d_b[0], d_b[1], d_b[2], d_b[3],
      d_b[4], w, bpc);
  if ((any_a != 0) != (any_b != 0))
    g_error ("%s: vertical blur's non-zero flag differs", what);
  assert_mem_equal (hi_a + 2, hi_b + 2, w * sizeof (gint16), what,
      "vertical blur, high part");
  assert_mem_equal (lo_a + 2, lo_b + 2, w * sizeof (gint16), what,
      "vertical blur, low part");

  /* Padding as the SAD mirrors it (any values do for the comparison). */
  hi_b[0] = hi_b[w + 3] = (gint16) (w % 7);
  lo_b[1] = lo_b[w + 2] = 255;
  if (impl->k->hblur_row_sad (hi_b, lo_b, w) !=
      c->hblur_row_sad (hi_b, lo_b, w))
    g_error ("%s: horizontal blur's sum differs", what);

  for (guint r = 0; r < 5; r++) {
    g_free (d_a[r]);
    g_free (d_b[r]);
  }
}

static void
test_motion_kernels (void)
{
  static const guint depths[] = { 8, 9, 10, 12 };
  g_autoptr (GRand) rand = g_rand_new_with_seed (340);
  MotionImpl impls[2];
  const guint n_impls = motion_impls (impls);

  for (guint i = 0; i < n_impls; i++)
    for (guint di = 0; di < G_N_ELEMENTS (depths); di++)
      for (guint wi = 0; wi < G_N_ELEMENTS (test_widths); wi++)
        for (Fill fill = 0; fill < N_FILLS; fill++)
          motion_check_row (&impls[i], rand, depths[di], test_widths[wi],
              fill);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/simd-kernels/vif/passes", test_vif_passes);
  g_test_add_func ("/simd-kernels/vif/stats-random-streams",
      test_vif_stats_random_streams);
  g_test_add_func ("/simd-kernels/adm", test_adm_kernels);
  g_test_add_func ("/simd-kernels/motion", test_motion_kernels);
  g_test_add_func ("/simd-kernels/ssimulacra2/steps", test_ssimu2_steps);
  g_test_add_func ("/simd-kernels/ssimulacra2/frames", test_ssimu2_frames);
  return g_test_run ();
}
