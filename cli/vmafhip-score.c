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
#include "cli-rendition.h"
#include "cli-self-test.h"
#include "backend-choice.h"
#include "context.h"
#include "errors.h"
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

    if (!vh_hip_select_backend (choice, VH_HIP_VENDOR_UNKNOWN,
            (guint) s->device, config,
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

/* The readers' reused pictures: enough for the frames the context holds
 * (in flight, kept for a GPU fall-back), the one in hand and one being
 * read per reading thread; page-locked when a GPU scores, so that uploads
 * copy from them directly. When no feature reads chroma, only the luma
 * is read. */
static void
setup_reader (VhVideoReader * reader, gboolean luma_only, guint n_held,
    gpointer device)
{
  guint max_frames;

  vh_video_reader_set_luma_only (reader, luma_only);
  max_frames = n_held + 2 + vh_video_reader_get_threads (reader);
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

/* Each rendition's pooled scores: labelled with the distorted's label
 * when there are several; on a terminal only, and with -q only when it
 * has no results file. Nothing goes to stdout, which stays free for
 * "-o /dev/stdout". */
static void
print_pooled (const VhCliSettings * s, GPtrArray * renditions)
{
  for (guint i = 0; i < renditions->len; i++) {
    VhCliRendition *r = g_ptr_array_index (renditions, i);

    if (!s->tty || (s->quiet && r->settings.output))
      continue;
    vh_cli_rendition_print_pooled (r, renditions->len > 1 ?
        r->settings.label : NULL);
  }
}

/* The results files, "a", "b" and "c", for the messages. */
static gchar *
describe_outputs (GPtrArray * renditions, gboolean scored_only)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < renditions->len; i++) {
    VhCliRendition *r = g_ptr_array_index (renditions, i);

    if (!r->settings.output || (scored_only && r->n_frames == 0))
      continue;
    if (out->len)
      g_string_append (out, ", ");
    g_string_append_printf (out, "\"%s\"", r->settings.output);
  }
  return g_string_free (out, out->len == 0);
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

/* Reads the distorted's picture @index: NULL at its end (said once, for
 * the frames scored, unless --align decided the pairs) or on an error;
 * *@stopped when a stop signal cut the read short. */
static VhPicture *
read_dist (const VhCliSettings * s, VhCliRendition * r, gboolean ref_ended,
    guint n_frames, guint64 index, gboolean * stopped, GError ** error)
{
  VhPicture *dist = read_frame_at (r->reader, s->frame_skip_dist, index,
      error);
  gboolean aligned = r->pairing.pairs != NULL;

  if (!dist && stop_signal) {
    g_clear_error (error);
    *stopped = TRUE;
    return NULL;
  }
  if (error && *error)
    return NULL;
  if (!dist && !ref_ended) {
    if (!aligned)
      g_printerr ("warning: \"%s\" ended after %u frames, before \"%s\"; "
          "scored the first %u frames\n", r->settings.path, r->n_frames,
          s->ref_path, r->n_frames);
    r->active = FALSE;
  } else if (dist && ref_ended) {
    if (!aligned)
      g_printerr ("warning: \"%s\" ended after %u frames, before \"%s\"; "
          "scored the first %u frames\n", s->ref_path, n_frames,
          r->settings.path, n_frames);
    g_clear_pointer (&dist, vh_picture_unref);
  }
  return dist;
}

/* One rendition's part of a frame: the distorted picture paired with
 * reference frame @ref_index read, brought to the reference's format and
 * size and submitted with @ref (NULL: the reference ended). A rendition
 * with no pair at this frame (frame rates, --align) waits for a later
 * one. */
typedef struct
{
  const VhCliSettings *s;
  VhCliRendition *r;
  VhPicture *ref;
  guint64 ref_index;
  guint n_frames;
  gboolean submitted;
  gboolean waiting;
  gboolean stopped;
  GError *error;
} RenditionStep;

static void
rendition_step (RenditionStep * step)
{
  VhCliRendition *r = step->r;
  guint64 dist_index;
  VhPicture *dist;

  if (!step->ref) {
    /* whether the distorted goes on, for the warning */
    if (vh_cli_rendition_next_dist (r, &dist_index))
      read_dist (step->s, r, TRUE, step->n_frames, dist_index,
          &step->stopped, &step->error);
    return;
  }
  if (!vh_cli_rendition_pair_for (r, step->ref_index, &dist_index)) {
    step->waiting = r->active;
    return;
  }
  dist = read_dist (step->s, r, FALSE, step->n_frames, dist_index,
      &step->stopped, &step->error);
  if (dist)
    step->submitted = vh_cli_rendition_submit (r, step->ref, dist,
        &step->error);
}

/* The renditions' steps of one frame at once, on a pool's threads (the
 * scaling of each is the CLI's own work, one core a rendition), waited
 * for together. */
typedef struct
{
  GThreadPool *pool;
  GMutex lock;
  GCond done;
  guint pending;
} StepBatch;

static void
batch_run_step (gpointer data, gpointer user_data)
{
  StepBatch *batch = user_data;

  rendition_step (data);
  g_mutex_lock (&batch->lock);
  if (--batch->pending == 0)
    g_cond_signal (&batch->done);
  g_mutex_unlock (&batch->lock);
}

/* Runs @steps (@n of them), on @batch's threads when it has some. */
static void
run_steps (StepBatch * batch, RenditionStep * steps, guint n)
{
  if (!batch->pool) {
    for (guint i = 0; i < n; i++)
      rendition_step (&steps[i]);
    return;
  }
  g_mutex_lock (&batch->lock);
  batch->pending = n;
  g_mutex_unlock (&batch->lock);
  for (guint i = 0; i < n; i++)
    g_thread_pool_push (batch->pool, &steps[i], NULL);
  g_mutex_lock (&batch->lock);
  while (batch->pending > 0)
    g_cond_wait (&batch->done, &batch->lock);
  g_mutex_unlock (&batch->lock);
}

static gboolean
run (VhCliSettings * s, GError ** error)
{
  VhPictureInfo raw_info, *raw = NULL;
  g_autoptr (VhVideoReader) ref_reader = NULL;
  g_autoptr (GPtrArray) renditions =
      g_ptr_array_new_with_free_func ((GDestroyNotify) vh_cli_rendition_free);
  VhContextConfig config = { 0 };
  const VhPictureInfo *ref_info;
  gpointer device;
  g_autofree gchar *dispatch = NULL;
  VhOutputFormat format = VH_OUTPUT_XML;
  gboolean ok = FALSE, have_raw = FALSE, ref_luma_only = TRUE;
  guint n_frames = 0, n_held = 0, n_active;
  guint64 ref_index;
  gint64 start;
  guint cpumask = 0, gpumask = 0;
  StepBatch batch = { NULL };

  if (!vh_cli_settings_check (s, &raw_info, &have_raw, &format, error))
    return FALSE;
  raw = have_raw ? &raw_info : NULL;
  if (!vh_cli_parse_mask (s->cpumask, "cpumask", &cpumask, error) ||
      !vh_cli_parse_mask (s->gpumask, "gpumask", &gpumask, error) ||
      !vh_cli_pairing_check_inputs (s, error))
    return FALSE;
  ref_reader = vh_video_reader_open (s->ref_path, raw, error);
  if (!ref_reader)
    return FALSE;
  ref_info = vh_video_reader_get_info (ref_reader);
  for (guint i = 0; i < vh_cli_settings_n_dist (s); i++) {
    VhCliRendition *r = vh_cli_rendition_open (s, i, raw, ref_info, error);

    if (!r)
      return FALSE;
    g_ptr_array_add (renditions, r);
  }

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
  /* One device and transfer for every rendition's context: the
   * reference's pictures, shared by all, are uploaded once. */
  device = vh_picture_transfer_get_device (config.transfer);

  for (guint i = 0; i < renditions->len; i++) {
    if (!vh_cli_rendition_prepare (g_ptr_array_index (renditions, i), s,
            &config, format, ref_info,
            vh_video_reader_get_colorimetry (ref_reader), error))
      goto out;
  }
  /* Which feature runs where, once: on stderr and in the results file
   * (every rendition runs the same features). */
  dispatch = vh_context_describe_dispatch (((VhCliRendition *)
          g_ptr_array_index (renditions, 0))->ctx);
  if (s->tty && !s->quiet)
    g_printerr ("features: %s\n", dispatch);
  for (guint i = 0; i < renditions->len; i++) {
    VhCliRendition *r = g_ptr_array_index (renditions, i);

    if (!vh_context_start (r->ctx, ref_info, error))
      goto out;
    setup_reader (r->reader, !vh_context_reads_chroma (r->ctx),
        vh_context_n_frames_held (r->ctx), device);
    ref_luma_only &= !vh_context_reads_chroma (r->ctx);
    n_held = MAX (n_held, vh_context_n_frames_held (r->ctx));
    /* A GPU that failed to start is in it now. */
    g_free (dispatch);
    dispatch = vh_context_describe_dispatch (r->ctx);
    vh_run_report_set_dispatch (r->report, dispatch);
  }
  /* Frames complete in order in every context: each holds some of the
   * last pictures submitted, and the reference's are the same in all. */
  setup_reader (ref_reader, ref_luma_only, n_held, device);
  catch_stop_signals ();

  if (!skip_frames (ref_reader, s->frame_skip_ref, error))
    goto out;
  for (guint i = 0; i < renditions->len; i++) {
    VhCliRendition *r = g_ptr_array_index (renditions, i);

    if (!skip_frames (r->reader, s->frame_skip_dist, error))
      goto out;
  }

  start = g_get_monotonic_time ();
  for (guint i = 0; i < renditions->len; i++)
    vh_run_report_start_clock (((VhCliRendition *)
            g_ptr_array_index (renditions, i))->report);
  /* Several renditions are read, converted and scaled at once. */
  if (renditions->len > 1) {
    g_mutex_init (&batch.lock);
    g_cond_init (&batch.done);
    batch.pool = g_thread_pool_new (batch_run_step, &batch,
        (gint) renditions->len, TRUE, NULL);
  }
  n_active = renditions->len;
  /* Each reference frame is read once and handed to the renditions it
   * is paired in. */
  for (ref_index = 0; (s->frame_cnt <= 0 || n_frames < (guint) s->frame_cnt)
      && !stop_signal && n_active > 0; ref_index++) {
    g_autoptr (VhPicture) ref = vh_video_reader_read (ref_reader, error);
    gboolean stopped = FALSE;
    guint n_submitted = 0;

    /* A read cut short by the stop signal is the stop, not an error. */
    if (!ref && stop_signal) {
      g_clear_error (error);
      break;
    }
    if (!ref && error && *error)
      goto out;
    n_active = 0;
    {
      g_autofree RenditionStep *steps = g_new0 (RenditionStep,
          renditions->len);
      guint n_steps = 0;
      GError *first_error = NULL;

      for (guint i = 0; i < renditions->len; i++) {
        VhCliRendition *r = g_ptr_array_index (renditions, i);

        if (r->active)
          steps[n_steps++] = (RenditionStep) {
          s, r, ref, ref_index, n_frames, FALSE, FALSE, FALSE, NULL};
      }
      run_steps (&batch, steps, n_steps);
      /* The first error in the order of the -d; a stop signal's cut is
       * no error. */
      for (guint i = 0; i < n_steps; i++) {
        stopped |= steps[i].stopped;
        n_submitted += steps[i].submitted;
        n_active += steps[i].submitted || steps[i].waiting;
        if (steps[i].error && !first_error)
          first_error = g_steal_pointer (&steps[i].error);
        g_clear_error (&steps[i].error);
      }
      if (first_error) {
        g_propagate_error (error, first_error);
        goto out;
      }
    }
    if (stopped || !ref || n_active == 0)
      break;
    if (n_submitted == 0)
      continue;
    if (n_frames == 0)
      g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "first pair submitted");
    n_frames++;
    for (guint i = 0; i < renditions->len; i++) {
      if (!vh_run_report_update_results (((VhCliRendition *)
                  g_ptr_array_index (renditions, i))->report, FALSE, error))
        goto out;
    }
    /* Progress on a terminal only, so that logs of a CI run stay clean. */
    if (s->tty && !s->quiet) {
      gdouble secs = (g_get_monotonic_time () - start) / 1e6;
      g_printerr ("\r%u frame%s %.2f FPS\033[K", n_frames,
          n_frames > 1 ? "s" : " ", secs > 0 ? n_frames / secs : 0.0);
    }
  }
  for (guint i = 0; i < renditions->len; i++) {
    VhCliRendition *r = g_ptr_array_index (renditions, i);

    if (!vh_context_finish (r->ctx, error))
      goto out;
    /* Where features ran, with a fall-back to the CPU if there was one. */
    g_free (dispatch);
    dispatch = vh_context_describe_dispatch (r->ctx);
    vh_run_report_set_dispatch (r->report, dispatch);
  }
  g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "%u pairs scored", n_frames);
  if (s->tty && !s->quiet)
    g_printerr ("\n");
  if (n_frames == 0 && !stop_signal) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "no frames to score: \"%s\" "
        "holds no complete frame", s->ref_path);
    goto out;
  }

  print_pooled (s, renditions);
  for (guint i = 0; i < renditions->len; i++) {
    if (!vh_run_report_update_results (((VhCliRendition *)
                g_ptr_array_index (renditions, i))->report, TRUE, error))
      goto out;
  }
  if (stop_signal) {
    g_autofree gchar *outputs = describe_outputs (renditions, FALSE);

    g_set_error (error, VH_ERROR, VH_ERROR_FAILED, "stopped by %s after %u "
        "frames%s%s", stop_signal == SIGINT ? "SIGINT" : "SIGTERM",
        n_frames, outputs ? "; their scores are in " : "",
        outputs ? outputs : "");
    goto out;
  }
  ok = TRUE;
