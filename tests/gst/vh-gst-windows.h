/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The statistics a "vmaf-window" message must hold, computed by the test
 * from the "vmaf" messages of the same frames. */

#ifndef __VH_GST_WINDOWS_H__
#define __VH_GST_WINDOWS_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* Checks every statistic of @window (a "vmaf-window" structure) against
 * @frames[@first .. @first + @n) ("vmaf" structures): every double field
 * of the frames but "score" is a metric; @percentiles (with their field
 * names @pnames) and @thresholds (@tnames, model outputs @models only,
 * which also get worst-time). */
void         vh_gst_check_window (const GstStructure * window,
                                  GPtrArray * frames, guint first, guint n,
                                  const gdouble * percentiles,
                                  const gchar * const *pnames,
                                  guint n_percentiles,
                                  const gdouble * thresholds,
                                  const gchar * const *tnames,
                                  guint n_thresholds,
                                  const gchar * const *models);

/* The linear-interpolation percentile (numpy's default) of @n values,
 * written here from its definition. */
gdouble      vh_gst_percentile (const gdouble * values, guint n, gdouble p);

G_END_DECLS

#endif /* __VH_GST_WINDOWS_H__ */
