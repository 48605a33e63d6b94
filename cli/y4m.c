/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* The Y4M header: its geometry and colour space, read strictly. */

#include "y4m.h"
#include "errors.h"

#include <string.h>

/* A Y4M colour space tag, matched whole: a layout, then either one of its
 * 8-bit siting suffixes or "p" and a bit depth in digits ("mono" takes
 * its depth with or without the "p": ffmpeg writes "mono16"). Anything
 * after that ("420xyz", "444alpha", "420p10x") is refused: read as its
 * prefix, a frame with an alpha plane would be read a plane off. */
static gboolean
y4m_parse_colorspace (const gchar * tag, VhPixFmt * fmt, guint * bpc)
{
  static const struct
  {
    const gchar *prefix;
    VhPixFmt fmt;
    /* Suffixes that only say how chroma is sited. */
    const gchar *siting[4];
  } layouts[] = {
    {"420", VH_PIX_FMT_YUV420, {"jpeg", "mpeg2", "paldv", NULL}},
    {"422", VH_PIX_FMT_YUV422, {"jpeg", NULL}},
    {"444", VH_PIX_FMT_YUV444, {NULL}},
    {"mono", VH_PIX_FMT_YUV400, {NULL}},
  };

  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++) {
    gsize n = strlen (layouts[i].prefix);
    const gchar *rest = tag + n;
    guint64 v;

    if (strncmp (tag, layouts[i].prefix, n))
      continue;
    *fmt = layouts[i].fmt;
    *bpc = 8;
    if (*rest == '\0')
      return TRUE;
    for (guint k = 0; layouts[i].siting[k]; k++)
      if (!strcmp (rest, layouts[i].siting[k]))
        return TRUE;
    if (*rest == 'p')
      rest++;
    else if (layouts[i].fmt != VH_PIX_FMT_YUV400)
      return FALSE;
    /* Strictly digits: "p1x" or "p99999999999" are no bit depth. */
    if (!g_ascii_string_to_unsigned (rest, 10, 1, 16, &v, NULL))
      return FALSE;
    *bpc = (guint) v;
    return TRUE;
  }
  return FALSE;
}

/* ffmpeg's "XCOLORRANGE=FULL|LIMITED"; other X parameters are not ours. */
static gboolean
y4m_parse_extension (const gchar * t, VhColorRange * range)
{
  static const gchar key[] = "XCOLORRANGE=";

  if (strncmp (t, key, sizeof (key) - 1))
    return TRUE;
  t += sizeof (key) - 1;
  if (!strcmp (t, "FULL"))
    *range = VH_COLOR_RANGE_FULL;
  else if (!strcmp (t, "LIMITED"))
    *range = VH_COLOR_RANGE_LIMITED;
  else
    return FALSE;
  return TRUE;
}

gboolean
vh_y4m_read_header (FILE * file, const gchar * path, VhPictureInfo * info,
    VhColorimetry * color, GError ** error)
{
  gchar line[1024] = "";
  gchar **tokens;
  guint width = 0, height = 0, bpc = 8;
  VhPixFmt fmt = VH_PIX_FMT_YUV420;
  VhColorRange range = VH_COLOR_RANGE_UNKNOWN;
  gboolean ok;

  if (!fgets (line, sizeof (line), file) || !strchr (line, '\n')) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO,
        "%s: the Y4M header %s", path, strlen (line) ==
        sizeof (line) - 1 ? "is longer than 1023 bytes" :
        "ends before its line does");
    return FALSE;
  }
  g_strchomp (line);
  tokens = g_strsplit (line, " ", -1);
  for (guint i = 1; tokens[i]; i++) {
    const gchar *t = tokens[i];
    guint64 v;

    switch (t[0]) {
      case 'W':
      case 'H':
        /* Strictly a number in range: atoi() read W4294967456 as 160. */
        if (!g_ascii_string_to_unsigned (t + 1, 10, 1, 32768, &v, NULL)) {
          g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
              "%s: Y4M %s '%s' is not a number from 1 to 32768", path,
              t[0] == 'W' ? "width" : "height", t + 1);
          g_strfreev (tokens);
          return FALSE;
        }
        *(t[0] == 'W' ? &width : &height) = (guint) v;
        break;
      case 'C':
        if (!y4m_parse_colorspace (t + 1, &fmt, &bpc)) {
          g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
              "%s: unsupported Y4M colour space '%s' (%s)", path, t + 1,
              !strcmp (t + 1, "444alpha") ? "4:4:4 with an alpha plane, "
              "which is not read" : "expected 420, 420jpeg, 420mpeg2, "
              "420paldv, 422, 444 or mono, or one with its bit depth as in "
              "420p10");
          g_strfreev (tokens);
          return FALSE;
        }
        break;
      case 'X':
        if (!y4m_parse_extension (t, &range)) {
          g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
              "%s: unknown Y4M colour range '%s' (expected "
              "XCOLORRANGE=FULL or XCOLORRANGE=LIMITED)", path, t);
          g_strfreev (tokens);
          return FALSE;
        }
        break;
      default:
        break;
    }
  }
  g_strfreev (tokens);
  if (color) {
    color->matrix = VH_COLOR_MATRIX_UNKNOWN;
    color->range = range;
  }
  ok = vh_picture_info_init (info, fmt, bpc, width, height, error);
  if (!ok)
    g_prefix_error (error, "%s: ", path);
  return ok;
}

gboolean
vh_y4m_frame_line_ok (const gchar * line, gsize len)
{
  return !strncmp (line, "FRAME", 5) && line[len - 1] == '\n' &&
      !memchr (line, '\n', len - 1) && strnlen (line, len) == len;
}
