/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* CAMBI's heatmaps_path option: the c values of every scale written as raw
 * 16-bit grey frames, one file per scale, in libvmaf's names and layout so
 * that its viewers read ours. */

#include "cambi-private.h"
#include "../errors.h"

#include <errno.h>
#include <glib/gstdio.h>

gboolean
vh_cambi_heatmaps_open (VhCambiHeatmaps * hm, const gchar * dir, guint w,
    guint h, GError ** error)
{
  if (g_mkdir_with_parents (dir, 0770) != 0) {
    g_set_error (error, VH_ERROR, VH_ERROR_IO,
        "feature 'cambi': cannot create heatmaps_path '%s': %s", dir,
        g_strerror (errno));
    return FALSE;
  }
  hm->dir = g_strdup (dir);
  hm->w = w;
  hm->h = h;
  return TRUE;
}

/* The files are created with the first frame written, so that an instance
 * set up again at the end of a stream does not empty them. */
static gboolean
heatmaps_create (VhCambiHeatmaps * hm, GError ** error)
{
  guint w = hm->w, h = hm->h;

  /* Named after the encoding size halved per scale. */
  for (guint scale = 0; scale < VH_CAMBI_NUM_SCALES; scale++) {
    gchar *name = g_strdup_printf ("cambi_heatmap_scale_%u_%ux%u_16b.gray",
        scale, w, h);
    gchar *path = g_build_filename (hm->dir, name, NULL);

    hm->files[scale] = g_fopen (path, "wb");
    if (!hm->files[scale]) {
      g_set_error (error, VH_ERROR, VH_ERROR_IO,
          "feature 'cambi': cannot open heatmap '%s': %s", path,
          g_strerror (errno));
      g_free (name);
      g_free (path);
      return FALSE;
    }
    g_free (name);
    g_free (path);
    w = (w + 1) >> 1;
    h = (h + 1) >> 1;
  }
  return TRUE;
}

gboolean
vh_cambi_heatmaps_write (VhCambiHeatmaps * hm, const VhCambiContrast * c,
    guint scale, guint window, const gfloat * c_values, guint w, guint h,
    guint frame, GError ** error)
{
  gint max_weight = c->weight[0];
  gdouble gain;
  guint16 *row;
  FILE *f;
  gboolean ok = TRUE;

  if (!hm->files[0] && !heatmaps_create (hm, error))
    return FALSE;
  f = hm->files[scale];
  row = g_new (guint16, MAX (w, 1));

  /* The largest possible c value maps to 65535. */
  for (guint d = 0; d < c->num_diffs; d++)
    max_weight = MAX (max_weight, c->weight[d]);
  gain = 65535.0 / (gint) (max_weight * window * window / 4);
  for (guint i = 0; i < h && ok; i++) {
    for (guint j = 0; j < w; j++)
      row[j] = (guint16) (gain * c_values[(gsize) i * w + j]);
    /* Frame @frame's place, so that skipped frames leave a gap. */
    ok = fseeko (f, ((off_t) frame * h + i) * w * sizeof (guint16),
        SEEK_SET) == 0 && fwrite (row, sizeof (guint16), w, f) == w;
  }
  g_free (row);
  if (!ok)
    g_set_error (error, VH_ERROR, VH_ERROR_IO,
        "feature 'cambi': cannot write heatmap of scale %u: %s", scale,
        g_strerror (errno));
  return ok;
}

void
vh_cambi_heatmaps_close (VhCambiHeatmaps * hm)
{
  for (guint scale = 0; scale < VH_CAMBI_NUM_SCALES; scale++) {
    if (hm->files[scale])
      fclose (hm->files[scale]);
    hm->files[scale] = NULL;
  }
  g_clear_pointer (&hm->dir, g_free);
}
