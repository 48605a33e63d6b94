/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Integer PSNR ("psnr"): psnr_y, psnr_cb, psnr_cr from the exact sum of
 * squared errors, with libvmaf 3.2's peak and saturation rules. */

#include "psnr.h"
#include "errors.h"
#include "simd.h"

#include <math.h>

typedef struct
{
  VhPsnr psnr;
  gboolean use_avx2;
} VhPsnrState;

const VhOptionSpec vh_psnr_options[] = {
  {"enable_chroma", NULL, "also measure the chroma planes",
      VH_OPTION_BOOL, 1, 0, 1, 0},
  {"enable_mse", NULL, "also output mse_y, mse_cb, mse_cr",
      VH_OPTION_BOOL, 0, 0, 1, 0},
  {"enable_apsnr", NULL,
        "also output apsnr_y, apsnr_cb, apsnr_cr: PSNR of the whole stream's "
        "squared errors (aggregate metrics)",
      VH_OPTION_BOOL, 0, 0, 1, 0},
  {"reduced_hbd_peak", NULL,
        "use 255 << (bpc - 8) as peak, like scaled 8-bit content",
      VH_OPTION_BOOL, 0, 0, 1, 0},
  {"min_sse", NULL, "smallest SSE assumed; sets the saturation value",
      VH_OPTION_DOUBLE, 0.0, 0.0, G_MAXDOUBLE, 0},
  {NULL}
};

const gchar *const vh_psnr_provides[] = {
  "psnr_y", "psnr_cb", "psnr_cr", NULL
};

static const gchar *const vh_psnr_names[3] = {
  "psnr_y", "psnr_cb", "psnr_cr"
};

static const gchar *const vh_mse_names[3] = {
  "mse_y", "mse_cb", "mse_cr"
};

/* Sum of squared errors of a w x h region. 8-bit rows are summed in 32 bits
 * before the 64-bit total, as libvmaf does (a row wraps only beyond 66052
 * samples); deeper samples add up exactly in 64 bits. Steps are
 * compile-time 1 in the planar case so the loops vectorise. */
static inline __attribute__ ((always_inline)) guint64
psnr_sse_impl (const guint8 * ref, gsize ref_stride, guint ref_step,
    const guint8 * dis, gsize dis_stride, guint dis_step, guint w, guint h,
    gboolean wide, guint chunk)
{
  guint64 sse = 0;

  for (guint y = 0; y < h; y++) {
    const guint8 *r8 = ref + y * ref_stride;
    const guint8 *d8 = dis + y * dis_stride;

    if (wide) {
      const guint16 *r = (const guint16 *) r8;
      const guint16 *d = (const guint16 *) d8;
      /* Exact 64-bit total. Below 16 bits, 32-bit partial sums over runs
       * that cannot wrap, (2^32 - 1) / (2^bpc - 1)^2 samples, vectorise
       * better. */
      for (guint x0 = 0; x0 < w; x0 += chunk) {
        const guint n = MIN (chunk, w - x0);
        const guint16 *rc = r + (gsize) x0 * ref_step;
        const guint16 *dc = d + (gsize) x0 * dis_step;
        guint32 acc = 0;
        guint64 acc64 = 0;

        if (chunk == G_MAXUINT) {
          for (guint x = 0; x < n; x++) {
            gint32 diff = (gint32) rc[(gsize) x * ref_step] -
                (gint32) dc[(gsize) x * dis_step];
            guint32 e = (guint32) (diff < 0 ? -diff : diff);
            acc64 += e * e;
          }
        } else {
          for (guint x = 0; x < n; x++) {
            gint32 diff = (gint32) rc[(gsize) x * ref_step] -
                (gint32) dc[(gsize) x * dis_step];
            /* Squared unsigned: 65535^2 overflows a signed int. */
            acc += (guint32) diff * (guint32) diff;
          }
        }
        sse += acc + acc64;
      }
    } else {
      guint32 row = 0;
      for (guint x = 0; x < w; x++) {
        gint32 e = (gint32) r8[(gsize) x * ref_step] -
            (gint32) d8[(gsize) x * dis_step];
        row += (guint32) e * (guint32) e;
      }
      sse += row;
    }
  }
  return sse;
}

