/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Anti-noise SNR ("float_ansnr"): float_ansnr and float_anpsnr, as libvmaf
 * 3.2 computes them. The luma on the 8-bit scale minus 128 is smoothed, the
 * reference with a 3x3 and the distorted with a 5x5 kernel (borders
 * mirrored), and the SNR of the smoothed reference against their
 * difference is taken. Every sum keeps libvmaf's single-precision order:
 * per pixel row by row of the kernel, per row left to right, then rows. */

#include "float-ansnr.h"
#include "errors.h"
#include "float-picture.h"
#include "simd.h"

#include <math.h>

/* Kernel row sums go at most this far from the centre. */
#define ANSNR_PAD 2

const gchar *const vh_float_ansnr_provides[] = {
  "float_ansnr", "float_anpsnr", NULL
};

/* Binomial 3x3 for the reference, a 5x5 approximation of a Gaussian for the
 * distorted picture; libvmaf keeps both as floats. */
static const gfloat ansnr_ref_kernel[3 * 3] = {
  1.0 / 16, 2.0 / 16, 1.0 / 16,
  2.0 / 16, 4.0 / 16, 2.0 / 16,
  1.0 / 16, 2.0 / 16, 1.0 / 16,
};

static const gfloat ansnr_dis_kernel[5 * 5] = {
  2.0 / 571, 7.0 / 571, 12.0 / 571, 7.0 / 571, 2.0 / 571,
  7.0 / 571, 31.0 / 571, 52.0 / 571, 31.0 / 571, 7.0 / 571,
  12.0 / 571, 52.0 / 571, 127.0 / 571, 52.0 / 571, 12.0 / 571,
  7.0 / 571, 31.0 / 571, 52.0 / 571, 31.0 / 571, 7.0 / 571,
  2.0 / 571, 7.0 / 571, 12.0 / 571, 7.0 / 571, 2.0 / 571,
};

typedef struct
{
  gsize stride;                 /* floats per padded row */
  gfloat *ref;                  /* luma, ANSNR_PAD mirrored columns each side */
  gfloat *dis;
  gfloat *ref_row;              /* one smoothed row of each */
  gfloat *dis_row;
  gfloat *inner;                /* one kernel row's sums of a whole row */
  gboolean use_avx2;
} VhAnsnrState;

/* libvmaf's mirror: -i before the start, 2n - i - 1 past the end. */
static inline gint
ansnr_mirror (gint i, gint n)
{
  return i < 0 ? -i : i >= n ? 2 * n - i - 1 : i;
}

/* Smooths row @y with the @k x @k kernel @f into @out. Pixels are
 * independent, so the loops run across the row and vectorise; each pixel
 * still sees libvmaf's order of products and sums. */
static inline __attribute__ ((always_inline)) void
ansnr_filter_row (const gfloat * f, guint k, const gfloat * src, gsize stride,
    guint w, guint h, guint y, gfloat * restrict inner, gfloat * restrict out)
{
  const gint r = k / 2;

  for (guint fi = 0; fi < k; fi++) {
    const gint yy = ansnr_mirror ((gint) y - r + (gint) fi, (gint) h);
    const gfloat *row = src + (gsize) yy * stride + ANSNR_PAD - r;

    for (guint x = 0; x < w; x++)
      inner[x] = f[fi * k] * row[x];
    for (guint fj = 1; fj < k; fj++) {
      const gfloat c = f[fi * k + fj];
      for (guint x = 0; x < w; x++)
        inner[x] += c * row[x + fj];
    }
    if (fi == 0) {
      for (guint x = 0; x < w; x++)
        out[x] = inner[x];
    } else {
      for (guint x = 0; x < w; x++)
        out[x] += inner[x];
    }
  }
}

static inline __attribute__ ((always_inline)) void
ansnr_sums_impl (VhAnsnrState * s, guint w, guint h, gfloat * sig,
    gfloat * noise)
{
  gfloat sig_sum = 0, noise_sum = 0;

  for (guint y = 0; y < h; y++) {
    gfloat sig_row = 0, noise_row = 0;

    ansnr_filter_row (ansnr_ref_kernel, 3, s->ref, s->stride, w, h, y,
        s->inner, s->ref_row);
    ansnr_filter_row (ansnr_dis_kernel, 5, s->dis, s->stride, w, h, y,
        s->inner, s->dis_row);
    for (guint x = 0; x < w; x++) {
      const gfloat r = s->ref_row[x], e = r - s->dis_row[x];
      sig_row += r * r;
      noise_row += e * e;
    }
    sig_sum += sig_row;
    noise_sum += noise_row;
  }
  *sig = sig_sum;
  *noise = noise_sum;
}

