/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* ssimulacra2 against the values of libjxl's own tool on golden frames
 * (tests/data/ssimulacra2/expected.tsv, which says how they were made),
 * and its refusals. */

#include "errors.h"
#include "extractor-check.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#define SSIMU2_TOLERANCE 1e-4

/* The top-left @width x @height of @pic (4:2:0), sharing its samples. */
static VhPicture *
crop_picture (VhPicture * pic, guint width, guint height)
{
  VhPictureInfo info;
  gsize stride[3];
  guint step[3];

  g_assert_true (vh_picture_info_init (&info, pic->info.pix_fmt,
          pic->info.bpc, width, height, NULL));
  for (guint p = 0; p < 3; p++) {
    stride[p] = pic->stride[p];
    step[p] = pic->step[p];
  }
  return vh_picture_new_wrapped (&info, pic->data, stride, step,
      VH_MEMORY_HOST, vh_picture_ref (pic),
      (GDestroyNotify) vh_picture_unref);
}

static VhFeatureExtractor *
new_extractor (const gchar * options)
{
  g_auto (GStrv) pairs = g_strsplit (options, ":", -1);
  g_autoptr (GPtrArray) opts = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; strcmp (options, "-") != 0 && pairs[i]; i++) {
    g_auto (GStrv) kv = g_strsplit (pairs[i], "=", 2);

    g_ptr_array_add (opts, g_strdup (kv[0]));
    g_ptr_array_add (opts, g_strdup (kv[1]));
  }
  g_ptr_array_add (opts, NULL);
  return vh_check_extractor_new ("ssimulacra2",
      (const gchar * const *) opts->pdata);
}

static gdouble
score_frame (GPtrArray * pairs, const gchar * pair_name, const gchar * crop,
    const gchar * options, guint frame, guint cpu_mask)
{
  VhGoldenPair *pair = vh_golden_pair_find (pairs, pair_name);
  g_autoptr (GError) error = NULL;
  g_autoptr (VhPicture) ref = NULL;
  g_autoptr (VhPicture) dist = NULL;
  g_autoptr (VhFeatureExtractor) fex = new_extractor (options);
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  VhPictureInfo info;
  gdouble value = NAN;
  gboolean ok;

  g_assert_nonnull (pair);
  ref = vh_golden_read_frame (pair, TRUE, frame, &error);
  g_assert_no_error (error);
  dist = vh_golden_read_frame (pair, FALSE, frame, &error);
  g_assert_no_error (error);
  if (strcmp (crop, "-") != 0) {
    guint w, h;

    g_assert_cmpint (sscanf (crop, "%ux%u", &w, &h), ==, 2);
    g_clear_pointer (&ref, vh_picture_unref);
    ref = crop_picture (vh_golden_read_frame (pair, TRUE, frame, NULL), w, h);
    vh_picture_unref (ref->user_data);
    g_clear_pointer (&dist, vh_picture_unref);
    dist = crop_picture (vh_golden_read_frame (pair, FALSE, frame, NULL), w,
        h);
    vh_picture_unref (dist->user_data);
  }
  info = ref->info;
  fex->cpu_mask = cpu_mask;
  ok = vh_feature_extractor_init (fex, &info, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_true (vh_feature_extractor_extract (fex, ref, dist, frame, fc,
          &error));
  g_assert_no_error (error);
  g_assert_true (vh_feature_collector_get (fc, "ssimulacra2", frame, &value));
  return value;
}

static void
test_oracle_values (void)
{
  g_autofree gchar *path = g_build_filename (VH_SOURCE_ROOT, "tests", "data",
      "ssimulacra2", "expected.tsv", NULL);
  g_autofree gchar *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  gdouble worst = 0.0;
  guint n = 0, missing = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++) {
    g_auto (GStrv) f = NULL;
    gdouble got, want;

    if (lines[i][0] == '#' || lines[i][0] == '\0')
      continue;
    f = g_strsplit (lines[i], "\t", -1);
    g_assert_cmpuint (g_strv_length (f), ==, 5);
    /* The valgrind run and the GPU machine have the in-tree clips only. */
    if (!vh_golden_pair_find (pairs, f[0])) {
      missing++;
      continue;
    }
    want = g_ascii_strtod (f[4], NULL);
    got = score_frame (pairs, f[0], f[1], f[2], atoi (f[3]), 0);
    if (fabs (got - want) > SSIMU2_TOLERANCE)
      g_error ("%s crop %s options %s frame %s: %.8f, libjxl %.8f", f[0],
          f[1], f[2], f[3], got, want);
    worst = MAX (worst, fabs (got - want));
    n++;
  }
  if (n == 0) {
    g_test_skip ("none of the golden clips of expected.tsv is here");
    return;
  }
  if (missing == 0)
    g_assert_cmpuint (n, >=, 15);
  g_test_message ("%u frames (%u rows without their clips here), largest "
      "|ours - libjxl| %.3g", n, missing, worst);
}

