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
 * Everywhere: every HIP class in the registry has a CPU class of the same
 * name with the same outputs and options; registration is idempotent; a
 * feature whose options its twin leaves to the CPU (cambi's heatmaps_path)
 * runs on its CPU twin when the context allows HIP and CPU, with the same
 * values; vh_hip_select_backend() says
 * "hip" without a usable GPU is an error, "auto" falls back with a reason.
 *
 * On a GPU (VH_TEST_MODE=gpu, else those parts are skipped): every HIP
 * class (the registry is searched, so twins added later are covered) is
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
 * no option variants (the emulation is slow; the GPU run has them). */

#include "context.h"
#include "errors.h"
#include "golden.h"
#include "hip-features.h"
#include "hip-picture.h"
#include "hip-test-gpu.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#define MAX_GOLDEN_FRAMES 10

/* Whether the GPU is a stand-in running the kernels on the host. */
static gboolean
emulated (void);
#define FLOAT_TOLERANCE 1e-4

static const gchar *mode;
static VhPictureTransfer *transfer;     /* the GPU's, in gpu mode */
static VhHipDevice *device;
static gint failures;

#define CHECK(cond, ...) G_STMT_START { \
    if (!(cond)) { \
      printf ("FAIL %s:%d: ", __FILE__, __LINE__); \
      printf (__VA_ARGS__); \
      printf ("\n"); \
      failures++; \
    } \
  } G_STMT_END

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

  vh_hip_features_register ();
  vh_feature_extractor_list (&n_before);
  vh_hip_features_register ();
  vh_hip_features_register ();
  list = vh_feature_extractor_list (&n_after);
  CHECK (n_before == n_after, "registering twice added classes (%u, %u)",
      n_before, n_after);
  vh_hip_features_list (&n_twins);

  for (guint i = 0; list[i]; i++) {
    const VhFeatureExtractorClass *hip = list[i], *cpu;
    if (!(hip->backend & VH_BACKEND_HIP))
      continue;
    n_hip++;
    cpu = vh_feature_extractor_find (hip->name, VH_BACKEND_CPU);
    CHECK (cpu != NULL, "HIP class %s has no CPU twin", hip->name);
    if (!cpu)
      continue;
    CHECK (same_provides (hip->provides, cpu->provides),
        "%s: outputs differ from the CPU twin's", hip->name);
    CHECK (same_options (hip->options, cpu->options),
        "%s: options differ from the CPU twin's", hip->name);
    CHECK (hip->mem_type == VH_MEMORY_HIP_DEVICE,
        "%s: a HIP twin reads device pictures", hip->name);
    CHECK (hip->lookahead >= cpu->lookahead,
        "%s: lookahead %u below the CPU twin's %u", hip->name, hip->lookahead,
        cpu->lookahead);
    CHECK (vh_feature_extractor_find (hip->name,
            VH_BACKEND_HIP | VH_BACKEND_CPU) == hip,
        "%s: the registry does not prefer the twin", hip->name);
    printf ("# twin %s: %s\n", hip->name,
        (hip->flags & VH_EXTRACTOR_FLAG_TEMPORAL) ? "temporal" : "parallel");
  }
  CHECK (n_hip == n_twins, "%u HIP classes registered, %u twins listed",
      n_hip, n_twins);
}

/* ---- pictures ---------------------------------------------------------- */

/* A smooth moving pattern with noise, frame @t of clip @seed; @dist adds
 * distortion. Samples use the whole range of the depth. */
static void
fill_picture (VhPicture * pic, guint seed, guint t, gboolean dist)
{
  const guint maxv = (1u << pic->info.bpc) - 1;
  GRand *rand = g_rand_new_with_seed (seed * 7919 + t * 31 + (dist ? 1 : 0));

  for (guint p = 0; p < pic->n_planes; p++) {
    for (guint y = 0; y < pic->height[p]; y++) {
      guint8 *row = vh_picture_row (pic, p, y);
      for (guint x = 0; x < pic->width[p]; x++) {
        gdouble v = 0.5 + 0.35 * sin ((x + 3.0 * t) * 0.11 + p) *
            cos ((y + 2.0 * t) * 0.07 + seed);
        gint64 s;
        v += (g_rand_double (rand) - 0.5) * (dist ? 0.12 : 0.02);
        s = (gint64) llround (v * maxv);
        s = CLAMP (s, 0, (gint64) maxv);
        if (pic->info.bpc > 8)
          ((guint16 *) row)[(gsize) x * pic->step[p]] = (guint16) s;
        else
          row[(gsize) x * pic->step[p]] = (guint8) s;
      }
    }
  }
  g_rand_free (rand);
}

/* Luma in bands of one to three 10-bit codes (CAMBI's subject: flat
 * areas next to nearby levels), shifted by @t; @dist adds sparse
 * one-code noise. Chroma is left as it is. */
