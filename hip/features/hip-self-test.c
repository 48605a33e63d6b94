/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The self-test: each HIP twin against its CPU twin on the built-in
 * clips, through the engine as a real run goes (uploads, the context's
 * plane pool, two workers), on the device of one transfer. */

#include "hip-self-test.h"

#include "errors.h"
#include "feature-collector.h"

#include <math.h>
#include <string.h>

/* Twins that call the GPU's pow, sin, cos, exp, atan2 or log2, whose
 * last place may differ from glibc's (docs/hip.md). */
static const gchar *const bounded_twins[] = {
  "ciede", "speed_chroma", "speed_temporal", NULL
};

/* Float twins whose sums run in another order than the CPU twin's. */
static const gchar *const relative_twins[] = {
  "float_psnr", "float_ssim", "float_ms_ssim", NULL
};

gdouble
vh_hip_self_test_tolerance (const gchar * feature, gdouble cpu_value)
{
  if (g_strv_contains (bounded_twins, feature))
    return 1e-6;
  if (g_strv_contains (relative_twins, feature))
    return 1e-4 * MAX (1.0, fabs (cpu_value));
  return 0;
}

/* ---- the broken twin of fault-injection builds ------------------------ */

#ifdef VH_HIP_FAULT_INJECTION
/* VH_HIP_SELF_TEST_BREAK=NAME: the frames twin NAME reads on the GPU get
 * a 16x16 block changed from frame 1 on, as a wrong kernel would read or
 * write them, so that the tests see the verdict of a broken twin. */
static gboolean
twin_broken (const gchar * name)
{
  return g_strcmp0 (g_getenv ("VH_HIP_SELF_TEST_BREAK"), name) == 0;
}

static VhPicture *
perturbed_copy (const VhPicture * pic, gint delta)
{
  VhPicture *copy = vh_picture_new (&pic->info);
  const gsize bps = vh_picture_bytes_per_sample (pic);
  const gint64 maxv = ((gint64) 1 << pic->info.bpc) - 1;

  for (guint p = 0; p < pic->n_planes; p++) {
    for (guint y = 0; y < pic->height[p]; y++) {
      const guint8 *src = vh_picture_row (pic, p, y);
      guint8 *dst = vh_picture_row (copy, p, y);
      for (guint x = 0; x < pic->width[p]; x++) {
        gint64 v = bps > 1 ? ((const guint16 *) src)[(gsize) x * pic->step[p]]
            : src[(gsize) x * pic->step[p]];
        if (x >= 8 && x < 24 && y >= pic->height[p] / 2 &&
            y < pic->height[p] / 2 + 16)
          v = CLAMP (v + delta, 0, maxv);
        if (bps > 1)
          ((guint16 *) dst)[(gsize) x * copy->step[p]] = (guint16) v;
        else
          dst[(gsize) x * copy->step[p]] = (guint8) v;
      }
    }
  }
  return copy;
}
#endif

/* A picture of @pic's samples with no device copy of its own: each run
 * uploads its frames as a real one does. */
static VhPicture *
fresh_picture (VhPicture * pic)
{
  return vh_picture_new_wrapped (&pic->info, pic->data, pic->stride,
      pic->step, pic->mem_type, vh_picture_ref (pic),
      (GDestroyNotify) vh_picture_unref);
}

/* ---- one run ---------------------------------------------------------- */

static VhContext *
score_clip (const VhHipSelfTestClip * clip, const gchar * twin,
    VhPictureTransfer * transfer, GError ** error)
{
  VhContextConfig cfg = { 0 };
  const VhPicture *first = g_ptr_array_index (clip->refs, 0);
  VhContext *ctx;
  gboolean broken = FALSE;

#ifdef VH_HIP_FAULT_INJECTION
  broken = transfer && twin_broken (twin);
#endif
  /* two workers: parallel twins run two instances on two streams */
  cfg.n_threads = 2;
  cfg.backends = transfer ? VH_BACKEND_HIP | VH_BACKEND_CPU : VH_BACKEND_CPU;
  cfg.transfer = transfer;
  cfg.extractors = vh_hip_extractor_set ();
  /* a failing GPU is the verdict, not a reason to go on on the CPU */
  cfg.gpu_fallback = FALSE;
  ctx = vh_context_new (&cfg);
  if (!vh_context_add_feature (ctx, twin, NULL, error) ||
      !vh_context_start (ctx, &first->info, error))
    goto fail;
  for (guint i = 0; i < clip->refs->len; i++) {
    g_autoptr (VhPicture) ref = NULL;
    g_autoptr (VhPicture) dist = NULL;

#ifdef VH_HIP_FAULT_INJECTION
    if (broken && i >= 1) {
      ref = perturbed_copy (g_ptr_array_index (clip->refs, i), 9);
      dist = perturbed_copy (g_ptr_array_index (clip->dists, i), -7);
    }
#endif
    if (!ref) {
      ref = fresh_picture (g_ptr_array_index (clip->refs, i));
      dist = fresh_picture (g_ptr_array_index (clip->dists, i));
    }
    if (!vh_context_submit (ctx, ref, dist, NULL, error))
      goto fail;
  }
  if (!vh_context_finish (ctx, error))
    goto fail;
  (void) broken;
  return ctx;

fail:
  vh_context_free (ctx);
  return NULL;
}

