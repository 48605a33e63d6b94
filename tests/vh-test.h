/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What every test shares on top of GLib's testing framework (see
 * tests/README.md): checks that go on after a failure, case tables
 * registered as one test case a row, and scoring a clip through a
 * context. */

#ifndef __VH_TEST_H__
#define __VH_TEST_H__

#include <glib.h>

#include "context.h"

G_BEGIN_DECLS

/* Exit status that meson counts as a skipped test. A program whose every
 * case needs what is missing (a GPU) exits with it before g_test_run(),
 * since GLib reports a run of skipped cases as a pass. */
#define VH_TEST_SKIP 77

/* A check that records a failure with its message and lets the case go
 * on, for comparisons that should report every mismatch rather than stop
 * at the first; the case fails when it ends. */
#define VH_TEST_CHECK(cond, ...) G_STMT_START { \
    if (G_LIKELY (cond)) { } else \
      vh_test_check_failed (__FILE__, __LINE__, __VA_ARGS__); \
  } G_STMT_END

void         vh_test_check_failed     (const gchar * file, gint line,
                                       const gchar * format, ...)
                                       G_GNUC_PRINTF (3, 4);

/* The name of row @index of a case table (a new string). */
typedef gchar *(*VhTestCaseName) (gconstpointer row, guint index);

/* Registers one case a row of @table (@n_rows rows of @row_size bytes),
 * each at "@prefix/<name>" and run by @func with its row; @name NULL
 * names the rows by index. */
void         vh_test_add_cases        (const gchar * prefix,
                                       gconstpointer table, gsize n_rows,
                                       gsize row_size, VhTestCaseName name,
                                       GTestDataFunc func);

#define VH_TEST_ADD_CASES(prefix, table, name, func) \
  vh_test_add_cases ((prefix), (table), G_N_ELEMENTS (table), \
      sizeof ((table)[0]), (name), (GTestDataFunc) (func))

/* What vh_test_score_clip() submits for a picture (a new reference), for
 * a test that hands the context other memory; NULL submits the picture
 * itself. */
typedef VhPicture *(*VhTestPrepareFunc) (VhPicture * pic);

/* Starts @ctx (its features and models added) on the geometry of the
 * first of @refs, submits each picture of @refs with the one of @dists at
 * the same index, and finishes. FALSE with @error at the first refusal. */
gboolean     vh_test_score_clip       (VhContext * ctx, GPtrArray * refs,
                                       GPtrArray * dists,
                                       VhTestPrepareFunc prepare,
                                       GError ** error);

/* The values of output @name for frames 0 to @n_frames - 1 of @ctx's
 * collector (NaN where a frame has none): a new array of gdouble. */
GArray      *vh_test_collect_values   (VhContext * ctx, const gchar * name,
                                       guint n_frames);

/* A new picture whose every sample of every plane is uniform noise over
 * the whole range of @bpc bits, drawn from @rand plane by plane, row by
 * row. */
VhPicture   *vh_test_noise_picture    (VhPixFmt pix_fmt, guint bpc,
                                       guint width, guint height,
                                       GRand * rand);

/* Removes the folder @path with everything in it (a test's temporary
 * folder); quietly does nothing where there is none. */
void         vh_test_remove_dir       (const gchar * path);

G_END_DECLS

#endif /* __VH_TEST_H__ */
