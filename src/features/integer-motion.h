/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What integer motion shares with its HIP twin: outputs, options, the
 * checks of each frame, and everything from a frame's SAD on (the score,
 * then motion2 and motion3 once the neighbours' SADs are known). The twins
 * differ only in where the SAD is computed. */

#ifndef __VH_INTEGER_MOTION_H__
#define __VH_INTEGER_MOTION_H__

#include "feature-extractor.h"

G_BEGIN_DECLS

extern const gchar *const vh_integer_motion_provides[];
extern const VhOptionSpec vh_integer_motion_options[];

/* An instance's stream, options and temporal bookkeeping. */
typedef struct
{
  guint w, h, bpc;
  gsize bps;                    /* bytes per sample */

  gboolean force_zero;
  gboolean five_frame_window;
  gboolean moving_average;
  gboolean debug;
  gdouble blend_factor;
  gdouble blend_offset;
  gdouble fps_weight;
  gdouble max_val;
  guint n_slots;                /* luma buffers kept: 2, or 3 for the window */

  guint base;                   /* index of the first frame of the sequence */
  guint n_seen;                 /* frames whose SAD is in */
  guint n_final;                /* frames whose motion2/motion3 are out */
  gdouble sad_hist[4];          /* SAD scores, slot = index % 4 */
  gdouble stamp;                /* motion3 of the frames before min_idx */
  gdouble prev_processed;
  gboolean failed;
} VhIntegerMotion;

/* Checks @info's depth and reads @fex's options. */
gboolean     vh_integer_motion_setup     (VhIntegerMotion * m,
                                          const VhFeatureExtractor * fex,
                                          const VhPictureInfo * info,
                                          GError ** error);

/* The first frame that has a SAD: 1, or 2 with the five-frame window. */
guint        vh_integer_motion_min_idx   (const VhIntegerMotion * m);

/* How many frames back the SAD looks. */
guint        vh_integer_motion_back      (const VhIntegerMotion * m);

/* Checks that @ref is frame @frame, the next after the @n_in frames taken
 * so far (the first sets the base), of the stream's size and depth; fails
 * for good after an earlier failure. */
gboolean     vh_integer_motion_check_frame (VhIntegerMotion * m,
                                            const VhPicture * ref,
                                            guint frame, guint n_in,
                                            GError ** error);

/* Takes frame @frame's @sad (ignored where the frame has none) and appends
 * its score and every value that became final. */
gboolean     vh_integer_motion_push      (VhIntegerMotion * m,
                                          VhFeatureExtractor * fex,
                                          VhFeatureCollector * fc,
                                          guint frame, guint64 sad,
                                          GError ** error);

/* End of stream: the values still held back. */
gboolean     vh_integer_motion_finish    (VhIntegerMotion * m,
                                          VhFeatureExtractor * fex,
                                          VhFeatureCollector * fc,
                                          GError ** error);

G_END_DECLS

#endif /* __VH_INTEGER_MOTION_H__ */
