/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_HIP_SSIM_COMMON_H__
#define __VH_HIP_SSIM_COMMON_H__

#include "hip-fex-common.h"
#include "features/ssim-common.h"

G_BEGIN_DECLS

/* The kernel modules (hip/features/kernels/ssim.hip, ssim-decimate.hip), made by
 * the build. */
extern const VhHipKernelSource vh_hip_kernel_ssim;
extern const VhHipKernelSource vh_hip_kernel_ssim_decimate;

extern const VhFeatureExtractorClass vh_hip_fex_float_ssim;
extern const VhFeatureExtractorClass vh_hip_fex_float_ms_ssim;

#define VH_HIP_SSIM_MAX_SCALES 5

/*
 * The GPU pipeline shared by the float_ssim and float_ms_ssim twins, on
 * the stream of their VhHipFex. A frame is scored at one or more scales
 * (float_ssim: one, float_ms_ssim: five); each scale reads either the
 * pictures' luma directly or a pair of float planes that a downscaling
 * kernel wrote. Every tile kernel leaves per-block sums; the reduction adds
 * those of each scale into 4 doubles (l*c*s, l, c, s) of the frame's
 * result slot, which vh_hip_ssim_result() turns into the CPU twin's
 * VhSsimResult.
 *
 * Both twins' private structures start with a VhHipSsim, so that
 * vh_hip_ssim_from_extractor() finds it (for tests and timing).
 */
typedef struct
{
  VhHipFex *hip;                /* the twin's; not owned */
  guint bpc;
  guint n_scales;
  guint width[VH_HIP_SSIM_MAX_SCALES];
  guint height[VH_HIP_SSIM_MAX_SCALES];
  guint first[VH_HIP_SSIM_MAX_SCALES + 1];      /* block sums per scale */
  gpointer partials;            /* device: 4 doubles per tile block */
  gpointer planes;              /* device: float planes, see plane[] */
  guint8 *plane[VH_HIP_SSIM_MAX_SCALES][2];     /* ref, dist; NULL: none */
  gsize plane_pitch[VH_HIP_SSIM_MAX_SCALES];
  VhHipFunction *tile[3];       /* 8-bit, 16-bit and float input */
  VhHipFunction *box[2];
  VhHipFunction *lpf[3];
  VhHipFunction *reduce;
  VhHipEvent *t_start;          /* kernel timing, when enabled */
  VhHipEvent *t_end;
} VhHipSsim;

/* Sets up @ss on @hip's device for @n_scales scales of the given sizes
 * (each at least VH_SSIM_WINDOW square); scales from @first_float on get
 * float planes for a downscaling kernel to fill. */
gboolean     vh_hip_ssim_init            (VhHipSsim * ss, VhHipFex * hip,
                                          guint bpc, guint n_scales,
                                          const guint * width,
                                          const guint * height,
                                          guint first_float,
                                          GError ** error);

/* Frees what init allocated; safe on a zeroed @ss. Call before closing
 * the VhHipFex. */
void         vh_hip_ssim_clear           (VhHipSsim * ss);

/* A twin's init once its options are read: @hip for @fex (one slot of 4
 * doubles per scale, collected by @collect), then @ss as
 * vh_hip_ssim_init() sets it up. On failure both are closed again and
 * @error names the feature. */
gboolean     vh_hip_ssim_open            (VhHipSsim * ss, VhHipFex * hip,
                                          VhFeatureExtractor * fex,
                                          VhHipFexCollectFunc collect,
                                          guint n_scales,
                                          const guint * width,
                                          const guint * height,
                                          guint first_float,
                                          GError ** error);

/* A twin's close: @ss, then @hip. */
void         vh_hip_ssim_close           (VhHipSsim * ss, VhHipFex * hip);

/* Starts frame @index once both pictures pass the CPU twin's checks (in
 * device memory): its result slot, or NULL with @error. */
gpointer     vh_hip_ssim_begin           (VhHipSsim * ss,
                                          VhFeatureExtractor * fex,
                                          const VhPicture * ref,
                                          const VhPicture * dist,
                                          guint index, GError ** error);

/* Ends the frame begun last, once its scales are queued: its sums into
 * @slot, then vh_hip_fex_end(). */
gboolean     vh_hip_ssim_end             (VhHipSsim * ss, gpointer slot,
                                          const VhPicture * ref,
                                          const VhPicture * dist,
                                          VhFeatureCollector * fc,
                                          GError ** error);

/* Queues the SSIM sums of @scale: from the luma of @ref and @dist when
 * given (the scale is the frame's size), else from the scale's planes. */
gboolean     vh_hip_ssim_tile            (VhHipSsim * ss, guint scale,
                                          const VhPicture * ref,
                                          const VhPicture * dist,
                                          GError ** error);

/* Queues float_ssim's box downscaling by @factor of the luma of @ref and
 * @dist into the planes of scale 0. */
gboolean     vh_hip_ssim_box             (VhHipSsim * ss,
                                          const VhPicture * ref,
                                          const VhPicture * dist,
                                          guint factor, GError ** error);

/* Queues the wavelet low-pass and 2:1 decimation of @scale (the luma of
 * @ref and @dist when given, else its planes) into the planes of
 * @scale + 1. */
gboolean     vh_hip_ssim_lpf             (VhHipSsim * ss, guint scale,
                                          const VhPicture * ref,
                                          const VhPicture * dist,
                                          GError ** error);

/* Queues the sums of every scale into @slot (4 doubles per scale). */
gboolean     vh_hip_ssim_reduce          (VhHipSsim * ss, gpointer slot,
                                          GError ** error);

/* The CPU twin's frame means from the host copy of the slot. */
void         vh_hip_ssim_result          (const VhHipSsim * ss,
                                          const gdouble * sums, guint scale,
                                          VhSsimResult * res);

/* Brackets the kernels of a frame with timing events once
 * vh_hip_ssim_enable_timing() was called; no-ops otherwise. */
gboolean     vh_hip_ssim_mark            (VhHipSsim * ss, gboolean end,
                                          GError ** error);

/* ---- for tests and benchmarks ---------------------------------------- */

/* The pipeline of an initialised float_ssim or float_ms_ssim twin. */
VhHipSsim   *vh_hip_ssim_from_extractor  (VhFeatureExtractor * fex);

gboolean     vh_hip_ssim_enable_timing   (VhHipSsim * ss, GError ** error);

/* GPU time of the last frame's kernels (after its extract() returned). */
gboolean     vh_hip_ssim_last_ms         (VhHipSsim * ss, gfloat * ms,
                                          GError ** error);

G_END_DECLS

#endif /* __VH_HIP_SSIM_COMMON_H__ */
