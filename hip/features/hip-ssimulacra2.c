/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of "ssimulacra2" (src/features/ssimulacra2.c): the whole
 * frame's work on the GPU (hip/features/kernels/ssimulacra2.hip), from the
 * Y'CbCr pictures in device memory to each scale's sums, with the CPU
 * twin's set-up (its tables and coefficients, ssimulacra2.h) and its final
 * arithmetic on those sums. Every float operation is the CPU twin's in its
 * order, the double sums too (row by row, then the rows in order), so the
 * two give the same bits. dump_rgb is written by the CPU twin. */

#include "hip-fex-common.h"
#include "errors.h"
#include "features/ssimulacra2.h"

#include <string.h>

extern const VhHipKernelSource vh_hip_kernel_ssimulacra2;

#define SSIMU2_N_SLOTS 36
/* vh_ssimu2_pyramid: a block per VH_SSIMU2_TILE x VH_SSIMU2_TILE tile of
 * the frame, VH_SSIMU2_TILE x VH_SSIMU2_TILE_ROWS threads (kernel's
 * values). */
#define SSIMU2_TILE 32
#define SSIMU2_TILE_ROWS 8
/* vh_ssimu2_rows: rows of VH_SSIMU2_LANES threads (kernel's value). */
#define SSIMU2_ROWS_PER_BLOCK 8
/* vh_ssimu2_blur_rows: VH_SSIMU2_BLUR_ROWS rows a block, a thread each;
 * the blurs are built for VH_SSIMU2_RADIUS (kernel's values). */
#define SSIMU2_BLUR_ROWS 64
#define SSIMU2_BLUR_RADIUS 5
/* vh_ssimu2_blur_cols: VH_SSIMU2_BLUR_COLS columns a block, a thread each. */
#define SSIMU2_BLUR_COLS 64
/* vh_ssimu2_total: VH_SSIMU2_TOTAL_THREADS (kernel's value). */
#define SSIMU2_TOTAL_THREADS 256

/* Must match struct vh_ssimu2_pic and vh_ssimu2_args in the kernel. */
typedef struct
{
  gconstpointer data[3];
  guint64 pitch[3];
  guint32 step[3];
  guint32 width[3];
  guint32 height[3];
  guint32 pad;
} Ssimu2Pic;

typedef struct
{
  gfloat y_offset, y_scale, c_offset, c_scale;
  gfloat cr_r, cb_g, cr_g, cb_b;
} Ssimu2Yuv;

typedef struct
{
  Ssimu2Pic pic[2];
  gfloat *planes;
  const gfloat *to_linear;
  gdouble *row_sums;
  guint64 slot;
  guint64 offset[VH_SSIMU2_N_SCALES];
  Ssimu2Yuv yuv[2];             /* reference, distorted: each its own */
  gfloat mix[9];
  gfloat bias, neg_bias_cbrt;
  gfloat n2[3], d1[3];
  gfloat mul_in[12], mul_prev[12], mul_prev2[12];
  guint32 ssx, ssy, grey, hbd;
  guint32 n_scales;
  guint32 width[VH_SSIMU2_N_SCALES], height[VH_SSIMU2_N_SCALES];
  guint32 row_base[VH_SSIMU2_N_SCALES];
  guint32 blur_rows_start[VH_SSIMU2_N_SCALES + 1];
  guint32 blur_cols_start[VH_SSIMU2_N_SCALES + 1];
  guint32 rows_start[VH_SSIMU2_N_SCALES + 1];
  guint32 pad;
} Ssimu2Args;

G_STATIC_ASSERT (sizeof (Ssimu2Pic) == 88);
G_STATIC_ASSERT (G_STRUCT_OFFSET (Ssimu2Args, slot) == 2 * 88 + 3 * 8);
G_STATIC_ASSERT (G_STRUCT_OFFSET (Ssimu2Args, mix) == 2 * 88 + 4 * 8 +
    VH_SSIMU2_N_SCALES * 8 + 2 * 8 * 4);