static void
fill_banded (VhPicture * pic, guint seed, guint t, gboolean dist)
{
  const guint bpc = pic->info.bpc;
  GRand *rand = g_rand_new_with_seed (seed * 104729 + t);

  for (guint y = 0; y < pic->height[0]; y++) {
    guint8 *row = vh_picture_row (pic, 0, y);
    for (guint x = 0; x < pic->width[0]; x++) {
      guint band = (x + y / 2 + 3 * t + seed) / 12;
      guint v10 = 200 + band * (1 + (y / 40 + seed) % 3);
      guint v;
      if (dist && g_rand_int_range (rand, 0, 50) == 0)
        v10 += 1;
      v10 = MIN (v10, 1023);
      v = bpc >= 10 ? v10 << (bpc - 10) : v10 >> 2;
      if (bpc > 8)
        ((guint16 *) row)[(gsize) x * pic->step[0]] = (guint16) v;
      else
        row[(gsize) x * pic->step[0]] = (guint8) v;
    }
  }
  g_rand_free (rand);
}

typedef struct
{
  guint8 *luma;
  guint8 *chroma;
} SemiPlanar;

static void
semi_planar_free (gpointer data)
{
  SemiPlanar *sp = data;

  g_free (sp->luma);
  g_free (sp->chroma);
  g_free (sp);
}

/* 8-bit 4:2:0 with interleaved chroma (NV12), read in place. */
static VhPicture *
new_semi_planar (const VhPictureInfo * info)
{
  SemiPlanar *sp = g_new0 (SemiPlanar, 1);
  const guint cw = (info->width + 1) / 2, ch = (info->height + 1) / 2;
  gpointer data[3];
  gsize stride[3] = { info->width + 3, 2 * cw + 5, 2 * cw + 5 };
  const guint step[3] = { 1, 2, 2 };

  sp->luma = g_malloc0 (stride[0] * info->height);
  sp->chroma = g_malloc0 (stride[1] * ch);
  data[0] = sp->luma;
  data[1] = sp->chroma;
  data[2] = sp->chroma + 1;
  return vh_picture_new_wrapped (info, data, stride, step, VH_MEMORY_HOST,
      sp, semi_planar_free);
}

typedef struct
{
  gchar *label;
  GPtrArray *refs;
  GPtrArray *dists;
} Clip;

static void
clip_free (Clip * c)
{
  g_free (c->label);
  g_ptr_array_unref (c->refs);
  g_ptr_array_unref (c->dists);
  g_free (c);
}

static Clip *
clip_new (const gchar * label)
{
  Clip *c = g_new0 (Clip, 1);

  c->label = g_strdup (label);
  c->refs = g_ptr_array_new_with_free_func ((GDestroyNotify) vh_picture_unref);
  c->dists = g_ptr_array_new_with_free_func ((GDestroyNotify)
      vh_picture_unref);
  return c;
}

static GPtrArray *
make_clips (void)
{
  static const struct
  {
    VhPixFmt fmt;
    guint bpc, w, h;
    gboolean semi;
    gboolean banded;            /* for cambi (which needs a side of 216) */
    guint frames;
  } synth[] = {
    {VH_PIX_FMT_YUV420, 8, 97, 53, FALSE, FALSE, 6},
    {VH_PIX_FMT_YUV420, 8, 99, 61, TRUE, FALSE, 6},
    {VH_PIX_FMT_YUV422, 10, 130, 67, FALSE, FALSE, 6},
    {VH_PIX_FMT_YUV444, 12, 211, 119, FALSE, FALSE, 6},
    {VH_PIX_FMT_YUV420, 16, 67, 45, FALSE, FALSE, 6},
    {VH_PIX_FMT_YUV400, 10, 185, 97, FALSE, FALSE, 6},
    {VH_PIX_FMT_YUV420, 8, 263, 231, FALSE, FALSE, 6},
    {VH_PIX_FMT_YUV420, 8, 301, 217, TRUE, TRUE, 3},
    {VH_PIX_FMT_YUV422, 10, 229, 151, FALSE, TRUE, 3},
    {VH_PIX_FMT_YUV444, 12, 217, 223, FALSE, TRUE, 3},
    {VH_PIX_FMT_YUV400, 16, 250, 97, FALSE, TRUE, 3},
    /* cambi_high_res_speedup=1080 applies from 1920x1080 up. */
    {VH_PIX_FMT_YUV420, 10, 1920, 1080, FALSE, TRUE, 2},
    /* Chroma planes big enough for SpEED (80x80 and more), 10-bit. */
    {VH_PIX_FMT_YUV420, 10, 355, 291, FALSE, FALSE, 6},
  };
  GPtrArray *clips = g_ptr_array_new_with_free_func ((GDestroyNotify)
      clip_free);
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  guint max_frames = MAX_GOLDEN_FRAMES;

  if (emulated () && g_getenv ("VH_TEST_FRAMES"))
    max_frames = CLAMP (atoi (g_getenv ("VH_TEST_FRAMES")), 1,
        MAX_GOLDEN_FRAMES);

  for (guint i = 0; pairs && i < pairs->len; i++) {
    VhGoldenPair *pair = g_ptr_array_index (pairs, i);
    Clip *c;
    if ((gsize) pair->width * pair->height > 1280 * 720)
      continue;
    c = clip_new (pair->name);
    for (guint f = 0; f < MIN (pair->n_frames, max_frames); f++) {
      GError *error = NULL;
      VhPicture *r = vh_golden_read_frame (pair, TRUE, f, &error);
      VhPicture *d = r ? vh_golden_read_frame (pair, FALSE, f, &error) : NULL;
      if (!d) {
        printf ("FAIL: %s frame %u: %s\n", pair->name, f, error->message);
        failures++;
        g_clear_error (&error);
        g_clear_pointer (&r, vh_picture_unref);
        break;
      }
      g_ptr_array_add (c->refs, r);
      g_ptr_array_add (c->dists, d);
    }
    g_ptr_array_add (clips, c);
  }
  if (!pairs || pairs->len == 0)
    printf ("# no golden pairs (VH_GOLDEN_DIR): synthetic clips only\n");
  /* emulated kernels are slow: the golden pairs are the subset */
  if (emulated ())
    return clips;

  for (guint i = 0; i < G_N_ELEMENTS (synth); i++) {
    VhPictureInfo info;
    gchar *label;
    Clip *c;

    vh_picture_info_init (&info, synth[i].fmt, synth[i].bpc, synth[i].w,
        synth[i].h, NULL);
    label = g_strdup_printf ("synthetic %ux%u %s %u-bit%s%s", synth[i].w,
        synth[i].h, vh_pix_fmt_to_string (synth[i].fmt), synth[i].bpc,
        synth[i].semi ? " semi-planar" : "", synth[i].banded ? " banded" : "");
    c = clip_new (label);
    g_free (label);
    for (guint t = 0; t < synth[i].frames; t++) {
      VhPicture *r = synth[i].semi ? new_semi_planar (&info) :
          vh_picture_new (&info);
      VhPicture *d = synth[i].semi ? new_semi_planar (&info) :
          vh_picture_new (&info);
      fill_picture (r, i, t, FALSE);
      fill_picture (d, i, t, TRUE);
      if (synth[i].banded) {
        fill_banded (r, i, t, FALSE);
        fill_banded (d, i, t, TRUE);
      }
      g_ptr_array_add (c->refs, r);
      g_ptr_array_add (c->dists, d);
    }
    g_ptr_array_add (clips, c);
  }
  return clips;
}

