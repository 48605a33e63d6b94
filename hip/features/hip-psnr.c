/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of integer PSNR ("psnr", src/features/psnr.c): the exact
 * sums of squared errors on the GPU, one launch for the three planes, the
 * rest on the host with the CPU twin's peak, saturation and operations.
 * The only difference: 8-bit rows are summed in 64 bits here, where the
 * CPU twin (like libvmaf) wraps a row total at 32 bits, which only a row
 * of more than 66052 samples reaches. */

#include "hip-fex-common.h"
#include "hip-psnr-sse.h"
#include "errors.h"

#include <math.h>

typedef struct
{
  VhHipFex hip;
  gboolean enable_mse;
  guint n_planes;
  guint width[3];
  guint height[3];
  guint32 peak;
  gdouble psnr_max[3];
} HipPsnr;

/* The CPU twin's options, same names, defaults and ranges (the tests
 * compare them). */
static const VhOptionSpec hip_psnr_options[] = {
  {"enable_chroma", NULL, "also measure the chroma planes",
      VH_OPTION_BOOL, 1, 0, 1, 0},
  {"enable_mse", NULL, "also output mse_y, mse_cb, mse_cr",
      VH_OPTION_BOOL, 0, 0, 1, 0},
  {"enable_apsnr", NULL, "aggregate PSNR over the stream (not supported)",
      VH_OPTION_BOOL, 0, 0, 1, 0},
  {"reduced_hbd_peak", NULL,
        "use 255 << (bpc - 8) as peak, like scaled 8-bit content",
      VH_OPTION_BOOL, 0, 0, 1, 0},
  {"min_sse", NULL, "smallest SSE assumed; sets the saturation value",
      VH_OPTION_DOUBLE, 0.0, 0.0, G_MAXDOUBLE, 0},
  {NULL}
};

static const gchar *const hip_psnr_provides[] = {
  "psnr_y", "psnr_cb", "psnr_cr", NULL
};

static const gchar *const psnr_names[3] = { "psnr_y", "psnr_cb", "psnr_cr" };
static const gchar *const mse_names[3] = { "mse_y", "mse_cb", "mse_cr" };

static gboolean
hip_psnr_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  HipPsnr *s = fex->priv;
  const guint64 *sse = results;
  /* 8-bit input always uses 255, whatever reduced_hbd_peak says. */
  const gdouble peak2 = fex->info.bpc == 8 ? 255 * 255 :
      (gdouble) (guint32) (s->peak * s->peak);

  for (guint p = 0; p < s->n_planes; p++) {
    const guint w = s->width[p], h = s->height[p];
    gdouble mse, psnr, denom;

    mse = (gdouble) sse[p] / (guint) (w * h);
    denom = mse > 1e-16 ? mse : 1e-16;
    psnr = 10. * log10 (peak2 / denom);
    psnr = psnr < s->psnr_max[p] ? psnr : s->psnr_max[p];
    if (!vh_feature_extractor_append (fex, fc, psnr_names[p], index, psnr,
            error))
      return FALSE;
    if (s->enable_mse && !vh_feature_extractor_append (fex, fc,
            mse_names[p], index, mse, error))
      return FALSE;
  }
  return TRUE;
}

static gboolean
hip_psnr_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipPsnr *s = fex->priv;
  const gdouble min_sse = vh_feature_extractor_get_option (fex, "min_sse");
  const guint bpc = info->bpc;
  guint ssx, ssy;

  if (bpc < 8 || bpc > 16) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "psnr: unsupported bit depth %u", bpc);
    return FALSE;
  }
  if (vh_feature_extractor_get_option (fex, "enable_apsnr")) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "psnr: enable_apsnr is not supported (stream aggregates have no "
        "place in the per-frame output)");
    return FALSE;
  }
  s->enable_mse = vh_feature_extractor_get_option (fex, "enable_mse");
  s->n_planes = vh_feature_extractor_get_option (fex, "enable_chroma") &&
      info->pix_fmt != VH_PIX_FMT_YUV400 ? 3 : 1;
  s->peak = vh_feature_extractor_get_option (fex, "reduced_hbd_peak") ?
      255u << (bpc - 8) : (1u << bpc) - 1;
  /* Chroma as libvmaf measures it: floor (W / 2) x floor (H / 2). */
  vh_pix_fmt_subsampling (info->pix_fmt, &ssx, &ssy);
  for (guint p = 0; p < 3; p++) {
    s->width[p] = p ? info->width >> ssx : info->width;
    s->height[p] = p ? info->height >> ssy : info->height;
    if (min_sse != 0.0) {
      gdouble mse = min_sse / (s->width[p] * s->height[p]);
      s->psnr_max[p] = ceil (10. * log10 ((guint32) (s->peak * s->peak) /
              mse));
    } else {
      s->psnr_max[p] = 6 * bpc + 12;
    }
  }
  return vh_hip_fex_init (&s->hip, fex, 3 * sizeof (guint64),
      hip_psnr_collect, error);
}

static gboolean
hip_psnr_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  HipPsnr *s = fex->priv;
  gpointer sse;

  if (!vh_picture_info_equal (&ref->info, &fex->info) ||
      !vh_picture_info_equal (&dist->info, &fex->info)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "psnr: frame %u does not match the stream's format (%ux%u %s "
        "%u-bit)", index, fex->info.width, fex->info.height,
        vh_pix_fmt_to_string (fex->info.pix_fmt), fex->info.bpc);
    return FALSE;
  }
  sse = vh_hip_fex_begin (&s->hip, index, error);
  return sse && vh_hip_psnr_sse_async (&s->hip, ref, dist, s->n_planes,
      s->width, s->height, FALSE, sse, error) &&
      vh_hip_fex_end (&s->hip, ref, dist, fc, error);
}

static gboolean
hip_psnr_flush (VhFeatureExtractor * fex, VhFeatureCollector * fc,
    GError ** error)
{
  HipPsnr *s = fex->priv;

  return vh_hip_fex_drain (&s->hip, fc, error);
}

static void
hip_psnr_close (VhFeatureExtractor * fex)
{
  HipPsnr *s = fex->priv;

  vh_hip_fex_close (&s->hip);
}

const VhFeatureExtractorClass vh_hip_psnr_class = {
  .name = "psnr",
  .provides = hip_psnr_provides,
  .options = hip_psnr_options,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .flags = 0,
  .min_width = 1,
  .min_height = 1,
  .priv_size = sizeof (HipPsnr),
  .init = hip_psnr_init,
  .extract = hip_psnr_extract,
  .flush = hip_psnr_flush,
  .close = hip_psnr_close,
};
