/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_HIP_SPEED_COMMON_H__
#define __VH_HIP_SPEED_COMMON_H__

#include "hip-fex-common.h"
#include "features/speed-private.h"

G_BEGIN_DECLS

/* The SpEED core on the GPU for the speed_chroma and speed_temporal twins
 * (kernels/speed-filter.hip, speed-solve.hip): the CPU core (speed.c)
 * sets up sizes, filters and constants, the GPU repeats its arithmetic on
 * up to four planes per frame, scored in (reference, distorted) pairs. */

#define VH_HIP_SPEED_MAX_PLANES 4
#define VH_HIP_SPEED_MAX_TAPS 65

/* One plane to score: @a, or @a - @b where @b is set. Must match struct
 * vh_speed_plane in the kernels. */
typedef struct
{
  gconstpointer a;
  gconstpointer b;
  guint64 a_pitch;
  guint64 b_pitch;
  guint32 a_step;
  guint32 b_step;
} VhHipSpeedPlane;

G_STATIC_ASSERT (sizeof (VhHipSpeedPlane) == 40);

/* Must match struct vh_speed_filter_args. */
typedef struct
{
  VhHipSpeedPlane plane[VH_HIP_SPEED_MAX_PLANES];
  gfloat *vt;
  gfloat *op;
  gfloat *mtmp;
  gfloat *cov;
  const gint32 *row_pos;
  const gfloat *row_w;
  const gint32 *col_pos;
  const gfloat *col_w;
  guint32 n_planes;
  guint32 w, h;
  guint32 sw, sh;
  guint32 ow, oh;
  guint32 subw, subh;
  guint32 method;
  guint32 cov_order;
  guint32 aa_taps;
  guint32 lm_taps;
  gfloat inv_scale;
  guint32 pad;
  gfloat aa[VH_HIP_SPEED_MAX_TAPS];
  gfloat lm[VH_HIP_SPEED_MAX_TAPS];
} VhHipSpeedFilterArgs;

G_STATIC_ASSERT (sizeof (VhHipSpeedFilterArgs) == 808);

/* Must match struct vh_speed_solve_args. */
typedef struct
{
  const gfloat *op;
  const gfloat *cov;
  gfloat *indep;
  gfloat *sol;
  gfloat *qtb;
  gfloat *entropy;
  gfloat *variance;
  gfloat *eig;
  gint32 *ok;
  gfloat *out;
  guint32 n_planes;
  guint32 ow, oh;
  guint32 nbh, nbv, nb;
  gint32 weight_var_mode;
  gfloat sigma_nn;
  gfloat noise_entropy;
  gdouble log2_2pie;
} VhHipSpeedSolveArgs;

G_STATIC_ASSERT (sizeof (VhHipSpeedSolveArgs) == 128);

typedef struct
{
  VhSpeed *core;                /* the CPU core: layout and filters */
  VhSpeedLayout layout;
  guint n_planes;
  gpointer d_mem;               /* every device buffer, one allocation */
  VhHipSpeedFilterArgs filter;  /* filled at init but for the planes */
  VhHipSpeedSolveArgs solve;    /* filled at init but for out */
  VhHipFunction *vpass, *decimate, *cov, *estimate, *entropy, *pool;
} VhHipSpeed;

/* Sets up for @n_planes (2 or 4) planes of @w x @h, @bpc bits, on @hip's
 * device; @what names them in errors as in vh_speed_new(). */
gboolean     vh_hip_speed_init           (VhHipSpeed * s, VhHipFex * hip,
                                          const VhSpeedParams * params,
                                          guint w, guint h, guint bpc,
                                          guint n_planes, const gchar * what,
                                          GError ** error);

/* Queues the scoring of @planes (n_planes of them: reference, distorted,
 * ...) on @hip's stream; pair p writes out[2 p] = its score and
 * out[2 p + 1] = 1.0 where a covariance could not be inverted (libvmaf's
 * error flag), else 0. */
gboolean     vh_hip_speed_enqueue        (VhHipSpeed * s, VhHipFex * hip,
                                          const VhHipSpeedPlane * planes,
                                          gfloat * out, GError ** error);

/* Frees what init allocated; @hip's stream must be idle. */
void         vh_hip_speed_close          (VhHipSpeed * s,
                                          VhHipDevice * device);

G_END_DECLS

#endif /* __VH_HIP_SPEED_COMMON_H__ */