/* A new picture with @pic's samples and no device copy yet. */
static VhPicture *
rewrap (VhPicture * pic)
{
  return vh_picture_new_wrapped (&pic->info, pic->data, pic->stride,
      pic->step, pic->mem_type, vh_picture_ref (pic),
      (GDestroyNotify) vh_picture_unref);
}

/* ---- engine runs ------------------------------------------------------- */

/* Scores @clip with @feature (options @opts) on @backends; NULL with
 * @error when the feature refuses the clip. @first: frame index of the
 * first frame (submitted after that many frames of a finished sequence, so
 * the temporal twins start at another index). */
static VhContext *
score (const Clip * clip, const gchar * feature, const gchar * const *opts,
    VhBackend backends, guint n_threads, GError ** error)
{
  VhContextConfig cfg = { 0 };
  VhContext *ctx;
  const VhPicture *first = g_ptr_array_index (clip->refs, 0);

  cfg.n_threads = n_threads;
  cfg.backends = backends;
  cfg.transfer = (backends & VH_BACKEND_HIP) ? transfer : NULL;
  ctx = vh_context_new (&cfg);
  if (!vh_context_add_feature (ctx, feature, opts, error) ||
      !vh_context_start (ctx, &first->info, error))
    goto fail;
  for (guint i = 0; i < clip->refs->len; i++) {
    g_autoptr (VhPicture) r = rewrap (g_ptr_array_index (clip->refs, i));
    g_autoptr (VhPicture) d = rewrap (g_ptr_array_index (clip->dists, i));
    if (!vh_context_submit (ctx, r, d, NULL, error))
      goto fail;
  }
  if (!vh_context_finish (ctx, error))
    goto fail;
  return ctx;

fail:
  vh_context_free (ctx);
  return NULL;
}

/* Float features whose twins keep the CPU twin's order of operations, so
 * are held to max difference 0 like the integer ones. */
static const gchar *const exact_float_features[] = {
  "float_moment", "float_ansnr", "float_motion", "float_vif", "float_adm",
  NULL
};

/* Twins whose only difference from the CPU twin is the GPU's pow, sin,
 * cos, exp, atan2 or log2 (last-place differences of a double, which
 * rarely survive the rounding to float): documented bound 1e-6. */
static const gchar *const bounded_features[] = {
  "ciede", "speed_chroma", "speed_temporal", NULL
};

#define BOUNDED_TOLERANCE 1e-6

/* Options that take a twin off the CPU's arithmetic: float_adm's p-norms
 * other than 3 raise every term with the GPU's powf. Such runs are held
 * within 1e-6 relative to the CPU twin's value (at least 1: the debug sums
 * run to the thousands), under the name "<feature>+libm". */
static const gchar *const libm_options[][2] = {
  {"float_adm", "adm_p_norm"},
};

static const gchar *const relative_bounded_features[] = {
  "float_adm+libm", NULL
};

/* The name whose tolerance applies to @feature run with @opts. */
static const gchar *
tolerance_key (const gchar * feature, const gchar * const *opts)
{
  for (guint i = 0; i < G_N_ELEMENTS (libm_options); i++) {
    if (!strcmp (feature, libm_options[i][0]) && opts &&
        g_strv_contains (opts, libm_options[i][1])) {
      g_autofree gchar *key = g_strconcat (feature, "+libm", NULL);
      return g_intern_string (key);
    }
  }
  return feature;
}