out:
  if (batch.pool) {
    g_thread_pool_free (batch.pool, FALSE, TRUE);
    g_mutex_clear (&batch.lock);
    g_cond_clear (&batch.done);
  }
  /* On an error, what was scored before it stays on disk. */
  if (!ok && !stop_signal) {
    for (guint i = 0; i < renditions->len; i++) {
      VhCliRendition *r = g_ptr_array_index (renditions, i);
      GError *err = NULL;
      guint n;

      if (!r->settings.output || !r->report || r->n_frames == 0)
        continue;
      n = vh_run_report_n_reported (r->report);
      if (vh_run_report_update_results (r->report, TRUE, &err))
        g_printerr ("vmafhip-score: the scores of the %u frames before the "
            "error are in \"%s\"\n", n, r->settings.output);
      g_clear_error (&err);
    }
  }
  g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "results written");
  g_ptr_array_set_size (renditions, 0);
  g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "context freed");
  /* the last reference to the GPU, usually: its context is released */
  vh_picture_transfer_unref (config.transfer);
  g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "device released");
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
  if (!vh_cli_settings_parse (&s, argc, argv, &ret)) {
    /* usage, version or a bad option: said */
  } else if (s.self_test) {
    ret = vh_cli_self_test (&s);
  } else if (!run (&s, &error)) {
    g_printerr ("vmafhip-score: error: %s\n", error->message);
    ret = 1;
  }
  g_clear_error (&error);
  vh_cli_settings_clear (&s);
  g_log ("vmafhip-startup", G_LOG_LEVEL_DEBUG, "exit");
  return ret;
}
