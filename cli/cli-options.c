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

/* "-" and the names of the standard input's descriptor. */
static gboolean
names_stdin (const gchar * path)
{
  static const gchar *const names[] = {
    "-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++) {
    if (!g_strcmp0 (path, names[i]))
      return TRUE;
  }
  return FALSE;
}

guint
vh_cli_settings_n_dist (const VhCliSettings * s)
{
  return s->dist_paths ? g_strv_length (s->dist_paths) : 0;
}

/* An option given per -d: the value for distorted @index (the one value
 * when given once), NULL when not given. */
static const gchar *
per_dist (gchar ** values, guint index)
{
  guint n = values ? g_strv_length (values) : 0;

  if (n == 0)
    return NULL;
  return n == 1 ? values[0] : values[index];
}

/* A label from a path: its base name without the extension ("ladder/
 * 720p.y4m" is "720p"); the standard input is "stdin". */
static gchar *
default_label (const gchar * path)
{
  g_autofree gchar *base = NULL;
  gchar *dot;

  if (!strcmp (path, "-") || !strcmp (path, "/dev/stdin"))
    return g_strdup ("stdin");
  base = g_path_get_basename (path);
  dot = strrchr (base, '.');
  if (dot && dot != base)
    *dot = '\0';
  return g_strdup (base);
}

/* Options given per -d come once (for all) or once per -d; -o once for
 * several -d needs %s, and no two distorted inputs write one log. */
static gboolean
check_per_dist (const VhCliSettings * s, GError ** error)
{
  const struct
  {
    const gchar *name;
    gchar **values;
    gboolean once_each;
  } options[] = {
    {"--dist_w", s->dist_widths, FALSE},
    {"--dist_h", s->dist_heights, FALSE},
    {"--scale", s->scales, FALSE},
    {"-o/--output", s->outputs, FALSE},
    {"--label", s->labels, TRUE},
  };
  guint n_dist = vh_cli_settings_n_dist (s);
  g_autoptr (GHashTable) logs = g_hash_table_new_full (g_str_hash,
      g_str_equal, g_free, g_free);

  for (guint i = 0; i < G_N_ELEMENTS (options); i++) {
    guint n = options[i].values ? g_strv_length (options[i].values) : 0;

    if (n == 0 || n == n_dist || (n == 1 && !options[i].once_each))
      continue;
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "%s is given %u time%s for %u distorted inputs (-d): give it %sonce "
        "per -d, in the order of the -d", options[i].name, n, n > 1 ? "s" :
        "", n_dist, options[i].once_each ? "" : "once for all of them, or ");
    return FALSE;
  }
  if (n_dist > 1 && s->outputs && g_strv_length (s->outputs) == 1 &&
      !strstr (s->outputs[0], "%s")) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "%u distorted inputs (-d) and one -o \"%s\" without %%s would write "
        "every log to one file: put %%s in it (replaced by each distorted's "
        "label: --label, else its file name without the extension), or "
        "give -o once per -d", n_dist, s->outputs[0]);
    return FALSE;
  }
  /* Two logs to one file: two inputs of the same base name, or one -o
   * given twice. /dev/null takes any number. */
  for (guint i = 0; i < n_dist; i++) {
    VhCliRenditionSettings rs;
    const gchar *other;

    if (!vh_cli_settings_get_rendition (s, i, &rs, error))
      return FALSE;
    other = rs.output && strcmp (rs.output, "/dev/null") ?
        g_hash_table_lookup (logs, rs.output) : NULL;
    if (other) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "-d %s and -d %s would both write their log to \"%s\": give "
          "each -d its own --label or -o", other, rs.path, rs.output);
      vh_cli_rendition_settings_clear (&rs);
      return FALSE;
    }
    if (rs.output)
      g_hash_table_insert (logs, g_strdup (rs.output), g_strdup (rs.path));
    vh_cli_rendition_settings_clear (&rs);
  }
  return TRUE;
}

/* --dist_w/--dist_h: a whole number (a negative one is refused with the
 * sizes later, as before). */
