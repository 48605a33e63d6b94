/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Building blocks of the CAMBI banding detector, shared by cambi*.c. CAMBI
 * works on a 10-bit luma plane: the input is converted (and optionally
 * resized) once, a spatial mask of flat areas is computed at full size, then
 * five scales each get a mode filter, a windowed histogram pass that yields a
 * per-pixel banding strength ("c value"), and top-k mean pooling. */

#ifndef __VH_CAMBI_PRIVATE_H__
#define __VH_CAMBI_PRIVATE_H__

#include <glib.h>
#include <stdio.h>

#include "../feature-extractor.h"
#include "../picture.h"

G_BEGIN_DECLS

#define VH_CAMBI_NUM_SCALES 5
#define VH_CAMBI_MAX_DIFFS 32           /* 1 << the largest max_log_contrast */
#define VH_CAMBI_MIN_SIDE 216           /* at least one side must reach it */
/* Histogram rows at most: 10-bit values up to the highest threshold. */
#define VH_CAMBI_MAX_BAND (1024 + VH_CAMBI_MAX_DIFFS + 1)
/* The c-value reciprocal table covers window_size^2 + 1 entries at most. */
#define VH_CAMBI_RECIPROCALS 4226

typedef enum
{
  VH_CAMBI_EOTF_BT1886 = 0,
  VH_CAMBI_EOTF_PQ = 1,
} VhCambiEotf;

/* Which luma differences count as visible bands, in 10-bit code values. */
typedef struct
{
  guint num_diffs;
  /* Largest 10-bit value at which a step of d + 1 is still above the
   * visibility threshold, plus num_diffs (the offset libvmaf works in). */
  guint16 tvi[VH_CAMBI_MAX_DIFFS];
  gint weight[VH_CAMBI_MAX_DIFFS];
  guint16 vlt_luma;
  /* Histogram rows cover 10-bit values [band_base, band_base + band_size):
   * values outside can never change a c value. */
  guint band_base;
  guint band_size;
  /* Per histogram row: bit d set when a step of d + 1 counts there. */
  guint32 steps[VH_CAMBI_MAX_BAND];
} VhCambiContrast;

/* One instance's options, resolved for its picture size (cambi-setup.c). */
typedef struct
{
  guint enc_w, enc_h, enc_bitdepth;
  guint src_w, src_h;
  guint window, src_window;
  gdouble topk;
  gdouble max_val;
  gboolean full_ref;
  gboolean speedup;
  VhCambiContrast contrast;
} VhCambiParams;

/* One planar working buffer pair: 10-bit image and 0/1 mask. */
typedef struct
{
  guint16 *image;
  guint8 *mask;
  gsize stride;                 /* in samples, shared by both planes */
} VhCambiPlanes;

/* cambi-setup.c: shared by the CPU twin and the HIP twin. */
extern const VhOptionSpec vh_cambi_options[];
extern const gchar *const vh_cambi_provides[];

gboolean     vh_cambi_params_init       (VhCambiParams * p,
                                         VhFeatureExtractor * fex,
                                         const VhPictureInfo * info,
                                         GError ** error);

/* The frame's score from the pooled value of each scale. */
gdouble      vh_cambi_combine_scales    (const gdouble * per_scale,
                                         guint window);

/* Appends "cambi" (and with full_ref the source and difference scores). */
gboolean     vh_cambi_append            (VhFeatureExtractor * fex,
                                         const VhCambiParams * p,
                                         VhFeatureCollector * fc, guint index,
                                         gdouble dist_score,
                                         gdouble src_score, GError ** error);

/* cambi-contrast.c */
void         vh_cambi_contrast_init     (VhCambiContrast * c,
                                         guint max_log_contrast,
                                         gdouble tvi_threshold,
                                         gdouble vis_lum_threshold,
                                         VhCambiEotf eotf);

/* 1 / i rounded as libvmaf's table is (index 0 holds 0). */
const gfloat *vh_cambi_reciprocals      (void);

/* cambi-preprocess.c */
gboolean     vh_cambi_load_luma         (const VhPicture * pic,
                                         const VhCambiPlanes * out,
                                         guint out_w, guint out_h,
                                         GError ** error);