static gboolean
is_float_feature (const gchar * name)
{
  return g_str_has_prefix (name, "float_") &&
      !g_strv_contains (exact_float_features, name);
}

/* Model scores: features as above, the score within libvmaf's 1e-4. */
#define MODEL_TOLERANCE 1e-4

/* Largest |HIP - CPU| accepted for @feature (NULL: a model run) at CPU
 * value @v. */
static gdouble
tolerance_for (const gchar * feature, gdouble v)
{
  if (emulated ())
    return 0;
  if (!feature)
    return MODEL_TOLERANCE;
  if (g_strv_contains (bounded_features, feature))
    return BOUNDED_TOLERANCE;
  if (g_strv_contains (relative_bounded_features, feature))
    return BOUNDED_TOLERANCE * MAX (1.0, fabs (v));
  if (is_float_feature (feature))
    return FLOAT_TOLERANCE * MAX (1.0, fabs (v));
  return 0;
}

/* Compares every value of every frame; returns the largest difference. */
static gdouble
compare_runs (const gchar * what, VhContext * cpu, VhContext * hip,
    const gchar * feature)
{
  VhFeatureCollector *a = vh_context_get_collector (cpu);
  VhFeatureCollector *b = vh_context_get_collector (hip);
  guint n_frames = vh_context_n_frames (cpu);
  gdouble max_diff = 0;
  g_autoptr (GPtrArray) na = vh_context_output_names (cpu);
  g_autoptr (GPtrArray) nb = vh_context_output_names (hip);

  CHECK (na->len == nb->len, "%s: %u outputs on the CPU, %u on HIP", what,
      na->len, nb->len);
  for (guint j = 0; j < vh_feature_collector_n_features (a); j++) {
    const gchar *name = vh_feature_collector_feature_name (a, j);
    guint reported = 0;
    for (guint i = 0; i < n_frames; i++) {
      gdouble va, vb, d;
      if (!vh_feature_collector_get (a, name, i, &va))
        continue;
      if (!vh_feature_collector_get (b, name, i, &vb)) {
        CHECK (FALSE, "%s: %s of frame %u missing on HIP", what, name, i);
        continue;
      }
      /* Equal infinities (ciede2000 of equal pictures) are no difference. */
      d = (isnan (va) && isnan (vb)) || va == vb ? 0 : fabs (va - vb);
      if (isnan (d))
        d = INFINITY;
      max_diff = MAX (max_diff, d);
      if (d > tolerance_for (feature, va) &&
          reported++ < 3)
        CHECK (FALSE, "%s: %s of frame %u: CPU %.17g, HIP %.17g", what, name,
            i, va, vb);
    }
  }
  return max_diff;
}

typedef struct
{
  const gchar *feature;
  const gchar *opts[15];
} Variant;

/* Option settings tried besides the defaults, for the twins that have
 * them. */
