/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Integer VIF ("vif"): visual information fidelity at four scales, in the
 * fixed-point arithmetic of libvmaf's integer extractor, value for value.
 *
 * Each scale filters the luma of both pictures with a Gaussian (vertical
 * pass, then horizontal), derives local variances and covariance, and sums
 * a log-ratio statistic. The next scale is the filtered picture taken at
 * even rows and columns. Edges are mirrored without repeating the border
 * sample.
 *
 * An instance whose cpu_mask forbids AVX2 (read when it is initialised)
 * takes the portable kernels; both give the same numbers. */

#include "integer-vif.h"
#include "errors.h"
#include "simd.h"
#include "vif-options.h"

#include <string.h>

typedef struct
{
  const VhVifKernels *kern;
  const guint16 *log2_table;
  guint bpc;
  guint w[VH_VIF_N_SCALES];
  guint h[VH_VIF_N_SCALES];
  VhIntegerVif vif;

  VhVifRows rows;
  gpointer rows_mem;
  /* Reference and distorted pictures of scales 1..3. */
  guint16 *scaled[VH_VIF_N_SCALES][2];
  gsize scaled_stride[VH_VIF_N_SCALES]; /* in samples */
  gpointer scaled_mem;
} VifState;

/* One scale's input: either the luma planes or our downsampled copies. */
typedef struct
{
  const guint8 *data[2];
  gsize stride[2];              /* bytes */
  guint w, h;
  gboolean wide;                /* 16-bit samples */
} VifPlane;

const VhOptionSpec vh_integer_vif_options[] = {
  VH_VIF_OPTION_DEBUG,
  VH_VIF_OPTION_ENHN_GAIN_LIMIT,
  VH_VIF_OPTION_SKIP_SCALE0,
  {NULL}
};

/* One per scale, in order. */
const gchar *const vh_integer_vif_provides[] = {
  "integer_vif_scale0",
  "integer_vif_scale1",
  "integer_vif_scale2",
  "integer_vif_scale3",
  NULL
};

static gsize
round_up (gsize v, gsize to)
{
  return (v + to - 1) / to * to;
}

gboolean
vh_integer_vif_setup (VhIntegerVif * vif, const VhFeatureExtractor * fex,
    const VhPictureInfo * info, GError ** error)
{
  if (info->bpc < 8 || info->bpc > 16) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature 'vif' takes 8 to 16 bits per sample, got %u", info->bpc);
    return FALSE;
  }
  if (info->width < VH_VIF_MIN_SIZE || info->height < VH_VIF_MIN_SIZE) {
    g_set_error (error, VH_ERROR, VH_ERROR_TOO_SMALL,
        "feature 'vif' needs frames of at least %ux%u, got %ux%u",
        VH_VIF_MIN_SIZE, VH_VIF_MIN_SIZE, info->width, info->height);
    return FALSE;
  }
  vif->gain_limit = vh_feature_extractor_get_option (fex,
      "vif_enhn_gain_limit");
  vif->skip_scale0 = vh_feature_extractor_get_option (fex, "vif_skip_scale0");
  vif->debug = vh_feature_extractor_get_option (fex, "debug");
  return TRUE;
}

static gboolean
vif_init (VhFeatureExtractor * fex, const VhPictureInfo * info, GError ** error)
{
  VifState *s = fex->priv;
  gsize row_len, w16, total;
  guint8 *p;

  if (!vh_integer_vif_setup (&s->vif, fex, info, error))
    return FALSE;

  s->kern = &vh_vif_kernels_c;
  if (vh_simd_use_avx512 (fex->cpu_mask) && vh_vif_kernels_avx512 ())
    s->kern = vh_vif_kernels_avx512 ();
  else if (!vh_simd_disabled (fex->cpu_mask) && vh_vif_kernels_avx2 ())
    s->kern = vh_vif_kernels_avx2 ();
  s->log2_table = vh_vif_log2_table ();
  s->bpc = info->bpc;
  s->w[0] = info->width;
  s->h[0] = info->height;
  for (guint i = 1; i < VH_VIF_N_SCALES; i++) {
    s->w[i] = s->w[i - 1] / 2;
    s->h[i] = s->h[i - 1] / 2;
  }

  /* Stream rows and the scratch of the portable kernels, in one block. */
  w16 = round_up (info->width, 16);
  row_len = round_up (VH_VIF_PAD + w16 + VH_VIF_TAIL, 32);
  total = VH_VIF_N_STREAMS * row_len * sizeof (guint16) +
      G_N_ELEMENTS (s->rows.acc) * w16 * sizeof (guint32);
  s->rows_mem = p = g_aligned_alloc0 (total, 1, 64);
  for (guint q = 0; q < VH_VIF_N_STREAMS; q++) {
    s->rows.s[q] = (guint16 *) p;
    p += row_len * sizeof (guint16);
  }
  for (guint q = 0; q < G_N_ELEMENTS (s->rows.acc); q++) {
    s->rows.acc[q] = (guint32 *) p;
    p += w16 * sizeof (guint32);
  }

  total = 0;
  for (guint i = 1; i < VH_VIF_N_SCALES; i++) {
    s->scaled_stride[i] = round_up (s->w[i], 16) + 16;
    total += 2 * s->scaled_stride[i] * s->h[i];
  }
  s->scaled_mem = p = g_aligned_alloc0 (total, sizeof (guint16), 64);
  for (guint i = 1; i < VH_VIF_N_SCALES; i++) {
    for (guint k = 0; k < 2; k++) {
      s->scaled[i][k] = (guint16 *) p;
      p += s->scaled_stride[i] * s->h[i] * sizeof (guint16);
    }
  }
  return TRUE;
}

