/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The element's results file: its check before scoring, its rewrites and
 * its errors. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipresults.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <glib/gstdio.h>

GST_DEBUG_CATEGORY_EXTERN (gst_vmaf_hip_compare_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_compare_debug

struct _GstVmafHipResults
{
  GstElement *element;          /* not owned */
  gchar *filename;
  GstVmafHipResultsFormat format;
  guint interval;               /* ms */
  /* Made with the first frame (a stream: at the check). */
  VhResultsFile *file;
  gint failed;                  /* atomic: a write failed, said once */
};

GstVmafHipResults *
gst_vmaf_hip_results_new (GstElement * element)
{
  GstVmafHipResults *results = g_new0 (GstVmafHipResults, 1);

  results->element = element;
  return results;
}

void
gst_vmaf_hip_results_free (GstVmafHipResults * results)
{
  if (!results)
    return;
  g_clear_pointer (&results->file, vh_results_file_free);
  g_free (results->filename);
  g_free (results);
}

void
gst_vmaf_hip_results_configure (GstVmafHipResults * results,
    const gchar * filename, GstVmafHipResultsFormat format, guint interval_ms)
{
  g_free (results->filename);
  results->filename = g_strdup (filename);
  results->format = format;
  results->interval = interval_ms;
}

const gchar *
gst_vmaf_hip_results_filename (GstVmafHipResults * results)
{
  return results->filename;
}

static VhOutputFormat
output_format (GstVmafHipResultsFormat f)
{
  switch (f) {
    case GST_VMAF_HIP_RESULTS_XML:
      return VH_OUTPUT_XML;
    case GST_VMAF_HIP_RESULTS_CSV:
      return VH_OUTPUT_CSV;
    case GST_VMAF_HIP_RESULTS_JSON:
    default:
      return VH_OUTPUT_JSON;
  }
}

static gboolean
open_file (GstVmafHipResults * results, GError ** error)
{
  results->file = vh_results_file_new (results->filename,
      output_format (results->format), error);
  if (!results->file)
    return FALSE;
  vh_results_file_set_interval (results->file,
      (gint64) results->interval * 1000);
  return TRUE;
}

gboolean
gst_vmaf_hip_results_check (GstVmafHipResults * results)
{
  const gchar *path = results->filename;
  GError *err = NULL;
  gboolean existed;
  gint fd;

  g_atomic_int_set (&results->failed, 0);
  g_clear_pointer (&results->file, vh_results_file_free);
  if (!path)
    return TRUE;
  /* /dev/null, /dev/stdout, a pipe or a FIFO: opened now and held, so
   * that a FIFO's reader waits for the one write at the end; opened
   * without waiting, so that a FIFO without a reader fails here. */
  if (vh_results_file_is_stream (path)) {
    if (open_file (results, &err))
      return TRUE;
    GST_ELEMENT_ERROR (results->element, RESOURCE, OPEN_WRITE,
        ("Cannot write the results file \"%s\": %s", path, err->message),
        ("results-filename, checked before scoring"));
    g_error_free (err);
    return FALSE;
  }
  /* A regular file is written with the first frame: opened without
   * truncating, and removed again if this made it. */
  existed = g_file_test (path, G_FILE_TEST_EXISTS);
  fd = g_open (path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0666);
  if (fd < 0) {
    gint errsv = errno;
    GST_ELEMENT_ERROR (results->element, RESOURCE, OPEN_WRITE,
        ("Cannot write the results file \"%s\": %s", path,
            g_strerror (errsv)), ("results-filename, checked before "
            "scoring"));
    return FALSE;
  }
  close (fd);
  if (!existed)
    g_unlink (path);
  return TRUE;
}

gboolean
gst_vmaf_hip_results_update (GstVmafHipResults * results,
    GstVmafHipReport * report, const VhOutputInfo * info, gdouble secs,
    gboolean force)
{
  GError *err = NULL;
  gboolean ok;

  if (g_atomic_int_get (&results->failed))
    return FALSE;
  if (!results->file) {
    ok = open_file (results, &err);
    force = TRUE;               /* the first frames at once */
  } else {
    ok = TRUE;
  }
  ok = ok && gst_vmaf_hip_report_update_results (report, results->file,
      info, secs, force, &err);
  if (!ok) {
    g_atomic_int_set (&results->failed, 1);
    GST_ELEMENT_ERROR (results->element, RESOURCE, OPEN_WRITE,
        ("Could not write the results file \"%s\".", results->filename),
        ("%s", err->message));
    g_error_free (err);
  }
  return ok;
}

void
gst_vmaf_hip_results_close (GstVmafHipResults * results)
{
  g_clear_pointer (&results->file, vh_results_file_free);
}
