/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* Which reference frame each distorted frame is scored against: frame by
 * frame (every k-th frame of the faster input when one Y4M frame rate is
 * k times the other), or by content (--align: a first pass over both
 * files computes signatures for the alignment engine, src/align.h). */
#ifndef __VH_CLI_PAIRING_H__
#define __VH_CLI_PAIRING_H__

#include <glib.h>

#include "cli-options.h"
#include "picture.h"

G_BEGIN_DECLS

typedef struct
{
  guint64 ref;
  guint64 dist;
} VhCliPair;

typedef struct
{
  /* Every ref_step-th reference frame against every dist_step-th
   * distorted frame (frame numbers counted after --frame_skip_*). */
  guint ref_step;
  guint dist_step;
  /* --align: the pairs in order; NULL when frames pair one by one. */
  GArray *pairs;
  guint next;
  /* --align: a line for stderr, and the same for the results file. */
  gchar *summary;
  gchar *log_text;
  gchar *log_json;
} VhCliPairing;

/* Before the files are opened: --align needs regular files (the
 * reference and every -d). */
gboolean     vh_cli_pairing_check_inputs (const VhCliSettings * s,
                                          GError ** error);

/* Decides @p for the reference of @s and the distorted @dist_path (@raw
 * and @dist_raw: their raw geometry, NULL for Y4M); each -d has its own.
 * Refuses frame rates that are no integer multiple of one another,
 * saying how to convert. */
gboolean     vh_cli_pairing_init         (VhCliPairing * p,
                                          const VhCliSettings * s,
                                          const gchar * dist_path,
                                          const VhPictureInfo * raw,
                                          const VhPictureInfo * dist_raw,
                                          GError ** error);

/* The next pair's frame numbers; FALSE when an aligned run has no more
 * (frame-by-frame pairing never ends: the files' ends do). */
gboolean     vh_cli_pairing_next         (VhCliPairing * p, guint n_scored,
                                          guint64 * ref, guint64 * dist);

void         vh_cli_pairing_clear        (VhCliPairing * p);

/* A Y4M file's frame rate (its F tag); FALSE for raw files, pipes and
 * headers without one. */
gboolean     vh_cli_y4m_frame_rate       (const gchar * path, guint * num,
                                          guint * den);

G_END_DECLS

#endif /* __VH_CLI_PAIRING_H__ */
