/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP twin of integer ADM, device side: the kernels' per-scale
 * parameters, their buffers, and the launches of one frame. */

#include "hip-integer-adm-private.h"
#include "errors.h"

#include <math.h>
#include <string.h>

#define ALIGN_UP(v, a) (((v) + (a) - 1) / (a) * (a))
#define BUF_ALIGN 256

/* Rounding of the vertical and horizontal wavelet passes at scales 1-3,
 * as the CPU twin applies them. */
static const gint vshift_s123[3] = { 0, 16, 16 };
static const gint hshift_s123[3] = { 15, 16, 15 };

static void
fill_scale (VhHipAdmPriv * p, gint s, guint bpc)
{
  const VhAdmScale *sc = &p->adm.scales[s];
  VhHipAdmGpuScale *g = &p->gpu[s];

  g->wi = sc->wi;
  g->hi = sc->hi;
  g->wb = sc->wb;
  g->hb = sc->hb;
  g->pitch = ALIGN_UP (sc->wb, 64);
  g->in_pitch = s > 0 ? p->gpu[s - 1].pitch : 0;
  g->left = sc->left;
  g->top = sc->top;
  g->right = sc->right;
  g->bottom = sc->bottom;
  g->ncb = vh_hip_div_up (sc->right - sc->left, VH_HIP_ADM_TW);
  g->nrb = vh_hip_div_up (sc->bottom - sc->top, VH_HIP_ADM_TH);

  if (s == 0) {
    /* libvmaf's AVX-512 wavelet steps 32 (8-bit) or 64 columns; with
     * scale 0 skipped it runs the portable code. */
    const gint step = bpc == 8 ? 32 : 64;
    g->fix_last = !p->adm.skip_scale0 && sc->wb > 1 && (sc->wb - 1) % step == 0;
    g->stale_zero[0] = g->stale_zero[1] = 1;
  } else {
    const VhAdmScale *prev = &p->adm.scales[s - 1];

    g->vshift = vshift_s123[s - 1];
    g->vadd = g->vshift ? (gint64) 1 << (g->vshift - 1) : 0;
    g->hshift = hshift_s123[s - 1];
    g->hadd = (gint64) 1 << (g->hshift - 1);
    g->fix_last = sc->wb > 1 && (sc->wb - 1) % 8 == 0;
    /* Where the CPU twin finds the stale values past the distorted
     * high-pass row: a row of the previous scale's last vertical pass. */
    for (gint k = 0; k < 2; k++) {
      const gint at = 4 * sc->wi + k;
      const gint seg = at / MAX (prev->wi, 1);

      g->stale_zero[k] = s == 1 || seg >= 4;
      g->stale_pic[k] = seg / 2;
      g->stale_hi[k] = seg % 2;
      g->stale_col[k] = at % MAX (prev->wi, 1);
    }
  }

  g->round_x0 = sc->round_x0;
  g->round_x1 = sc->round_x1;
  g->wide_x0 = sc->wide_x0;
  g->wide_x1 = sc->wide_x1;
  g->signed_x0 = sc->signed_x0;
  g->signed_x1 = sc->signed_x1;
  g->signed_y0 = sc->signed_y0;
  g->signed_y1 = sc->signed_y1;
  g->wide_gains = sc->wide_gains;
  for (gint b = 0; b < 3; b++) {
    g->gain16[b] = sc->gain16[b];
    g->csf_add16[b] = sc->csf_add16[b];
    g->csf_shift16[b] = sc->csf_shift16[b];
    g->gain32[b] = sc->gain32[b];
    g->cm_sub[b] = sc->cm_sub[b];
    g->cm_sq_shift[b] = sc->cm_sq_shift[b];
    g->cm_sq_add[b] = sc->cm_sq_add[b];
    g->cm_cub_shift[b] = sc->cm_cub_shift[b];
    g->cm_cub_add[b] = sc->cm_cub_add[b];
  }
  g->cm_row_shift = sc->cm_row_shift;
  g->cm_row_add = sc->cm_row_add;
  g->den_sq_shift = sc->den_sq_shift;
  g->den_sq_add = sc->den_sq_add;
  g->den_cub_shift = sc->den_cub_shift;
  g->den_cub_add = sc->den_cub_add;
  g->den_row_shift = sc->den_row_shift;
  g->den_row_add = sc->den_row_add;
  g->gain_limit = p->adm.gain_limit;
  g->cos1_sq = cos (1.0 * G_PI / 180.0) * cos (1.0 * G_PI / 180.0);
  g->bpc = bpc;
}

/* Hands out aligned pieces of one allocation as device addresses (base
 * NULL: only measures). */
static guint64
carve (guint8 * base, gsize * used, gsize bytes)
{
  guint64 at = base ? GPOINTER_TO_SIZE (base + *used) : 0;

  *used += ALIGN_UP (bytes, BUF_ALIGN);
  return at;
}