/* Source index of each of @out_n output positions (nearest neighbour). */
void         vh_cambi_nearest_positions (guint in_n, guint out_n,
                                         guint * pos);

void         vh_cambi_anti_dither       (const VhCambiPlanes * p, guint w,
                                         guint h);

void         vh_cambi_decimate          (const VhCambiPlanes * p, guint w,
                                         guint h);

/* @rows: scratch of 3 * w samples. */
void         vh_cambi_mode_filter       (const VhCambiPlanes * p, guint w,
                                         guint h, guint16 * rows);

/* cambi-mask.c */
gsize        vh_cambi_mask_scratch_size (guint w);

/* Flat pixels a 7x7 box needs, more than this, at a @w x @h picture. */
guint        vh_cambi_flat_threshold    (guint w, guint h);

void         vh_cambi_spatial_mask      (const VhCambiPlanes * p, guint w,
                                         guint h, guint8 * scratch);

/* cambi-cvalues.c */
/* Samples of working memory vh_cambi_c_values needs at width @w. */
gsize        vh_cambi_c_values_work_size (const VhCambiContrast * c,
                                         guint w, guint window);

void         vh_cambi_c_values          (const VhCambiPlanes * p,
                                         const VhCambiContrast * c, guint w,
                                         guint h, guint window,
                                         guint16 * work, gfloat * c_values);

/* cambi-pool.c. Top-k mean pooling, computed exactly: every c value is 0
 * or a float in [2^-13, 2^14) (a product of at most 9 * 4225^2 and a
 * reciprocal of at most 4225), so it is an integer number of units of
 * 2^-VH_CAMBI_UNIT_BITS below 2^50, and sums of them are exact integers
 * whatever the order; only the final mean is rounded, once. Both twins
 * pool this way, so they agree bit for bit (libvmaf sums in double, in an
 * order its selection leaves: within 1e-15 of the exact value). */
#define VH_CAMBI_UNIT_BITS 36

/* The number of values pooled out of @n: (gint) (@topk * @n), at least 1. */
gsize        vh_cambi_topk_count        (gsize n, gdouble topk);

/* The mean of the @k largest values from: the sum of the values above the
 * k-th largest @t, in units, split as sum (units >> 32) and sum (units &
 * 0xffffffff), and how many they are (@above). */
gdouble      vh_cambi_topk_finish       (guint64 sum_hi, guint64 sum_lo,
                                         guint64 above, gfloat t, guint64 k);

/* Mean of the vh_cambi_topk_count() largest values; reorders @values. */
gdouble      vh_cambi_topk_mean         (gfloat * values, gsize n,
                                         gdouble topk);

/* @v (a c value) in units of 2^-VH_CAMBI_UNIT_BITS. */
static inline guint64
vh_cambi_units (gfloat v)
{
  union
  {
    gfloat f;
    guint32 u;
  } bits = {.f = v };
  guint32 exponent = bits.u >> 23;
  guint64 mantissa = (bits.u & 0x7fffff) | 0x800000;
  /* 2^(exponent - 150) * mantissa = units * 2^-36 */
  gint shift = (gint) exponent - (150 - VH_CAMBI_UNIT_BITS);

  if (v == 0.0f)
    return 0;
  return shift >= 0 ? mantissa << shift : mantissa >> -shift;
}

/* cambi-heatmap.c */
typedef struct
{
  gchar *dir;
  guint w, h;
  FILE *files[VH_CAMBI_NUM_SCALES];
} VhCambiHeatmaps;

/* Creates @dir; one file per scale for an encoding size of @w x @h
 * follows with the first frame written. */
gboolean     vh_cambi_heatmaps_open     (VhCambiHeatmaps * hm,
                                         const gchar * dir, guint w, guint h,
                                         GError ** error);

/* Writes one scale's @w x @h c values as frame @frame of its file. */
gboolean     vh_cambi_heatmaps_write    (VhCambiHeatmaps * hm,
                                         const VhCambiContrast * c,
                                         guint scale, guint window,
                                         const gfloat * c_values, guint w,
                                         guint h, guint frame,
                                         GError ** error);

void         vh_cambi_heatmaps_close    (VhCambiHeatmaps * hm);

G_END_DECLS

#endif /* __VH_CAMBI_PRIVATE_H__ */
