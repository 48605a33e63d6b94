/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* One distorted input (-d) of vmafhip-score scored against the one
 * reference: its reader, what brings its pictures to the reference's
 * format and size, its engine context and its run report (results file).
 * vmafhip-score.c reads the reference once and hands each frame to every
 * rendition. */
#ifndef __VH_CLI_RENDITION_H__
#define __VH_CLI_RENDITION_H__

#include <glib.h>

#include "cli-options.h"
#include "cli-pairing.h"
#include "context.h"
#include "convert.h"
#include "run-report.h"
#include "video-reader.h"

G_BEGIN_DECLS

typedef struct
{
  VhCliRenditionSettings settings;
  VhVideoReader *reader;
  /* --convert reference-format: the distorted to the reference's bit
   * depth and chroma layout, NULL when it has them */
  VhFormatConverter *converter;
  /* the distorted's pictures to the reference's size (--scale), NULL
   * when they have it; how, for the results file */
  VhScaler *scaler;
  gchar *scaled_from;
  VhContext *ctx;
  VhRunReport *report;
  /* libvmaf's labels of the models, for the pooled scores on stderr */
  gchar **model_labels;
  /* which reference frame each distorted frame is scored against (frame
   * rates, --align), and the next pair while its reference frame is not
   * read yet */
  VhCliPairing pairing;
  gboolean have_pair;
  guint64 pair_ref;
  guint64 pair_dist;
  /* pairs submitted; FALSE once the distorted ended or no pair is left */
  guint n_frames;
  gboolean active;
} VhCliRendition;

/* Opens distorted input @index of @s (@raw_info: the reference's raw
 * geometry, NULL for Y4M), checks that it can be scored against
 * @ref_info and decides its pairing (frame rates; --align's first pass,
 * said on stderr), naming the input when there are several. */
VhCliRendition *vh_cli_rendition_open    (const VhCliSettings * s,
                                          guint index,
                                          const VhPictureInfo * raw_info,
                                          const VhPictureInfo * ref_info,
                                          GError ** error);

/* Its context (@config: backends and transfer, shared by all), models,
 * features and run report (its results file checked before any scoring).
 * @ref_color: the reference's colorimetry (its Y4M header's), which with
 * the distorted file's fills what --feature options leave out for the
 * features that convert Y'CbCr to RGB. */
gboolean     vh_cli_rendition_prepare    (VhCliRendition * r,
                                          const VhCliSettings * s,
                                          const VhContextConfig * config,
                                          VhOutputFormat format,
                                          const VhPictureInfo * ref_info,
                                          const VhColorimetry * ref_color,
                                          GError ** error);

/* Whether reference frame @ref_index (counted after --frame_skip_ref) is
 * paired: the distorted frame's number in *@dist_index. FALSE when it is
 * not, and when no pair is left (then @r is no longer active). */
gboolean     vh_cli_rendition_pair_for   (VhCliRendition * r,
                                          guint64 ref_index,
                                          guint64 * dist_index);

/* The distorted frame the next pair would read (once the reference
 * ended: whether the distorted goes on); FALSE when none is left. */
gboolean     vh_cli_rendition_next_dist  (VhCliRendition * r,
                                          guint64 * dist_index);

/* Scores @ref against @dist (the distorted's next picture, taken): brought
 * to the reference's format (--convert) and size (--scale) first. */
gboolean     vh_cli_rendition_submit     (VhCliRendition * r, VhPicture * ref,
                                          VhPicture * dist, GError ** error);

/* Pooled model scores on stderr, as libvmaf's tool prints them; @prefix
 * (the label, with several -d) before each line, or NULL. */
void         vh_cli_rendition_print_pooled (VhCliRendition * r,
                                          const gchar * prefix);

/* The context freed first: its workers report to the report until then. */
void         vh_cli_rendition_free       (VhCliRendition * r);

G_END_DECLS

#endif /* __VH_CLI_RENDITION_H__ */
