/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* The clips the HIP twins are compared on (golden pairs, synthetic
 * odd-size ones), scoring them through the engine, and the tolerances
 * of the comparison (see test-hip-features.c). */

#include "hip-features-test.h"

#include "errors.h"
#include "hip-test-gpu.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GOLDEN_FRAMES 10
#define FLOAT_TOLERANCE 1e-4

/* ---- pictures ---------------------------------------------------------- */

/* A smooth moving pattern with noise, frame @t of clip @seed; @dist adds
 * distortion. Samples use the whole range of the depth. */
void
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

void
clip_free (Clip * c)
{
  g_free (c->label);
  g_ptr_array_unref (c->refs);
  g_ptr_array_unref (c->dists);
  g_free (c);
}

Clip *
clip_new (const gchar * label)
{
  Clip *c = g_new0 (Clip, 1);

  c->label = g_strdup (label);
  c->refs = g_ptr_array_new_with_free_func ((GDestroyNotify) vh_picture_unref);
  c->dists = g_ptr_array_new_with_free_func ((GDestroyNotify)
      vh_picture_unref);
  return c;
}

GPtrArray *
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

  if (hip_features_emulated () && g_getenv ("VH_TEST_FRAMES"))
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
        VH_TEST_CHECK (FALSE, "%s frame %u: %s", pair->name, f,
            error->message);
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
  if (hip_features_emulated ())
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
VhPicture *
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
VhContext *
score (const Clip * clip, const gchar * feature, const gchar * const *opts,
    VhBackend backends, guint n_threads, GError ** error)
{
  VhContextConfig cfg = { 0 };
  VhContext *ctx;

  cfg.n_threads = n_threads;
  cfg.backends = backends;
  cfg.extractors = vh_hip_extractor_set ();
  cfg.transfer = (backends & VH_BACKEND_HIP) ? transfer : NULL;
  ctx = vh_context_new (&cfg);
  if (!vh_context_add_feature (ctx, feature, opts, error) ||
      !vh_test_score_clip (ctx, clip->refs, clip->dists, rewrap, error))
    g_clear_pointer (&ctx, vh_context_free);
  return ctx;
}

/* Float features whose twins keep the CPU twin's order of operations, so
 * are held to max difference 0 like the integer ones. */
static const gchar *const exact_float_features[] = {
  "float_moment", "float_ansnr", "float_motion", "float_vif", "float_adm",
  "ssimulacra2", NULL
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
const gchar *
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
  if (hip_features_emulated ())
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
gdouble
compare_runs (const gchar * what, VhContext * cpu, VhContext * hip,
    const gchar * feature)
{
  VhFeatureCollector *a = vh_context_get_collector (cpu);
  VhFeatureCollector *b = vh_context_get_collector (hip);
  guint n_frames = vh_context_n_frames (cpu);
  gdouble max_diff = 0;
  g_autoptr (GPtrArray) na = vh_context_output_names (cpu);
  g_autoptr (GPtrArray) nb = vh_context_output_names (hip);

  VH_TEST_CHECK (na->len == nb->len, "%s: %u outputs on the CPU, %u on HIP", what,
      na->len, nb->len);
  for (guint j = 0; j < vh_feature_collector_n_features (a); j++) {
    const gchar *name = vh_feature_collector_feature_name (a, j);
    guint reported = 0;
    for (guint i = 0; i < n_frames; i++) {
      gdouble va, vb, d;
      if (!vh_feature_collector_get (a, name, i, &va))
        continue;
      if (!vh_feature_collector_get (b, name, i, &vb)) {
        VH_TEST_CHECK (FALSE, "%s: %s of frame %u missing on HIP", what, name, i);
        continue;
      }
      /* Equal infinities (ciede2000 of equal pictures) are no difference. */
      d = (isnan (va) && isnan (vb)) || va == vb ? 0 : fabs (va - vb);
      if (isnan (d))
        d = INFINITY;
      max_diff = MAX (max_diff, d);
      if (d > tolerance_for (feature, va) &&
          reported++ < 3)
        VH_TEST_CHECK (FALSE, "%s: %s of frame %u: CPU %.17g, HIP %.17g", what, name,
            i, va, vb);
    }
  }
  return max_diff;
}
