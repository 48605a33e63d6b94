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
#include <fcntl.h>
#include <glib/gstdio.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <stdio.h>
#include <unistd.h>

struct _VhResultsFile
{
  gchar *path;
  VhOutputFormat format;
  gint64 last_write;            /* monotonic, us */
  gint64 last_cost;             /* how long the last write took, us */
  gint64 interval;              /* least time between rewrites, us */
  /* Not a regular file (/dev/null, /dev/stdout, a pipe or FIFO): opened
   * at once, written once when forced, then closed. -1 once written. */
  gboolean stream;
  gint stream_fd;
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
  /* Created with mode 0666 by open(2), so that the kernel applies the
   * umask: a log is as readable as any new file, and the process-wide
   * umask is never changed (which would race with other threads). */
  gint fd = g_mkstemp_full (tmpl, O_WRONLY | O_CLOEXEC, 0666);
  GError *err = NULL;
  FILE *out;
  gboolean ok;

  if (fd < 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "cannot write '%s': %s",
        rf->path, g_strerror (errno));
    return FALSE;
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

/* Where the log goes as a stream, written once without a rename: what
 * exists and is not a regular file (/dev/null, a pipe, a FIFO), and a
 * link under /dev or /proc (/dev/stdout, /dev/fd/N, /proc/self/fd/N name
 * another open file: a rename would replace the link, not write to the
 * file behind it). A plain file under /dev/shm is a file like any. */
static gboolean
is_stream_path (const gchar * path, const GStatBuf * st, gboolean exists)
{
  GStatBuf lst;

  if (!exists)
    return FALSE;
  if (!S_ISREG (st->st_mode))
    return TRUE;
  return (g_str_has_prefix (path, "/dev/") || g_str_has_prefix (path,
          "/proc/")) && g_lstat (path, &lst) == 0 && S_ISLNK (lst.st_mode);
}

/* Opens a stream target now, so that a wrong one is said before any
 * scoring. A FIFO is opened without waiting for its reader: with none
 * the open fails at once (ENXIO) instead of hanging, and says so. A
 * regular file reached through /dev/stdout is appended to, so that both
 * "> log" and ">> log" keep what the shell meant. */
static gboolean
open_stream (VhResultsFile * rf, const GStatBuf * st, GError ** error)
{
  gint flags = O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
  gint fd;

  if (S_ISDIR (st->st_mode) || S_ISSOCK (st->st_mode)) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "cannot write '%s': it is a "
        "%s, not a file, device, pipe or FIFO", rf->path,
        S_ISDIR (st->st_mode) ? "directory" : "socket");
    return FALSE;
  }
  if (S_ISREG (st->st_mode))
    flags |= O_APPEND;
  fd = open (rf->path, flags);
  if (fd < 0 && errno == ENXIO && S_ISFIFO (st->st_mode)) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "cannot write '%s': the "
        "FIFO has no reader (it is opened without waiting: start the "
        "reader first)", rf->path);
    return FALSE;
  }
  if (fd < 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "cannot write '%s': %s",
        rf->path, g_strerror (errno));
    return FALSE;
  }
  /* The reader is there: the write may wait for it as any write does. */
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  rf->stream_fd = fd;
  return TRUE;
}

/* The one write to a stream. A reader that went away makes it fail with
 * EPIPE rather than end the process: SIGPIPE is blocked in this thread
 * for the write (a per-thread mask, nothing process-wide), and the one
 * the write raised is taken back before it is unblocked. */
static gboolean
write_stream (VhResultsFile * rf, VhFeatureCollector * fc,
    const VhOutputInfo * info, GError ** error)
{
  const struct timespec no_wait = { 0, 0 };
  sigset_t pipe_set, old_set, pending;
  gboolean was_pending;
  GError *err = NULL;
  FILE *out;
  gboolean ok;

  sigemptyset (&pipe_set);
  sigaddset (&pipe_set, SIGPIPE);
  pthread_sigmask (SIG_BLOCK, &pipe_set, &old_set);
  sigpending (&pending);
  was_pending = sigismember (&pending, SIGPIPE);

  out = fdopen (rf->stream_fd, "w");
  if (!out) {
    g_set_error (&err, VH_ERROR, VH_ERROR_IO, "%s", g_strerror (errno));
    close (rf->stream_fd);
    ok = FALSE;
  } else {
    ok = vh_output_write_info (fc, rf->format, info, out, &err);
    if (fclose (out) != 0 && ok) {
      g_set_error (&err, VH_ERROR, VH_ERROR_IO, "%s", g_strerror (errno));
      ok = FALSE;
    }
  }
  rf->stream_fd = -1;

  if (!was_pending)
    sigtimedwait (&pipe_set, NULL, &no_wait);
  pthread_sigmask (SIG_SETMASK, &old_set, NULL);
  if (!ok) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "cannot write '%s': %s",
        rf->path, err->message);
    g_error_free (err);
  }
  return ok;
}

gboolean
vh_results_file_is_stream (const gchar * path)
{
  GStatBuf st;

  return is_stream_path (path, &st, g_stat (path, &st) == 0);
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
  rf->interval = VH_RESULTS_FILE_DEFAULT_INTERVAL_US;
  rf->stream_fd = -1;
  rf->stream = is_stream_path (path, &st, g_stat (path, &st) == 0);
  if (rf->stream) {
    ok = open_stream (rf, &st, error);
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

  /* A stream is written once, when forced; it cannot be written again. */
  if (rf->stream && !force)
    return TRUE;
  if (rf->stream && rf->stream_fd < 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "cannot write '%s' again: "
        "it is not a regular file, and was written once", rf->path);
    return FALSE;
  }
  if (rf->stream)
    return write_stream (rf, fc, info, error);
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
  if (rf->stream_fd >= 0)
    close (rf->stream_fd);
  g_free (rf->path);
  g_free (rf);
}