G_STATIC_ASSERT (sizeof (Ssimu2Args) == 712);

enum
{
  K_PYRAMID, K_BLUR_ROWS, K_BLUR_COLS, K_ROWS, K_TOTAL, N_KERNELS
};

static const gchar *const ssimu2_kernel_names[N_KERNELS] = {
  "vh_ssimu2_pyramid", "vh_ssimu2_blur_rows", "vh_ssimu2_blur_cols",
  "vh_ssimu2_rows", "vh_ssimu2_total",
};

typedef struct
{
  VhHipFex hip;
  VhSsimu2 s;
  VhHipFunction *k[N_KERNELS];
  Ssimu2Args layout;            /* the scales' sizes, offsets, grids */
  gfloat *d_planes;
  gfloat *d_to_linear;
  gdouble *d_row_sums;
} HipSsimu2;

VH_HIP_FEX_FIRST (HipSsimu2, hip);

static gboolean
hip_ssimu2_collect (VhFeatureExtractor * fex, gconstpointer results,
    guint index, VhFeatureCollector * fc, GError ** error)
{
  const guint w = fex->info.width, h = fex->info.height;

  return vh_feature_extractor_append (fex, fc, "ssimulacra2", index,
      vh_ssimu2_score (results, vh_ssimu2_n_scales (w, h), w, h), error);
}

static const gchar *
hip_ssimu2_unsupported (const VhFeatureExtractor * fex)
{
  if (vh_feature_extractor_get_string_option (fex, "dump_rgb"))
    return "dump_rgb is written on the CPU";
  return NULL;
}

static void
hip_ssimu2_close (VhFeatureExtractor * fex)
{
  HipSsimu2 *s = fex->priv;

  if (s->hip.device) {
    vh_hip_stream_synchronize (s->hip.stream, NULL);
    if (s->d_planes)
      vh_hip_free (s->hip.device, s->d_planes);
    if (s->d_to_linear)
      vh_hip_free (s->hip.device, s->d_to_linear);
    if (s->d_row_sums)
      vh_hip_free (s->hip.device, s->d_row_sums);
  }
  s->d_planes = NULL;
  s->d_to_linear = NULL;
  s->d_row_sums = NULL;
  vh_ssimu2_clear (&s->s);
  vh_hip_fex_close (&s->hip);
}

/* Each scale's size, its place in a slot and in the row sums, and the
 * first block of each scale in the launches over every scale (largest
 * scale first, so that its long serial chains start first). */
static void
hip_ssimu2_layout (const VhPictureInfo * info, Ssimu2Args * l)
{
  guint64 floats = 0;
  guint rows = 0;

  memset (l, 0, sizeof (*l));
  l->n_scales = vh_ssimu2_n_scales (info->width, info->height);
  for (guint i = 0; i < l->n_scales; i++) {
    guint w, h;

    vh_ssimu2_scale_size (info->width, info->height, i, &w, &h);
    l->width[i] = w;
    l->height[i] = h;
    l->offset[i] = floats;
    l->row_base[i] = rows;
    floats += (guint64) w * h;
    rows += h;
    l->blur_rows_start[i + 1] = l->blur_rows_start[i] +
        15 * vh_hip_div_up (h, SSIMU2_BLUR_ROWS);
    l->blur_cols_start[i + 1] = l->blur_cols_start[i] +
        15 * vh_hip_div_up (w, SSIMU2_BLUR_COLS);
    l->rows_start[i + 1] = l->rows_start[i] +
        3 * vh_hip_div_up (h, SSIMU2_ROWS_PER_BLOCK);
  }
  /* Past the last scale, where the launches' grids end. */
  for (guint i = l->n_scales + 1; i <= VH_SSIMU2_N_SCALES; i++) {
    l->blur_rows_start[i] = l->blur_rows_start[l->n_scales];
    l->blur_cols_start[i] = l->blur_cols_start[l->n_scales];
    l->rows_start[i] = l->rows_start[l->n_scales];
  }
  l->slot = floats;
}

