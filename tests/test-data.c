/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "test-data.h"

gchar *
vh_test_data_path (const gchar * name)
{
  const gchar *env = g_getenv ("VH_TEST_DATA");
  g_autofree gchar *here = g_path_get_dirname (__FILE__);
  gchar *path;

  if (env)
    path = g_build_filename (env, name, NULL);
  else if (g_path_is_absolute (here))
    path = g_build_filename (here, "data", name, NULL);
  else {
    /* Relative to the build directory: the tests' working directory under
     * meson, and the parent of the directory holding this executable. */
    path = g_build_filename (here, "data", name, NULL);
    if (!g_file_test (path, G_FILE_TEST_IS_REGULAR)) {
      g_free (path);
      path = g_build_filename (g_test_get_dir (G_TEST_BUILT), "..", here,
          "data", name, NULL);
    }
  }
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    g_error ("test data '%s' not found (set VH_TEST_DATA to tests/data)", path);
  return path;
}
