/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* vmafhip-score --self-test: the first command to run on a GPU no one has
 * tried. One line naming the device and how its kernels were loaded, one
 * line per GPU twin (PASS, FAIL or SKIP with why) on stdout. */

#include "cli-self-test.h"

#include "errors.h"
#include "feature-spec.h"

#ifdef VH_HAVE_HIP
#include "hip-self-test.h"
#endif

#include <stdio.h>
#include <string.h>

/* --feature's names (options are not the self-test's to vary). */
static gchar **
twin_names (const VhCliSettings * s, GError ** error)
{
  GPtrArray *names;

  if (!s->features)
    return NULL;
  names = g_ptr_array_new ();
  for (guint i = 0; s->features[i]; i++) {
    VhFeatureSpec spec;
    if (!vh_feature_spec_parse (&spec, s->features[i], error)) {
      g_ptr_array_add (names, NULL);
      g_strfreev ((gchar **) g_ptr_array_free (names, FALSE));
      return NULL;
    }
    g_ptr_array_add (names, g_strdup (spec.name));
    vh_feature_spec_clear (&spec);
  }
  g_ptr_array_add (names, NULL);
  return (gchar **) g_ptr_array_free (names, FALSE);
}

gint
vh_cli_self_test (const VhCliSettings * s)
{
  GError *error = NULL;

  if (s->backend && strcmp (s->backend, "hip") != 0) {
    g_printerr ("vmafhip-score: --self-test checks the GPU: --backend %s "
        "has nothing to check (leave it out, or give hip)\n", s->backend);
    return 2;
  }
  if (s->device < 0) {
    g_printerr ("vmafhip-score: --device %d: expected a GPU index from 0\n",
        s->device);
    return 2;
  }
#ifdef VH_HAVE_HIP
  {
    g_auto (GStrv) twins = twin_names (s, &error);
    g_autoptr (VhHipSelfTest) test = NULL;
    VhContextConfig config = { 0 };
    gint ret;

    if (error) {
      g_printerr ("vmafhip-score: --feature: %s\n", error->message);
      g_error_free (error);
      return 2;
    }
    if (!vh_hip_select_backend (VH_BACKEND_CHOICE_HIP, VH_HIP_VENDOR_UNKNOWN,
            (guint) s->device, &config, NULL, &error)) {
      g_printerr ("vmafhip-score: --self-test: no GPU to test: %s\n",
          error->message);
      g_error_free (error);
      return VH_CLI_SELF_TEST_NO_GPU;
    }
    test = vh_hip_self_test_run (config.transfer,
        (const gchar * const *) twins, &error);
    if (!test) {
      g_printerr ("vmafhip-score: --self-test: %s\n", error->message);
      g_error_free (error);
      vh_picture_transfer_unref (config.transfer);
      return 2;
    }
    printf ("%s\n", test->device_line);
    for (guint i = 0; i < test->results->len; i++) {
      g_autofree gchar *line = vh_hip_self_test_result_line (&g_array_index
          (test->results, VhHipSelfTestResult, i));
      printf ("%s\n", line);
    }
    printf ("%s: %u of %u GPU features failed\n", test->n_failed ?
        "FAILED" : "PASSED", test->n_failed, test->results->len);
    fflush (stdout);
    ret = test->n_failed ? 1 : 0;
    vh_picture_transfer_unref (config.transfer);
    return ret;
  }
#else
  (void) twin_names;
  (void) error;
  g_printerr ("vmafhip-score: --self-test: no GPU to test: this build has "
      "no HIP layer\n");
  return VH_CLI_SELF_TEST_NO_GPU;
#endif
}
