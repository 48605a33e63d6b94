/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* vmafhip-score: scores a distorted video against its reference, taking the
 * common subset of libvmaf's `vmaf` command-line options. */

#include "cli-options.h"
#include "cli-pairing.h"
#include "backend-choice.h"
#include "context.h"
#include "feature-spec.h"
#include "errors.h"
#include "model.h"
#include "model-spec.h"
#include "output.h"
#include "pool.h"
#include "results-file.h"
#include "run-report.h"
#include "video-reader.h"

#ifdef VH_HAVE_HIP
#include "hip-features.h"
#endif

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* SIGINT or SIGTERM: stop reading, finish what was submitted, write the
 * results of the frames scored so far, and say so. */
static volatile sig_atomic_t stop_signal;

static void
on_stop_signal (int sig)
{
  stop_signal = sig;
}

static void
catch_stop_signals (void)
{
  struct sigaction sa = { 0 };

  sa.sa_handler = on_stop_signal;
  /* A second signal ends the program at once. */
  sa.sa_flags = SA_RESETHAND;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);
}

/* Frames 0 .. index are scored: the results file may show them. */
static void
on_frame_ready (VhContext * ctx, guint index, gboolean scored,
    gpointer user_data)
{
  vh_run_report_frame_ready (user_data, index, scored);
}


/* libvmaf's --model syntax; see VhModelSpec. */
static VhModel *
load_model (const gchar * text, GError ** error)
{
  const VhModelConfig defaults = { "vmaf", FALSE, FALSE };
  VhModelSpec spec;
  VhModel *model;

  if (!vh_model_spec_parse (&spec, text, &defaults, error))
    return NULL;
  model = vh_model_spec_load (&spec, error);
  vh_model_spec_clear (&spec);
  return model;
}

/* "NAME[=key=value[:key=value...]]" (src/feature-spec.h). */
static gboolean
add_feature (VhContext * ctx, const gchar * text, GError ** error)
{
  VhFeatureSpec spec;
  GError *err = NULL;
  gboolean ok;

  if (!vh_feature_spec_parse (&spec, text, &err)) {
    g_autofree gchar *shown = g_utf8_make_valid (text, -1);
    g_set_error (error, err->domain, err->code, "--feature '%s': %s", shown,
        err->message);
    g_error_free (err);
    return FALSE;
  }
  ok = vh_context_add_feature (ctx, spec.name,
      (const gchar * const *) spec.options, error);
  vh_feature_spec_clear (&spec);
  return ok;
}

static gboolean
check_compatible (const VhPictureInfo * ref, const VhPictureInfo * dist,
    GError ** error)
{
  if (vh_picture_info_equal (ref, dist))
    return TRUE;
  g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
      "reference and distorted differ: reference is %ux%u %s %u-bit, "
      "distorted is %ux%u %s %u-bit", ref->width, ref->height,
      vh_pix_fmt_to_string (ref->pix_fmt), ref->bpc, dist->width,
      dist->height, vh_pix_fmt_to_string (dist->pix_fmt), dist->bpc);
  return FALSE;
}

/* --backend: where the features run. With the HIP layer built, auto and
 * hip open the GPU (vh_hip_select_backend(), shared with the element);
 * auto falls back to the CPU (saying why at info level), hip without a
 * GPU is an error.
 * Sets @config's backends, transfer (the caller drops it), gpu_fallback
 * and extractors. */
