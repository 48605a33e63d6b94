/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What the vmafhip-score tests (test-cli*.c) share. */

#ifndef __VH_CLI_TEST_H__
#define __VH_CLI_TEST_H__

#include "golden.h"
#include "vh-test.h"

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* A folder of this run's files, removed at exit. */
extern gchar *tmpdir;

/* The --backend the parity checks pass (VH_SCORE_BACKEND, else auto). */
extern const gchar *backend;

/* How vmafhip-score ended, and what it wrote. */
typedef struct
{
  gint status;
  gchar *out;
  gchar *err;
} Result;

void         result_clear             (Result * r);

/* Runs VH_SCORE with the arguments up to NULL (@first NULL: none). */
Result       run_score                (const gchar * first, ...);

gboolean     exited_with              (const Result * r, gint code);

/* A moving 8-bit 4:2:0 pattern with edges, frame @t, @w x @h. */
VhPicture   *make_moving_frame        (guint w, guint h, guint t);

/* Appends @pic's samples, plane after plane, row after row. */
void         append_picture           (GString * s, const VhPicture * pic);

gchar       *write_y4m                (const gchar * name, guint w, guint h,
                                       guint bpc, guint n);

/* Exit 1 with each of @needles in stderr; clears @r. */
void         expect_error             (Result r,
                                       const gchar * const *needles);

JsonArray   *load_frames              (JsonParser * parser,
                                       const gchar * path);

/* test-cli-errors.c */
void         test_size_mismatch       (void);
void         test_truncated           (void);
void         test_too_small           (void);
void         test_unknown_model       (void);
void         test_malformed_model     (void);
void         test_model_override      (void);
void         test_unknown_feature     (void);
void         test_shorter_reference   (void);
void         test_bad_input           (void);
void         test_devices             (void);

/* test-cli-io.c */
void         test_pipes               (void);
void         test_stdin               (void);
void         test_output_streams      (void);
void         test_sigterm_keeps_results (void);

G_END_DECLS

#endif /* __VH_CLI_TEST_H__ */
