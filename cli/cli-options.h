/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* vmafhip-score's command line: libvmaf's options and presets
 * (--aom_ctc, --nflx_ctc), parsed and checked before any file is
 * opened. */
#ifndef __VH_CLI_OPTIONS_H__
#define __VH_CLI_OPTIONS_H__

#include <glib.h>

#include "output.h"
#include "picture.h"
#include "scale.h"

G_BEGIN_DECLS

/* The command line, as parsed (strings owned). */
typedef struct
{
  gchar *ref_path;
  gchar *dist_path;
  gint width;
  gint height;
  gchar *pix_fmt;
  gint bpc;
  /* --dist_w/--dist_h: a raw distorted of another size; --scale */
  gint dist_width;
  gint dist_height;
  gchar *scale;
  gchar **models;
  gchar **features;
  gchar *output;
  gboolean json, xml, csv, sub;
  gint threads;
  gint subsample;
  gint frame_cnt;
  gboolean no_prediction;
  gboolean quiet;
  gboolean version;
  gchar *backend;
  gboolean help;
  gint frame_skip_ref;
  gint frame_skip_dist;
  gchar *cpumask;
  gchar *gpumask;
  /* --align: frames paired by content within --align_window frames */
  gboolean align;
  gint align_window;
  /* What libvmaf's tool prints only on a terminal: progress, scores. */
  gboolean tty;
} VhCliSettings;

/* Parses @argv into @s, the presets expanded in place as libvmaf's tool
 * does. TRUE: go on and score. FALSE: stop with *@exit_status, after the
 * usage (no arguments, --help), the version, or an error naming the
 * option was printed. */
gboolean     vh_cli_settings_parse       (VhCliSettings * s, gint argc,
                                          gchar ** argv, gint * exit_status);

/* The checks that need no file: both inputs named, the raw geometry
 * (all of -w -h -p -b, or none: Y4M is told by its header) into
 * @raw_info with *@have_raw, one results layout into @format, counts in
 * range. */
gboolean     vh_cli_settings_check       (const VhCliSettings * s,
                                          VhPictureInfo * raw_info,
                                          gboolean * have_raw,
                                          VhOutputFormat * format,
                                          GError ** error);

/* The raw distorted's geometry: the reference's @raw_info with
 * --dist_w/--dist_h for its size when given (those need raw input). */
gboolean     vh_cli_settings_dist_geometry (const VhCliSettings * s,
                                          const VhPictureInfo * raw_info,
                                          gboolean have_raw,
                                          VhPictureInfo * dist_info,
                                          GError ** error);

/* The scaler for a distorted of @dist's size scored against @ref: NULL
 * (and TRUE) when the sizes match, when --scale is none or when the
 * formats differ otherwise, for the caller's refusal to say why; FALSE
 * on a bad --scale. *@description ("bicubic from 1280x720") goes into
 * the results file. */
gboolean     vh_cli_settings_make_scaler (const VhCliSettings * s,
                                          const VhPictureInfo * ref,
                                          const VhPictureInfo * dist,
                                          VhScaler ** scaler,
                                          gchar ** description,
                                          GError ** error);

void         vh_cli_settings_clear       (VhCliSettings * s);

/* A libvmaf-style unsigned (--cpumask, --gpumask): decimal, 0x
 * hexadecimal or 0 octal; NULL is 0. */
gboolean     vh_cli_parse_mask           (const gchar * text,
                                          const gchar * option, guint * out,
                                          GError ** error);

/* -p: "420", "422", "444" or "400". */
gboolean     vh_cli_parse_pix_fmt        (const gchar * s, VhPixFmt * fmt);

G_END_DECLS

#endif /* __VH_CLI_OPTIONS_H__ */
