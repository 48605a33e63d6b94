/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The integer ADM twin on the GPU against the CPU twin, value for value
 * and bit for bit: every frame of the golden pairs (default options and
 * the gain limit of 1), synthetic pictures of odd sizes (those where the
 * last wavelet column takes the CPU twin's unmirrored path included) at 8,
 * 10, 12 and 16 bits under several option sets; then the kernel time per
 * frame at 1080p and 2160p. The class checks run everywhere; the rest
 * exits 77 without a GPU. VH_ADM_TEST_QUICK=1 runs a short subset (for
 * memory checkers) without timing; VH_ADM_TEST_NO_TIMING=1 skips only the
 * timing. */

#include "hip-test-gpu.h"
#include "hip-integer-adm-private.h"
#include "hip-picture.h"
#include "golden.h"

#include <math.h>
#include <string.h>

extern const VhFeatureExtractorClass vh_hip_fex_integer_adm;

#define N_OUTPUTS 7

static const gchar *const outputs[N_OUTPUTS] = {
  "integer_adm2", "integer_aim", "integer_adm3", "integer_adm_scale0",
  "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3",
};

static VhHipDevice *device;
static guint n_compared, n_failed;
static gdouble max_diff[N_OUTPUTS];

static VhFeatureExtractor *
adm_new (const VhFeatureExtractorClass * klass, const VhPictureInfo * info,
    const gchar * const *opts)
{
  VhFeatureExtractor *fex = vh_feature_extractor_new (klass);
  GError *error = NULL;

  for (guint i = 0; opts && opts[i]; i += 2) {
    if (!vh_feature_extractor_set_option (fex, opts[i], opts[i + 1], &error))
      g_error ("option %s=%s: %s", opts[i], opts[i + 1], error->message);
  }
  fex->device = device;
  if (!vh_feature_extractor_init (fex, info, &error))
    g_error ("init %s: %s", klass->name, error->message);
  return fex;
}

/* Scores the pair with both twins and compares every output. */
static void
compare_frame (VhFeatureExtractor * cpu, VhFeatureExtractor * gpu,
    VhPicture * ref, VhPicture * dist, guint index, const gchar * what)
{
  g_autoptr (VhFeatureCollector) fc_cpu = vh_feature_collector_new ();
  g_autoptr (VhFeatureCollector) fc_gpu = vh_feature_collector_new ();
  g_autoptr (VhPicture) d_ref = NULL;
  g_autoptr (VhPicture) d_dist = NULL;
  GError *error = NULL;

  d_ref = vh_hip_picture_upload (device, ref, &error);
  if (d_ref)
    d_dist = vh_hip_picture_upload (device, dist, &error);
  if (!d_dist)
    g_error ("upload: %s", error->message);
  if (!vh_feature_extractor_extract (cpu, ref, dist, index, fc_cpu, &error))
    g_error ("cpu extract: %s", error->message);
  if (!vh_feature_extractor_extract (gpu, d_ref, d_dist, index, fc_gpu, &error))
    g_error ("gpu extract (%s): %s", what, error->message);

  if (vh_feature_collector_n_features (fc_cpu) != N_OUTPUTS ||
      vh_feature_collector_n_features (fc_gpu) != N_OUTPUTS)
    g_error ("%s: %u outputs on the CPU, %u on the GPU", what,
        vh_feature_collector_n_features (fc_cpu),
        vh_feature_collector_n_features (fc_gpu));
  for (guint i = 0; i < N_OUTPUTS; i++) {
    g_autofree gchar *name = vh_feature_extractor_output_name (cpu,
        outputs[i]);
    gdouble a, b;
    gboolean has_a = vh_feature_collector_get (fc_cpu, name, index, &a);
    gboolean has_b = vh_feature_collector_get (fc_gpu, name, index, &b);

    /* The collector reads NaN as no value: both NaN is agreement. */
    n_compared++;
    if (!has_a && !has_b)
      continue;
    if (!has_a || !has_b) {
      g_test_fail ();
      if (n_failed++ < 20)
        printf ("MISMATCH %s frame %u %s: NaN on one side only\n", what,
            index, name);
      max_diff[i] = INFINITY;
      continue;
    }
    if (memcmp (&a, &b, sizeof (a)) != 0) {
      gdouble d = fabs (a - b);
      g_test_fail ();
      if (n_failed++ < 20)
        printf ("MISMATCH %s frame %u %s: cpu %.17g gpu %.17g\n", what,
            index, name, a, b);
      max_diff[i] = MAX (max_diff[i], isnan (d) ? INFINITY : d);
    }
  }
}

static void
run_golden (GPtrArray * pairs, const gchar * const *opts, const gchar * tag,
    guint max_frames)
{
  for (guint n = 0; n < pairs->len; n++) {
    const VhGoldenPair *pair = g_ptr_array_index (pairs, n);
    VhPictureInfo info;
    g_autoptr (VhFeatureExtractor) cpu = NULL;
    g_autoptr (VhFeatureExtractor) gpu = NULL;
    g_autofree gchar *what = g_strdup_printf ("%s%s", pair->name, tag);
    const guint before = n_failed;

    if (pair->width < 33 || pair->height < 33)
      continue;
    g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, pair->bpc,
            pair->width, pair->height, NULL));
    cpu = adm_new (vh_feature_extractor_find ("adm", VH_BACKEND_CPU), &info,
        opts);
    gpu = adm_new (&vh_hip_fex_integer_adm, &info, opts);
    for (guint f = 0; f < MIN (pair->n_frames, max_frames); f++) {
      GError *error = NULL;
      g_autoptr (VhPicture) ref = vh_golden_read_frame (pair, TRUE, f, &error);
      g_autoptr (VhPicture) dist = ref ? vh_golden_read_frame (pair, FALSE,
          f, &error) : NULL;

      if (!dist)
        g_error ("%s frame %u: %s", pair->name, f, error->message);
      compare_frame (cpu, gpu, ref, dist, f, what);
    }
    printf ("# %s %s: %u frames\n", n_failed == before ? "ok" : "FAIL", what,
        MIN (pair->n_frames, max_frames));
  }
}

