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
#include "gstvmafhiplevels.h"
#include "results-file.h"

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
  gint failed;                  /* atomic: a write failed, said once */
  gchar *percentiles;           /* NULL: none */
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
  g_free (results->filename);
  g_free (results->percentiles);
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

/* A regular file is written with the first frame: opened now without
 * truncating, and removed again if this made it. */
static gboolean
check_regular_file (GstVmafHipResults * results)
{
  const gchar *path = results->filename;
  gboolean existed = g_file_test (path, G_FILE_TEST_EXISTS);
  gint fd = g_open (path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0666);

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

void
gst_vmaf_hip_results_set_percentiles (GstVmafHipResults * results,
    const gchar * list)
{
  g_free (results->percentiles);
  results->percentiles = g_strdup (list);
}

/* results-percentiles: the list into the run report, or an error. */
static gboolean
add_percentiles (GstVmafHipResults * results, GstVmafHipReport * report)
{
  GArray *values = g_array_new (FALSE, FALSE, sizeof (gdouble));
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GError *err = NULL;
  gboolean ok = gst_vmaf_hip_parse_levels (results->percentiles,
      "percentiles", "p", values, names, &err);

  if (ok)
    vh_run_report_set_percentiles (gst_vmaf_hip_report_run (report),
        (const gdouble *) values->data,
        (const gchar * const *) names->pdata, values->len);
  else
    GST_ELEMENT_ERROR (results->element, LIBRARY, SETTINGS,
        ("Invalid %s", err->message), (NULL));
  g_clear_error (&err);
  g_array_unref (values);
  g_ptr_array_unref (names);
  return ok;
}

GstVmafHipReport *
gst_vmaf_hip_results_make_report (GstVmafHipResults * results)
{
  const gchar *path = results->filename;
  /* Made late, by the first update once a frame is scored, so that a run
   * that scores nothing leaves no file. A stream (/dev/null, /dev/stdout,
   * a pipe or a FIFO) is opened by the run report now and held, so that a
   * FIFO's reader waits for the one write at the end; opened without
   * waiting, so that a FIFO without a reader fails here. */
  const VhRunReportConfig config = { path, output_format (results->format),
    (gint64) results->interval * 1000, TRUE
  };
  GstVmafHipReport *report;
  GError *err = NULL;

  g_atomic_int_set (&results->failed, 0);
  report = gst_vmaf_hip_report_new (&config, &err);
  if (report && !add_percentiles (results, report)) {
    gst_vmaf_hip_report_free (report);
    return NULL;
  }
  if (!report) {
    GST_ELEMENT_ERROR (results->element, RESOURCE, OPEN_WRITE,
        ("Cannot write the results file \"%s\": %s", path, err->message),
        ("results-filename, checked before scoring"));
    g_error_free (err);
    return NULL;
  }
  if (path && !vh_results_file_is_stream (path) &&
      !check_regular_file (results)) {
    gst_vmaf_hip_report_free (report);
    return NULL;
  }
  return report;
}

gboolean
gst_vmaf_hip_results_update (GstVmafHipResults * results,
    GstVmafHipReport * report, gboolean force)
{
  GError *err = NULL;

  if (!results->filename)
    return TRUE;
  if (g_atomic_int_get (&results->failed))
    return FALSE;
  if (vh_run_report_update_results (gst_vmaf_hip_report_run (report), force,
          &err))
    return TRUE;
  if (g_atomic_int_compare_and_exchange (&results->failed, 0, 1))
    GST_ELEMENT_ERROR (results->element, RESOURCE, OPEN_WRITE,
        ("Could not write the results file \"%s\".", results->filename),
        ("%s", err->message));
  g_error_free (err);
  return FALSE;
}
