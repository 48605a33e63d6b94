/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "golden.h"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

struct _VhGoldenScores
{
  JsonParser *parser;
  JsonArray *frames;
  JsonObject *pooled;
  gchar **metrics;
};

const gchar *
vh_golden_dir (void)
{
  static gchar *dir;
  const gchar *env = g_getenv ("VH_GOLDEN_DIR");

  if (dir)
    return dir;
  if (env && g_file_test (env, G_FILE_TEST_IS_DIR)) {
    dir = g_strdup (env);
    return dir;
  }
  gchar *shared = g_build_filename (VH_SOURCE_ROOT, "..", "shared", "golden",
      "pairs.tsv", NULL);
  if (g_file_test (shared, G_FILE_TEST_EXISTS))
    dir = g_path_get_dirname (shared);
  g_free (shared);
  if (!dir) {
    gchar *local = g_build_filename (VH_SOURCE_ROOT, "tests", "data",
        "golden", NULL);
    if (g_file_test (local, G_FILE_TEST_IS_DIR))
      dir = local;
    else
      g_free (local);
  }
  /* A build run from another checkout (a GPU machine given a copy of the
   * tree): the subset beside the working directory. */
  if (!dir && g_file_test ("tests/data/golden/pairs.tsv", G_FILE_TEST_EXISTS))
    dir = g_canonicalize_filename ("tests/data/golden", NULL);
  return dir;
}

static void
pair_free (VhGoldenPair * p)
{
  g_free (p->name);
  g_free (p->ref_path);
  g_free (p->dist_path);
  g_free (p);
}

GPtrArray *
vh_golden_pairs (void)
{
  GPtrArray *pairs = g_ptr_array_new_with_free_func ((GDestroyNotify)
      pair_free);
  const gchar *dir = vh_golden_dir ();
  gchar *contents = NULL;

  if (!dir)
    return pairs;
  gchar *path = g_build_filename (dir, "pairs.tsv", NULL);
  if (g_file_get_contents (path, &contents, NULL, NULL)) {
    gchar **lines = g_strsplit (contents, "\n", -1);
    for (guint i = 1; lines[i]; i++) {
      gchar **f = g_strsplit (lines[i], "\t", -1);
      if (g_strv_length (f) >= 7) {
        VhGoldenPair *p = g_new0 (VhGoldenPair, 1);
        p->name = g_strdup (f[0]);
        p->ref_path = g_build_filename (dir, "yuv", f[1], NULL);
        p->dist_path = g_build_filename (dir, "yuv", f[2], NULL);
        p->width = atoi (f[3]);
        p->height = atoi (f[4]);
        p->bpc = atoi (f[5]);
        p->n_frames = atoi (f[6]);
        g_ptr_array_add (pairs, p);
      }
      g_strfreev (f);
    }
    g_strfreev (lines);
  }
  g_free (contents);
  g_free (path);
  return pairs;
}

VhGoldenPair *
vh_golden_pair_find (GPtrArray * pairs, const gchar * name)
{
  for (guint i = 0; i < pairs->len; i++) {
    VhGoldenPair *p = g_ptr_array_index (pairs, i);
    if (!strcmp (p->name, name))
      return p;
  }
  return NULL;
}

VhPicture *
vh_golden_read_frame (const VhGoldenPair * pair, gboolean ref, guint index,
    GError ** error)
{
  VhPictureInfo info;
  VhPicture *pic;
  const gchar *path = ref ? pair->ref_path : pair->dist_path;
  gsize bps = pair->bpc > 8 ? 2 : 1;
  gsize cw = (pair->width + 1) / 2, ch = (pair->height + 1) / 2;
  gsize frame_bytes = (pair->width * pair->height + 2 * cw * ch) * bps;
  FILE *f;

  if (!vh_picture_info_init (&info, VH_PIX_FMT_YUV420, pair->bpc, pair->width,
          pair->height, error))
    return NULL;
  f = fopen (path, "rb");
  if (!f) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "cannot open %s",
        path);
    return NULL;
  }
  pic = vh_picture_new (&info);
  if (fseek (f, (long) (frame_bytes * index), SEEK_SET) != 0)
    goto short_read;
  for (guint p = 0; p < 3; p++) {
    for (guint y = 0; y < pic->height[p]; y++) {
      if (fread (vh_picture_row (pic, p, y), bps, pic->width[p], f) !=
          pic->width[p])
        goto short_read;
    }
  }
  fclose (f);
  return pic;

