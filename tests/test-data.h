/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __VH_TEST_DATA_H__
#define __VH_TEST_DATA_H__

#include <glib.h>

G_BEGIN_DECLS

/* Path of @name under tests/data (caller frees): $VH_TEST_DATA if set,
 * else found from this file's compile-time path, which meson gives
 * relative to the build directory (the tests' working directory, and the
 * parent of the test executables' directory). Fails the test if the file
 * is missing. Call after g_test_init(). */
gchar       *vh_test_data_path (const gchar * name);

G_END_DECLS

#endif
