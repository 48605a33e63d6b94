/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* vmafhip-score's options: libvmaf's names, its presets expanded in
 * place, and the checks that need no file. */

#include "cli-options.h"
#include "errors.h"
#include "feature-extractor.h"
#include "model.h"

#include <stdio.h>
#include <string.h>

/* Longest sensible --threads: more workers than this only cost memory. */
#define MAX_THREADS 1024

/* libvmaf's --aom_ctc and --nflx_ctc presets: the --model and --feature
 * options each version stands for, in libvmaf's order. Later versions
 * change earlier ones as noted. */
typedef struct
{
  const gchar *option;
  const gchar *version;
  const gchar *const args[24];
} Preset;

#define AOM_V1_MODELS \
  "--model", "version=vmaf_v0.6.1:name=vmaf", \
  "--model", "version=vmaf_v0.6.1neg:name=vmaf_neg"
#define AOM_V1_HEAD \
  "--feature", "psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5", \
  "--feature", "ciede"
#define AOM_V1_TAIL \
  "--feature", "float_ms_ssim=enable_db=true:clip_db=true", \
  "--feature", "psnr_hvs"

static const Preset presets[] = {
  {"aom_ctc", "v1.0", {AOM_V1_MODELS, AOM_V1_HEAD,
              "--feature", "float_ssim=enable_db=true:clip_db=true",
          AOM_V1_TAIL, NULL}},
  {"aom_ctc", "v2.0", {AOM_V1_MODELS, AOM_V1_HEAD,
              "--feature", "float_ssim=enable_db=true:clip_db=true",
          AOM_V1_TAIL, NULL}},
  /* v3.0 adds cambi; v4.0 and v5.0 are v3.0. */
  {"aom_ctc", "v3.0", {AOM_V1_MODELS, AOM_V1_HEAD,
              "--feature", "float_ssim=enable_db=true:clip_db=true",
          AOM_V1_TAIL, "--feature", "cambi", NULL}},
  {"aom_ctc", "v4.0", {AOM_V1_MODELS, AOM_V1_HEAD,
              "--feature", "float_ssim=enable_db=true:clip_db=true",
          AOM_V1_TAIL, "--feature", "cambi", NULL}},
  {"aom_ctc", "v5.0", {AOM_V1_MODELS, AOM_V1_HEAD,
              "--feature", "float_ssim=enable_db=true:clip_db=true",
          AOM_V1_TAIL, "--feature", "cambi", NULL}},
  /* v6.0 also scores clips of different bit depths at a common one, which
   * vmafhip does not offer (both inputs must have the same depth). */
  {"aom_ctc", "v6.0", {AOM_V1_MODELS, AOM_V1_HEAD,
              "--feature", "float_ssim=enable_db=true:clip_db=true",
          AOM_V1_TAIL, "--feature", "cambi", NULL}},
  /* v7.0 replaces float_ssim with its full-scale variant. */
  {"aom_ctc", "v7.0", {AOM_V1_MODELS, AOM_V1_HEAD,
              "--feature", "float_ssim=scale=1:enable_db=true:clip_db=true",
          AOM_V1_TAIL, "--feature", "cambi", NULL}},
  {"nflx_ctc", "v1.0", {
              "--model", "version=vmaf_4k_v0.6.1:name=vmaf",
              "--model", "version=vmaf_4k_v0.6.1neg:name=vmaf_neg",
              "--feature", "psnr=enable_chroma=true:enable_apsnr=true",
              "--feature", "float_ssim=enable_db=true:clip_db=true",
          "--feature", "cambi", NULL}},
};

/* Replaces each --aom_ctc V / --nflx_ctc V (or =V) by the options it
 * stands for, in place, so that they mix with the other --model and
 * --feature options in command-line order as in libvmaf. */