/* ---- synthetic pictures ---------------------------------------------- */

static guint32
lcg (guint32 * state)
{
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}

/* Texture, edges and noise; for @dist, the same picture blurred in one
 * band, sharpened in another (enhancement), noisier in a third, with a
 * block of extremes. */
static VhPicture *
synthetic (guint bpc, guint w, guint h, guint frame, gboolean dist)
{
  VhPictureInfo info;
  VhPicture *pic;
  const gint max = (1 << bpc) - 1;
  guint32 seed = 12345u + frame * 7919u + w * 31u + h + bpc;
  gdouble *v = g_new (gdouble, (gsize) w * h);

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, bpc, w, h,
          NULL));
  pic = vh_picture_new (&info);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++) {
      gdouble t = 0.5 + 0.3 * sin (x * 0.21 + frame) * cos (y * 0.13) +
          0.15 * ((x / 7 + y / 5) % 2 ? 1 : -1);
      t += ((lcg (&seed) & 1023) / 1023.0 - 0.5) * 0.1;
      v[(gsize) y * w + x] = t;
    }
  if (dist) {
    guint32 dseed = seed ^ 0x9e3779b9u;
    for (guint y = 1; y + 1 < h; y++)
      for (guint x = 1; x + 1 < w; x++) {
        gdouble *c = &v[(gsize) y * w + x];
        gdouble m = (c[-1] + c[1] + c[-(gssize) w] + c[w] + 4 * c[0]) / 8.0;
        if (x < w / 3)
          *c = m;
        else if (x < 2 * w / 3)
          *c = c[0] + 1.5 * (c[0] - m);
        else
          *c += ((lcg (&dseed) & 1023) / 1023.0 - 0.5) * 0.2;
      }
  }
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++) {
      gdouble t = v[(gsize) y * w + x];
      gint s;
      if (x >= w / 2 && x < w / 2 + 8 && y >= h / 2 && y < h / 2 + 8)
        t = ((x + y + dist) % 2) ? 1.0 : 0.0;
      s = (gint) lrint (t * max);
      s = CLAMP (s, 0, max);
      if (bpc == 8)
        ((guint8 *) vh_picture_row (pic, 0, y))[x] = s;
      else
        ((guint16 *) vh_picture_row (pic, 0, y))[x] = s;
    }
  g_free (v);
  return pic;
}

static void
run_synthetic (guint bpc, guint w, guint h, guint frames,
    const gchar * const *opts, const gchar * tag)
{
  VhPictureInfo info;
  g_autoptr (VhFeatureExtractor) cpu = NULL;
  g_autoptr (VhFeatureExtractor) gpu = NULL;
  g_autofree gchar *what = g_strdup_printf ("%ux%u %u-bit%s", w, h, bpc, tag);
  const guint before = n_failed;

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, bpc, w, h,
          NULL));
  cpu = adm_new (vh_feature_extractor_find ("adm", VH_BACKEND_CPU), &info,
      opts);
  gpu = adm_new (&vh_hip_fex_integer_adm, &info, opts);
  for (guint f = 0; f < frames; f++) {
    g_autoptr (VhPicture) ref = synthetic (bpc, w, h, f, FALSE);
    g_autoptr (VhPicture) dist = synthetic (bpc, w, h, f, TRUE);
    compare_frame (cpu, gpu, ref, dist, f, what);
  }
  if (n_failed != before)
    printf ("FAIL %s\n", what);
}

