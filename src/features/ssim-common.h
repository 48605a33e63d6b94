/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_SSIM_COMMON_H__
#define __VH_SSIM_COMMON_H__

#include <glib.h>

#include "feature-extractor.h"

G_BEGIN_DECLS

/* Side of the Gaussian window: SSIM needs planes at least this large and
 * yields (w - 10) x (h - 10) local values. */
#define VH_SSIM_WINDOW 11

/* Frame means of the SSIM index and of its three factors, in single
 * precision as libvmaf's float SSIM reports them. */
typedef struct
{
  gfloat ssim;
  gfloat l;
  gfloat c;
  gfloat s;
} VhSsimResult;

/* Scratch rows for planes up to @max_width wide; one per extractor
 * instance, never shared between threads. */
typedef struct
{
  guint max_width;
  gfloat *ring;                 /* 5 planes x VH_SSIM_WINDOW filtered rows */
  gfloat *prod;                 /* squares and cross product of a row */
  gfloat *local;                /* 5 windowed rows */
  gdouble *lcs;                 /* l, c, s of one output row */
  gfloat *sd;                   /* product of the local deviations */
  gfloat *even;                 /* decimation: ring of input rows split */
  gfloat *odd;                  /* into even and odd columns */
  gsize split_stride;
  gdouble *acc;                 /* decimation: one output row */
} VhSsimWorkspace;

/* The hot loops also get an AVX2 build, picked when the library loads.
 * Only the vector width changes (no FMA), so the results stay the same. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    defined(__linux__)
#define VH_SSIM_MULTIVERSION __attribute__ ((target_clones ("avx2", "default")))
#else
#define VH_SSIM_MULTIVERSION
#endif

VhSsimWorkspace *vh_ssim_workspace_new   (guint max_width);

void         vh_ssim_workspace_free      (VhSsimWorkspace * ws);

/* Fails unless both pictures have @fex's luma size and depth, in the
 * memory its class takes (host memory, or HIP device memory for a HIP
 * twin). */
gboolean     vh_ssim_check_pictures      (const VhFeatureExtractor * fex,
                                          const VhPicture * ref,
                                          const VhPicture * dist,
                                          GError ** error);

/* Luma of @pic as floats on the 8-bit scale, @pic->width[0] per row. */
void         vh_ssim_load_luma           (const VhPicture * pic, gfloat * dst);

/* Gaussian-window SSIM of two @width x @height planes (rows packed, both
 * sides >= VH_SSIM_WINDOW, @width <= the workspace's width). */
void         vh_ssim_compute             (VhSsimWorkspace * ws,
                                          const gfloat * ref,
                                          const gfloat * dist, guint width,
                                          guint height, VhSsimResult * res);

/* Size of one side after decimation by @factor. */
guint        vh_ssim_decimated_size      (guint n, guint factor);

/* Averages @factor x @factor blocks (mirrored at the borders) and keeps
 * every @factor-th sample: float_ssim's downscaling. */
void         vh_ssim_decimate_box        (const gfloat * src, guint width,
                                          guint height, guint factor,
                                          gfloat * dst);

/* 9x9 wavelet low-pass and 2:1 decimation between MS-SSIM scales. */
void         vh_ssim_decimate_lpf        (VhSsimWorkspace * ws,
                                          const gfloat * src, guint width,
                                          guint height, gfloat * dst);

/* The dB cap for the clip_db option, +inf when @clip is FALSE. */
gdouble      vh_ssim_max_db              (gboolean clip, guint bpc,
                                          guint width, guint height);

gdouble      vh_ssim_to_db               (gdouble score, gdouble max_db);

G_END_DECLS

#endif /* __VH_SSIM_COMMON_H__ */
