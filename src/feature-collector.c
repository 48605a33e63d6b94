/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "feature-collector.h"
#include "errors.h"
#include "log-order.h"

#include <string.h>

typedef struct
{
  gchar *name;
  GArray *values;               /* gdouble; NaN is a value like any other */
  GArray *written;              /* guint8 per value: set or not */
  guint order;                  /* position in declaration order */
  gboolean listed;              /* has held a value: in ->listed */
  gboolean keyed;               /* has a log key: listed by it */
  VhLogKey key;                 /* smallest key of its writes */
} FeatureVector;

struct _VhFeatureCollector
{
  GMutex lock;
  GPtrArray *features;          /* FeatureVector*, in declaration order */
  GPtrArray *listed;            /* those that have held a value, same order */
  GHashTable *by_name;          /* name -> FeatureVector* */
  GPtrArray *aggregate_names;   /* whole-stream values, in first-set order */
  GArray *aggregate_values;     /* gdouble, parallel */
  guint n_frames;
  guint base;                   /* values[i] is frame base + i */
  gboolean resort;              /* a key changed: ->listed to sort */
};

/* Releasing moves memory, so it is done in steps of this many frames. */
#define RELEASE_STEP 256

static void
feature_vector_free (FeatureVector * fv)
{
  g_free (fv->name);
  g_array_unref (fv->values);
  g_array_unref (fv->written);
  g_free (fv);
}

VhFeatureCollector *
vh_feature_collector_new (void)
{
  VhFeatureCollector *fc = g_new0 (VhFeatureCollector, 1);

  g_mutex_init (&fc->lock);
  fc->features = g_ptr_array_new_with_free_func ((GDestroyNotify)
      feature_vector_free);
  fc->listed = g_ptr_array_new ();
  fc->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  fc->aggregate_names = g_ptr_array_new_with_free_func (g_free);
  fc->aggregate_values = g_array_new (FALSE, FALSE, sizeof (gdouble));
  return fc;
}

void
vh_feature_collector_free (VhFeatureCollector * fc)
{
  if (!fc)
    return;
  g_hash_table_unref (fc->by_name);
  g_ptr_array_unref (fc->aggregate_names);
  g_array_unref (fc->aggregate_values);
  g_ptr_array_unref (fc->listed);
  g_ptr_array_unref (fc->features);
  g_mutex_clear (&fc->lock);
  g_free (fc);
}

/* Keyed features first, by key (libvmaf's log order), then the others
 * (model scores, values written without a key) in declaration order. */
static gint
compare_listed (gconstpointer pa, gconstpointer pb)
{
  const FeatureVector *a = *(const FeatureVector **) pa;
  const FeatureVector *b = *(const FeatureVector **) pb;

  if (a->keyed != b->keyed)
    return a->keyed ? -1 : 1;
  if (a->keyed) {
    gint c = vh_log_key_compare (&a->key, &b->key);
    if (c)
      return c;
  }
  return a->order < b->order ? -1 : a->order > b->order;
}

/* A feature is listed once it holds a value; called with the lock held. */
static void
list_feature (VhFeatureCollector * fc, FeatureVector * fv)
{
  g_ptr_array_add (fc->listed, fv);
  fv->listed = TRUE;
  fc->resort = TRUE;
}

static void
sort_listed (VhFeatureCollector * fc)
{
  if (fc->resort)
    g_ptr_array_sort (fc->listed, compare_listed);
  fc->resort = FALSE;
}

/* Called with the lock held. */
static FeatureVector *
lookup_or_add (VhFeatureCollector * fc, const gchar * name)
{
  FeatureVector *fv = g_hash_table_lookup (fc->by_name, name);

  if (!fv) {
    fv = g_new0 (FeatureVector, 1);
    fv->name = g_strdup (name);
    fv->values = g_array_new (FALSE, FALSE, sizeof (gdouble));
    fv->written = g_array_new (FALSE, TRUE, sizeof (guint8));
    fv->order = fc->features->len;
    g_ptr_array_add (fc->features, fv);
    g_hash_table_insert (fc->by_name, fv->name, fv);
  }
  return fv;
}

void
vh_feature_collector_declare (VhFeatureCollector * fc, const gchar * name)
{
  g_mutex_lock (&fc->lock);
  lookup_or_add (fc, name);
  g_mutex_unlock (&fc->lock);
}

gboolean
vh_feature_collector_append (VhFeatureCollector * fc, const gchar * name,
    guint index, gdouble value, GError ** error)
{
  return vh_feature_collector_append_keyed (fc, name, index, value, NULL,
      error);
}

