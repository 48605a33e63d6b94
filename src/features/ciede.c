/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* CIEDE2000 colour difference ("ciede", output "ciede2000"), as libvmaf 3.2
 * computes it: each pixel to CIELAB (BT.709 limited range, sRGB transfer,
 * D65), the CIEDE2000 difference per pixel (kL 0.65, kC 1, kH 4), and
 * 45 - 20 log10 of the mean. Chroma is brought to the luma grid the way
 * libvmaf's upsampler does, quirks included (see ciede_chroma_source()). */

#include "feature-extractor.h"
#include "ciede-private.h"
#include "errors.h"

#include <math.h>

const gchar *const vh_ciede_provides[] = { "ciede2000", NULL };

gboolean
vh_ciede_check_info (const VhPictureInfo * info, GError ** error)
{
  if (info->pix_fmt == VH_PIX_FMT_YUV400) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "ciede: needs chroma planes; 4:0:0 (luma only) is not supported");
    return FALSE;
  }
  /* libvmaf's upsampler then reads a row past the end of its picture. */
  if (info->pix_fmt == VH_PIX_FMT_YUV420 && info->height % 2) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "ciede: 4:2:0 with an odd height (%u) is not supported: libvmaf "
        "reads outside its picture there, so it has no defined value",
        info->height);
    return FALSE;
  }
  return TRUE;
}

gdouble
vh_ciede_score (gdouble sum, guint width, guint height)
{
  return 45. - 20. * log10 (sum / (width * height));
}

typedef struct
{
  VhCiedeChromaMap map;
  VhCiedeLabCache *cache;
  gfloat *rows[6];              /* one row of each plane on the luma grid */
} VhCiedeState;

static gboolean
ciede_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  VhCiedeState *s = fex->priv;

  if (!vh_ciede_check_info (info, error))
    return FALSE;
  vh_ciede_chroma_map_init (&s->map, info);
  s->cache = vh_ciede_lab_cache_new (info->bpc);
  for (guint i = 0; i < 6; i++)
    s->rows[i] = g_new (gfloat, info->width);
  return TRUE;
}

static gboolean
ciede_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  VhCiedeState *s = fex->priv;
  const guint w = fex->info.width, h = fex->info.height;
  gdouble sum = 0;

  if (ref->mem_type != VH_MEMORY_HOST || dist->mem_type != VH_MEMORY_HOST ||
      !vh_picture_info_equal (&ref->info, &fex->info) ||
      !vh_picture_info_equal (&dist->info, &fex->info)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "ciede: frame %u does not match the stream's %ux%u %u-bit "
        "pictures in host memory", index, w, h, fex->info.bpc);
    return FALSE;
  }

  for (guint y = 0; y < h; y++) {
    vh_ciede_load_row (&s->map, ref, y, s->rows);
    vh_ciede_load_row (&s->map, dist, y, s->rows + 3);
    sum += vh_ciede_row_sum (s->cache, s->rows, w);
  }
  return vh_feature_extractor_append (fex, fc, "ciede2000", index,
      vh_ciede_score (sum, w, h), error);
}

static void
ciede_close (VhFeatureExtractor * fex)
{
  VhCiedeState *s = fex->priv;

  vh_ciede_chroma_map_clear (&s->map);
  vh_ciede_lab_cache_free (s->cache);
  for (guint i = 0; i < 6; i++)
    g_free (s->rows[i]);
}

const VhFeatureExtractorClass vh_fex_ciede = {
  .name = "ciede",
  .provides = vh_ciede_provides,
  .options = NULL,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = 0,
  .min_width = 1,
  .min_height = 1,
  .priv_size = sizeof (VhCiedeState),
  .init = ciede_init,
  .extract = ciede_extract,
  .close = ciede_close,
};