static void
vif_close (VhFeatureExtractor * fex)
{
  VifState *s = fex->priv;

  g_clear_pointer (&s->rows_mem, g_aligned_free);
  g_clear_pointer (&s->scaled_mem, g_aligned_free);
}

/* Row pointers of the @taps rows centred on @center, mirrored at the top
 * and bottom edges (the plane is taller than half the filter). */
static void
plane_rows (const VifPlane * pl, gint center, guint taps,
    gconstpointer * ref, gconstpointer * dis)
{
  const gint last = (gint) pl->h - 1;

  for (guint k = 0; k < taps; k++) {
    gint r = center + (gint) k - (gint) (taps / 2);

    if (r < 0)
      r = -r;
    else if (r > last)
      r = 2 * last - r;
    ref[k] = pl->data[0] + pl->stride[0] * (gsize) r;
    dis[k] = pl->data[1] + pl->stride[1] * (gsize) r;
  }
}

/* Mirrors the @half samples beyond both ends of @n stream rows from @q0. */
static void
mirror_streams (VhVifRows * rows, guint q0, guint n, guint w, guint half)
{
  for (guint q = q0; q < q0 + n; q++) {
    guint16 *r = rows->s[q] + VH_VIF_PAD;

    for (guint f = 1; f <= half; f++) {
      r[-(gint) f] = r[f];
      r[w - 1 + f] = r[w - 1 - f];
    }
  }
}

static void
stats_scale (VifState * s, guint scale, const VifPlane * pl, VhVifAccum * acc)
{
  const guint taps = vh_vif_filter_taps[scale];
  gconstpointer ref[VH_VIF_MAX_TAPS], dis[VH_VIF_MAX_TAPS];
  guint shift_mu = 16, shift_sq = 16;

  if (scale == 0) {
    shift_mu = s->bpc;
    shift_sq = 2 * (s->bpc - 8);
  }
  memset (acc, 0, sizeof (*acc));
  for (guint i = 0; i < pl->h; i++) {
    plane_rows (pl, i, taps, ref, dis);
    if (pl->wide)
      s->kern->vert_stats_16 ((const guint16 * const *) ref,
          (const guint16 * const *) dis, scale, shift_mu, shift_sq, 0, pl->w,
          &s->rows);
    else
      s->kern->vert_stats_8 ((const guint8 * const *) ref,
          (const guint8 * const *) dis, scale, 0, pl->w, &s->rows);
    mirror_streams (&s->rows, 0, VH_VIF_N_STREAMS, pl->w, taps / 2);
    s->kern->horiz_stats (&s->rows, scale, pl->w, s->vif.gain_limit,
        s->log2_table, acc);
  }
}

/* Filters @pl with the filter of scale @next and keeps even rows and
 * columns, into the pictures of scale @next. */
static void
downsample (VifState * s, guint next, const VifPlane * pl)
{
  const guint taps = vh_vif_filter_taps[next];
  const guint shift = next == 1 ? s->bpc : 16;
  gconstpointer ref[VH_VIF_MAX_TAPS], dis[VH_VIF_MAX_TAPS];
  const gsize stride = s->scaled_stride[next];

  for (guint m = 0; m < s->h[next]; m++) {
    plane_rows (pl, 2 * m, taps, ref, dis);
    if (pl->wide)
      s->kern->vert_mu_16 ((const guint16 * const *) ref,
          (const guint16 * const *) dis, next, shift, 0, pl->w, &s->rows);
    else
      s->kern->vert_mu_8 ((const guint8 * const *) ref,
          (const guint8 * const *) dis, next, 0, pl->w, &s->rows);
    mirror_streams (&s->rows, VH_VIF_MU1, 2, pl->w, taps / 2);
    s->kern->horiz_decimate (&s->rows, next, s->w[next],
        s->scaled[next][0] + m * stride, s->scaled[next][1] + m * stride);
  }
}