static const Variant variants[] = {
  {"psnr", {"enable_mse", "1", "min_sse", "0.5", NULL}},
  {"psnr", {"reduced_hbd_peak", "1", "enable_chroma", "0", NULL}},
  {"motion", {"motion_five_frame_window", "1", "debug", "1", NULL}},
  {"motion", {"motion_moving_average", "1", "motion_blend_factor", "0.5",
          "motion_blend_offset", "2", "motion_fps_weight", "2", NULL}},
  {"motion", {"motion_force_zero", "1", NULL}},
  {"float_motion", {"motion_add_uv", "1", "motion_filter_size", "3",
          "debug", "1", NULL}},
  {"float_motion", {"motion_add_scale1", "1", "motion_add_uv", "1", NULL}},
  {"float_motion", {"motion_filter_size", "1", "motion_blend_factor", "0.5",
          "motion_blend_offset", "2", "motion_fps_weight", "2", NULL}},
  {"float_motion", {"motion_force_zero", "1", NULL}},
  {"float_vif", {"vif_kernelscale", "0.5", "vif_enhn_gain_limit", "1.0",
          "debug", "1", NULL}},
  {"float_vif", {"vif_skip_scale0", "1", "vif_sigma_nsq", "1.5",
          "vif_scale2_min_val", "0.9", NULL}},
  {"float_vif", {"vif_kernelscale", "3", NULL}},
  {"float_vif", {"vif_prescale", "0.5", "vif_prescale_method", "bilinear",
          NULL}},
  {"float_vif", {"vif_prescale", "1.5", "vif_prescale_method", "bicubic",
          NULL}},
  {"float_vif", {"vif_prescale", "2", "vif_prescale_method", "nearest",
          NULL}},
  {"float_vif", {"vif_prescale", "0.75", "vif_prescale_method", "lanczos4",
          NULL}},
  /* As the vmaf_v1.0.16 models pass them. */
  {"cambi", {"cambi_high_res_speedup", "1080", "cambi_vis_lum_threshold",
          "0.06", "cambi_max_val", "17", NULL}},
  {"cambi", {"cambi_high_res_speedup", "1080", "cambi_vis_lum_threshold",
          "1", "cambi_max_val", "5", NULL}},
  {"cambi", {"window_size", "33", "topk", "0.2", "tvi_threshold", "0.012",
          "max_log_contrast", "4", NULL}},
  {"cambi", {"enc_width", "220", "enc_height", "160", "enc_bitdepth", "8",
          "eotf", "pq", NULL}},
  {"cambi", {"full_ref", "1", "src_width", "320", "src_height", "240",
          "max_log_contrast", "5", "window_size", "127", NULL}},
  {"cambi", {"full_ref", "1", "cambi_topk", "1", "max_log_contrast", "0",
          "cambi_vis_lum_threshold", "300", NULL}},
  {"float_adm", {"adm_csf_mode", "1", "adm_enhn_gain_limit", "1.2",
          "debug", "1", NULL}},
  {"float_adm", {"adm_csf_mode", "2", "adm_skip_scale0", "1",
          "adm_adm3_apply_hm", "1", NULL}},
  {"float_adm", {"adm_p_norm", "2.5", "adm_skip_aim_scale", "1",
          "adm_noise_weight", "0.5", "adm_min_val", "0.3", NULL}},
  {"float_adm", {"adm_bypass_cm", "1", "adm_f1s0", "0.5", "adm_f2s3", "2",
          "adm_norm_view_dist", "1.5", NULL}},
  /* vmaf_v1.0.16's options (1080p and 2160p), then other CSF modes. */
  {"adm", {"adm_dlm_weight", "0.7", "adm_enhn_gain_limit", "1.0",
          "adm_noise_weight", "0.02", "adm_norm_view_dist", "3.0",
          "adm_ref_display_height", "1080", "adm_min_val", "0.5",
          "adm_csf_mode", "2", NULL}},
  {"adm", {"adm_dlm_weight", "0.7", "adm_enhn_gain_limit", "1.0",
          "adm_noise_weight", "0.02", "adm_norm_view_dist", "1.5",
          "adm_ref_display_height", "2160", "adm_min_val", "0.5",
          "adm_csf_mode", "2", NULL}},
  {"adm", {"adm_csf_mode", "1", "adm_csf_scale", "1.2",
          "adm_csf_diag_scale", "0.8", NULL}},
  {"adm", {"adm_csf_mode", "3", NULL}},
  {"adm", {"adm_skip_scale0", "1", "adm_skip_aim", "1", NULL}},
  {"motion", {"motion_max_val", "18.0", "motion_five_frame_window", "1",
          "motion_moving_average", "1", NULL}},
  /* SpEED: the v1.0.16 settings, each resampler, kernel scale and
   * weighting mode. */
  {"speed_chroma", {"speed_kernelscale", "1.0", "speed_nn_floor", "0.1",
          "speed_sigma_nn", "0.19", "speed_weight_var_mode", "5",
          "speed_max_val", "45.0", NULL}},
  {"speed_chroma", {"speed_nn_floor", "0.1", "speed_sigma_nn", "0.19",
          "speed_weight_var_mode", "5", "speed_prescale", "0.5",
          "speed_prescale_method", "bilinear", "speed_max_val", "45.0",
          NULL}},
  {"speed_chroma", {"speed_prescale", "1.5", "speed_prescale_method",
          "bicubic", "speed_weight_var_mode", "3", NULL}},
  {"speed_chroma", {"speed_prescale", "0.8", "speed_prescale_method",
          "lanczos4", "speed_kernelscale", "0.5", "speed_weight_var_mode",
          "4", NULL}},
  {"speed_chroma", {"speed_prescale", "0.9", "speed_prescale_method",
          "nearest", "speed_weight_var_mode", "6", NULL}},
  {"speed_chroma", {"speed_kernelscale", "2", "speed_weight_var_mode", "1",
          "speed_max_val", "0.5", NULL}},
  {"speed_chroma", {"speed_kernelscale", "0.711111", "speed_weight_var_mode",
          "2", NULL}},
  {"speed_temporal", {"speed_use_ref_diff", "1", "speed_kernelscale", "1.5",
          NULL}},
  {"speed_temporal", {"speed_prescale", "0.6", "speed_prescale_method",
          "bilinear", "speed_sigma_nn", "0.5", "speed_nn_floor", "0.2",
          NULL}},
};

static void
compare_one (const Clip * clip, const VhFeatureExtractorClass * klass,
    const gchar * const *opts, GHashTable * max_diffs)
{
  g_autoptr (GError) cpu_err = NULL;
  g_autoptr (GError) hip_err = NULL;
  g_autofree gchar *opt_text = opts ? g_strjoinv ("=", (gchar **) opts) :
      g_strdup ("");
  g_autofree gchar *what = g_strdup_printf ("%s%s%s on %s", klass->name,
      opts ? " " : "", opt_text, clip->label);
  const VhPicture *first = g_ptr_array_index (clip->refs, 0);
  VhContext *cpu, *hip;
  gdouble diff, *slot;

  if (first->info.width < klass->min_width ||
      first->info.height < klass->min_height)
    return;
  cpu = score (clip, klass->name, opts, VH_BACKEND_CPU, 2, &cpu_err);
  /* Two workers: parallel twins run two instances, two streams. */
  hip = score (clip, klass->name, opts, VH_BACKEND_HIP | VH_BACKEND_CPU, 2,
      &hip_err);
  if (!cpu) {
    /* The feature refuses this input (size, depth): the twin must too. */
    CHECK (!hip, "%s: the CPU twin refuses (%s) but the HIP twin scores",
        what, cpu_err->message);
    if (hip)
      vh_context_free (hip);
    return;
  }
  CHECK (hip != NULL, "%s: %s", what, hip_err ? hip_err->message : "?");
  if (hip) {
    g_autofree gchar *dispatch = vh_context_describe_dispatch (hip);
    CHECK (strstr (dispatch, ": hip") != NULL, "%s: ran as %s", what,
        dispatch);
    diff = compare_runs (what, cpu, hip, tolerance_key (klass->name, opts));
    slot = g_hash_table_lookup (max_diffs, klass->name);
    if (!slot) {
      slot = g_new0 (gdouble, 1);
      g_hash_table_insert (max_diffs, (gpointer) klass->name, slot);
    }
    *slot = MAX (*slot, diff);
    vh_context_free (hip);
  }
  vh_context_free (cpu);
}