static gboolean
hip_ssimu2_init (VhFeatureExtractor * fex, const VhPictureInfo * info,
    GError ** error)
{
  HipSsimu2 *s = fex->priv;
  const gsize table = 65536 * sizeof (gfloat);
  guint rows = 0;

  if (!vh_ssimu2_setup (&s->s, fex, info, error) ||
      !vh_hip_fex_init (&s->hip, fex, VH_SSIMU2_N_SCALES *
          VH_SSIMU2_SUMS_PER_SCALE * sizeof (gdouble), hip_ssimu2_collect,
          error)) {
    vh_ssimu2_clear (&s->s);
    return FALSE;
  }
  if (s->s.gauss.radius != SSIMU2_BLUR_RADIUS) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "ssimulacra2: the blur's radius is %d, but the GPU's blur is built "
        "for libjxl's %d", s->s.gauss.radius, SSIMU2_BLUR_RADIUS);
    goto fail;
  }
  for (guint i = 0; i < N_KERNELS; i++) {
    s->k[i] = vh_hip_fex_function (&s->hip, &vh_hip_kernel_ssimulacra2,
        ssimu2_kernel_names[i], error);
    if (!s->k[i])
      goto fail;
  }
  hip_ssimu2_layout (info, &s->layout);
  for (guint i = 0; i < s->layout.n_scales; i++)
    rows += s->layout.height[i];
  if (vh_hip_malloc (s->hip.device, SSIMU2_N_SLOTS * s->layout.slot *
          sizeof (gfloat), (gpointer *) & s->d_planes, error) &&
      vh_hip_malloc (s->hip.device, table, (gpointer *) & s->d_to_linear,
          error) &&
      vh_hip_malloc (s->hip.device, (gsize) 3 * rows *
          VH_SSIMU2_SUMS_PER_CHANNEL * sizeof (gdouble),
          (gpointer *) & s->d_row_sums, error) &&
      vh_hip_memcpy_2d (s->hip.device, VH_HIP_COPY_HOST_TO_DEVICE,
          s->d_to_linear, table, s->s.to_linear, table, table, 1, error))
    return TRUE;
fail:
  hip_ssimu2_close (fex);
  return FALSE;
}

static void
hip_ssimu2_args (HipSsimu2 * s, const VhPictureInfo * info,
    const VhPicture * ref, const VhPicture * dist, Ssimu2Args * a)
{
  const VhPicture *pics[2] = { ref, dist };
  /* Chroma layout and grey are the stream's, alike for both inputs. */
  const VhSsimu2Yuv *yuv = &s->s.yuv[0];
  const VhSsimu2Gauss *g = &s->s.gauss;

  *a = s->layout;
  for (guint i = 0; i < 2; i++)
    for (guint p = 0; p < pics[i]->n_planes && p < 3; p++) {
      a->pic[i].data[p] = pics[i]->data[p];
      a->pic[i].pitch[p] = pics[i]->stride[p];
      a->pic[i].step[p] = MAX (pics[i]->step[p], 1);
      a->pic[i].width[p] = pics[i]->width[p];
      a->pic[i].height[p] = pics[i]->height[p];
    }
  a->planes = s->d_planes;
  a->to_linear = s->d_to_linear;
  a->row_sums = s->d_row_sums;
  for (guint i = 0; i < 2; i++) {
    const VhSsimu2Yuv *in = &s->s.yuv[i];

    a->yuv[i].y_offset = in->y_offset;
    a->yuv[i].y_scale = in->y_scale;
    a->yuv[i].c_offset = in->c_offset;
    a->yuv[i].c_scale = in->c_scale;
    a->yuv[i].cr_r = in->cr_r;
    a->yuv[i].cb_g = in->cb_g;
    a->yuv[i].cr_g = in->cr_g;
    a->yuv[i].cb_b = in->cb_b;
  }
  memcpy (a->mix, s->s.mix, sizeof (a->mix));
  a->bias = s->s.bias;
  a->neg_bias_cbrt = s->s.neg_bias_cbrt;
  for (guint k = 0; k < 3; k++) {
    a->n2[k] = g->n2[k];
    a->d1[k] = g->d1[k];
    for (guint j = 0; j < 4; j++) {
      a->mul_in[4 * k + j] = g->mul_in[k][j];
      a->mul_prev[4 * k + j] = g->mul_prev[k][j];
      a->mul_prev2[4 * k + j] = g->mul_prev2[k][j];
    }
  }
  a->ssx = yuv->ssx;
  a->ssy = yuv->ssy;
  a->grey = yuv->grey;
  a->hbd = info->bpc > 8;
}