static gboolean
expand_presets (gint * argc, gchar *** argv, GError ** error)
{
  GPtrArray *out = g_ptr_array_new ();
  gboolean ok = TRUE;

  for (gint i = 0; i < *argc && ok; i++) {
    const gchar *arg = (*argv)[i];
    const gchar *option = NULL, *version = NULL;
    const Preset *preset = NULL;

    for (guint p = 0; p < G_N_ELEMENTS (presets) && !option; p++) {
      gsize len = strlen (presets[p].option);
      if (i > 0 && !strncmp (arg, "--", 2) &&
          !strncmp (arg + 2, presets[p].option, len) &&
          (arg[2 + len] == '\0' || arg[2 + len] == '='))
        option = presets[p].option;
    }
    if (!option) {
      g_ptr_array_add (out, g_strdup (arg));
      continue;
    }
    version = strchr (arg, '=') ? strchr (arg, '=') + 1 :
        i + 1 < *argc ? (*argv)[++i] : NULL;
    for (guint p = 0; version && p < G_N_ELEMENTS (presets); p++) {
      if (!strcmp (presets[p].option, option) &&
          !strcmp (presets[p].version, version))
        preset = &presets[p];
    }
    if (!preset) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "bad %s version \"%s\" (%s)", option, version ? version : "",
          !strcmp (option, "aom_ctc") ?
          "v1.0, v2.0, v3.0, v4.0, v5.0, v6.0 or v7.0" : "v1.0");
      ok = FALSE;
      break;
    }
    for (guint a = 0; preset->args[a]; a++)
      g_ptr_array_add (out, g_strdup (preset->args[a]));
  }
  g_ptr_array_add (out, NULL);
  *argc = out->len - 1;
  *argv = (gchar **) g_ptr_array_free (out, FALSE);
  return ok;
}

/* A libvmaf-style unsigned: decimal, 0x hexadecimal or 0 octal. */
gboolean
vh_cli_parse_mask (const gchar * text, const gchar * option, guint * out,
    GError ** error)
{
  gchar *end = NULL;
  guint64 v;

  if (!text) {
    *out = 0;
    return TRUE;
  }
  v = g_ascii_strtoull (text, &end, 0);
  if (!*text || *end || v > G_MAXUINT) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "invalid argument \"%s\" for option --%s; should be an unsigned "
        "bitmask", text, option);
    return FALSE;
  }
  *out = v;
  return TRUE;
}

gboolean
vh_cli_parse_pix_fmt (const gchar * s, VhPixFmt * fmt)
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

static void
print_usage (FILE * out, const gchar * app)
{
  g_autofree gchar *models = g_strjoinv (", ",
      (gchar **) vh_model_list_builtin ());
  g_autofree gchar *features = vh_feature_extractor_list_names ();

  fprintf (out, "Usage: %s [options]\n\n"
      "Scores a distorted video against its reference with VMAF.\n\n"
      "  -r, --reference PATH     reference: raw YUV, or Y4M (told by its\n"
      "                           header: a pipe or /dev/stdin works too)\n"
      "  -d, --distorted PATH     distorted, likewise\n"
      "  -w, --width N            width of raw .yuv input\n"
      "  -h, --height N           height of raw .yuv input\n"
      "  -p, --pixel_format F     420, 422, 444 or 400 (raw input)\n"
      "  -b, --bitdepth N         8, 10, 12 or 16 (raw input)\n"
      "      --dist_w N, --dist_h N  size of a raw distorted of another size\n"
      "      --scale S            bicubic (default), bilinear, lanczos or\n"
      "                           none: how a distorted of another size is\n"
      "                           resampled to the reference's size\n"
      "  -m, --model SPEC         version=NAME or path=FILE, then optional\n"
      "                           :name=X :enable_transform :disable_clip\n"
      "                           :EXTRACTOR.OPTION=VALUE (e.g.\n"
      "                           adm.adm_enhn_gain_limit=1.2);\n"
      "                           repeatable (default version=vmaf_v0.6.1)\n"
      "      --feature SPEC       NAME[=key=value[:key=value]], repeatable\n"
      "  -o, --output PATH        results file, kept complete while scoring;\n"
      "                           /dev/stdout, pipes, FIFOs: written at the end\n"
      "      --xml | --json | --csv | --sub   results layout (default xml)\n"
      "      --threads N          worker threads (default 1)\n"
      "      --subsample N        score every Nth frame\n"
      "      --frame_cnt N        stop after N frames\n"
      "      --frame_skip_ref N   skip the first N reference frames\n"
      "      --frame_skip_dist N  skip the first N distorted frames\n"
      "      --align              pair frames by their content: a distorted\n"
      "                           that starts late, misses frames or repeats\n"
      "                           them is scored frame against its own\n"
      "                           (regular files only: they are read twice)\n"
      "      --align_window N     how far apart the inputs may be, in frames\n"
      "                           (default 250)\n"
      "      --aom_ctc V          AOM CTC preset (v1.0 ... v7.0): models and\n"
      "                           features as libvmaf's tool sets them\n"
      "      --nflx_ctc V         Netflix CTC preset (v1.0)\n"
      "      --cpumask M          libvmaf's CPU bits to forbid (8: AVX2)\n"
      "      --gpumask M          non-zero keeps every feature on the CPU\n"
      "      --backend B          auto, cpu or hip\n"
      "  -n, --no_prediction      features only, no model\n"
      "  -q, --quiet              no progress or scores on a terminal\n"
      "  -v, --version            print the version\n"
      "      --help               this text\n\n"
      "Built-in models: %s\nFeatures: %s\n", app, models, features);
}

