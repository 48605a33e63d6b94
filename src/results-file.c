/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "results-file.h"
#include "errors.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <stdio.h>
#include <unistd.h>

/* By default the first rewrite comes after this long; later ones wait at
 * least ten times as long as the last rewrite took. */
#define MIN_INTERVAL_US (2 * G_USEC_PER_SEC)

struct _VhResultsFile
{
  gchar *path;
  VhOutputFormat format;
  gint64 last_write;            /* monotonic, us */
  gint64 last_cost;             /* how long the last write took, us */
  gint64 interval;              /* least time between rewrites, us */
};

/* Writes to a temporary file in the same directory, then renames it over
 * @path: readers see the old log or the new one, never half of one. */
static gboolean
write_atomically (VhResultsFile * rf, VhFeatureCollector * fc,
    const VhOutputInfo * info, GError ** error)
{
  g_autofree gchar *dir = g_path_get_dirname (rf->path);
  g_autofree gchar *base = g_path_get_basename (rf->path);
  g_autofree gchar *tmpl = g_strdup_printf ("%s/.%s.XXXXXX", dir, base);
  gint fd = g_mkstemp (tmpl);
  GError *err = NULL;
  FILE *out;
  gboolean ok;

  if (fd < 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "cannot write '%s': %s",
        rf->path, g_strerror (errno));
    return FALSE;
  }
  /* mkstemp makes it 0600; a log is as readable as any new file. */
  {
    mode_t mask = umask (0);
    umask (mask);
    fchmod (fd, 0666 & ~mask);
  }
  out = fdopen (fd, "w");
  if (!out) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "cannot write '%s': %s",
        rf->path, g_strerror (errno));
    close (fd);
    g_unlink (tmpl);
    return FALSE;
  }
  ok = vh_output_write_info (fc, rf->format, info, out, &err);
  if (fclose (out) != 0 && ok) {
    g_set_error (&err, VH_ERROR, VH_ERROR_IO, "%s", g_strerror (errno));
    ok = FALSE;
  }
  if (ok && g_rename (tmpl, rf->path) != 0) {
    g_set_error (&err, VH_ERROR, VH_ERROR_IO, "%s", g_strerror (errno));
    ok = FALSE;
  }
  if (!ok) {
    g_unlink (tmpl);
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "cannot write '%s': %s",
        rf->path, err->message);
    g_error_free (err);
  }
  return ok;
}

VhResultsFile *
vh_results_file_new (const gchar * path, VhOutputFormat format,
    GError ** error)
{
  VhResultsFile *rf = g_new0 (VhResultsFile, 1);
  VhFeatureCollector *empty = vh_feature_collector_new ();
  VhOutputInfo info = { 0, 1, 0.0, 0, 0, NULL };
  GStatBuf st;
  gboolean ok;

  rf->path = g_strdup (path);
  rf->format = format;
  rf->interval = MIN_INTERVAL_US;
  if (g_stat (path, &st) == 0 && !S_ISREG (st.st_mode)) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "cannot write '%s': not a "
        "regular file", path);
    ok = FALSE;
  } else {
    ok = write_atomically (rf, empty, &info, error);
  }
  vh_feature_collector_free (empty);
  if (!ok) {
    vh_results_file_free (rf);
    return NULL;
  }
  rf->last_write = g_get_monotonic_time ();
  return rf;
}

gboolean
vh_results_file_update (VhResultsFile * rf, VhFeatureCollector * fc,
    const VhOutputInfo * info, gboolean force, GError ** error)
{
  gint64 now = g_get_monotonic_time ();
  gboolean ok;

  if (!force && (rf->interval <= 0 || now - rf->last_write < MAX
          (rf->interval, 10 * rf->last_cost)))
    return TRUE;
  ok = write_atomically (rf, fc, info, error);
  rf->last_write = g_get_monotonic_time ();
  rf->last_cost = rf->last_write - now;
  return ok;
}

void
vh_results_file_set_interval (VhResultsFile * rf, gint64 interval_us)
{
  rf->interval = interval_us;
}

void
vh_results_file_free (VhResultsFile * rf)
{
  if (!rf)
    return;
  g_free (rf->path);
  g_free (rf);
}
