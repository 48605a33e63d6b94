/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* Resampling of a distorted picture to the reference's size before it is
 * scored (docs/scaling.md). Separable, integer arithmetic in the layout
 * ffmpeg's scale filter uses, so that scores match those of a file that
 * ffmpeg upscaled: 14-bit horizontal coefficients, a 15-bit intermediate
 * (19-bit for 16-bit samples), 12-bit vertical coefficients, edge samples
 * repeated, chroma sited at the centre of its luma samples. */
#ifndef __VH_SCALE_H__
#define __VH_SCALE_H__

#include <glib.h>

#include "picture.h"

G_BEGIN_DECLS

typedef enum
{
  VH_SCALE_NONE = 0,            /* sizes must match (the refusal) */
  VH_SCALE_BICUBIC,             /* ffmpeg's default bicubic: B = 0, C = 0.6 */
  VH_SCALE_BILINEAR,
  VH_SCALE_LANCZOS,             /* 3 lobes */
} VhScaleMethod;

gboolean     vh_scale_method_from_string (const gchar * name,
                                          VhScaleMethod * method);

const gchar *vh_scale_method_to_string   (VhScaleMethod method);

/* One direction of one plane: output sample i is the sum over j < taps of
 * coeff[i * taps + j] * in[CLAMP (first[i] + j, 0, n_in - 1)]. The
 * coefficients of a sample sum to 1 << bits. */
typedef struct
{
  guint n_in;
  guint n_out;
  guint taps;
  guint bits;
  gint32 *first;
  gint16 *coeff;
  /* Vertical filters of 8-bit pictures: from this output row on, the sum
   * is rounded once, as ffmpeg's C code does for the rows that its x86
   * code leaves to it (the rows drawn with the picture's last two luma
   * rows); n_out elsewhere. */
  guint rounded_from;
} VhScaleFilter;

/* The shifts and limits of the two passes for @bpc: the horizontal sum
 * is shifted right by @h_shift and capped at @mid_max; the vertical sum,
 * plus 1 << (@v_shift - 1), is shifted right by @v_shift and clamped to
 * the samples' range (8-bit: see vh_scale_8bit_bias()). */
typedef struct
{
  guint h_shift;
  gint32 mid_max;
  guint v_shift;
  gint32 out_max;
} VhScaleShifts;

void         vh_scale_shifts_for_bpc     (guint bpc, VhScaleShifts * shifts);

/* 8-bit pictures take the vertical pass as ffmpeg's x86 code (its default
 * there) does: each tap's product shifted right by 16, the sum of those
 * from this bias (half a unit a tap, roughly, for the truncations) shifted
 * right by 3 and clamped. @taps: the vertical filter's. */
gint32       vh_scale_8bit_bias          (guint taps);

typedef struct _VhScaler VhScaler;

/* A scaler from pictures of @src to pictures of @dst, which differ only
 * in size (same chroma layout and bit depth). */
VhScaler    *vh_scaler_new               (VhScaleMethod method,
                                          const VhPictureInfo * src,
                                          const VhPictureInfo * dst,
                                          GError ** error);

/* The filter of plane @plane (0 luma, 1 and 2 chroma) in one direction,
 * for a GPU twin to upload. */
const VhScaleFilter *vh_scaler_get_filter (const VhScaler * scaler,
                                          guint plane, gboolean vertical);

const VhPictureInfo *vh_scaler_get_output_info (const VhScaler * scaler);

/* A new host picture of the output size holding @src resampled. @src is
 * a host picture of the input geometry (planar or with interleaved
 * chroma). */
VhPicture   *vh_scaler_scale             (VhScaler * scaler,
                                          const VhPicture * src,
                                          GError ** error);

void         vh_scaler_free              (VhScaler * scaler);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VhScaler, vh_scaler_free)

G_END_DECLS

#endif /* __VH_SCALE_H__ */
