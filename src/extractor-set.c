/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "extractor-set.h"
#include "features/features-builtin.h"

#include <string.h>

struct _VhExtractorSet
{
  gint ref_count;
  GPtrArray *classes;           /* const VhFeatureExtractorClass*, then NULL */
};

VhExtractorSet *
vh_extractor_set_new_builtin (void)
{
  VhExtractorSet *set = g_new0 (VhExtractorSet, 1);

  set->ref_count = 1;
  set->classes = g_ptr_array_new ();
  for (guint i = 0; vh_builtin_feature_extractors[i]; i++)
    g_ptr_array_add (set->classes,
        (gpointer) vh_builtin_feature_extractors[i]);
  g_ptr_array_add (set->classes, NULL);
  return set;
}

void
vh_extractor_set_add (VhExtractorSet * set,
    const VhFeatureExtractorClass * klass)
{
  g_ptr_array_insert (set->classes, set->classes->len - 1, (gpointer) klass);
}

VhExtractorSet *
vh_extractor_set_ref (VhExtractorSet * set)
{
  if (set)
    g_atomic_int_inc (&set->ref_count);
  return set;
}

void
vh_extractor_set_unref (VhExtractorSet * set)
{
  if (!set || !g_atomic_int_dec_and_test (&set->ref_count))
    return;
  g_ptr_array_unref (set->classes);
  g_free (set);
}

VhExtractorSet *
vh_extractor_set_get_builtin (void)
{
  static VhExtractorSet *builtin;

  if (g_once_init_enter (&builtin))
    g_once_init_leave (&builtin, vh_extractor_set_new_builtin ());
  return builtin;
}

const VhFeatureExtractorClass *const *
vh_extractor_set_list (VhExtractorSet * set, guint * n)
{
  if (n)
    *n = set->classes->len - 1;
  return (const VhFeatureExtractorClass * const *) set->classes->pdata;
}

static gboolean
class_provides (const VhFeatureExtractorClass * klass, const gchar * name)
{
  for (guint i = 0; klass->provides && klass->provides[i]; i++) {
    if (!strcmp (klass->provides[i], name))
      return TRUE;
  }
  return FALSE;
}

const VhFeatureExtractorClass *
vh_extractor_set_find (VhExtractorSet * set, const gchar * name,
    VhBackend backends)
{
  const VhFeatureExtractorClass *const *list = vh_extractor_set_list (set,
      NULL);
  static const VhBackend order[] = { VH_BACKEND_HIP, VH_BACKEND_CPU };

  for (guint pass = 0; pass < 2; pass++) {
    for (guint b = 0; b < G_N_ELEMENTS (order); b++) {
      if (!(backends & order[b]))
        continue;
      for (guint i = 0; list[i]; i++) {
        if (!(list[i]->backend & order[b]))
          continue;
        if (pass == 0 ? !strcmp (list[i]->name, name) :
            class_provides (list[i], name))
          return list[i];
      }
    }
  }
  return NULL;
}

gchar *
vh_extractor_set_list_names (VhExtractorSet * set)
{
  const VhFeatureExtractorClass *const *list = vh_extractor_set_list (set,
      NULL);
  GString *s = g_string_new (NULL);

  for (guint i = 0; list[i]; i++) {
    gboolean seen = FALSE;
    for (guint j = 0; j < i; j++)
      seen |= !strcmp (list[j]->name, list[i]->name);
    if (!seen)
      g_string_append_printf (s, "%s%s", s->len ? ", " : "", list[i]->name);
  }
  return g_string_free (s, FALSE);
}

const VhFeatureExtractorClass *
vh_feature_extractor_find (const gchar * name, VhBackend backends)
{
  return vh_extractor_set_find (vh_extractor_set_get_builtin (), name,
      backends);
}

gchar *
vh_feature_extractor_list_names (void)
{
  return vh_extractor_set_list_names (vh_extractor_set_get_builtin ());
}