static void
test_twins_against_cpu (void)
{
  g_autoptr (GPtrArray) clips = make_clips ();
  g_autoptr (GHashTable) max_diffs = g_hash_table_new_full (g_str_hash,
      g_str_equal, NULL, g_free);
  const VhFeatureExtractorClass *const *list = vh_feature_extractor_list (NULL);
  /* VH_TEST_TWINS=cambi,vif: only those (a quicker run on a GPU). */
  g_auto (GStrv) only = g_getenv ("VH_TEST_TWINS") ?
      g_strsplit (g_getenv ("VH_TEST_TWINS"), ",", -1) : NULL;

  for (guint i = 0; list[i]; i++) {
    const VhFeatureExtractorClass *klass = list[i];
    gint64 t0 = g_get_monotonic_time ();
    gdouble *d;
    if (!(klass->backend & VH_BACKEND_HIP) ||
        (only && !g_strv_contains ((const gchar * const *) only,
                klass->name)))
      continue;
    for (guint c = 0; c < clips->len; c++) {
      compare_one (g_ptr_array_index (clips, c), klass, NULL, max_diffs);
      /* emulated: the options' host code runs in the GPU tests */
      for (guint v = 0; !emulated () && v < G_N_ELEMENTS (variants); v++) {
        if (!strcmp (variants[v].feature, klass->name))
          compare_one (g_ptr_array_index (clips, c), klass, variants[v].opts,
              max_diffs);
      }
    }
    d = g_hash_table_lookup (max_diffs, klass->name);
    printf ("# %-14s max |HIP - CPU| over %u clips: %s%.3g (%.1f s)\n",
        klass->name, clips->len, d ? "" : "not run ", d ? *d : 0.0,
        (g_get_monotonic_time () - t0) / 1e6);
  }
}

/* A motion twin (@feature, outputs @motion2 and @motion3) alone, driven
 * directly: frames from index 5, the last frame's motion2 held back until
 * flush. */
/* ---- models ----------------------------------------------------------- */

/* Every feature of @dispatch ("name: backend, ...") that runs on the CPU
 * must be one without a HIP twin; returns how many run on the CPU. */
static guint
check_dispatch (const gchar * what, const gchar * dispatch)
{
  g_auto (GStrv) parts = g_strsplit (dispatch, ", ", -1);
  guint n_cpu = 0;

  for (guint i = 0; parts[i]; i++) {
    g_auto (GStrv) kv = g_strsplit (parts[i], ": ", 2);
    if (!kv[0] || !kv[1] || strcmp (kv[1], "cpu"))
      continue;
    n_cpu++;
    CHECK (vh_feature_extractor_find (kv[0], VH_BACKEND_HIP) == NULL,
        "%s: %s runs on the CPU although it has a HIP twin", what, kv[0]);
  }
  return n_cpu;
}

/* A model on HIP and CPU allowed against the CPU alone: the same features
 * and score, and no feature with a twin left on the CPU. */
static VhContext *
score_model (const Clip * clip, const gchar * model_name, VhBackend backends,
    GError ** error)
{
  VhContextConfig cfg = { 0 };
  VhContext *ctx;
  VhModel *model;
  const VhPicture *first = g_ptr_array_index (clip->refs, 0);

  cfg.n_threads = 2;
  cfg.backends = backends;
  cfg.transfer = (backends & VH_BACKEND_HIP) ? transfer : NULL;
  ctx = vh_context_new (&cfg);
  model = vh_model_new_builtin (model_name, NULL, error);
  if (!model || !vh_context_add_model (ctx, model, error) ||
      !vh_context_start (ctx, &first->info, error))
    goto fail;
  for (guint i = 0; i < clip->refs->len; i++) {
    g_autoptr (VhPicture) r = rewrap (g_ptr_array_index (clip->refs, i));
    g_autoptr (VhPicture) d = rewrap (g_ptr_array_index (clip->dists, i));
    if (!vh_context_submit (ctx, r, d, NULL, error))
      goto fail;
  }
  if (!vh_context_finish (ctx, error))
    goto fail;
  return ctx;

fail:
  vh_context_free (ctx);
  return NULL;
}