static gboolean
select_backend (const VhCliSettings * s, VhContextConfig * config,
    GError ** error)
{
  const gchar *name = s->backend ? s->backend : "auto";
  VhBackendChoice choice;

  if (!vh_backend_choice_from_string (name, &choice)) {
    vh_backend_choice_set_parse_error (error, "--backend", name);
    return FALSE;
  }
#ifdef VH_HAVE_HIP
  {
    gchar *reason = NULL;

    if (!vh_hip_select_backend (choice, VH_HIP_VENDOR_UNKNOWN, 0, config,
            &reason, error))
      return FALSE;
    /* auto on a machine without a usable GPU is a normal CPU run: why is
     * an info line (G_MESSAGES_DEBUG=vmafhip-score), not a notice on every
     * run; the dispatch line and the log say where features ran. */
    if (reason)
      g_log ("vmafhip-score", G_LOG_LEVEL_INFO, "%s", reason);
    g_free (reason);
    return TRUE;
  }
#else
  {
    GError *no_gpu = g_error_new_literal (VH_ERROR, VH_ERROR_BACKEND,
        "this build has no HIP layer");
    gboolean ok = vh_backend_choice_resolve (choice, no_gpu,
        &config->backends, &config->gpu_fallback, NULL, error);

    g_error_free (no_gpu);
    return ok;
  }
#endif
}

#ifdef VH_HAVE_HIP
static gpointer
host_alloc (gsize size, gpointer device, GError ** error)
{
  gpointer mem = NULL;

  if (!vh_hip_host_alloc (device, size, &mem, error))
    return NULL;
  return mem;
}

static void
host_free (gpointer mem, gpointer device)
{
  vh_hip_host_free (device, mem);
}
#endif

/* The GPU failed and scoring goes on on the CPU: said whatever -q says,
 * as the other warnings are; the results file's dispatch says it too. */
static void
on_gpu_fallback (VhContext * ctx, const gchar * message, gpointer user_data)
{
  g_printerr ("vmafhip-score: warning: %s\n", message);
}

/* The readers' reused pictures: enough for the frames the context holds
 * (in flight, kept for a GPU fall-back), the one in hand and one being
 * read per reading thread; page-locked when a GPU scores, so that uploads
 * copy from them directly. When no feature reads chroma, only the luma
 * is read. */
static void
setup_reader (VhVideoReader * reader, VhContext * ctx, gpointer device)
{
  guint max_frames;

  gboolean luma_only = !vh_context_reads_chroma (ctx);

  vh_video_reader_set_luma_only (reader, luma_only);
  max_frames = vh_context_n_frames_held (ctx) + 2 +
      vh_video_reader_get_threads (reader);
  g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "reading %s on %u thread%s",
      luma_only ? "the luma only" : "every plane",
      vh_video_reader_get_threads (reader),
      vh_video_reader_get_threads (reader) > 1 ? "s" : "");

#ifdef VH_HAVE_HIP
  if (device) {
    static const VhVideoReaderMemoryFuncs pinned = {
      host_alloc, host_free, TRUE
    };
    vh_video_reader_set_memory (reader, max_frames, &pinned,
        vh_hip_device_ref (device), (GDestroyNotify) vh_hip_device_unref);
    return;
  }
#endif
  vh_video_reader_set_memory (reader, max_frames, NULL, NULL, NULL);
}

/* Pooled model scores, on stderr as libvmaf's tool prints them: labelled
 * by the version or path given, on a terminal only, and with -q only when
 * there is no results file. Nothing goes to stdout, which stays free for
 * "-o /dev/stdout". */
static void
print_pooled (const VhCliSettings * s, VhContext * ctx, VhRunReport * report,
    gchar ** labels)
{
  if (!s->tty || (s->quiet && s->output))
    return;
  for (guint m = 0; m < vh_context_n_models (ctx); m++) {
    VhModel *model = vh_context_get_model (ctx, m);
    const gchar *name = vh_model_get_name (model);
    gdouble mean;
    if (!vh_run_report_get_pooled (report, name, VH_POOL_MEAN, &mean))
      continue;
    g_printerr ("%s: %f\n", labels && labels[m] ? labels[m] : name, mean);
  }
}

/* libvmaf's label for a --model: its version=, else its path=. */
static gchar *
model_label (const gchar * spec)
{
  g_auto (GStrv) parts = g_strsplit (spec, ":", -1);

  for (guint i = 0; parts[i]; i++) {
    if (g_str_has_prefix (parts[i], "version="))
      return g_strdup (parts[i] + 8);
  }
  for (guint i = 0; parts[i]; i++) {
    if (g_str_has_prefix (parts[i], "path="))
      return g_strdup (parts[i] + 5);
  }
  return g_strdup (spec);
}