static inline __attribute__ ((always_inline)) guint64
psnr_sse_dispatch (const VhPicture * ref, const VhPicture * dis, guint p,
    guint w, guint h)
{
  const guint rs = ref->step[p] ? ref->step[p] : 1;
  const guint ds = dis->step[p] ? dis->step[p] : 1;
  const guint bpc = ref->info.bpc;
  /* G_MAXUINT: one 64-bit sum per row. */
  const guint chunk = bpc == 10 ? 4096 : bpc == 12 ? 256 : G_MAXUINT;

  if (rs == 1 && ds == 1) {
    if (bpc == 8)
      return psnr_sse_impl (ref->data[p], ref->stride[p], 1, dis->data[p],
          dis->stride[p], 1, w, h, FALSE, 0);
    if (bpc == 16)
      return psnr_sse_impl (ref->data[p], ref->stride[p], 1, dis->data[p],
          dis->stride[p], 1, w, h, TRUE, G_MAXUINT);
    return psnr_sse_impl (ref->data[p], ref->stride[p], 1, dis->data[p],
        dis->stride[p], 1, w, h, TRUE, chunk);
  }
  return psnr_sse_impl (ref->data[p], ref->stride[p], rs, dis->data[p],
      dis->stride[p], ds, w, h, bpc > 8, chunk);
}

static guint64
psnr_sse_c (const VhPicture * ref, const VhPicture * dis, guint p, guint w,
    guint h)
{
  return psnr_sse_dispatch (ref, dis, p, w, h);
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define VH_PSNR_HAVE_AVX2 1
#define VH_PSNR_AVX2 __attribute__ ((target ("avx2")))
/* The same integer code built for AVX2: identical sums. */
VH_PSNR_AVX2 static guint64
psnr_sse_avx2 (const VhPicture * ref, const VhPicture * dis, guint p, guint w,
    guint h)
{
  return psnr_sse_dispatch (ref, dis, p, w, h);
}
#endif

gboolean
vh_psnr_setup (VhPsnr * s, const VhFeatureExtractor * fex,
    const VhPictureInfo * info, GError ** error)
{
  const gdouble min_sse = vh_feature_extractor_get_option (fex, "min_sse");
  const guint bpc = info->bpc;
  guint ssx, ssy;

  if (bpc < 8 || bpc > 16) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "psnr: unsupported bit depth %u", bpc);
    return FALSE;
  }
  s->enable_apsnr = vh_feature_extractor_get_option (fex, "enable_apsnr");
  for (guint p = 0; p < 3; p++)
    s->apsnr_sse[p] = s->apsnr_n[p] = 0;

  s->enable_mse = vh_feature_extractor_get_option (fex, "enable_mse");
  s->n_planes = vh_feature_extractor_get_option (fex, "enable_chroma") &&
      info->pix_fmt != VH_PIX_FMT_YUV400 ? 3 : 1;
  s->peak = vh_feature_extractor_get_option (fex, "reduced_hbd_peak") ?
      255u << (bpc - 8) : (1u << bpc) - 1;

  /* libvmaf's chroma planes are floor (W / 2) x floor (H / 2): for odd
   * sizes the last column and row are left out, so they are here too. */
  vh_pix_fmt_subsampling (info->pix_fmt, &ssx, &ssy);
  for (guint p = 0; p < 3; p++) {
    s->width[p] = p ? info->width >> ssx : info->width;
    s->height[p] = p ? info->height >> ssy : info->height;
  }

  for (guint p = 0; p < 3; p++) {
    if (min_sse != 0.0) {
      /* Saturate where an SSE of min_sse would put the value, rounded up. */
      const gboolean sub_x = info->pix_fmt != VH_PIX_FMT_YUV444;
      const gboolean sub_y = info->pix_fmt == VH_PIX_FMT_YUV420;
      guint n = ((p && sub_x) ? info->width / 2 : info->width) *
          ((p && sub_y) ? info->height / 2 : info->height);
      gdouble mse = min_sse / n;
      s->psnr_max[p] = ceil (10. * log10 ((guint32) (s->peak * s->peak) /
              mse));
    } else {
      s->psnr_max[p] = 6 * bpc + 12;
    }
  }
  return TRUE;
}

gboolean
vh_psnr_check_frame (const VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, GError ** error)
{
  if (!vh_picture_info_equal (&ref->info, &fex->info) ||
      !vh_picture_info_equal (&dist->info, &fex->info)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "psnr: frame %u does not match the stream's format (%ux%u %s "
        "%u-bit)", index, fex->info.width, fex->info.height,
        vh_pix_fmt_to_string (fex->info.pix_fmt), fex->info.bpc);
    return FALSE;
  }
  return TRUE;
}

