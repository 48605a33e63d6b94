/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The feature-request parser that the CLI and the element share. */

#include "feature-spec.h"
#include "errors.h"

static void
test_parse (void)
{
  VhFeatureSpec spec;
  GError *error = NULL;

  g_assert_true (vh_feature_spec_parse (&spec, "psnr", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (spec.name, ==, "psnr");
  g_assert_null (spec.options[0]);
  vh_feature_spec_clear (&spec);

  /* trimmed, alias resolved, options in order */
  g_assert_true (vh_feature_spec_parse (&spec,
          " MS-SSIM =enable_lcs=true:enable_db=false", &error));
  g_assert_cmpstr (spec.name, ==, "float_ms_ssim");
  g_assert_cmpuint (g_strv_length (spec.options), ==, 4);
  g_assert_cmpstr (spec.options[0], ==, "enable_lcs");
  g_assert_cmpstr (spec.options[1], ==, "true");
  g_assert_cmpstr (spec.options[2], ==, "enable_db");
  g_assert_cmpstr (spec.options[3], ==, "false");
  vh_feature_spec_clear (&spec);

  /* a value may hold '=' */
  g_assert_true (vh_feature_spec_parse (&spec, "cambi=heatmaps_path=a=b",
          &error));
  g_assert_cmpstr (spec.options[1], ==, "a=b");
  vh_feature_spec_clear (&spec);
}

static void
test_refused (void)
{
  const gchar *bad[] = { "", "  ", "=x=1", "psnr=enable_chroma",
    "psnr==1", "psnr=enable_chroma=true:", "psnr=\xc3\xa9=1", NULL
  };

  for (guint i = 0; bad[i]; i++) {
    VhFeatureSpec spec;
    GError *error = NULL;
    g_assert_false (vh_feature_spec_parse (&spec, bad[i], &error));
    g_assert_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT);
    g_test_message ("'%s': %s", bad[i], error->message);
    g_error_free (error);
    g_assert_null (spec.name);
    g_assert_null (spec.options);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/feature-spec/parse", test_parse);
  g_test_add_func ("/feature-spec/refused", test_refused);
  return g_test_run ();
}
