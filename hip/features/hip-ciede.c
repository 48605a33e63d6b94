/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of "ciede" (src/features/ciede.c): the per-pixel CIEDE2000
 * differences and their sum on the GPU (hip/features/kernels/ciede.hip),
 * chroma fetched through the CPU twin's own upsampling map, the score from
 * the sum by the CPU twin's code. The sum keeps the CPU twin's order; the
 * GPU's pow, atan2, sin, cos and exp may differ from glibc's in the last
 * place, which bounds the score within 1e-6 of the CPU twin's (see the
 * kernel). */

#include "hip-fex-common.h"
#include "errors.h"
#include "features/ciede-private.h"

#include <string.h>

extern const VhHipKernelSource vh_hip_kernel_ciede;

/* Must match struct vh_ciede_pic and vh_ciede_args in the kernel. */
typedef struct
{
  gconstpointer data[3];
  guint64 pitch[3];
  guint32 step[3];
  guint32 pad;
} CiedePic;

typedef struct
{
  CiedePic pic[2];
  const guint32 *row_carry;
  const guint32 *col;
  const guint32 *col_pad;
  guint32 width;
  guint32 height;
  guint32 chroma_h;
  guint32 full;
  guint32 bpc;
  guint32 pad;
  gfloat *diff;
  gdouble *row_sum;
} CiedeArgs;

G_STATIC_ASSERT (sizeof (CiedePic) == 64);
G_STATIC_ASSERT (sizeof (CiedeArgs) == 2 * 64 + 3 * 8 + 6 * 4 + 2 * 8);
/* The CPU map's per-column arrays go to the device as they are. */
G_STATIC_ASSERT (sizeof (guint) == 4 && sizeof (gboolean) == 4);

#define CIEDE_BLOCK_X 32
#define CIEDE_BLOCK_Y 8
#define CIEDE_ROW_THREADS 64

typedef struct
{
  VhHipFex hip;
  VhHipFunction *diff;
  VhHipFunction *rows;
  VhHipFunction *total;
  guint chroma_h;
  gboolean full;
  guint32 *d_map;               /* row_carry, col, pad: width each */
  guint8 *d_buf;                /* diff (w * h floats), row sums (h doubles) */
} HipCiede;

VH_HIP_FEX_FIRST (HipCiede, hip);

static gboolean
hip_ciede_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  return vh_feature_extractor_append (fex, fc, "ciede2000", index,
      vh_ciede_score (*(const gdouble *) results, fex->info.width,
          fex->info.height), error);
}

static void
hip_ciede_close (VhFeatureExtractor * fex)
{
  HipCiede *s = fex->priv;

  if (s->hip.device) {
    vh_hip_stream_synchronize (s->hip.stream, NULL);
    if (s->d_map)
      vh_hip_free (s->hip.device, s->d_map);
    if (s->d_buf)
      vh_hip_free (s->hip.device, s->d_buf);
  }
  s->d_map = NULL;
  s->d_buf = NULL;
  vh_hip_fex_close (&s->hip);
}

/* Uploads the CPU twin's chroma map. */
static gboolean
hip_ciede_upload_map (HipCiede * s, const VhPictureInfo * info,
    GError ** error)
{
  VhCiedeChromaMap map;
  const gsize row = info->width * sizeof (guint32);
  gboolean ok;

  vh_ciede_chroma_map_init (&map, info);
  s->chroma_h = map.chroma_h;
  s->full = map.full;
  ok = vh_hip_malloc (s->hip.device, 3 * row, (gpointer *) & s->d_map, error)
      && vh_hip_memcpy_2d (s->hip.device, VH_HIP_COPY_HOST_TO_DEVICE,
      s->d_map, row, map.row_carry, row, row, 1, error)
      && vh_hip_memcpy_2d (s->hip.device, VH_HIP_COPY_HOST_TO_DEVICE,
      s->d_map + info->width, row, map.col, row, row, 1, error)
      && vh_hip_memcpy_2d (s->hip.device, VH_HIP_COPY_HOST_TO_DEVICE,
      s->d_map + 2 * info->width, row, map.pad, row, row, 1, error);
  vh_ciede_chroma_map_clear (&map);
  return ok;
}

