/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* The results file (VhResultsFile) on the targets libvmaf's tool takes:
 * regular files rewritten atomically with the umask's mode and the umask
 * left alone, /dev/null, FIFOs with and without a reader, and a reader
 * that goes away. */

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errors.h"
#include "results-file.h"

static gchar *tmpdir;

static VhFeatureCollector *
collector_with_frames (guint n)
{
  VhFeatureCollector *fc = vh_feature_collector_new ();

  for (guint i = 0; i < n; i++)
    vh_feature_collector_append (fc, "vmaf", i, 50.0 + i, NULL);
  return fc;
}

static gchar *
log_text (VhFeatureCollector * fc, const VhOutputInfo * info)
{
  gchar *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream (&buf, &len);

  g_assert_true (vh_output_write_info (fc, VH_OUTPUT_CSV, info, out, NULL));
  fclose (out);
  return buf;
}

/* The umask as /proc says it, read without setting it. */
static guint
current_umask (void)
{
  g_autofree gchar *status = NULL;
  const gchar *line;

  g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL,
          NULL));
  line = strstr (status, "\nUmask:");
  g_assert_nonnull (line);
  return (guint) strtoul (line + 7, NULL, 8);
}

typedef struct
{
  const gchar *path;
  gint done;
} Rewrites;

static gpointer
rewrite_many (gpointer data)
{
  Rewrites *rw = data;
  g_autoptr (VhFeatureCollector) fc = collector_with_frames (3);
  VhOutputInfo info = { 3, 1, 25.0, 0, 0, NULL };
  VhResultsFile *rf = vh_results_file_new (rw->path, VH_OUTPUT_CSV, NULL);

  g_assert_nonnull (rf);
  for (guint i = 0; i < 300; i++)
    g_assert_true (vh_results_file_update (rf, fc, &info, TRUE, NULL));
  vh_results_file_free (rf);
  g_atomic_int_set (&rw->done, 1);
  return NULL;
}

/* A new log gets the mode the umask gives any new file, and the umask is
 * never changed, not even for a moment while another thread writes. */
static void
test_mode_and_umask (void)
{
  g_autofree gchar *path = g_build_filename (tmpdir, "mode.csv", NULL);
  mode_t old = umask (027);
  Rewrites rw = { path, 0 };
  GThread *thread;
  GStatBuf st;
  guint polls = 0;

  g_assert_cmpuint (current_umask (), ==, 027);
  thread = g_thread_new ("rewrite", rewrite_many, &rw);
  while (!g_atomic_int_get (&rw.done)) {
    g_assert_cmpuint (current_umask (), ==, 027);
    polls++;
  }
  g_thread_join (thread);
  g_assert_cmpuint (polls, >, 0);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpuint (st.st_mode & 0777, ==, 0640);
  umask (old);
  g_unlink (path);
}

/* /dev/null takes the log once, without a temporary file beside it. */
static void
test_dev_null (void)
{
  g_autoptr (VhFeatureCollector) fc = collector_with_frames (2);
  VhOutputInfo info = { 2, 1, 25.0, 0, 0, NULL };
  g_autoptr (GError) err = NULL;
  VhResultsFile *rf = vh_results_file_new ("/dev/null", VH_OUTPUT_JSON, &err);

  g_assert_no_error (err);
  g_assert_nonnull (rf);
  g_assert_true (vh_results_file_update (rf, fc, &info, FALSE, &err));
  g_assert_true (vh_results_file_update (rf, fc, &info, TRUE, &err));
  g_assert_no_error (err);
  /* Written once: a second forced write says so. */
  g_assert_false (vh_results_file_update (rf, fc, &info, TRUE, &err));
  g_assert_error (err, VH_ERROR, VH_ERROR_IO);
  g_assert_nonnull (strstr (err->message, "/dev/null"));
  vh_results_file_free (rf);
}

/* A FIFO nobody reads is an error at once, naming the missing reader. */
static void
test_fifo_without_reader (void)
{
  g_autofree gchar *fifo = g_build_filename (tmpdir, "lonely", NULL);
  g_autoptr (GError) err = NULL;
  gint64 start;
  VhResultsFile *rf;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  start = g_get_monotonic_time ();
  rf = vh_results_file_new (fifo, VH_OUTPUT_JSON, &err);
  g_assert_null (rf);
  g_assert_error (err, VH_ERROR, VH_ERROR_IO);
  g_assert_nonnull (strstr (err->message, "no reader"));
  g_assert_nonnull (strstr (err->message, fifo));
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
  g_unlink (fifo);
}