static void
ansnr_sums_c (VhAnsnrState * s, guint w, guint h, gfloat * sig,
    gfloat * noise)
{
  ansnr_sums_impl (s, w, h, sig, noise);
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define VH_ANSNR_HAVE_AVX2 1
/* AVX2 without FMA: products and sums round as in libvmaf's C. */
__attribute__ ((target ("avx2"))) static void
ansnr_sums_avx2 (VhAnsnrState * s, guint w, guint h, gfloat * sig,
    gfloat * noise)
{
  ansnr_sums_impl (s, w, h, sig, noise);
}
#endif

/* Loads the luma as libvmaf's float extractors see it and mirrors
 * ANSNR_PAD columns on each side. */
static void
ansnr_load (const VhPicture * pic, gfloat * dst, gsize stride)
{
  const gint w = pic->width[0];

  vh_float_load_luma (pic, dst + ANSNR_PAD, stride);
  for (guint y = 0; y < pic->height[0]; y++) {
    gfloat *row = dst + (gsize) y * stride + ANSNR_PAD;
    for (gint x = 1; x <= ANSNR_PAD; x++) {
      row[-x] = row[ansnr_mirror (-x, w)];
      row[w - 1 + x] = row[ansnr_mirror (w - 1 + x, w)];
    }
  }
}

gboolean
vh_float_ansnr_append (VhFeatureExtractor * fex, gfloat sig, gfloat noise,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  const guint bpc = fex->info.bpc;
  /* Peak: the largest sample on the 8-bit scale; ceiling: 6 dB a bit + 12. */
  const gdouble peak = (gdouble) ((1u << bpc) - 1) / (1u << (bpc - 8));
  const gdouble psnr_max = 6 * bpc + 12;
  gdouble ansnr, anpsnr;

  /* libvmaf divides in single precision, then takes the double log. */
  ansnr = noise == 0 ? psnr_max : 10.0 * log10 ((gfloat) (sig / noise));
  anpsnr = 10 * log10 (peak * peak * (gint) fex->info.width *
      (gint) fex->info.height / MAX ((gdouble) noise, 1e-10));
  anpsnr = MIN (anpsnr, psnr_max);
  return vh_feature_extractor_append (fex, fc, "float_ansnr", index, ansnr,
      error) && vh_feature_extractor_append (fex, fc, "float_anpsnr", index,
      anpsnr, error);
}

static gboolean
float_ansnr_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  VhAnsnrState *s = fex->priv;

  s->stride = info->width + 2 * ANSNR_PAD;
  s->ref = g_new (gfloat, s->stride * info->height);
  s->dis = g_new (gfloat, s->stride * info->height);
  s->ref_row = g_new (gfloat, info->width);
  s->dis_row = g_new (gfloat, info->width);
  s->inner = g_new (gfloat, info->width);
  s->use_avx2 = vh_simd_use_avx2 (fex->cpu_mask);
  return TRUE;
}

static gboolean
float_ansnr_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  VhAnsnrState *s = fex->priv;
  const guint w = fex->info.width, h = fex->info.height;
  gfloat sig, noise;

  if (!vh_float_check_picture ("float_ansnr", &fex->info, ref, "reference",
          error) || !vh_float_check_picture ("float_ansnr", &fex->info, dist,
          "distorted", error))
    return FALSE;

  ansnr_load (ref, s->ref, s->stride);
  ansnr_load (dist, s->dis, s->stride);
#ifdef VH_ANSNR_HAVE_AVX2
  if (s->use_avx2)
    ansnr_sums_avx2 (s, w, h, &sig, &noise);
  else
#endif
    ansnr_sums_c (s, w, h, &sig, &noise);

  return vh_float_ansnr_append (fex, sig, noise, index, fc, error);
}

static void
float_ansnr_close (VhFeatureExtractor * fex)
{
  VhAnsnrState *s = fex->priv;

  g_free (s->ref);
  g_free (s->dis);
  g_free (s->ref_row);
  g_free (s->dis_row);
  g_free (s->inner);
}

/* The 5x5 kernel's mirrored border needs three rows and columns: libvmaf
 * reads outside the picture below that. */
const VhFeatureExtractorClass vh_fex_float_ansnr = {
  .name = "float_ansnr",
  .provides = vh_float_ansnr_provides,
  .options = NULL,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = 3,
  .min_height = 3,
  .priv_size = sizeof (VhAnsnrState),
  .init = float_ansnr_init,
  .extract = float_ansnr_extract,
  .close = float_ansnr_close,
};
