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

#include "context.h"
#include "errors.h"
#include "model.h"
#include "model-spec.h"
#include "output.h"
#include "pool.h"
#include "video-reader.h"

#ifdef VH_HAVE_HIP
#include "hip-features.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  gchar *ref_path;
  gchar *dist_path;
  gint width;
  gint height;
  gchar *pix_fmt;
  gint bpc;
  gchar **models;
  gchar **features;
  gchar *output;
  gboolean json, xml, csv, sub;
  gint threads;
  gint subsample;
  gint frame_cnt;
  gboolean no_prediction;
  gboolean quiet;
  gboolean version;
  gchar *backend;
  gboolean help;
} Settings;

static gboolean
parse_pix_fmt (const gchar * s, VhPixFmt * fmt)
{
  if (!g_strcmp0 (s, "420"))
    *fmt = VH_PIX_FMT_YUV420;
  else if (!g_strcmp0 (s, "422"))
    *fmt = VH_PIX_FMT_YUV422;
  else if (!g_strcmp0 (s, "444"))
    *fmt = VH_PIX_FMT_YUV444;
  else if (!g_strcmp0 (s, "400"))
    *fmt = VH_PIX_FMT_YUV400;
  else
    return FALSE;
  return TRUE;
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

/* "NAME[=key=value[:key=value...]]" */
static gboolean
add_feature (VhContext * ctx, const gchar * spec, GError ** error)
{
  g_auto (GStrv) name_opts = g_strsplit (spec, "=", 2);
  g_autoptr (GPtrArray) kv = g_ptr_array_new_with_free_func (g_free);

  if (name_opts[1]) {
    g_auto (GStrv) pairs = g_strsplit (name_opts[1], ":", -1);
    for (guint i = 0; pairs[i]; i++) {
      g_auto (GStrv) pair = g_strsplit (pairs[i], "=", 2);
      if (!pair[0] || !pair[1]) {
        g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
            "--feature '%s': bad option '%s' (expected key=value)", spec,
            pairs[i]);
        return FALSE;
      }
      g_ptr_array_add (kv, g_strdup (pair[0]));
      g_ptr_array_add (kv, g_strdup (pair[1]));
    }
  }
  g_ptr_array_add (kv, NULL);
  return vh_context_add_feature (ctx, name_opts[0],
      (const gchar * const *) kv->pdata, error);
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
 * auto falls back to the CPU with a note, hip without a GPU is an error.
 * @device gets the VhHipDevice to hand the context (unref after it). */
static gboolean
select_backend (const Settings * s, VhContextConfig * config,
    gpointer * device, GError ** error)
{
  const gchar *name = s->backend ? s->backend : "auto";

  *device = NULL;
  config->backends = VH_BACKEND_CPU;
#ifdef VH_HAVE_HIP
  {
    VhHipBackendRequest request;
    VhHipDevice *dev = NULL;
    gchar *reason = NULL;

    if (!vh_hip_backend_request_from_string (name, &request)) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "--backend '%s': expected auto, cpu or hip", name);
      return FALSE;
    }
    if (!vh_hip_select_backend (request, VH_HIP_VENDOR_UNKNOWN, 0,
            &config->backends, &dev, &reason, error))
      return FALSE;
    if (reason && !s->quiet)
      g_printerr ("vmafhip-score: %s\n", reason);
    g_free (reason);
    *device = dev;
    config->hip_device = dev;
    return TRUE;
  }
#else
  if (!strcmp (name, "auto") || !strcmp (name, "cpu"))
    return TRUE;
  if (!strcmp (name, "hip")) {
    g_set_error (error, VH_ERROR, VH_ERROR_BACKEND,
        "--backend hip: this build has no HIP layer");
    return FALSE;
  }
  g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
      "--backend '%s': expected auto, cpu or hip", name);
  return FALSE;
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

/* The readers' reused pictures: enough for the frames in flight and a few
 * read ahead; page-locked when a GPU scores, so that uploads copy from
 * them directly. */