static void
test_models_on_hip (void)
{
  static const gchar *const models[] = {
    "vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_3d0h_2160", "vmaf_v1.0.16_hfr_3d0h",
  };
  g_autoptr (GPtrArray) clips = make_clips ();

  for (guint m = 0; m < G_N_ELEMENTS (models); m++) {
    gdouble max_diff = 0;
    guint n_run = 0;
    g_autofree gchar *dispatch = NULL;
    for (guint c = 0; c < clips->len; c++) {
      const Clip *clip = g_ptr_array_index (clips, c);
      g_autofree gchar *what = g_strdup_printf ("%s on %s", models[m],
          clip->label);
      g_autoptr (GError) cpu_err = NULL;
      g_autoptr (GError) hip_err = NULL;
      VhContext *cpu = score_model (clip, models[m], VH_BACKEND_CPU, &cpu_err);
      VhContext *hip = score_model (clip, models[m],
          VH_BACKEND_HIP | VH_BACKEND_CPU, &hip_err);
      if (!cpu) {
        /* Too small for a feature (SpEED, ADM): the twins refuse too. */
        CHECK (!hip, "%s: the CPU refuses (%s) but HIP scores", what,
            cpu_err->message);
      } else {
        CHECK (hip != NULL, "%s: %s", what, hip_err ? hip_err->message : "?");
      }
      if (cpu && hip) {
        g_free (dispatch);
        dispatch = vh_context_describe_dispatch (hip);
        check_dispatch (what, dispatch);
        max_diff = MAX (max_diff, compare_runs (what, cpu, hip, NULL));
        n_run++;
      }
      g_clear_pointer (&cpu, vh_context_free);
      g_clear_pointer (&hip, vh_context_free);
    }
    CHECK (n_run > 0, "%s: no clip could be scored", models[m]);
    printf ("# %s on %u clips: max |HIP - CPU| %.3g; dispatch %s\n",
        models[m], n_run, max_diff, dispatch ? dispatch : "-");
  }
}

/* The motion twin alone, driven directly: frames from index 5, the last
 * frame's motion2 held back until flush. */
static void
test_motion_flush (const gchar * feature, const gchar * motion2,
    const gchar * motion3)
{
  const VhFeatureExtractorClass *hip_class =
      vh_feature_extractor_find (feature, VH_BACKEND_HIP);
  const VhFeatureExtractorClass *cpu_class =
      vh_feature_extractor_find (feature, VH_BACKEND_CPU);
  g_autoptr (GPtrArray) clips = make_clips ();
  const Clip *clip = g_ptr_array_index (clips, clips->len - 1);
  const VhPictureInfo *info =
      &((VhPicture *) g_ptr_array_index (clip->refs, 0))->info;
  VhFeatureExtractor *hip = vh_feature_extractor_new (hip_class);
  VhFeatureExtractor *cpu = vh_feature_extractor_new (cpu_class);
  VhFeatureCollector *fh = vh_feature_collector_new ();
  VhFeatureCollector *fcpu = vh_feature_collector_new ();
  const guint base = 5, n = clip->refs->len;
  const guint last = base + n - 1;
  GError *error = NULL;
  gdouble vh = -1, vc = -2;

  hip->device = device;
  if (!vh_feature_extractor_init (hip, info, &error) ||
      !vh_feature_extractor_init (cpu, info, &error)) {
    CHECK (FALSE, "%s init: %s", feature, error->message);
    g_clear_error (&error);
    goto out;
  }
  for (guint i = 0; i < n; i++) {
    VhPicture *r = g_ptr_array_index (clip->refs, i);
    VhPicture *d = g_ptr_array_index (clip->dists, i);
    g_autoptr (VhPicture) dr = vh_hip_picture_upload (device, r, &error);
    g_autoptr (VhPicture) dd = dr ? vh_hip_picture_upload (device, d,
        &error) : NULL;
    if (!dd || !vh_feature_extractor_extract (hip, dr, dd, base + i, fh,
            &error) || !vh_feature_extractor_extract (cpu, r, d, base + i,
            fcpu, &error)) {
      CHECK (FALSE, "%s frame %u: %s", feature, base + i, error->message);
      g_clear_error (&error);
      goto out;
    }
  }
  CHECK (!vh_feature_collector_get (fh, motion2, last, &vh),
      "the last frame's motion2 came before flush");
  if (!vh_feature_extractor_flush (hip, fh, &error) ||
      !vh_feature_extractor_flush (cpu, fcpu, &error)) {
    CHECK (FALSE, "%s flush: %s", feature, error->message);
    g_clear_error (&error);
    goto out;
  }
  CHECK (vh_feature_collector_get (fh, motion2, last, &vh),
      "no motion2 for the last frame after flush");
  CHECK (vh_feature_collector_get (fcpu, motion2, last, &vc),
      "the CPU twin has no motion2 for the last frame");
  CHECK (vh == vc, "last motion2: HIP %.17g, CPU %.17g", vh, vc);
  for (guint i = base; i <= last; i++) {
    gdouble a = 0, b = 1;
    CHECK (vh_feature_collector_get (fh, motion3, i, &a) &&
        vh_feature_collector_get (fcpu, motion3, i, &b) && a == b,
        "motion3 of frame %u: HIP %.17g, CPU %.17g", i, a, b);
  }
  printf ("# %s from frame %u: last motion2 %.6f at flush, as the CPU\n",
      feature, base, vh);
out:
  vh_feature_extractor_free (hip);
  vh_feature_extractor_free (cpu);
  vh_feature_collector_free (fh);
  vh_feature_collector_free (fcpu);
}

