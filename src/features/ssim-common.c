/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Gaussian-window SSIM shared by float_ssim and float_ms_ssim.
 *
 * To give libvmaf's numbers bit for bit, the arithmetic follows its
 * precision exactly: each filter tap is a single-precision product added to
 * a double sum, the separable window runs horizontally first and rounds to
 * float after each pass, and the frame sums are taken in raster order.
 * Rows stream through a ring of horizontally filtered lines so that the
 * working set stays small. */

#include "ssim-common.h"
#include "errors.h"

#include <math.h>
#ifdef __SSE__
#include <immintrin.h>
#endif

/* Fusing a multiply and an add into one rounding would change results. */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#define WIN VH_SSIM_WINDOW
#define N_PLANES 5              /* ref, dist, ref^2, dist^2, ref*dist */

/* Normalised Gaussian, sigma 1.5, at libvmaf's 6-decimal precision. */
static const gfloat gauss[WIN] = {
  0.001028f, 0.007599f, 0.036001f, 0.109361f, 0.213006f, 0.266012f,
  0.213006f, 0.109361f, 0.036001f, 0.007599f, 0.001028f,
};

VhSsimWorkspace *
vh_ssim_workspace_new (guint max_width)
{
  VhSsimWorkspace *ws = g_new0 (VhSsimWorkspace, 1);
  gsize n = max_width;

  ws->max_width = max_width;
  ws->ring = g_new (gfloat, N_PLANES * WIN * n);
  ws->prod = g_new (gfloat, 3 * n);
  ws->local = g_new (gfloat, N_PLANES * n);
  ws->lcs = g_new (gdouble, 3 * n);
  ws->sd = g_new (gfloat, n);
  /* Nine split rows of ceil (n / 2) + 4 columns for the wavelet filter. */
  ws->split_stride = n / 2 + 8;
  ws->even = g_new (gfloat, 9 * ws->split_stride);
  ws->odd = g_new (gfloat, 9 * ws->split_stride);
  ws->acc = g_new (gdouble, n / 2 + 1);
  return ws;
}

void
vh_ssim_workspace_free (VhSsimWorkspace * ws)
{
  if (!ws)
    return;
  g_free (ws->ring);
  g_free (ws->prod);
  g_free (ws->local);
  g_free (ws->lcs);
  g_free (ws->sd);
  g_free (ws->even);
  g_free (ws->odd);
  g_free (ws->acc);
  g_free (ws);
}

gboolean
vh_ssim_check_pictures (const VhFeatureExtractor * fex,
    const VhPicture * ref, const VhPicture * dist, GError ** error)
{
  const VhPicture *pics[2] = { ref, dist };
  const VhPictureInfo *info = &fex->info;
  const VhMemoryType mem_type = fex->klass->mem_type;

  for (guint i = 0; i < 2; i++) {
    const VhPicture *p = pics[i];

    if (p->mem_type != mem_type || p->width[0] != info->width
        || p->height[0] != info->height || p->info.bpc != info->bpc) {
      g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
          "feature '%s': %s picture is %ux%u %u-bit, expected %ux%u %u-bit "
          "in %s", fex->klass->name, i ? "distorted" : "reference",
          p->width[0], p->height[0], p->info.bpc, info->width, info->height,
          info->bpc, mem_type == VH_MEMORY_HOST ? "host memory" :
          "HIP device memory");
      return FALSE;
    }
  }
  return TRUE;
}

void
vh_ssim_load_luma (const VhPicture * pic, gfloat * dst)
{
  guint w = pic->width[0], h = pic->height[0], step = pic->step[0];

  if (pic->info.bpc == 8) {
    for (guint y = 0; y < h; y++) {
      const guint8 *src = vh_picture_row (pic, 0, y);
      gfloat *out = dst + (gsize) y * w;

      for (guint x = 0; x < w; x++)
        out[x] = (gfloat) src[(gsize) x * step];
    }
    return;
  }

  /* Deeper samples are brought to the 8-bit range by a power of two, so
   * the division is exact. */
  const gfloat div = (gfloat) (1u << (pic->info.bpc - 8));

  for (guint y = 0; y < h; y++) {
    const guint16 *src = vh_picture_row (pic, 0, y);
    gfloat *out = dst + (gsize) y * w;

    for (guint x = 0; x < w; x++)
      out[x] = (gfloat) src[(gsize) x * step] / div;
  }
}

