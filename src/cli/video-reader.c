/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "video-reader.h"
#include "errors.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define Y4M_SIGNATURE "YUV4MPEG2"

struct _VhVideoReader
{
  gchar *path;
  FILE *file;
  gboolean y4m;
  VhPictureInfo info;
  guint n_read;
  guint8 *row;                  /* one row of file samples */
};

static gboolean
y4m_parse_colorspace (const gchar * tag, VhPixFmt * fmt, guint * bpc)
{
  static const struct
  {
    const gchar *prefix;
    VhPixFmt fmt;
  } layouts[] = {
    {"420", VH_PIX_FMT_YUV420}, {"422", VH_PIX_FMT_YUV422},
    {"444", VH_PIX_FMT_YUV444}, {"mono", VH_PIX_FMT_YUV400},
  };

  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++) {
    gsize n = strlen (layouts[i].prefix);
    const gchar *rest = tag + n;
    if (strncmp (tag, layouts[i].prefix, n))
      continue;
    *fmt = layouts[i].fmt;
    *bpc = 8;
    /* 420jpeg, 420mpeg2 and 420paldv only differ in chroma siting. */
    if (*rest == 'p')
      *bpc = atoi (rest + 1);
    else if (g_str_has_prefix (tag, "mono") && *rest)
      *bpc = atoi (rest);
    return TRUE;
  }
  return FALSE;
}

static gboolean
y4m_read_header (VhVideoReader * r, GError ** error)
{
  gchar line[1024];
  gchar **tokens;
  guint width = 0, height = 0, bpc = 8;
  VhPixFmt fmt = VH_PIX_FMT_YUV420;
  gboolean ok;

  if (!fgets (line, sizeof (line), r->file) || !strchr (line, '\n')) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO,
        "%s: unreadable Y4M header", r->path);
    return FALSE;
  }
  g_strchomp (line);
  tokens = g_strsplit (line, " ", -1);
  for (guint i = 1; tokens[i]; i++) {
    const gchar *t = tokens[i];
    switch (t[0]) {
      case 'W':
        width = atoi (t + 1);
        break;
      case 'H':
        height = atoi (t + 1);
        break;
      case 'C':
        if (!y4m_parse_colorspace (t + 1, &fmt, &bpc)) {
          g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
              "%s: unsupported Y4M colour space '%s'", r->path, t + 1);
          g_strfreev (tokens);
          return FALSE;
        }
        break;
      default:
        break;
    }
  }
  g_strfreev (tokens);
  ok = vh_picture_info_init (&r->info, fmt, bpc, width, height, error);
  if (!ok)
    g_prefix_error (error, "%s: ", r->path);
  return ok;
}

VhVideoReader *
vh_video_reader_open (const gchar * path, const VhPictureInfo * raw_info,
    GError ** error)
{
  VhVideoReader *r = g_new0 (VhVideoReader, 1);
  gchar sig[sizeof (Y4M_SIGNATURE) - 1];

  r->path = g_strdup (path);
  r->file = fopen (path, "rb");
  if (!r->file) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO, "cannot open %s: %s", path,
        g_strerror (errno));
    vh_video_reader_free (r);
    return NULL;
  }
  r->y4m = g_str_has_suffix (path, ".y4m") ||
      (fread (sig, 1, sizeof (sig), r->file) == sizeof (sig) &&
      !memcmp (sig, Y4M_SIGNATURE, sizeof (sig)));
  rewind (r->file);
  if (r->y4m) {
    if (!y4m_read_header (r, error)) {
      vh_video_reader_free (r);
      return NULL;
    }
  } else if (raw_info) {
    r->info = *raw_info;
  } else {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "%s: raw YUV needs a width, height, pixel format and bit depth",
        path);
    vh_video_reader_free (r);
    return NULL;
  }
  r->row = g_malloc ((gsize) r->info.width * 2);
  return r;
}

const VhPictureInfo *
vh_video_reader_get_info (VhVideoReader * reader)
{
  return &reader->info;
}

guint
vh_video_reader_n_read (VhVideoReader * reader)
{
  return reader->n_read;
}

/* Reads one plane row by row; returns the number of samples read. */
static gsize
read_plane (VhVideoReader * r, VhPicture * pic, guint p)
{
  gsize total = 0;
  gboolean wide = r->info.bpc > 8;

  for (guint y = 0; y < pic->height[p]; y++) {
    gsize n = fread (wide ? (gpointer) r->row : vh_picture_row (pic, p, y),
        wide ? 2 : 1, pic->width[p], r->file);
    total += n;
    if (wide) {
      guint16 *dst = vh_picture_row (pic, p, y);
      for (gsize x = 0; x < n; x++)
        dst[x] = r->row[2 * x] | (r->row[2 * x + 1] << 8);
    }
    if (n != pic->width[p])
      break;
  }
  return total;
}

VhPicture *
vh_video_reader_read (VhVideoReader * reader, GError ** error)
{
  VhPicture *pic;
  gsize expected = 0, got = 0;
  gint c;

  if (reader->y4m) {
    gchar line[256];
    if (!fgets (line, sizeof (line), reader->file))
      return NULL;
    if (!g_str_has_prefix (line, "FRAME")) {
      g_set_error (error, VH_ERROR, VH_ERROR_IO,
          "%s: frame %u has no FRAME marker", reader->path, reader->n_read);
      return NULL;
    }
  } else {
    /* A clean end of file is not an error. */
    c = fgetc (reader->file);
    if (c == EOF)
      return NULL;
    ungetc (c, reader->file);
  }

  pic = vh_picture_new (&reader->info);
  for (guint p = 0; p < pic->n_planes; p++) {
    gsize want = (gsize) pic->width[p] * pic->height[p];
    gsize n = read_plane (reader, pic, p);
    expected += want;
    got += n;
    if (n != want) {
      for (guint q = p + 1; q < pic->n_planes; q++)
        expected += (gsize) pic->width[q] * pic->height[q];
      break;
    }
  }
  if (got != expected) {
    gsize bps = reader->info.bpc > 8 ? 2 : 1;
    g_set_error (error, VH_ERROR, VH_ERROR_IO,
        "%s ends in the middle of frame %u (%" G_GSIZE_FORMAT " of %"
        G_GSIZE_FORMAT " bytes)", reader->path, reader->n_read, got * bps,
        expected * bps);
    vh_picture_unref (pic);
    return NULL;
  }
  reader->n_read++;
  return pic;
}

void
vh_video_reader_free (VhVideoReader * reader)
{
  if (!reader)
    return;
  if (reader->file)
    fclose (reader->file);
  g_free (reader->row);
  g_free (reader->path);
  g_free (reader);
}