/* ---- timing ------------------------------------------------------------ */

static void
time_size (guint bpc, guint w, guint h)
{
  const guint n = 200;
  VhPictureInfo info;
  g_autoptr (VhFeatureExtractor) gpu = NULL;
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  g_autoptr (VhPicture) ref = synthetic (bpc, w, h, 0, FALSE);
  g_autoptr (VhPicture) dist = synthetic (bpc, w, h, 0, TRUE);
  g_autoptr (VhPicture) d_ref = NULL;
  g_autoptr (VhPicture) d_dist = NULL;
  g_autoptr (VhHipEvent) start = NULL;
  g_autoptr (VhHipEvent) end = NULL;
  VhHipAdmPriv *p;
  gpointer d_out;
  GError *error = NULL;
  gfloat ms;
  gint64 t0;

  g_assert_true (vh_picture_info_init (&info, VH_PIX_FMT_YUV420, bpc, w, h,
          NULL));
  gpu = adm_new (&vh_hip_fex_integer_adm, &info, NULL);
  p = gpu->priv;
  d_ref = vh_hip_picture_upload (device, ref, &error);
  d_dist = vh_hip_picture_upload (device, dist, &error);
  start = vh_hip_event_new (device, TRUE, &error);
  end = vh_hip_event_new (device, TRUE, &error);
  if (!d_ref || !d_dist || !start || !end ||
      !vh_hip_malloc (device, 4096, &d_out, &error))
    g_error ("timing setup: %s", error->message);

  /* Warm up (module load), then back to back on the twin's stream. */
  for (guint i = 0; i < 3; i++)
    g_assert_true (vh_feature_extractor_extract (gpu, d_ref, d_dist, i, fc,
            NULL));
  g_assert_true (vh_hip_event_record (start, p->hip.stream, NULL));
  for (guint i = 0; i < n; i++)
    g_assert_true (vh_hip_adm_enqueue (gpu, d_ref, d_dist, d_out, NULL));
  g_assert_true (vh_hip_event_record (end, p->hip.stream, NULL));
  g_assert_true (vh_hip_event_synchronize (end, NULL));
  g_assert_true (vh_hip_event_elapsed_ms (start, end, &ms, NULL));
  printf ("timing %ux%u %u-bit: kernels %.4f ms/frame (%.0f frames/s, "
      "back to back on one stream)\n", w, h, bpc, ms / n, n * 1000.0 / ms);

  /* Whole extract: queue, one copy back, wait, finish on the host. */
  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < n; i++)
    g_assert_true (vh_feature_extractor_extract (gpu, d_ref, d_dist, 10 + i,
            fc, NULL));
  printf ("timing %ux%u %u-bit: extract() %.4f ms/frame, one instance\n",
      w, h, bpc, (g_get_monotonic_time () - t0) / 1000.0 / n);
  vh_hip_free (device, d_out);
}

/* ---- class -------------------------------------------------------------- */

static void
check_class (void)
{
  const VhFeatureExtractorClass *cpu =
      vh_feature_extractor_find ("adm", VH_BACKEND_CPU);
  const VhFeatureExtractorClass *gpu = &vh_hip_fex_integer_adm;
  guint i;

  g_assert_nonnull (cpu);
  g_assert_cmpstr (gpu->name, ==, cpu->name);
  g_assert_true (gpu->backend == VH_BACKEND_HIP);
  g_assert_true (gpu->mem_type == VH_MEMORY_HIP_DEVICE);
  g_assert_cmpuint (gpu->min_width, ==, cpu->min_width);
  g_assert_cmpuint (gpu->min_height, ==, cpu->min_height);
  for (i = 0; cpu->provides[i]; i++)
    g_assert_cmpstr (gpu->provides[i], ==, cpu->provides[i]);
  g_assert_null (gpu->provides[i]);
  for (i = 0; cpu->options[i].name; i++) {
    g_assert_cmpstr (gpu->options[i].name, ==, cpu->options[i].name);
    g_assert_cmpstr (gpu->options[i].alias, ==, cpu->options[i].alias);
    g_assert_true (gpu->options[i].type == cpu->options[i].type);
    g_assert_true (gpu->options[i].default_value ==
        cpu->options[i].default_value);
    g_assert_true (gpu->options[i].min == cpu->options[i].min);
    g_assert_true (gpu->options[i].max == cpu->options[i].max);
    g_assert_true (gpu->options[i].flags == cpu->options[i].flags);
  }
  g_assert_null (gpu->options[i].name);
  printf ("# ok class: name, provides, options and minimum size of the CPU "
      "twin\n");
}