/* One row of the horizontal pass: the window fully inside the row. */
static inline void
filter_h (const gfloat * restrict in, gfloat * restrict out, guint n)
{
  for (gsize x = 0; x < n; x++) {
    const gfloat *p = in + x;
    gdouble acc = 0.0;

    for (guint u = 0; u < WIN; u++)
      acc += (gdouble) (p[u] * gauss[u]);
    out[x] = (gfloat) acc;
  }
}

/* One row of the vertical pass over WIN horizontally filtered rows. */
static inline void
filter_v (const gfloat * const rows_in[WIN], gfloat * restrict out, guint n)
{
  const gfloat *restrict r0 = rows_in[0], *restrict r1 = rows_in[1];
  const gfloat *restrict r2 = rows_in[2], *restrict r3 = rows_in[3];
  const gfloat *restrict r4 = rows_in[4], *restrict r5 = rows_in[5];
  const gfloat *restrict r6 = rows_in[6], *restrict r7 = rows_in[7];
  const gfloat *restrict r8 = rows_in[8], *restrict r9 = rows_in[9];
  const gfloat *restrict r10 = rows_in[10];

  for (gsize x = 0; x < n; x++) {
    gdouble acc = 0.0;

    acc += (gdouble) (r0[x] * gauss[0]);
    acc += (gdouble) (r1[x] * gauss[1]);
    acc += (gdouble) (r2[x] * gauss[2]);
    acc += (gdouble) (r3[x] * gauss[3]);
    acc += (gdouble) (r4[x] * gauss[4]);
    acc += (gdouble) (r5[x] * gauss[5]);
    acc += (gdouble) (r6[x] * gauss[6]);
    acc += (gdouble) (r7[x] * gauss[7]);
    acc += (gdouble) (r8[x] * gauss[8]);
    acc += (gdouble) (r9[x] * gauss[9]);
    acc += (gdouble) (r10[x] * gauss[10]);
    out[x] = (gfloat) acc;
  }
}

/* Square roots of a row in place. The compiler does not vectorise sqrtf
 * (it may set errno), so the vector instruction is asked for directly: it
 * rounds the same way. */
static inline void
sqrt_row (gfloat * restrict v, guint n)
{
  gsize x = 0;

#ifdef __SSE__
  for (; x + 4 <= n; x += 4)
    _mm_storeu_ps (v + x, _mm_sqrt_ps (_mm_loadu_ps (v + x)));
#endif
  for (; x < n; x++)
    v[x] = sqrtf (v[x]);
}

/* Local luminance, contrast and structure terms of one output row from
 * the windowed means (mu1, mu2) and second moments (s11, s22, s12), which
 * become variances and covariance; @sd is scratch. Constants: K1 = 0.01,
 * K2 = 0.03, L = 255. */
static inline void
local_terms (const gfloat * restrict mu1, const gfloat * restrict mu2,
    gfloat * restrict s11, gfloat * restrict s22, gfloat * restrict s12,
    gfloat * restrict sd, gdouble * restrict l, gdouble * restrict c,
    gdouble * restrict s, guint n)
{
  const gfloat k1l = 0.01f * 255.0f, k2l = 0.03f * 255.0f;
  const gfloat c1 = k1l * k1l, c2 = k2l * k2l, c3 = c2 / 2.0f;

  for (gsize x = 0; x < n; x++) {
    gfloat m1 = mu1[x], m2 = mu2[x];
    gfloat var1 = s11[x] - m1 * m1;
    gfloat var2 = s22[x] - m2 * m2;

    var1 = var1 < 0.0f ? 0.0f : var1;
    var2 = var2 < 0.0f ? 0.0f : var2;
    s11[x] = var1;
    s22[x] = var2;
    s12[x] -= m1 * m2;
    sd[x] = var1 * var2;
    l[x] = (2.0 * m1 * m2 + c1) / (gdouble) (m1 * m1 + m2 * m2 + c1);
  }

  sqrt_row (sd, n);

  for (gsize x = 0; x < n; x++) {
    gfloat sd12 = sd[x], cov = s12[x];

    c[x] = (2.0 * sd12 + c2) / (gdouble) (s11[x] + s22[x] + c2);
    /* Flat, identical areas can leave a tiny negative covariance from
     * rounding; it must not pull the structure term below 1. (Two plain
     * selects, which the vectoriser takes, rather than one with &&.) */
    const gfloat cov_pos = cov < 0.0f ? 0.0f : cov;

    cov = sd12 <= 0.0f ? cov_pos : cov;
    s[x] = (gfloat) ((cov + c3) / (sd12 + c3));
  }
}

