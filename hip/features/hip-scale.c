/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Host side of the resampling kernels (hip/features/kernels/scale.hip). */

#include "hip-scale.h"
#include "errors.h"

#include <string.h>

/* Must match struct vh_scale_filter in the kernel. */
typedef struct
{
  gconstpointer first;
  gconstpointer coeff;
  guint32 n_in;
  guint32 n_out;
  guint32 taps;
  guint32 rounded_from;
} ScaleFilter;

G_STATIC_ASSERT (sizeof (ScaleFilter) == 32);

/* Enough blocks to fill a large GPU; each strides over its plane. */
#define SCALE_MAX_GRID 256

struct _VhHipScaler
{
  VhHipDevice *device;
  VhPictureInfo src_info;
  VhPictureInfo dst_info;
  guint n_planes;
  VhScaleShifts shifts;
  /* [plane][vertical], in device memory */
  ScaleFilter filters[3][2];
  gpointer d_filters[3][2][2];  /* first, coeff */
  /* the horizontal pass of one plane: output width x input height */
  gint32 *d_mid;
};

static gboolean
upload (VhHipDevice * device, gconstpointer data, gsize size, gpointer * d,
    GError ** error)
{
  return vh_hip_malloc (device, size, d, error) &&
      vh_hip_memcpy_2d (device, VH_HIP_COPY_HOST_TO_DEVICE, *d, size, data,
      size, size, 1, error);
}

VhHipScaler *
vh_hip_scaler_new (VhHipDevice * device, const VhScaler * scaler,
    GError ** error)
{
  VhHipScaler *s = g_new0 (VhHipScaler, 1);
  const VhPictureInfo *out = vh_scaler_get_output_info (scaler);
  const VhScaleFilter *luma_v = vh_scaler_get_filter (scaler, 0, TRUE);

  s->device = vh_hip_device_ref (device);
  s->dst_info = *out;
  s->src_info = *out;
  s->src_info.width = vh_scaler_get_filter (scaler, 0, FALSE)->n_in;
  s->src_info.height = luma_v->n_in;
  s->n_planes = vh_pix_fmt_n_planes (out->pix_fmt);
  vh_scale_shifts_for_bpc (out->bpc, &s->shifts);
  for (guint p = 0; p < s->n_planes; p++) {
    for (guint v = 0; v < 2; v++) {
      const VhScaleFilter *f = vh_scaler_get_filter (scaler, p, v);
      ScaleFilter *d = &s->filters[p][v];

      if (!upload (device, f->first, f->n_out * sizeof (gint32),
              &s->d_filters[p][v][0], error) ||
          !upload (device, f->coeff, (gsize) f->n_out * f->taps *
              sizeof (gint16), &s->d_filters[p][v][1], error)) {
        vh_hip_scaler_free (s);
        return NULL;
      }
      d->first = s->d_filters[p][v][0];
      d->coeff = s->d_filters[p][v][1];
      d->n_in = f->n_in;
      d->n_out = f->n_out;
      d->taps = f->taps;
      d->rounded_from = f->rounded_from;
    }
  }
  if (!vh_hip_malloc (device, (gsize) out->width * luma_v->n_in *
          sizeof (gint32), (gpointer *) & s->d_mid, error)) {
    vh_hip_scaler_free (s);
    return NULL;
  }
  return s;
}

static guint
grid_size (guint n, guint block)
{
  return MIN ((n + block - 1) / block, SCALE_MAX_GRID);
}

gboolean
vh_hip_scaler_scale_async (VhHipScaler * s, VhHipStream * stream,
    const VhPicture * src, VhPicture * dst, GError ** error)
{
  const gboolean wide = s->src_info.bpc > 8;
  VhHipModule *module;
  VhHipFunction *rows, *cols;

  if (src->mem_type != VH_MEMORY_HIP_DEVICE ||
      dst->mem_type != VH_MEMORY_HIP_DEVICE ||
      !vh_picture_info_equal (&src->info, &s->src_info) ||
      !vh_picture_info_equal (&dst->info, &s->dst_info)) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "the GPU scaler takes %ux%u device pictures to %ux%u ones (%s "
        "%u-bit), not %ux%u to %ux%u", s->src_info.width,
        s->src_info.height, s->dst_info.width, s->dst_info.height,
        vh_pix_fmt_to_string (s->src_info.pix_fmt), s->src_info.bpc,
        src->info.width, src->info.height, dst->info.width,
        dst->info.height);
    return FALSE;
  }
  module = vh_hip_module_get (s->device, &vh_hip_kernel_scale, error);
  if (!module)
    return FALSE;
  rows = vh_hip_module_get_function (module, wide ? "vh_scale_rows_u16" :
      "vh_scale_rows_u8", error);
  cols = rows ? vh_hip_module_get_function (module, wide ?
      "vh_scale_cols_u16" : "vh_scale_cols_u8", error) : NULL;
  if (!cols)
    return FALSE;

  /* The planes one after another: they share the intermediate. */
  for (guint p = 0; p < MIN (src->n_planes, s->n_planes); p++) {
    ScaleFilter *h = &s->filters[p][0], *v = &s->filters[p][1];
    gconstpointer src_data = src->data[p];
    guint64 src_pitch = src->stride[p], dst_pitch = dst->stride[p];
    guint32 step = MAX (src->step[p], 1), n_rows = v->n_in;
    guint32 h_shift = s->shifts.h_shift, v_shift = s->shifts.v_shift;
    gint32 mid_max = s->shifts.mid_max, out_max = s->shifts.out_max;
    gint32 bias = vh_scale_8bit_bias (v->taps);
    guint32 mid_pitch = h->n_out, width = h->n_out;
    gpointer mid = s->d_mid, dst_data = dst->data[p];
    gpointer row_args[] = { &src_data, &src_pitch, &step, &n_rows, h,
      &h_shift, &mid_max, &mid, &mid_pitch
    };
    gpointer col_args[] = { &mid, &mid_pitch, &width, v, &v_shift, &out_max,
      &bias, &dst_data, &dst_pitch
    };
    const guint block[3] = { VH_HIP_SCALE_BLOCK_X, VH_HIP_SCALE_BLOCK_Y, 1 };
    const guint row_grid[3] = { grid_size (h->n_out, VH_HIP_SCALE_BLOCK_X),
      grid_size (n_rows, VH_HIP_SCALE_BLOCK_Y), 1
    };
    const guint col_grid[3] = { grid_size (width, VH_HIP_SCALE_BLOCK_X),
      grid_size (v->n_out, VH_HIP_SCALE_BLOCK_Y), 1
    };

    if (!vh_hip_launch (rows, stream, row_grid, block, 0, row_args, error) ||
        !vh_hip_launch (cols, stream, col_grid, block, 0, col_args, error))
      return FALSE;
  }
  return TRUE;
}

void
vh_hip_scaler_free (VhHipScaler * s)
{
  if (!s)
    return;
  for (guint p = 0; p < 3; p++)
    for (guint v = 0; v < 2; v++)
      for (guint k = 0; k < 2; k++)
        if (s->d_filters[p][v][k])
          vh_hip_free (s->device, s->d_filters[p][v][k]);
  if (s->d_mid)
    vh_hip_free (s->device, s->d_mid);
  vh_hip_device_unref (s->device);
  g_free (s);
}