/* Every value of @cpu against @gpu; FALSE with *@detail at the first one
 * out of bounds. */
static gboolean
compare_values (const VhHipSelfTestClip * clip, const gchar * twin,
    VhContext * cpu, VhContext * gpu, gdouble * max_diff, gchar ** detail)
{
  VhFeatureCollector *a = vh_context_get_collector (cpu);
  VhFeatureCollector *b = vh_context_get_collector (gpu);
  const guint n_frames = vh_context_n_frames (cpu);

  for (guint j = 0; j < vh_feature_collector_n_features (a); j++) {
    const gchar *name = vh_feature_collector_feature_name (a, j);
    for (guint i = 0; i < n_frames; i++) {
      gdouble va, vb, d;
      if (!vh_feature_collector_get (a, name, i, &va))
        continue;
      if (!vh_feature_collector_get (b, name, i, &vb)) {
        *detail = g_strdup_printf ("%s, frame %u: %s missing on the GPU",
            clip->label, i, name);
        return FALSE;
      }
      /* equal infinities (ciede of equal pictures) are no difference */
      d = (isnan (va) && isnan (vb)) || va == vb ? 0 : fabs (va - vb);
      if (isnan (d))
        d = INFINITY;
      *max_diff = MAX (*max_diff, d);
      if (d > vh_hip_self_test_tolerance (twin, va)) {
        *detail = g_strdup_printf ("%s, frame %u: %s %.17g on the CPU vs "
            "%.17g on the GPU", clip->label, i, name, va, vb);
        return FALSE;
      }
    }
  }
  return TRUE;
}

/* Whether the one feature of @ctx ran on the GPU; *@where the dispatch
 * line otherwise. */
static gboolean
ran_on_gpu (VhContext * ctx, gchar ** where)
{
  g_autofree gchar *dispatch = vh_context_describe_dispatch (ctx);

  if (strstr (dispatch, ": hip") && !strstr (dispatch, "then cpu"))
    return TRUE;
  *where = g_strdup_printf ("ran as \"%s\"", dispatch);
  return FALSE;
}

static void
test_twin (const VhHipTwin * twin, GPtrArray * clips,
    VhPictureTransfer * transfer, VhHipSelfTestResult * r)
{
  VhHipDevice *device = vh_picture_transfer_get_device (transfer);
  g_autofree gchar *refusal = NULL;
  guint n_scored = 0;

  r->twin = twin->cpu_name;
  for (guint m = 0; m < G_N_ELEMENTS (twin->modules) && twin->modules[m];
      m++) {
    GError *err = NULL;
    if (!vh_hip_module_get (device, twin->modules[m], &err)) {
      r->verdict = VH_HIP_SELF_TEST_FAIL;
      r->detail = g_strdup_printf ("kernels not loaded: %s", err->message);
      g_error_free (err);
      return;
    }
  }
  for (guint c = 0; c < clips->len; c++) {
    const VhHipSelfTestClip *clip = g_ptr_array_index (clips, c);
    GError *cpu_err = NULL, *gpu_err = NULL;
    VhContext *cpu = score_clip (clip, twin->cpu_name, NULL, &cpu_err);
    VhContext *gpu = score_clip (clip, twin->cpu_name, transfer, &gpu_err);

    if (!cpu && !gpu) {
      /* the feature refuses this clip (size, depth) on both */
      if (!refusal)
        refusal = g_strdup (cpu_err->message);
    } else if (!gpu) {
      r->verdict = VH_HIP_SELF_TEST_FAIL;
      r->detail = g_strdup_printf ("%s: %s", clip->label, gpu_err->message);
    } else if (!cpu) {
      r->verdict = VH_HIP_SELF_TEST_FAIL;
      r->detail = g_strdup_printf ("%s: the CPU twin refuses it (%s) but "
          "the GPU twin scores it", clip->label, cpu_err->message);
    } else if (!ran_on_gpu (gpu, &r->detail)) {
      r->verdict = VH_HIP_SELF_TEST_SKIP;
    } else if (!compare_values (clip, twin->cpu_name, cpu, gpu,
            &r->max_diff, &r->detail)) {
      r->verdict = VH_HIP_SELF_TEST_FAIL;
    } else {
      n_scored++;
    }
    g_clear_error (&cpu_err);
    g_clear_error (&gpu_err);
    g_clear_pointer (&cpu, vh_context_free);
    g_clear_pointer (&gpu, vh_context_free);
    if (r->detail)
      return;
  }
  if (n_scored == 0) {
    r->verdict = VH_HIP_SELF_TEST_SKIP;
    r->detail = g_strdup_printf ("no built-in clip fits it: %s",
        refusal ? refusal : "?");
  }
}