VH_SSIM_MULTIVERSION void
vh_ssim_compute (VhSsimWorkspace * ws, const gfloat * ref,
    const gfloat * dist, guint width, guint height, VhSsimResult * res)
{
  const guint ow = width - (WIN - 1), oh = height - (WIN - 1);
  const gsize stride = ws->max_width;
  const gsize plane = (gsize) WIN * stride;
  gfloat *p11 = ws->prod, *p22 = ws->prod + stride, *p12 =
      ws->prod + 2 * stride;
  gfloat *local = ws->local;
  gdouble *l = ws->lcs, *c = ws->lcs + stride, *s = ws->lcs + 2 * stride;
  gdouble sum = 0.0, l_sum = 0.0, c_sum = 0.0, s_sum = 0.0;

  g_assert (width >= WIN && height >= WIN && width <= ws->max_width);

  for (guint r = 0; r < height; r++) {
    const gfloat *restrict a = ref + (gsize) r * width;
    const gfloat *restrict b = dist + (gsize) r * width;
    gfloat *slot = ws->ring + (gsize) (r % WIN) * stride;

    for (gsize x = 0; x < width; x++) {
      p11[x] = a[x] * a[x];
      p22[x] = b[x] * b[x];
      p12[x] = a[x] * b[x];
    }
    filter_h (a, slot, ow);
    filter_h (b, slot + plane, ow);
    filter_h (p11, slot + 2 * plane, ow);
    filter_h (p22, slot + 3 * plane, ow);
    filter_h (p12, slot + 4 * plane, ow);
    if (r < WIN - 1)
      continue;

    /* Output row y = r - 10 needs input rows y .. r. */
    const guint y = r - (WIN - 1);
    for (guint q = 0; q < N_PLANES; q++) {
      const gfloat *rows[WIN];

      for (guint v = 0; v < WIN; v++)
        rows[v] = ws->ring + q * plane + (gsize) ((y + v) % WIN) * stride;
      filter_v (rows, local + q * stride, ow);
    }
    local_terms (local, local + stride, local + 2 * stride,
        local + 3 * stride, local + 4 * stride, ws->sd, l, c, s, ow);

    /* In order: the sums must round as libvmaf's do. */
    for (gsize x = 0; x < ow; x++) {
      sum += l[x] * c[x] * s[x];
      l_sum += l[x];
      c_sum += c[x];
      s_sum += s[x];
    }
  }

  const gdouble n = (gdouble) ow * oh;
  res->ssim = (gfloat) (sum / n);
  res->l = (gfloat) (l_sum / n);
  res->c = (gfloat) (c_sum / n);
  res->s = (gfloat) (s_sum / n);
}

gdouble
vh_ssim_max_db (gboolean clip, guint bpc, guint width, guint height)
{
  if (!clip)
    return INFINITY;

  /* Half a code value of error over the whole frame. */
  const gdouble peak = (gdouble) ((1u << bpc) - 1);
  const gdouble mse = 0.5 / ((gdouble) width * height);

  return ceil (10.0 * log10 (peak * peak / mse));
}

gdouble
vh_ssim_to_db (gdouble score, gdouble max_db)
{
  gdouble db = -10.0 * log10 (1.0 - score);

  /* Written so that a NaN (score above 1) yields the cap, as in libvmaf. */
  return db < max_db ? db : max_db;
}
