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
  /* -d, once or more: each distorted scored against the one reference */
  gchar **dist_paths;
  gint width;
  gint height;
  gchar *pix_fmt;
  gint bpc;
  /* Given once (for every -d) or once per -d, in the order of the -d:
   * --dist_w/--dist_h (a raw distorted of another size), --scale, -o
   * (once for several -d only with %s); --label once per -d. */
  gchar **dist_widths;
  gchar **dist_heights;
  gchar **scales;
  gchar **labels;
  /* --convert: none, or reference-format (the distorted to the
   * reference's bit depth and chroma layout, as the element's convert
   * property does) */
  gchar *convert;
  gchar **models;
  gchar **features;
  gchar **outputs;
  gboolean json, xml, csv, sub;
  gint threads;
  gint subsample;
  gint frame_cnt;
  gboolean no_prediction;
  gboolean quiet;
  gboolean version;
  gchar *backend;
  /* --device N: the GPU's index; --self-test: the twins checked there */
  gint device;
  gboolean self_test;
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

/* What one distorted input (-d) is given (strings owned). */
typedef struct
{
  const gchar *path;            /* as given to -d */
  gchar *label;                 /* --label, else the file's base name
                                 * without its extension */
  gchar *output;                /* its results file (-o, %s replaced by
                                 * the label), NULL for none */
  gint dist_width;              /* --dist_w/--dist_h, 0 when not given */
  gint dist_height;
  const gchar *scale;           /* --scale, NULL for the default */
} VhCliRenditionSettings;

/* Parses @argv into @s, the presets expanded in place as libvmaf's tool
 * does. TRUE: go on and score. FALSE: stop with *@exit_status, after the
 * usage (no arguments, --help), the version, or an error naming the
 * option was printed. */
gboolean     vh_cli_settings_parse       (VhCliSettings * s, gint argc,
                                          gchar ** argv, gint * exit_status);

/* The checks that need no file: the inputs named (one standard input
 * for one of them at most), the options given per -d given once or once
 * each (-o with several -d: once with %s, or once each, never two logs
 * to one file), the raw geometry (all of -w -h -p -b, or none: Y4M is
 * told by its header) into @raw_info with *@have_raw, one results layout
 * into @format, counts in range. */
gboolean     vh_cli_settings_check       (const VhCliSettings * s,
                                          VhPictureInfo * raw_info,
                                          gboolean * have_raw,
                                          VhOutputFormat * format,
                                          GError ** error);

/* How many distorted inputs (-d) there are. */
guint        vh_cli_settings_n_dist      (const VhCliSettings * s);

/* What distorted input @index is given, into @rs (cleared with
 * vh_cli_rendition_settings_clear()); FALSE on a --dist_w or --dist_h
 * that is no number. */
gboolean     vh_cli_settings_get_rendition (const VhCliSettings * s,
                                          guint index,
                                          VhCliRenditionSettings * rs,
                                          GError ** error);

void         vh_cli_rendition_settings_clear (VhCliRenditionSettings * rs);

/* The raw distorted's geometry: the reference's @raw_info with
 * --dist_w/--dist_h for its size when given (those need raw input). */
gboolean     vh_cli_settings_dist_geometry (const VhCliRenditionSettings * s,
                                          const VhPictureInfo * raw_info,
                                          gboolean have_raw,
                                          VhPictureInfo * dist_info,
                                          GError ** error);

/* The scaler for a distorted of @dist's size scored against @ref: NULL
 * (and TRUE) when the sizes match, when --scale is none or when the
 * formats differ otherwise, for the caller's refusal to say why; FALSE
 * on a bad --scale. *@description ("bicubic from 1280x720") goes into
 * the results file. */
gboolean     vh_cli_settings_make_scaler (const VhCliRenditionSettings * s,
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
