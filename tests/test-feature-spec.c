/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The feature-request parser that the CLI and the element share. */

#include "feature-colorimetry.h"
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

/* The options after the user's, joined "k=v:k=v" ("" for none). */
static gchar *
added_options (const gchar * text, const VhColorimetry * ref,
    const VhColorimetry * dist, gboolean * depends)
{
  VhFeatureSpec spec, user;
  GString *out = g_string_new (NULL);
  guint n;

  g_assert_true (vh_feature_spec_parse (&spec, text, NULL));
  g_assert_true (vh_feature_spec_parse (&user, text, NULL));
  n = g_strv_length (user.options);
  *depends = vh_feature_spec_add_colorimetry (&spec, ref, dist);
  for (guint i = 0; i < n; i++)
    g_assert_cmpstr (spec.options[i], ==, user.options[i]);
  for (guint i = n; spec.options[i]; i += 2)
    g_string_append_printf (out, "%s%s=%s", out->len ? ":" : "",
        spec.options[i], spec.options[i + 1]);
  vh_feature_spec_clear (&spec);
  vh_feature_spec_clear (&user);
  return g_string_free (out, FALSE);
}

static void
test_colorimetry (void)
{
  const VhColorimetry bt601_full = { VH_COLOR_MATRIX_BT601,
    VH_COLOR_RANGE_FULL
  };
  const VhColorimetry bt2020 = { VH_COLOR_MATRIX_BT2020,
    VH_COLOR_RANGE_LIMITED
  };
  const VhColorimetry unknown = { VH_COLOR_MATRIX_UNKNOWN,
    VH_COLOR_RANGE_UNKNOWN
  };
  gboolean depends;
  gchar *added;

  /* each input its own, where no option says */
  added = added_options ("ssimulacra2", &bt601_full, &bt2020, &depends);
  g_assert_cmpstr (added, ==, "matrix=bt601:range=full:"
      "dist_matrix=bt2020:dist_range=limited");
  g_assert_true (depends);
  g_free (added);
  /* matrix given: it holds for both inputs; the range still follows */
  added = added_options ("ssimulacra2=matrix=bt709", &bt601_full, &bt2020,
      &depends);
  g_assert_cmpstr (added, ==, "range=full:dist_range=limited");
  g_assert_true (depends);
  g_free (added);
  /* everything given: nothing depends on the inputs */
  added = added_options ("ssimulacra2=matrix=bt709:range=limited",
      &bt601_full, &bt2020, &depends);
  g_assert_cmpstr (added, ==, "");
  g_assert_false (depends);
  g_free (added);
  /* only the distorted's given */
  added = added_options ("ssimulacra2=dist_matrix=bt709:dist_range=full",
      &bt601_full, &bt2020, &depends);
  g_assert_cmpstr (added, ==, "matrix=bt601:range=full");
  g_assert_true (depends);
  g_free (added);
  /* unknown adds nothing (the default), but still depends */
  added = added_options ("ssimulacra2", &unknown, NULL, &depends);
  g_assert_cmpstr (added, ==, "");
  g_assert_true (depends);
  g_free (added);
  /* other features take no colorimetry */
  added = added_options ("psnr=enable_chroma=true", &bt601_full, &bt2020,
      &depends);
  g_assert_cmpstr (added, ==, "");
  g_assert_false (depends);
  g_free (added);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/feature-spec/parse", test_parse);
  g_test_add_func ("/feature-spec/refused", test_refused);
  g_test_add_func ("/feature-spec/colorimetry", test_colorimetry);
  return g_test_run ();
}
