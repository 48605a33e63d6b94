/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* SSIMULACRA 2's per-frame work on the CPU: linear light, the scales,
 * XYB, the recursive blur and the sums of the SSIM and edge maps, in the
 * order ssimulacra2.h describes. The steps with SIMD versions go through
 * a table of kernels: the portable ones here (from the steps of
 * ssimulacra2-maps-body.h), the AVX2 and AVX-512 ones in
 * ssimulacra2-kernels-avx2.c and -avx512.c, chosen by the CPU mask. */

#include "ssimulacra2-maps-body.h"
#include "simd.h"

void
vh_ssimu2_planes_init (VhSsimu2Planes * p, guint width, guint height)
{
  const gsize full = (gsize) width * height;
  const gsize half = (gsize) ((width + 1) / 2) * ((height + 1) / 2);

  p->width = width;
  p->height = height;
  for (guint s = 0; s < 2; s++)
    for (guint c = 0; c < 3; c++) {
      p->lin[s][0][c] = g_new (gfloat, full);
      p->lin[s][1][c] = g_new (gfloat, half);
      p->xyb[s][c] = g_new (gfloat, full);
    }
  for (guint i = 0; i < G_N_ELEMENTS (p->tmp); i++)
    p->tmp[i] = g_new (gfloat, full);
  p->state = g_new (gfloat, (gsize) 6 * width);
  p->tile = g_new (gfloat, (gsize) VH_SSIMU2_SCRATCH_ROWS * width);
  p->row16 = g_new (guint16, (gsize) 3 * width);
  p->rgb_scratch = g_new (gint32, VH_SSIMU2_RGB_SCRATCH (width));
}

void
vh_ssimu2_planes_clear (VhSsimu2Planes * p)
{
  for (guint s = 0; s < 2; s++)
    for (guint c = 0; c < 3; c++) {
      g_clear_pointer (&p->lin[s][0][c], g_free);
      g_clear_pointer (&p->lin[s][1][c], g_free);
      g_clear_pointer (&p->xyb[s][c], g_free);
    }
  for (guint i = 0; i < G_N_ELEMENTS (p->tmp); i++)
    g_clear_pointer (&p->tmp[i], g_free);
  g_clear_pointer (&p->state, g_free);
  g_clear_pointer (&p->tile, g_free);
  g_clear_pointer (&p->row16, g_free);
  g_clear_pointer (&p->rgb_scratch, g_free);
}

static inline VH_SSIMU2_INLINE void
ssimu2_linear (const VhSsimu2 * s, const VhSsimu2Yuv * yuv,
    VhSsimu2Planes * p, const VhPicture * pic, const VhSsimu2Kernels * k,
    gfloat * const out[3])
{
  const guint w = pic->info.width, h = pic->info.height;
  guint16 *r = p->row16, *g = r + w, *b = g + w;

  for (guint y = 0; y < h; y++) {
    gfloat *o0 = out[0] + (gsize) y * w, *o1 = out[1] + (gsize) y * w;
    gfloat *o2 = out[2] + (gsize) y * w;

    vh_ssimu2_rgb16_row (k, yuv, pic, y, p->rgb_scratch, r, g, b);
    for (guint x = 0; x < w; x++) {
      o0[x] = s->to_linear[r[x]];
      o1[x] = s->to_linear[g[x]];
      o2[x] = s->to_linear[b[x]];
    }
  }
}

static void
ssimu2_downsample_c (const gfloat * in, guint w, guint h, gfloat * out)
{
  const guint ow = (w + 1) / 2, oh = (h + 1) / 2;

  for (guint oy = 0; oy < oh; oy++)
    ssimu2_downsample_row (in + (gsize) (2 * oy) * w,
        in + (gsize) MIN (2 * oy + 1, h - 1) * w, w, 0,
        out + (gsize) oy * ow);
}

static void
ssimu2_xyb_c (const VhSsimu2 * s, gfloat * const lin[3],
    gfloat * const xyb[3], gsize n)
{
  ssimu2_xyb_range (s, lin, xyb, 0, n);
}