typedef struct
{
  gint fd;
  GString *text;
} Drain;

static gpointer
drain_fifo (gpointer data)
{
  Drain *d = data;
  gchar buf[4096];
  gssize n;

  while ((n = read (d->fd, buf, sizeof (buf))) > 0
      || (n < 0 && errno == EINTR))
    if (n > 0)
      g_string_append_len (d->text, buf, n);
  close (d->fd);
  return NULL;
}

/* A FIFO with its reader gets exactly one log, the last, in order: the
 * updates before it write nothing. */
static void
test_fifo_with_reader (void)
{
  g_autofree gchar *fifo = g_build_filename (tmpdir, "piped", NULL);
  g_autoptr (VhFeatureCollector) fc = collector_with_frames (4);
  VhOutputInfo early = { 2, 1, 25.0, 0, 0, NULL };
  VhOutputInfo last = { 4, 1, 25.0, 0, 0, NULL };
  g_autofree gchar *want = log_text (fc, &last);
  g_autoptr (GError) err = NULL;
  Drain d = { -1, g_string_new (NULL) };
  VhResultsFile *rf;
  GThread *thread;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  d.fd = open (fifo, O_RDONLY | O_NONBLOCK);
  g_assert_cmpint (d.fd, >=, 0);
  rf = vh_results_file_new (fifo, VH_OUTPUT_CSV, &err);
  g_assert_no_error (err);
  /* The writer is there now: the reader may wait for data. */
  fcntl (d.fd, F_SETFL, fcntl (d.fd, F_GETFL) & ~O_NONBLOCK);
  thread = g_thread_new ("drain", drain_fifo, &d);
  vh_results_file_set_interval (rf, 1);
  g_usleep (2000);
  g_assert_true (vh_results_file_update (rf, fc, &early, FALSE, &err));
  g_assert_true (vh_results_file_update (rf, fc, &last, TRUE, &err));
  g_assert_no_error (err);
  vh_results_file_free (rf);
  g_thread_join (thread);
  g_assert_cmpstr (d.text->str, ==, want);
  g_string_free (d.text, TRUE);
  g_unlink (fifo);
}

/* A reader that goes away before the log is written: an error naming the
 * broken pipe, not a process killed by SIGPIPE. */
static void
test_reader_gone (void)
{
  g_autofree gchar *fifo = g_build_filename (tmpdir, "gone", NULL);
  g_autoptr (VhFeatureCollector) fc = collector_with_frames (2);
  VhOutputInfo info = { 2, 1, 25.0, 0, 0, NULL };
  g_autoptr (GError) err = NULL;
  VhResultsFile *rf;
  gint reader;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  reader = open (fifo, O_RDONLY | O_NONBLOCK);
  g_assert_cmpint (reader, >=, 0);
  rf = vh_results_file_new (fifo, VH_OUTPUT_CSV, &err);
  g_assert_no_error (err);
  close (reader);
  g_assert_false (vh_results_file_update (rf, fc, &info, TRUE, &err));
  g_assert_error (err, VH_ERROR, VH_ERROR_IO);
  g_assert_nonnull (strstr (err->message, g_strerror (EPIPE)));
  vh_results_file_free (rf);
  g_unlink (fifo);
}

/* A directory is named as such. */
static void
test_directory (void)
{
  g_autoptr (GError) err = NULL;

  g_assert_null (vh_results_file_new (tmpdir, VH_OUTPUT_CSV, &err));
  g_assert_error (err, VH_ERROR, VH_ERROR_IO);
  g_assert_nonnull (strstr (err->message, "directory"));
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("vh-results-file-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);
  g_test_add_func ("/results-file/mode-and-umask", test_mode_and_umask);
  g_test_add_func ("/results-file/dev-null", test_dev_null);
  g_test_add_func ("/results-file/fifo-without-reader",
      test_fifo_without_reader);
  g_test_add_func ("/results-file/fifo-with-reader", test_fifo_with_reader);
  g_test_add_func ("/results-file/reader-gone", test_reader_gone);
  g_test_add_func ("/results-file/directory", test_directory);
  ret = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return ret;
}