/* ---- without a GPU ----------------------------------------------------- */

static void
remove_dir (const gchar * path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const gchar *name;

  while (dir && (name = g_dir_read_name (dir))) {
    g_autofree gchar *file = g_build_filename (path, name, NULL);
    g_remove (file);
  }
  if (dir)
    g_dir_close (dir);
  g_rmdir (path);
}

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
  CHECK (mixed != NULL, "cambi with HIP | CPU: %s",
      error ? error->message : "?");
  if (mixed) {
    dispatch = vh_context_describe_dispatch (mixed);
    CHECK (!strcmp (dispatch, "cambi: cpu (heatmaps_path is written on the "
            "CPU)"), "dispatch: %s", dispatch);
    compare_runs ("cambi fallback", cpu, mixed, "cambi");
    vh_context_free (mixed);
  }
  if (cpu)
    vh_context_free (cpu);
  remove_dir (cpu_dir);
  remove_dir (mixed_dir);
  g_rmdir (dir);

  /* The dispatch a device gives: the twin where there is one. */
  cfg.backends = VH_BACKEND_HIP | VH_BACKEND_CPU;
  mixed = vh_context_new (&cfg);
  if (vh_context_add_feature (mixed, "psnr", NULL, NULL) &&
      vh_context_add_feature (mixed, "cambi", NULL, NULL)) {
    g_free (dispatch);
    dispatch = vh_context_describe_dispatch (mixed);
    CHECK (!strcmp (dispatch, "psnr: hip, cambi: hip"), "dispatch: %s",
        dispatch);
  }
  vh_context_free (mixed);

  clip_free (clip);
}

/* Without a usable GPU (no runtime, or a driver that cannot load our
 * kernels): hip is an error, auto the CPU with a reason, cpu the CPU. */
static void
test_select_without_gpu (void)
{
  VhBackend backends = 0;
  VhPictureTransfer *dev = NULL;
  gchar *reason = NULL;
  GError *error = NULL;
  VhHipBackendRequest req;

  CHECK (!vh_hip_select_backend (VH_HIP_BACKEND_REQUEST_HIP,
          VH_HIP_VENDOR_UNKNOWN, 0, &backends, &dev, &reason, &error),
      "backend hip without a GPU succeeded");
  CHECK (g_error_matches (error, VH_ERROR, VH_ERROR_BACKEND),
      "backend hip: wrong error %s", error ? error->message : "none");
  CHECK (dev == NULL && reason == NULL, "backend hip: device or reason set");
  if (error)
    printf ("# hip without a GPU: %s\n", error->message);
  g_clear_error (&error);

  CHECK (vh_hip_select_backend (VH_HIP_BACKEND_REQUEST_AUTO,
          VH_HIP_VENDOR_UNKNOWN, 0, &backends, &dev, &reason, &error),
      "backend auto failed: %s", error ? error->message : "");
  CHECK (backends == VH_BACKEND_CPU && dev == NULL, "auto did not pick CPU");
  CHECK (reason && !strchr (reason, '\n'), "auto: no one-line reason");
  if (reason)
    printf ("# auto without a GPU: %s\n", reason);
  g_clear_pointer (&reason, g_free);

  CHECK (vh_hip_select_backend (VH_HIP_BACKEND_REQUEST_CPU,
          VH_HIP_VENDOR_UNKNOWN, 0, &backends, &dev, &reason, &error) &&
      backends == VH_BACKEND_CPU && !dev && !reason, "backend cpu");

  CHECK (vh_hip_backend_request_from_string ("HIP", &req) &&
      req == VH_HIP_BACKEND_REQUEST_HIP, "parse HIP");
  CHECK (!vh_hip_backend_request_from_string ("gpu", &req), "parse gpu");
}

static gboolean
emulated (void)
{
  return g_strcmp0 (mode, "emulated") == 0;
}

int
main (int argc, char **argv)
{
  mode = g_getenv ("VH_TEST_MODE");
  if (!mode)
    mode = "gpu";

  test_classes ();
  test_fallback ();
  if (strcmp (mode, "gpu") != 0 && !emulated ()) {
    test_select_without_gpu ();
  } else {
    VhBackend backends;
    GError *error = NULL;
    g_autoptr (VhHipDevice) probe = vh_hip_test_open_gpu_or_skip ();

    if (!vh_hip_select_backend (VH_HIP_BACKEND_REQUEST_HIP,
            VH_HIP_VENDOR_UNKNOWN, 0, &backends, &transfer, NULL, &error)) {
      printf ("FAIL: backend hip with a GPU: %s\n", error->message);
      return 1;
    }
    CHECK (backends == (VH_BACKEND_HIP | VH_BACKEND_CPU), "backends");
    device = vh_picture_transfer_get_device (transfer);
    test_motion_flush ("motion", "integer_motion2", "integer_motion3");
    test_motion_flush ("float_motion", "motion2", "motion3");
    test_twins_against_cpu ();
    if (!emulated ())
      test_models_on_hip ();
    /* Empties the upload pool: nothing left on the device at exit. */
    vh_picture_transfer_unref (transfer);
  }
  printf ("%s: %d failure%s\n", failures ? "FAIL" : "PASS", failures,
      failures == 1 ? "" : "s");
  return failures ? 1 : 0;
}
