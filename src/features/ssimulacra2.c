/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* SSIMULACRA 2 ("ssimulacra2"), Jon Sneyers' metric as libjxl's
 * ssimulacra2 tool (version 2.1) computes it from two sRGB images: both
 * frames to R'G'B' (16 bits, the input's matrix and range) and linear
 * light, then at six scales (halved in linear light) XYB, a Gaussian blur
 * of each channel, its square and the product, and the means and 4-norms
 * of an SSIM map and of two edge maps (artifacts, detail lost), weighted
 * into one score (100: identical). The arithmetic and its order are in
 * ssimulacra2.h. */

#include "ssimulacra2.h"
#include "ssimulacra2-private.h"
#include "errors.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

typedef struct
{
  VhSsimu2 s;
  VhSsimu2Planes planes;
  const gchar *dump_dir;
  const VhSsimu2Kernels *kernels;
} Ssimu2State;

static gboolean
ssimu2_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  Ssimu2State *st = fex->priv;

  if (!vh_ssimu2_setup (&st->s, fex, info, error))
    return FALSE;
  st->dump_dir = vh_feature_extractor_get_string_option (fex, "dump_rgb");
  if (st->dump_dir && g_mkdir_with_parents (st->dump_dir, 0755) != 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "ssimulacra2: cannot create dump_rgb folder '%s': %s", st->dump_dir,
        g_strerror (errno));
    vh_ssimu2_clear (&st->s);
    return FALSE;
  }
  vh_ssimu2_planes_init (&st->planes, info->width, info->height);
  st->kernels = vh_ssimu2_kernels (fex->cpu_mask);
  return TRUE;
}

/* Writes @pic's R'G'B' as interleaved 16-bit little-endian samples. */
static gboolean
ssimu2_dump (const VhSsimu2Kernels * k, const VhSsimu2Yuv * yuv,
    const VhPicture * pic, const gchar * dir, const gchar * prefix,
    guint index, GError ** error)
{
  const guint w = pic->info.width, h = pic->info.height;
  g_autofree gchar *name = g_strdup_printf ("%s-%u.rgb48", prefix, index);
  g_autofree gchar *path = g_build_filename (dir, name, NULL);
  g_autofree guint16 *rgb = g_new (guint16, (gsize) w * 3);
  g_autofree guint16 *row = g_new (guint16, (gsize) w * 3);
  g_autofree gint32 *scratch = g_new (gint32, VH_SSIMU2_RGB_SCRATCH (w));
  FILE *f = g_fopen (path, "wb");
  gboolean ok = f != NULL;

  for (guint y = 0; ok && y < h; y++) {
    vh_ssimu2_rgb16_row (k, yuv, pic, y, scratch, row, row + w,
        row + 2 * w);
    for (guint x = 0; x < w; x++)
      for (guint c = 0; c < 3; c++)
        rgb[x * 3 + c] = GUINT16_TO_LE (row[c * w + x]);
    ok = fwrite (rgb, sizeof (guint16) * 3, w, f) == w;
  }
  if (f && fclose (f) != 0)
    ok = FALSE;
  if (!ok)
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "ssimulacra2: cannot write '%s': %s", path, g_strerror (errno));
  return ok;
}

static gboolean
ssimu2_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  Ssimu2State *st = fex->priv;
  gdouble sums[VH_SSIMU2_N_SCALES * VH_SSIMU2_SUMS_PER_SCALE];
  guint n_scales;

  if (vh_picture_is_luma_only (ref) || vh_picture_is_luma_only (dist)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "ssimulacra2: frame %u came without its chroma planes", index);
    return FALSE;
  }
  if (st->dump_dir && (!ssimu2_dump (st->kernels, &st->s.yuv[0], ref,
              st->dump_dir, "ref", index, error)
          || !ssimu2_dump (st->kernels, &st->s.yuv[1], dist, st->dump_dir,
              "dis", index, error)))
    return FALSE;
  n_scales = vh_ssimu2_compute (&st->s, &st->planes, ref, dist,
      st->kernels, sums);
  return vh_feature_extractor_append (fex, fc, "ssimulacra2", index,
      vh_ssimu2_score (sums, n_scales, ref->info.width, ref->info.height),
      error);
}

static void
ssimu2_close (VhFeatureExtractor * fex)
{
  Ssimu2State *st = fex->priv;

  vh_ssimu2_clear (&st->s);
  vh_ssimu2_planes_clear (&st->planes);
}

const VhFeatureExtractorClass vh_fex_ssimulacra2 = {
  .name = "ssimulacra2",
  .provides = vh_ssimu2_provides,
  .options = vh_ssimu2_options,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = 0,
  .min_width = VH_SSIMU2_MIN_SIZE,
  .min_height = VH_SSIMU2_MIN_SIZE,
  .priv_size = sizeof (Ssimu2State),
  .init = ssimu2_init,
  .extract = ssimu2_extract,
  .close = ssimu2_close,
};