/* The portable kernels, the AVX2 ones (AVX-512 masked) and the AVX-512
 * ones (where the CPU has them; else the masks fall back to what it has)
 * give the same bits, on odd sizes too. */
static void
test_portable_same (void)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  static const gchar *const names[] = { "d_321x241_8bit_noise",
    "c_640x360_10bit_x264"
  };
  static const guint masks[] = { VH_CPU_FLAG_AVX512, 0 };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++) {
    gdouble a;

    if (!vh_golden_pair_find (pairs, names[i]))
      continue;
    a = score_frame (pairs, names[i], "-", "-", 1, VH_CPU_MASK_PORTABLE);
    for (guint m = 0; m < G_N_ELEMENTS (masks); m++) {
      const gdouble b = score_frame (pairs, names[i], "-", "-", 1, masks[m]);

      g_assert_cmpmem (&a, sizeof (a), &b, sizeof (b));
    }
  }
}

/* A frame against itself scores 100 exactly, whatever its content. */
static void
test_identical (void)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  VhGoldenPair *pair = vh_golden_pair_find (pairs, "d_321x241_8bit_x264");
  g_autoptr (GError) error = NULL;
  g_autoptr (VhPicture) ref = vh_golden_read_frame (pair, FALSE, 0, &error);
  g_autoptr (VhFeatureExtractor) fex = new_extractor ("-");
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  gdouble value = 0.0;

  g_assert_no_error (error);
  vh_check_extractor_init (fex, &ref->info, FALSE);
  g_assert_true (vh_feature_extractor_extract (fex, ref, ref, 0, fc, &error));
  g_assert_true (vh_feature_collector_get (fc, "ssimulacra2", 0, &value));
  g_assert_cmpfloat (value, ==, 100.0);
}

static void
test_refusals (void)
{
  static const guint sizes[][2] = { {7, 8}, {8, 7}, {1, 1}, {7, 4000} };
  static const gchar *const bad[][2] = {
    {"matrix", "nan"}, {"matrix", "bt999"}, {"range", "inf"},
    {"range", "tv"}, {"matrix", ""},
  };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
    g_autoptr (GError) error = NULL;

    g_assert_false (vh_check_init_size ("ssimulacra2", NULL, 8, sizes[i][0],
            sizes[i][1], &error));
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "at least 8x8"));
  }
  {
    /* A dump folder that cannot be made fails at init, naming it. */
    static const gchar *const opts[] = { "dump_rgb", "/dev/null/ssimu2",
      NULL
    };
    g_autoptr (GError) error = NULL;

    g_assert_false (vh_check_init_size ("ssimulacra2", opts, 8, 64, 64,
            &error));
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "/dev/null/ssimu2"));
  }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
    g_autoptr (GError) error = NULL;
    const VhFeatureExtractorClass *klass =
        vh_feature_extractor_find ("ssimulacra2", VH_BACKEND_CPU);
    g_autoptr (VhFeatureExtractor) fex = vh_feature_extractor_new (klass);

    g_assert_false (vh_feature_extractor_set_option (fex, bad[i][0],
            bad[i][1], &error));
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, bad[i][0]));
  }
}

/* dump_rgb writes each frame's R'G'B' (6 bytes a pixel) for the oracle. */
static void
test_dump (void)
{
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  VhGoldenPair *pair = vh_golden_pair_find (pairs, "d_321x241_8bit_x264");
  g_autoptr (GError) error = NULL;
  g_autofree gchar *dir = g_dir_make_tmp ("ssimu2-XXXXXX", &error);
  g_autofree gchar *opt = g_strdup_printf ("dump_rgb=%s", dir);
  g_autoptr (VhPicture) ref = vh_golden_read_frame (pair, TRUE, 0, &error);
  g_autoptr (VhPicture) dist = vh_golden_read_frame (pair, FALSE, 0, &error);
  g_autoptr (VhFeatureExtractor) fex = new_extractor (opt);
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  const gchar *names[] = { "ref-0.rgb48", "dis-0.rgb48" };

  g_assert_no_error (error);
  vh_check_extractor_init (fex, &ref->info, FALSE);
  g_assert_true (vh_feature_extractor_extract (fex, ref, dist, 0, fc, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < 2; i++) {
    g_autofree gchar *path = g_build_filename (dir, names[i], NULL);
    GStatBuf st;

    g_assert_cmpint (g_stat (path, &st), ==, 0);
    g_assert_cmpint (st.st_size, ==, 321 * 241 * 6);
    g_assert_cmpint (g_remove (path), ==, 0);
  }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ssimulacra2/oracle-values", test_oracle_values);
  g_test_add_func ("/ssimulacra2/portable-same", test_portable_same);
  g_test_add_func ("/ssimulacra2/identical", test_identical);
  g_test_add_func ("/ssimulacra2/refusals", test_refusals);
  g_test_add_func ("/ssimulacra2/dump", test_dump);
  return g_test_run ();
}