static gsize
carve_buffers (VhHipAdmPriv * p, guint8 * base)
{
  gsize used = 0;

  for (gint s = 0; s < VH_ADM_N_SCALES; s++) {
    VhHipAdmGpuScale *g = &p->gpu[s];
    const gsize plane = (gsize) g->pitch * g->hb;
    const gsize esz = s == 0 ? 2 : 4;

    for (gint pic = 0; pic < 2; pic++) {
      for (gint b = 0; b < 3; b++)
        g->band[pic][b] = carve (base, &used, plane * esz);
      /* The last scale's approximation band is never read. */
      g->a_out[pic] = s < VH_ADM_N_SCALES - 1 ?
          carve (base, &used, plane * 4) : 0;
      g->a_in[pic] = s > 0 ? p->gpu[s - 1].a_out[pic] : 0;
    }
    g->partial = carve (base, &used, (gsize) (g->bottom - g->top) * g->ncb *
        VH_HIP_ADM_N_SUMS * sizeof (guint64));
  }
  return used;
}

gboolean
vh_hip_adm_device_init (VhHipAdmPriv * p, guint bpc, GError ** error)
{
  VhHipFex *h = &p->hip;
  guint blocks = 0;
  gsize size;

  memset (p->gpu, 0, sizeof (p->gpu));
  p->first = p->adm.skip_scale0 ? 1 : 0;
  for (gint s = 0; s < VH_ADM_N_SCALES; s++)
    fill_scale (p, s, bpc);
  for (gint s = p->first; s < VH_ADM_N_SCALES; s++) {
    p->gpu[s].block0 = blocks;
    blocks += p->gpu[s].ncb * p->gpu[s].nrb;
  }
  p->score_blocks = blocks;

  size = carve_buffers (p, NULL);
  if (!vh_hip_malloc (h->device, size, &p->d_buffers, error) ||
      !vh_hip_malloc (h->device, sizeof (p->gpu), &p->d_params, error))
    return FALSE;
  carve_buffers (p, p->d_buffers);
  if (!vh_hip_memcpy_2d (h->device, VH_HIP_COPY_HOST_TO_DEVICE, p->d_params,
          sizeof (p->gpu), p->gpu, sizeof (p->gpu), sizeof (p->gpu), 1, error))
    return FALSE;

  p->dwt0 = vh_hip_fex_function (h, &vh_hip_kernel_adm, bpc == 8 ?
      "vh_adm_dwt0_u8" : "vh_adm_dwt0_u16", error);
  if (p->dwt0)
    p->dwt = vh_hip_fex_function (h, &vh_hip_kernel_adm, "vh_adm_dwt", error);
  if (p->dwt)
    p->score = vh_hip_fex_function (h, &vh_hip_kernel_adm, "vh_adm_score",
        error);
  if (p->score)
    p->reduce = vh_hip_fex_function (h, &vh_hip_kernel_adm, "vh_adm_reduce",
        error);
  return p->reduce != NULL;
}

void
vh_hip_adm_device_close (VhHipAdmPriv * p)
{
  VhHipDevice *device = p->hip.device;

  if (device && p->hip.stream)
    vh_hip_stream_synchronize (p->hip.stream, NULL);
  if (device && p->d_buffers)
    vh_hip_free (device, p->d_buffers);
  if (device && p->d_params)
    vh_hip_free (device, p->d_params);
  p->d_buffers = p->d_params = NULL;
}

gboolean
vh_hip_adm_enqueue (VhFeatureExtractor * fex, const VhPicture * ref,
    const VhPicture * dist, gpointer d_out, GError ** error)
{
  VhHipAdmPriv *p = fex->priv;
  VhHipStream *stream = p->hip.stream;
  const guint tile[3] = { VH_HIP_ADM_TW, VH_HIP_ADM_TH, 1 };
  const guint line[3] = { 256, 1, 1 };
  gpointer ref_data = ref->data[0], dist_data = dist->data[0];
  guint64 ref_stride = ref->stride[0], dist_stride = dist->stride[0];
  gpointer dwt0_args[] = { &p->d_params, &ref_data, &ref_stride, &dist_data,
    &dist_stride
  };
  gpointer score_args[] = { &p->d_params, &p->first };
  gpointer reduce_args[] = { &p->d_params, &p->first, &d_out };

  /* The wavelet of each scale reads the previous one's approximation band:
   * in stream order. Then one launch scores every scale. */
  for (gint s = 0; s < VH_ADM_N_SCALES; s++) {
    const VhHipAdmGpuScale *g = &p->gpu[s];
    const guint grid[3] = { vh_hip_div_up (g->wb, VH_HIP_ADM_TW),
      vh_hip_div_up (g->hb, VH_HIP_ADM_TH), 2
    };
    gint scale = s;
    gpointer args[] = { &p->d_params, &scale };

    if (!vh_hip_launch (s == 0 ? p->dwt0 : p->dwt, stream, grid, tile, 0,
            s == 0 ? dwt0_args : args, error))
      return FALSE;
  }
  {
    const guint grid[3] = { p->score_blocks, 1, 1 };
    if (!vh_hip_launch (p->score, stream, grid, tile, 0, score_args, error))
      return FALSE;
  }
  {
    const VhHipAdmGpuScale *g = &p->gpu[p->first];
    const guint grid[3] = { vh_hip_div_up ((g->bottom - g->top) *
          VH_HIP_ADM_N_SUMS, line[0]), VH_ADM_N_SCALES, 1
    };
    return vh_hip_launch (p->reduce, stream, grid, line, 0, reduce_args, error);
  }
}