static void
setup_reader_memory (VhVideoReader * reader, const VhContextConfig * config,
    gpointer device)
{
  guint max_frames = 2 * config->n_threads + 5;

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

static void
release_device (gpointer device)
{
#ifdef VH_HAVE_HIP
  if (device)
    vh_hip_device_unref (device);
#endif
}

static void
print_pooled (VhContext * ctx, guint n_frames)
{
  VhFeatureCollector *fc = vh_context_get_collector (ctx);

  for (guint m = 0; m < vh_context_n_models (ctx); m++) {
    VhModel *model = vh_context_get_model (ctx, m);
    const gchar *name = vh_model_get_name (model);
    gdouble mean;
    if (n_frames == 0 || !vh_pool_feature (fc, name, VH_POOL_MEAN, 0,
            n_frames - 1, vh_context_get_subsample (ctx), &mean, NULL))
      continue;
    printf ("%s: %f\n", name, mean);
  }
}

static gboolean
run (Settings * s, GError ** error)
{
  VhPictureInfo raw_info, *raw = NULL;
  g_autoptr (VhVideoReader) ref_reader = NULL;
  g_autoptr (VhVideoReader) dist_reader = NULL;
  VhContextConfig config = { 0 };
  VhContext *ctx;
  gpointer device = NULL;
  g_autofree gchar *dispatch = NULL;
  VhOutputFormat format = VH_OUTPUT_XML;
  gboolean ok = FALSE, have_format = FALSE;
  guint n_frames = 0;
  gint64 start;

  if (!s->ref_path || !s->dist_path) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "both --reference and --distorted are required");
    return FALSE;
  }
  if (s->width || s->height || s->pix_fmt || s->bpc) {
    VhPixFmt fmt;
    if (!parse_pix_fmt (s->pix_fmt, &fmt)) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "--pixel_format '%s': expected 420, 422, 444 or 400",
          s->pix_fmt ? s->pix_fmt : "");
      return FALSE;
    }
    if (s->width <= 0 || s->height <= 0 || !vh_picture_info_init (&raw_info,
            fmt, s->bpc, s->width, s->height, error)) {
      if (error && !*error)
        g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
            "--width and --height must be positive");
      return FALSE;
    }
    raw = &raw_info;
  }
  ref_reader = vh_video_reader_open (s->ref_path, raw, error);
  if (!ref_reader)
    return FALSE;
  dist_reader = vh_video_reader_open (s->dist_path, raw, error);
  if (!dist_reader)
    return FALSE;
  if (!check_compatible (vh_video_reader_get_info (ref_reader),
          vh_video_reader_get_info (dist_reader), error))
    return FALSE;

  if (s->json + s->xml + s->csv + s->sub > 1) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "choose one of --json, --xml, --csv and --sub");
    return FALSE;
  }
  have_format = s->json || s->xml || s->csv || s->sub;
  format = s->json ? VH_OUTPUT_JSON : s->csv ? VH_OUTPUT_CSV :
      s->sub ? VH_OUTPUT_SUB : VH_OUTPUT_XML;
  if (have_format && !s->output) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "an output format needs --output FILE");
    return FALSE;
  }

  config.n_threads = MAX (s->threads, 1);
  /* libvmaf runs a thread pool from --threads 1 up, which changes the
   * order of its logs. */
  config.log_pooled_order = s->threads >= 1;
  config.subsample = MAX (s->subsample, 1);
  if (!select_backend (s, &config, &device, error))
    return FALSE;
  ctx = vh_context_new (&config);
  setup_reader_memory (ref_reader, &config, device);
  setup_reader_memory (dist_reader, &config, device);

  if (!s->no_prediction) {
    const gchar *default_models[] = { "version=vmaf_v0.6.1", NULL };
    const gchar *const *models = s->models ? (const gchar * const *) s->models
        : default_models;
    for (guint i = 0; models[i]; i++) {
      VhModel *model = load_model (models[i], error);
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
  if (!s->quiet)
    g_printerr ("features: %s\n", dispatch);
  if (!vh_context_start (ctx, vh_video_reader_get_info (ref_reader), error))
    goto out;

  start = g_get_monotonic_time ();
  while (s->frame_cnt <= 0 || n_frames < (guint) s->frame_cnt) {
    g_autoptr (VhPicture) ref = vh_video_reader_read (ref_reader, error);
    g_autoptr (VhPicture) dist = NULL;

    if (!ref && error && *error)
      goto out;
    dist = vh_video_reader_read (dist_reader, error);
    if (!dist && error && *error)
      goto out;
    if (!ref || !dist) {
      if (ref || dist)
        g_printerr ("warning: \"%s\" ended after %u frames, before \"%s\"; "
            "scored the first %u frames\n", ref ? s->dist_path : s->ref_path,
            n_frames, ref ? s->ref_path : s->dist_path, n_frames);
      break;
    }
    if (!vh_context_submit (ctx, ref, dist, NULL, error))
      goto out;
    n_frames++;
    if (!s->quiet && n_frames % 16 == 0)
      g_printerr ("\r%u frames", n_frames);
  }
  if (!vh_context_finish (ctx, error))
    goto out;
  if (!s->quiet) {
    gdouble secs = (g_get_monotonic_time () - start) / 1e6;
    g_printerr ("\r%u frames, %.2f FPS\n", n_frames,
        secs > 0 ? n_frames / secs : 0.0);
  }
  if (n_frames == 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "no frames to score");
    goto out;
  }

  print_pooled (ctx, n_frames);
  if (s->output) {
    gdouble secs = (g_get_monotonic_time () - start) / 1e6;
    const VhPictureInfo *info = vh_video_reader_get_info (ref_reader);
    VhOutputInfo out_info = { n_frames, config.subsample,
      secs > 0 ? n_frames / secs : 0.0, info->width, info->height, dispatch
    };
    if (!vh_output_write_info_file (vh_context_get_collector (ctx), format,
            &out_info, s->output, error))
      goto out;
  }
  ok = TRUE;
out:
  vh_context_free (ctx);
  release_device (device);
  return ok;
}