gboolean
vh_psnr_append (VhFeatureExtractor * fex, VhPsnr * s,
    const guint64 * sse, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  /* 8-bit input always uses 255, whatever reduced_hbd_peak says. */
  const gdouble peak2 = fex->info.bpc == 8 ? 255 * 255 :
      (gdouble) (guint32) (s->peak * s->peak);

  for (guint p = 0; p < s->n_planes; p++) {
    const guint w = s->width[p], h = s->height[p];
    gdouble mse, psnr, denom;

    if (s->enable_apsnr) {
      s->apsnr_sse[p] += sse[p];
      s->apsnr_n[p] += (guint) (w * h);
    }
    /* Same operations and NaN handling as libvmaf (an empty region gives
     * NaN, which the comparisons turn into the saturation value). */
    mse = (gdouble) sse[p] / (guint) (w * h);
    denom = mse > 1e-16 ? mse : 1e-16;
    psnr = 10. * log10 (peak2 / denom);
    psnr = psnr < s->psnr_max[p] ? psnr : s->psnr_max[p];

    if (!vh_feature_extractor_append (fex, fc, vh_psnr_names[p], index, psnr,
            error))
      return FALSE;
    if (s->enable_mse && !vh_feature_extractor_append (fex, fc,
            vh_mse_names[p], index, mse, error))
      return FALSE;
  }
  return TRUE;
}

gboolean
vh_psnr_is_temporal (const VhFeatureExtractor * fex)
{
  return vh_feature_extractor_get_option (fex, "enable_apsnr") != 0.0;
}

void
vh_psnr_flush_aggregates (const VhPsnr * s, VhFeatureCollector * fc)
{
  static const gchar *const names[3] = { "apsnr_y", "apsnr_cb", "apsnr_cr" };
  const guint32 peak2 = s->peak * s->peak;

  if (!s->enable_apsnr)
    return;
  /* All three planes, as libvmaf: a plane never measured (enable_chroma
   * off) has no samples, and its value comes out as -inf. */
  for (guint p = 0; p < 3; p++) {
    gdouble apsnr = 10 * (log10 (peak2) + log10 (s->apsnr_n[p]) -
        log10 (s->apsnr_sse[p]));
    gdouble max_apsnr = ceil (10 * log10 (peak2 * s->apsnr_n[p] * 2));
    vh_feature_collector_set_aggregate (fc, names[p],
        apsnr < max_apsnr ? apsnr : max_apsnr);
  }
}

static gboolean
psnr_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  VhPsnrState *s = fex->priv;

  if (!vh_psnr_setup (&s->psnr, fex, info, error))
    return FALSE;

  s->use_avx2 = vh_simd_use_avx2 (fex->cpu_mask);
  return TRUE;
}

static gboolean
psnr_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  VhPsnrState *s = fex->priv;
  guint64 sse[3];

  if (!vh_psnr_check_frame (fex, ref, dist, index, error))
    return FALSE;

  for (guint p = 0; p < s->psnr.n_planes; p++) {
    const guint w = s->psnr.width[p], h = s->psnr.height[p];

#ifdef VH_PSNR_HAVE_AVX2
    if (s->use_avx2)
      sse[p] = psnr_sse_avx2 (ref, dist, p, w, h);
    else
#endif
      sse[p] = psnr_sse_c (ref, dist, p, w, h);
  }
  return vh_psnr_append (fex, &s->psnr, sse, index, fc, error);
}

static gboolean
psnr_flush (VhFeatureExtractor * fex, VhFeatureCollector * fc,
    GError ** error)
{
  VhPsnrState *s = fex->priv;

  (void) error;
  vh_psnr_flush_aggregates (&s->psnr, fc);
  return TRUE;
}

const VhFeatureExtractorClass vh_fex_psnr = {
  .name = "psnr",
  .provides = vh_psnr_provides,
  .options = vh_psnr_options,
  .backend = VH_BACKEND_CPU,
  .mem_type = VH_MEMORY_HOST,
  .flags = 0,
  .min_width = 1,
  .min_height = 1,
  .priv_size = sizeof (VhPsnrState),
  .init = psnr_init,
  .extract = psnr_extract,
  .flush = psnr_flush,
  .is_temporal = vh_psnr_is_temporal,
};