/* The product first as a plane of its own, then rows, then columns. */
static void
ssimu2_blur_c (const VhSsimu2Gauss * g, VhSsimu2Planes * p,
    const gfloat * a, const gfloat * b, guint w, guint h, gfloat * out)
{
  const gfloat *in = a;

  if (b) {
    for (gsize i = 0; i < (gsize) w * h; i++)
      p->tmp[0][i] = a[i] * b[i];
    in = p->tmp[0];
  }
  for (guint y = 0; y < h; y++)
    ssimu2_blur_row (g, in + (gsize) y * w, (gint) w, p->tmp[1] +
        (gsize) y * w);
  ssimu2_blur_columns (g, p->state, p->tmp[1], w, h, out);
}

/* Each row's sums in VH_SSIMU2_LANES interleaved partial sums in double
 * (column x goes to sum x mod 32, left to right), folded, then the rows'
 * added in order: the GPU's order, a warp per row. */
static void
ssimu2_sums_c (const gfloat * x1, const gfloat * x2, gfloat * const t[7],
    guint w, guint h, gdouble * sums)
{
  for (guint k = 0; k < VH_SSIMU2_SUMS_PER_CHANNEL; k++)
    sums[k] = 0.0;
  for (guint y = 0; y < h; y++) {
    gdouble acc[VH_SSIMU2_LANES][VH_SSIMU2_SUMS_PER_CHANNEL] = { {0} };

    for (guint x = 0; x < w; x++)
      ssimu2_sums_pixel (x1, x2, t, (gsize) y * w + x,
          acc[x % VH_SSIMU2_LANES]);
    ssimu2_sums_fold (acc, sums);
  }
}

static void
ssimu2_channel_c (const VhSsimu2Gauss * g, VhSsimu2Planes * p,
    const gfloat * x1, const gfloat * x2, guint w, guint h, gdouble * sums)
{
  ssimu2_blur_c (g, p, x1, x1, w, h, p->tmp[2]);
  ssimu2_blur_c (g, p, x2, x2, w, h, p->tmp[3]);
  ssimu2_blur_c (g, p, x1, x2, w, h, p->tmp[4]);
  ssimu2_blur_c (g, p, x1, NULL, w, h, p->tmp[5]);
  ssimu2_blur_c (g, p, x2, NULL, w, h, p->tmp[6]);
  ssimu2_sums_c (x1, x2, p->tmp, w, h, sums);
}

const VhSsimu2Kernels vh_ssimu2_kernels_c = {
  .downsample = ssimu2_downsample_c,
  .xyb = ssimu2_xyb_c,
  .blur = ssimu2_blur_c,
  .sums = ssimu2_sums_c,
  .channel = ssimu2_channel_c,
  .rgb16_row = vh_ssimu2_rgb16_row_c,
};

guint
vh_ssimu2_compute (const VhSsimu2 * s, VhSsimu2Planes * p,
    const VhPicture * ref, const VhPicture * dist, const VhSsimu2Kernels * k,
    gdouble * sums)
{
  const guint n_scales = vh_ssimu2_n_scales (p->width, p->height);
  guint w = p->width, h = p->height, cur = 0;

  ssimu2_linear (s, &s->yuv[0], p, ref, k, p->lin[0][0]);
  ssimu2_linear (s, &s->yuv[1], p, dist, k, p->lin[1][0]);
  for (guint scale = 0; scale < n_scales; scale++) {
    if (scale > 0) {
      for (guint side = 0; side < 2; side++)
        for (guint c = 0; c < 3; c++)
          k->downsample (p->lin[side][cur][c], w, h,
              p->lin[side][cur ^ 1][c]);
      cur ^= 1;
      w = (w + 1) / 2;
      h = (h + 1) / 2;
    }
    k->xyb (s, p->lin[0][cur], p->xyb[0], (gsize) w * h);
    k->xyb (s, p->lin[1][cur], p->xyb[1], (gsize) w * h);
    for (guint c = 0; c < 3; c++)
      k->channel (&s->gauss, p, p->xyb[0][c], p->xyb[1][c], w, h,
          sums + scale * VH_SSIMU2_SUMS_PER_SCALE +
          c * VH_SSIMU2_SUMS_PER_CHANNEL);
  }
  return n_scales;
}

const VhSsimu2Kernels *
vh_ssimu2_kernels (guint cpu_mask)
{
  if (vh_simd_use_avx512 (cpu_mask) && vh_ssimu2_kernels_avx512 ())
    return vh_ssimu2_kernels_avx512 ();
  if (vh_simd_use_avx2 (cpu_mask) && vh_ssimu2_kernels_avx2 ())
    return vh_ssimu2_kernels_avx2 ();
  return &vh_ssimu2_kernels_c;
}
