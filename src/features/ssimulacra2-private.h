/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* SSIMULACRA 2 on the CPU: the colour conversion and the per-frame work
 * (ssimulacra2-color.c, ssimulacra2-maps.c). */

#ifndef __VH_SSIMULACRA2_PRIVATE_H__
#define __VH_SSIMULACRA2_PRIVATE_H__

#include "ssimulacra2.h"

G_BEGIN_DECLS

/* Rows the SIMD row blur takes at once at most (a lane each). */
#define VH_SSIMU2_TILE_ROWS 16
/* Row-blurred rows it keeps for the column pass: a tile and the column
 * window (2 radius + 1 rows) around it; also the most output rows one
 * tile completes. */
#define VH_SSIMU2_RING_ROWS 32
/* Blurs of a channel: x1 x1, x2 x2, x1 x2, x1, x2. */
#define VH_SSIMU2_BLURS 5

/* Scratch planes of one instance, each sized for the full frame. */
typedef struct
{
  guint width, height;
  gfloat *lin[2][2][3];         /* [ref, dis][ping-pong][R, G, B] */
  gfloat *xyb[2][3];            /* [ref, dis][X, Y, B] */
  gfloat *tmp[7];               /* product, blur temp, s11, s22, s12, mu1, mu2 */
  gfloat *state;                /* the vertical blur's per-column poles */
  gfloat *tile;                 /* the SIMD blur's: input and output
                                 * tiles (rows transposed), then per blur
                                 * a ring, output rows and poles (see
                                 * vh_ssimu2_scratch_ring()) */
  guint16 *row16;               /* one row of R'G'B' */
  gint32 *rgb_scratch;          /* vh_ssimu2_rgb16_row()'s */
} VhSsimu2Planes;

/* The SIMD blurs' scratch in @p->tile after the two tiles: for blur @j,
 * its ring of row-blurred rows, its output rows of one tile and its
 * poles. */
#define VH_SSIMU2_SCRATCH_ROWS (2 * VH_SSIMU2_TILE_ROWS + VH_SSIMU2_BLURS * \
    (2 * VH_SSIMU2_RING_ROWS + 6))

static inline gfloat *
vh_ssimu2_scratch_ring (const VhSsimu2Planes * p, guint j)
{
  return p->tile + (gsize) (2 * VH_SSIMU2_TILE_ROWS +
      j * (2 * VH_SSIMU2_RING_ROWS + 6)) * p->width;
}

static inline gfloat *
vh_ssimu2_scratch_out (const VhSsimu2Planes * p, guint j)
{
  return vh_ssimu2_scratch_ring (p, j) + (gsize) VH_SSIMU2_RING_ROWS *
      p->width;
}

static inline gfloat *
vh_ssimu2_scratch_state (const VhSsimu2Planes * p, guint j)
{
  return vh_ssimu2_scratch_out (p, j) + (gsize) VH_SSIMU2_RING_ROWS *
      p->width;
}

/* The steps of the per-frame work that have SIMD versions; each gives
 * the portable one's bits. */
typedef struct
{
  /* The @w x @h plane @in halved (rounded up) by 2x2 box averages, the
   * last row and column repeated past the edge. */
  void        (*downsample)      (const gfloat * in, guint w, guint h,
                                  gfloat * out);
  /* XYB of the first @n samples of the linear planes @lin. */
  void        (*xyb)             (const VhSsimu2 * s, gfloat * const lin[3],
                                  gfloat * const xyb[3], gsize n);
  /* @out = the blur of @a times @b (of @a alone when @b is NULL); uses
   * @p's tmp[0], tmp[1], state and tile as scratch. */
  void        (*blur)            (const VhSsimu2Gauss * g,
                                  VhSsimu2Planes * p, const gfloat * a,
                                  const gfloat * b, guint w, guint h,
                                  gfloat * out);
  /* One channel's six sums from the XYB planes and the blurred ones
   * (@t: tmp[2..6] as VhSsimu2Planes names them). */
  void        (*sums)            (const gfloat * x1, const gfloat * x2,
                                  gfloat * const t[7], guint w, guint h,
                                  gdouble * sums);
  /* One channel's six sums from its XYB planes @x1 and @x2: the five
   * blurs, then the sums (the SIMD kernels interleave them). */
  void        (*channel)         (const VhSsimu2Gauss * g,
                                  VhSsimu2Planes * p, const gfloat * x1,
                                  const gfloat * x2, guint w, guint h,
                                  gdouble * sums);
  /* vh_ssimu2_rgb16_row(). */
  void        (*rgb16_row)       (const VhSsimu2Yuv * yuv,
                                  const VhPicture * pic, guint y,
                                  gint32 * scratch, guint16 * r,
                                  guint16 * g, guint16 * b);
} VhSsimu2Kernels;

extern const VhSsimu2Kernels vh_ssimu2_kernels_c;

/* NULL where the CPU (or the compiler) lacks AVX2 and FMA, or AVX-512
 * (ssimulacra2-kernels-avx2.c, -avx512.c). */
const VhSsimu2Kernels *vh_ssimu2_kernels_avx2 (void);
const VhSsimu2Kernels *vh_ssimu2_kernels_avx512 (void);

void         vh_ssimu2_planes_init       (VhSsimu2Planes * p, guint width,
                                          guint height);

void         vh_ssimu2_planes_clear      (VhSsimu2Planes * p);

/* The kernels' rgb16_row (ssimulacra2-color.c): portable, and compiled
 * for AVX2 (GCC on x86-64 only). */
void         vh_ssimu2_rgb16_row_c       (const VhSsimu2Yuv * yuv,
                                          const VhPicture * pic, guint y,
                                          gint32 * scratch, guint16 * r,
                                          guint16 * g, guint16 * b);
void         vh_ssimu2_rgb16_row_avx2    (const VhSsimu2Yuv * yuv,
                                          const VhPicture * pic, guint y,
                                          gint32 * scratch, guint16 * r,
                                          guint16 * g, guint16 * b);

/* gint32 samples of scratch that vh_ssimu2_rgb16_row() needs for a
 * @width wide frame. */
#define VH_SSIMU2_RGB_SCRATCH(width) ((gsize) 5 * (width))

/* Row @y of @pic as 16-bit R'G'B' with @k's rgb16_row, using @scratch
 * (VH_SSIMU2_RGB_SCRATCH() samples). */
void         vh_ssimu2_rgb16_row         (const VhSsimu2Kernels * k,
                                          const VhSsimu2Yuv * yuv,
                                          const VhPicture * pic, guint y,
                                          gint32 * scratch, guint16 * r,
                                          guint16 * g, guint16 * b);

/* The fastest kernels that @cpu_mask allows on this CPU (same results
 * whichever). */
const VhSsimu2Kernels *vh_ssimu2_kernels (guint cpu_mask);

/* Every scale's sums (VH_SSIMU2_SUMS_PER_SCALE each) of @ref against
 * @dist with @k; returns the number of scales. */
guint        vh_ssimu2_compute           (const VhSsimu2 * s,
                                          VhSsimu2Planes * p,
                                          const VhPicture * ref,
                                          const VhPicture * dist,
                                          const VhSsimu2Kernels * k,
                                          gdouble * sums);

G_END_DECLS

#endif /* __VH_SSIMULACRA2_PRIVATE_H__ */