gboolean
vh_cli_settings_check (const VhCliSettings * s, VhPictureInfo * raw_info,
    gboolean * have_raw, VhOutputFormat * format, GError ** error)
{
  gboolean have_format;

  *have_raw = FALSE;
  if (!s->ref_path) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "a reference (-r/--reference) is required");
    return FALSE;
  }
  if (!s->dist_path) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "a distorted video (-d/--distorted) is required");
    return FALSE;
  }
  if (s->align_window < 0 || (s->align_window && !s->align)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        s->align_window < 0 ? "--align_window takes a positive count of "
        "frames" : "--align_window is for --align, which was not given");
    return FALSE;
  }
  if (s->frame_skip_ref < 0 || s->frame_skip_dist < 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "--frame_skip_ref and --frame_skip_dist take an unsigned count");
    return FALSE;
  }
  /* Y4M is told by its header, whatever the name (a pipe from ffmpeg,
   * /dev/stdin); raw input needs all four of libvmaf's geometry options:
   * given some, name the missing ones. */
  if (s->width || s->height || s->pix_fmt || s->bpc) {
    GString *missing = g_string_new (NULL);
    if (!s->width)
      g_string_append (missing, " -w/--width");
    if (!s->height)
      g_string_append (missing, " -h/--height");
    if (!s->pix_fmt)
      g_string_append (missing, " -p/--pixel_format");
    if (!s->bpc)
      g_string_append (missing, " -b/--bitdepth");
    if (missing->len) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "missing option%s for raw input:%s",
          strchr (missing->str + 1, ' ') ? "s" : "", missing->str);
      g_string_free (missing, TRUE);
      return FALSE;
    }
    g_string_free (missing, TRUE);
  }
  if (s->width || s->height || s->pix_fmt || s->bpc) {
    VhPixFmt fmt;
    if (!vh_cli_parse_pix_fmt (s->pix_fmt, &fmt)) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "--pixel_format '%s': expected 420, 422, 444 or 400",
          s->pix_fmt ? s->pix_fmt : "");
      return FALSE;
    }
    if (s->width <= 0 || s->height <= 0 || !vh_picture_info_init (raw_info,
            fmt, s->bpc, s->width, s->height, error)) {
      if (error && !*error)
        g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
            "--width and --height must be positive");
      return FALSE;
    }
    *have_raw = TRUE;
  }
  if (s->json + s->xml + s->csv + s->sub > 1) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "choose one of --json, --xml, --csv and --sub");
    return FALSE;
  }
  have_format = s->json || s->xml || s->csv || s->sub;
  *format = s->json ? VH_OUTPUT_JSON : s->csv ? VH_OUTPUT_CSV :
      s->sub ? VH_OUTPUT_SUB : VH_OUTPUT_XML;
  if (have_format && !s->output) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "an output format needs --output FILE");
    return FALSE;
  }
  if (s->threads < 0 || s->threads > MAX_THREADS) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "--threads %d: expected 0 to %d", s->threads, MAX_THREADS);
    return FALSE;
  }
  if (s->subsample < 0 || s->frame_cnt < 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "--%s %d: expected a positive number", s->subsample < 0 ?
        "subsample" : "frame_cnt", s->subsample < 0 ? s->subsample :
        s->frame_cnt);
    return FALSE;
  }
  return TRUE;
}

