/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twins and the backend choice.
 *
 * Everywhere: every HIP class in the HIP extractor set has a CPU class of
 * the same name with the same outputs and options; the set is made once,
 * each twin table row names its class's CPU twin; a
 * feature whose options its twin leaves to the CPU (cambi's heatmaps_path)
 * runs on its CPU twin when the context allows HIP and CPU, with the same
 * values; vh_hip_select_backend() says
 * "hip" without a usable GPU is an error, "auto" falls back with a reason.
 *
 * On a GPU (VH_TEST_MODE=gpu, else those parts are skipped): every HIP
 * class (the set is searched, so twins added later are covered) is
 * compared frame for frame with its CPU twin through the engine, on the
 * golden pairs (VH_GOLDEN_DIR, at most 10 frames each) and on synthetic
 * odd-size clips of 8 to 16 bits in every chroma layout (and semi-planar
 * chroma): integer features and the float ones listed in
 * exact_float_features exactly, those in bounded_features (GPU libm) within
 * 1e-6, runs with options in libm_options (the GPU's powf) within 1e-6
 * relative, other
 * float ones within 1e-4; the motion twins (motion, float_motion),
 * started at a frame index other than 0, hold the last frame's motion2
 * until flush, which emits it equal to the CPU twin's; a twin that refuses
 * some options leaves that feature to its CPU twin and says why; the
 * vmaf_v1.0.16 models score alike on HIP (within 1e-4) with no feature
 * that has a twin left on the CPU.
 *
 * VH_TEST_MODE=emulated: the same comparison on a GPU stand-in whose
 * kernels run their source on the host (tests/hip/fake-cuda.c or
 * fake-hip-amd.c with VH_FAKE_CUDA_KERNELS=emulate): the twins named in
 * VH_TEST_TWINS (those with an emulation) on the golden pairs only (at
 * most VH_TEST_FRAMES frames each), through the whole HIP layer and the
 * vendor's path, and every value must equal the CPU twin's exactly: the
 * host's libm is the CPU twins' own. No models (cambi has no emulation),
 * no option variants (the emulation is slow; the GPU run has them).
 *
 * The clips and engine runs are in hip-features-clips.c, the comparisons
 * on a GPU in test-hip-features-twins.c. */

#include "hip-features-test.h"

#include "errors.h"
#include "hip-test-gpu.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static const gchar *mode;
VhPictureTransfer *transfer;
VhHipDevice *device;

/* ---- classes ----------------------------------------------------------- */

static gboolean
same_options (const VhOptionSpec * a, const VhOptionSpec * b)
{
  guint i;

  for (i = 0; a && a[i].name; i++) {
    if (!b || !b[i].name || strcmp (a[i].name, b[i].name) ||
        g_strcmp0 (a[i].alias, b[i].alias) || a[i].type != b[i].type ||
        a[i].default_value != b[i].default_value || a[i].min != b[i].min ||
        a[i].max != b[i].max || a[i].flags != b[i].flags)
      return FALSE;
  }
  return !b || !b[i].name;
}

static gboolean
same_provides (const gchar * const *a, const gchar * const *b)
{
  return g_strv_equal ((const gchar * const *) a, (const gchar * const *) b);
}

static void
test_classes (void)
{
  guint n_before, n_after, n_twins, n_hip = 0;
  const VhFeatureExtractorClass *const *list;

  vh_extractor_set_list (vh_extractor_set_get_builtin (), &n_before);
  list = vh_extractor_set_list (vh_hip_extractor_set (), &n_after);
  VH_TEST_CHECK (vh_hip_extractor_set () == vh_hip_extractor_set (),
      "the HIP extractor set is made more than once");
  vh_hip_features_list (&n_twins);
  VH_TEST_CHECK (n_after == n_before + n_twins, "%u classes with the twins, %u "
      "built in, %u twins", n_after, n_before, n_twins);
  for (guint i = 0; vh_hip_twins[i].klass; i++)
    VH_TEST_CHECK (!g_strcmp0 (vh_hip_twins[i].cpu_name, vh_hip_twins[i].klass->name),
        "twin table row %u: CPU class %s, twin %s", i,
        vh_hip_twins[i].cpu_name, vh_hip_twins[i].klass->name);

  for (guint i = 0; list[i]; i++) {
    const VhFeatureExtractorClass *hip = list[i], *cpu;
    if (!(hip->backend & VH_BACKEND_HIP))
      continue;
    n_hip++;
    cpu = vh_feature_extractor_find (hip->name, VH_BACKEND_CPU);
    VH_TEST_CHECK (cpu != NULL, "HIP class %s has no CPU twin", hip->name);
    if (!cpu)
      continue;
    VH_TEST_CHECK (same_provides (hip->provides, cpu->provides),
        "%s: outputs differ from the CPU twin's", hip->name);
    VH_TEST_CHECK (same_options (hip->options, cpu->options),
        "%s: options differ from the CPU twin's", hip->name);
    VH_TEST_CHECK (hip->mem_type == VH_MEMORY_HIP_DEVICE,
        "%s: a HIP twin reads device pictures", hip->name);
    VH_TEST_CHECK (hip->lookahead >= cpu->lookahead,
        "%s: lookahead %u below the CPU twin's %u", hip->name, hip->lookahead,
        cpu->lookahead);
    VH_TEST_CHECK (vh_extractor_set_find (vh_hip_extractor_set (), hip->name,
            VH_BACKEND_HIP | VH_BACKEND_CPU) == hip,
        "%s: the set does not prefer the twin", hip->name);
    printf ("# twin %s: %s\n", hip->name,
        (hip->flags & VH_EXTRACTOR_FLAG_TEMPORAL) ? "temporal" : "parallel");
  }
  VH_TEST_CHECK (n_hip == n_twins, "%u HIP classes in the set, %u twins listed",
      n_hip, n_twins);
}

/* ---- without a GPU ----------------------------------------------------- */

/* cambi's twin leaves heatmaps_path to the CPU twin: with HIP and CPU
 * allowed such an instance runs on the CPU, with the CPU's values; with a
 * device, psnr and a plain cambi next to it run on the GPU. */
static void
test_fallback (void)
{
  Clip *clip = clip_new ("synthetic 256x224 8-bit");
  VhPictureInfo info;
  g_autoptr (GError) error = NULL;
  VhContext *cpu, *mixed;
  VhContextConfig cfg = { 0 };
  g_autofree gchar *dispatch = NULL;
  g_autofree gchar *dir = g_dir_make_tmp ("cambi-heatmaps-XXXXXX", NULL);
  g_autofree gchar *cpu_dir = g_build_filename (dir, "cpu", NULL);
  g_autofree gchar *mixed_dir = g_build_filename (dir, "mixed", NULL);
  const gchar *cpu_opts[] = { "heatmaps_path", cpu_dir, NULL };
  const gchar *mixed_opts[] = { "heatmaps_path", mixed_dir, NULL };

  vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, 256, 224, NULL);
  for (guint t = 0; t < 3; t++) {
    VhPicture *r = vh_picture_new (&info), *d = vh_picture_new (&info);
    fill_picture (r, 3, t, FALSE);
    fill_picture (d, 3, t, TRUE);
    g_ptr_array_add (clip->refs, r);
    g_ptr_array_add (clip->dists, d);
  }
  cpu = score (clip, "cambi", cpu_opts, VH_BACKEND_CPU, 1, &error);
  mixed = cpu ? score (clip, "cambi", mixed_opts,
      VH_BACKEND_HIP | VH_BACKEND_CPU, 1, &error) : NULL;
  VH_TEST_CHECK (mixed != NULL, "cambi with HIP | CPU: %s",
      error ? error->message : "?");
  if (mixed) {
    dispatch = vh_context_describe_dispatch (mixed);
    VH_TEST_CHECK (!strcmp (dispatch, "cambi: cpu (heatmaps_path is written on the "
            "CPU)"), "dispatch: %s", dispatch);
    compare_runs ("cambi fallback", cpu, mixed, "cambi");
    vh_context_free (mixed);
  }
  if (cpu)
    vh_context_free (cpu);
  vh_test_remove_dir (dir);

  /* The dispatch a device gives: the twin where there is one. */
  cfg.backends = VH_BACKEND_HIP | VH_BACKEND_CPU;
  cfg.extractors = vh_hip_extractor_set ();
  mixed = vh_context_new (&cfg);
  if (vh_context_add_feature (mixed, "psnr", NULL, NULL) &&
      vh_context_add_feature (mixed, "cambi", NULL, NULL)) {
    g_free (dispatch);
    dispatch = vh_context_describe_dispatch (mixed);
    VH_TEST_CHECK (!strcmp (dispatch, "psnr: hip, cambi: hip"), "dispatch: %s",
        dispatch);
  }
  vh_context_free (mixed);

  /* The twin converts each input with its own colorimetry; dump_rgb is
   * the CPU twin's. */
  mixed = vh_context_new (&cfg);
  {
    const gchar *other[] = { "range", "full", "dist_range", "limited", NULL };
    const gchar *dump[] = { "dump_rgb", "unused", NULL };

    if (vh_context_add_feature (mixed, "ssimulacra2", other, NULL)) {
      g_free (dispatch);
      dispatch = vh_context_describe_dispatch (mixed);
      VH_TEST_CHECK (!strcmp (dispatch, "ssimulacra2: hip"), "dispatch: %s",
          dispatch);
    }
    vh_context_free (mixed);
    mixed = vh_context_new (&cfg);
    if (vh_context_add_feature (mixed, "ssimulacra2", dump, NULL)) {
      g_free (dispatch);
      dispatch = vh_context_describe_dispatch (mixed);
      VH_TEST_CHECK (!strcmp (dispatch, "ssimulacra2: cpu (dump_rgb is "
              "written on the CPU)"), "dispatch: %s", dispatch);
    }
  }
  vh_context_free (mixed);

  clip_free (clip);
}

/* Without a usable GPU (no runtime, or a driver that cannot load our
 * kernels): hip is an error, auto the CPU with a reason, cpu the CPU. */
static void
test_select_without_gpu (void)
{
  VhContextConfig cfg = { 0 };
  gchar *reason = NULL;
  GError *error = NULL;
  VhBackendChoice choice;

  VH_TEST_CHECK (!vh_hip_select_backend (VH_BACKEND_CHOICE_HIP,
          VH_HIP_VENDOR_UNKNOWN, 0, &cfg, &reason, &error),
      "backend hip without a GPU succeeded");
  VH_TEST_CHECK (g_error_matches (error, VH_ERROR, VH_ERROR_BACKEND),
      "backend hip: wrong error %s", error ? error->message : "none");
  VH_TEST_CHECK (cfg.transfer == NULL && reason == NULL,
      "backend hip: device or reason set");
  if (error)
    printf ("# hip without a GPU: %s\n", error->message);
  g_clear_error (&error);

  VH_TEST_CHECK (vh_hip_select_backend (VH_BACKEND_CHOICE_AUTO,
          VH_HIP_VENDOR_UNKNOWN, 0, &cfg, &reason, &error),
      "backend auto failed: %s", error ? error->message : "");
  VH_TEST_CHECK (cfg.backends == VH_BACKEND_CPU && cfg.transfer == NULL,
      "auto did not pick CPU");
  VH_TEST_CHECK (reason && !strchr (reason, '\n'), "auto: no one-line reason");
  if (reason)
    printf ("# auto without a GPU: %s\n", reason);
  g_clear_pointer (&reason, g_free);

  VH_TEST_CHECK (vh_hip_select_backend (VH_BACKEND_CHOICE_CPU,
          VH_HIP_VENDOR_UNKNOWN, 0, &cfg, &reason, &error) &&
      cfg.backends == VH_BACKEND_CPU && !cfg.transfer && !reason &&
      !cfg.gpu_fallback, "backend cpu");

  VH_TEST_CHECK (vh_backend_choice_from_string ("HIP", &choice) &&
      choice == VH_BACKEND_CHOICE_HIP, "parse HIP");
  VH_TEST_CHECK (!vh_backend_choice_from_string ("gpu", &choice), "parse gpu");
}

/* With a GPU: HIP alone picks it, with no fall-back; the runs after use
 * its transfer. */
static void
test_select_with_gpu (void)
{
  VhContextConfig cfg = { 0 };
  GError *error = NULL;

  if (!vh_hip_select_backend (VH_BACKEND_CHOICE_HIP,
          VH_HIP_VENDOR_UNKNOWN, 0, &cfg, NULL, &error))
    g_error ("backend hip with a GPU: %s", error->message);
  VH_TEST_CHECK (cfg.backends == (VH_BACKEND_HIP | VH_BACKEND_CPU),
      "backends");
  VH_TEST_CHECK (!cfg.gpu_fallback, "backend hip falls back to the CPU");
  transfer = cfg.transfer;
  device = vh_picture_transfer_get_device (transfer);
}

gboolean
hip_features_emulated (void)
{
  return g_strcmp0 (mode, "emulated") == 0;
}

int
main (int argc, char **argv)
{
  g_autoptr (VhHipDevice) probe = NULL;
  gint ret;

  g_test_init (&argc, &argv, NULL);
  mode = g_getenv ("VH_TEST_MODE");
  if (!mode)
    mode = "gpu";

  /* On a GPU the whole run needs one: without, it is a skip. */
  if (!strcmp (mode, "gpu") || hip_features_emulated ())
    probe = vh_hip_test_open_gpu_or_skip ();
  g_test_add_func ("/hip-features/classes", test_classes);
  g_test_add_func ("/hip-features/fallback", test_fallback);
  if (strcmp (mode, "gpu") != 0 && !hip_features_emulated ()) {
    g_test_add_func ("/hip-features/select-without-gpu",
        test_select_without_gpu);
  } else {
    g_test_add_func ("/hip-features/select-with-gpu", test_select_with_gpu);
    hip_features_add_gpu_cases ();
  }
  ret = g_test_run ();
  /* Empties the upload pool: nothing left on the device at exit. */
  if (transfer)
    vh_picture_transfer_unref (transfer);
  return ret;
}
