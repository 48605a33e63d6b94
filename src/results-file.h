/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_RESULTS_FILE_H__
#define __VH_RESULTS_FILE_H__

#include "output.h"

G_BEGIN_DECLS

/* A results file that survives a stop at any moment: each update writes
 * the whole log (the frames so far, pooled over them) beside the file and
 * renames it over the file, so the file is always a complete, valid log.
 * Updates during a run are spaced so that rewriting costs at most about a
 * tenth of the time (every few seconds at first, rarer as the log grows). */
typedef struct _VhResultsFile VhResultsFile;

/* Checks that @path can be written (before any scoring) by writing an
 * empty log there. Errors name the path. */
VhResultsFile *vh_results_file_new      (const gchar * path,
                                         VhOutputFormat format,
                                         GError ** error);

/* Rewrites the file if enough time passed since the last write, or always
 * with @force (at the end of a run). */
gboolean     vh_results_file_update     (VhResultsFile * rf,
                                         VhFeatureCollector * fc,
                                         const VhOutputInfo * info,
                                         gboolean force, GError ** error);

/* The least time between two rewrites during a run (2 s by default); 0
 * or less: rewritten only when forced. Rewrites also wait ten times as
 * long as the last one took. */
void         vh_results_file_set_interval (VhResultsFile * rf,
                                         gint64 interval_us);

void         vh_results_file_free       (VhResultsFile * rf);

G_END_DECLS

#endif /* __VH_RESULTS_FILE_H__ */