gboolean
vh_cli_settings_parse (VhCliSettings * s, gint argc, gchar ** argv,
    gint * exit_status)
{
  GOptionEntry entries[] = {
    {"reference", 'r', 0, G_OPTION_ARG_FILENAME, &s->ref_path, NULL, NULL},
    {"distorted", 'd', 0, G_OPTION_ARG_FILENAME, &s->dist_path, NULL, NULL},
    {"width", 'w', 0, G_OPTION_ARG_INT, &s->width, NULL, NULL},
    {"height", 'h', 0, G_OPTION_ARG_INT, &s->height, NULL, NULL},
    /* Strings are taken as bytes (no conversion from the locale's
     * charset, whose errors name no option); each is checked by name. */
    {"pixel_format", 'p', 0, G_OPTION_ARG_FILENAME, &s->pix_fmt, NULL, NULL},
    {"bitdepth", 'b', 0, G_OPTION_ARG_INT, &s->bpc, NULL, NULL},
    {"dist_w", 0, 0, G_OPTION_ARG_INT, &s->dist_width, NULL, NULL},
    {"dist_h", 0, 0, G_OPTION_ARG_INT, &s->dist_height, NULL, NULL},
    {"scale", 0, 0, G_OPTION_ARG_FILENAME, &s->scale, NULL, NULL},
    {"model", 'm', 0, G_OPTION_ARG_FILENAME_ARRAY, &s->models, NULL, NULL},
    {"feature", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &s->features, NULL, NULL},
    {"output", 'o', 0, G_OPTION_ARG_FILENAME, &s->output, NULL, NULL},
    {"json", 0, 0, G_OPTION_ARG_NONE, &s->json, NULL, NULL},
    {"xml", 0, 0, G_OPTION_ARG_NONE, &s->xml, NULL, NULL},
    {"csv", 0, 0, G_OPTION_ARG_NONE, &s->csv, NULL, NULL},
    {"sub", 0, 0, G_OPTION_ARG_NONE, &s->sub, NULL, NULL},
    {"threads", 0, 0, G_OPTION_ARG_INT, &s->threads, NULL, NULL},
    {"subsample", 0, 0, G_OPTION_ARG_INT, &s->subsample, NULL, NULL},
    {"frame_cnt", 0, 0, G_OPTION_ARG_INT, &s->frame_cnt, NULL, NULL},
    {"backend", 0, 0, G_OPTION_ARG_FILENAME, &s->backend, NULL, NULL},
    {"no_prediction", 'n', 0, G_OPTION_ARG_NONE, &s->no_prediction, NULL, NULL},
    {"quiet", 'q', 0, G_OPTION_ARG_NONE, &s->quiet, NULL, NULL},
    {"version", 'v', 0, G_OPTION_ARG_NONE, &s->version, NULL, NULL},
    {"help", 0, 0, G_OPTION_ARG_NONE, &s->help, NULL, NULL},
    {"frame_skip_ref", 0, 0, G_OPTION_ARG_INT, &s->frame_skip_ref, NULL, NULL},
    {"frame_skip_dist", 0, 0, G_OPTION_ARG_INT, &s->frame_skip_dist, NULL,
        NULL},
    {"cpumask", 0, 0, G_OPTION_ARG_STRING, &s->cpumask, NULL, NULL},
    {"gpumask", 0, 0, G_OPTION_ARG_STRING, &s->gpumask, NULL, NULL},
    {"align", 0, 0, G_OPTION_ARG_NONE, &s->align, NULL, NULL},
    {"align_window", 0, 0, G_OPTION_ARG_INT, &s->align_window, NULL, NULL},
    {NULL}
  };
  GOptionContext *octx = g_option_context_new (NULL);
  gchar **args = NULL, **parse_argv = NULL;
  GError *error = NULL;
  gboolean go_on = FALSE;

  *exit_status = 0;
  /* -h is --height, as in libvmaf's tool. */
  g_option_context_set_help_enabled (octx, FALSE);
  g_option_context_add_main_entries (octx, entries, NULL);
  if (argc <= 1) {
    /* As libvmaf's tool: no arguments, the usage. */
    print_usage (stderr, argv[0]);
    *exit_status = 1;
  } else if (!expand_presets (&argc, &argv, &error)) {
    args = argv;
    g_printerr ("vmafhip-score: %s (see --help)\n", error->message);
    *exit_status = 2;
  } else if (!(args = argv, parse_argv = g_memdup2 (argv, sizeof (gchar *) *
              (argc + 1)), g_option_context_parse (octx, &argc, &parse_argv,
              &error))) {
    g_printerr ("vmafhip-score: %s (see --help)\n", error->message);
    *exit_status = 2;
  } else if (argc > 1) {
    g_printerr ("vmafhip-score: unexpected argument '%s' (options take the "
        "form --name VALUE; see --help)\n", parse_argv[1]);
    *exit_status = 2;
  } else if (s->help) {
    print_usage (stdout, g_get_prgname ());
  } else if (s->version) {
    printf ("vmafhip-score %s\n", VH_VERSION);
  } else {
    go_on = TRUE;
  }
  g_clear_error (&error);
  g_option_context_free (octx);
  /* The expanded arguments; parsing drops pointers from its own copy. */
  g_strfreev (args);
  g_free (parse_argv);
  return go_on;
}

