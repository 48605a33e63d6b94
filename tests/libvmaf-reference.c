/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "libvmaf-reference.h"
#include "feature-extractor.h"
#include "golden.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

/* tests/data: $VH_TEST_DATA, else beside this source (meson runs tests
 * from the build directory, which the relative __FILE__ starts from). */
static gchar *
data_path (const gchar * name)
{
  const gchar *env = g_getenv ("VH_TEST_DATA");
  g_autofree gchar *here = g_path_get_dirname (__FILE__);

  if (env)
    return g_build_filename (env, name, NULL);
  return g_build_filename (here, "data", name, NULL);
}

/* "name=opt=val:opt=val" -> a new extractor with those options. */
static VhFeatureExtractor *
extractor_from_spec (const gchar * spec)
{
  g_auto (GStrv) head = g_strsplit (spec, "=", 2);
  const VhFeatureExtractorClass *klass =
      vh_feature_extractor_find (head[0], VH_BACKEND_CPU);
  VhFeatureExtractor *fex;

  if (!klass)
    g_error ("no extractor '%s'", head[0]);
  fex = vh_feature_extractor_new (klass);
  if (head[1]) {
    g_auto (GStrv) opts = g_strsplit (head[1], ":", -1);
    for (guint i = 0; opts[i]; i++) {
      g_auto (GStrv) kv = g_strsplit (opts[i], "=", 2);
      GError *error = NULL;
      g_assert_nonnull (kv[1]);
      if (!vh_feature_extractor_set_option (fex, kv[0], kv[1], &error))
        g_error ("%s", error->message);
    }
  }
  return fex;
}

gdouble
vh_libvmaf_reference_check (const gchar * data_file, const gchar * pair_name,
    gdouble tolerance, guint cpu_mask)
{
  g_autofree gchar *path = data_path (data_file);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GPtrArray) pairs = vh_golden_pairs ();
  g_autoptr (VhFeatureCollector) fc = vh_feature_collector_new ();
  g_autoptr (VhFeatureExtractor) fex = NULL;
  const VhGoldenPair *pair = vh_golden_pair_find (pairs, pair_name);
  GError *error = NULL;
  JsonObject *root;
  JsonArray *frames;
  guint n_frames, n_names = 0;
  gdouble max_diff = 0;

  if (!pair)
    return -1;
  if (!json_parser_load_from_file (parser, path, &error))
    g_error ("%s: %s", path, error->message);
  root = json_node_get_object (json_parser_get_root (parser));
  frames = json_object_get_array_member (root, "frames");
  n_frames = json_array_get_length (frames);
  g_assert_cmpuint (n_frames, >, 0);
  g_assert_cmpuint (n_frames, <=, pair->n_frames);
  fex = extractor_from_spec (json_object_get_string_member (root,
          "feature"));
  fex->cpu_mask = cpu_mask;

  for (guint i = 0; i < n_frames; i++) {
    g_autoptr (VhPicture) ref = vh_golden_read_frame (pair, TRUE, i, &error);
    g_autoptr (VhPicture) dist = vh_golden_read_frame (pair, FALSE, i, &error);

    g_assert_no_error (error);
    if (i == 0 && !vh_feature_extractor_init (fex, &ref->info, &error))
      g_error ("%s", error->message);
    if (!vh_feature_extractor_extract (fex, ref, dist, i, fc, &error))
      g_error ("%s", error->message);
  }
  if (!vh_feature_extractor_flush (fex, fc, &error))
    g_error ("%s", error->message);

  for (guint i = 0; i < n_frames; i++) {
    JsonObject *m = json_object_get_object_member
        (json_array_get_object_element (frames, i), "metrics");
    g_autoptr (GList) names = json_object_get_members (m);

    if (i == 0)
      n_names = g_list_length (names);
    for (GList * l = names; l; l = l->next) {
      gdouble want = json_object_get_double_member (m, l->data), got;

      if (!vh_feature_collector_get (fc, l->data, i, &got))
        g_error ("%s: no %s for frame %u", data_file, (gchar *) l->data, i);
      max_diff = MAX (max_diff, fabs (got - want));
      if (!(fabs (got - want) <= tolerance))
        g_error ("%s frame %u %s: got %.6f, libvmaf %.6f", data_file, i,
            (gchar *) l->data, got, want);
    }
  }
  /* Nothing beyond what libvmaf printed. */
  g_assert_cmpuint (vh_feature_collector_n_features (fc), ==, n_names);
  g_print ("%-52s max |diff| %.2e\n", data_file, max_diff);
  return max_diff;
}
