/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_OUTPUT_H__
#define __VH_OUTPUT_H__

#include <glib.h>
#include <stdio.h>

#include "feature-collector.h"

G_BEGIN_DECLS

typedef enum
{
  VH_OUTPUT_JSON,
  VH_OUTPUT_XML,
  VH_OUTPUT_CSV,
  VH_OUTPUT_SUB,
} VhOutputFormat;

/* "json", "xml", "csv", "sub". */
gboolean     vh_output_format_from_string (const gchar * str,
                                           VhOutputFormat * format);

/* What a log needs besides the values. @n_frames bounds the pooled
 * metrics (frames 0..n_frames-1); @width and @height only go into XML.
 * @dispatch, when not NULL, says where each extractor ran ("adm: hip,
 * cambi: cpu", vh_context_describe_dispatch()): JSON gets it as a top-level
 * "dispatch" member, XML as an attribute of <fyi>; libvmaf's readers
 * ignore both. CSV and SUB have no place for it. @scaler, when not NULL,
 * says how the distorted was resampled to the reference's size
 * ("bicubic from 1280x720"): a top-level "scaler" member in JSON, an
 * attribute of <fyi> in XML, likewise ignored by libvmaf's readers.
 * @n_percentiles percentiles (0..100, vh_pool_percentile()), when asked
 * for, follow the four pooled values of each metric in JSON and XML, under
 * @percentile_names ("p1", "p5", ...); libvmaf's layout has none (0). */
typedef struct
{
  guint n_frames;
  guint subsample;
  gdouble fps;
  guint width;
  guint height;
  const gchar *dispatch;
  const gchar *scaler;
  /* How frames were paired when not frame by frame (alignment by
   * content): @alignment_json, a JSON object, is the top-level
   * "alignment" member of JSON; @alignment, a sentence, an attribute of
   * <fyi> in XML. */
  const gchar *alignment;
  const gchar *alignment_json;
  const gdouble *percentiles;
  const gchar *const *percentile_names;
  guint n_percentiles;
} VhOutputInfo;

/* Writes every value of @fc in libvmaf's layout for @format. */
gboolean     vh_output_write_info         (VhFeatureCollector * fc,
                                           VhOutputFormat format,
                                           const VhOutputInfo * info,
                                           FILE * out, GError ** error);

/* Same, to @path (created or truncated); errors name the path. */
gboolean     vh_output_write_info_file    (VhFeatureCollector * fc,
                                           VhOutputFormat format,
                                           const VhOutputInfo * info,
                                           const gchar * path,
                                           GError ** error);

/* A shorthand without the frame size (XML then says 0x0). */
gboolean     vh_output_write_file         (VhFeatureCollector * fc,
                                           VhOutputFormat format,
                                           guint n_frames, guint subsample,
                                           gdouble fps, const gchar * path,
                                           GError ** error);

G_END_DECLS

#endif /* __VH_OUTPUT_H__ */
