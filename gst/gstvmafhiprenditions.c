/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The distorted pads' scorings: one per rendition of a ladder. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhiprenditions.h"
#include "gstvmafhipcomparepad.h"

#include <string.h>

GST_DEBUG_CATEGORY_EXTERN (gst_vmaf_hip_compare_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_compare_debug

typedef struct
{
  GstVmafHipScoring *scoring;
  GstPad *pad;
  gboolean released;
  gboolean ready;               /* prepared for this run */
  gboolean built;
} Rendition;

struct _GstVmafHipRenditions
{
  GstElement *element;          /* not owned */
  GstVmafHipGpu *gpu;           /* not owned */
  GMutex lock;                  /* the array, which pads add to */
  GPtrArray *list;              /* Rendition *, by match number */
  GstVmafHipRunConfig config;   /* this run's, from start to stop */
  gboolean running;
};

void
gst_vmaf_hip_run_config_clear (GstVmafHipRunConfig * config)
{
  gst_vmaf_hip_settings_clear (&config->settings);
  g_clear_pointer (&config->features, g_free);
  g_clear_pointer (&config->results_filename, g_free);
  gst_vmaf_hip_watch_settings_clear (&config->watch);
}

static void
rendition_free (gpointer data)
{
  Rendition *rd = data;

  gst_vmaf_hip_scoring_free (rd->scoring);
  gst_object_unref (rd->pad);
  g_free (rd);
}

GstVmafHipRenditions *
gst_vmaf_hip_renditions_new (GstElement * element, GstVmafHipGpu * gpu,
    GstVmafHipScoring * first, GstPad * first_pad)
{
  GstVmafHipRenditions *r = g_new0 (GstVmafHipRenditions, 1);
  Rendition *rd = g_new0 (Rendition, 1);

  r->element = element;
  r->gpu = gpu;
  g_mutex_init (&r->lock);
  r->list = g_ptr_array_new_with_free_func (rendition_free);
  rd->scoring = first;
  rd->pad = gst_object_ref (first_pad);
  g_ptr_array_add (r->list, rd);
  return r;
}

void
gst_vmaf_hip_renditions_free (GstVmafHipRenditions * r)
{
  if (!r)
    return;
  gst_vmaf_hip_run_config_clear (&r->config);
  g_ptr_array_unref (r->list);
  g_mutex_clear (&r->lock);
  g_free (r);
}

static Rendition *
rendition (GstVmafHipRenditions * r, guint index)
{
  Rendition *rd;

  g_mutex_lock (&r->lock);
  rd = index < r->list->len ? g_ptr_array_index (r->list, index) : NULL;
  g_mutex_unlock (&r->lock);
  return rd;
}

void
gst_vmaf_hip_renditions_add (GstVmafHipRenditions * r, guint index,
    GstPad * pad)
{
  Rendition *rd = g_new0 (Rendition, 1);

  g_mutex_lock (&r->lock);
  g_warn_if_fail (index == r->list->len);
  rd->scoring = gst_vmaf_hip_scoring_new_sharing (r->element, r->gpu,
      ((Rendition *) g_ptr_array_index (r->list, 0))->scoring);
  rd->pad = gst_object_ref (pad);
  g_ptr_array_add (r->list, rd);
  g_mutex_unlock (&r->lock);
}

void
gst_vmaf_hip_renditions_release (GstVmafHipRenditions * r, guint index)
{
  Rendition *rd = rendition (r, index);

  if (rd)
    rd->released = TRUE;
}

guint
gst_vmaf_hip_renditions_n (GstVmafHipRenditions * r)
{
  guint n;

  g_mutex_lock (&r->lock);
  n = r->list->len;
  g_mutex_unlock (&r->lock);
  return n;
}

GstVmafHipScoring *
gst_vmaf_hip_renditions_get (GstVmafHipRenditions * r, guint index)
{
  Rendition *rd = rendition (r, index);

  return rd ? rd->scoring : NULL;
}

GstPad *
gst_vmaf_hip_renditions_pad (GstVmafHipRenditions * r, guint index)
{
  Rendition *rd = rendition (r, index);

  return rd ? rd->pad : NULL;
}

gboolean
gst_vmaf_hip_renditions_is_ready (GstVmafHipRenditions * r, guint index)
{
  Rendition *rd = rendition (r, index);

  return rd && rd->ready;
}

guint
gst_vmaf_hip_renditions_n_scored (GstVmafHipRenditions * r)
{
  guint n = 0;

  for (guint i = 0; i < gst_vmaf_hip_renditions_n (r); i++)
    n += !rendition (r, i)->released;
  return n;
}

/* @rd's results file: its pad's results-filename, else the element's with
 * each %s replaced by the label; NULL (and TRUE) for none. With several
 * distorted pads the element's needs %s. */
static gboolean
results_path (GstVmafHipRenditions * r, Rendition * rd, const gchar * label,
    gchar ** path)
{
  const gchar *shared = r->config.results_filename;

  *path = gst_vmaf_hip_compare_pad_dup_results_filename (rd->pad);
  if (*path || !shared)
    return TRUE;
  if (strstr (shared, "%s")) {
    gchar **parts = g_strsplit (shared, "%s", -1);

    *path = g_strjoinv (label, parts);
    g_strfreev (parts);
    return TRUE;
  }
  if (gst_vmaf_hip_renditions_n_scored (r) > 1) {
    GST_ELEMENT_ERROR (r->element, RESOURCE, SETTINGS,
        ("results-filename \"%s\" names one file, but the element scores "
            "%u distorted pads: put %%s in it (each pad's label takes its "
            "place, e.g. scores-%%s.json), or set a results-filename on "
            "each distorted pad.", shared, gst_vmaf_hip_renditions_n_scored (r)),
        ("no results file for %s", GST_PAD_NAME (rd->pad)));
    return FALSE;
  }
  *path = g_strdup (shared);
  return TRUE;
}

/* Configures and prepares @rd's scoring for this run. */
static gboolean
prepare (GstVmafHipRenditions * r, Rendition * rd)
{
  gchar *label = gst_vmaf_hip_compare_pad_dup_label (rd->pad);
  gchar *path = NULL;
  gboolean ok;

  ok = results_path (r, rd, label, &path);
  if (ok) {
    gst_vmaf_hip_scoring_configure (rd->scoring, &r->config.settings,
        r->config.features, path, r->config.results_format,
        r->config.results_interval, r->config.passthrough);
    gst_vmaf_hip_scoring_set_scale (rd->scoring, r->config.scale);
    gst_vmaf_hip_scoring_configure_watch (rd->scoring, &r->config.watch);
    gst_vmaf_hip_scoring_set_pads (rd->scoring, "ref_sink",
        GST_PAD_NAME (rd->pad));
    gst_vmaf_hip_scoring_set_rendition (rd->scoring, GST_PAD_NAME (rd->pad),
        label, rd == rendition (r, 0) ? NULL :
        GST_OBJECT (rd->pad));
    ok = gst_vmaf_hip_scoring_prepare (rd->scoring);
  }
  rd->ready = ok;
  g_free (path);
  g_free (label);
  return ok;
}

gboolean
gst_vmaf_hip_renditions_start (GstVmafHipRenditions * r,
    GstVmafHipRunConfig * config)
{
  GHashTable *paths = g_hash_table_new (g_str_hash, g_str_equal);
  gboolean ok = TRUE;

  gst_vmaf_hip_run_config_clear (&r->config);
  r->config = *config;
  memset (config, 0, sizeof (*config));
  r->running = TRUE;
  for (guint i = 0; i < gst_vmaf_hip_renditions_n (r) && ok; i++) {
    Rendition *rd = rendition (r, i);
    const gchar *path;

    rd->ready = rd->built = FALSE;
    if (rd->released)
      continue;
    ok = prepare (r, rd);
    path = ok ? gst_vmaf_hip_scoring_results_filename (rd->scoring) : NULL;
    if (path && g_hash_table_contains (paths, path)) {
      GST_ELEMENT_ERROR (r->element, RESOURCE, SETTINGS,
          ("Two distorted pads would write one results file \"%s\": give "
              "them different labels or results files.", path),
          ("%s and another pad", GST_PAD_NAME (rd->pad)));
      ok = FALSE;
    } else if (path) {
      g_hash_table_add (paths, (gpointer) path);
    }
  }
  g_hash_table_unref (paths);
  return ok;
}

gboolean
gst_vmaf_hip_renditions_build (GstVmafHipRenditions * r)
{
  for (guint i = 0; i < gst_vmaf_hip_renditions_n (r); i++) {
    Rendition *rd = rendition (r, i);

    if (!rd->ready || rd->built)
      continue;
    if (!gst_vmaf_hip_scoring_build (rd->scoring))
      return FALSE;
    rd->built = TRUE;
  }
  return TRUE;
}

GstVmafHipScoring *
gst_vmaf_hip_renditions_ready (GstVmafHipRenditions * r, guint index)
{
  Rendition *rd = rendition (r, index);

  g_return_val_if_fail (rd != NULL, NULL);
  if (rd->built)
    return rd->scoring;
  if (!r->running || rd->released)
    return NULL;
  /* requested while the element ran */
  if (!rd->ready && !prepare (r, rd))
    return NULL;
  if (!gst_vmaf_hip_scoring_build (rd->scoring))
    return NULL;
  rd->built = TRUE;
  GST_INFO_OBJECT (r->element, "%s joined the run", GST_PAD_NAME (rd->pad));
  return rd->scoring;
}

void
gst_vmaf_hip_renditions_stop (GstVmafHipRenditions * r)
{
  r->running = FALSE;
  for (guint i = 0; i < gst_vmaf_hip_renditions_n (r); i++) {
    Rendition *rd = rendition (r, i);

    rd->ready = rd->built = FALSE;
  }
}
