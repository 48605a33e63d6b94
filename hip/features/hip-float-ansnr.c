/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of "float_ansnr" (src/features/float-ansnr.c): smoothing and
 * the single-precision signal and noise sums on the GPU, in the CPU twin's
 * order (hip/features/kernels/ansnr.hip), the decibels on the host by the
 * CPU twin's own code (float-ansnr.h). Equal to the CPU twin bit for
 * bit. */

#include "hip-fex-common.h"
#include "errors.h"
#include "features/float-ansnr.h"

#include <string.h>

extern const VhHipKernelSource vh_hip_kernel_ansnr;

/* Must match struct vh_ansnr_args in the kernel. */
typedef struct
{
  gconstpointer ref;
  gconstpointer dis;
  guint64 ref_pitch;
  guint64 dis_pitch;
  guint32 ref_step;
  guint32 dis_step;
  guint32 width;
  guint32 height;
  gfloat inv_scale;
  guint32 pad;
  gfloat *sig;
  gfloat *noise;
  gfloat *row_sig;
  gfloat *row_noise;
} AnsnrArgs;

G_STATIC_ASSERT (sizeof (AnsnrArgs) == 88);

#define ANSNR_BLOCK_X 32
#define ANSNR_BLOCK_Y 8
#define ANSNR_ROW_THREADS 64

typedef struct
{
  VhHipFex hip;
  VhHipFunction *filter;
  VhHipFunction *rows;
  VhHipFunction *total;
  gfloat *d_buf;                /* sig, noise (w * h each), row sums (h each) */
} HipFloatAnsnr;

VH_HIP_FEX_FIRST (HipFloatAnsnr, hip);

static gboolean
hip_float_ansnr_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  const gfloat *sums = results;

  return vh_float_ansnr_append (fex, sums[0], sums[1], index, fc, error);
}

static void
hip_float_ansnr_close (VhFeatureExtractor * fex)
{
  HipFloatAnsnr *s = fex->priv;

  if (s->d_buf && s->hip.device) {
    vh_hip_stream_synchronize (s->hip.stream, NULL);
    vh_hip_free (s->hip.device, s->d_buf);
  }
  s->d_buf = NULL;
  vh_hip_fex_close (&s->hip);
}

static gboolean
hip_float_ansnr_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipFloatAnsnr *s = fex->priv;
  const gsize n = (gsize) info->width * info->height;

  if (!vh_hip_fex_init (&s->hip, fex, 2 * sizeof (gfloat),
          hip_float_ansnr_collect, error))
    return FALSE;
  s->filter = vh_hip_fex_function (&s->hip, &vh_hip_kernel_ansnr,
      info->bpc == 8 ? "vh_ansnr_filter_u8" : "vh_ansnr_filter_u16", error);
  s->rows = s->filter ? vh_hip_fex_function (&s->hip, &vh_hip_kernel_ansnr,
      "vh_ansnr_rows", error) : NULL;
  s->total = s->rows ? vh_hip_fex_function (&s->hip, &vh_hip_kernel_ansnr,
      "vh_ansnr_total", error) : NULL;
  if (s->total && vh_hip_malloc (s->hip.device,
          (2 * n + 2 * info->height) * sizeof (gfloat),
          (gpointer *) & s->d_buf, error))
    return TRUE;
  hip_float_ansnr_close (fex);
  return FALSE;
}

static gboolean
hip_float_ansnr_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  HipFloatAnsnr *s = fex->priv;
  const guint w = fex->info.width, h = fex->info.height;
  AnsnrArgs a;
  gpointer out;
  gpointer args[] = { &a, &out };

  if (!vh_hip_fex_check_luma_on_device (fex, ref, dist, index, error))
    return FALSE;
  memset (&a, 0, sizeof (a));
  a.ref = ref->data[0];
  a.dis = dist->data[0];
  a.ref_pitch = ref->stride[0];
  a.dis_pitch = dist->stride[0];
  a.ref_step = MAX (ref->step[0], 1);
  a.dis_step = MAX (dist->step[0], 1);
  a.width = w;
  a.height = h;
  /* A power of two: multiplying by it is libvmaf's exact division. */
  a.inv_scale = 1.0f / (gfloat) (1u << (fex->info.bpc - 8));
  a.sig = s->d_buf;
  a.noise = a.sig + (gsize) w * h;
  a.row_sig = a.noise + (gsize) w * h;
  a.row_noise = a.row_sig + h;

  out = vh_hip_fex_begin (&s->hip, index, ref, dist, error);
  return out &&
      vh_hip_fex_launch (&s->hip, s->filter, vh_hip_div_up (w, ANSNR_BLOCK_X),
      vh_hip_div_up (h, ANSNR_BLOCK_Y), ANSNR_BLOCK_X, ANSNR_BLOCK_Y, 0, args,
      error) &&
      vh_hip_fex_launch (&s->hip, s->rows,
      vh_hip_div_up (h, ANSNR_ROW_THREADS), 1, ANSNR_ROW_THREADS, 1, 0, args,
      error) &&
      vh_hip_fex_launch (&s->hip, s->total, 1, 1, 1, 1, 0, args, error) &&
      vh_hip_fex_end (&s->hip, ref, dist, fc, error);
}

const VhFeatureExtractorClass vh_hip_fex_float_ansnr = {
  .name = "float_ansnr",
  .provides = vh_float_ansnr_provides,
  .options = NULL,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .flags = VH_EXTRACTOR_FLAG_LUMA_ONLY,
  .min_width = 3,
  .min_height = 3,
  .priv_size = sizeof (HipFloatAnsnr),
  .init = hip_float_ansnr_init,
  .extract = hip_float_ansnr_extract,
  .flush = vh_hip_fex_class_flush,
  .close = hip_float_ansnr_close,
};
