/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The element's self-test (self-test=true): the check of
 * vmafhip-score --self-test, run when the element starts on a GPU, its
 * verdict on the bus. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipselftest.h"

#include "hip-self-test.h"

GST_DEBUG_CATEGORY_EXTERN (gst_vmaf_hip_compare_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_compare_debug

static void
post_verdict (GstElement * element, const gchar * device, gboolean passed,
    const gchar * failed, GPtrArray * lines)
{
  GstStructure *s = gst_structure_new ("vmaf-self-test",
      "device", G_TYPE_STRING, device,
      "passed", G_TYPE_BOOLEAN, passed,
      "failed", G_TYPE_STRING, failed, NULL);
  GValue results = G_VALUE_INIT;

  gst_value_array_init (&results, lines ? lines->len : 0);
  for (guint i = 0; lines && i < lines->len; i++) {
    GValue v = G_VALUE_INIT;
    g_value_init (&v, G_TYPE_STRING);
    g_value_set_string (&v, g_ptr_array_index (lines, i));
    gst_value_array_append_and_take_value (&results, &v);
  }
  gst_structure_take_value (s, "results", &results);
  gst_element_post_message (element,
      gst_message_new_element (GST_OBJECT (element), s));
}

VhExtractorSet *
gst_vmaf_hip_self_test (GstElement * element, VhPictureTransfer * transfer)
{
  g_autoptr (VhHipSelfTest) test = NULL;
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) failed = NULL;
  g_autofree gchar *failed_list = NULL;
  gint64 start = g_get_monotonic_time ();

  /* every twin: no name to refuse */
  test = vh_hip_self_test_run (transfer, NULL, NULL);
  for (guint i = 0; i < test->results->len; i++) {
    gchar *line = vh_hip_self_test_result_line (&g_array_index
        (test->results, VhHipSelfTestResult, i));
    GST_INFO_OBJECT (element, "self-test: %s", line);
    g_ptr_array_add (lines, line);
  }
  failed = vh_hip_self_test_failed (test);
  failed_list = g_strjoinv (", ", failed);
  GST_INFO_OBJECT (element, "self-test on %s: %u of %u failed (%.2f s)",
      test->device_line, test->n_failed, test->results->len,
      (g_get_monotonic_time () - start) / 1e6);
  post_verdict (element, test->device_line, test->n_failed == 0, failed_list,
      lines);
  if (test->n_failed == 0)
    return NULL;
  GST_ELEMENT_WARNING (element, RESOURCE, FAILED,
      ("The GPU self-test failed for %s: %s run on the CPU instead.",
          failed_list, test->n_failed > 1 ? "these features" :
          "this feature"), ("%s", test->device_line));
  return vh_hip_extractor_set_without ((const gchar * const *) failed);
}

void
gst_vmaf_hip_self_test_no_gpu (GstElement * element, const gchar * why)
{
  g_autofree gchar *device = g_strdup_printf ("none: %s", why);

  GST_INFO_OBJECT (element, "self-test: no GPU to test (%s)", why);
  post_verdict (element, device, TRUE, "", NULL);
}