static void
print_usage (const gchar * app)
{
  g_autofree gchar *models = g_strjoinv (", ",
      (gchar **) vh_model_list_builtin ());
  g_autofree gchar *features = vh_feature_extractor_list_names ();

  printf ("Usage: %s [options]\n\n"
      "Scores a distorted video against its reference with VMAF.\n\n"
      "  -r, --reference PATH     reference .yuv or .y4m\n"
      "  -d, --distorted PATH     distorted .yuv or .y4m\n"
      "  -w, --width N            width of raw .yuv input\n"
      "  -h, --height N           height of raw .yuv input\n"
      "  -p, --pixel_format F     420, 422, 444 or 400 (raw input)\n"
      "  -b, --bitdepth N         8, 10, 12 or 16 (raw input)\n"
      "  -m, --model SPEC         version=NAME or path=FILE, then optional\n"
      "                           :name=X :enable_transform :disable_clip\n"
      "                           :EXTRACTOR.OPTION=VALUE (e.g.\n"
      "                           adm.adm_enhn_gain_limit=1.2);\n"
      "                           repeatable (default version=vmaf_v0.6.1)\n"
      "      --feature SPEC       NAME[=key=value[:key=value]], repeatable\n"
      "  -o, --output PATH        results file\n"
      "      --xml | --json | --csv | --sub   results layout (default xml)\n"
      "      --threads N          worker threads (default 1)\n"
      "      --subsample N        score every Nth frame\n"
      "      --frame_cnt N        stop after N frames\n"
      "      --backend B          auto, cpu or hip\n"
      "  -n, --no_prediction      features only, no model\n"
      "  -q, --quiet              no progress\n"
      "  -v, --version            print the version\n"
      "      --help               this text\n\n"
      "Built-in models: %s\nFeatures: %s\n", app, models, features);
}

int
main (int argc, char **argv)
{
  Settings s = { 0 };
  GError *error = NULL;
  GOptionEntry entries[] = {
    {"reference", 'r', 0, G_OPTION_ARG_FILENAME, &s.ref_path, NULL, NULL},
    {"distorted", 'd', 0, G_OPTION_ARG_FILENAME, &s.dist_path, NULL, NULL},
    {"width", 'w', 0, G_OPTION_ARG_INT, &s.width, NULL, NULL},
    {"height", 'h', 0, G_OPTION_ARG_INT, &s.height, NULL, NULL},
    {"pixel_format", 'p', 0, G_OPTION_ARG_STRING, &s.pix_fmt, NULL, NULL},
    {"bitdepth", 'b', 0, G_OPTION_ARG_INT, &s.bpc, NULL, NULL},
    {"model", 'm', 0, G_OPTION_ARG_STRING_ARRAY, &s.models, NULL, NULL},
    {"feature", 0, 0, G_OPTION_ARG_STRING_ARRAY, &s.features, NULL, NULL},
    {"output", 'o', 0, G_OPTION_ARG_FILENAME, &s.output, NULL, NULL},
    {"json", 0, 0, G_OPTION_ARG_NONE, &s.json, NULL, NULL},
    {"xml", 0, 0, G_OPTION_ARG_NONE, &s.xml, NULL, NULL},
    {"csv", 0, 0, G_OPTION_ARG_NONE, &s.csv, NULL, NULL},
    {"sub", 0, 0, G_OPTION_ARG_NONE, &s.sub, NULL, NULL},
    {"threads", 0, 0, G_OPTION_ARG_INT, &s.threads, NULL, NULL},
    {"subsample", 0, 0, G_OPTION_ARG_INT, &s.subsample, NULL, NULL},
    {"frame_cnt", 0, 0, G_OPTION_ARG_INT, &s.frame_cnt, NULL, NULL},
    {"backend", 0, 0, G_OPTION_ARG_STRING, &s.backend, NULL, NULL},
    {"no_prediction", 'n', 0, G_OPTION_ARG_NONE, &s.no_prediction, NULL, NULL},
    {"quiet", 'q', 0, G_OPTION_ARG_NONE, &s.quiet, NULL, NULL},
    {"version", 'v', 0, G_OPTION_ARG_NONE, &s.version, NULL, NULL},
    {"help", 0, 0, G_OPTION_ARG_NONE, &s.help, NULL, NULL},
    {NULL}
  };
  GOptionContext *octx = g_option_context_new (NULL);
  gint ret = 0;

  /* -h is --height, as in libvmaf's tool. */
  g_option_context_set_help_enabled (octx, FALSE);
  g_option_context_add_main_entries (octx, entries, NULL);
  if (!g_option_context_parse (octx, &argc, &argv, &error)) {
    g_printerr ("vmafhip-score: %s (see --help)\n", error->message);
    ret = 2;
  } else if (s.help) {
    print_usage (g_get_prgname ());
  } else if (s.version) {
    printf ("vmafhip-score %s\n", VH_VERSION);
  } else if (!run (&s, &error)) {
    g_printerr ("vmafhip-score: error: %s\n", error->message);
    ret = 1;
  }
  g_clear_error (&error);
  g_option_context_free (octx);
  g_free (s.ref_path);
  g_free (s.dist_path);
  g_free (s.pix_fmt);
  g_strfreev (s.models);
  g_strfreev (s.features);
  g_free (s.output);
  g_free (s.backend);
  return ret;
}