gboolean
vh_cli_settings_dist_geometry (const VhCliSettings * s,
    const VhPictureInfo * raw_info, gboolean have_raw,
    VhPictureInfo * dist_info, GError ** error)
{
  if (!s->dist_width && !s->dist_height) {
    if (have_raw)
      *dist_info = *raw_info;
    return TRUE;
  }
  if (!s->dist_width || !s->dist_height) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "--dist_w and --dist_h go together: give both or neither");
    return FALSE;
  }
  if (!have_raw) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "--dist_w and --dist_h describe raw input, with -w -h -p -b for "
        "the reference (a Y4M distorted tells its size in its header)");
    return FALSE;
  }
  if (s->dist_width <= 0 || s->dist_height <= 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "--dist_w %d --dist_h %d: expected positive sizes", s->dist_width,
        s->dist_height);
    return FALSE;
  }
  return vh_picture_info_init (dist_info, raw_info->pix_fmt, raw_info->bpc,
      s->dist_width, s->dist_height, error);
}

gboolean
vh_cli_settings_make_scaler (const VhCliSettings * s,
    const VhPictureInfo * ref, const VhPictureInfo * dist,
    VhScaler ** scaler, gchar ** description, GError ** error)
{
  VhScaleMethod method = VH_SCALE_BICUBIC;

  *scaler = NULL;
  *description = NULL;
  if (s->scale && !vh_scale_method_from_string (s->scale, &method)) {
    g_autofree gchar *shown = g_utf8_make_valid (s->scale, -1);
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "--scale '%s': expected none, bicubic, bilinear or lanczos", shown);
    return FALSE;
  }
  /* Same size, no scaling asked for, or a difference of format, which
   * the caller's refusal names. */
  if ((ref->width == dist->width && ref->height == dist->height) ||
      method == VH_SCALE_NONE || ref->pix_fmt != dist->pix_fmt ||
      ref->bpc != dist->bpc)
    return TRUE;
  {
    VhPictureInfo target = *dist;

    target.width = ref->width;
    target.height = ref->height;
    *scaler = vh_scaler_new (method, dist, &target, error);
  }
  if (!*scaler)
    return FALSE;
  *description = g_strdup_printf ("%s from %ux%u",
      vh_scale_method_to_string (method), dist->width, dist->height);
  return TRUE;
}

void
vh_cli_settings_clear (VhCliSettings * s)
{
  g_free (s->ref_path);
  g_free (s->dist_path);
  g_free (s->pix_fmt);
  g_free (s->scale);
  g_strfreev (s->models);
  g_strfreev (s->features);
  g_free (s->output);
  g_free (s->backend);
  g_free (s->cpumask);
  g_free (s->gpumask);
  memset (s, 0, sizeof (*s));
}