/* Reads and drops @n frames (--frame_skip_ref, --frame_skip_dist). */
static gboolean
skip_frames (VhVideoReader * reader, gint n, GError ** error)
{
  for (gint i = 0; i < n; i++) {
    VhPicture *pic = vh_video_reader_read (reader, error);
    if (!pic)
      return !(error && *error);
    vh_picture_unref (pic);
  }
  return TRUE;
}

/* Frame @index of @reader (counted after the @skipped first ones), the
 * frames before it read and dropped: pairs only go forward. */
static VhPicture *
read_frame_at (VhVideoReader * reader, guint skipped, guint64 index,
    GError ** error)
{
  while (vh_video_reader_n_read (reader) - skipped < index) {
    VhPicture *pic = vh_video_reader_read (reader, error);
    if (!pic)
      return NULL;
    vh_picture_unref (pic);
  }
  return vh_video_reader_read (reader, error);
}

static gboolean
run (VhCliSettings * s, GError ** error)
{
  VhCliPairing pairing = { 0 };
  VhPictureInfo raw_info, dist_raw_info, *raw = NULL;
  g_autoptr (VhScaler) scaler = NULL;
  g_autofree gchar *scaled_from = NULL;
  g_autoptr (VhVideoReader) ref_reader = NULL;
  g_autoptr (VhVideoReader) dist_reader = NULL;
  VhContextConfig config = { 0 };
  VhContext *ctx;
  VhRunReport *report = NULL;
  gboolean results = FALSE;
  gpointer device;
  g_autofree gchar *dispatch = NULL;
  VhOutputFormat format = VH_OUTPUT_XML;
  gboolean ok = FALSE, have_raw = FALSE;
  guint n_frames = 0;
  gint64 start;
  guint cpumask = 0, gpumask = 0;
  g_auto (GStrv) labels = NULL;

  if (!vh_cli_settings_check (s, &raw_info, &have_raw, &format, error))
    return FALSE;
  raw = have_raw ? &raw_info : NULL;
  if (!vh_cli_settings_dist_geometry (s, &raw_info, have_raw,
          &dist_raw_info, error))
    return FALSE;
  if (!vh_cli_parse_mask (s->cpumask, "cpumask", &cpumask, error) ||
      !vh_cli_parse_mask (s->gpumask, "gpumask", &gpumask, error))
    return FALSE;
  if (!vh_cli_pairing_check_inputs (s, error))
    return FALSE;
  ref_reader = vh_video_reader_open (s->ref_path, raw, error);
  if (!ref_reader)
    return FALSE;
  dist_reader = vh_video_reader_open (s->dist_path, raw ? &dist_raw_info :
      NULL, error);
  if (!dist_reader)
    return FALSE;
  /* A distorted of another size is resampled to the reference's. */
  if (!vh_cli_settings_make_scaler (s, vh_video_reader_get_info (ref_reader),
          vh_video_reader_get_info (dist_reader), &scaler, &scaled_from,
          error))
    return FALSE;
  if (!scaler && !check_compatible (vh_video_reader_get_info (ref_reader),
          vh_video_reader_get_info (dist_reader), error))
    return FALSE;

  /* --cpumask: libvmaf's bits, which VhCpuFlags are. */
  config.cpu_mask = cpumask;
  /* --gpumask: libvmaf runs GPU features only when it is 0. */
  if (gpumask) {
    if (s->backend && strcmp (s->backend, "cpu") != 0) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "--gpumask %u keeps the features on the CPU, but --backend %s "
          "was asked for", gpumask, s->backend);
      return FALSE;
    }
    g_free (s->backend);
    s->backend = g_strdup ("cpu");
  }

  config.n_threads = MAX (s->threads, 1);
  /* libvmaf runs a thread pool from --threads 1 up, which changes the
   * order of its logs. */
  config.log_pooled_order = s->threads >= 1;
  config.subsample = MAX (s->subsample, 1);
  if (!select_backend (s, &config, error))
    return FALSE;
  ctx = vh_context_new (&config);
  vh_context_set_fallback_func (ctx, on_gpu_fallback, NULL);
  /* Frame rates, and --align's first pass over both files. */
  if (!vh_cli_pairing_init (&pairing, s, raw, raw ? &dist_raw_info : NULL,
          error))
    goto out;
  if (pairing.summary && !s->quiet)
    g_printerr ("vmafhip-score: %s\n", pairing.summary);
  device = vh_picture_transfer_get_device (config.transfer);

  if (!s->no_prediction) {
    const gchar *default_models[] = { "version=vmaf_v0.6.1", NULL };
    const gchar *const *models = s->models ? (const gchar * const *) s->models
        : default_models;
    labels = g_new0 (gchar *, g_strv_length ((gchar **) models) + 1);
    for (guint i = 0; models[i]; i++) {
      VhModel *model = load_model (models[i], error);
      labels[i] = model_label (models[i]);
      if (!model || !vh_context_add_model (ctx, model, error))
        goto out;
    }
  }
  for (guint i = 0; s->features && s->features[i]; i++) {
    if (!add_feature (ctx, s->features[i], error))
      goto out;
  }
  /* Which feature runs where, once: on stderr and in the results file. */
  dispatch = vh_context_describe_dispatch (ctx);
  if (s->tty && !s->quiet)
    g_printerr ("features: %s\n", dispatch);
  /* The output is checked (and holds an empty log) before any scoring,
   * and holds every frame scored so far while scoring goes on. */
  {
    const VhRunReportConfig report_config = { s->output, format,
      VH_RESULTS_FILE_DEFAULT_INTERVAL_US, FALSE
    };

    report = vh_run_report_new (ctx, &report_config, error);
    if (!report)
      goto out;
    results = s->output != NULL;
  }
  vh_run_report_set_picture_info (report,
      vh_video_reader_get_info (ref_reader));
  /* How the distorted was resampled (--scale), NULL when it was not. */
  vh_run_report_set_scaler (report, scaled_from);
  vh_run_report_set_alignment (report, pairing.log_text, pairing.log_json);
  vh_context_set_frame_ready_func (ctx, on_frame_ready, report, NULL);
  if (!vh_context_start (ctx, vh_video_reader_get_info (ref_reader), error))
    goto out;
  setup_reader (ref_reader, ctx, device);
  setup_reader (dist_reader, ctx, device);
  /* A GPU that failed to start is in it now. */
  g_free (dispatch);
  dispatch = vh_context_describe_dispatch (ctx);
  vh_run_report_set_dispatch (report, dispatch);
  catch_stop_signals ();

  if (!skip_frames (ref_reader, s->frame_skip_ref, error) ||
      !skip_frames (dist_reader, s->frame_skip_dist, error))
    goto out;

  if (pairing.pairs && pairing.pairs->len == 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT, "--align "
        "paired no frame, so nothing can be scored (%s); a wider "
        "--align_window helps when the inputs are further apart",
        pairing.summary);
    goto out;
  }
  start = g_get_monotonic_time ();
  vh_run_report_start_clock (report);
  while ((s->frame_cnt <= 0 || n_frames < (guint) s->frame_cnt) &&
      !stop_signal) {
    g_autoptr (VhPicture) ref = NULL;
    g_autoptr (VhPicture) dist = NULL;
    guint64 ref_index, dist_index;

    if (!vh_cli_pairing_next (&pairing, n_frames, &ref_index, &dist_index))
      break;
    ref = read_frame_at (ref_reader, s->frame_skip_ref, ref_index, error);

    /* A read cut short by the stop signal is the stop, not an error. */
    if (!ref && stop_signal) {
      g_clear_error (error);
      break;
    }
    if (!ref && error && *error)
      goto out;
    dist = read_frame_at (dist_reader, s->frame_skip_dist, dist_index, error);
    if (!dist && stop_signal) {
      g_clear_error (error);
      break;
    }
    if (!dist && error && *error)
      goto out;
    if (!ref || !dist) {
      if ((ref || dist) && !pairing.pairs)
        g_printerr ("warning: \"%s\" ended after %u frames, before \"%s\"; "
            "scored the first %u frames\n", ref ? s->dist_path : s->ref_path,
            n_frames, ref ? s->ref_path : s->dist_path, n_frames);
      break;
    }
    if (scaler) {
      VhPicture *scaled = vh_scaler_scale (scaler, dist, error);
      if (!scaled)
        goto out;
      vh_picture_unref (dist);
      dist = scaled;
    }
    if (!vh_context_submit (ctx, ref, dist, NULL, error))
      goto out;
    if (n_frames == 0)
      g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "first pair submitted");
    n_frames++;
    if (!vh_run_report_update_results (report, FALSE, error))
      goto out;
    /* Progress on a terminal only, so that logs of a CI run stay clean. */
    if (s->tty && !s->quiet) {
      gdouble secs = (g_get_monotonic_time () - start) / 1e6;
      g_printerr ("\r%u frame%s %.2f FPS\033[K", n_frames,
          n_frames > 1 ? "s" : " ", secs > 0 ? n_frames / secs : 0.0);
    }
  }
  if (!vh_context_finish (ctx, error))
    goto out;
  g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "%u pairs scored", n_frames);
  /* Where features ran, with a fall-back to the CPU if there was one. */
  g_free (dispatch);
  dispatch = vh_context_describe_dispatch (ctx);
  vh_run_report_set_dispatch (report, dispatch);
  if (s->tty && !s->quiet)
    g_printerr ("\n");
  if (n_frames == 0 && !stop_signal) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "no frames to score: \"%s\" "
        "holds no complete frame", s->ref_path);
    goto out;
  }

  print_pooled (s, ctx, report, labels);
  if (!vh_run_report_update_results (report, TRUE, error))
    goto out;
  if (stop_signal) {
    g_set_error (error, VH_ERROR, VH_ERROR_FAILED, "stopped by %s after %u "
        "frames%s%s%s", stop_signal == SIGINT ? "SIGINT" : "SIGTERM",
        n_frames, results ? "; their scores are in \"" : "",
        results ? s->output : "", results ? "\"" : "");
    goto out;
  }
  ok = TRUE;
