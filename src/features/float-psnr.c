/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Floating-point luma PSNR ("float_psnr"), as libvmaf 3.2 computes it:
 * samples scaled to the 8-bit range, squared differences in single
 * precision summed in double, peak 255 x (2^bpc - 1) / 2^bpc. */

#include "float-psnr.h"
#include "errors.h"
#include "simd.h"

#include <math.h>

typedef struct
{
  VhFloatPsnr fp;
  gboolean use_avx2;
} VhFloatPsnrState;

const gchar *const vh_float_psnr_provides[] = { "float_psnr", NULL };

/* Sum of e^2 over a row of 8 to 12-bit samples: 32-bit partial sums over
 * runs of @chunk samples, short enough not to wrap, then 64 bits. */
static inline __attribute__ ((always_inline)) guint64
float_psnr_row_sum (const guint8 * r8, const guint8 * d8, gsize rs, gsize ds,
    guint w, gboolean deep, guint chunk)
{
  guint64 sum = 0;

  for (guint x0 = 0; x0 < w; x0 += chunk) {
    const guint n = MIN (chunk, w - x0);
    guint32 acc = 0;

    if (deep) {
      const guint16 *r = (const guint16 *) r8 + x0 * rs;
      const guint16 *d = (const guint16 *) d8 + x0 * ds;
      for (guint x = 0; x < n; x++) {
        gint32 e = (gint32) r[x * rs] - (gint32) d[x * ds];
        acc += (guint32) e * (guint32) e;
      }
    } else {
      const guint8 *r = r8 + x0 * rs;
      const guint8 *d = d8 + x0 * ds;
      for (guint x = 0; x < n; x++) {
        gint32 e = (gint32) r[x * rs] - (gint32) d[x * ds];
        acc += (guint32) e * (guint32) e;
      }
    }
    sum += acc;
  }
  return sum;
}

/* libvmaf squares each scaled difference in float and sums in double.
 * That float square is e^2 / scale2 rounded to 24 bits, so summing
 * float (e^2) as integers and scaling once gives the same total without
 * the serial double sum. Up to 12 bits e^2 < 2^24 and no rounding
 * happens; 16 bits keeps the float step. */
static inline __attribute__ ((always_inline)) guint64
float_psnr_sum_impl (const VhPicture * ref, const VhPicture * dis)
{
  const guint w = ref->info.width, h = ref->info.height, bpc = ref->info.bpc;
  const gsize rs = ref->step[0] ? ref->step[0] : 1;
  const gsize ds = dis->step[0] ? dis->step[0] : 1;
  /* Samples per 32-bit partial sum: (2^32 - 1) / (2^bpc - 1)^2. */
  const guint chunk = bpc == 8 ? 65536 : bpc == 10 ? 4096 : 256;
  guint64 sum = 0;

  for (guint y = 0; y < h; y++) {
    const guint8 *r = vh_picture_row (ref, 0, y);
    const guint8 *d = vh_picture_row (dis, 0, y);

    if (bpc > 12) {
      const guint16 *r16 = (const guint16 *) r;
      const guint16 *d16 = (const guint16 *) d;
      for (guint x = 0; x < w; x++) {
        gint32 e = (gint32) r16[x * rs] - (gint32) d16[x * ds];
        sum += (guint64) (gfloat) ((guint32) e * (guint32) e);
      }
    } else if (rs == 1 && ds == 1) {
      sum += bpc == 8 ? float_psnr_row_sum (r, d, 1, 1, w, FALSE, chunk) :
          float_psnr_row_sum (r, d, 1, 1, w, TRUE, chunk);
    } else {
      sum += float_psnr_row_sum (r, d, rs, ds, w, bpc > 8, chunk);
    }
  }
  return sum;
}

static guint64
float_psnr_sum_c (const VhPicture * ref, const VhPicture * dis)
{
  return float_psnr_sum_impl (ref, dis);
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define VH_FLOAT_PSNR_HAVE_AVX2 1
#define VH_FLOAT_PSNR_AVX2 __attribute__ ((target ("avx2")))
VH_FLOAT_PSNR_AVX2 static guint64
float_psnr_sum_avx2 (const VhPicture * ref, const VhPicture * dis)
{
  return float_psnr_sum_impl (ref, dis);
}
#endif

gboolean
vh_float_psnr_setup (VhFloatPsnr * fp, const VhPictureInfo * info,
    GError ** error)
{
  guint shift;

  /* The depths libvmaf knows; it refuses the others. */
  if (info->bpc != 8 && info->bpc != 10 && info->bpc != 12 && info->bpc != 16) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "float_psnr: unsupported bit depth %u (8, 10, 12 or 16)", info->bpc);
    return FALSE;
  }
  shift = info->bpc - 8;
  fp->peak = (gdouble) ((1u << info->bpc) - 1) / (1u << shift);
  fp->psnr_max = 6 * info->bpc + 12;
  fp->scale2 = (gdouble) (1u << shift) * (1u << shift);
  return TRUE;
}

gboolean
vh_float_psnr_append (VhFeatureExtractor * fex, const VhFloatPsnr * fp,
    guint64 sum, guint index, VhFeatureCollector * fc, GError ** error)
{
  gdouble noise, score;

  noise = (gdouble) sum / fp->scale2;
  noise /= (gint) (fex->info.width * fex->info.height);
  score = 10 * log10 (fp->peak * fp->peak / (noise > 1e-10 ? noise : 1e-10));
  score = score < fp->psnr_max ? score : fp->psnr_max;
  return vh_feature_extractor_append (fex, fc, "float_psnr", index, score,
      error);
}

static gboolean
float_psnr_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  VhFloatPsnrState *s = fex->priv;

  if (!vh_float_psnr_setup (&s->fp, info, error))
    return FALSE;

  s->use_avx2 = vh_simd_use_avx2 (fex->cpu_mask);
  return TRUE;
}

static gboolean
float_psnr_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  VhFloatPsnrState *s = fex->priv;
  guint64 sum;

  if (!vh_feature_extractor_check_luma (fex, ref, dist, index, error))
    return FALSE;

#ifdef VH_FLOAT_PSNR_HAVE_AVX2
  if (s->use_avx2)
    sum = float_psnr_sum_avx2 (ref, dist);
  else
#endif
    sum = float_psnr_sum_c (ref, dist);
  return vh_float_psnr_append (fex, &s->fp, sum, index, fc, error);
}

const VhFeatureExtractorClass vh_fex_float_psnr = {
  .name = "float_psnr",
  .provides = vh_float_psnr_provides,
  .options = NULL,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = 1,
  .min_height = 1,
  .priv_size = sizeof (VhFloatPsnrState),
  .init = float_psnr_init,
  .extract = float_psnr_extract,
};
