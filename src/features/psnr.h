/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What integer PSNR shares with its HIP twin: outputs, options, the
 * regions measured, and libvmaf's peak and saturation arithmetic on the
 * sums of squared errors; the twins differ only in where they sum. */

#ifndef __VH_PSNR_H__
#define __VH_PSNR_H__

#include "feature-extractor.h"

G_BEGIN_DECLS

extern const gchar *const vh_psnr_provides[];
extern const VhOptionSpec vh_psnr_options[];

/* An instance's options and what follows from them. */
typedef struct
{
  gboolean enable_mse;
  guint n_planes;
  guint width[3];               /* region measured per plane */
  guint height[3];
  guint32 peak;
  gdouble psnr_max[3];
  gboolean enable_apsnr;
  guint64 apsnr_sse[3];         /* stream totals for the aggregate */
  guint64 apsnr_n[3];
} VhPsnr;

/* Checks @info's depth and @fex's options, and sets up @psnr for @info. */
gboolean     vh_psnr_setup               (VhPsnr * psnr,
                                          const VhFeatureExtractor * fex,
                                          const VhPictureInfo * info,
                                          GError ** error);

/* Fails unless both pictures have the stream's format. */
gboolean     vh_psnr_check_frame         (const VhFeatureExtractor * fex,
                                          const VhPicture * ref,
                                          const VhPicture * dist,
                                          guint index, GError ** error);

/* Appends frame @index's values from the sums of squared errors of the
 * measured planes. */
gboolean     vh_psnr_append              (VhFeatureExtractor * fex,
                                          VhPsnr * psnr,
                                          const guint64 * sse, guint index,
                                          VhFeatureCollector * fc,
                                          GError ** error);

/* enable_apsnr needs every frame in one instance: the temporal lane. */
gboolean     vh_psnr_is_temporal         (const VhFeatureExtractor * fex);

/* End of stream: sets apsnr_y, apsnr_cb, apsnr_cr when enabled. */
void         vh_psnr_flush_aggregates    (const VhPsnr * psnr,
                                          VhFeatureCollector * fc);

G_END_DECLS

#endif /* __VH_PSNR_H__ */
