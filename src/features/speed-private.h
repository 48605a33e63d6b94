/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_SPEED_PRIVATE_H__
#define __VH_SPEED_PRIVATE_H__

#include <glib.h>

#include "float-scale.h"

G_BEGIN_DECLS

/* SpEED (spatial efficient entropic differencing) as libvmaf 3.2 computes
 * it for speed_chroma and speed_temporal: each plane is optionally
 * prescaled, low-passed and decimated by 16, made zero-mean locally, then
 * cut into 5x5 blocks whose Gaussian scale mixture parameters (a 25x25
 * covariance, its eigenvalues, one linear solve) give an entropy and a
 * variance per block; the score is the mean weighted entropy difference
 * between reference and distorted. Every step keeps libvmaf's single
 * precision arithmetic and its order of operations. */

#define VH_SPEED_BLOCK 5
#define VH_SPEED_BLOCK_ELEMENTS (VH_SPEED_BLOCK * VH_SPEED_BLOCK)
#define VH_SPEED_SCALES 4

typedef struct
{
  gdouble kernelscale;
  gdouble prescale;
  VhFloatScaleMethod prescale_method;
  gdouble sigma_nn;
  gdouble nn_floor;
  gint weight_var_mode;
  guint cpu_mask;               /* the extractor's VhCpuFlags mask */
} VhSpeedParams;

typedef struct _VhSpeed VhSpeed;

/* Sums (x - mean_x)(y - mean_y) over a @w x @h window of two offsets of
 * one plane, in one of libvmaf's summation orders. */
typedef gdouble (*VhSpeedCovFn) (const gfloat * x, const gfloat * y,
    gsize stride, gsize h, gsize w, gdouble mean_x, gdouble mean_y);

/* The summation orders of libvmaf's covariance kernels: plain C (one
 * running sum); AVX2 (per row: 8-column chunks into two 4-lane fused
 * accumulators, then one 4-column chunk, the rest in a plain running sum;
 * lanes added pairwise, then in order, then the rest); AVX-512 (the same
 * with 16 and 8 columns, 8 lanes folded 8 -> 4 -> 2 -> 1). */
typedef enum
{
  VH_SPEED_COV_SCALAR,
  VH_SPEED_COV_AVX2,
  VH_SPEED_COV_AVX512,
} VhSpeedCovOrder;

/* The summation order libvmaf takes on this CPU, so that the sums round
 * alike, and its kernel. */
VhSpeedCovOrder vh_speed_cov_order       (guint cpu_mask);

VhSpeedCovFn vh_speed_cov_kernel         (guint cpu_mask);

gdouble      vh_speed_cov_scalar         (const gfloat * x, const gfloat * y,
                                          gsize stride, gsize h, gsize w,
                                          gdouble mean_x, gdouble mean_y);

/* What a SpEED computation elsewhere (the GPU) needs to repeat this one:
 * sizes, filters and constants as vh_speed_new made them. */
typedef struct
{
  guint w, h;                   /* input planes */
  gboolean rescale;
  VhFloatScaleMethod prescale_method;
  guint sw, sh;                 /* after prescaling */
  guint ow, oh;                 /* decimated by 16 */
  guint nbh, nbv, nb;           /* 5x5 blocks across, down, in all */
  guint subw, subh;             /* window of the covariance sums */
  const gfloat *aa;             /* anti-alias filter before decimation */
  guint aa_taps;
  const gfloat *lm;             /* local mean filter after it */
  guint lm_taps;
  gfloat sigma_nn;
  gfloat noise_entropy;         /* pooling skips blocks below it */
  gdouble log2_2pie;
  gint weight_var_mode;
  VhSpeedCovOrder cov_order;    /* libvmaf's summation order to follow */
} VhSpeedLayout;

/* Set up for @w x @h planes; @what names them in errors ("speed_chroma:
 * the 960x540 U and V planes"). Fails on an unsupported kernel scale and
 * on planes too small to hold one block after decimation. */
VhSpeed     *vh_speed_new                (const VhSpeedParams * params,
                                          guint w, guint h,
                                          const gchar * what,
                                          GError ** error);

void         vh_speed_free               (VhSpeed * s);

/* @s's layout; the filters point into @s. */
void         vh_speed_layout             (const VhSpeed * s,
                                          VhSpeedLayout * layout);

/* The rows of the input planes that scoring reads (in order), or NULL
 * when it reads them all (prescaled planes); callers may leave the others
 * unwritten. */
const guint *vh_speed_input_rows         (const VhSpeed * s, guint * n_rows);

/* Scores one pair of @w x @h planes (@stride floats per row; read only).
 * Returns TRUE when the covariance of either side could not be inverted,
 * as libvmaf's error flag; @score then follows libvmaf's rule (0 when only
 * one side failed). */
gboolean     vh_speed_score              (VhSpeed * s, const gfloat * ref,
                                          const gfloat * dis, gsize stride,
                                          gfloat * score);

/* Linear algebra on small square matrices in libvmaf's float order
 * (speed-linalg.c). @work holds vh_speed_linalg_work_size (n, cols)
 * floats. */
gsize        vh_speed_linalg_work_size   (guint n, guint cols);

/* Eigenvalues of the symmetric @n x @n matrix @a (left unchanged). */
void         vh_speed_eigenvalues        (const gfloat * a, gfloat * eig,
                                          guint n, gfloat * work);

/* Solves a x = b for the @n x @cols x; FALSE when a diagonal of the QR
 * factor is below 1e-6 (x is then partly written). */
gboolean     vh_speed_solve              (const gfloat * a, guint n,
                                          const gfloat * b, guint cols,
                                          gfloat * x, gfloat * work);

G_END_DECLS

#endif /* __VH_SPEED_PRIVATE_H__ */