gboolean
vh_feature_collector_append_keyed (VhFeatureCollector * fc,
    const gchar * name, guint index, gdouble value, const VhLogKey * key,
    GError ** error)
{
  FeatureVector *fv;
  gboolean ok = TRUE;

  g_mutex_lock (&fc->lock);
  fv = lookup_or_add (fc, name);
  if (key && (!fv->keyed || vh_log_key_compare (key, &fv->key) < 0)) {
    fv->key = *key;
    fv->keyed = TRUE;
    fc->resort = TRUE;
  }
  if (index < fc->base) {
    g_set_error (error, VH_ERROR, VH_ERROR_FAILED,
        "feature '%s' of frame %u arrived after the frame was released",
        name, index);
    g_mutex_unlock (&fc->lock);
    return FALSE;
  }
  if (fv->values->len <= index - fc->base) {
    g_array_set_size (fv->values, index - fc->base + 1);
    g_array_set_size (fv->written, index - fc->base + 1);
  }
  if (g_array_index (fv->written, guint8, index - fc->base)) {
    g_set_error (error, VH_ERROR, VH_ERROR_FAILED,
        "feature '%s' of frame %u was written twice", name, index);
    ok = FALSE;
  } else {
    g_array_index (fv->values, gdouble, index - fc->base) = value;
    g_array_index (fv->written, guint8, index - fc->base) = 1;
    fc->n_frames = MAX (fc->n_frames, index + 1);
    if (!fv->listed)
      list_feature (fc, fv);
  }
  g_mutex_unlock (&fc->lock);
  return ok;
}

gboolean
vh_feature_collector_get (VhFeatureCollector * fc, const gchar * name,
    guint index, gdouble * value)
{
  FeatureVector *fv;
  gboolean found = FALSE;

  g_mutex_lock (&fc->lock);
  fv = g_hash_table_lookup (fc->by_name, name);
  if (fv && index >= fc->base && index - fc->base < fv->values->len &&
      g_array_index (fv->written, guint8, index - fc->base)) {
    *value = g_array_index (fv->values, gdouble, index - fc->base);
    found = TRUE;
  }
  g_mutex_unlock (&fc->lock);
  return found;
}

guint
vh_feature_collector_n_features (VhFeatureCollector * fc)
{
  guint n;

  g_mutex_lock (&fc->lock);
  sort_listed (fc);
  n = fc->listed->len;
  g_mutex_unlock (&fc->lock);
  return n;
}

const gchar *
vh_feature_collector_feature_name (VhFeatureCollector * fc, guint i)
{
  const gchar *name = NULL;

  g_mutex_lock (&fc->lock);
  sort_listed (fc);
  if (i < fc->listed->len)
    name = ((FeatureVector *) g_ptr_array_index (fc->listed, i))->name;
  g_mutex_unlock (&fc->lock);
  return name;
}

guint
vh_feature_collector_n_frames (VhFeatureCollector * fc)
{
  guint n;

  g_mutex_lock (&fc->lock);
  n = fc->n_frames;
  g_mutex_unlock (&fc->lock);
  return n;
}

void
vh_feature_collector_release (VhFeatureCollector * fc, guint before)
{
  g_mutex_lock (&fc->lock);
  if (before >= fc->base + RELEASE_STEP) {
    for (guint i = 0; i < fc->features->len; i++) {
      FeatureVector *fv = g_ptr_array_index (fc->features, i);
      guint n = MIN (fv->values->len, before - fc->base);
      g_array_remove_range (fv->values, 0, n);
      g_array_remove_range (fv->written, 0, n);
    }
    fc->base = before;
  }
  g_mutex_unlock (&fc->lock);
}

void
vh_feature_collector_clear (VhFeatureCollector * fc)
{
  g_mutex_lock (&fc->lock);
  for (guint i = 0; i < fc->features->len; i++) {
    FeatureVector *fv = g_ptr_array_index (fc->features, i);
    g_array_set_size (fv->values, 0);
    g_array_set_size (fv->written, 0);
    fv->listed = FALSE;
    fv->keyed = FALSE;
  }
  g_ptr_array_set_size (fc->aggregate_names, 0);
  g_array_set_size (fc->aggregate_values, 0);
  g_ptr_array_set_size (fc->listed, 0);
  fc->n_frames = 0;
  fc->base = 0;
  g_mutex_unlock (&fc->lock);
}

void
vh_feature_collector_set_aggregate (VhFeatureCollector * fc,
    const gchar * name, gdouble value)
{
  guint i;

  g_mutex_lock (&fc->lock);
  for (i = 0; i < fc->aggregate_names->len; i++) {
    if (!strcmp (g_ptr_array_index (fc->aggregate_names, i), name))
      break;
  }
  if (i == fc->aggregate_names->len) {
    g_ptr_array_add (fc->aggregate_names, g_strdup (name));
    g_array_set_size (fc->aggregate_values, i + 1);
  }
  g_array_index (fc->aggregate_values, gdouble, i) = value;
  g_mutex_unlock (&fc->lock);
}

guint
vh_feature_collector_n_aggregates (VhFeatureCollector * fc)
{
  guint n;

  g_mutex_lock (&fc->lock);
  n = fc->aggregate_names->len;
  g_mutex_unlock (&fc->lock);
  return n;
}

const gchar *
vh_feature_collector_aggregate (VhFeatureCollector * fc, guint i,
    gdouble * value)
{
  const gchar *name = NULL;

  g_mutex_lock (&fc->lock);
  if (i < fc->aggregate_names->len) {
    name = g_ptr_array_index (fc->aggregate_names, i);
    *value = g_array_index (fc->aggregate_values, gdouble, i);
  }
  g_mutex_unlock (&fc->lock);
  return name;
}