gboolean
vh_integer_vif_check_picture (const VhFeatureExtractor * fex,
    const VhPicture * pic, const gchar * what, GError ** error)
{
  if (pic->info.width != fex->info.width ||
      pic->info.height != fex->info.height || pic->info.bpc != fex->info.bpc) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "feature 'vif': %s picture is %ux%u at %u bits, expected %ux%u at "
        "%u bits", what, pic->info.width, pic->info.height, pic->info.bpc,
        fex->info.width, fex->info.height, fex->info.bpc);
    return FALSE;
  }
  return TRUE;
}

static gboolean
emit (VhFeatureExtractor * fex, VhFeatureCollector * fc, const gchar * name,
    guint index, gdouble value, GError ** error)
{
  return vh_feature_extractor_append (fex, fc, name, index, value, error);
}

gboolean
vh_integer_vif_append (VhFeatureExtractor * fex, const VhIntegerVif * vif,
    const VhVifAccum * acc, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  gfloat num[VH_VIF_N_SCALES] = { 0 }, den[VH_VIF_N_SCALES] = { 0 };
  gdouble sum_num = 0.0, sum_den = 0.0;

  for (guint i = vif->skip_scale0 ? 1 : 0; i < VH_VIF_N_SCALES; i++) {
    num[i] = acc[i].num_log / 2048.0 +
        (acc[i].den_non_log - (acc[i].num_non_log / 16384.0) / 65025.0);
    den[i] = acc[i].den_log / 2048.0 + acc[i].den_non_log;
  }

  for (guint i = 0; i < VH_VIF_N_SCALES; i++) {
    /* libvmaf divides in single precision. */
    gfloat score = (i == 0 && vif->skip_scale0) ? 0.0f : num[i] / den[i];

    if (!emit (fex, fc, vh_integer_vif_provides[i], index, score, error))
      return FALSE;
  }
  if (!vif->debug)
    return TRUE;

  for (guint i = vif->skip_scale0 ? 1 : 0; i < VH_VIF_N_SCALES; i++) {
    sum_num += num[i];
    sum_den += den[i];
  }
  if (!emit (fex, fc, "integer_vif", index,
          sum_den == 0.0 ? 1.0 : sum_num / sum_den, error) ||
      !emit (fex, fc, "integer_vif_num", index, sum_num, error) ||
      !emit (fex, fc, "integer_vif_den", index, sum_den, error))
    return FALSE;
  for (guint i = 0; i < VH_VIF_N_SCALES; i++) {
    gchar name_num[32], name_den[32];
    gboolean skipped = i == 0 && vif->skip_scale0;

    g_snprintf (name_num, sizeof (name_num), "integer_vif_num_scale%u", i);
    g_snprintf (name_den, sizeof (name_den), "integer_vif_den_scale%u", i);
    if (!emit (fex, fc, name_num, index, skipped ? 0.0 : num[i], error) ||
        !emit (fex, fc, name_den, index, skipped ? -1.0 : den[i], error))
      return FALSE;
  }
  return TRUE;
}

static gboolean
vif_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  VifState *s = fex->priv;
  VhVifAccum acc[VH_VIF_N_SCALES];
  VifPlane pl;

  if (!vh_integer_vif_check_picture (fex, ref, "reference", error) ||
      !vh_integer_vif_check_picture (fex, dist, "distorted", error))
    return FALSE;

  pl.data[0] = ref->data[0];
  pl.data[1] = dist->data[0];
  pl.stride[0] = ref->stride[0];
  pl.stride[1] = dist->stride[0];
  pl.w = s->w[0];
  pl.h = s->h[0];
  pl.wide = s->bpc > 8;

  for (guint scale = 0; scale < VH_VIF_N_SCALES; scale++) {
    if (scale > 0) {
      downsample (s, scale, &pl);
      pl.data[0] = (const guint8 *) s->scaled[scale][0];
      pl.data[1] = (const guint8 *) s->scaled[scale][1];
      pl.stride[0] = pl.stride[1] = s->scaled_stride[scale] * sizeof (guint16);
      pl.w = s->w[scale];
      pl.h = s->h[scale];
      pl.wide = TRUE;
    }
    if (scale == 0 && s->vif.skip_scale0)
      continue;
    stats_scale (s, scale, &pl, &acc[scale]);
  }
  return vh_integer_vif_append (fex, &s->vif, acc, index, fc, error);
}

const VhFeatureExtractorClass vh_fex_integer_vif = {
  .name = "vif",
  .provides = vh_integer_vif_provides,
  .options = vh_integer_vif_options,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = VH_VIF_MIN_SIZE,
  .min_height = VH_VIF_MIN_SIZE,
  .priv_size = sizeof (VifState),
  .init = vif_init,
  .extract = vif_extract,
  .close = vif_close,
};