static gboolean
parse_size (const gchar * text, const gchar * option, gint * out,
    GError ** error)
{
  gint64 v;

  *out = 0;
  if (!text)
    return TRUE;
  if (!g_ascii_string_to_signed (text, 10, G_MININT, G_MAXINT, &v, NULL)) {
    g_autofree gchar *shown = g_utf8_make_valid (text, -1);
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "%s '%s': expected a width or height in pixels", option, shown);
    return FALSE;
  }
  *out = (gint) v;
  return TRUE;
}

gboolean
vh_cli_settings_get_rendition (const VhCliSettings * s, guint index,
    VhCliRenditionSettings * rs, GError ** error)
{
  const gchar *output = per_dist (s->outputs, index);

  memset (rs, 0, sizeof (*rs));
  rs->path = s->dist_paths[index];
  rs->label = s->labels ? g_strdup (s->labels[index]) :
      default_label (rs->path);
  if (output) {
    g_auto (GStrv) parts = g_strsplit (output, "%s", -1);
    rs->output = g_strjoinv (rs->label, parts);
  }
  rs->scale = per_dist (s->scales, index);
  if (!parse_size (per_dist (s->dist_widths, index), "--dist_w",
          &rs->dist_width, error) ||
      !parse_size (per_dist (s->dist_heights, index), "--dist_h",
          &rs->dist_height, error)) {
    vh_cli_rendition_settings_clear (rs);
    return FALSE;
  }
  return TRUE;
}