short_read:
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_IO,
      "%s: frame %u is incomplete", path, index);
  fclose (f);
  vh_picture_unref (pic);
  return NULL;
}

VhGoldenScores *
vh_golden_scores_load (const VhGoldenPair * pair, const gchar * file,
    GError ** error)
{
  gchar *path = g_build_filename (vh_golden_dir (), "scores", pair->name,
      file, NULL);
  VhGoldenScores *gs;
  JsonObject *root;

  if (!g_file_test (path, G_FILE_TEST_EXISTS)) {
    g_free (path);
    return NULL;
  }
  gs = g_new0 (VhGoldenScores, 1);
  gs->parser = json_parser_new ();
  if (!json_parser_load_from_file (gs->parser, path, error)) {
    g_free (path);
    vh_golden_scores_free (gs);
    return NULL;
  }
  g_free (path);
  root = json_node_get_object (json_parser_get_root (gs->parser));
  gs->frames = json_object_get_array_member (root, "frames");
  gs->pooled = json_object_has_member (root, "pooled_metrics") ?
      json_object_get_object_member (root, "pooled_metrics") : NULL;
  if (gs->frames && json_array_get_length (gs->frames) > 0) {
    JsonObject *m = json_object_get_object_member (json_array_get_object_element
        (gs->frames, 0), "metrics");
    GList *names = json_object_get_members (m);
    GPtrArray *a = g_ptr_array_new ();
    for (GList * l = names; l; l = l->next)
      g_ptr_array_add (a, g_strdup (l->data));
    g_ptr_array_add (a, NULL);
    gs->metrics = (gchar **) g_ptr_array_free (a, FALSE);
    g_list_free (names);
  } else {
    gs->metrics = g_new0 (gchar *, 1);
  }
  return gs;
}

gboolean
vh_golden_scores_has_frames (const VhGoldenPair * pair, const gchar * file)
{
  VhGoldenScores *gs = vh_golden_scores_load (pair, file, NULL);
  gboolean has = gs && vh_golden_scores_n_frames (gs) > 0;

  vh_golden_scores_free (gs);
  return has;
}

void
vh_golden_scores_free (VhGoldenScores * gs)
{
  if (!gs)
    return;
  g_strfreev (gs->metrics);
  g_object_unref (gs->parser);
  g_free (gs);
}

guint
vh_golden_scores_n_frames (VhGoldenScores * gs)
{
  return gs->frames ? json_array_get_length (gs->frames) : 0;
}

const gchar *const *
vh_golden_scores_metrics (VhGoldenScores * gs)
{
  return (const gchar * const *) gs->metrics;
}

gboolean
vh_golden_scores_get (VhGoldenScores * gs, guint frame, const gchar * metric,
    gdouble * value)
{
  JsonObject *fo, *m;

  if (!gs->frames || frame >= json_array_get_length (gs->frames))
    return FALSE;
  fo = json_array_get_object_element (gs->frames, frame);
  m = json_object_get_object_member (fo, "metrics");
  if (!m || !json_object_has_member (m, metric))
    return FALSE;
  *value = json_object_get_double_member (m, metric);
  return TRUE;
}

gboolean
vh_golden_scores_get_pooled (VhGoldenScores * gs, const gchar * metric,
    const gchar * method, gdouble * value)
{
  JsonObject *m;

  if (!gs->pooled || !json_object_has_member (gs->pooled, metric))
    return FALSE;
  m = json_object_get_object_member (gs->pooled, metric);
  if (!json_object_has_member (m, method))
    return FALSE;
  *value = json_object_get_double_member (m, method);
  return TRUE;
}