static const gchar *const egl1[] = { "adm_enhn_gain_limit", "1.0", NULL };

static const struct
{
  const gchar *tag;
  const gchar *opts[9];
} option_sets[] = {
  {"", {NULL}},
  {" egl=1", {"adm_enhn_gain_limit", "1.0", NULL}},
  {" egl=1.2 nw=0.2", {"adm_enhn_gain_limit", "1.2", "adm_noise_weight",
          "0.2", NULL}},
  {" barten", {"adm_csf_mode", "1", NULL}},
  {" barten scf=20", {"adm_csf_mode", "1", "adm_csf_scale", "20",
          "adm_csf_diag_scale", "30", NULL}},
  {" blend 2160@5", {"adm_csf_mode", "2", "adm_ref_display_height",
          "2160", "adm_norm_view_dist", "5", NULL}},
  {" blend-mae", {"adm_csf_mode", "3", NULL}},
  {" skip0 skip_aim", {"adm_skip_scale0", "1", "adm_skip_aim", "1",
          "adm_dlm_weight", "0.8", NULL}},
  {" min=0.3", {"adm_min_val", "0.3", NULL}},
};
static const guint sizes[][2] = {
  {33, 33}, {65, 37}, {66, 71}, {129, 67}, {130, 45}, {257, 99},
  {321, 241}, {640, 360},
};
static const guint depths[] = { 8, 10, 12, 16 };

/* VH_ADM_TEST_QUICK: two frames a pair, small sizes, no timing. */
static gboolean quick;
static GPtrArray *pairs;

static void
test_golden (void)
{
  run_golden (pairs, NULL, "", quick ? 2 : G_MAXUINT);
}

static void
test_golden_egl1 (void)
{
  run_golden (pairs, egl1, " egl=1", quick ? 2 : G_MAXUINT);
}

static void
test_synthetic (void)
{
  for (guint d = 0; d < G_N_ELEMENTS (depths); d++) {
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
      if (quick && sizes[s][0] > 130)
        continue;
      for (guint o = 0; o < G_N_ELEMENTS (option_sets); o++) {
        if (quick && o > 1)
          break;
        run_synthetic (depths[d], sizes[s][0], sizes[s][1],
            o == 0 && !quick ? 3 : 1, option_sets[o].opts, option_sets[o].tag);
      }
    }
    printf ("# ok-so-far %u-bit synthetic: %u values compared, %u differ\n",
        depths[d], n_compared, n_failed);
  }

  for (guint i = 0; i < N_OUTPUTS; i++)
    printf ("max |cpu - gpu| %s: %g\n", outputs[i], max_diff[i]);
  printf ("%s: %u values compared, %u differ\n", n_failed ? "FAIL" : "PASS",
      n_compared, n_failed);
}

/* Kernel time, when every value agreed. */
static void
test_timing (void)
{
  if (quick || n_failed || g_getenv ("VH_ADM_TEST_NO_TIMING")) {
    g_test_skip (n_failed ? "values differ" : "quick run");
    return;
  }
  time_size (8, 1920, 1080);
  time_size (10, 1920, 1080);
  time_size (8, 3840, 2160);
  time_size (10, 3840, 2160);
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  quick = g_getenv ("VH_ADM_TEST_QUICK") != NULL;
  /* The class needs no GPU. */
  check_class ();
  device = vh_hip_test_open_gpu_or_skip ();

  pairs = vh_golden_pairs ();
  if (!pairs || pairs->len == 0) {
    printf ("FAIL: no golden pairs\n");
    return 1;
  }
  g_test_add_func ("/hip-adm/golden", test_golden);
  g_test_add_func ("/hip-adm/golden-egl1", test_golden_egl1);
  g_test_add_func ("/hip-adm/synthetic", test_synthetic);
  g_test_add_func ("/hip-adm/timing", test_timing);
  ret = g_test_run ();
  g_ptr_array_unref (pairs);
  vh_hip_device_unref (device);
  return ret;
}