void
vh_cli_rendition_settings_clear (VhCliRenditionSettings * rs)
{
  g_free (rs->label);
  g_free (rs->output);
  memset (rs, 0, sizeof (*rs));
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
      "                           header: a pipe, /dev/stdin or - for the\n"
      "                           standard input works too)\n"
      "  -d, --distorted PATH     distorted, likewise; repeatable: each\n"
      "                           scored against the one reference, with\n"
      "                           its own log (-o once with %%s, or once\n"
      "                           per -d)\n"
      "  -w, --width N            width of raw .yuv input\n"
      "  -h, --height N           height of raw .yuv input\n"
      "  -p, --pixel_format F     420, 422, 444 or 400 (raw input)\n"
      "  -b, --bitdepth N         8, 10, 12 or 16 (raw input)\n"
      "      --dist_w N, --dist_h N  size of a raw distorted of another size\n"
      "                           (once for all -d, or once per -d; so is\n"
      "                           --scale)\n"
      "      --label NAME         a distorted's name, once per -d: for %%s\n"
      "                           in -o and the scores printed (default:\n"
      "                           its file name without the extension)\n"
      "      --scale S            bicubic (default), bilinear, lanczos or\n"
      "                           none: how a distorted of another size is\n"
      "                           resampled to the reference's size\n"
      "      --convert C          none (default) or reference-format: a\n"
      "                           distorted of another bit depth or chroma\n"
      "                           layout converted to the reference's, as\n"
      "                           the element's convert=reference-format\n"
      "                           does\n"
      "  -m, --model SPEC         version=NAME or path=FILE, then optional\n"
      "                           :name=X :enable_transform :disable_clip\n"
      "                           :EXTRACTOR.OPTION=VALUE (e.g.\n"
      "                           adm.adm_enhn_gain_limit=1.2);\n"
      "                           repeatable (default version=vmaf_v0.6.1)\n"
      "      --feature SPEC       NAME[=key=value[:key=value]], repeatable\n"
      "  -o, --output PATH        results file, kept complete while scoring\n"
      "                           (%%s: the distorted's label);\n"
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
      "      --device N           the GPU to use (default 0)\n"
      "      --self-test          no scoring: check every GPU feature against\n"
      "                           its CPU twin on built-in frames, one line\n"
      "                           each (only those of --feature if given);\n"
      "                           exit 0 all pass, 1 one failed, 77 no GPU\n"
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
  if (!s->dist_paths || !s->dist_paths[0]) {
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
  {
    const gchar *first_stdin = names_stdin (s->ref_path) ? s->ref_path : NULL;

    for (guint i = 0; s->dist_paths[i]; i++) {
      if (!names_stdin (s->dist_paths[i]))
        continue;
      if (first_stdin) {
        g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
            "%s and -d %s both read the standard input, which can feed "
            "only one input", first_stdin, s->dist_paths[i]);
        return FALSE;
      }
      first_stdin = s->dist_paths[i];
    }
  }
  if (!check_per_dist (s, error))
    return FALSE;
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
  if (s->convert && strcmp (s->convert, "none") &&
      strcmp (s->convert, "reference-format")) {
    g_autofree gchar *shown = g_utf8_make_valid (s->convert, -1);
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "--convert '%s': expected none or reference-format", shown);
    return FALSE;
  }
  if (s->json + s->xml + s->csv + s->sub > 1) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "choose one of --json, --xml, --csv and --sub");
    return FALSE;
  }
  have_format = s->json || s->xml || s->csv || s->sub;
  *format = s->json ? VH_OUTPUT_JSON : s->csv ? VH_OUTPUT_CSV :
      s->sub ? VH_OUTPUT_SUB : VH_OUTPUT_XML;
  if (have_format && !s->outputs) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "an output format needs --output FILE");
    return FALSE;
  }
  if (s->threads < 0 || s->threads > MAX_THREADS) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "--threads %d: expected 0 to %d", s->threads, MAX_THREADS);
    return FALSE;
  }
  if (s->device < 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "--device %d: expected a GPU index from 0", s->device);
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
    {"distorted", 'd', 0, G_OPTION_ARG_FILENAME_ARRAY, &s->dist_paths, NULL,
        NULL},
    {"width", 'w', 0, G_OPTION_ARG_INT, &s->width, NULL, NULL},
    {"height", 'h', 0, G_OPTION_ARG_INT, &s->height, NULL, NULL},
    /* Strings are taken as bytes (no conversion from the locale's
     * charset, whose errors name no option); each is checked by name. */
    {"pixel_format", 'p', 0, G_OPTION_ARG_FILENAME, &s->pix_fmt, NULL, NULL},
    {"bitdepth", 'b', 0, G_OPTION_ARG_INT, &s->bpc, NULL, NULL},
    {"dist_w", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &s->dist_widths, NULL,
        NULL},
    {"dist_h", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &s->dist_heights, NULL,
        NULL},
    {"scale", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &s->scales, NULL, NULL},
    {"label", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &s->labels, NULL, NULL},
    {"convert", 0, 0, G_OPTION_ARG_FILENAME, &s->convert, NULL, NULL},
    {"model", 'm', 0, G_OPTION_ARG_FILENAME_ARRAY, &s->models, NULL, NULL},
    {"feature", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &s->features, NULL, NULL},
    {"output", 'o', 0, G_OPTION_ARG_FILENAME_ARRAY, &s->outputs, NULL, NULL},
    {"json", 0, 0, G_OPTION_ARG_NONE, &s->json, NULL, NULL},
    {"xml", 0, 0, G_OPTION_ARG_NONE, &s->xml, NULL, NULL},
    {"csv", 0, 0, G_OPTION_ARG_NONE, &s->csv, NULL, NULL},
    {"sub", 0, 0, G_OPTION_ARG_NONE, &s->sub, NULL, NULL},
    {"threads", 0, 0, G_OPTION_ARG_INT, &s->threads, NULL, NULL},
    {"subsample", 0, 0, G_OPTION_ARG_INT, &s->subsample, NULL, NULL},
    {"frame_cnt", 0, 0, G_OPTION_ARG_INT, &s->frame_cnt, NULL, NULL},
    {"backend", 0, 0, G_OPTION_ARG_FILENAME, &s->backend, NULL, NULL},
    {"device", 0, 0, G_OPTION_ARG_INT, &s->device, NULL, NULL},
    {"self-test", 0, 0, G_OPTION_ARG_NONE, &s->self_test, NULL, NULL},
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
vh_cli_settings_dist_geometry (const VhCliRenditionSettings * s,
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
vh_cli_settings_make_scaler (const VhCliRenditionSettings * s,
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
  g_strfreev (s->dist_paths);
  g_free (s->pix_fmt);
  g_strfreev (s->dist_widths);
  g_strfreev (s->dist_heights);
  g_strfreev (s->scales);
  g_strfreev (s->labels);
  g_free (s->convert);
  g_strfreev (s->models);
  g_strfreev (s->features);
  g_strfreev (s->outputs);
  g_free (s->backend);
  g_free (s->cpumask);
  g_free (s->gpumask);
  memset (s, 0, sizeof (*s));
}
