/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* First and second moments of the luma ("float_moment"), as libvmaf 3.2
 * computes them: samples on the 8-bit scale (sample / 2^(bpc - 8)), their
 * mean and the mean of their single-precision squares. */

#include "float-picture.h"
#include "float-moment.h"
#include "errors.h"

const gchar *const vh_float_moment_provides[] = {
  "float_moment_ref1st", "float_moment_dis1st",
  "float_moment_ref2nd", "float_moment_dis2nd", NULL
};

/* Every sample and square below 16 bits is a multiple of 2^-8 small
 * enough for libvmaf's running double sums to stay exact, so integer sums
 * scaled once give the same values. At 16 bits the float square rounds and
 * the double sum may too, so it is summed as libvmaf does, in order. */
static void
sums_of (const VhPicture * pic, VhMomentSums * m)
{
  const guint w = pic->width[0], h = pic->height[0], bpc = pic->info.bpc;
  const gsize step = pic->step[0] ? pic->step[0] : 1;
  const gfloat fscale = (gfloat) (1u << (bpc - 8));
  guint64 sum = 0, sum_sq = 0;
  gdouble second16 = 0;

  for (guint y = 0; y < h; y++) {
    if (bpc == 8) {
      const guint8 *row = vh_picture_row (pic, 0, y);
      guint32 s = 0;
      guint64 sq = 0;
      for (guint x = 0; x < w; x++) {
        const guint32 v = row[x * step];
        s += v;
        sq += v * v;
      }
      sum += s;
      sum_sq += sq;
    } else {
      const guint16 *row = vh_picture_row (pic, 0, y);
      for (guint x = 0; x < w; x++) {
        const guint64 v = row[x * step];
        sum += v;
        if (bpc == 16) {
          const gfloat f = (gfloat) v / fscale;
          second16 += f * f;
        } else {
          sum_sq += v * v;
        }
      }
    }
  }
  m->sum = sum;
  m->sum_sq = sum_sq;
  m->sum_sq16 = second16;
}

static void
moments_of (const VhFeatureExtractor * fex, const VhMomentSums * s,
    gdouble * first, gdouble * second)
{
  const guint bpc = fex->info.bpc;
  const gint n = (gint) (fex->info.width * fex->info.height);
  const gdouble scale = (gdouble) (1u << (bpc - 8));

  *first = (gdouble) s->sum / scale / n;
  if (bpc == 16)
    *second = s->sum_sq16 / n;
  else
    *second = (gdouble) s->sum_sq / (scale * scale) / n;
}

gboolean
vh_float_moment_append (VhFeatureExtractor * fex, const VhMomentSums * ref,
    const VhMomentSums * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  gdouble r1, r2, d1, d2;

  moments_of (fex, ref, &r1, &r2);
  moments_of (fex, dist, &d1, &d2);
  return vh_feature_extractor_append (fex, fc, "float_moment_ref1st", index,
      r1, error) &&
      vh_feature_extractor_append (fex, fc, "float_moment_dis1st", index,
      d1, error) &&
      vh_feature_extractor_append (fex, fc, "float_moment_ref2nd", index,
      r2, error) &&
      vh_feature_extractor_append (fex, fc, "float_moment_dis2nd", index,
      d2, error);
}

static gboolean
float_moment_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  VhMomentSums r, d;

  if (!vh_float_check_picture ("float_moment", &fex->info, ref, "reference",
          error) || !vh_float_check_picture ("float_moment", &fex->info, dist,
          "distorted", error))
    return FALSE;

  sums_of (ref, &r);
  sums_of (dist, &d);
  return vh_float_moment_append (fex, &r, &d, index, fc, error);
}

const VhFeatureExtractorClass vh_fex_float_moment = {
  .name = "float_moment",
  .provides = vh_float_moment_provides,
  .options = NULL,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = 1,
  .min_height = 1,
  .priv_size = 0,
  .extract = float_moment_extract,
};
