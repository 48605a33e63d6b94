/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What float motion shares with its HIP twin: outputs, options, plane
 * sizes and the spacing of their rows, the checks of each frame, and
 * everything from a frame's score on (motion2 = the smaller of the
 * neighbouring scores, motion3 = blended). The twins differ only in where
 * the blur and the sums of absolute differences are computed. */

#ifndef __VH_FLOAT_MOTION_H__
#define __VH_FLOAT_MOTION_H__

#include "feature-extractor.h"

G_BEGIN_DECLS

extern const gchar *const vh_float_motion_provides[];
extern const VhOptionSpec vh_float_motion_options[];

/* libvmaf's float rows are padded to 32 bytes. */
#define VH_FLOAT_MOTION_ALIGN8(n) (((gsize) (n) + 7) & ~(gsize) 7)

typedef struct
{
  guint w, h;
  const gfloat *filter;
  guint fw;
  /* Per plane (luma, then chroma with motion_add_uv). */
  guint n_planes;
  guint pw[3], ph[3];
  gsize stride[3];              /* floats between rows of a blurred plane */
  /* motion_add_scale1: both blurred planes halved (bilinear) too. */
  gboolean add_scale1;

  gboolean debug;
  gboolean force_zero;
  gdouble fps_weight;
  gdouble blend_factor;
  gdouble blend_offset;
  gdouble max_val;

  guint n_seen;                 /* frames of this sequence whose score is in */
  guint last;                   /* index of the last of them */
  gdouble score;                /* motion of the last frame */
  gboolean failed;
} VhFloatMotion;

/* Reads @fex's options and the plane sizes; refuses what cannot be
 * scored. */
gboolean     vh_float_motion_setup       (VhFloatMotion * m,
                                          const VhFeatureExtractor * fex,
                                          const VhPictureInfo * info,
                                          GError ** error);

/* Size of a side halved by motion_add_scale1. */
guint        vh_float_motion_half         (guint n);

/* Row spacing (floats) with which motion_add_scale1 reads plane @p's
 * blurred picture: libvmaf reads a chroma plane's rows a chroma width
 * apart (rounded up to 8 floats) where they lie a luma width apart. */
gsize        vh_float_motion_read_stride  (const VhFloatMotion * m, guint p);

/* A plane's motion from its sum of absolute differences, in single
 * precision as libvmaf divides. */
gfloat       vh_float_motion_mean         (gfloat sum, guint w, guint h);

/* Fails after an earlier failure, or unless @index follows the @n_in
 * frames of this sequence taken so far, the last of them @last_in. */
gboolean     vh_float_motion_check_frame  (const VhFloatMotion * m,
                                           guint index, guint n_in,
                                           guint last_in, GError ** error);

/* Takes frame @index's @score (the sum over planes; ignored for the first
 * frame of a sequence) and appends every value that became final. */
gboolean     vh_float_motion_push         (VhFloatMotion * m,
                                           VhFeatureExtractor * fex,
                                           VhFeatureCollector * fc,
                                           guint index, gdouble score,
                                           GError ** error);

/* End of stream: the last frame's values; the next frame starts a new
 * sequence. */
gboolean     vh_float_motion_finish       (VhFloatMotion * m,
                                           VhFeatureExtractor * fex,
                                           VhFeatureCollector * fc,
                                           GError ** error);

G_END_DECLS

#endif /* __VH_FLOAT_MOTION_H__ */