/* "device 0: AMD Radeon RX 7900 XTX (AMD, gfx1100, 24.0 GiB); runtime:
 * ...; kernels: precompiled gfx1100 code object". */
static gchar *
describe_device (VhHipDevice * device, const gchar * const *twins)
{
  const VhHipDeviceInfo *info = vh_hip_device_get_info (device);
  const gchar *runtime = vh_hip_runtime_describe (info->vendor);
  g_autoptr (GPtrArray) loads = g_ptr_array_new ();
  g_autoptr (GString) kernels = g_string_new (NULL);

  for (const VhHipTwin * t = vh_hip_twins; t->klass; t++) {
    if (twins && !g_strv_contains (twins, t->cpu_name))
      continue;
    for (guint m = 0; m < G_N_ELEMENTS (t->modules) && t->modules[m]; m++) {
      VhHipModule *module = vh_hip_module_get (device, t->modules[m], NULL);
      const gchar *how = module ? vh_hip_module_describe (module) :
          "not loaded";
      if (!g_ptr_array_find_with_equal_func (loads, how, g_str_equal, NULL)) {
        g_ptr_array_add (loads, (gpointer) how);
        g_string_append_printf (kernels, "%s%s", kernels->len ? ", " : "",
            how);
      }
    }
  }
  return g_strdup_printf ("device %u: %s (%s, %s, %.1f GiB); runtime: %s; "
      "kernels: %s", info->index, info->name,
      vh_hip_vendor_to_string (info->vendor), info->arch,
      info->total_memory / (1024.0 * 1024.0 * 1024.0),
      runtime ? runtime : "?", kernels->len ? kernels->str : "none");
}

VhHipSelfTest *
vh_hip_self_test_run (VhPictureTransfer * transfer,
    const gchar * const *twins, GError ** error)
{
  VhHipDevice *device = vh_picture_transfer_get_device (transfer);
  g_autoptr (GPtrArray) clips = NULL;
  VhHipSelfTest *test;

  for (guint i = 0; twins && twins[i]; i++) {
    const VhHipTwin *t = vh_hip_twins;
    while (t->klass && strcmp (t->cpu_name, twins[i]) != 0)
      t++;
    if (!t->klass) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "no GPU twin named '%s' to test", twins[i]);
      return NULL;
    }
  }
  clips = vh_hip_self_test_clips ();
  test = g_new0 (VhHipSelfTest, 1);
  test->results = g_array_new (FALSE, TRUE, sizeof (VhHipSelfTestResult));
  test->device_line = describe_device (device, twins);
  for (const VhHipTwin * t = vh_hip_twins; t->klass; t++) {
    VhHipSelfTestResult r = { 0 };
    if (twins && !g_strv_contains (twins, t->cpu_name))
      continue;
    test_twin (t, clips, transfer, &r);
    if (r.verdict == VH_HIP_SELF_TEST_FAIL)
      test->n_failed++;
    g_array_append_val (test->results, r);
  }
  return test;
}

void
vh_hip_self_test_free (VhHipSelfTest * test)
{
  if (!test)
    return;
  for (guint i = 0; i < test->results->len; i++)
    g_free (g_array_index (test->results, VhHipSelfTestResult, i).detail);
  g_array_unref (test->results);
  g_free (test->device_line);
  g_free (test);
}

gchar *
vh_hip_self_test_result_line (const VhHipSelfTestResult * r)
{
  static const gchar *const verdicts[] = { "PASS", "FAIL", "SKIP" };

  if (r->verdict == VH_HIP_SELF_TEST_SKIP)
    return g_strdup_printf ("SKIP %s (%s)", r->twin, r->detail);
  if (r->detail)
    return g_strdup_printf ("%s %s (%s)", verdicts[r->verdict], r->twin,
        r->detail);
  return g_strdup_printf ("%s %s (max |diff| %.3g)", verdicts[r->verdict],
      r->twin, r->max_diff);
}

gchar **
vh_hip_self_test_failed (const VhHipSelfTest * test)
{
  GPtrArray *names = g_ptr_array_new ();

  for (guint i = 0; i < test->results->len; i++) {
    const VhHipSelfTestResult *r = &g_array_index (test->results,
        VhHipSelfTestResult, i);
    if (r->verdict == VH_HIP_SELF_TEST_FAIL)
      g_ptr_array_add (names, g_strdup (r->twin));
  }
  g_ptr_array_add (names, NULL);
  return (gchar **) g_ptr_array_free (names, FALSE);
}