static gboolean
hip_ciede_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipCiede *s = fex->priv;
  const gsize n = (gsize) info->width * info->height;

  if (!vh_ciede_check_info (info, error) ||
      !vh_hip_fex_init (&s->hip, fex, sizeof (gdouble), hip_ciede_collect,
          error))
    return FALSE;
  s->diff = vh_hip_fex_function (&s->hip, &vh_hip_kernel_ciede,
      "vh_ciede_diff", error);
  s->rows = s->diff ? vh_hip_fex_function (&s->hip, &vh_hip_kernel_ciede,
      "vh_ciede_rows", error) : NULL;
  s->total = s->rows ? vh_hip_fex_function (&s->hip, &vh_hip_kernel_ciede,
      "vh_ciede_total", error) : NULL;
  /* Row sums after the differences, 8-byte aligned. */
  if (s->total && hip_ciede_upload_map (s, info, error) &&
      vh_hip_malloc (s->hip.device, ((n * sizeof (gfloat) + 7) & ~(gsize) 7)
          + info->height * sizeof (gdouble), (gpointer *) & s->d_buf, error))
    return TRUE;
  hip_ciede_close (fex);
  return FALSE;
}

static gboolean
hip_ciede_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  HipCiede *s = fex->priv;
  const guint w = fex->info.width, h = fex->info.height;
  const VhPicture *pics[2] = { ref, dist };
  const guint n_planes = vh_pix_fmt_n_planes (fex->info.pix_fmt);
  CiedeArgs a;
  gpointer out;
  gpointer args[] = { &a, &out };

  if (ref->mem_type != VH_MEMORY_HIP_DEVICE ||
      dist->mem_type != VH_MEMORY_HIP_DEVICE ||
      !vh_picture_info_equal (&ref->info, &fex->info) ||
      !vh_picture_info_equal (&dist->info, &fex->info)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "ciede: frame %u does not match the stream's %ux%u %u-bit "
        "pictures in HIP device memory", index, w, h, fex->info.bpc);
    return FALSE;
  }
  memset (&a, 0, sizeof (a));
  for (guint i = 0; i < 2; i++) {
    for (guint p = 0; p < MIN (n_planes, 3); p++) {
      a.pic[i].data[p] = pics[i]->data[p];
      a.pic[i].pitch[p] = pics[i]->stride[p];
      a.pic[i].step[p] = MAX (pics[i]->step[p], 1);
    }
  }
  a.row_carry = s->d_map;
  a.col = s->d_map + w;
  a.col_pad = s->d_map + 2 * w;
  a.width = w;
  a.height = h;
  a.chroma_h = s->chroma_h;
  a.full = s->full;
  a.bpc = fex->info.bpc;
  a.diff = (gfloat *) s->d_buf;
  a.row_sum = (gdouble *) (s->d_buf +
      (((gsize) w * h * sizeof (gfloat) + 7) & ~(gsize) 7));

  out = vh_hip_fex_begin (&s->hip, index, ref, dist, error);
  return out &&
      vh_hip_fex_launch (&s->hip, s->diff, vh_hip_div_up (w, CIEDE_BLOCK_X),
      vh_hip_div_up (h, CIEDE_BLOCK_Y), CIEDE_BLOCK_X, CIEDE_BLOCK_Y, 0, args,
      error) &&
      vh_hip_fex_launch (&s->hip, s->rows,
      vh_hip_div_up (h, CIEDE_ROW_THREADS), 1, CIEDE_ROW_THREADS, 1, 0, args,
      error) &&
      vh_hip_fex_launch (&s->hip, s->total, 1, 1, 1, 1, 0, args, error) &&
      vh_hip_fex_end (&s->hip, ref, dist, fc, error);
}

const VhFeatureExtractorClass vh_hip_fex_ciede = {
  .name = "ciede",
  .provides = vh_ciede_provides,
  .options = NULL,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .flags = 0,
  .min_width = 1,
  .min_height = 1,
  .priv_size = sizeof (HipCiede),
  .init = hip_ciede_init,
  .extract = hip_ciede_extract,
  .flush = vh_hip_fex_class_flush,
  .close = hip_ciede_close,
};