out:
  /* On an error, what was scored before it stays on disk. */
  if (!ok && results && n_frames > 0 && !stop_signal) {
    GError *err = NULL;
    guint n = vh_run_report_n_reported (report);
    if (vh_run_report_update_results (report, TRUE, &err))
      g_printerr ("vmafhip-score: the scores of the %u frames before the "
          "error are in \"%s\"\n", n, s->output);
    g_clear_error (&err);
  }
  g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "results written");
  /* Its workers report to the report until it is gone. */
  vh_context_free (ctx);
  vh_run_report_free (report);
  g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "context freed");
  /* the last reference to the GPU, usually: its context is released */
  vh_picture_transfer_unref (config.transfer);
  g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "device released");
  vh_cli_pairing_clear (&pairing);
  return ok;
}

int
main (int argc, char **argv)
{
  VhCliSettings s = { 0 };
  GError *error = NULL;
  gint ret;

  /* Start-up phases, timed by G_MESSAGES_DEBUG=vmafhip-startup. */
  g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "main");
  /* CUDA makes and releases a context with one hardware work queue
   * faster than with its default 8, and the CLI's rate is no lower with
   * one (docs/performance.md, "Start-up"). Only a
   * program may set it, before any thread starts; a value already set is
   * kept, and AMD's runtime ignores it. */
  g_setenv ("CUDA_DEVICE_MAX_CONNECTIONS", "1", FALSE);
  s.tty = isatty (fileno (stderr));
  if (vh_cli_settings_parse (&s, argc, argv, &ret) && !run (&s, &error)) {
    g_printerr ("vmafhip-score: error: %s\n", error->message);
    ret = 1;
  }
  g_clear_error (&error);
  vh_cli_settings_clear (&s);
  g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "exit");
  return ret;
}
