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
 * tenth of the time (every few seconds at first, rarer as the log grows).
 *
 * What is not a regular file (/dev/null, a pipe, a FIFO) and links under
 * /dev or /proc (/dev/stdout, /dev/fd/N) take the log as libvmaf's tool
 * writes it: once, at the forced update, in order, without a temporary
 * file or a rename. Such a target is opened when the results file is made;
 * a FIFO without waiting for its reader, so that one with no reader is an
 * error at once ("no reader") rather than a hang. The file mode of a new
 * file comes from the umask, which is only read by the kernel: no
 * process-wide state is changed, so any number of threads may write their
 * own results files at once. */
typedef struct _VhResultsFile VhResultsFile;

/* The least time between two rewrites unless set otherwise. */
#define VH_RESULTS_FILE_DEFAULT_INTERVAL_US (2 * G_USEC_PER_SEC)

/* Checks that @path can be written (before any scoring) by writing an
 * empty log there, or for a stream by opening it. Errors name the path. */
VhResultsFile *vh_results_file_new      (const gchar * path,
                                         VhOutputFormat format,
                                         GError ** error);

/* Whether @path is taken as a stream (written once, kept open from
 * vh_results_file_new() on) rather than rewritten as a regular file. */
gboolean     vh_results_file_is_stream  (const gchar * path);

/* Rewrites the file if enough time passed since the last write, or always
 * with @force (at the end of a run). A stream is written by the first
 * forced update only; a second one is an error. */
gboolean     vh_results_file_update     (VhResultsFile * rf,
                                         VhFeatureCollector * fc,
                                         const VhOutputInfo * info,
                                         gboolean force, GError ** error);

/* The least time between two rewrites during a run
 * (VH_RESULTS_FILE_DEFAULT_INTERVAL_US unless set); 0
 * or less: rewritten only when forced. Rewrites also wait ten times as
 * long as the last one took. */
void         vh_results_file_set_interval (VhResultsFile * rf,
                                         gint64 interval_us);

void         vh_results_file_free       (VhResultsFile * rf);

G_END_DECLS

#endif /* __VH_RESULTS_FILE_H__ */