static gboolean
hip_ssimu2_extract (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, guint index, VhFeatureCollector * fc,
    GError ** error)
{
  HipSsimu2 *s = fex->priv;
  Ssimu2Args a;
  gpointer out;
  gpointer args[] = { &a, &out };

  if (ref->mem_type != VH_MEMORY_HIP_DEVICE ||
      dist->mem_type != VH_MEMORY_HIP_DEVICE ||
      !vh_picture_info_equal (&ref->info, &fex->info) ||
      !vh_picture_info_equal (&dist->info, &fex->info) ||
      vh_picture_is_luma_only (ref) || vh_picture_is_luma_only (dist)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "ssimulacra2: frame %u does not match the stream's %ux%u %u-bit "
        "pictures with chroma in HIP device memory", index, fex->info.width,
        fex->info.height, fex->info.bpc);
    return FALSE;
  }
  hip_ssimu2_args (s, &fex->info, ref, dist, &a);
  out = vh_hip_fex_begin (&s->hip, index, ref, dist, error);
  if (!out)
    return FALSE;
  /* Every scale's XYB and products first (one launch, a tile of the
   * frame and all that it averages into a block), then each pass over
   * every scale at once, so that the small scales' serial chains run
   * beside the first scale's. */
  if (!vh_hip_fex_launch (&s->hip, s->k[K_PYRAMID],
          vh_hip_div_up (a.width[0], SSIMU2_TILE),
          vh_hip_div_up (a.height[0], SSIMU2_TILE), SSIMU2_TILE,
          SSIMU2_TILE_ROWS, 0, args, error) ||
      !vh_hip_fex_launch (&s->hip, s->k[K_BLUR_ROWS],
          a.blur_rows_start[a.n_scales], 1, SSIMU2_BLUR_ROWS, 1, 0, args,
          error) ||
      !vh_hip_fex_launch (&s->hip, s->k[K_BLUR_COLS],
          a.blur_cols_start[a.n_scales], 1, SSIMU2_BLUR_COLS, 1, 0, args,
          error) ||
      !vh_hip_fex_launch (&s->hip, s->k[K_ROWS], a.rows_start[a.n_scales],
          1, VH_SSIMU2_LANES, SSIMU2_ROWS_PER_BLOCK, 0, args, error) ||
      !vh_hip_fex_launch (&s->hip, s->k[K_TOTAL], a.n_scales, 1,
          SSIMU2_TOTAL_THREADS, 1, 0, args, error))
    return FALSE;
  return vh_hip_fex_end (&s->hip, ref, dist, fc, error);
}

const VhFeatureExtractorClass vh_hip_fex_ssimulacra2 = {
  .name = "ssimulacra2",
  .provides = vh_ssimu2_provides,
  .options = vh_ssimu2_options,
  .backend = VH_BACKEND_HIP,
  .mem_type = VH_MEMORY_HIP_DEVICE,
  .flags = 0,
  .min_width = VH_SSIMU2_MIN_SIZE,
  .min_height = VH_SSIMU2_MIN_SIZE,
  .priv_size = sizeof (HipSsimu2),
  .init = hip_ssimu2_init,
  .extract = hip_ssimu2_extract,
  .flush = vh_hip_fex_class_flush,
  .close = hip_ssimu2_close,
  .unsupported = hip_ssimu2_unsupported,
};
